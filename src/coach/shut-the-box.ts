/**
 * The Shut the Box coach: exact optimal play for one turn.
 *
 * A turn is a walk down the 2^9 sets of open boxes, so it is solved exactly
 * by backward induction over (open boxes, dice mode). Two measures: the
 * expected penalty left at the end of the turn (what hints rank by: the
 * module scores a turn as the sum of the open boxes) and the probability of
 * shutting the box (in `facts`, the labels and `shutTheBoxShutChance`, exact
 * as a fraction). Turns are independent, so with `rounds` > 1 the same play
 * minimises each turn's expected penalty and so the expected total; playing
 * to beat the other players' totals would be another measure.
 */
import {
  SHUT_BOXES,
  shutCloseOptions,
  shutOneDieUnlocked,
  shutPartialOptions,
  shutPenalty,
  shutTheBox,
  type ShutTheBoxAction,
  type ShutTheBoxOptions,
  type ShutTheBoxState,
} from '../games/shut-the-box.js';
import type { GameCoach, Policy, RankedDecision, SolvedTables } from './types.js';
import { otherOptions, pickOptions, rankDecisions } from './rank.js';
import { fracAdd, fracLess, fracScale, fracText, fracValue, fraction, type Fraction } from './shut-the-box-fraction.js';

/** Sets of open boxes, bit b-1 for box b. */
const MASKS = 1 << SHUT_BOXES.length;
/** Dice modes: 0 = may choose the dice, 1 = one die for the rest of the turn (`permanent`). */
const MODES = 2;

const boxesOf = (mask: number): number[] => SHUT_BOXES.filter((b) => (mask >> (b - 1)) & 1);
const maskOf = (boxes: readonly number[]): number => boxes.reduce((m, b) => m | (1 << (b - 1)), 0);

/** The throws of `count` dice with their weight out of 36. */
const THROWS: Readonly<Record<1 | 2, ReadonlyArray<{ dice: number[]; weight: number }>>> = {
  1: [1, 2, 3, 4, 5, 6].map((d) => ({ dice: [d], weight: 6 })),
  2: [1, 2, 3, 4, 5, 6].flatMap((a) => [1, 2, 3, 4, 5, 6].filter((b) => b >= a).map((b) => ({ dice: [a, b], weight: a === b ? 1 : 2 }))),
};

/** Arithmetic the solver runs on: doubles for the tables, fractions for the exact figures. */
interface Arith<T> {
  of(n: number): T;
  add(a: T, b: T): T;
  /** a × n / d */
  scale(a: T, n: number, d: number): T;
  /** True when `a` is strictly better than `b` for this measure. */
  better(a: T, b: T): boolean;
}

/** A measure: the value of a turn ending with these boxes open. */
interface Measure<T> {
  readonly arith: Arith<T>;
  end(open: number): T;
}

const float = (low: boolean): Arith<number> => ({ of: (n) => n, add: (a, b) => a + b, scale: (a, n, d) => (a * n) / d, better: low ? (a, b) => a < b : (a, b) => a > b });
const exact = (low: boolean): Arith<Fraction> => ({ of: (n) => fraction(n), add: fracAdd, scale: fracScale, better: low ? fracLess : (a, b) => fracLess(b, a) });

const penaltyMeasure = <T>(arith: Arith<T>): Measure<T> => ({ arith, end: (open) => arith.of(shutPenalty(boxesOf(open))) });
const shutMeasure = <T>(arith: Arith<T>): Measure<T> => ({ arith, end: (open) => arith.of(open === 0 ? 1 : 0) });

/** The dice mode after closing down to `open`: one die stays chosen only under `permanent`. */
const modeAfter = (open: number, mode: number, options: ShutTheBoxOptions): number =>
  options.oneDieChoice === 'permanent' && mode === 1 && shutOneDieUnlocked(boxesOf(open), options) ? 1 : 0;

/** Solves one measure: the value of every (open boxes, mode) at the moment before choosing the dice. */
class ShutSolver<T> {
  readonly values: T[];
  constructor(
    readonly options: ShutTheBoxOptions,
    readonly measure: Measure<T>,
    values?: T[],
  ) {
    this.values = values ?? [];
    if (values) return;
    // Closing only removes boxes, so every set needed is numerically smaller.
    for (let mask = 1; mask < MASKS; mask++) {
      for (let mode = 0; mode < MODES; mode++) this.values[mask * MODES + mode] = this.turnValue(mask, mode);
    }
  }

