import { describe, expect, it } from 'vitest';
import type { DieReading, Point } from '../../src/vision/types.js';
import { beyondTray, DEFAULT_SCENE_CONFIG, intoTray, judgeScene, outsideTray, trayCorners, type TrayRegion, type WallJudgement } from '../../src/vision/validity.js';

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
const outside = (corners: readonly Point[], judgement: WallJudgement | null = wall, region: TrayRegion | null = tray) => outsideTray(corners, region, 1280, 720, 2, judgement);

describe('a tray turned against the frame', () => {
  // The same floor turned 3° clockwise about its centre (648, 364): its corners move up to 17 px across and 29 px down.
  const turnedTray = { ...tray, turn: 3 };
  const [cos, sin] = [Math.cos(Math.PI / 60), Math.sin(Math.PI / 60)];
  /** Points given in the turned tray's own upright frame, in the frame. */
  const inFrame = (points: readonly Point[]) => points.map((p) => ({ x: 648 + (p.x - 648) * cos - (p.y - 364) * sin, y: 364 + (p.x - 648) * sin + (p.y - 364) * cos }));

  it('turns its corners with it, and takes frame points back into its own upright frame', () => {
    const corners = trayCorners(turnedTray);
    expect(corners[0]!.x).toBeCloseTo(648 - 548 * cos + 312 * sin, 6);
    expect(corners[0]!.y).toBeCloseTo(364 - 548 * sin - 312 * cos, 6);
    for (const [p, q] of corners.map((c, i) => [intoTray(c, turnedTray), box(100, 52, 1196, 676)[i]!] as const)) {
      expect(p.x).toBeCloseTo(q.x, 6);
      expect(p.y).toBeCloseTo(q.y, 6);
    }
    expect(trayCorners(tray)).toEqual(box(100, 52, 1196, 676));
  });

  it('reads a die lying flat against a turned side, and refuses one cut by it', () => {
    const upright = { ...turnedTray, turn: 0 };
    // Its whole square against the left side near the bottom (1 px of shadow past the edge); the side there lies 14 px left of
    // where the tray's centre row meets it, so judged upright its corner reaches 14 px past the edge.
    const flat = inFrame(box(99, 600, 163, 664));
    expect([outside(flat, wall, turnedTray), outside(flat, wall, upright)]).toEqual([false, true]);
    // Near the top, 20 of 64 px hidden beyond the turned side: judged upright, the box lies 13 px clear of the edge.
    const cut = inFrame(box(100, 80, 144, 144));
    expect([outside(cut, wall, turnedTray), outside(cut, wall, upright)]).toEqual([true, false]);
    // A piece of a die; a die turned 45° against the side, its corner 16 px past it.
    expect(outside(inFrame(box(100, 300, 130, 328)), wall, turnedTray)).toBe(true);
    expect(outside(inFrame(turned(100 + 45 - 16, 300, 64, 45)), wall, turnedTray)).toBe(true);
    // Against the bottom side, whole; and apart from every side.
    expect(outside(inFrame(box(400, 612, 464, 677)), wall, turnedTray)).toBe(false);
    expect(outside(inFrame(box(400, 300, 464, 364)), null, turnedTray)).toBe(false);
  });

  it('takes a box wholly beyond its turned side as beyond the tray, and one over the side as not', () => {
    // Near the top left corner, 4 to 60 px beyond the side; judged upright, it would reach 13 px into the region.
    const beyond = inFrame(box(40, 60, 96, 124));
    expect([beyondTray(beyond, turnedTray), beyondTray(beyond, { ...turnedTray, turn: 0 })]).toEqual([true, false]);
    expect(beyondTray(inFrame(box(80, 300, 144, 364)), turnedTray)).toBe(false);
  });
});

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
