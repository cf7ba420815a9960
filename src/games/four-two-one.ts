/**
 * 421 (`four-two-one`), the booklet version: 3 counters each and 11 in the
 * pot; in the charge the lowest throw takes counters from the pot, in the
 * discharge the highest throw pays its own counters back; the first player
 * with none left wins. Rules: shared/rules/four-two-one.md; every option
 * below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, BoardText, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { readRoll, show, sum } from './three-dice-common.js';
import { gameSay, gameValue } from './board-text.js';

// ---------------------------------------------------------------------------
// Ranking

export type FourTwoOneCategory = '421' | '11x' | 'triple' | 'ladder' | 'other';
export const FOUR_TWO_ONE_CATEGORIES: readonly FourTwoOneCategory[] = ['421', '11x', 'triple', 'ladder', 'other'];

/** Every order of the five categories, as the `categoryOrder` option spells it ("421,11x,triple,ladder,other"). */
export const FOUR_TWO_ONE_ORDERS: readonly string[] = (function permutations(xs: readonly FourTwoOneCategory[]): string[] {
  if (xs.length <= 1) return [xs.join(',')];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => `${x},${rest}`));
})(FOUR_TWO_ONE_CATEGORIES);

/** The three dice high to low. */
const sortDesc = (dice: readonly number[]): number[] => [...dice].sort((a, b) => b - a);

/** Which kind of throw three dice make. */
export function fourTwoOneCategory(dice: readonly number[]): FourTwoOneCategory {
  const [h, m, l] = sortDesc(dice) as [number, number, number];
  if (h === 4 && m === 2 && l === 1) return '421';
  if (h === m && m === l) return 'triple'; // 1-1-1 is a triple, not a 1-1-x
  if (m === 1 && l === 1) return '11x';
  if (h === m + 1 && m === l + 1) return 'ladder';
  return 'other';
}

/**
 * A number that orders throws: higher is better. The category's place in
 * `order` counts first, then the dice within it (1-1-x by x, triples and
 * ladders by face, others by highest, middle, lowest die).
 */
export function fourTwoOneRank(dice: readonly number[], order: string = FOUR_TWO_ONE_ORDERS[0] as string): number {
  const cat = fourTwoOneCategory(dice);
  const place = order.split(',').indexOf(cat);
  const [h, m, l] = sortDesc(dice) as [number, number, number];
  return (FOUR_TWO_ONE_CATEGORIES.length - place) * 1000 + h * 100 + m * 10 + l;
}

/** Counters a round's highest throw moves: null for 4-2-1 (its own rule), else x, 3, 2 or 1. */
export function fourTwoOneValue(dice: readonly number[]): number | null {
  switch (fourTwoOneCategory(dice)) {
    case '421':
      return null;
    case '11x':
      return sortDesc(dice)[0] as number;
    case 'triple':
      return 3;
    case 'ladder':
      return 2;
    case 'other':
      return 1;
  }
}

const throwLabel = (dice: readonly number[]): string => sortDesc(dice).join('-');

// ---------------------------------------------------------------------------
// Options

export interface FourTwoOneOptions {
  /** How the lowest throw is found: by the ranking, or by the literal "pip sum". Spec ambiguity 1. */
  readonly lowestBy: 'ranking' | 'pipSum';
  /** Counters each player starts with. Spec ambiguity 2. */
  readonly startingCounters: number;
  /** Counters in the pot at the start. Spec ambiguity 2. */
  readonly potSize: number;
  /** Category order, highest first, as "421,11x,triple,ladder,other". Spec ambiguity 3. */
  readonly categoryOrder: string;
  /** Tie for lowest: one-die roll-off, or every tied player takes/receives. Spec ambiguity 4. */
  readonly lowTieBreak: 'oneDieRollOff' | 'allTake';
  /** Dice set aside before the 2nd throw stay aside for the 3rd. Spec ambiguity 6. */
  readonly keptDiceFrozen: boolean;
  /** Who starts the discharge: the throw-off winner or the first thrower of the last charge round. Spec ambiguity 7. */
  readonly phase2Starter: 'originalStarter' | 'lastRoundStarter';
  /** Most throws of the discharge leader. Spec ambiguity 9. */
  readonly maxThrows: number;
}

