import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import cv from '../../src/hardware/opencv.js';
import { createSimulator, DIE_COLOURS, SeededRandom, type HopperDie } from '../../src/hardware/index.js';
import {
  BIG_DIE_SCALE,
  cockedScene,
  DEFAULT_TRAY,
  outsideScene,
  renderTray,
  stackedScene,
  throwDice,
  throwHopper,
  touchingScene,
} from '../../src/hardware/simulator/index.js';

describe('the simulated tower throws the hopper it is given', () => {
  const hopper: HopperDie[] = [
    { colour: 'green', size: 'normal' },
    { colour: 'green', size: 'big' },
    { colour: 'purple', size: 'normal' },
    { colour: 'white', size: 'normal' },
    { colour: 'white', size: 'normal' },
  ];

  it('throws exactly those colours and sizes, big dice larger', async () => {
    const sim = createSimulator({ seed: 5, colours: ['red'] });
    await sim.tower.roll(hopper.length, hopper);
    const dice = sim.truth();
    expect(dice.map((d) => [d.colour, d.sizeClass ?? 'normal'])).toEqual(hopper.map((h) => [h.colour, h.size]));
    expect(dice.map((d) => d.size)).toEqual([64, Math.round(64 * BIG_DIE_SCALE), 64, 64, 64]);
    // Without a hopper it throws its own colours as before.
    await sim.tower.roll(2);
    expect(sim.truth().map((d) => d.colour)).toEqual(['red', 'red']);
  });

  it('places big dice so that no two dice touch', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const dice = throwHopper(new SeededRandom(seed), [...hopper, ...hopper, { colour: 'red', size: 'big' }]);
      for (const d of dice) {
        for (const e of dice) if (e !== d) expect(Math.hypot(d.x - e.x, d.y - e.y)).toBeGreaterThan(((d.size + e.size) * Math.SQRT2) / 2);
      }
    }
  });

  it('refuses a hopper that does not match the count, or dice it cannot draw', async () => {
    const sim = createSimulator({ seed: 5, colours: ['red'] });
    await expect(sim.tower.roll(3, hopper)).rejects.toMatchObject({ code: 'tower/bad_hopper' });
    await expect(sim.tower.roll(1, [{ colour: 'orange', size: 'normal' }])).rejects.toThrow(/no orange dice/);
  });

  it('still throws the recorded fixture scenes from their seeds (throwDice unchanged)', () => {
    for (const name of ['sim-001', 'sim-005', 'sim-009']) {
      const recorded = JSON.parse(readFileSync(new URL(`../../fixtures/vision/${name}.json`, import.meta.url), 'utf8')) as {
        seed: number;
        dice: { colour: string; value: number; x: number; y: number }[];
      };
      const i = recorded.seed - 1000;
      const n = recorded.dice.length;
      const colours = Array.from({ length: n }, (_, k) => DIE_COLOURS[(i + k) % DIE_COLOURS.length] ?? 'white');
      const dice = throwDice(new SeededRandom(recorded.seed), n, colours);
      expect(dice.map((d) => ({ colour: d.colour, value: d.value, x: Math.round(d.x * 10) / 10, y: Math.round(d.y * 10) / 10 }))).toEqual(
        recorded.dice.map((d) => ({ colour: d.colour, value: d.value, x: d.x, y: d.y })),
      );
    }
  });
});

describe('invalid scenes', () => {
  /** Pixels that differ clearly from the empty tray (a die's footprint). */
  const differs = (dice: Parameters<typeof renderTray>[0]) => {
    const empty = cv.imdecode(renderTray([], DEFAULT_TRAY, { noiseSeed: 1 }));
    const scene = cv.imdecode(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 1 }));
    return scene.absdiff(empty).cvtColor(cv.COLOR_BGR2GRAY).threshold(40, 255, cv.THRESH_BINARY);
  };

  it('a cocked die shows a longer footprint than a flat one (its side face)', () => {
    const flat = throwDice(new SeededRandom(11), 1, ['red']);
    const cocked = cockedScene(new SeededRandom(11), 1, ['red'], 30);
    expect(cocked[0]).toMatchObject({ tilt: 30, x: flat[0]?.x, y: flat[0]?.y });
    expect(differs(cocked).countNonZero()).toBeGreaterThan(differs(flat).countNonZero() * 1.2);
  });

  it('a stacked die overlaps the die under it; touching dice are flush; an outside die crosses the frame edge', () => {
    const stacked = stackedScene(new SeededRandom(12), 3, ['green']);
    const [base, top] = [stacked[0], stacked[stacked.length - 1]];
    expect(stacked).toHaveLength(4);
    expect(Math.hypot((base?.x ?? 0) - (top?.x ?? 0), (base?.y ?? 0) - (top?.y ?? 0))).toBeLessThan((base?.size ?? 0) / 2);
    const touching = touchingScene(new SeededRandom(13), 3, ['white', 'red']);
    expect(Math.hypot((touching[0]?.x ?? 0) - (touching[1]?.x ?? 0), (touching[0]?.y ?? 0) - (touching[1]?.y ?? 0))).toBeCloseTo(64, 5);
    const outside = outsideScene(new SeededRandom(14), 3, ['blue'], 0.5);
    expect(outside[0]?.x).toBe(0);
  });
});
