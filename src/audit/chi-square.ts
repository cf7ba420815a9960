/**
 * The chi-square distribution's upper tail, for the fairness test of the dice.
 *
 * Written here rather than taken from a library: the one function needed is the
 * regularized upper incomplete gamma Q(a, x), twenty lines of the classic
 * series / continued-fraction pair (Numerical Recipes §6.2), while the
 * statistics packages on npm that have it (jstat, @stdlib) are either
 * unmaintained or pull in hundreds of modules. It is checked against published
 * table values and closed forms in tests/audit/chi-square.test.ts.
 */

const EPS = 1e-14;
const MAX_ITERATIONS = 500;

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < g + 2; i++) sum += (c[i] as number) / (z + i);
  const t = z + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a), a > 0, x ≥ 0. */
export function gammaQ(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) throw new RangeError(`gammaQ needs a > 0 and x >= 0, got a=${a}, x=${x}`);
  if (x === 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    // Series for P(a, x); Q = 1 - P.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return Math.max(0, 1 - sum * front);
  }
  // Continued fraction for Q(a, x) (modified Lentz).
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.min(1, front * h);
}

/** P(X ≥ statistic) for X chi-square distributed with `df` degrees of freedom: the test's p-value. */
export function chiSquarePValue(statistic: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  if (!(statistic >= 0)) throw new RangeError(`a chi-square statistic is never negative, got ${statistic}`);
  return gammaQ(df / 2, statistic / 2);
}
