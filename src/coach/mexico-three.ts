/**
 * Mexico with three players still in the game: the same backward induction
 * as the two-player solve, one stage more. Players are named by their place
 * in the round's throwing order (0 = the starter, then clockwise); each
 * maximises their own chance to win. A round that puts somebody out hands
 * over to the two-player table (`two`).
 */
import { nextSeat } from '../games/small-dice-common.js';
import type { MexicoOptions } from '../games/mexico.js';
import { KEYS, MEXICO, N, THROWS, throwLimits } from './mexico-throws.js';

/** Bit mask of the lowest results (all of them on a tie), by place in the throwing order. */
function losersOf(r0: number, r1: number, r2: number): number {
  const k0 = KEYS[r0] ?? 0;
  const k1 = KEYS[r1] ?? 0;
  const k2 = KEYS[r2] ?? 0;
  const low = Math.min(k0, k1, k2);
  return (k0 === low ? 1 : 0) | (k1 === low ? 2 : 0) | (k2 === low ? 4 : 0);
}

/** Win chances by place in the throwing order. */
export type Triple = readonly [number, number, number];

/** Two-player win chance of `me` (lives) against `other`, `starts` = me starts the round. */
export type TwoPlayerChance = (me: number, other: number, starts: boolean) => number;

/** Where things sit in the three-player tables. */
export class ThreeLayout {
  readonly limits: number[];
  private readonly limitAt: number[];
  /** Sum of the throw limits: entries per (results, flag). */
  readonly span: number;
  /** Triples in one round block: the last thrower, the middle one, the starter. */
  readonly block: number;

  constructor(readonly options: MexicoOptions) {
    const o = options;
    const { limits, limitAt, span: at } = throwLimits(o);
    this.limits = limits;
    this.limitAt = limitAt;
    this.span = at;
    this.block = N * N * 2 * at + N * 2 * at + 2 * o.maxThrows;
  }

  win(l: readonly number[]): number {
    const L = this.options.lives + 1;
    return (((l[0] ?? 0) * L + (l[1] ?? 0)) * L + (l[2] ?? 0)) * 3;
  }

  private base(l: readonly number[]): number {
    const L = this.options.lives;
    return ((((l[0] ?? 1) - 1) * L + ((l[1] ?? 1) - 1)) * L + ((l[2] ?? 1) - 1)) * this.block;
  }

  /** The last thrower's throw t+1, given the results of the two before. */
  third(l: readonly number[], r0: number, r1: number, m: boolean, limit: number, t: number): number {
    return this.base(l) + ((r0 * N + r1) * 2 + (m ? 1 : 0)) * this.span + (this.limitAt[limit] ?? 0) + t;
  }

  /** The middle thrower's throw t+1, given the starter's result. */
  second(l: readonly number[], r0: number, m: boolean, limit: number, t: number): number {
    return this.base(l) + N * N * 2 * this.span + (r0 * 2 + (m ? 1 : 0)) * this.span + (this.limitAt[limit] ?? 0) + t;
  }

  /** The starter's throw t+1. */
  first(l: readonly number[], m: boolean, t: number): number {
    return this.base(l) + N * N * 2 * this.span + N * 2 * this.span + (m ? 1 : 0) * this.options.maxThrows + t;
  }

  get winSize(): number {
    return (this.options.lives + 1) ** 3 * 3;
  }
  get roundSize(): number {
    return this.options.lives ** 3 * this.block * 3;
  }
}

/** Choices of the player to move: stop and throw again (null at the limit). */
export interface ThreeChoices {
  readonly stop: Triple;
  readonly again: Triple | null;
}

export class ThreeTables {
  readonly at: ThreeLayout;

  constructor(
    readonly options: MexicoOptions,
    readonly two: TwoPlayerChance,
    readonly win: Float64Array,
    readonly round: Float64Array,
  ) {
    this.at = new ThreeLayout(options);
  }

  private triple(i: number): Triple {
    return [this.round[3 * i] ?? 0, this.round[3 * i + 1] ?? 0, this.round[3 * i + 2] ?? 0];
  }

