/**
 * Shut the Box (`shut-the-box`), the booklet version: a throw closes either
 * the box equal to the sum of the dice or the two boxes equal to the two
 * dice. Rules: shared/rules/shut-the-box.md; every option below is one row of
 * that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { bestSeats, pick, readRoll, show, sum } from './three-dice-common.js';
import { gameSay, valueSay } from './board-text.js';

export const SHUT_BOXES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** Penalty with every box open. */
export const SHUT_MAX_PENALTY = sum(SHUT_BOXES);

// ---------------------------------------------------------------------------
// Options

/** Box sets that may unlock the one-die throw: 9, 8-9, 7-8-9 ... 1-9 (the contract has no list option). */
export const SHUT_UNLOCK_CHOICES = SHUT_BOXES.map((_, i) => SHUT_BOXES.slice(i).join(',')).reverse();

export interface ShutTheBoxOptions {
  /** `sumOrPair`: the booklet rule; `anyCombination`: any open boxes adding up to the throw. Spec ambiguity 1. */
  readonly closeRule: 'sumOrPair' | 'anyCombination';
  /** Two dice once the one-die throw is unlocked: only the pair use (literal) or sum or pair. Spec ambiguity 2. */
  readonly twoDiceAfterTopClosed: 'pairOnly' | 'sumOrPair';
  /** One die chosen before each throw, or for the rest of the turn once chosen. Spec ambiguity 3. */
  readonly oneDieChoice: 'perThrow' | 'permanent';
  /** Boxes that must all be closed before one die may be thrown, as "7,8,9". Spec ambiguity 4. */
  readonly oneDieUnlock: string;
  /** A throw that cannot be used in full closes the one open box of its pair, then the turn ends. Spec ambiguity 5. */
  readonly partialUse: boolean;
  /** Turns per player. Spec ambiguity 6. */
  readonly rounds: number;
  /** Several players on the lowest total: all win, or nobody does. Spec ambiguity 7. */
  readonly endTie: 'shared' | 'noWinner';
}

export const SHUT_THE_BOX_DEFAULT_OPTIONS: ShutTheBoxOptions = {
  closeRule: 'sumOrPair',
  twoDiceAfterTopClosed: 'pairOnly',
  oneDieChoice: 'perThrow',
  oneDieUnlock: '7,8,9',
  partialUse: false,
  rounds: 1,
  endTie: 'shared',
};

export const SHUT_THE_BOX_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'closeRule', type: 'choice', default: SHUT_THE_BOX_DEFAULT_OPTIONS.closeRule, choices: ['sumOrPair', 'anyCombination'], description: "'sumOrPair': close the box of the sum or the boxes of the two dice (booklet); 'anyCombination': any open boxes adding up to the throw (common rule)." },
  { name: 'twoDiceAfterTopClosed', type: 'choice', default: SHUT_THE_BOX_DEFAULT_OPTIONS.twoDiceAfterTopClosed, choices: ['pairOnly', 'sumOrPair'], description: 'Once one die may be thrown, a two-dice throw may only close the boxes of the two dice (literal booklet), or the sum too. Booklet rule only.' },
  { name: 'oneDieChoice', type: 'choice', default: SHUT_THE_BOX_DEFAULT_OPTIONS.oneDieChoice, choices: ['perThrow', 'permanent'], description: "'perThrow': choose one or two dice before every throw; 'permanent': once one die is chosen, the rest of the turn uses one die." },
  { name: 'oneDieUnlock', type: 'choice', default: SHUT_THE_BOX_DEFAULT_OPTIONS.oneDieUnlock, choices: SHUT_UNLOCK_CHOICES, description: 'Boxes that must all be closed before the player may throw one die.' },
  { name: 'partialUse', type: 'boolean', default: SHUT_THE_BOX_DEFAULT_OPTIONS.partialUse, description: 'A throw that cannot be used in full closes what it can (the open box of its two dice), then the turn ends. Booklet rule only.' },
  { name: 'rounds', type: 'integer', default: SHUT_THE_BOX_DEFAULT_OPTIONS.rounds, min: 1, max: 20, description: 'Turns per player; the lowest penalty total wins.' },
  { name: 'endTie', type: 'choice', default: SHUT_THE_BOX_DEFAULT_OPTIONS.endTie, choices: ['shared', 'noWinner'], description: 'Several players on the lowest total: they share the win, or nobody wins.' },
];