export const FOUR_TWO_ONE_DEFAULT_OPTIONS: FourTwoOneOptions = {
  lowestBy: 'ranking',
  startingCounters: 3,
  potSize: 11,
  categoryOrder: '421,11x,triple,ladder,other',
  lowTieBreak: 'oneDieRollOff',
  keptDiceFrozen: false,
  phase2Starter: 'originalStarter',
  maxThrows: 3,
};

export const FOUR_TWO_ONE_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'lowestBy', type: 'choice', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.lowestBy, choices: ['ranking', 'pipSum'], description: "How the lowest throw is found: by the ranking, or by the sum of the pips (the booklet's loose wording)." },
  { name: 'startingCounters', type: 'integer', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.startingCounters, min: 0, max: 30, description: 'Counters each player starts with (the café game starts at 0).' },
  { name: 'potSize', type: 'integer', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.potSize, min: 1, max: 99, description: 'Counters in the pot at the start (the café game has 21).' },
  { name: 'categoryOrder', type: 'choice', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.categoryOrder, choices: FOUR_TWO_ONE_ORDERS, description: 'Order of the kinds of throw, highest first: 4-2-1, 1-1-x, triples, ladders, others.' },
  { name: 'lowTieBreak', type: 'choice', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.lowTieBreak, choices: ['oneDieRollOff', 'allTake'], description: "Tie for lowest: the tied throw one die each and the lowest takes (receives), or every tied player takes from the pot (shares a 4-2-1 gift)." },
  { name: 'keptDiceFrozen', type: 'boolean', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.keptDiceFrozen, description: 'Dice set aside before the 2nd throw may not be thrown again on the 3rd.' },
  { name: 'phase2Starter', type: 'choice', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.phase2Starter, choices: ['originalStarter', 'lastRoundStarter'], description: 'Who starts the discharge: the throw-off winner, or the first thrower of the last charge round.' },
  { name: 'maxThrows', type: 'integer', default: FOUR_TWO_ONE_DEFAULT_OPTIONS.maxThrows, min: 1, max: 10, description: 'Most throws the discharge leader may take; the others may take as many as the leader did.' },
];

// ---------------------------------------------------------------------------
// State and actions

export interface FourTwoOnePlayer {
  readonly name: string;
  readonly counters: number;
}

/** One-die (or, for the starter, three-dice) throws that settle a tie. */
export interface FourTwoOneRollOff {
  readonly kind: 'starter' | 'high' | 'low';
  /** Tied seats, in throwing order. */
  readonly contenders: readonly number[];
  /** Each contender's throw, null until thrown. */
  readonly values: readonly (readonly number[] | null)[];
}

export interface FourTwoOneState {
  readonly game: 'four-two-one';
  readonly options: FourTwoOneOptions;
  readonly players: readonly FourTwoOnePlayer[];
  readonly pot: number;
  /** `starter`: the throw-off; `charge`: phase 1; `discharge`: phase 2. */
  readonly phase: 'starter' | 'charge' | 'discharge' | 'over';
  /** Winner of the throw-off (null until decided). */
  readonly starter: number | null;
  /** Seats of the current round in throwing order. */
  readonly order: readonly number[];
  /** Index in `order` of the player throwing now. */
  readonly turn: number;
  /** Each seat's final throw of this round, null until made. */
  readonly throws: readonly (readonly number[] | null)[];
  /** Throws used by the current discharge player. */
  readonly throwsTaken: number;
  /** Throws the leader used this discharge round (null while the leader throws). */
  readonly limit: number | null;
  readonly dice: readonly (number | null)[];
  /** Dice set aside for the next throw. */
  readonly held: readonly boolean[];
  /** Dice that were aside during a throw (they stay aside when `keptDiceFrozen`). */
  readonly frozen: readonly boolean[];
  readonly rollOff: FourTwoOneRollOff | null;
  /** Discharge: the seat paying this round once known (before a 4-2-1 gift roll-off). */
  readonly payer: number | null;
  /** What the last settled round did, for the board. */
  readonly log: string | null;
  readonly winners: readonly number[];
}