  /** Value once the boxes of `close` are closed from `open` (the turn may end there). */
  afterClose(open: number, close: number, mode: number, partial: boolean): T {
    const left = open & ~close;
    if (partial || left === 0) return this.measure.end(left);
    return this.values[left * MODES + modeAfter(left, mode, this.options)] as T;
  }

  /** Value of throwing `count` dice from `open`; `mode` is the mode once this throw's dice are chosen. */
  throwValue(open: number, count: 1 | 2, mode: number): T {
    const { arith } = this.measure;
    const boxes = boxesOf(open);
    let total = arith.of(0);
    for (const { dice, weight } of THROWS[count]) {
      const full = shutCloseOptions(boxes, dice, this.options);
      let best: T;
      if (full.length === 0) {
        const partial = shutPartialOptions(boxes, dice, this.options)[0];
        best = partial ? this.afterClose(open, maskOf(partial), mode, true) : this.measure.end(open);
      } else {
        best = this.afterClose(open, maskOf(full[0] as number[]), mode, false);
        for (const c of full.slice(1)) {
          const v = this.afterClose(open, maskOf(c), mode, false);
          if (arith.better(v, best)) best = v;
        }
      }
      total = arith.add(total, arith.scale(best, weight, 1));
    }
    return arith.scale(total, 1, 36);
  }

  /** The dice counts open from (open, mode) with the mode each leaves. */
  choices(open: number, mode: number): Array<{ count: 1 | 2; mode: number }> {
    if (mode === 1) return [{ count: 1, mode: 1 }];
    const two = { count: 2 as const, mode: 0 };
    if (!shutOneDieUnlocked(boxesOf(open), this.options)) return [two];
    return [two, { count: 1, mode: this.options.oneDieChoice === 'permanent' ? 1 : 0 }];
  }

  turnValue(open: number, mode: number): T {
    const values = this.choices(open, mode).map((c) => this.throwValue(open, c.count, c.mode));
    return values.reduce((a, b) => (this.measure.arith.better(b, a) ? b : a));
  }

  /** The value at the start of a turn, all boxes open. */
  get start(): T {
    return this.values[(MASKS - 1) * MODES] as T;
  }
}

// ---------------------------------------------------------------------------
// Exact figures

/** Probability of shutting the box in one turn under play that maximises it, as an exact fraction. */
export function shutTheBoxShutChance(options: ShutTheBoxOptions = shutTheBox.defaultOptions): Fraction {
  return new ShutSolver(options, shutMeasure(exact(false))).start;
}

/** Expected penalty of one turn under play that minimises it, as an exact fraction. */
export function shutTheBoxExpectedPenalty(options: ShutTheBoxOptions = shutTheBox.defaultOptions): Fraction {
  return new ShutSolver(options, penaltyMeasure(exact(true))).start;
}

// ---------------------------------------------------------------------------
// The policy


/** The options that change a turn's play (rounds and ties do not). */
const PLAY_OPTIONS = ['closeRule', 'twoDiceAfterTopClosed', 'oneDieChoice', 'oneDieUnlock', 'partialUse'] as const;

const closeKey = (boxes: readonly number[]): string => `close:${[...boxes].sort((a, b) => a - b).join(',')}`;
const percent = (p: number): string => `${(100 * p).toFixed(1)}%`;

function toArray(values: readonly number[]): Float64Array {
  const out = new Float64Array(MASKS * MODES);
  values.forEach((v, i) => (out[i] = v));
  return out;
}

