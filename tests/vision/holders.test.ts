import { describe, expect, it } from 'vitest';
import { DEFAULT_VISION_CONFIG } from '../../src/vision/config.js';
import { HOLDER_RATIO, holdersOfSmallerDice } from '../../src/vision/read-dice.js';
import type { DieReading } from '../../src/vision/types.js';
import { findingPhoto, readValues, valuesIn, type Box } from './finding-photos.js';

/** A die read as `value`, centred at (x, y), in a square box of side `size` square to the frame. */
function die(value: number | null, x: number, y: number, size: number): DieReading {
  const h = size / 2;
  const box = [
    { x: x - h, y: y - h },
    { x: x + h, y: y - h },
    { x: x + h, y: y + h },
    { x: x - h, y: y + h },
  ];
  return { value, colour: 'white', lab: { L: 90, a: 0, b: 0 }, center: { x, y }, box, size, confidence: value === null ? 0 : 1 };
}

describe('a die read whose box holds a much smaller die read (holdersOfSmallerDice)', () => {
  it('is the one doubted, not the die it holds', () => {
    const small = die(4, 120, 120, 30);
    const large = die(4, 100, 100, 30 * HOLDER_RATIO);
    expect([...holdersOfSmallerDice([small, large])]).toEqual([large]);
  });

  it("doubts no die near the size of a neighbour whose centre its box holds (dice pressed in a crowd)", () => {
    expect(holdersOfSmallerDice([die(3, 100, 100, 40), die(5, 115, 100, 40 / (HOLDER_RATIO - 0.05))]).size).toBe(0);
  });

  it('doubts no die for a smaller one lying beside it, nor for an unreadable one inside it', () => {
    expect(holdersOfSmallerDice([die(6, 100, 100, 60), die(2, 160, 100, 30)]).size).toBe(0);
    expect(holdersOfSmallerDice([die(6, 100, 100, 60), die(null, 110, 100, 30)]).size).toBe(0);
  });
});

describe("a box over the tray's dark corner that takes in a blue 4 (nell-byler IMG_20191208_111304)", () => {
  const { image, labelled } = findingPhoto('nell-byler-IMG_20191208_111304');
  const blueFour: Box = [88, 129, 120, 160];
  const corner: Box = [56, 97, 86, 127];

  it('is left unreadable instead of read as a second 4, and the blue 4 is still read', () => {
    expect(valuesIn(image, corner, DEFAULT_VISION_CONFIG)).toEqual([null]);
    expect(valuesIn(image, blueFour, DEFAULT_VISION_CONFIG)).toEqual([4]);
    expect(readValues(image, labelled).wrong).toEqual([]);
  });
});
