/**
 * The property every coach is held to: the solver's value equals the mean of
 * games (or turns) played with its own policy through the game module, with
 * seeded dice, within a few standard errors.
 */
import { expect } from 'vitest';

/** Mean and standard error of the mean of `samples`. */
export function meanAndError(samples: readonly number[]): { readonly mean: number; readonly se: number } {
  const n = samples.length;
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(samples.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  return { mean, se: sd / Math.sqrt(n) };
}

/** Asserts that `value` (the solver's) lies within `k` standard errors of the simulated mean. */
export function expectAgrees(simulated: { readonly mean: number; readonly se: number }, value: number, k = 4): void {
  expect(simulated.se).toBeGreaterThan(0);
  expect(Math.abs(simulated.mean - value)).toBeLessThan(k * simulated.se);
}

/** Asserts that a rate seen in `n` games lies within `k` standard errors of the chance `p` (the solver's). */
export function expectChance(rate: number, n: number, p: number, k = 4): void {
  expect(Math.abs(rate - p)).toBeLessThan(k * Math.sqrt((p * (1 - p)) / n));
}
