/**
 * Sevens (`sevens`, Finnish "Seiskat"): throw six dice, every group adding up
 * to 7 is removed, the rest is your provisional score; stop or throw the rest
 * again, at most as many times as the round's first player did. Rules:
 * shared/rules/sevens.md; every option below is one row of that spec's
 * "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkRoll, fillSlots, gameOver, highest, isDieValue, show } from './push-luck-common.js';
import { gameSay, valueSay, winnersSay } from './board-text.js';

export const DICE_COUNT = 6;

// ---------------------------------------------------------------------------
// Options

export interface SevensOptions {
  /** Which groups are sevens: any set of dice adding to 7, or only pairs 6-1, 5-2, 4-3 (ambiguity 1). */
  readonly sevenCombos: 'anySubset' | 'pairsOnly';
  /**
   * Which removal the engine makes when several are possible (ambiguity 2).
   * Removal always goes on until no group adds to 7. `'bestForPlayer'`: the
   * highest remaining sum; `'maximalCount'`: the most groups (then the highest
   * sum). Ties keep the most dice.
   */
  readonly removal: 'bestForPlayer' | 'maximalCount';
  /** Rounds in a game, when there is no target score (ambiguity 3). */
  readonly rounds: number;
  /** Total that ends the game at the end of the round it is reached in; 0 = none, play `rounds` (the spec's `null`). */
  readonly targetScore: number;
  /** Later players may throw at most as often as the round's first player did (ambiguity 4). */
  readonly throwCapFromLeader: boolean;
  /** Throws the round's first player may make (ambiguity 4). */
  readonly maxThrows: number;
}

export const DEFAULT_OPTIONS: SevensOptions = {
  sevenCombos: 'anySubset',
  removal: 'bestForPlayer',
  rounds: 10,
  targetScore: 0,
  throwCapFromLeader: true,
  maxThrows: 3,
};

const D = DEFAULT_OPTIONS;

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'sevenCombos', type: 'choice', default: D.sevenCombos, choices: ['anySubset', 'pairsOnly'], description: "Which groups are sevens: 'anySubset' any dice adding to 7 (5-1-1, 4-2-1...), 'pairsOnly' only 6-1, 5-2 and 4-3." },
  { name: 'removal', type: 'choice', default: D.removal, choices: ['bestForPlayer', 'maximalCount'], description: "When several removals are possible: 'bestForPlayer' leaves the highest sum, 'maximalCount' removes the most sevens." },
  { name: 'rounds', type: 'integer', default: D.rounds, min: 1, max: 100, description: 'Rounds in a game (ignored when a target score is set).' },
  { name: 'targetScore', type: 'integer', default: D.targetScore, min: 0, description: 'Total that ends the game at the end of its round; 0 means none: play the set number of rounds.' },
  { name: 'throwCapFromLeader', type: 'boolean', default: D.throwCapFromLeader, description: "Later players throw at most as often as the round's first player did." },
  { name: 'maxThrows', type: 'integer', default: D.maxThrows, min: 1, max: 10, description: "Throws the round's first player may make." },
];

export type RemovalRules = Pick<SevensOptions, 'sevenCombos' | 'removal'>;

// ---------------------------------------------------------------------------
// Removing sevens

/** The result of removing sevens from a throw. */
export interface Removal {
  /** Indices of the removed dice, ascending. */
  readonly removed: number[];
  /** The removed groups, as die values. */
  readonly groups: number[][];
  /** Sum of the dice left. */
  readonly remaining: number;
}

interface Terminal {
  readonly groups: number[];
  readonly left: number;
  readonly sum: number;
  readonly count: number;
}

const bits = (mask: number, n: number): number[] => Array.from({ length: n }, (_, i) => i).filter((i) => (mask >> i) & 1);

/**
 * Removes sevens from `dice` until no group adds up to 7, choosing among the
 * possible end states by the `removal` rule; a tie keeps the most dice (so
 * 5,2,1,1,1,2 removes 5+2 and leaves four dice), then the first found.
 */
