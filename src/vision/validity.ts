/**
 * The last stage of reading a frame: judges the scene the reader found. Fills
 * each die's colour confidence and size class, and says why the roll must not
 * be used: a die cocked (not lying flat), dice stacked or pressed together, a
 * die or object partly outside the tray, a face that cannot be read, fewer or
 * more dice than expected. Pure: geometry and colours in, judgement out.
 */
import { nearestColour, type Lab } from './palette.js';
import { DEFAULT_SIZE_CONFIG, sizeClasses, type SizeConfig } from './size.js';
import type { DiceReading, DieReading, Point, ReadingIssue, ReadingIssueCode } from './types.js';

/** A region of the frame, pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The tray floor a calibration found: a box, turned `turn` degrees about its
 * centre (clockwise as the frame is seen; absent or 0: upright). A tray is
 * seldom square to the camera: an upright box inside a floor turned 1° lies up
 * to 20 pixels inside its rim on a 1280×720 frame, and a die against the rim
 * there would be cut short and re-rolled. A turned box lies inside the frame.
 */
export interface TrayRegion extends Region {
  readonly turn?: number;
}

/** The frame point `p` in the tray's own upright frame: turned back by the tray's turn about its centre. */
export function intoTray(p: Point, tray: TrayRegion): Point {
  return turnAbout(p, tray, -(tray.turn ?? 0));
}

/** The tray region's four corners in the frame, clockwise from its top left. */
export function trayCorners(tray: TrayRegion): Point[] {
  const { x, y, width: w, height: h } = tray;
  return [
    { x, y },
    { x: x + w, y },
    { x: x + w, y: y + h },
    { x, y: y + h },
  ].map((p) => turnAbout(p, tray, tray.turn ?? 0));
}

/** `p` turned `degrees` (clockwise as the frame is seen, y pointing down) about the centre of `box`. */
function turnAbout(p: Point, box: Region, degrees: number): Point {
  return turnPoint(p, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, degrees);
}

/** `p` turned `degrees` (clockwise as the frame is seen, y pointing down) about `centre`. */
export function turnPoint(p: Point, centre: Point, degrees: number): Point {
  if (degrees === 0) return p;
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return { x: centre.x + (p.x - centre.x) * cos - (p.y - centre.y) * sin, y: centre.y + (p.x - centre.x) * sin + (p.y - centre.y) * cos };
}

export interface SceneConfig extends SizeConfig {
  /** The tray floor in frame pixels (calibration); null: the whole frame is tray. */
  readonly tray: TrayRegion | null;
  /** Size of the frames the tray region and die size were calibrated on; a frame of another size is refused (`vision/calibration_mismatch`): a camera that ignored the asked resolution would put the tray in the wrong place. Null: any size. */
  readonly trayFrame: { readonly width: number; readonly height: number } | null;
  /** How near the tray's edge (a calibrated tray region's, else the frame's) a die's cut side lies, and how far its box may poke past that edge (rounding, blur), pixels. */
  readonly trayMargin: number;
  /** Longest/shortest side of a die's box above which the die is cocked (a die tipped 25° shows ~1.33; flat dice in photos up to ~1.22). Raise it for an oblique camera. */
  readonly cockedAspect: number;
  /** Two dice whose centres are closer than this share of their mean edge overlap: one lies on the other. */
  readonly overlapDistance: number;
  /** Smallest share of its box a die's blob fills before it is taken for two dice, one lying on the other (a lone die fills 0.83-1 in photos and simulator frames, two dice one on the other ~0.75). */
  readonly minDieFill: number;
  /** Smallest margin (0-1, from `nearestColour`) between the nearest and the runner-up palette colour for a confident colour. */
  readonly colourMargin: number;
  /** Largest weighted Lab distance from the nearest palette colour for a confident colour (a die of a colour not in the palette). */
  readonly colourMaxDistance: number;
}

export const DEFAULT_SCENE_CONFIG: SceneConfig = Object.freeze({
  ...DEFAULT_SIZE_CONFIG,
  tray: null,
  trayFrame: null,
  trayMargin: 2,
  cockedAspect: 1.26,
  overlapDistance: 0.7,
  minDieFill: 0.8,
  colourMargin: 0.3,
  colourMaxDistance: 25,
});

