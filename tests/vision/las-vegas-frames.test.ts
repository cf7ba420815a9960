import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, LAS_VEGAS_COLOURS, lasVegasHopper, renderTray, throwHopper } from '../../src/hardware/simulator/index.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { readingErrors } from './match.js';

describe('Las Vegas throws on simulator frames: whose die, and how big', () => {
  const FRAMES = 200;

  it(`reads the colour (confidently) and size class of every die in ${FRAMES} seeded throws`, { timeout: 300_000 }, () => {
    const calibrated = { ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize };
    const failures: string[] = [];
    const owners = new Set<string>();
    let bigDice = 0;
    let relativeChecked = 0;
    for (let seed = 1; seed <= FRAMES; seed++) {
      const rng = new SeededRandom(seed);
      // Every player colour in turn, so each is the own colour 25 times.
      const own = LAS_VEGAS_COLOURS[seed % LAS_VEGAS_COLOURS.length] ?? 'red';
      const truth = throwHopper(rng, lasVegasHopper(rng, own));
      owners.add(own);
      const image = decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed * 31 }));
      const reading = readDiceInImage(image, calibrated, truth.length);
      const errors = readingErrors(reading, truth);
      for (const t of truth) {
        const d = reading.dice.find((r) => Math.hypot(r.center.x - t.x, r.center.y - t.y) < t.size / 4);
        if (!d) continue;
        const size = t.sizeClass ?? 'normal';
        if (d.sizeClass !== size) errors.push(`${t.colour} ${size} die read as ${d.sizeClass}`);
        if (d.colourConfident !== true) errors.push(`${t.colour} die's colour not confident`);
        if (size === 'big') bigDice++;
      }
      // Without calibration the size is told from the other dice: right when a big die is beside normal ones, else unknown.
      if (truth.some((t) => t.sizeClass === 'big') && truth.some((t) => t.sizeClass === undefined)) {
        const relative = readDiceInImage(image, DEFAULT_VISION_CONFIG, truth.length);
        relativeChecked++;
        for (const t of truth) {
          const d = relative.dice.find((r) => Math.hypot(r.center.x - t.x, r.center.y - t.y) < t.size / 4);
          if (d?.sizeClass !== (t.sizeClass ?? 'normal')) errors.push(`uncalibrated: ${t.colour} ${t.sizeClass ?? 'normal'} die read as ${d?.sizeClass}`);
        }
      }
      if (errors.length > 0) failures.push(`seed ${seed}: ${errors.join('; ')}`);
    }
    expect(failures).toEqual([]);
    expect([...owners].sort()).toEqual([...LAS_VEGAS_COLOURS].sort());
    expect(bigDice).toBeGreaterThan(FRAMES / 4);
    expect(relativeChecked).toBeGreaterThan(FRAMES / 5);
  });

  it('does not guess a size when every die is of one size and nothing is calibrated', () => {
    const truth = throwHopper(new SeededRandom(9), [{ colour: 'red', size: 'normal' }, { colour: 'red', size: 'normal' }]);
    const reading = readDiceInImage(decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: 9 })), DEFAULT_VISION_CONFIG, 2);
    expect(reading.dice.map((d) => d.sizeClass)).toEqual([null, null]);
    const lone = throwHopper(new SeededRandom(10), [{ colour: 'blue', size: 'big' }]);
    const big = readDiceInImage(decodeFrame(renderTray(lone, DEFAULT_TRAY, { noiseSeed: 10 })), DEFAULT_VISION_CONFIG, 1);
    expect(big.dice.map((d) => d.sizeClass)).toEqual([null]);
  });

  it('is not confident of a colour halfway between two palette colours, nor of one far from every palette colour', () => {
    const truth = throwHopper(new SeededRandom(3), [{ colour: 'blue', size: 'normal' }]);
    const image = decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: 3 }));
    const die = readDiceInImage(image, DEFAULT_VISION_CONFIG, 1).dice[0];
    expect(die?.colourConfident).toBe(true);
    const lab = die?.lab ?? { L: 0, a: 0, b: 0 };
    // Two palette entries placed symmetrically around the measured colour: no margin at all.
    const twin = { ...DEFAULT_VISION_CONFIG, palette: { left: { ...lab, a: lab.a - 6 }, right: { ...lab, a: lab.a + 6 } } };
    expect(readDiceInImage(image, twin, 1).dice[0]?.colourConfident).toBe(false);
    // A palette without blue: purple is nearest, but far.
    const { blue: _, ...noBlue } = DEFAULT_VISION_CONFIG.palette;
    const far = readDiceInImage(image, { ...DEFAULT_VISION_CONFIG, palette: noBlue }, 1).dice[0];
    expect(far?.colour).not.toBe('blue');
    expect(far?.colourConfident).toBe(false);
  });
});
