import { describe, expect, it } from 'vitest';
import { chiSquarePValue, gammaQ, logGamma } from '../../src/audit/chi-square.js';
import { ALPHA, fairness, faceStats, MIN_ROLLS } from '../../src/audit/fairness.js';
import { SeededRandom } from '../../src/hardware/index.js';

describe('chi-square p-value', () => {
  it.each([
    // Critical values from the standard tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.4).
    [3.841459, 1, 0.05],
    [6.634897, 1, 0.01],
    [11.0705, 5, 0.05],
    [15.08627, 5, 0.01],
    [20.51501, 5, 0.001],
    [1.145476, 5, 0.95],
    [18.30704, 10, 0.05],
  ])('P(chi2 >= %f, df %i) = %f', (x, df, p) => {
    expect(chiSquarePValue(x, df)).toBeCloseTo(p, 5);
  });

  it('matches the closed forms for even degrees of freedom', () => {
    for (const x of [0.1, 1, 2.5, 4, 9, 30, 80]) {
      expect(chiSquarePValue(x, 2)).toBeCloseTo(Math.exp(-x / 2), 12);
      expect(chiSquarePValue(x, 4)).toBeCloseTo(Math.exp(-x / 2) * (1 + x / 2), 12);
      expect(chiSquarePValue(x, 6)).toBeCloseTo(Math.exp(-x / 2) * (1 + x / 2 + (x * x) / 8), 12);
    }
  });

  it('is 1 at 0, falls as the statistic grows, and stays in [0, 1]', () => {
    expect(chiSquarePValue(0, 5)).toBe(1);
    let last = 1;
    for (let x = 0.5; x < 200; x *= 1.5) {
      const p = chiSquarePValue(x, 5);
      expect(p).toBeLessThanOrEqual(last);
      expect(p).toBeGreaterThanOrEqual(0);
      last = p;
    }
    expect(gammaQ(2.5, 1e-9)).toBeCloseTo(1, 9);
  });

  it('computes ln Γ', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(2.5)).toBeCloseTo(Math.log(1.329340388179137), 12);
  });

  it('refuses what is not a chi-square question', () => {
    expect(() => chiSquarePValue(-1, 5)).toThrow(/never negative/);
    expect(() => chiSquarePValue(1, 0)).toThrow(/positive integer/);
  });
});

describe('fairness of the dice', () => {
  it('a perfectly even die: statistic 0, p 1, not biased', () => {
    const values = Array.from({ length: 60 }, (_, i) => (i % 6) + 1);
    const stats = faceStats('red', values);
    expect(stats).toMatchObject({ rolls: 60, counts: [10, 10, 10, 10, 10, 10], chiSquare: 0, pValue: 1, enough: true, needed: 0, biased: false });
  });

  it('a die that always shows six is called biased once there are enough rolls, not before', () => {
    const few = faceStats('red', new Array(MIN_ROLLS - 1).fill(6));
    expect(few).toMatchObject({ enough: false, needed: 1, biased: false });
    expect(few.pValue).toBeLessThan(ALPHA);
    const many = faceStats('red', new Array(MIN_ROLLS).fill(6));
    expect(many).toMatchObject({ enough: true, needed: 0, biased: true });
  });

  it('groups dice by their key and tests all dice together', () => {
    const report = fairness([
      ...Array.from({ length: 12 }, (_, i) => ({ key: 'red', value: (i % 6) + 1 })),
      ...Array.from({ length: 6 }, () => ({ key: 'blue', value: 3 })),
    ]);
    expect(report.dice.map((d) => [d.key, d.rolls])).toEqual([['red', 12], ['blue', 6]]);
    expect(report.dice[1]?.counts).toEqual([0, 0, 6, 0, 0, 0]);
    expect(report.overall).toMatchObject({ key: 'all dice', rolls: 18, counts: [2, 2, 8, 2, 2, 2] });
    expect(report.dice.every((d) => !d.biased)).toBe(true);
  });

  it('refuses a value that is no face', () => {
    expect(() => faceStats('red', [7])).toThrow(/not a face/);
  });

  it('calls a fair die biased about as often as ALPHA says (calibration over 4000 seeded dice)', () => {
    const random = new SeededRandom(2026);
    let flagged = 0;
    const runs = 4000;
    for (let run = 0; run < runs; run++) {
      const values = Array.from({ length: MIN_ROLLS * 2 }, () => 1 + Math.floor(random.next() * 6));
      if (faceStats('fair', values).biased) flagged++;
    }
    // Binomial(4000, 0.01): mean 40, sd 6.3; the chi-square approximation at 120 rolls is close.
    expect(flagged / runs).toBeGreaterThan(0.004);
    expect(flagged / runs).toBeLessThan(0.018);
  });

  it('finds a die loaded towards six (1/3 instead of 1/6) in 300 rolls', () => {
    const random = new SeededRandom(7);
    const values = Array.from({ length: 300 }, () => (random.next() < 1 / 3 ? 6 : 1 + Math.floor(random.next() * 5)));
    expect(faceStats('loaded', values).biased).toBe(true);
  });
});
