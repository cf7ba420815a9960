/**
 * Drop Dead (`drop-dead`): throw your live dice; a throw without a 2 or a 5
 * adds its sum to the turn, a throw with one scores nothing and those dice
 * die. The turn ends when every die is dead. Rules: shared/rules/drop-dead.md;
 * every option below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkRoll, fillSlots, gameOver, highest, show, sum } from './push-luck-common.js';
import { gameSay, valueSay, winnersSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Options

/** Dead-face sets offered for `deadFaces`: every single face and every pair, the default first. */
export const DEAD_FACE_CHOICES: readonly string[] = (() => {
  const out = ['2,5'];
  for (let a = 1; a <= 6; a++) {
    if (!out.includes(String(a))) out.push(String(a));
    for (let b = a + 1; b <= 6; b++) if (!out.includes(`${a},${b}`)) out.push(`${a},${b}`);
  }
  return out;
})();

export interface DropDeadOptions {
  /** Turns each player takes (ambiguity 1). */
  readonly rounds: number;
  /**
   * Faces that kill a die, written "2,5" (ambiguity 2). The spec's
   * `number[]` becomes a choice because options are scalars.
   */
  readonly deadFaces: string;
  /** Dice each turn starts with (ambiguity 3). */
  readonly diceCount: number;
  /** Tie for the highest total: share the win, or the tied players play extra turns until one leads (ambiguity 4). */
  readonly endTie: 'shared' | 'rollOff';
}

export const DEFAULT_OPTIONS: DropDeadOptions = { rounds: 1, deadFaces: '2,5', diceCount: 5, endTie: 'shared' };

export const MAX_DICE = 10;

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'rounds', type: 'integer', default: DEFAULT_OPTIONS.rounds, min: 1, max: 50, description: 'Turns each player takes.' },
  { name: 'deadFaces', type: 'choice', default: DEFAULT_OPTIONS.deadFaces, choices: DEAD_FACE_CHOICES, description: "Faces that kill a die ('5' alone is the Stuck in the Mud variant)." },
  { name: 'diceCount', type: 'integer', default: DEFAULT_OPTIONS.diceCount, min: 1, max: MAX_DICE, description: 'Dice each turn starts with.' },
  { name: 'endTie', type: 'choice', default: DEFAULT_OPTIONS.endTie, choices: ['shared', 'rollOff'], description: "Tie for the highest total: 'shared' win, or 'rollOff': the tied players take extra turns until one scores most." },
];

/** The faces of a `deadFaces` option value. */
export const parseDeadFaces = (text: string): number[] => text.split(',').map(Number);

// ---------------------------------------------------------------------------
// Pure helpers

/** What one throw does: the points it adds (0 when a die dies) and which of its dice die. */
export function scoreThrow(values: readonly number[], deadFaces: readonly number[] = [2, 5]): { points: number; dead: boolean[] } {
  const dead = values.map((v) => deadFaces.includes(v));
  return { points: dead.some(Boolean) ? 0 : sum(values), dead };
}

/**
 * Exact expected turn score starting with `dice` live dice (the spec's
 * anchor): E[n]·(1 − pⁿ) = pⁿ·n·μ + Σₖ₍ₖ₍ₙ₎ C(n,k)·pᵏ·(1−p)ⁿ⁻ᵏ·E[k],
 * p = share of live faces, μ = their mean.
 */
export function expectedTurnScore(dice: number, deadFaces: readonly number[] = [2, 5]): number {
  const live = [1, 2, 3, 4, 5, 6].filter((f) => !deadFaces.includes(f));
  if (live.length === 0) return 0;
  const p = live.length / 6;
  const mean = sum(live) / live.length;
  const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
  const e = [0];
  for (let n = 1; n <= dice; n++) {
    let rest = 0;
    for (let k = 1; k < n; k++) rest += choose(n, k) * p ** k * (1 - p) ** (n - k) * (e[k] ?? 0);
    e.push(p === 1 ? Infinity : (p ** n * n * mean + rest) / (1 - p ** n));
  }
  return e[dice] ?? 0;
}

// ---------------------------------------------------------------------------
// State and actions

