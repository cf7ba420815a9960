/**
 * The exact one-player solver shared by the five-dice scorecard games (Yatzy,
 * Dice Poker, Cameroon): expected-final-score-optimal play, the standard
 * solitaire criterion.
 *
 * A turn-start state is (filled rows, upper total capped at the bonus
 * threshold, and for the Joker rule whether the five-of-a-kind row holds
 * points). Its value is the expected points still to come under optimal play
 * (upper bonus counted when the capped total crosses the threshold). States
 * are solved from the fullest card down; within a turn a backward pass over
 * the throws runs on the 252 five-dice throws and the 462 kept sub-multisets:
 * - the value of keeping K (|K| < 5) is the mean over one more die f of the
 *   value of keeping K + f (throwing n dice is throwing them one by one), so
 *   all 462 keep values cost 210 × 6 additions;
 * - the best keep within a throw r is the max over K ⊆ r, built up as
 *   best(K) = max(value(K), best(K − f)), 462 × ≤ 5 comparisons.
 *
 * Unreachable (rows, upper total) pairs are skipped; where the bonus is won
 * or out of reach, every upper total of a card has the same value, computed
 * once (a third of Yatzy's 1.43 million states).
 *
 * The game-specific part is a `ScorecardModel`: rows, the points table (built
 * by each coach from its game module's own scoring functions), bonus and Joker.
 */

/** How a five-of-a-kind is placed when the Joker rule binds (Yahtzee's rule, Dice Poker). */
export interface JokerModel {
  /** Row of five of a kind ("Poker"/"Yahtzee"). */
  readonly fiveRow: number;
  /** Points for each further five of a kind while that row holds points. */
  readonly extraBonus: number;
  /** The forced placement also binds when the row holds 0 (never the bonus). */
  readonly whenScratched: boolean;
  /** Points of a Joker on a lower row: `points[(face - 1) * rows + row]`. */
  readonly points: Int16Array;
}

export interface ScorecardModel {
  readonly rows: number;
  /** Per row: true when its points count toward the upper total (Ones..Sixes). */
  readonly upper: readonly boolean[];
  /** Per upper row its face (1..6), else 0: under the Joker rule five of that face must go there. */
  readonly face: readonly number[];
  /** Points of each of the 252 throws in each row: `points[roll * rows + row]` (rolls as in `DICE.rolls`). */
  readonly points: Int16Array;
  /** Upper total (or more) that earns the bonus; 0 when the bonus is not tracked (never or always earned). */
  readonly threshold: number;
  readonly bonus: number;
  /** Points an empty card already counts (the upper bonus when its threshold is 0). */
  readonly emptyTotal: number;
  /** Rows must be filled in card order. */
  readonly forcedOrder: boolean;
  /** Throws per turn, ≥ 1. */
  readonly throws: number;
  readonly joker: JokerModel | null;
}

// ---------------------------------------------------------------------------
// Dice multisets

/** Every multiset of 0..5 dice, sorted by size; the last 252 are the throws of five. */
export interface DiceTables {
  /** Number of multisets (462). */
  readonly count: number;
  /** Face counts of multiset k: `counts[k * 7 + f]` for f = 1..6 (index 0 unused). */
  readonly counts: Uint8Array;
  /** Size of multiset k. */
  readonly size: Uint8Array;
  /** First index of each size 0..5, and `count` at [6]. */
  readonly start: Int32Array;
  /** Multiset k plus one die of face f (k of size < 5): `plus[k * 6 + f - 1]`. */
  readonly plus: Int32Array;
  /** Multiset k minus one die of each face it holds: `minus[minusStart[k] .. minusStart[k + 1]]`. */
  readonly minus: Int32Array;
  readonly minusStart: Int32Array;
  /** The 252 throws of five as sorted dice values: `rolls[r]`. */
  readonly rolls: readonly (readonly number[])[];
  /** Probability of each throw of five dice. */
  readonly rollProbability: Float64Array;
  /** Index of the multiset with these face counts (base-6 key of the counts). */
  indexOf(dice: readonly number[]): number;
}

const keyOf = (counts: ArrayLike<number>, from = 1): number => {
  let key = 0;
  for (let f = 6; f >= 1; f--) key = key * 6 + (counts[from + f - 1] ?? 0);
  return key;
};

