import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { createSimulator, DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../../src/hardware/simulator/index.js';

describe('throwDice', () => {
  it('places dice inside the tray without any two touching', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new SeededRandom(seed);
      const dice = throwDice(rng, 12, DIE_COLOURS);
      expect(dice).toHaveLength(12);
      for (const d of dice) {
        const reach = (d.size * Math.SQRT2) / 2;
        expect(d.x - reach).toBeGreaterThan(0);
        expect(d.y - reach).toBeGreaterThan(0);
        expect(d.x + reach).toBeLessThan(DEFAULT_TRAY.width);
        expect(d.y + reach).toBeLessThan(DEFAULT_TRAY.height);
        for (const e of dice) if (e !== d) expect(Math.hypot(d.x - e.x, d.y - e.y)).toBeGreaterThan(d.size * Math.SQRT2);
      }
    }
  });

  it('is reproducible from its seed', () => {
    expect(throwDice(new SeededRandom(42), 5, ['red'])).toEqual(throwDice(new SeededRandom(42), 5, ['red']));
    expect(throwDice(new SeededRandom(42), 5, ['red'])).not.toEqual(throwDice(new SeededRandom(43), 5, ['red']));
  });

  it('throws fair dice', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    const rng = new SeededRandom(7);
    const throws = 12_000;
    for (let i = 0; i < throws / 6; i++) for (const d of throwDice(rng, 6, ['white'])) counts[d.value - 1]! += 1;
    // Chi-square with 5 degrees of freedom: 20.5 is the 0.999 quantile.
    const expected = throws / 6;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(20.5);
  });

  it('refuses counts that make no sense or do not fit', () => {
    expect(() => throwDice(new SeededRandom(1), 0, ['red'])).toThrow(/at least 1/);
    expect(() => throwDice(new SeededRandom(1), 200, ['red'])).toThrow(/do not fit/);
  });
});

describe('renderTray', () => {
  it('renders a 1280x720 JPEG, the same bytes for the same scene and noise seed', () => {
    const dice = throwDice(new SeededRandom(9), 5, ['blue']);
    const a = renderTray(dice, DEFAULT_TRAY, { noiseSeed: 1 });
    const b = renderTray(dice, DEFAULT_TRAY, { noiseSeed: 1 });
    const c = renderTray(dice, DEFAULT_TRAY, { noiseSeed: 2 });
    expect(a.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    const image = cv.imdecode(a);
    expect([image.cols, image.rows]).toEqual([1280, 720]);
  });

  it('draws each die in its colour, where and as turned as the scene says', () => {
    const dice = throwDice(new SeededRandom(4), 6, ['yellow']);
    const image = cv.imdecode(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 3 }));
    const rgbAt = (d: (typeof dice)[number], degrees: number, reach: number) => {
      const a = ((d.angle + degrees) * Math.PI) / 180;
      const v = image.at(Math.round(d.y + reach * d.size * Math.sin(a)), Math.round(d.x + reach * d.size * Math.cos(a))) as unknown as {
        x: number;
        y: number;
        z: number;
      };
      return { r: v.z, g: v.y, b: v.x };
    };
    for (const d of dice) {
      // Towards a corner, past the corner pips: still the yellow face.
      const corner = rgbAt(d, 45, 0.58);
      expect(corner.r).toBeGreaterThan(150);
      expect(corner.b).toBeLessThan(100);
      // Just as far towards an edge: already off the die, on the teal felt.
      const edge = rgbAt(d, 0, 0.58);
      expect(edge.r).toBeLessThan(100);
    }
  });
});

describe('simulated tower and camera', () => {
  it('shows the dice the tower threw, and only those', async () => {
    const sim = createSimulator({ seed: 5, colours: ['red'] });
    const empty = await sim.camera.capture();
    expect(empty.width).toBe(1280);
    await sim.tower.roll(5);
    expect(sim.truth()).toHaveLength(5);
    await sim.tower.roll(2);
    expect(sim.truth()).toHaveLength(2);
    const frame = await sim.camera.capture();
    expect(frame.image.equals(empty.image)).toBe(false);
  });
});
