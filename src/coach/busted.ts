/**
 * The Busted coach: exact win probabilities for the last two players.
 *
 * With two players left, counters are conserved and only the player to move
 * can lose any, so a position is (which of the eight fields 3-6, 8-11 hold
 * their placement, the counters in the prison, the mover's counters); the
 * other player holds the rest. Nobody can win together, so the other's chance
 * is 1 minus the mover's. Turns pass back and forth, so the table is solved by
 * value iteration (Gauss-Seidel) until it stops moving. The only choice is
 * after taking counters: throw again or stop.
 *
 * The module plays Busted with 3-10 seats, so the positions coached are those
 * with two players left: the solve keeps one table per seat count (the total
 * counters differ), for `seats` 2 and 3 by default. A player who goes out
 * leaves a part placement behind; in the prison it is covered (the prison is
 * solved counter by counter for 3+ seats), on another field the position is
 * outside until someone takes it.
 */
import { FIELDS, PRISON, type BustedAction, type BustedOptions, type BustedState } from '../games/busted.js';
import type { GameCoach, Policy, RankedDecision, SolvedTables, SolveProgress } from './types.js';
import { otherOptions, pickOptions, rankDecisions } from './rank.js';

/** The fields that are empty or hold their own number, bit by bit. */
const PLAIN = FIELDS.filter((f) => f !== PRISON);
const MASKS = 1 << PLAIN.length;
const PLAIN_SUM = (mask: number): number => PLAIN.reduce((s, f, i) => s + ((mask >> i) & 1 ? f : 0), 0);
const MASK_SUM = Array.from({ length: MASKS }, (_, m) => PLAIN_SUM(m));
/** Bit of the field a sum lands on (-1 for 7, 2 and 12). */
const BIT = Array.from({ length: 13 }, (_, s) => PLAIN.indexOf(s as (typeof PLAIN)[number]));
const SUM_WEIGHT = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
const FILL_PLAIN = PLAIN.reduce((a, b) => a + b, 0);

/** Seat counts solved unless told otherwise: two players, and the last two of three. */
export const BUSTED_COACH_SEATS = [2, 3] as const;

/** One table: positions of a two-player endgame with `total` counters in play. */
class Endgame {
  /** Prison counters per step of the prison index: 7 when only whole placements can lie there. */
  readonly step: number;
  readonly prisonSlots: number;
  readonly value: Float64Array;
  private readonly forcedCache: Float64Array;

  constructor(
    readonly options: BustedOptions,
    readonly total: number,
    exactPrison: boolean,
    value?: Float64Array,
  ) {
    this.step = exactPrison ? 1 : PRISON;
    this.prisonSlots = Math.floor(total / this.step) + 1;
    this.value = value ?? new Float64Array(MASKS * this.prisonSlots * (total + 1)).fill(0.5);
    this.forcedCache = new Float64Array(total + 1);
  }

  index(mask: number, prison: number, has: number): number {
    return (mask * this.prisonSlots + prison / this.step) * (this.total + 1) + has;
  }

  /** Counters the other player holds, or ≤ 0 when the position cannot be. */
  other(mask: number, prison: number, has: number): number {
    return this.total - has - (MASK_SUM[mask] ?? 0) - prison;
  }

  /** The mover's chance at (mask, prison, has) before a throw of their own choosing. */
  at(mask: number, prison: number, has: number): number {
    return this.value[this.index(mask, prison, has)] ?? 0;
  }

  /** The mover's chance once the turn passes to the other player. */
  passed(mask: number, prison: number, has: number): number {
    return 1 - this.at(mask, prison, this.other(mask, prison, has));
  }

  /** After taking counters: the better of throwing again and stopping. */
  choice(mask: number, prison: number, has: number): number {
    return Math.max(this.at(mask, prison, has), this.passed(mask, prison, has));
  }

  /** The mover's chance after a sweep leaves them `has` counters on an empty board: the forced throw. */
  forced(has: number): number {
    const o = this.options;
    const fill = FILL_PLAIN + (o.fillIncludesSeven ? PRISON : 0);
    let v = 0;
    for (let s = 2; s <= 12; s++) {
      const w = SUM_WEIGHT[s] ?? 0;
      if (s === 2 || s === 12) v += has > fill ? w * this.passed(MASKS - 1, o.fillIncludesSeven ? PRISON : 0, has - fill) : 0;
      else if (s === PRISON) v += has > PRISON ? w * this.passed(0, PRISON, has - PRISON) : 0;
      else v += has > s ? w * this.passed(1 << (BIT[s] ?? 0), 0, has - s) : 0;
    }
    return v / 36;
  }