  private put(i: number, v: Triple): void {
    this.round[3 * i] = v[0];
    this.round[3 * i + 1] = v[1];
    this.round[3 * i + 2] = v[2];
  }

  /** Chances at the start of a round with these lives in throwing order. */
  start(l: readonly number[]): Triple {
    const i = this.at.win(l);
    return [this.win[i] ?? 0, this.win[i + 1] ?? 0, this.win[i + 2] ?? 0];
  }

  flag(m: boolean, c: number): boolean {
    return m || (this.options.mexicoCounts === 'anyThrow' && (MEXICO[c] ?? false));
  }

  finalFlag(m: boolean, c: number): boolean {
    return m || (this.options.mexicoCounts === 'finalOnly' && (MEXICO[c] ?? false));
  }

  /** All three results stand: the lowest lose lives, then the next round (or the end). */
  end(l: readonly number[], results: readonly number[], m: boolean): Triple {
    return this.endByLosers(l, losersOf(results[0] ?? 0, results[1] ?? 0, results[2] ?? 0), m);
  }

  /** The round ends with these losers (bit i = place i in the throwing order). */
  endByLosers(l: readonly number[], losers: number, m: boolean): Triple {
    const o = this.options;
    const penalty = m ? o.mexicoPenalty : 1;
    const lost = (i: number): boolean => ((losers >> i) & 1) === 1;
    const lives = l.map((x, i) => (lost(i) ? Math.max(0, x - penalty) : x));
    const alive = (i: number): boolean => (lives[i] ?? 0) > 0;
    const left = [0, 1, 2].filter(alive);
    const out: [number, number, number] = [0, 0, 0];
    if (left.length <= 1) {
      if (left.length === 1) out[left[0] as number] = 1;
      return out;
    }
    // The module's rules over the throwing order, which is clockwise from the starter.
    const first = o.nextRoundStarter === 'loser' ? [0, 1, 2].findIndex(lost) : 0;
    const starter = nextSeat(first, 3, alive, o.nextRoundStarter !== 'leftOfPreviousStarter') ?? 0;
    if (left.length === 2) {
      const other = left.find((i) => i !== starter) ?? 0;
      out[starter] = this.two(lives[starter] ?? 0, lives[other] ?? 0, true);
      out[other] = this.two(lives[other] ?? 0, lives[starter] ?? 0, false);
      return out;
    }
    const order = [0, 1, 2].map((j) => (starter + j) % 3);
    const next = this.start(order.map((i) => lives[i] ?? 0));
    order.forEach((i, j) => (out[i] = next[j] ?? 0));
    return out;
  }

  /** The limit of the players after the starter, who threw `t` times. */
  private limitAfter(t: number): number {
    return this.options.throwCapFromLeader ? Math.min(t, this.options.maxThrows) : this.options.maxThrows;
  }

  thirdChoices(l: readonly number[], r0: number, r1: number, m: boolean, limit: number, t: number, x: number): ThreeChoices {
    return { stop: this.end(l, [r0, r1, x], this.finalFlag(m, x)), again: t >= limit ? null : this.triple(this.at.third(l, r0, r1, m, limit, t)) };
  }

  secondChoices(l: readonly number[], r0: number, m: boolean, limit: number, t: number, x: number): ThreeChoices {
    return {
      stop: this.triple(this.at.third(l, r0, x, this.finalFlag(m, x), limit, 0)),
      again: t >= limit ? null : this.triple(this.at.second(l, r0, m, limit, t)),
    };
  }

  firstChoices(l: readonly number[], t: number, x: number, m: boolean): ThreeChoices {
    const limit = this.limitAfter(t);
    return {
      stop: this.triple(this.at.second(l, x, this.finalFlag(m, x), limit, 0)),
      again: t >= this.options.maxThrows ? null : this.triple(this.at.first(l, m, t)),
    };
  }