/** Ranks by the expected penalty (the coach's measure) or, for `probability`, by the chance to shut the box. */
function policy(options: ShutTheBoxOptions, tables: SolvedTables, by: 'expectedPenalty' | 'probability' = 'expectedPenalty'): Policy<ShutTheBoxState, ShutTheBoxAction> {
  const read = (name: string): number[] => {
    const a = tables.arrays[name];
    if (!(a instanceof Float64Array) || a.length !== MASKS * MODES) throw new RangeError(`Shut the Box tables lack ${name}`);
    return Array.from(a);
  };
  const penalty = new ShutSolver(options, penaltyMeasure(float(true)), read('penalty'));
  const shut = new ShutSolver(options, shutMeasure(float(false)), read('shut'));
  const modeOf = (state: ShutTheBoxState): number => (options.oneDieChoice === 'permanent' && state.oneDie ? 1 : 0);

  const low = by === 'expectedPenalty';
  const ranked = low ? penalty : shut;
  const rank = (list: Array<Omit<RankedDecision<ShutTheBoxAction>, 'loss'>>): RankedDecision<ShutTheBoxAction>[] => rankDecisions(list, low ? 'lower' : 'higher');

  const closeDecisions = (state: ShutTheBoxState): RankedDecision<ShutTheBoxAction>[] => {
    const open = maskOf(state.open);
    // The module refuses a full use and a partial one together, so the partial kind is the same for all.
    const partial = shutCloseOptions(state.open, state.dice.filter((d): d is number => d !== null), state.options).length === 0;
    const mode = modeOf(state);
    return rank(
      shutTheBox.legalActions(state).flatMap((action) => {
        if (action.type !== 'close') return [];
        const close = maskOf(action.boxes);
        const left = open & ~close;
        const ends = partial || left === 0;
        const other = low ? `shut chance ${percent(shut.afterClose(open, close, mode, partial))}` : `expected penalty ${penalty.afterClose(open, close, mode, partial).toFixed(2)}`;
        const label = `Close ${action.boxes.join(' and ')}${ends ? `, the turn ends with ${shutPenalty(boxesOf(left))}` : ` (${other})`}`;
        return [{ key: closeKey(action.boxes), label, actions: [action], value: ranked.afterClose(open, close, mode, partial) }];
      }),
    );
  };

  const diceDecisions = (state: ShutTheBoxState): RankedDecision<ShutTheBoxAction>[] => {
    const open = maskOf(state.open);
    const choices = penalty.choices(open, modeOf(state));
    if (choices.length < 2) return [];
    return rank(
      choices.map(({ count, mode }) => {
        // The module keeps the count last chosen; an empty list throws it as it stands.
        const actions: ShutTheBoxAction[] = state.oneDie === (count === 1) ? [] : [{ type: 'dice', count }];
        const other = low ? `shut chance ${percent(shut.throwValue(open, count, mode))}` : `expected penalty ${penalty.throwValue(open, count, mode).toFixed(2)}`;
        const label = `Throw ${count === 1 ? 'one die' : 'two dice'} (${other})`;
        return { key: `dice:${count}`, label, actions, value: ranked.throwValue(open, count, mode) };
      }),
    );
  };

  return {
    measure: by,
    optimum: ranked.start,
    outside: (state) => otherOptions(options, state.options, PLAY_OPTIONS),
    decisions(state) {
      if (state.over || otherOptions(options, state.options, PLAY_OPTIONS) !== null) return [];
      return state.phase === 'close' ? closeDecisions(state) : diceDecisions(state);
    },
    committed(state, action) {
      if (state.over || otherOptions(options, state.options, PLAY_OPTIONS) !== null) return null;
      if (action.type === 'close') {
        // A forced close decides nothing.
        return state.phase === 'close' && shutTheBox.legalActions(state).length > 1 ? closeKey(action.boxes) : null;
      }
      if (action.type === 'roll' && state.phase === 'throw') {
        // The throw commits the dice count (a `dice` action alone only prepares it).
        return penalty.choices(maskOf(state.open), modeOf(state)).length > 1 ? `dice:${state.oneDie ? 1 : 2}` : null;
      }
      if (action.type === 'dice' && action.count === 1 && options.oneDieChoice === 'permanent' && !state.oneDie) return 'dice:1';
      return null;
    },
  };
}

/** The same solve ranked by the chance to shut the box instead (measure `probability`). */
export const shutTheBoxChancePolicy = (options: ShutTheBoxOptions, tables: SolvedTables): Policy<ShutTheBoxState, ShutTheBoxAction> => policy(options, tables, 'probability');

export const shutTheBoxCoach: GameCoach<ShutTheBoxState, ShutTheBoxAction, ShutTheBoxOptions> = {
  game: 'shut-the-box',
  measure: 'expectedPenalty',
  tableKey: (options) => pickOptions(options, PLAY_OPTIONS),
  unsupported: () => null,
  solve(options) {
    const started = performance.now();
    const penalty = new ShutSolver(options, penaltyMeasure(float(true)));
    const shut = new ShutSolver(options, shutMeasure(float(false)));
    const shutExact = shutTheBoxShutChance(options);
    const penaltyExact = shutTheBoxExpectedPenalty(options);
    return {
      arrays: { penalty: toArray(penalty.values), shut: toArray(shut.values) },
      facts: {
        states: MASKS * MODES,
        expectedPenalty: penalty.start,
        expectedPenaltyFraction: fracText(penaltyExact),
        shutProbability: fracValue(shutExact),
        shutFraction: fracText(shutExact),
        seconds: (performance.now() - started) / 1000,
      },
    };
  },
  restore: (options, tables) => policy(options, tables),
};