export type FourTwoOneAction =
  | RollAction
  /** Set aside dice (indices 0..2) before the next discharge throw. */
  | { readonly type: 'hold'; readonly dice: readonly number[] }
  /** Throw set-aside dice again. */
  | { readonly type: 'release'; readonly dice: readonly number[] }
  /** Keep the dice as they lie: the turn's result. */
  | { readonly type: 'stop' };

// ---------------------------------------------------------------------------
// The game

const DICE = 3;
const NO_DICE: readonly (number | null)[] = [null, null, null];
const NONE: readonly boolean[] = [false, false, false];

const nameOf = (s: FourTwoOneState, seat: number): string => s.players[seat]?.name ?? '';
const seatsFrom = (first: number, n: number): number[] => Array.from({ length: n }, (_, i) => (first + i) % n);

/** The seat throwing now, or null once over. */
export function fourTwoOneThrower(state: FourTwoOneState): number | null {
  if (state.phase === 'over') return null;
  if (state.rollOff) return state.rollOff.contenders[state.rollOff.values.findIndex((v) => v === null)] ?? null;
  return state.order[state.turn] ?? null;
}

/** Throws the current discharge player may use in all. */
const throwLimit = (s: FourTwoOneState): number => (s.turn === 0 || s.limit === null ? s.options.maxThrows : s.limit);

function newRound(state: FourTwoOneState, phase: 'charge' | 'discharge', first: number): FourTwoOneState {
  return {
    ...state,
    phase,
    order: seatsFrom(first, state.players.length),
    turn: 0,
    throws: state.players.map(() => null),
    throwsTaken: 0,
    limit: null,
    dice: NO_DICE,
    held: NONE,
    frozen: NONE,
    rollOff: null,
    payer: null,
  };
}

const startRollOff = (state: FourTwoOneState, kind: FourTwoOneRollOff['kind'], contenders: readonly number[]): FourTwoOneState => ({
  ...state,
  rollOff: { kind, contenders, values: contenders.map(() => null) },
  dice: NO_DICE,
  held: NONE,
  frozen: NONE,
});

/** Seats (in `seats` order) whose value is the best, highest or lowest. */
function extremes(seats: readonly number[], value: (seat: number) => number, low: boolean): number[] {
  const vals = seats.map(value);
  const best = low ? Math.min(...vals) : Math.max(...vals);
  return seats.filter((_, i) => vals[i] === best);
}

const throwOf = (s: FourTwoOneState, seat: number): readonly number[] => {
  const t = s.throws[seat];
  if (!t) throw new RangeError(`Seat ${seat} has no throw this round`);
  return t;
};

/** The seats with the lowest throw among `seats`, by `lowestBy`. */
function lowestSeats(s: FourTwoOneState, seats: readonly number[]): number[] {
  const by = (seat: number) => (s.options.lowestBy === 'pipSum' ? sum(throwOf(s, seat)) : fourTwoOneRank(throwOf(s, seat), s.options.categoryOrder));
  return extremes(seats, by, true);
}

/** The round's highest throw (ties share its value). */
function highestThrow(s: FourTwoOneState): readonly number[] {
  const rank = (seat: number) => fourTwoOneRank(throwOf(s, seat), s.options.categoryOrder);
  return throwOf(s, extremes(s.order, rank, false)[0] as number);
}

/** Charge: the takers take counters from the pot by the round's highest throw. */
function take(state: FourTwoOneState, takers: readonly number[]): FourTwoOneState {
  const high = highestThrow(state);
  const value = fourTwoOneValue(high);
  let pot = state.pot;
  const got = new Map<number, number>();
  for (const seat of takers) {
    const n = value === null ? Math.max(0, pot - 1) : Math.min(value, pot);
    got.set(seat, n);
    pot -= n;
  }
  const players = state.players.map((p, i) => ({ ...p, counters: p.counters + (got.get(i) ?? 0) }));
  const log = `${[...got].map(([seat, n]) => `${nameOf(state, seat)} took ${n}`).join(', ')} (highest ${throwLabel(high)})`;
  const next: FourTwoOneState = { ...state, players, pot, log };
  if (pot === 0) return startDischarge(next);
  // The (last) taker throws last next round.
  return newRound(next, 'charge', ((takers.at(-1) as number) + 1) % state.players.length);
}