export function removeSevens(dice: readonly number[], rules: RemovalRules = D): Removal {
  if (dice.length > DICE_COUNT || !dice.every(isDieValue)) throw new RangeError(`Expected up to 6 dice with values 1..6, got [${dice.join(', ')}]`);
  const n = dice.length;
  // Sum and size of every group of dice, by bitmask.
  const sums = [0];
  const sizes = [0];
  for (let m = 1; m < 1 << n; m++) {
    const low = Math.log2(m & -m);
    sums.push((sums[m & (m - 1)] ?? 0) + (dice[low] ?? 0));
    sizes.push((sizes[m & (m - 1)] ?? 0) + 1);
  }
  const valueSum = (mask: number) => sums[mask] ?? 0;
  const isSeven = (mask: number) => valueSum(mask) === 7 && (rules.sevenCombos === 'anySubset' || sizes[mask] === 2);
  const better = (a: Terminal, b: Terminal): boolean => {
    if (rules.removal === 'maximalCount' && a.groups.length !== b.groups.length) return a.groups.length > b.groups.length;
    if (a.sum !== b.sum) return a.sum > b.sum;
    return a.count > b.count;
  };
  const memo = new Map<number, Terminal>();
  const best = (left: number): Terminal => {
    const known = memo.get(left);
    if (known) return known;
    let found: Terminal | null = null;
    // Every non-empty group of the dice still left, lowest slots first (so ties keep the earliest dice found).
    for (let g = 1; g <= left; g++) {
      if ((g & left) !== g || !isSeven(g)) continue;
      const rest = best(left & ~g);
      const t = { ...rest, groups: [g, ...rest.groups] };
      if (found === null || better(t, found)) found = t;
    }
    const result = found ?? { groups: [], left, sum: valueSum(left), count: sizes[left] ?? 0 };
    memo.set(left, result);
    return result;
  };
  const t = best((1 << n) - 1);
  const removedMask = ((1 << n) - 1) & ~t.left;
  return {
    removed: bits(removedMask, n),
    groups: t.groups.map((g) => bits(g, n).map((i) => dice[i] as number)),
    remaining: t.sum,
  };
}

// ---------------------------------------------------------------------------
// State and actions

export interface SevensPlayer {
  readonly name: string;
  readonly total: number;
  /** Score of each finished turn. */
  readonly turns: readonly number[];
}

export interface SevensState {
  readonly game: 'sevens';
  readonly options: SevensOptions;
  readonly players: readonly SevensPlayer[];
  /** `starter`: one die each to choose the first starter; `play`: the rounds. */
  readonly phase: 'starter' | 'play';
  /** Starter throws by seat (null = not thrown yet, or not in the re-throw). */
  readonly starterRolls: readonly (number | null)[];
  /** Seats still throwing for the start (all, then the tied ones). */
  readonly starterCandidates: readonly number[];
  readonly round: number;
  /** The round's first player. */
  readonly leader: number;
  /** Turns finished in this round. */
  readonly turnInRound: number;
  readonly current: number;
  /** The six dice by slot; null = not thrown this turn. */
  readonly dice: readonly (number | null)[];
  /** Dice removed as sevens this turn. */
  readonly removed: readonly boolean[];
  /** Throws made this turn. */
  readonly throws: number;
  /** Throws the round's first player used (null until that turn ends). */
  readonly leaderThrows: number | null;
  /** Sum of the dice left (the provisional turn score). */
  readonly turnScore: number;
  /** Groups removed from the latest throw, as die values. */
  readonly lastGroups: readonly (readonly number[])[];
  /** How the previous turn ended, for the scoreboard. */
  readonly last: string | null;
  readonly over: boolean;
}

export type SevensAction =
  | RollAction
  /** Stop and score the dice left. */
  | { readonly type: 'stop' };

// ---------------------------------------------------------------------------
// Turn flow

/** Throws the current player may make this turn. */
export function throwCap(state: SevensState): number {
  const o = state.options;
  if (state.current === state.leader || !o.throwCapFromLeader) return o.maxThrows;
  return state.leaderThrows ?? o.maxThrows;
}

const freshTurn = () => ({
  dice: Array<number | null>(DICE_COUNT).fill(null),
  removed: Array<boolean>(DICE_COUNT).fill(false),
  throws: 0,
  turnScore: 0,
  lastGroups: [],
});

const liveSlots = (state: SevensState): number[] => state.removed.flatMap((r, i) => (r ? [] : [i]));

