import { describe, expect, it } from 'vitest';
import { didNotTumble, type SeenFrame } from '../../src/audit/tumble.js';

const frame = (dice: Array<[number | null, number, number]>, width = 1000): SeenFrame => ({ width, dice: dice.map(([value, x, y]) => ({ value, center: { x, y } })) });

describe('no-roll check', () => {
  const before = frame([[3, 100, 200], [5, 400, 420], [1, 700, 300]]);

  it('sees the same dice in the same places, in any order, as no tumble', () => {
    expect(didNotTumble(before, frame([[1, 702, 299], [3, 100, 200], [5, 395, 425]]))).toBe(true);
  });

  it('a die that moved more than the tolerance, or shows another face, is a real throw', () => {
    expect(didNotTumble(before, frame([[3, 100, 200], [5, 400, 420], [1, 730, 300]]))).toBe(false);
    expect(didNotTumble(before, frame([[3, 100, 200], [5, 400, 420], [2, 700, 300]]))).toBe(false);
  });

  it('a different number of dice, no previous frame or an empty tray is never "no tumble"', () => {
    expect(didNotTumble(before, frame([[3, 100, 200], [5, 400, 420]]))).toBe(false);
    expect(didNotTumble(null, before)).toBe(false);
    expect(didNotTumble(frame([]), frame([]))).toBe(false);
  });

  it('matches each die of the previous frame only once', () => {
    const twoThrees = frame([[3, 100, 200], [3, 105, 200]]);
    expect(didNotTumble(frame([[3, 100, 200], [4, 600, 600]]), twoThrees)).toBe(false);
    expect(didNotTumble(twoThrees, frame([[3, 104, 200], [3, 101, 200]]))).toBe(true);
  });
});
