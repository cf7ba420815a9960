import { describe, expect, it } from 'vitest';
import { DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { readingErrors } from './match.js';

/** A seeded scene: 1-10 dice, each of a random palette colour. */
function scene(seed: number) {
  const rng = new SeededRandom(seed);
  const count = rng.int(1, 10);
  const colours = Array.from({ length: count }, () => rng.pick(DIE_COLOURS));
  return throwDice(rng, count, colours);
}

describe('vision v0 on simulator frames', () => {
  const FRAMES = 240;

  it(`reads every die of ${FRAMES} seeded frames across the whole palette exactly`, { timeout: 300_000 }, () => {
    const failures: string[] = [];
    const seen = new Map<string, Set<number>>();
    let dice = 0;
    for (let seed = 1; seed <= FRAMES; seed++) {
      const truth = scene(seed);
      const jpeg = renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed * 7919 });
      const reading = readDiceInImage(decodeFrame(jpeg), undefined, truth.length);
      const errors = readingErrors(reading, truth);
      if (errors.length > 0) failures.push(`seed ${seed}: ${errors.join('; ')}`);
      for (const d of truth) {
        const values = seen.get(d.colour) ?? new Set<number>();
        values.add(d.value);
        seen.set(d.colour, values);
      }
      dice += truth.length;
    }
    expect(failures).toEqual([]);
    // The set really covers the palette: every colour showed every face.
    for (const colour of DIE_COLOURS) expect([...(seen.get(colour) ?? [])].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dice).toBeGreaterThan(FRAMES * 4);
  });

  it('reports a wrong number of dice as an invalid roll', () => {
    const truth = scene(3);
    const reading = readDiceInImage(decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: 1 })), undefined, truth.length + 1);
    expect(reading.valid).toBe(false);
    expect(reading.problems.join()).toContain(`expected ${truth.length + 1} dice`);
  });

  it('reads an empty tray as no dice', () => {
    const reading = readDiceInImage(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 5 })));
    expect(reading.dice).toEqual([]);
    expect(reading.valid).toBe(true);
  });
});
