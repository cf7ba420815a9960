import { describe, expect, it } from 'vitest';
import type { DieReading, Point } from '../../src/vision/types.js';
import { DEFAULT_SCENE_CONFIG, judgeScene, outsideTray, type WallJudgement } from '../../src/vision/validity.js';

// A 1280x720 frame whose calibrated tray floor ends inside it on every side (a rim in view all round).
const tray = { x: 100, y: 52, width: 1096, height: 624 };
const wall = { dieSize: 64 };
/** The corners of an upright box. */
const box = (x0: number, y0: number, x1: number, y1: number) => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
/** The corners of a square of side `side` about (cx, cy), turned `degrees`. */
function turned(cx: number, cy: number, side: number, degrees: number) {
  const [c, s] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => ({ x: cx + ((u! * c - v! * s) * side) / 2, y: cy + ((u! * s + v! * c) * side) / 2 }));
}
const outside = (corners: readonly Point[], judgement: WallJudgement | null = wall, region: typeof tray | null = tray) => outsideTray(corners, region, 1280, 720, 2, judgement);

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

  it('lies partly outside when the edge hides more than 0.15 of it, or its corner reaches far past the edge', () => {
    // 55 of 64 pixels across the rim is whole enough; 54 is not (0.85 of 64 is 54.4).
    expect(outside(box(100, 300, 155, 364))).toBe(false);
    expect(outside(box(100, 300, 154, 364))).toBe(true);
    // A third of a die on the rim: 42 pixels across it, 64 along.
    expect(outside(box(100, 300, 142, 364))).toBe(true);
    // A piece of a die: a square, but far narrower than a whole die (a half 6 read as a column of 1s).
    expect(outside(box(100, 300, 130, 328))).toBe(true);
    // A turned die whose corner reaches 16 pixels past the edge (more than 0.15 of its side and the margin).
    expect(outside(turned(100 + 45 - 16, 300, 64, 45))).toBe(true);
    // Touching two opposite sides of a tray narrower than a die and a half: no die lies so.
    expect(outside(box(100, 300, 170, 364), wall, { ...tray, width: 70 })).toBe(true);
  });

  it('in a corner, counts as whole only against a known die size', () => {
    const corner = box(100, 52, 162, 114);
    expect(outside(corner)).toBe(false);
    expect(outside(corner, { dieSize: null })).toBe(true);
    // A quarter of a die seen in the corner.
    expect(outside(box(100, 52, 132, 84))).toBe(true);
  });

  it('is cut by the frame\'s edge where the floor reaches it, and by any edge when judged without walls', () => {
    // The tray region reaches the frame's left, right or bottom edge: nothing there tells what lies beyond.
    expect(outside(box(0, 300, 64, 364), wall, { ...tray, x: 0, width: 1196 })).toBe(true);
    expect(outside(box(1216, 300, 1280, 364), wall, { ...tray, width: 1180 })).toBe(true);
    expect(outside(box(400, 656, 464, 720), wall, { ...tray, height: 668 })).toBe(true);
    expect(outside(box(0, 300, 64, 364), wall, null)).toBe(true);
    // Without walls (a die to be measured), touching the rim is enough.
    expect(outside(box(100, 300, 164, 364), null)).toBe(true);
    // A die lying apart from every edge is inside either way.
    expect(outside(box(400, 300, 464, 364))).toBe(false);
    expect(outside(box(400, 300, 464, 364), null)).toBe(false);
  });
});

describe('judging a roll with a die against the rim', () => {
  const die = (corners: readonly Point[], size: number, value = 5): DieReading => ({ value, colour: 'red', lab: { L: 45, a: 60, b: 40 }, center: corners[0]!, box: corners, size, confidence: 1 });
  const palette = { red: { L: 45, a: 60, b: 40 } };
  const judge = (dice: DieReading[], unsized: DieReading[] = [], dieSize: number | null = null) =>
    judgeScene({ dice, objects: [], unsized: new Set(unsized), width: 1280, height: 720 }, palette, 0.5, { ...DEFAULT_SCENE_CONFIG, tray, dieSize }, dice.length);
  const middle = die(box(600, 300, 668, 368), 68, 3);

  it('takes a measured die against the rim as in the tray, but not one whose box was given (found by its pips or the search)', () => {
    const against = die(box(100, 300, 162, 368), 65);
    expect(judge([middle, against]).valid).toBe(true);
    expect(judge([middle, against], [against]).issues?.map((i) => i.code)).toEqual(['outside']);
  });

  it('without a calibrated die size, judges a die against the rim by the largest other die measured', () => {
    // A narrow piece against the rim, 30 pixels across: whole beside a 30-pixel die, cut beside a 68-pixel one.
    const piece = die(box(100, 300, 130, 330), 30, 1);
    expect(judge([piece, die(box(600, 300, 630, 330), 30, 1)]).valid).toBe(true);
    expect(judge([piece, middle]).issues?.map((i) => i.code)).toEqual(['outside']);
    // A calibrated size decides over the dice in the frame.
    expect(judge([piece, die(box(600, 300, 630, 330), 30, 1)], [], 64).issues?.map((i) => i.code)).toEqual(['outside']);
  });
});
