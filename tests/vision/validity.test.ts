import { describe, expect, it } from 'vitest';
import { outsideTray, type WallJudgement } from '../../src/vision/validity.js';

// A 1280x720 frame whose calibrated tray floor lies inside a rim on every side.
const tray = { x: 100, y: 52, width: 1096, height: 624 };
const wall = { aspect: 1.26, dieSize: 64 };
/** The corners of an upright box. */
const box = (x0: number, y0: number, x1: number, y1: number) => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
/** The corners of a square of side `side` about (cx, cy), turned `degrees`. */
function turned(cx: number, cy: number, side: number, degrees: number) {
  const [c, s] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => ({ x: cx + ((u! * c - v! * s) * side) / 2, y: cy + ((u! * s + v! * c) * side) / 2 }));
}
const outside = (corners: ReturnType<typeof box>, judgement: WallJudgement | null = wall, region: typeof tray | null = tray) => outsideTray(corners, region, 1280, 720, 2, judgement);

describe('a die against the tray\'s rim', () => {
  it('lies in the tray when its whole square touches the rim: its shadow or the region\'s inset reach the edge', () => {
    // Against the left, top, right and bottom rims, the side along the rim 64 to 70 pixels (the box takes in a shadow).
    expect(outside(box(100, 300, 160, 364))).toBe(false);
    expect(outside(box(400, 52, 468, 114))).toBe(false);
    expect(outside(box(1128, 300, 1196, 370))).toBe(false);
    expect(outside(box(400, 610, 464, 676))).toBe(false);
    // Turned, its corner cut by the region's inset and its box grown by the shadow: 10 pixels past the edge of a 70-pixel box.
    expect(outside(turned(100 + 49 - 10, 300, 70, 45))).toBe(false);
  });

  it('lies partly outside when the edge cuts it short, or its corner reaches far past the edge', () => {
    // A third of a die on the rim: 42 pixels across it, 64 along.
    expect(outside(box(100, 300, 142, 364))).toBe(true);
    // Cut just beyond what a flat die's box may show (64 over 50 is above 1.26).
    expect(outside(box(100, 300, 150, 364))).toBe(true);
    // A piece of a die: a square, but far smaller than a whole die (a half 6 read as a column of 1s).
    expect(outside(box(100, 300, 130, 328))).toBe(true);
    // A turned die whose corner reaches 16 pixels past the edge (more than 0.15 of its side and the margin).
    expect(outside(turned(100 + 45 - 16, 300, 64, 45))).toBe(true);
  });

  it('in a corner, counts as whole only against a known die size', () => {
    const corner = box(100, 52, 162, 114);
    expect(outside(corner)).toBe(false);
    expect(outside(corner, { ...wall, dieSize: null })).toBe(true);
    // A quarter of a die seen in the corner.
    expect(outside(box(100, 52, 132, 84))).toBe(true);
  });

  it('is cut by the frame\'s edge where no rim is in view, and by any edge when judged without walls', () => {
    // The tray region reaches the frame's left edge: nothing there tells what lies beyond.
    expect(outside(box(0, 300, 64, 364), wall, { ...tray, x: 0, width: 1196 })).toBe(true);
    expect(outside(box(0, 300, 64, 364), wall, null)).toBe(true);
    // Without walls (a die to be measured), touching the rim is enough.
    expect(outside(box(100, 300, 164, 364), null)).toBe(true);
    // A die lying apart from every edge is inside either way.
    expect(outside(box(400, 300, 464, 364))).toBe(false);
    expect(outside(box(400, 300, 464, 364), null)).toBe(false);
  });
});
