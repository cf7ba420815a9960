/**
 * The Mexico coach: exact win probabilities for two players.
 *
 * Every round costs somebody lives, so the game is solved by backward
 * induction over the lives of both players (fewest first). Within a round the
 * starter (A) throws up to `maxThrows` times, then the other player (B) up to
 * their limit, knowing A's result; each maximises their own chance to win.
 * Both can go out together (no winner), so the two chances need not add up
 * to 1 and the tables keep each player's own. For every pair of lives the
 * tables hold the value of each "throw again" of the round, so a hint is a
 * lookup. Three players still in the game use the three-player tables of
 * `mexico-three.ts` (solved too while they fit, 14.5 MB with the defaults);
 * four or more are outside.
 */
import { throwText, type MexicoAction, type MexicoOptions, type MexicoState } from '../games/mexico.js';
import type { GameCoach, Policy, RankedDecision, SolvedTables, SolveProgress } from './types.js';
import { otherOptions, pickOptions, rankDecisions } from './rank.js';
import { KEYS, MEXICO, N, THROWS, classOf, throwLimits } from './mexico-throws.js';
import { ThreeLayout, ThreeTables } from './mexico-three.js';
import { nextSeat } from '../games/small-dice-common.js';

/** Win chances of the round's starter (A) and the other player (B). */
type Pair = readonly [number, number];

/**
 * Where things sit in the tables. `win`: me with `me` lives, the other with
 * `other`, `starts` = I start the round. `round`: per (A's lives, B's lives)
 * a block of pairs: B's "throw number t+1" for each A result, Mexico flag,
 * limit and t; then A's "throw number t+1" for each t and flag.
 */
class Layout {
  readonly limits: number[];
  /** Pairs in one round block. */
  readonly block: number;
  private readonly limitAt: number[];
  private readonly secondPairs: number;

  constructor(readonly options: MexicoOptions) {
    const o = options;
    // With the cap, B's limit is whatever A used (1..maxThrows).
    const { limits, limitAt, span: at } = throwLimits(o);
    this.limits = limits;
    this.limitAt = limitAt;
    this.secondPairs = N * 2 * at;
    this.block = this.secondPairs + 2 * o.maxThrows;
  }

  win(me: number, other: number, starts: boolean): number {
    return ((me * (this.options.lives + 1) + other) << 1) | (starts ? 1 : 0);
  }

  private base(a: number, b: number): number {
    return ((a - 1) * this.options.lives + (b - 1)) * this.block;
  }

  /** Pair index: B throws throw t+1 against A's result `r`, flag `m`, limit `limit`. */
  second(a: number, b: number, r: number, m: boolean, limit: number, t: number): number {
    return this.base(a, b) + (r * 2 + (m ? 1 : 0)) * (this.secondPairs / (N * 2)) + (this.limitAt[limit] ?? 0) + t;
  }

  /** Pair index: A throws throw t+1, flag `m`. */
  first(a: number, b: number, m: boolean, t: number): number {
    return this.base(a, b) + this.secondPairs + (m ? 1 : 0) * this.options.maxThrows + t;
  }

  get roundSize(): number {
    return this.options.lives * this.options.lives * this.block * 2;
  }
  get winSize(): number {
    return (this.options.lives + 1) * (this.options.lives + 1) * 2;
  }
}

/** The solved tables with the round logic that reads them. */
class MexicoTables {
  readonly at: Layout;
  constructor(
    readonly options: MexicoOptions,
    readonly win: Float64Array,
    readonly round: Float64Array,
  ) {
    this.at = new Layout(options);
  }

  winChance(me: number, other: number, starts: boolean): number {
    if (me <= 0) return 0;
    if (other <= 0) return 1;
    return this.win[this.at.win(me, other, starts)] ?? 0;
  }

  pair(i: number): Pair {
    return [this.round[2 * i] ?? 0, this.round[2 * i + 1] ?? 0];
  }