export interface DropDeadPlayer {
  readonly name: string;
  readonly total: number;
  /** Score of each finished turn (roll-off turns not included). */
  readonly turns: readonly number[];
}

export interface DropDeadState {
  readonly game: 'drop-dead';
  readonly options: DropDeadOptions;
  readonly players: readonly DropDeadPlayer[];
  readonly current: number;
  /** Round number, 1-based. */
  readonly round: number;
  /** The dice by slot; null = not thrown this turn. */
  readonly dice: readonly (number | null)[];
  /** Dead dice (removed for the rest of the turn). */
  readonly dead: readonly boolean[];
  readonly turnScore: number;
  /** Throws made this turn. */
  readonly throws: number;
  /** Seats in the current roll-off (endTie 'rollOff'), or null. */
  readonly rollOff: readonly number[] | null;
  /** Roll-off turn scores by seat (null = not played in this roll-off). */
  readonly rollOffScores: readonly (number | null)[];
  /** What the previous turn scored, for the scoreboard. */
  readonly last: string | null;
  /** Set when the game ends. */
  readonly winners: readonly number[] | null;
  readonly over: boolean;
}

export type DropDeadAction = RollAction;

// ---------------------------------------------------------------------------
// Turn flow

const liveSlots = (state: DropDeadState): number[] => state.dead.flatMap((d, i) => (d ? [] : [i]));

function freshTurn(state: Pick<DropDeadState, 'options'>): Pick<DropDeadState, 'dice' | 'dead' | 'turnScore' | 'throws'> {
  const n = state.options.diceCount;
  return { dice: Array<number | null>(n).fill(null), dead: Array<boolean>(n).fill(false), turnScore: 0, throws: 0 };
}

/** Ends the game, or starts a roll-off among the tied leaders. */
function settle(state: DropDeadState, candidates: readonly number[], scores: readonly number[]): DropDeadState {
  const tied = highest(candidates.map((seat) => scores[seat] ?? 0)).map((i) => candidates[i] as number);
  if (tied.length === 1 || state.options.endTie === 'shared') return { ...state, winners: tied, over: true };
  return { ...state, ...freshTurn(state), rollOff: tied, rollOffScores: state.players.map(() => null), current: tied[0] as number };
}

function endTurn(state: DropDeadState): DropDeadState {
  const seat = state.current;
  const name = state.players[seat]?.name ?? '';
  const last = `${name} dropped dead with ${state.turnScore}`;
  if (state.rollOff !== null) {
    const rollOffScores = state.rollOffScores.map((s, i) => (i === seat ? state.turnScore : s));
    const next = state.rollOff.indexOf(seat) + 1;
    const base = { ...state, ...freshTurn(state), rollOffScores, last };
    if (next < state.rollOff.length) return { ...base, current: state.rollOff[next] as number };
    return settle(base, state.rollOff, rollOffScores.map((s) => s ?? 0));
  }
  const players = state.players.map((p, i) => (i === seat ? { ...p, total: p.total + state.turnScore, turns: [...p.turns, state.turnScore] } : p));
  const base = { ...state, ...freshTurn(state), players, last };
  if (seat < players.length - 1) return { ...base, current: seat + 1 };
  if (state.round >= state.options.rounds) {
    return settle(
      base,
      players.map((_, i) => i),
      players.map((p) => p.total),
    );
  }
  return { ...base, current: 0, round: state.round + 1 };
}

function applyRoll(state: DropDeadState, values: unknown): DropDeadState | InvalidAction {
  const request = dropDead.diceRequest(state);
  if (request === null) throw new RangeError('A running Drop Dead game always waits for a throw');
  const checked = checkRoll(request, values);
  if (!Array.isArray(checked)) return checked;
  const { points, dead: died } = scoreThrow(checked, parseDeadFaces(state.options.deadFaces));
  const dice = fillSlots(state.dice, request.slots, checked);
  const dead = [...state.dead];
  request.slots.forEach((slot, i) => {
    if (died[i]) dead[slot] = true;
  });
  const next = { ...state, dice, dead, turnScore: state.turnScore + points, throws: state.throws + 1 };
  return dead.every(Boolean) ? endTurn(next) : next;
}