  /** The mover's chance of one throw from (mask, prison, has), from the current table. */
  throwValue(mask: number, prison: number, has: number, sweptForced: (has: number) => number = (h) => this.forced(h)): number {
    const o = this.options;
    const board = (MASK_SUM[mask] ?? 0) + prison;
    let v = 0;
    for (let s = 2; s <= 12; s++) {
      const w = SUM_WEIGHT[s] ?? 0;
      if (s === 2 || s === 12) {
        v += w * sweptForced(has + board);
      } else if (s === PRISON) {
        if (has > PRISON) v += w * (o.turnEndsAfterSeven ? this.passed(mask, prison + PRISON, has - PRISON) : this.choice(mask, prison + PRISON, has - PRISON));
      } else {
        const bit = 1 << (BIT[s] ?? 0);
        if (mask & bit) v += w * this.choice(mask & ~bit, prison, has + s);
        else if (has > s) v += w * this.passed(mask | bit, prison, has - s);
      }
    }
    return v / 36;
  }

  /** One Gauss-Seidel sweep; returns the largest change. */
  sweep(): number {
    for (let h = 1; h <= this.total; h++) this.forcedCache[h] = this.forced(h);
    const cached = (h: number): number => this.forcedCache[h] ?? 0;
    let delta = 0;
    for (let mask = 0; mask < MASKS; mask++) {
      for (let prison = 0; prison <= this.total; prison += this.step) {
        for (let has = 1; has <= this.total; has++) {
          if (this.other(mask, prison, has) < 1) break;
          const i = this.index(mask, prison, has);
          const v = this.throwValue(mask, prison, has, cached);
          delta = Math.max(delta, Math.abs(v - (this.value[i] ?? 0)));
          this.value[i] = v;
        }
      }
    }
    return delta;
  }
}

const TOLERANCE = 1e-12;
const MAX_SWEEPS = 5000;
const PROGRESS_STEPS = 1000;

function solveEndgame(options: BustedOptions, total: number, exactPrison: boolean, progress?: (residual: number) => void): { game: Endgame; sweeps: number; residual: number } {
  const game = new Endgame(options, total, exactPrison);
  let residual = 1;
  let sweeps = 0;
  while (residual > TOLERANCE && sweeps < MAX_SWEEPS) {
    residual = game.sweep();
    sweeps++;
    progress?.(residual);
  }
  return { game, sweeps, residual };
}

const tableName = (seats: number): string => `seats${seats}`;
const positions = (options: BustedOptions, seats: number): number => MASKS * (Math.floor((options.countersPerPlayer * seats) / (seats > 2 ? 1 : PRISON)) + 1) * (options.countersPerPlayer * seats + 1);
const MAX_POSITIONS = 4e6;

// ---------------------------------------------------------------------------
// The policy


/** The options the tables depend on. */
const PLAY_OPTIONS = ['countersPerPlayer', 'turnEndsAfterSeven', 'fillIncludesSeven'] as const;

/** The endgame position of a module state, or why it is not one. */
function position(state: BustedState, options: BustedOptions): { seats: number; mask: number; prison: number; has: number } | string {
  const other = otherOptions(options, state.options, PLAY_OPTIONS);
  if (other) return other;
  const alive = state.players.filter((p) => p.counters > 0).length;
  if (alive > 2) return `The coach solves Busted once two players are left; ${alive} still have counters.`;
  let mask = 0;
  for (const [i, f] of PLAIN.entries()) {
    const there = state.fields[FIELDS.indexOf(f)] ?? 0;
    if (there === f) mask |= 1 << i;
    else if (there !== 0) return `Field ${f} holds ${there} counters, a part placement; the coach knows only empty or full fields there.`;
  }
  const prison = state.fields[FIELDS.indexOf(PRISON)] ?? 0;
  const total = state.players.reduce((s, p) => s + p.counters, 0) + state.fields.reduce((s, c) => s + c, 0);
  const seats = state.players.length;
  if (total !== options.countersPerPlayer * seats) return `The counters in play (${total}) are not ${seats} × ${options.countersPerPlayer}.`;
  if (seats === 2 && prison % PRISON !== 0) return 'The prison holds a part placement.';
  return { seats, mask, prison, has: state.players[state.current]?.counters ?? 0 };
}

/** The endgame tables of a solve, by seat count. */
function endgames(options: BustedOptions, solved: SolvedTables): Map<number, Endgame> {
  const games = new Map<number, Endgame>();
  for (const [name, table] of Object.entries(solved.arrays)) {
    const seats = Number(name.replace('seats', ''));
    const game = new Endgame(options, options.countersPerPlayer * seats, seats > 2, table as Float64Array);
    if (!(table instanceof Float64Array) || !Number.isInteger(seats) || table.length !== game.value.length) throw new RangeError(`Busted tables: bad table ${name}`);
    games.set(seats, game);
  }
  return games;
}

