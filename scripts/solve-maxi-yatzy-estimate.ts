/**
 * Would an exact Maxi Yatzy table fit in 200 MB and 30 minutes? Counts the
 * turn-start states an exact solve needs (filled rows × capped upper total ×
 * saved throws, unreachable pairs skipped) and the work of one turn pass on
 * six dice, and scales the measured speed of the five-dice Yatzy solver.
 *
 *   npx tsx scripts/solve-maxi-yatzy-estimate.ts [--measure]
 *
 * `--measure` also times the Yatzy default solve here (about 20-40 s) to
 * calibrate the microseconds per unit of work; otherwise it uses 23 µs per
 * Yatzy state (this machine, one core).
 */
import { MAXI_CATEGORIES, MAXI_DEFAULT_OPTIONS, MAXI_UPPER, maxiScore } from '../src/games/maxi-yatzy.js';
import { yatzyCoach } from '../src/coach/yatzy.js';
import { YATZY_DEFAULT_OPTIONS } from '../src/games/yatzy.js';

/** Multisets of 0..n dice: counts per size, and the sum over them of their distinct faces. */
function multisets(n: number): { bySize: number[]; distinctFaces: number } {
  const bySize = Array<number>(n + 1).fill(0);
  let distinctFaces = 0;
  const walk = (face: number, left: number, size: number, distinct: number): void => {
    if (face > 6) {
      bySize[size] = (bySize[size] ?? 0) + 1;
      distinctFaces += distinct;
      return;
    }
    for (let k = 0; k <= left; k++) walk(face + 1, left - k, size + k, distinct + (k > 0 ? 1 : 0));
  };
  walk(1, n, 0, 0);
  return { bySize, distinctFaces };
}

/** The work of one turn pass: scoring every throw in every open row, and the keep/best passes per extra throw. */
function turnWork(dice: number, rows: number, throws: number): number {
  const m = multisets(dice);
  const all = m.bySize.reduce((a, b) => a + b, 0);
  const rolls = m.bySize[dice] ?? 0;
  const scoring = rolls * (rows / 2); // half the rows open on average
  const perThrow = (all - rolls) * 6 + m.distinctFaces;
  return scoring + (throws - 1) * perThrow + rolls;
}

const threshold = MAXI_DEFAULT_OPTIONS.upperBonusThreshold;
const rows = MAXI_CATEGORIES.length;
const U = threshold + 1;

// Upper totals (capped) reachable for each set of filled upper rows, from the game's own scoring.
const rowValues = MAXI_UPPER.map((row, i) => {
  const face = i + 1;
  const other = face === 1 ? 2 : 1;
  return Array.from({ length: 7 }, (_, n) => maxiScore([...Array<number>(n).fill(face), ...Array<number>(6 - n).fill(other)], row));
});
const reachCount: number[] = [];
for (let m = 0; m < 64; m++) {
  let sums = new Set([0]);
  rowValues.forEach((values, i) => {
    if (!(m & (1 << i))) return;
    const next = new Set<number>();
    for (const s of sums) for (const v of values) next.add(Math.min(threshold, s + v));
    sums = next;
  });
  reachCount.push(sums.size);
}

let withoutSaving = 0;
let withSaving = 0;
const maxSavedPerTurn = MAXI_DEFAULT_OPTIONS.throwsPerTurn - 1;
for (let mask = 0; mask < 1 << rows; mask++) {
  let filled = 0;
  for (let r = 0; r < rows; r++) if (mask & (1 << r)) filled++;
  const reach = reachCount[mask & 63] ?? 0; // the six upper rows are the low bits
  withoutSaving += reach;
  // After k filled rows the saved throws are 0..2k (at least one throw a turn).
  withSaving += reach * (maxSavedPerTurn * filled + 1);
}

const fiveDice = turnWork(5, 15, 3);
const sixDice = turnWork(6, rows, 3);
// A turn with s saved throws has 3 + s throws; the saved throws average about 10 over the states.
const sixDiceSaved = turnWork(6, rows, 3 + 10);

let usPerYatzyState = 23;
if (process.argv.includes('--measure')) {
  const t = yatzyCoach.solve(YATZY_DEFAULT_OPTIONS);
  usPerYatzyState = (Number(t.facts.seconds) * 1e6) / Number(t.facts.computed);
}
const usPerWork = usPerYatzyState / fiveDice;
const fmt = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const hours = (states: number, work: number) => ((states * work * usPerWork) / 1e6 / 3600).toFixed(1);

console.log(
  JSON.stringify(
    {
      rows,
      upperTotals: U,
      fullIndexWithoutSaving: 2 ** rows * U,
      reachableWithoutSaving: withoutSaving,
      reachableWithSaving: withSaving,
      bytesFloat32WithoutSaving: fmt(withoutSaving * 4),
      bytesFloat32WithSaving: fmt(withSaving * 4),
      workPerState: { yatzy5: Math.round(fiveDice), maxi6: Math.round(sixDice), maxi6Saved: Math.round(sixDiceSaved) },
      usPerYatzyState,
      hoursOneCoreWithoutSaving: hours(withoutSaving, sixDice),
      hoursOneCoreWithSaving: hours(withSaving, sixDiceSaved),
    },
    null,
    2,
  ),
);