// ---------------------------------------------------------------------------
// Board

function board(state: DropDeadState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  const live = liveSlots(state).length;
  let status: string;
  if (state.over) {
    const w = (state.winners ?? []).map((i) => state.players[i]?.name).join(' and ');
    status = `Game over: ${w} ${(state.winners ?? []).length > 1 ? 'share the win' : 'wins'}`;
  } else {
    const what = state.rollOff !== null ? ' (roll-off)' : '';
    status = `${name}: throw ${live} ${live === 1 ? 'die' : 'dice'}${what}, turn score ${state.turnScore}`;
  }
  const winners = (state.winners ?? []).map((i) => state.players[i]?.name ?? '');
  const say = state.over
    ? winnersSay(winners)
    : gameSay('drop-dead', state.rollOff !== null ? 'throwRollOff' : 'throw', { name, count: live, score: state.turnScore });
  const inRollOff = (i: number) => state.rollOff?.includes(i) ?? false;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: state.dead,
    columns: [
      { id: 'total', label: 'Total' },
      { id: 'turn', label: 'This turn' },
      ...(state.options.endTie === 'rollOff' ? [{ id: 'rollOff', label: 'Roll-off' }] : []),
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: {
        total: p.total,
        turn: i === state.current && !state.over ? state.turnScore : null,
        ...(state.options.endTie === 'rollOff' ? { rollOff: state.rollOffScores[i] ?? null } : {}),
      },
      out: state.rollOff !== null && !inRollOff(i),
    })),
    panels: [
      {
        id: 'turn',
        label: 'Turn',
        items: [
          { id: 'round', label: 'Round', value: `${state.round} of ${state.options.rounds}`, valueSay: valueSay('of', { number: state.round, of: state.options.rounds }) },
          { id: 'liveDice', label: 'Live dice', value: live, state: 'highlight' },
          { id: 'turnScore', label: 'Turn score', value: state.turnScore },
          { id: 'deadFaces', label: 'Dead faces', value: state.options.deadFaces },
          { id: 'lastTurn', label: 'Last turn', value: state.last },
        ],
      },
    ],
  };
}

// ---------------------------------------------------------------------------
// The game

export const dropDead: GameDef<DropDeadState, DropDeadAction, DropDeadOptions> = {
  id: 'drop-dead',
  name: 'Drop Dead',
  minPlayers: 1,
  maxPlayers: 8,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    'A dice race with no decisions for one or more players. On your turn throw five dice. A throw without any 2 or 5 adds the sum of the dice to your turn score; a throw showing a 2 or a 5 scores nothing and those dice are dead for the rest of the turn. Keep throwing the live dice until all five are dead; the turn score is then added to your total and never lost. After the agreed number of rounds (one by default) the highest total wins.',
  dice: { count: DEFAULT_OPTIONS.diceCount, colours: [], sizes: [], note: 'The diceCount option changes how many dice a turn starts with (1 to 10).' },
  optionSpecs: OPTION_SPECS,
  board,
  playerView: (state) => state,
  // Nothing to decide: the player always throws.
  bot: () => null,

  setup(players, options) {
    const opts = resolveOptions<DropDeadOptions>('Drop Dead', OPTION_SPECS, options);
    checkPlayers('Drop Dead', players, dropDead.minPlayers, dropDead.maxPlayers);
    const start = {
      game: 'drop-dead' as const,
      options: opts,
      players: players.map((name) => ({ name, total: 0, turns: [] })),
      current: 0,
      round: 1,
      rollOff: null,
      rollOffScores: players.map(() => null),
      last: null,
      winners: null,
      over: false,
    };
    return { ...start, ...freshTurn(start) };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over) return null;
    const slots = liveSlots(state);
    return { count: slots.length, slots, player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown } | null;
    if (a?.type === 'roll') return applyRoll(state, a.values);
    return invalid('game/unknown_action', `Drop Dead has no action ${show(a?.type)}; the only move is to throw (roll).`);
  },

  legalActions: () => [],

  result(state): GameResult | null {
    if (!state.over || state.winners === null) return null;
    return { winners: state.winners, scores: state.players.map((p) => p.total) };
  },
};