/**
 * The chance that the player to move wins from this state under optimal
 * play by both (forced throws and choices included), or null outside the
 * solved endgames.
 */
export function bustedWinChance(options: BustedOptions, solved: SolvedTables, state: BustedState): number | null {
  if (state.over) return null;
  const p = position(state, options);
  const game = typeof p === 'string' ? undefined : endgames(options, solved).get(p.seats);
  if (typeof p === 'string' || !game) return null;
  if (state.phase === 'choice') return game.choice(p.mask, p.prison, p.has);
  if (state.phase === 'forced') return game.forced(p.has);
  return game.at(p.mask, p.prison, p.has);
}

function policy(options: BustedOptions, solved: SolvedTables): Policy<BustedState, BustedAction> {
  const games = endgames(options, solved);
  const start = games.get(2) ?? games.get(3);

  const outside = (state: BustedState): string | null => {
    if (state.over) return null;
    const p = position(state, options);
    if (typeof p === 'string') return p;
    return games.has(p.seats) ? null : `The coach has no table for ${p.seats} seats.`;
  };

  const choice = (state: BustedState): { again: number; stop: number } | null => {
    if (state.over || state.phase !== 'choice') return null;
    const p = position(state, options);
    const game = typeof p === 'string' ? undefined : games.get(p.seats);
    if (typeof p === 'string' || !game) return null;
    return { again: game.at(p.mask, p.prison, p.has), stop: game.passed(p.mask, p.prison, p.has) };
  };

  return {
    measure: 'winProbability',
    // Two players at the start of a game (the mover to throw first), or the first endgame table solved.
    optimum: start ? start.at(0, 0, options.countersPerPlayer) : 0,
    outside,
    decisions(state) {
      const c = choice(state);
      if (!c) return [];
      const list: Array<Omit<RankedDecision<BustedAction>, 'loss'>> = [
        { key: 'stop', label: 'Stop and keep the counters', actions: [{ type: 'stop' }], value: c.stop },
        { key: 'throw', label: 'Throw again', actions: [], value: c.again },
      ];
      return rankDecisions(list);
    },
    committed(state, action) {
      if (!choice(state)) return null;
      if (action.type === 'stop') return 'stop';
      return action.type === 'roll' ? 'throw' : null;
    },
  };
}

/**
 * Solves the two-player endgames of these seat counts. Exported for the
 * bench and tests; the coach's `solve` uses `BUSTED_COACH_SEATS`.
 */
export function solveBusted(options: BustedOptions, seats: readonly number[] = BUSTED_COACH_SEATS, progress?: SolveProgress): SolvedTables {
  const started = performance.now();
  const arrays: Record<string, Float64Array> = {};
  const facts: Record<string, number | string> = {};
  seats.forEach((n, k) => {
    // Progress by digits of convergence: the residual falls about geometrically.
    const share = (residual: number): number => Math.round(PROGRESS_STEPS * Math.min(1, Math.log(Math.max(residual, TOLERANCE)) / Math.log(TOLERANCE)));
    const { game, sweeps, residual } = solveEndgame(options, options.countersPerPlayer * n, n > 2, (r) => progress?.(k * PROGRESS_STEPS + share(r), seats.length * PROGRESS_STEPS));
    arrays[tableName(n)] = game.value;
    facts[`${tableName(n)}Positions`] = game.value.length;
    facts[`${tableName(n)}Sweeps`] = sweeps;
    facts[`${tableName(n)}Residual`] = residual;
    if (n === 2) facts.firstPlayerWins = game.at(0, 0, options.countersPerPlayer);
    // Two left of three, equal counters, empty board: the mover's edge.
    else facts[`${tableName(n)}EvenMoverWins`] = game.at(0, 0, (options.countersPerPlayer * n) / 2);
  });
  facts.seconds = (performance.now() - started) / 1000;
  return { arrays, facts };
}

/** The seat counts whose endgame table fits for these options. */
const seatsFor = (options: BustedOptions): number[] => BUSTED_COACH_SEATS.filter((n) => positions(options, n) <= MAX_POSITIONS);

export const bustedCoach: GameCoach<BustedState, BustedAction, BustedOptions> = {
  game: 'busted',
  measure: 'winProbability',
  tableKey: (options) => pickOptions(options, PLAY_OPTIONS),
  unsupported(options) {
    if (seatsFor(options).length > 0) return null;
    return `${options.countersPerPlayer} counters each makes the two-player endgame table too big (${positions(options, 2)} positions, at most ${MAX_POSITIONS}).`;
  },
  // The 3-seat table (17 MB at 30 counters each) is left out when it would be too big; those positions are then outside.
  solve: (options, progress) => solveBusted(options, seatsFor(options), progress),
  restore: policy,
};