function buildDiceTables(): DiceTables {
  const all: number[][] = [];
  // Sorted by size, then by face counts: one entry per multiset.
  for (let n = 0; n <= 5; n++) {
    const walk = (face: number, left: number, c: number[]): void => {
      if (face === 6) {
        all.push([...c, left]);
        return;
      }
      for (let k = left; k >= 0; k--) walk(face + 1, left - k, [...c, k]);
    };
    walk(1, n, []);
  }
  const count = all.length;
  const counts = new Uint8Array(count * 7);
  const size = new Uint8Array(count);
  const start = new Int32Array(7).fill(count);
  const byKey = new Int32Array(6 ** 6).fill(-1);
  all.forEach((c, k) => {
    let n = 0;
    c.forEach((x, i) => {
      counts[k * 7 + i + 1] = x;
      n += x;
    });
    size[k] = n;
    if ((start[n] ?? count) > k) start[n] = k;
    byKey[keyOf(c, 0)] = k;
  });
  const find = (c: ArrayLike<number>): number => byKey[keyOf(c)] ?? -1;
  const plus = new Int32Array(count * 6).fill(-1);
  const minusList: number[] = [];
  const minusStart = new Int32Array(count + 1);
  const c = new Uint8Array(7);
  for (let k = 0; k < count; k++) {
    for (let f = 1; f <= 6; f++) c[f] = counts[k * 7 + f] ?? 0;
    minusStart[k] = minusList.length;
    for (let f = 1; f <= 6; f++) {
      if ((size[k] ?? 0) < 5) {
        c[f] = (c[f] ?? 0) + 1;
        plus[k * 6 + f - 1] = find(c);
        c[f] = (c[f] ?? 0) - 1;
      }
      if ((c[f] ?? 0) > 0) {
        c[f] = (c[f] ?? 0) - 1;
        minusList.push(find(c));
        c[f] = (c[f] ?? 0) + 1;
      }
    }
  }
  minusStart[count] = minusList.length;
  const first5 = start[5] ?? 0;
  const rolls: number[][] = [];
  const rollProbability = new Float64Array(count - first5);
  const factorial = [1, 1, 2, 6, 24, 120];
  for (let k = first5; k < count; k++) {
    const dice: number[] = [];
    let ways = 120;
    for (let f = 1; f <= 6; f++) {
      const n = counts[k * 7 + f] ?? 0;
      for (let i = 0; i < n; i++) dice.push(f);
      ways /= factorial[n] ?? 1;
    }
    rolls.push(dice);
    rollProbability[k - first5] = ways / 6 ** 5;
  }
  return {
    count,
    counts,
    size,
    start,
    plus,
    minus: Int32Array.from(minusList),
    minusStart,
    rolls,
    rollProbability,
    indexOf(dice) {
      const h = [0, 0, 0, 0, 0, 0, 0];
      for (const d of dice) h[d] = (h[d] ?? 0) + 1;
      return find(h);
    },
  };
}

/** The multiset tables, built once. */
export const DICE: DiceTables = buildDiceTables();
/** Index of the first throw of five among the multisets. */
export const FIRST_ROLL = DICE.start[5] ?? 0;
export const ROLLS = DICE.count - FIRST_ROLL;

// ---------------------------------------------------------------------------
// State layout

/** How a state (mask, capped upper total, five-row flag) maps to a table index. */
export interface StateLayout {
  /** Size of the upper-total dimension: threshold + 1, or 1 when untracked. */
  readonly upperSize: number;
  /** 2 with a Joker rule (five-row flag), else 1. */
  readonly flagSize: number;
  readonly states: number;
  index(mask: number, upper: number, flag: number): number;
}

/** Where a mask's states start: in card order only the first k rows can be filled, so k names the mask. */
const maskSlot = (forcedOrder: boolean, mask: number): number => (forcedOrder ? 32 - Math.clz32(mask) : mask);

export function layoutOf(model: ScorecardModel): StateLayout {
  const upperSize = model.threshold > 0 ? model.threshold + 1 : 1;
  const flagSize = model.joker ? 2 : 1;
  const slots = model.forcedOrder ? model.rows + 1 : 2 ** model.rows;
  return {
    upperSize,
    flagSize,
    states: slots * upperSize * flagSize,
    index: (mask, upper, flag) => (maskSlot(model.forcedOrder, mask) * upperSize + Math.min(upper, upperSize - 1)) * flagSize + flag,
  };
}