// ---------------------------------------------------------------------------
// State and actions

export interface ShutTheBoxPlayer {
  readonly name: string;
  /** Penalty of each finished turn, in order. */
  readonly penalties: readonly number[];
  readonly total: number;
}

export interface ShutTheBoxState {
  readonly game: 'shut-the-box';
  readonly options: ShutTheBoxOptions;
  readonly players: readonly ShutTheBoxPlayer[];
  readonly current: number;
  /** 1-based round (stays at `rounds` once over). */
  readonly round: number;
  /** Open boxes of the current turn, ascending. */
  readonly open: readonly number[];
  /** `throw`: waiting for the tower; `close`: the thrown dice wait to be used. */
  readonly phase: 'throw' | 'close';
  /** The last throw of this turn; slot 1 is null after a one-die throw. */
  readonly dice: readonly (number | null)[];
  /** The next throw (in `throw`) or the last one (in `close`) uses one die. */
  readonly oneDie: boolean;
  /** How the previous turn ended, for the board. */
  readonly last: { readonly player: number; readonly penalty: number; readonly dice: readonly (number | null)[] } | null;
  readonly over: boolean;
}

export type ShutTheBoxAction =
  | RollAction
  /** Choose how many dice the next throw uses (only once one die is unlocked). */
  | { readonly type: 'dice'; readonly count: 1 | 2 }
  /** Close these boxes with the dice on the table. */
  | { readonly type: 'close'; readonly boxes: readonly number[] };

// ---------------------------------------------------------------------------
// Pure rules

/** The boxes whose closing unlocks one die. */
export const shutUnlockBoxes = (options: Pick<ShutTheBoxOptions, 'oneDieUnlock'>): number[] => options.oneDieUnlock.split(',').map(Number);

/** True when every unlock box is closed, so the player may throw one die. */
export function shutOneDieUnlocked(open: readonly number[], options: Pick<ShutTheBoxOptions, 'oneDieUnlock'> = SHUT_THE_BOX_DEFAULT_OPTIONS): boolean {
  return shutUnlockBoxes(options).every((b) => !open.includes(b));
}

/** Every set of open boxes adding up to `total`, each ascending. */
function combinations(open: readonly number[], total: number): number[][] {
  const out: number[][] = [];
  const walk = (from: number, left: number, chosen: number[]) => {
    if (left === 0) {
      out.push(chosen);
      return;
    }
    for (let i = from; i < open.length; i++) {
      const box = open[i] as number;
      if (box <= left) walk(i + 1, left - box, [...chosen, box]);
    }
  };
  walk(0, total, []);
  return out;
}

/**
 * The ways a throw may be used in full: each a set of boxes to close,
 * ascending. `dice` holds one value for a one-die throw, else two.
 */
export function shutCloseOptions(open: readonly number[], dice: readonly number[], options: ShutTheBoxOptions = SHUT_THE_BOX_DEFAULT_OPTIONS): number[][] {
  const total = sum(dice);
  if (options.closeRule === 'anyCombination') return combinations(open, total);
  if (dice.length === 1) return open.includes(total) ? [[total]] : [];
  const [a, b] = dice as [number, number];
  const uses: number[][] = [];
  const pairOnly = options.twoDiceAfterTopClosed === 'pairOnly' && shutOneDieUnlocked(open, options);
  if (!pairOnly && open.includes(total)) uses.push([total]);
  if (a !== b && open.includes(a) && open.includes(b)) uses.push([Math.min(a, b), Math.max(a, b)]);
  return uses;
}