/** What the reader found in a frame, before judging: the dice (with their measured colour) and blobs that are not one die. */
export interface SceneDraft {
  readonly dice: readonly DieReading[];
  /** Rotated boxes of foreground blobs that are not a single die lying flat. */
  readonly objects: readonly (readonly Point[])[];
  /** Share of its box each die's blob fills, when the reader measured it. */
  readonly fills?: ReadonlyMap<DieReading, number>;
  /** Dice whose edge was not measured (found by their pips or the search, given a window's size: the frame's median die's, or a multiple of it): their size class cannot be told. */
  readonly unsized?: ReadonlySet<DieReading>;
  /** How far the tray appears shifted since the calibration, frame pixels (its marks found there); null or absent: not seen to have moved. */
  readonly cameraMoved?: Point | null;
  readonly width: number;
  readonly height: number;
}

/** Issues shown first are the ones a person at the tray can act on; a moved camera first, as it explains the rest (its marks and the tray's edge are no longer where the reader looks). */
const SEVERITY: readonly ReadingIssueCode[] = ['camera_moved', 'outside', 'stacked', 'cocked', 'object', 'unreadable', 'empty', 'too_few', 'too_many', 'unsettled'];

const where = (p: Point) => `(${Math.round(p.x)}, ${Math.round(p.y)})`;

/** The centre of a box (the mean of its corners). */
export function boxCentre(box: readonly Point[]): Point {
  return { x: box.reduce((s, p) => s + p.x, 0) / box.length, y: box.reduce((s, p) => s + p.y, 0) / box.length };
}

/**
 * How far past a side of a calibrated tray region where the floor ends a turned
 * die's corner may reach and the die still lie on the floor, beyond
 * `trayMargin`: the region lies 4-8 pixels inside the floor's edge
 * (calibrate.ts finds it on a copy shrunk 4×), and a box takes in the die's
 * shadow and blur (a 64-pixel die's box is 68-69 pixels in simulator frames; a
 * corner of one turned 25-45° against the rim reaches 8 pixels past the
 * region): the larger of this many pixels and `WALL_REACH` of the box's longer
 * side. A corner cut that deep takes no pip.
 */
const WALL_REACH_MIN = 4;
const WALL_REACH = 0.15;
/**
 * The share of a die's width a side where the floor ends may hide and the die
 * still count as whole: the region's inset is 4-8 pixels, up to 12 % of a
 * 64-pixel die. Beyond it, part of a face is hidden (a column of pips lies a
 * quarter of the die in from its edge) and the die is re-rolled.
 */
const WALL_CUT = 0.15;

/** How to judge a die touching a side of a calibrated tray region where the floor ends (a rim, or a mat's edge): the floor does not go on beyond it. */
export interface WallJudgement {
  /** Edge of a whole die, pixels: a piece of a die the edge cut is narrower than it; in a corner (two such sides), both sides may be cut and only it tells; null: none known (in a corner, the die then counts as cut). */
  readonly dieSize: number | null;
}

/**
 * Whether a die's (or object's) box lies partly outside the tray: the
 * calibrated tray region, or the frame when there is none. The edge cuts a die
 * partly outside it: its box then has a whole side along that edge, or (a
 * turned die) reaches past it. A die lying wholly inside, near the edge,
 * touches it at one corner at most.
 *
 * With `wall`, a side of the region where the calibration found the floor
 * ending (not the frame's edge: a rim, or a mat's edge) is judged as a wall: a
 * die lying flat against it shows its whole square, and its shadow or the
 * region's inset make it touch the edge. Such a die is outside only when the
 * edge hides more than `WALL_CUT` of it (against its length along the side, or
 * a whole die's size) or its corner reaches past the edge by more than the
 * larger of `WALL_REACH_MIN` pixels and `WALL_REACH` of its side. So a die lying over a
 * mat's edge by less than that is taken as in the tray. Without `wall`, every
 * die touching the edge counts as cut (the frame's edge hides what lies beyond
 * it; so does the rim when a die is to be measured, or when its box was not
 * measured but given: a die found by its pips or by the search).
 */