function startDischarge(state: FourTwoOneState): FourTwoOneState {
  const first = state.options.phase2Starter === 'originalStarter' ? (state.starter ?? 0) : (state.order[0] ?? 0);
  // Only possible with startingCounters 0: a player the charge never reached has already won.
  const empty = state.players.flatMap((p, i) => (p.counters === 0 ? [i] : []));
  if (empty.length > 0) return { ...newRound(state, 'discharge', first), phase: 'over', winners: empty };
  return newRound(state, 'discharge', first);
}

/** Discharge: the payer's throw is known; pay into the pot, or give a 4-2-1 gift. */
function settlePayer(state: FourTwoOneState, payer: number): FourTwoOneState {
  const t = throwOf(state, payer);
  const value = fourTwoOneValue(t);
  const n = state.players.length;
  if (value === null) {
    const others = state.order.filter((seat) => seat !== payer);
    const low = lowestSeats(state, others);
    if (low.length > 1 && state.options.lowTieBreak === 'oneDieRollOff') return startRollOff({ ...state, payer }, 'low', low);
    return give({ ...state, payer }, payer, low);
  }
  const paid = Math.min(value, state.players[payer]?.counters ?? 0);
  const players = state.players.map((p, i) => (i === payer ? { ...p, counters: p.counters - paid } : p));
  const log = `${nameOf(state, payer)} paid ${paid} into the pot (${throwLabel(t)})`;
  const next: FourTwoOneState = { ...state, players, pot: state.pot + paid, log };
  if (players[payer]?.counters === 0) return { ...next, phase: 'over', winners: [payer], rollOff: null, payer };
  return newRound(next, 'discharge', (payer + 1) % n);
}

/** A 4-2-1 in the discharge: the thrower keeps one counter and gives the rest to the lowest (shared in turn when several). */
function give(state: FourTwoOneState, payer: number, receivers: readonly number[]): FourTwoOneState {
  const gift = Math.max(0, (state.players[payer]?.counters ?? 0) - 1);
  const got = receivers.map((_, i) => Math.floor(gift / receivers.length) + (i < gift % receivers.length ? 1 : 0));
  const players = state.players.map((p, seat) => {
    if (seat === payer) return { ...p, counters: p.counters - gift };
    const r = receivers.indexOf(seat);
    return r >= 0 ? { ...p, counters: p.counters + (got[r] ?? 0) } : p;
  });
  const log = `${nameOf(state, payer)} threw 4-2-1 and gave ${receivers.map((seat, i) => `${got[i]} to ${nameOf(state, seat)}`).join(', ')}`;
  return newRound({ ...state, players, log }, 'discharge', (payer + 1) % state.players.length);
}

/** Every player of the round has thrown. */
function settleRound(state: FourTwoOneState): FourTwoOneState {
  if (state.phase === 'charge') {
    const low = lowestSeats(state, state.order);
    if (low.length > 1 && state.options.lowTieBreak === 'oneDieRollOff') return startRollOff(state, 'low', low);
    return take(state, low);
  }
  const high = extremes(state.order, (seat) => fourTwoOneRank(throwOf(state, seat), state.options.categoryOrder), false);
  if (high.length > 1) return startRollOff(state, 'high', high);
  return settlePayer(state, high[0] as number);
}

/** Every contender of a roll-off has thrown. */
function settleRollOff(state: FourTwoOneState, r: FourTwoOneRollOff): FourTwoOneState {
  const thrown = (seat: number) => r.values[r.contenders.indexOf(seat)] as readonly number[];
  if (r.kind === 'starter') {
    const best = extremes(r.contenders, (seat) => fourTwoOneRank(thrown(seat), state.options.categoryOrder), false);
    if (best.length > 1) return startRollOff(state, 'starter', best);
    const starter = best[0] as number;
    return newRound({ ...state, starter, log: `${nameOf(state, starter)} starts (${throwLabel(thrown(starter))})` }, 'charge', starter);
  }
  const die = (seat: number) => thrown(seat)[0] as number;
  const tied = extremes(r.contenders, die, r.kind === 'low');
  if (tied.length > 1) return startRollOff(state, r.kind, tied);
  const seat = tied[0] as number;
  const done: FourTwoOneState = { ...state, rollOff: null };
  if (r.kind === 'high') return settlePayer(done, seat);
  if (state.phase === 'charge') return take(done, [seat]);
  return give(done, state.payer as number, [seat]);
}