  /** Mexico flag after a throw showing `c`. */
  flag(m: boolean, c: number): boolean {
    return m || (this.options.mexicoCounts === 'anyThrow' && (MEXICO[c] ?? false));
  }

  /** Flag once a result `c` stands. */
  finalFlag(m: boolean, c: number): boolean {
    return m || (this.options.mexicoCounts === 'finalOnly' && (MEXICO[c] ?? false));
  }

  /** Both results stand (flag final): the lowest lose lives and the next round starts, or the game ends. */
  end(a: number, b: number, resultA: number, resultB: number, m: boolean): Pair {
    const o = this.options;
    const keyA = KEYS[resultA] ?? 0;
    const keyB = KEYS[resultB] ?? 0;
    const penalty = m ? o.mexicoPenalty : 1;
    const na = keyA <= keyB ? Math.max(0, a - penalty) : a;
    const nb = keyB <= keyA ? Math.max(0, b - penalty) : b;
    // On a tie the module's `loser` rule picks the loser who threw first: A.
    const aStarts = o.nextRoundStarter === 'sameSeat' || (o.nextRoundStarter === 'loser' && keyA <= keyB);
    return [this.winChance(na, nb, aStarts), this.winChance(nb, na, !aStarts)];
  }

  /** B has thrown `t` times showing `x` (flag `m` so far): stop, and throw again (null at the limit). */
  secondChoices(a: number, b: number, resultA: number, m: boolean, limit: number, t: number, x: number): { stop: Pair; again: Pair | null } {
    const stop = this.end(a, b, resultA, x, this.finalFlag(m, x));
    return { stop, again: t >= limit ? null : this.pair(this.at.second(a, b, resultA, m, limit, t)) };
  }

  /** A's result `x` stands after `t` throws: B's turn starts. */
  handOver(a: number, b: number, x: number, t: number, m: boolean): Pair {
    const o = this.options;
    const limit = o.throwCapFromLeader ? Math.min(t, o.maxThrows) : o.maxThrows;
    return this.pair(this.at.second(a, b, x, this.finalFlag(m, x), limit, 0));
  }

  /** A has thrown `t` times showing `x`: stop, and throw again (null at the limit). */
  firstChoices(a: number, b: number, t: number, x: number, m: boolean): { stop: Pair; again: Pair | null } {
    return { stop: this.handOver(a, b, x, t, m), again: t >= this.options.maxThrows ? null : this.pair(this.at.first(a, b, m, t)) };
  }

  private put(i: number, v: Pair): void {
    this.round[2 * i] = v[0];
    this.round[2 * i + 1] = v[1];
  }

  /** Solves the round of A (`a` lives, starting) against B (`b`), from the win chances of later rounds. */
  solveRound(a: number, b: number): Pair {
    const o = this.options;
    // B, last thrower first: value of each throw given what stands.
    for (const limit of this.at.limits) {
      for (let r = 0; r < N; r++) {
        for (let t = limit - 1; t >= 0; t--) {
          for (const m of [false, true]) {
            let pa = 0;
            let pb = 0;
            for (let y = 0; y < N; y++) {
              const { stop, again } = this.secondChoices(a, b, r, this.flag(m, y), limit, t + 1, y);
              const v = again && again[1] > stop[1] ? again : stop;
              const p = THROWS[y]?.chance ?? 0;
              pa += p * v[0];
              pb += p * v[1];
            }
            this.put(this.at.second(a, b, r, m, limit, t), [pa, pb]);
          }
        }
      }
    }
    for (let t = o.maxThrows - 1; t >= 0; t--) {
      for (const m of [false, true]) {
        let pa = 0;
        let pb = 0;
        for (let y = 0; y < N; y++) {
          const { stop, again } = this.firstChoices(a, b, t + 1, y, this.flag(m, y));
          const v = again && again[0] > stop[0] ? again : stop;
          const p = THROWS[y]?.chance ?? 0;
          pa += p * v[0];
          pb += p * v[1];
        }
        this.put(this.at.first(a, b, m, t), [pa, pb]);
      }
    }
    return this.pair(this.at.first(a, b, false, 0));
  }
}