function endTurn(state: SevensState): SevensState {
  const seat = state.current;
  const n = state.players.length;
  const players = state.players.map((p, i) => (i === seat ? { ...p, total: p.total + state.turnScore, turns: [...p.turns, state.turnScore] } : p));
  const leaderThrows = seat === state.leader ? state.throws : state.leaderThrows;
  const last = `${state.players[seat]?.name ?? ''} scored ${state.turnScore} in ${state.throws} ${state.throws === 1 ? 'throw' : 'throws'}`;
  const base = { ...state, ...freshTurn(), players, leaderThrows, last };
  const turnInRound = state.turnInRound + 1;
  if (turnInRound < n) return { ...base, turnInRound, current: (state.leader + turnInRound) % n };
  const o = state.options;
  const over = o.targetScore > 0 ? players.some((p) => p.total >= o.targetScore) : state.round >= o.rounds;
  if (over) return { ...base, over: true };
  // The next round starts with the player left of this round's first player.
  const leader = (state.leader + 1) % n;
  return { ...base, round: state.round + 1, leader, current: leader, turnInRound: 0, leaderThrows: null };
}

function applyStarterRoll(state: SevensState, value: number): SevensState {
  const seat = state.current;
  const starterRolls = state.starterRolls.map((r, i) => (i === seat ? value : r));
  const waiting = state.starterCandidates.find((s) => starterRolls[s] === null);
  const dice = [value, ...Array<null>(DICE_COUNT - 1).fill(null)];
  if (waiting !== undefined) return { ...state, starterRolls, current: waiting, dice };
  const tied = highest(state.starterCandidates.map((s) => starterRolls[s] ?? 0)).map((i) => state.starterCandidates[i] as number);
  if (tied.length > 1) {
    // Ties throw again; the others' throws stay on the board.
    return { ...state, starterRolls: starterRolls.map((r, i) => (tied.includes(i) ? null : r)), starterCandidates: tied, current: tied[0] as number, dice };
  }
  const leader = tied[0] as number;
  return { ...state, ...freshTurn(), starterRolls, phase: 'play', leader, current: leader, last: `${state.players[leader]?.name ?? ''} starts with a ${starterRolls[leader]}` };
}

function applyRoll(state: SevensState, values: unknown): SevensState | InvalidAction {
  const request = sevens.diceRequest(state);
  if (request === null) throw new RangeError('Sevens asks for no roll only when the game is over');
  const checked = checkRoll(request, values);
  if (!Array.isArray(checked)) return checked;
  if (state.phase === 'starter') return applyStarterRoll(state, checked[0] as number);
  const found = removeSevens(checked, state.options);
  const removed = [...state.removed];
  for (const i of found.removed) removed[request.slots[i] as number] = true;
  const next: SevensState = {
    ...state,
    dice: fillSlots(state.dice, request.slots, checked),
    removed,
    throws: state.throws + 1,
    turnScore: found.remaining,
    lastGroups: found.groups,
  };
  // Nothing left to throw, or no throws left: the turn scores what is left.
  return removed.every(Boolean) || next.throws >= throwCap(next) ? endTurn(next) : next;
}

// ---------------------------------------------------------------------------
// Board and bot

