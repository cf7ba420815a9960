import { describe, expect, it } from 'vitest';
import { keptSearchFinds } from '../../src/vision/blobs.js';
import type { Point } from '../../src/vision/types.js';

// The search's choice among the faces its windows read, apart from the classifier (tests/vision/search-objects.test.ts reads photos).
const APART = 28; // 0.7 of a 40-pixel die
const find = (value: number, x: number, y: number, confidence = 0.9) => ({ value, confidence, centre: { x, y } });
const squareBox = (c: Point, half: number): Point[] => [
  { x: c.x - half, y: c.y - half },
  { x: c.x + half, y: c.y - half },
  { x: c.x + half, y: c.y + half },
  { x: c.x - half, y: c.y + half },
];
const dieRead = (value: number | null, x: number, y: number, half = 20) => ({ value, center: { x, y }, box: squareBox({ x, y }, half) });

describe('the dice the search keeps of the faces its windows read', () => {
  it('keeps faces read in different places, each once', () => {
    expect(keptSearchFinds([find(3, 100, 100), find(5, 200, 100)], [], APART).map((f) => f.value)).toEqual([3, 5]);
  });

  it('keeps one die per place, the surest of the windows that agree', () => {
    const kept = keptSearchFinds([find(4, 100, 100, 0.8), find(4, 110, 104, 0.95)], [], APART);
    expect(kept).toEqual([find(4, 110, 104, 0.95)]);
  });

  it('keeps no die where windows read different values (a 2 read as 2, and over one of its pips as 1)', () => {
    expect(keptSearchFinds([find(2, 100, 100, 0.99), find(1, 108, 96, 0.9)], [], APART)).toEqual([]);
    // Still none when the window that read the other value is the surer one.
    expect(keptSearchFinds([find(2, 100, 100, 0.9), find(1, 108, 96, 0.99)], [], APART)).toEqual([]);
  });

  it('keeps a die whose differently-read neighbour lies a die away (another die, not another view of this one)', () => {
    expect(keptSearchFinds([find(2, 100, 100), find(1, 100 + APART, 100)], [], APART).map((f) => f.value)).toEqual([2, 1]);
  });

  it('keeps no die near the centre of a die read, even outside its box', () => {
    expect(keptSearchFinds([find(3, 100, 100)], [dieRead(6, 110, 110, 5)], APART)).toEqual([]);
    expect(keptSearchFinds([find(3, 100, 100)], [dieRead(null, 110, 110, 5)], APART).map((f) => f.value)).toEqual([3]);
  });

  it("keeps no die inside a read die's box, however far from its centre (part of that die's face)", () => {
    const big = dieRead(4, 150, 150, 60);
    expect(keptSearchFinds([find(1, 110, 110)], [big], APART)).toEqual([]);
    expect(keptSearchFinds([find(1, 110, 110)], [{ ...big, value: null }], APART).map((f) => f.value)).toEqual([1]);
  });

  it('keeps a die beside a die read, outside its box and not near it', () => {
    expect(keptSearchFinds([find(5, 160, 100)], [dieRead(2, 100, 100)], APART).map((f) => f.value)).toEqual([5]);
  });

  it('does not reorder or change the candidates it is given', () => {
    const candidates = [find(3, 100, 100, 0.7), find(5, 200, 100, 0.9)];
    const copy = structuredClone(candidates);
    keptSearchFinds(candidates, [], APART);
    expect(candidates).toEqual(copy);
  });
});