  /** Expected triple of one throw, the thrower (`who`) choosing after it. */
  private expect(who: number, after: (y: number) => ThreeChoices): Triple {
    const v: [number, number, number] = [0, 0, 0];
    for (let y = 0; y < N; y++) {
      const { stop, again } = after(y);
      const best = again && (again[who] ?? 0) > (stop[who] ?? 0) ? again : stop;
      const p = THROWS[y]?.chance ?? 0;
      for (let i = 0; i < 3; i++) v[i] = (v[i] ?? 0) + p * (best[i] ?? 0);
    }
    return v;
  }

  /**
   * The last thrower's stage, the bulk of the work, in plain loops: the round
   * can end only 7 × 2 ways (who lost, Mexico or not), so those are worked out once.
   */
  private solveThird(l: readonly number[], limit: number): void {
    const ends = new Float64Array(8 * 2 * 3);
    for (let losers = 1; losers < 8; losers++) {
      for (const m of [0, 1]) ends.set(this.endByLosers(l, losers, m === 1), (losers * 2 + m) * 3);
    }
    const finalOnly = this.options.mexicoCounts === 'finalOnly';
    const anyThrow = !finalOnly;
    const round = this.round;
    for (let r0 = 0; r0 < N; r0++) {
      for (let r1 = 0; r1 < N; r1++) {
        for (let t = limit - 1; t >= 0; t--) {
          for (const m of [false, true]) {
            let v0 = 0;
            let v1 = 0;
            let v2 = 0;
            for (let y = 0; y < N; y++) {
              const mexico = MEXICO[y] ?? false;
              const after = m || (anyThrow && mexico);
              const e = (losersOf(r0, r1, y) * 2 + (after || (finalOnly && mexico) ? 1 : 0)) * 3;
              let b0 = ends[e] ?? 0;
              let b1 = ends[e + 1] ?? 0;
              let b2 = ends[e + 2] ?? 0;
              if (t + 1 < limit) {
                const a = 3 * this.at.third(l, r0, r1, after, limit, t + 1);
                if ((round[a + 2] ?? 0) > b2) {
                  b0 = round[a] ?? 0;
                  b1 = round[a + 1] ?? 0;
                  b2 = round[a + 2] ?? 0;
                }
              }
              const p = THROWS[y]?.chance ?? 0;
              v0 += p * b0;
              v1 += p * b1;
              v2 += p * b2;
            }
            this.put(this.at.third(l, r0, r1, m, limit, t), [v0, v1, v2]);
          }
        }
      }
    }
  }

  /** Solves one round, last thrower first; returns the chances at its start. */
  solveRound(l: readonly number[]): Triple {
    const o = this.options;
    for (const limit of this.at.limits) {
      this.solveThird(l, limit);
      for (let r0 = 0; r0 < N; r0++) {
        for (let t = limit - 1; t >= 0; t--) {
          for (const m of [false, true]) this.put(this.at.second(l, r0, m, limit, t), this.expect(1, (y) => this.secondChoices(l, r0, this.flag(m, y), limit, t + 1, y)));
        }
      }
    }
    for (let t = o.maxThrows - 1; t >= 0; t--) {
      for (const m of [false, true]) this.put(this.at.first(l, m, t), this.expect(0, (y) => this.firstChoices(l, t + 1, y, this.flag(m, y))));
    }
    return this.triple(this.at.first(l, false, 0));
  }

  /** Fills every round, fewest lives in all first. */
  solve(progress?: (done: number, total: number) => void): void {
    const L = this.options.lives;
    const total = L ** 3;
    let done = 0;
    for (let sum = 3; sum <= 3 * L; sum++) {
      for (let a = 1; a <= L; a++) {
        for (let b = 1; b <= L; b++) {
          const c = sum - a - b;
          if (c < 1 || c > L) continue;
          const l = [a, b, c];
          const v = this.solveRound(l);
          const i = this.at.win(l);
          this.win[i] = v[0];
          this.win[i + 1] = v[1];
          this.win[i + 2] = v[2];
          done++;
        }
      }
      progress?.(done, total);
    }
  }
}
