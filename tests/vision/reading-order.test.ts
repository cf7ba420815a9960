import { describe, expect, it } from 'vitest';
import { inReadingOrder } from '../../src/vision/read-dice.js';

const die = (name: string, x: number, y: number, size = 40) => ({ name, center: { x, y }, size });
const permutations = <T>(items: readonly T[]): T[][] =>
  items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

describe('reading order', () => {
  it('goes down each column of dice, then to the next column on the right', () => {
    const dice = [die('bottom right', 200, 300), die('top left', 100, 100), die('top right', 210, 90), die('bottom left', 95, 310)];
    expect(inReadingOrder(dice).map((d) => d.name)).toEqual(['top left', 'bottom left', 'top right', 'bottom right']);
  });

  it('is the same whatever order the dice were found in, even where comparing two at a time goes round in a circle', () => {
    // Pairwise, A and B are one column (B above), B and C too (C above), but A and C are two columns (A left): C < B < A < C.
    const dice = [die('A', 0, 100), die('B', 15, 50), die('C', 30, 0)];
    const orders = new Set(permutations(dice).map((found) => inReadingOrder(found).map((d) => d.name).join(' ')));
    expect([...orders]).toEqual(['B A C']);
  });
});