/** Upper totals (capped) a card can hold with these upper rows filled: `reach[upperMask * upperSize + u]`. */
function reachableUpper(model: ScorecardModel, layout: StateLayout): { upperRows: number[]; reach: Uint8Array } {
  const upperRows = model.upper.flatMap((u, row) => (u ? [row] : []));
  const U = layout.upperSize;
  const reach = new Uint8Array((1 << upperRows.length) * U);
  for (let m = 0; m < 1 << upperRows.length; m++) {
    let sums = new Set([0]);
    upperRows.forEach((row, i) => {
      if (!(m & (1 << i))) return;
      // Every score this row can hold, from the points table (Joker zeros included as 0).
      const values = new Set<number>([0]);
      for (let r = 0; r < ROLLS; r++) values.add(model.points[r * model.rows + row] ?? 0);
      if (model.joker) for (let f = 0; f < 6; f++) values.add(model.joker.points[f * model.rows + row] ?? 0);
      const next = new Set<number>();
      for (const s of sums) for (const v of values) next.add(Math.min(U - 1, s + v));
      sums = next;
    });
    for (const s of sums) reach[m * U + s] = 1;
  }
  return { upperRows, reach };
}

// ---------------------------------------------------------------------------
// One turn

/** Scratch buffers for one turn's backward pass, and the model's tables laid out for its loops. */
export interface TurnScratch {
  /** Values of the final throw (score now), per roll. */
  readonly final: Float64Array;
  /** Values of a throw with t throws left after it: `after[t]`, per roll (`after[0]` is `final`). */
  readonly after: Float64Array[];
  /** Values of keeping each multiset and throwing the rest with t throws left (counting that one): `keep[t]`, t ≥ 1. */
  readonly keep: Float64Array[];
  readonly best: Float64Array;
  /** Per open upper row and points (0..30): points + bonus on crossing + next state's value. */
  readonly upperValue: Float64Array;
  /** Per open lower row: next state's value when it scores 0 ([row * 2]) or more ([row * 2 + 1]). */
  readonly lowerValue: Float64Array;
  readonly open: Int32Array;
  /** The points table by row, so the scoring loop runs down one row: `byRow[row * ROLLS + roll]`. */
  readonly byRow: Int16Array;
  /** 1 for an upper row. */
  readonly isUpper: Uint8Array;
  /** The points each upper row can hold (0 included), so only those next states are looked up. */
  readonly upperPoints: Int32Array[];
}

export function turnScratch(model: ScorecardModel): TurnScratch {
  const levels = model.throws;
  const byRow = new Int16Array(ROLLS * model.rows);
  for (let r = 0; r < ROLLS; r++) for (let row = 0; row < model.rows; row++) byRow[row * ROLLS + r] = model.points[r * model.rows + row] as number;
  return {
    final: new Float64Array(ROLLS),
    after: Array.from({ length: levels }, () => new Float64Array(ROLLS)),
    keep: Array.from({ length: levels }, () => new Float64Array(DICE.count)),
    best: new Float64Array(DICE.count),
    upperValue: new Float64Array(model.rows * 31),
    lowerValue: new Float64Array(model.rows * 2),
    open: new Int32Array(model.rows),
    byRow,
    isUpper: Uint8Array.from(model.upper, (u) => (u ? 1 : 0)),
    upperPoints: model.upper.map((u, row) => {
      const held = new Set<number>([0]);
      if (u) for (let r = 0; r < ROLLS; r++) held.add(model.points[r * model.rows + row] as number);
      return Int32Array.from(held);
    }),
  };
}

/**
 * Fills `s.final`: for each throw, the best of scoring it in an open row now
 * (points + bonus on crossing + Joker bonus + value of the next state).
 * Returns false when no row is open.
 */