/** The current discharge player is done: their dice are the round's result for them. */
function finishTurn(state: FourTwoOneState): FourTwoOneState {
  const seat = state.order[state.turn] as number;
  const throws = state.throws.map((t, i) => (i === seat ? (state.dice as number[]) : t));
  const next: FourTwoOneState = {
    ...state,
    throws,
    limit: state.turn === 0 ? state.throwsTaken : state.limit,
    turn: state.turn + 1,
    throwsTaken: 0,
    held: NONE,
    frozen: NONE,
  };
  return next.turn >= next.order.length ? settleRound(next) : next;
}

function applyRoll(state: FourTwoOneState, values: unknown): FourTwoOneState | InvalidAction {
  const request = fourTwoOne.diceRequest(state);
  const read = readRoll(values, request, `${nameOf(state, state.order[state.turn] ?? 0)} has used every throw allowed; stop.`);
  if (!Array.isArray(read) || request === null) return read as InvalidAction;
  const r = state.rollOff;
  if (r) {
    const i = r.values.findIndex((v) => v === null);
    const rollOff = { ...r, values: r.values.map((v, j) => (j === i ? read : v)) };
    const next: FourTwoOneState = { ...state, rollOff, dice: [...read, ...NO_DICE].slice(0, DICE) };
    return rollOff.values.every((v) => v !== null) ? settleRollOff(next, rollOff) : next;
  }
  const dice = [...state.dice];
  request.slots.forEach((slot, i) => {
    dice[slot] = read[i] as number;
  });
  if (state.phase === 'charge') {
    const seat = state.order[state.turn] as number;
    const next: FourTwoOneState = { ...state, dice, throws: state.throws.map((t, i) => (i === seat ? read : t)), turn: state.turn + 1 };
    return next.turn >= next.order.length ? settleRound(next) : next;
  }
  // Discharge: dice aside during this throw stay aside from now on if frozen.
  const frozen = state.options.keptDiceFrozen ? state.held : NONE;
  const next: FourTwoOneState = { ...state, dice, throwsTaken: state.throwsTaken + 1, frozen };
  return next.throwsTaken >= throwLimit(next) ? finishTurn(next) : next;
}

/** Discharge decisions are open once the player has thrown and has throws left. */
const deciding = (s: FourTwoOneState): boolean => s.phase === 'discharge' && s.rollOff === null && s.throwsTaken > 0 && s.throwsTaken < throwLimit(s);

function applyHold(state: FourTwoOneState, indices: unknown, hold: boolean): FourTwoOneState | InvalidAction {
  const verb = hold ? 'set aside' : 'throw again';
  if (!deciding(state)) return invalid('game/not_deciding', `Dice can be ${hold ? 'set aside' : 'released'} only between throws of the discharge.`);
  if (!Array.isArray(indices) || indices.length === 0) return invalid('game/bad_die_index', `Name the dice to ${verb} by index 0 to 2.`);
  const bad = indices.find((i) => typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= DICE);
  if (bad !== undefined) return invalid('game/bad_die_index', `Dice are numbered 0 to 2; cannot ${verb} ${show(bad)}.`);
  if (!hold && (indices as number[]).some((i) => state.frozen[i])) {
    return invalid('game/die_frozen', 'A die set aside before the 2nd throw stays aside for the 3rd.');
  }
  const held = state.held.map((h, i) => ((indices as number[]).includes(i) ? hold : h));
  if (held.every(Boolean)) return invalid('game/must_throw_one', 'At most two dice may be set aside: at least one die is always thrown.');
  return { ...state, held };
}

function applyStop(state: FourTwoOneState): FourTwoOneState | InvalidAction {
  if (!deciding(state)) return invalid('game/not_deciding', 'Stopping is possible only after a throw of your discharge turn.');
  return finishTurn(state);
}