/**
 * What a throw that cannot be used in full may still close under the
 * alternative rule: the open box of two different dice whose other box is
 * closed. Doubles close nothing (the booklet's 5-5 and 6-6 note).
 */
export function shutPartialOptions(open: readonly number[], dice: readonly number[], options: ShutTheBoxOptions = SHUT_THE_BOX_DEFAULT_OPTIONS): number[][] {
  if (!options.partialUse || options.closeRule !== 'sumOrPair' || dice.length !== 2) return [];
  if (shutCloseOptions(open, dice, options).length > 0) return [];
  const [a, b] = dice as [number, number];
  if (a === b) return [];
  const usable = [a, b].filter((d) => open.includes(d));
  return usable.length === 1 ? [usable] : [];
}

/** Penalty for a turn ending with these boxes open. */
export const shutPenalty = (open: readonly number[]): number => sum(open);

// ---------------------------------------------------------------------------
// The game

const NO_DICE: readonly (number | null)[] = [null, null];

const thrown = (state: ShutTheBoxState): number[] => state.dice.filter((d): d is number => d !== null);

/** The closes open now (full uses, or the partial one when none is). */
function currentCloses(state: ShutTheBoxState): { boxes: number[][]; partial: boolean } {
  if (state.phase !== 'close') return { boxes: [], partial: false };
  const full = shutCloseOptions(state.open, thrown(state), state.options);
  if (full.length > 0) return { boxes: full, partial: false };
  return { boxes: shutPartialOptions(state.open, thrown(state), state.options), partial: true };
}

/** Ends the current turn: scores the open boxes and hands the dice on. */
function endTurn(state: ShutTheBoxState, open: readonly number[]): ShutTheBoxState {
  const p = shutPenalty(open);
  const players = state.players.map((pl, i) => (i === state.current ? { ...pl, penalties: [...pl.penalties, p], total: pl.total + p } : pl));
  const lastSeat = state.current === state.players.length - 1;
  const over = lastSeat && state.round >= state.options.rounds;
  return {
    ...state,
    players,
    current: over ? state.current : lastSeat ? 0 : state.current + 1,
    round: lastSeat && !over ? state.round + 1 : state.round,
    open: [...SHUT_BOXES],
    phase: 'throw',
    dice: NO_DICE,
    oneDie: false,
    last: { player: state.current, penalty: p, dice: state.dice },
    over,
  };
}

function applyRoll(state: ShutTheBoxState, values: unknown): ShutTheBoxState | InvalidAction {
  const dice = readRoll(values, shutTheBox.diceRequest(state), 'The dice on the table must be used first: close boxes.');
  if (!Array.isArray(dice)) return dice;
  const next: ShutTheBoxState = { ...state, dice: dice.length === 1 ? [dice[0] as number, null] : dice, phase: 'close' };
  // A throw that cannot be used at all ends the turn at once.
  return currentCloses(next).boxes.length === 0 ? endTurn(next, state.open) : next;
}

function applyDice(state: ShutTheBoxState, count: unknown): ShutTheBoxState | InvalidAction {
  if (count !== 1 && count !== 2) return invalid('game/bad_dice_count', `Throw one or two dice; got ${show(count)}.`);
  if (state.phase !== 'throw') return invalid('game/not_throwing', 'Use the dice on the table before choosing the next throw.');
  if (!shutOneDieUnlocked(state.open, state.options)) {
    return invalid('game/one_die_locked', `One die may be thrown only once boxes ${state.options.oneDieUnlock} are all closed.`);
  }
  if (count === 2 && state.oneDie && state.options.oneDieChoice === 'permanent') {
    return invalid('game/one_die_kept', 'Having chosen one die, the player throws one die for the rest of the turn.');
  }
  return { ...state, oneDie: count === 1 };
}