function board(state: SevensState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  const cap = throwCap(state);
  let status: string;
  if (state.over) {
    const r = sevens.result(state);
    const w = (r?.winners ?? []).map((i) => state.players[i]?.name).join(' and ');
    status = `Game over: ${w} ${(r?.winners.length ?? 0) > 1 ? 'share the win' : 'wins'} with ${Math.max(...(r?.scores ?? [0]))}`;
  } else if (state.phase === 'starter') {
    status = `${name}: throw one die to choose the first player`;
  } else if (state.throws === 0) {
    status = `${name}: throw six dice (up to ${cap} ${cap === 1 ? 'throw' : 'throws'})`;
  } else {
    const left = liveSlots(state).length;
    status = `${name}: stop at ${state.turnScore} or throw ${left} ${left === 1 ? 'die' : 'dice'} again (${cap - state.throws} left)`;
  }
  let say: BoardText;
  if (state.over) {
    const r = sevens.result(state);
    const names = (r?.winners ?? []).map((i) => state.players[i]?.name ?? '');
    say = winnersSay(names, Math.max(...(r?.scores ?? [0])));
  } else if (state.phase === 'starter') say = gameSay('sevens', 'starter', { name });
  else if (state.throws === 0) say = gameSay('sevens', 'throwSix', { name, count: cap });
  else say = gameSay('sevens', 'stopOrAgain', { name, score: state.turnScore, dice: { key: 'board.values.dice', params: { count: liveSlots(state).length } }, count: cap - state.throws });
  const o = state.options;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: state.removed,
    columns: [
      { id: 'total', label: 'Total' },
      { id: 'turn', label: 'This turn' },
      { id: 'start', label: 'Start throw' },
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: { total: p.total, turn: i === state.current && state.phase === 'play' && !state.over ? state.turnScore : null, start: state.starterRolls[i] ?? null },
      out: false,
    })),
    panels: [
      {
        id: 'round',
        label: 'Round',
        items: [
          {
            id: 'round',
            label: 'Round',
            value: o.targetScore > 0 ? `${state.round} (to ${o.targetScore})` : `${state.round} of ${o.rounds}`,
            valueSay: o.targetScore > 0 ? valueSay('to', { number: state.round, to: o.targetScore }) : valueSay('of', { number: state.round, of: o.rounds }),
          },
          { id: 'firstPlayer', label: 'First player', value: state.phase === 'play' ? (state.players[state.leader]?.name ?? null) : null },
          { id: 'throwLimit', label: 'Throw limit', value: state.phase === 'play' ? cap : null, state: 'highlight' },
          { id: 'throws', label: 'Throws', value: state.throws },
        ],
      },
      {
        id: 'sevens',
        label: 'Sevens removed',
        items: [
          ...state.lastGroups.map((g) => ({ id: 'group', label: g.join('+'), params: { dice: g.join('+') }, value: 7, state: 'closed' as const })),
          { id: 'lastTurn', label: 'Last turn', value: state.last },
        ],
      },
    ],
  };
}

/**
 * A simple player: stops once the dice left average 4 or more (a re-throw
 * averages 3.5 before sevens are removed), else throws again.
 */
function bot(state: SevensState): SevensAction | null {
  if (state.phase === 'starter' || state.throws === 0) return null;
  const left = liveSlots(state).length;
  return state.turnScore >= 4 * left ? { type: 'stop' } : null;
}

// ---------------------------------------------------------------------------
// The game

export const sevens: GameDef<SevensState, SevensAction, SevensOptions> = {
  id: 'sevens',
  name: 'Sevens',
  minPlayers: 2,
  maxPlayers: 8,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    "A push-your-luck game for two or more players. One die each picks the first player. On your turn throw six dice; every group of dice adding up to 7 is removed for the rest of the turn, and the dice left are your provisional score. Stop, or throw the remaining dice again. The round's first player may throw up to three times, and everyone after may throw at most as often as they did. Your turn score is the sum of the dice left after your last throw. After ten rounds the highest total wins.",
  dice: { count: DICE_COUNT, colours: [], sizes: [] },
  optionSpecs: OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<SevensOptions>('Sevens', OPTION_SPECS, options);
    checkPlayers('Sevens', players, sevens.minPlayers, sevens.maxPlayers);
    return {
      game: 'sevens',
      options: opts,
      players: players.map((name) => ({ name, total: 0, turns: [] })),
      phase: 'starter',
      starterRolls: players.map(() => null),
      starterCandidates: players.map((_, i) => i),
      round: 1,
      leader: 0,
      turnInRound: 0,
      current: 0,
      ...freshTurn(),
      leaderThrows: null,
      last: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over) return null;
    const slots = state.phase === 'starter' ? [0] : liveSlots(state);
    return { count: slots.length, slots, player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'stop':
        if (state.phase === 'starter') return invalid('game/no_turn_yet', 'The first player is still being chosen; throw one die.');
        if (state.throws === 0) return invalid('game/no_throw_yet', 'Throw the dice at least once before stopping.');
        return endTurn(state);
      default:
        return invalid('game/unknown_action', `Sevens has no action ${show(a?.type)}; use roll or stop.`);
    }
  },

  legalActions(state) {
    return !state.over && state.phase === 'play' && state.throws > 0 ? [{ type: 'stop' }] : [];
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => p.total);
    return { winners: highest(scores), scores };
  },
};