/**
 * A greedy player: keeps any throw of 1-1-x or better, else sets aside its
 * 1s (and a 4 or 2 with a 1, going for 4-2-1) and throws the rest.
 */
function bot(state: FourTwoOneState, random: () => number): FourTwoOneAction | null {
  if (!deciding(state)) return null;
  const dice = state.dice as number[];
  const cat = fourTwoOneCategory(dice);
  if (cat === '421' || cat === '11x' || cat === 'triple') return { type: 'stop' };
  // Target set: frozen dice, then 1s, then a 4 or a 2 beside a 1; two at most.
  const want = new Set<number>(state.frozen.flatMap((f, i) => (f ? [i] : [])));
  const add = (pred: (d: number) => boolean) =>
    dice.forEach((d, i) => {
      if (want.size < 2 && pred(d) && !want.has(i)) want.add(i);
    });
  add((d) => d === 1);
  if (dice.includes(1) && !dice.every((d) => d !== 4 && d !== 2)) add((d) => d === 4 || d === 2);
  // Release before holding, so that no more than two dice are ever aside.
  const release = state.held.findIndex((h, i) => h && !want.has(i) && !state.frozen[i]);
  if (release >= 0) return { type: 'release', dice: [release] };
  const hold = state.held.findIndex((h, i) => !h && want.has(i));
  if (hold >= 0) return { type: 'hold', dice: [hold] };
  // Now and then a bot settles for a fair throw, leaving the others fewer throws.
  return random() < 0.15 ? { type: 'stop' } : null;
}

function board(state: FourTwoOneState): TableBoard {
  const seat = fourTwoOneThrower(state);
  const who = seat === null ? '' : nameOf(state, seat);
  const r = state.rollOff;
  let status: string;
  if (state.phase === 'over') status = `Game over: ${state.winners.map((w) => nameOf(state, w)).join(' and ')} ${state.winners.length > 1 ? 'have' : 'has'} no counters left`;
  else if (r?.kind === 'starter') status = `${who}: throw three dice to decide who starts`;
  else if (r) status = `${who}: throw one die to break the tie for ${r.kind === 'high' ? 'highest' : 'lowest'}`;
  else if (state.phase === 'charge') status = `${who}: throw once (the lowest throw takes from the pot)`;
  else if (state.throwsTaken === 0) status = `${who}: throw (up to ${throwLimit(state)} ${throwLimit(state) === 1 ? 'throw' : 'throws'}; the highest pays)`;
  else status = `${who}: stop, or set dice aside and throw again (throw ${state.throwsTaken} of ${throwLimit(state)})`;
  const G = 'four-two-one';
  let say: BoardText;
  if (state.phase === 'over') say = gameSay(G, state.winners.length > 1 ? 'overMany' : 'over', { names: state.winners.map((w) => nameOf(state, w)) });
  else if (r?.kind === 'starter') say = gameSay(G, 'starter', { name: who });
  else if (r) say = gameSay(G, r.kind === 'high' ? 'tieHighest' : 'tieLowest', { name: who });
  else if (state.phase === 'charge') say = gameSay(G, 'charge', { name: who });
  else if (state.throwsTaken === 0) say = gameSay(G, 'discharge', { name: who, count: throwLimit(state) });
  else say = gameSay(G, 'stopOrAgain', { name: who, number: state.throwsTaken, of: throwLimit(state) });
  const rollDie = (i: number): string | null => {
    const at = r ? r.contenders.indexOf(i) : -1;
    const v = r && at >= 0 ? r.values[at] : null;
    return v ? v.join('-') : null;
  };
  return {
    kind: 'table',
    status,
    say,
    current: seat,
    dice: state.dice,
    held: state.held,
    columns: [
      { id: 'counters', label: 'Counters' },
      { id: 'throw', label: 'This round' },
      { id: 'rollOff', label: 'Roll-off' },
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: { counters: p.counters, throw: state.throws[i] ? throwLabel(state.throws[i] as number[]) : null, rollOff: rollDie(i) },
      out: false,
    })),
    panels: [
      {
        id: 'pot',
        label: 'Pot',
        items: [
          { id: 'inPot', label: 'Counters in the pot', value: state.pot, state: 'highlight' },
          {
            id: 'phase',
            label: 'Phase',
            value: state.phase === 'starter' ? 'Throw-off' : state.phase === 'charge' ? 'Charge (share out the pot)' : 'Discharge (get rid of counters)',
            valueSay: gameValue(G, state.phase === 'starter' ? 'starter' : state.phase === 'charge' ? 'charge' : 'discharge'),
          },
          ...(state.phase === 'discharge' && state.limit !== null ? [{ id: 'throwsAllowed', label: 'Throws allowed', value: state.limit }] : []),
          ...(state.log ? [{ id: 'last', label: 'Last', value: state.log }] : []),
        ],
      },
    ],
  };
}