function applyClose(state: ShutTheBoxState, boxes: unknown): ShutTheBoxState | InvalidAction {
  if (state.phase !== 'close') return invalid('game/not_closing', 'Throw the dice before closing boxes.');
  if (!Array.isArray(boxes) || boxes.length === 0 || !boxes.every((b) => typeof b === 'number' && Number.isInteger(b))) {
    return invalid('game/bad_boxes', 'Name the boxes to close as a list of numbers 1 to 9.');
  }
  const want = [...(boxes as number[])].sort((a, b) => a - b);
  const { boxes: allowed, partial } = currentCloses(state);
  if (!allowed.some((c) => c.length === want.length && c.every((b, i) => b === want[i]))) {
    const list = allowed.map((c) => c.join('+')).join(' or ');
    return invalid('game/illegal_close', `With ${thrown(state).join('-')} the boxes to close are ${list}, not ${want.join('+')}.`);
  }
  const open = state.open.filter((b) => !want.includes(b));
  if (partial || open.length === 0) return endTurn(state, open);
  // perThrow: the choice of one die is made afresh before every throw.
  const oneDie = state.options.oneDieChoice === 'permanent' && state.oneDie && shutOneDieUnlocked(open, state.options);
  return { ...state, open, phase: 'throw', oneDie };
}

/** Chance that a throw of `count` dice can be used in full here. */
function usableChance(open: readonly number[], count: 1 | 2, options: ShutTheBoxOptions): number {
  let ok = 0;
  for (let a = 1; a <= 6; a++) {
    if (count === 1) ok += shutCloseOptions(open, [a], options).length > 0 ? 6 : 0;
    else for (let b = 1; b <= 6; b++) ok += shutCloseOptions(open, [a, b], options).length > 0 ? 1 : 0;
  }
  return ok / 36;
}

/**
 * A greedy player: closes the highest box it can (keeping the small boxes
 * for small throws) and throws one die when that is likelier to be usable.
 */
function bot(state: ShutTheBoxState, random: () => number): ShutTheBoxAction | null {
  if (state.phase === 'close') {
    const { boxes } = currentCloses(state);
    const top = Math.max(...boxes.map((c) => Math.max(...c)));
    const best = boxes.filter((c) => Math.max(...c) === top);
    return { type: 'close', boxes: best.length === 1 ? (best[0] as number[]) : pick(best, random) };
  }
  if (!shutOneDieUnlocked(state.open, state.options)) return null;
  // The wish depends only on the boxes, so it never flips back and forth.
  const wantOne = usableChance(state.open, 1, state.options) > usableChance(state.open, 2, state.options);
  const legal = shutTheBox.legalActions(state);
  const change = legal.find((a) => a.type === 'dice' && a.count === (wantOne ? 1 : 2));
  return change && state.oneDie !== wantOne ? change : null;
}