export function outsideTray(frameBox: readonly Point[], tray: TrayRegion | null, width: number, height: number, margin: number, wall: WallJudgement | null = null): boolean {
  // The reader sees nothing beyond a calibrated tray (blobs.ts cuts its mask there): the tray's edge is then the frame's.
  const { x, y, width: w, height: h } = tray ?? { x: 0, y: 0, width, height };
  // A turned tray is judged in its own upright frame; it lies inside the frame, so the floor ends at each of its sides.
  const turned = tray !== null && (tray.turn ?? 0) !== 0;
  const box = turned ? frameBox.map((p) => intoTray(p, tray)) : frameBox;
  // Each side: how far inside it each corner lies, whether the floor ends there (not the frame), and the axis across it.
  const sides = [
    { inside: (p: Point) => p.x - x, floorEnds: turned || x > 0, axis: 'x' },
    { inside: (p: Point) => p.y - y, floorEnds: turned || y > 0, axis: 'y' },
    { inside: (p: Point) => x + w - p.x, floorEnds: turned || x + w < width, axis: 'x' },
    { inside: (p: Point) => y + h - p.y, floorEnds: turned || y + h < height, axis: 'y' },
  ].map((side) => ({ ...side, wall: tray !== null && wall !== null && side.floorEnds }));
  // A turned die cut by the edge keeps its turn: its box reaches past the edge (a die lying inside fits inside it).
  const reach = Math.max(WALL_REACH_MIN, WALL_REACH * Math.max(...boxSides(box)));
  const past = sides.some((side) => box.some((p) => side.inside(p) < -(margin + (side.wall ? reach : 0))));
  const touched = sides.filter((side) => box.filter((p) => side.inside(p) <= margin).length >= 2);
  if (past) return true;
  if (wall === null) return touched.length > 0;
  // Touching two opposite sides, it spans the tray: no die lies so.
  if (touched.some((side) => touched.some((other) => other !== side && other.axis === side.axis))) return true;
  // The box's two sides: the one running more across the wall is cut by it (a turned box's spread across takes in its turn).
  const [a, b, c] = box as [Point, Point, Point];
  const [one, two] = boxSides(box);
  const oneRunsX = Math.abs(b.x - a.x) >= Math.abs(c.x - b.x);
  return touched.some((side) => {
    if (!side.wall) return true;
    const [across, along] = oneRunsX === (side.axis === 'x') ? [one, two] : [two, one];
    // Against one side, the die's length along it is whole (and a piece is narrower than a die); in a corner, both may be cut.
    const whole = touched.length === 1 ? Math.max(along, wall.dieSize ?? 0) : wall.dieSize;
    return whole === null || across < (1 - WALL_CUT) * whole;
  });
}

/** Whether a box lies wholly beyond a calibrated tray region (on the table around the tray: not part of the roll). */
export function beyondTray(frameBox: readonly Point[], tray: TrayRegion): boolean {
  const box = frameBox.map((p) => intoTray(p, tray));
  return box.every((p) => p.x < tray.x) || box.every((p) => p.y < tray.y) || box.every((p) => p.x > tray.x + tray.width) || box.every((p) => p.y > tray.y + tray.height);
}

/** Longest over shortest side of a box given by its corners in order. */
export function boxAspect(box: readonly Point[]): number {
  const [one, two] = boxSides(box);
  return Math.max(one, two) / Math.max(1e-6, Math.min(one, two));
}

/** The lengths of a box's two sides, given its corners in order. */
export function boxSides(box: readonly Point[]): [number, number] {
  const [a, b, c] = box as [Point, Point, Point];
  return [Math.hypot(b.x - a.x, b.y - a.y), Math.hypot(c.x - b.x, c.y - b.y)];
}

/** Whether a measured colour names one palette colour clearly enough to decide whose die it is. */
export function colourIsConfident(lab: Lab, palette: Readonly<Record<string, Lab>>, lightnessWeight: number, cfg: SceneConfig): boolean {
  const nearest = nearestColour(lab, palette, lightnessWeight);
  return nearest.margin >= cfg.colourMargin && nearest.distance <= cfg.colourMaxDistance;
}

/**
 * Judges a scene: returns the dice with `colourConfident` and `sizeClass`
 * filled, and the reading's validity with its issues, gravest first.
 */