function solveTables(options: MexicoOptions, progress?: SolveProgress): MexicoTables {
  const at = new Layout(options);
  const tables = new MexicoTables(options, new Float64Array(at.winSize), new Float64Array(at.roundSize));
  const L = options.lives;
  // Rounds only take lives, so positions with fewer lives in all come first.
  let done = 0;
  for (let sum = 2; sum <= 2 * L; sum++) {
    for (let a = Math.max(1, sum - L); a <= Math.min(L, sum - 1); a++) {
      const b = sum - a;
      const [pa, pb] = tables.solveRound(a, b);
      tables.win[at.win(a, b, true)] = pa;
      tables.win[at.win(b, a, false)] = pb;
      done++;
    }
    progress?.(done, L * L);
  }
  return tables;
}

/** Table size in pairs; the solve's work is about 21 × 4 times this. */
const pairs = (o: MexicoOptions): number => new Layout(o).roundSize / 2;
const MAX_PAIRS = 4e6;
/** Floats of the three-player tables beyond which they are left out (3-player positions are then outside). */
const MAX_THREE = 6e6;
const threeFits = (o: MexicoOptions): boolean => new ThreeLayout(o).roundSize <= MAX_THREE;

// ---------------------------------------------------------------------------
// The policy


/** The options the tables depend on (a tie's outcome does not change play). */
const PLAY_OPTIONS = ['throwCapFromLeader', 'nextRoundStarter', 'mexicoCounts', 'lives', 'mexicoPenalty', 'maxThrows'] as const;

function policy(options: MexicoOptions, solved: SolvedTables): Policy<MexicoState, MexicoAction> {
  const at = new Layout(options);
  const { win, round } = solved.arrays;
  if (!(win instanceof Float64Array) || win.length !== at.winSize || !(round instanceof Float64Array) || round.length !== at.roundSize) {
    throw new RangeError('Mexico tables do not fit these options');
  }
  const tables = new MexicoTables(options, win, round);
  const { win3, round3 } = solved.arrays;
  const three = win3 instanceof Float64Array && round3 instanceof Float64Array ? new ThreeTables(options, (me, other, starts) => tables.winChance(me, other, starts), win3, round3) : null;
  if (three && (three.win.length !== three.at.winSize || three.round.length !== three.at.roundSize)) throw new RangeError('Mexico three-player tables do not fit these options');

  const outside = (state: MexicoState): string | null => {
    const other = otherOptions(options, state.options, PLAY_OPTIONS);
    if (other) return other;
    const alive = state.players.filter((p) => p.lives > 0).length;
    if (alive > 3 || (alive === 3 && !three)) return `The coach solves Mexico for ${three ? 'two or three' : 'two'} players; ${alive} are still in the game.`;
    if (state.players.some((p) => p.lives > options.lives)) return 'A player has more lives than the solved game allows.';
    return null;
  };

  /** The mover's values of stopping and throwing again (null at the throw limit), or null. */
  const choices = (state: MexicoState): { stop: number; again: number | null } | null => {
    if (state.over || outside(state) !== null) return null;
    const me = state.players[state.current];
    if (!me || me.last === null) return null;
    const x = classOf(me.last);
    const m = state.mexicoThrown;
    const limit = state.throwCap !== null ? Math.min(state.throwCap, options.maxThrows) : options.maxThrows;
    // The throwing order: the starter, then clockwise over the players still in.
    const n = state.players.length;
    const inGame = (seat: number): boolean => (state.players[seat]?.lives ?? 0) > 0;
    const order = [state.starter];
    for (let k = 1; k < state.players.filter((p) => p.lives > 0).length; k++) order.push(nextSeat(order[k - 1] as number, n, inGame) ?? 0);
    const place = order.indexOf(state.current);
    const result = (k: number): number | null => {
      const last = state.players[order[k] as number]?.last;
      return last ? classOf(last) : null;
    };
    const pick = (c: { stop: readonly number[]; again: readonly number[] | null }) => ({ stop: c.stop[place] ?? 0, again: c.again ? (c.again[place] ?? 0) : null });
    const lives = order.map((seat) => state.players[seat]?.lives ?? 0);
    const [a, b] = lives as [number, number];
    const r0 = result(0);
    if (order.length === 2) {
      if (place === 0) return pick(tables.firstChoices(a, b, me.throws, x, m));
      return r0 === null ? null : pick(tables.secondChoices(a, b, r0, m, limit, me.throws, x));
    }
    if (!three) return null;
    if (place === 0) return pick(three.firstChoices(lives, me.throws, x, m));
    if (r0 === null) return null;
    if (place === 1) return pick(three.secondChoices(lives, r0, m, limit, me.throws, x));
    const r1 = result(1);
    return r1 === null ? null : pick(three.thirdChoices(lives, r0, r1, m, limit, me.throws, x));
  };

  return {
    measure: 'winProbability',
    optimum: tables.winChance(options.lives, options.lives, true),
    outside,
    decisions(state) {
      const c = choices(state);
      if (!c || c.again === null) return [];
      const last = state.players[state.current]?.last;
      const shown = last ? throwText(last) : '';
      const list: Array<Omit<RankedDecision<MexicoAction>, 'loss'>> = [
        { key: 'stop', label: `Stop on ${shown}`, actions: [{ type: 'stop' }], value: c.stop },
        { key: 'throw', label: `Throw again (${shown} no longer counts)`, actions: [], value: c.again },
      ];
      // A stable sort: on a tie stop stays first.
      return rankDecisions(list);
    },
    committed(state, action) {
      const c = choices(state);
      if (!c || c.again === null) return null;
      if (action.type === 'stop') return 'stop';
      return action.type === 'roll' ? 'throw' : null;
    },
  };
}