function board(state: ShutTheBoxState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  let status: string;
  if (state.over) {
    const r = shutTheBox.result(state);
    const winners = (r?.winners ?? []).map((i) => state.players[i]?.name ?? '');
    status = winners.length === 0 ? 'Game over: tie, nobody wins' : `Game over: ${winners.join(' and ')} ${winners.length > 1 ? 'win' : 'wins'}`;
  } else if (state.phase === 'close') {
    // One way to close as its boxes joined by '+' ("1+2 or 3"): a list of lists in words would read as one list.
    status = `${name}: close ${new Intl.ListFormat('en-GB', { type: 'disjunction' }).format(currentCloses(state).boxes.map((c) => c.join('+')))}`;
  } else if (shutOneDieUnlocked(state.open, state.options)) {
    status = `${name}: throw ${state.oneDie ? 'one die' : 'two dice'} (one die allowed)`;
  } else {
    status = `${name}: throw two dice`;
  }
  let say: BoardText;
  if (state.over) {
    const r = shutTheBox.result(state);
    const winners = (r?.winners ?? []).map((i) => state.players[i]?.name ?? '');
    say = winners.length === 0 ? gameSay('shut-the-box', 'tie') : gameSay('shut-the-box', winners.length > 1 ? 'overShared' : 'over', { names: winners });
  } else if (state.phase === 'close') {
    say = gameSay('shut-the-box', 'close', { name, boxes: { anyOf: currentCloses(state).boxes.map((c) => c.join('+')) } });
  } else if (shutOneDieUnlocked(state.open, state.options)) {
    say = gameSay('shut-the-box', state.oneDie ? 'throwOneAllowed' : 'throwTwoOneAllowed', { name });
  } else {
    say = gameSay('shut-the-box', 'throwTwo', { name });
  }
  const last = state.last;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false],
    columns: [
      { id: 'total', label: 'Penalty total' },
      { id: 'turns', label: 'Turns' },
    ],
    players: state.players.map((p) => ({ name: p.name, values: { total: p.total, turns: p.penalties.join(', ') }, out: false })),
    panels: [
      { id: 'boxes', label: 'Boxes', items: SHUT_BOXES.map((b) => ({ id: 'box', label: String(b), params: { number: b }, state: state.open.includes(b) ? ('open' as const) : ('closed' as const) })) },
      {
        id: 'turn',
        label: 'Turn',
        items: [
          { id: 'round', label: 'Round', value: `${state.round} of ${state.options.rounds}`, valueSay: valueSay('of', { number: state.round, of: state.options.rounds }) },
          { id: 'openTotal', label: 'Open boxes total', value: shutPenalty(state.open) },
          ...(last ? [{ id: 'lastTurnOf', label: `Last turn (${state.players[last.player]?.name ?? ''})`, params: { name: state.players[last.player]?.name ?? '' }, value: last.penalty }] : []),
        ],
      },
    ],
  };
}

export const shutTheBox: GameDef<ShutTheBoxState, ShutTheBoxAction, ShutTheBoxOptions> = {
  id: 'shut-the-box',
  name: 'Shut the Box',
  lowScoreWins: true,
  minPlayers: 2,
  maxPlayers: 6,
  defaultOptions: SHUT_THE_BOX_DEFAULT_OPTIONS,
  summary:
    'Boxes 1 to 9 start open. On your turn throw two dice and close either the one box equal to their sum or the two boxes showing on the dice, then throw again; the turn ends when a throw cannot be used. Once 7, 8 and 9 are closed you may throw a single die, which closes its own box. The open boxes left are your penalty points (45 if none closed); after every player has had a turn the lowest total wins.',
  dice: { count: 2, colours: [], sizes: [], note: 'Sometimes only one die is thrown.' },
  optionSpecs: SHUT_THE_BOX_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<ShutTheBoxOptions>('Shut the Box', SHUT_THE_BOX_OPTION_SPECS, options);
    checkPlayers('Shut the Box', players, shutTheBox.minPlayers, shutTheBox.maxPlayers);
    return {
      game: 'shut-the-box',
      options: opts,
      players: players.map((name) => ({ name, penalties: [], total: 0 })),
      current: 0,
      round: 1,
      open: [...SHUT_BOXES],
      phase: 'throw',
      dice: NO_DICE,
      oneDie: false,
      last: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over || state.phase !== 'throw') return null;
    return state.oneDie ? { count: 1, slots: [0], player: state.current, secret: false } : { count: 2, slots: [0, 1], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown; count?: unknown; boxes?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'dice':
        return applyDice(state, a.count);
      case 'close':
        return applyClose(state, a.boxes);
      default:
        return invalid('game/unknown_action', `Shut the Box has no action ${show(a?.type)}; use roll, dice or close.`);
    }
  },

  legalActions(state) {
    if (state.over) return [];
    if (state.phase === 'close') return currentCloses(state).boxes.map((boxes) => ({ type: 'close', boxes }));
    if (!shutOneDieUnlocked(state.open, state.options)) return [];
    if (!state.oneDie) return [{ type: 'dice', count: 1 }];
    return state.options.oneDieChoice === 'permanent' ? [] : [{ type: 'dice', count: 2 }];
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => p.total);
    const winners = bestSeats(scores, true);
    return { winners: winners.length > 1 && state.options.endTie === 'noWinner' ? [] : winners, scores };
  },
};