export function scoreFinal(model: ScorecardModel, layout: StateLayout, values: Float64Array, mask: number, upper: number, flag: number, s: TurnScratch): boolean {
  const R = model.rows;
  const T = model.threshold;
  const U = layout.upperSize;
  const F = layout.flagSize;
  const fiveRow = model.joker ? model.joker.fiveRow : -1;
  const { final, upperValue, lowerValue, byRow, isUpper } = s;
  let nOpen = 0;
  for (let row = 0; row < R; row++) {
    if (mask & (1 << row)) continue;
    s.open[nOpen++] = row;
    if (model.forcedOrder) break;
  }
  if (nOpen === 0) return false;
  final.fill(-Infinity);
  for (let i = 0; i < nOpen; i++) {
    const row = s.open[i] as number;
    const next = maskSlot(model.forcedOrder, mask | (1 << row));
    const col = row * ROLLS;
    if (isUpper[row]) {
      // Value of the next state per points scored (capped upper total, bonus when it crosses).
      const o = row * 31;
      const ps = s.upperPoints[row] as Int32Array;
      for (let j = 0; j < ps.length; j++) {
        const p = ps[j] as number;
        const u = T > 0 ? Math.min(T, upper + p) : 0;
        const cross = T > 0 && upper < T && upper + p >= T ? model.bonus : 0;
        upperValue[o + p] = p + cross + (values[(next * U + u) * F + flag] as number);
      }
      for (let r = 0; r < ROLLS; r++) {
        const v = upperValue[o + (byRow[col + r] as number)] as number;
        if (v > (final[r] as number)) final[r] = v;
      }
    } else {
      // Only the five row's points change the flag.
      const zero = values[(next * U + upper) * F + (row === fiveRow ? 0 : flag)] as number;
      const some = values[(next * U + upper) * F + (row === fiveRow ? 1 : flag)] as number;
      lowerValue[row * 2] = zero;
      lowerValue[row * 2 + 1] = some;
      for (let r = 0; r < ROLLS; r++) {
        const p = byRow[col + r] as number;
        const v = p + (p > 0 ? some : zero);
        if (v > (final[r] as number)) final[r] = v;
      }
    }
  }
  const joker = model.joker;
  if (joker && mask & (1 << joker.fiveRow) && (flag === 1 || joker.whenScratched)) {
    // Five of a kind over a filled five row: forced placement, and the bonus while the row holds points.
    const extra = flag === 1 ? joker.extraBonus : 0;
    for (let face = 1; face <= 6; face++) {
      const r = DICE.indexOf([face, face, face, face, face]) - FIRST_ROLL;
      final[r] = extra + jokerBest(model, mask, face, s, r);
    }
  }
  return true;
}

/** The best forced Joker placement of five `face`s (without the extra bonus). */
function jokerBest(model: ScorecardModel, mask: number, face: number, s: TurnScratch, r: number): number {
  const joker = model.joker as JokerModel;
  const R = model.rows;
  const faceRow = model.face.indexOf(face);
  if (faceRow >= 0 && !(mask & (1 << faceRow))) return s.upperValue[faceRow * 31 + (model.points[r * R + faceRow] as number)] as number;
  let best = -Infinity;
  for (let row = 0; row < R; row++) {
    if (mask & (1 << row) || model.upper[row]) continue;
    const p = joker.points[(face - 1) * R + row] as number;
    const v = p + (s.lowerValue[row * 2 + (p > 0 ? 1 : 0)] as number);
    if (v > best) best = v;
  }
  if (best > -Infinity) return best;
  for (let row = 0; row < R; row++) if (!(mask & (1 << row)) && model.upper[row]) best = Math.max(best, s.upperValue[row * 31] as number);
  return best;
}

/**
 * The backward pass over the throws of a turn, from `s.final`: fills
 * `s.keep[t]` (value of keeping each multiset with t throws left, the next
 * one included, t ≥ 1) and `s.after[t]` (value of a throw with t throws
 * left after it), up to `levels` throws left.
 */