export const mexicoCoach: GameCoach<MexicoState, MexicoAction, MexicoOptions> = {
  game: 'mexico',
  measure: 'winProbability',
  tableKey: (options) => pickOptions(options, PLAY_OPTIONS),
  unsupported(options) {
    if (pairs(options) > MAX_PAIRS) {
      return `${options.lives} lives with ${options.maxThrows} throws${options.throwCapFromLeader ? ' and the throw cap' : ''} needs ${Math.round((pairs(options) * 16) / 1e6)} MB of tables; fewer lives or throws are fine.`;
    }
    return null;
  },
  solve(options, progress) {
    const started = performance.now();
    const tables = solveTables(options, progress);
    const L = options.lives;
    const first = tables.winChance(L, L, true);
    const second = tables.winChance(L, L, false);
    const arrays: Record<string, Float64Array> = { win: tables.win, round: tables.round };
    const facts: Record<string, number | string> = {
      positions: L * L * 2,
      roundPairs: pairs(options),
      firstPlayerWins: first,
      secondPlayerWins: second,
      noWinner: 1 - first - second,
    };
    if (threeFits(options)) {
      const at = new ThreeLayout(options);
      const three = new ThreeTables(options, (me, other, starts) => tables.winChance(me, other, starts), new Float64Array(at.winSize), new Float64Array(at.roundSize));
      three.solve(progress);
      arrays.win3 = three.win;
      arrays.round3 = three.round;
      const [p0, p1, p2] = three.start([L, L, L]);
      Object.assign(facts, { threePositions: L ** 3, threeFirstWins: p0, threeSecondWins: p1, threeThirdWins: p2, threeNoWinner: 1 - p0 - p1 - p2 });
    } else {
      facts.threePlayers = 'not solved: tables too big for these options';
    }
    facts.seconds = (performance.now() - started) / 1000;
    return { arrays, facts };
  },
  restore: policy,
};