export function judgeScene(
  draft: SceneDraft,
  palette: Readonly<Record<string, Lab>>,
  lightnessWeight: number,
  cfg: SceneConfig,
  expectedCount?: number,
): Pick<DiceReading, 'dice' | 'valid' | 'problems' | 'issues'> {
  // Whatever lies wholly beyond a calibrated tray is not in the tray: a die there is a missing die.
  const tray = cfg.tray;
  const inTray = tray ? draft.dice.filter((d) => !beyondTray(d.box, tray)) : draft.dice;
  const objects = tray ? draft.objects.filter((box) => !beyondTray(box, tray)) : draft.objects;
  const measured = inTray.filter((d) => !draft.unsized?.has(d));
  const classes = sizeClasses(measured.map((d) => d.size), cfg);
  // A die against the rim is judged against a whole die's size: the calibrated one, else the largest other die's measured
  // (the pieces of a die the rim cuts may be read as dice: a 6 cut in half shows a column of 1s). Without a calibrated size,
  // a normal die against the rim among big ones is then refused.
  const wholeDie = (box: readonly Point[]) => {
    const sizes = measured.filter((d) => d.box !== box).map((d) => d.size);
    return cfg.dieSize ?? (sizes.length > 0 ? Math.max(...sizes) : null);
  };
  // A die whose box was given, not measured (found by its pips or the search), is square whatever the edge hides: strict.
  const given = new Set<readonly Point[]>(inTray.filter((d) => draft.unsized?.has(d)).map((d) => d.box));
  const outside = (box: readonly Point[]) => outsideTray(box, cfg.tray, draft.width, draft.height, cfg.trayMargin, given.has(box) ? null : { dieSize: wholeDie(box) });
  const classOf = new Map(measured.map((d, i) => [d, classes[i] ?? null]));
  const dice: DieReading[] = inTray.map((d) => ({
    ...d,
    colourConfident: d.lab !== undefined && colourIsConfident(d.lab, palette, lightnessWeight, cfg),
    sizeClass: classOf.get(d) ?? null,
  }));
  const issues: ReadingIssue[] = [];
  const add = (code: ReadingIssueCode, message: string, at?: Point) => issues.push(at ? { code, message, at } : { code, message });
  const stacked = new Set<number>();
  dice.forEach((d, i) => {
    dice.forEach((e, j) => {
      if (j <= i) return;
      if (Math.hypot(d.center.x - e.center.x, d.center.y - e.center.y) < (cfg.overlapDistance * (d.size + e.size)) / 2) {
        stacked.add(i).add(j);
        add('stacked', `the dice at ${where(d.center)} and ${where(e.center)} lie on one another: their faces cannot be read`, d.center);
      }
    });
  });
  inTray.forEach((d, i) => {
    // Two dice one on the other make one blob that fills its box poorly and is larger than a die
    // (a lone die with a ragged outline fills poorly too, but has a die's size).
    const fill = draft.fills?.get(d) ?? 1;
    const others = inTray.filter((e) => e !== d).map((e) => e.size);
    const reference = cfg.dieSize ?? (others.length > 0 ? Math.min(...others) : null);
    const oversized = reference === null || d.size / reference > cfg.normalRatio[1];
    if (fill < cfg.minDieFill && oversized && !stacked.has(i)) {
      stacked.add(i);
      add('stacked', `the ${d.colour} die at ${where(d.center)} lies on another die: their faces cannot be read`, d.center);
    }
  });
  dice.forEach((d, i) => {
    const name = `the ${d.colour} die at ${where(d.center)}`;
    if (outside(d.box)) add('outside', `${name} lies partly outside the tray`, d.center);
    else if (stacked.has(i)) return;
    else if (boxAspect(d.box) > cfg.cockedAspect) add('cocked', `${name} is cocked (not lying flat): its top face is foreshortened`, d.center);
    else if (d.value === null) add('unreadable', `${name} cannot be read`, d.center);
  });
  for (const box of objects) {
    const at = boxCentre(box);
    if (outside(box)) add('outside', `an object at ${where(at)} lies partly outside the tray`, at);
    else add('object', `an object at ${where(at)} is not a single die lying flat (dice stacked, pressed together or cocked)`, at);
  }
  const moved = draft.cameraMoved;
  if (moved) add('camera_moved', `the camera has moved since the tray was calibrated: the tray lies about ${Math.round(moved.x)} px across and ${Math.round(moved.y)} px down from where it was; calibrate again (dice-tower calibrate)`);
  if (expectedCount !== undefined && dice.length !== expectedCount) {
    if (dice.length === 0 && objects.length === 0) add('empty', `the tray is empty: expected ${expectedCount} dice`);
    else add(dice.length < expectedCount ? 'too_few' : 'too_many', `expected ${expectedCount} dice in the tray, found ${dice.length}`);
  }
  issues.sort((p, q) => SEVERITY.indexOf(p.code) - SEVERITY.indexOf(q.code));
  return { dice, valid: issues.length === 0, problems: issues.map((i) => i.message), issues };
}