export function throwPasses(s: TurnScratch, levels: number): void {
  (s.after[0] as Float64Array).set(s.final);
  const count = DICE.count;
  const plus = DICE.plus;
  const minus = DICE.minus;
  const minusStart = DICE.minusStart;
  const best = s.best;
  for (let t = 1; t <= levels; t++) {
    const prev = s.after[t - 1] as Float64Array;
    const keep = s.keep[t] as Float64Array;
    const after = s.after[t] as Float64Array;
    for (let r = 0; r < ROLLS; r++) keep[FIRST_ROLL + r] = prev[r] as number;
    // Keeping K and throwing the rest = adding the thrown dice one at a time.
    for (let k = FIRST_ROLL - 1; k >= 0; k--) {
      const o = k * 6;
      keep[k] =
        ((keep[plus[o] as number] as number) +
          (keep[plus[o + 1] as number] as number) +
          (keep[plus[o + 2] as number] as number) +
          (keep[plus[o + 3] as number] as number) +
          (keep[plus[o + 4] as number] as number) +
          (keep[plus[o + 5] as number] as number)) /
        6;
    }
    // The best keep within each multiset: itself, or the best within one die less.
    let j = 0;
    for (let k = 0; k < count; k++) {
      let b = keep[k] as number;
      for (const end = minusStart[k + 1] as number; j < end; j++) {
        const v = best[minus[j] as number] as number;
        if (v > b) b = v;
      }
      best[k] = b;
    }
    for (let r = 0; r < ROLLS; r++) after[r] = best[FIRST_ROLL + r] as number;
  }
}

/** Mean over a first throw of five of the values in `after`. */
export function startValue(after: Float64Array): number {
  let v = 0;
  const p = DICE.rollProbability;
  for (let r = 0; r < ROLLS; r++) v += (p[r] as number) * (after[r] as number);
  return v;
}

// ---------------------------------------------------------------------------
// The solve

export interface ScorecardSolve {
  /** Expected points still to come from each turn-start state (0 where unreachable). */
  readonly values: Float64Array;
  readonly reachable: number;
  /** States solved by a turn pass (the others share the value of a state whose upper total no longer matters). */
  readonly computed: number;
  readonly seconds: number;
}

/** Solves every reachable turn-start state, fullest card first. */
export function solveScorecard(model: ScorecardModel, progress?: (done: number, total: number) => void): ScorecardSolve {
  const began = performance.now();
  const layout = layoutOf(model);
  const values = new Float64Array(layout.states);
  const { upperRows, reach } = reachableUpper(model, layout);
  const U = layout.upperSize;
  const s = turnScratch(model);
  const full = 2 ** model.rows - 1;
  const fiveBit = model.joker ? 1 << model.joker.fiveRow : 0;
  const T = model.threshold;
  // Most an upper row can still add (Joker placements included).
  const rowMax = model.upper.map((u, row) => {
    if (!u) return 0;
    let m = 0;
    for (let r = 0; r < ROLLS; r++) m = Math.max(m, model.points[r * model.rows + row] ?? 0);
    return m;
  });
  let reachable = 0;
  let computed = 0;
  const flat = new Float64Array(2);
  for (let mask = full; mask >= 0; mask--) {
    if (model.forcedOrder && (mask & (mask + 1)) !== 0) continue; // only card-order prefixes occur
    let upperMask = 0;
    let still = 0;
    upperRows.forEach((row, i) => {
      if (mask & (1 << row)) upperMask |= 1 << i;
      else still += rowMax[row] ?? 0;
    });
    const flags = fiveBit && mask & fiveBit ? 2 : 1;
    flat.fill(NaN);
    for (let u = 0; u < U; u++) {
      if (!reach[upperMask * U + u]) continue;
      // Where the bonus is won or out of reach, the upper total no longer matters: one value for all of them.
      const settled = T > 0 && (u >= T || u + still < T);
      for (let flag = 0; flag < flags; flag++) {
        reachable++;
        if (mask === full) continue; // nothing left to score
        const at = layout.index(mask, u, flag);
        if (settled && !Number.isNaN(flat[flag] as number)) {
          values[at] = flat[flag] as number;
          continue;
        }
        computed++;
        scoreFinal(model, layout, values, mask, u, flag, s);
        throwPasses(s, model.throws - 1);
        values[at] = startValue(s.after[model.throws - 1] as Float64Array);
        if (settled) flat[flag] = values[at] as number;
      }
    }
    if (progress && (mask & 1023) === 0) progress(full - mask, full + 1);
  }
  progress?.(full + 1, full + 1);
  return { values, reachable, computed, seconds: (performance.now() - began) / 1000 };
}