export const fourTwoOne: GameDef<FourTwoOneState, FourTwoOneAction, FourTwoOneOptions> = {
  id: 'four-two-one',
  name: '421',
  lowScoreWins: true,
  minPlayers: 3,
  maxPlayers: 10,
  defaultOptions: FOUR_TWO_ONE_DEFAULT_OPTIONS,
  summary:
    'A French bar game for 3-10 players with three dice and counters: 3 each and 11 in the pot. Throws rank 4-2-1, then 1-1-x, triples, ladders and the rest. In the charge everyone throws once a round and the lowest throw takes counters from the pot (x for 1-1-x, 3 for a triple, 2 for a ladder, 1 otherwise; all but one after a 4-2-1). When the pot is empty, the leader of each round throws up to three times, setting dice aside, and the others may throw as often; the highest throw pays that many of its own counters into the pot, while a 4-2-1 hands all but one to the lowest. The first player with no counters left wins.',
  dice: { count: 3, colours: [], sizes: [], note: 'Ties are thrown off with one die each.' },
  optionSpecs: FOUR_TWO_ONE_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<FourTwoOneOptions>('421', FOUR_TWO_ONE_OPTION_SPECS, options);
    checkPlayers('421', players, fourTwoOne.minPlayers, fourTwoOne.maxPlayers);
    const seats = players.map((_, i) => i);
    return {
      game: 'four-two-one',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.startingCounters })),
      pot: opts.potSize,
      phase: 'starter',
      starter: null,
      order: seats,
      turn: 0,
      throws: players.map(() => null),
      throwsTaken: 0,
      limit: null,
      dice: NO_DICE,
      held: NONE,
      frozen: NONE,
      rollOff: { kind: 'starter', contenders: seats, values: seats.map(() => null) },
      payer: null,
      log: null,
      winners: [],
    };
  },

  diceRequest(state): DiceRequest | null {
    const seat = fourTwoOneThrower(state);
    if (seat === null) return null;
    const r = state.rollOff;
    if (r) return r.kind === 'starter' ? { count: 3, slots: [0, 1, 2], player: seat, secret: false } : { count: 1, slots: [0], player: seat, secret: false };
    if (state.phase === 'charge' || state.throwsTaken === 0) return { count: 3, slots: [0, 1, 2], player: seat, secret: false };
    if (state.throwsTaken >= throwLimit(state)) return null;
    const slots = state.held.flatMap((h, i) => (h ? [] : [i]));
    return { count: slots.length, slots, player: seat, secret: false };
  },

  apply(state, action) {
    if (state.phase === 'over') return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown; dice?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'hold':
        return applyHold(state, a.dice, true);
      case 'release':
        return applyHold(state, a.dice, false);
      case 'stop':
        return applyStop(state);
      default:
        return invalid('game/unknown_action', `421 has no action ${show(a?.type)}; use roll, hold, release or stop.`);
    }
  },

  legalActions(state) {
    if (!deciding(state)) return [];
    const actions: FourTwoOneAction[] = [{ type: 'stop' }];
    const heldCount = state.held.filter(Boolean).length;
    state.held.forEach((h, i) => {
      if (!h && heldCount < 2) actions.push({ type: 'hold', dice: [i] });
      if (h && !state.frozen[i]) actions.push({ type: 'release', dice: [i] });
    });
    return actions;
  },

  result(state): GameResult | null {
    if (state.phase !== 'over') return null;
    return { winners: state.winners, scores: state.players.map((p) => p.counters) };
  },
};
