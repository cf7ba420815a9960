/**
 * Calibration: from a shot of the empty tray, the tray region; from a shot of
 * each player's dice, that colour's Lab and the edge of a normal die. The
 * result is a small JSON file (`<data dir>/calibration.json`) that `serve` and
 * `read` load into the reader's config. Measuring is pure; reading and writing
 * the file are the two functions at the end.
 */
import { note, type Note } from '../note.js';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import cv from '../hardware/opencv.js';
import { DEFAULT_PALETTE, type Lab } from './palette.js';
import { foregroundMask } from './blobs.js';
import { DEFAULT_VISION_CONFIG, type VisionConfig } from './config.js';
import { distanceMap } from './face.js';
import { filledMat, median, Scratch } from './mats.js';
import { checkFrameSize, readDiceInImage } from './read-dice.js';
import { cellColours, markCells, type TrayMark } from './tray-marks.js';
import { outsideTray, trayCorners, turnPoint, type Region, type TrayRegion } from './validity.js';
import type { Point } from './types.js';
import { errorText } from '../error-text.js';

export interface Calibration {
  readonly version: 1;
  /** When it was made (ISO 8601). */
  readonly createdAt: string;
  /** Size of the frames it was made from: a camera at another resolution needs a new calibration. */
  readonly frame: { readonly width: number; readonly height: number };
  /** The tray floor, frame pixels (turned with the tray when it is wholly in view and turned against the frame); null when the floor fills the frame (the frame's edge is the tray's). */
  readonly tray: TrayRegion | null;
  /** The empty-tray reference image, a file name beside the calibration file; null when none was taken. */
  readonly emptyTray: string | null;
  /** What stands out from the floor in the empty-tray shot (logos, stains, screw heads), for the reader to ignore; empty without that shot. Absent from files written before marks were measured: none. */
  readonly trayMarks: readonly TrayMark[];
  /** The tray floor's corners where a rim meets it on both sides, as marks (a box around each and its cells), from the empty-tray shot: the reader looks for them to tell a moved camera. Empty without that shot, or with no rim in view. Absent from files written before corners were measured: none. */
  readonly trayCorners: readonly TrayMark[];
  /** Edge of a normal die, pixels, measured on the dice shots; null when no dice were shot. */
  readonly dieSize: number | null;
  /** Measured colour of each player's dice. */
  readonly palette: Readonly<Record<string, Lab>>;
}

/**
 * Floor taken into a tray mark's box on each side, pixels. The reader's mask
 * around a mark is not the same in every frame: the outline test fills the
 * ring of sharp edges around a dark spot (about 3 pixels wider than it) in
 * some frames and not in others, and what the box leaves out stays in the
 * mask (a spot 9 pixels wide read as a 16-pixel object).
 */
const MARK_MARGIN = 4;
/** How far (weighted Lab) a pixel may be from the floor colour and still be floor. */
const FLOOR_DISTANCE = 18;
/** A region side within this share of the frame's edge is taken as the frame's edge. */
const EDGE_SNAP = 0.01;

/**
 * The tray floor in an empty-tray shot: the connected area of the floor's
 * colour (taken at the frame's centre) around the centre, as an upright box.
 * Null when it fills the frame. Throws when the centre is not floor-coloured
 * over a die's width or so (no tray in view).
 */
export function findTrayRegion(image: cv.Mat): TrayRegion | null {
  return findTrayFloor(image).region;
}

/** How far the tray floor reaches beyond each side of the region found in an empty-tray shot, frame pixels (to within 4). */
export interface FloorBeyond {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/**
 * A tray turned less than this against the frame (degrees) is taken as square
 * to it: over a 1200-pixel side, 0.2° moves a corner 4 pixels, the region's
 * own inset.
 */
const LEAST_TURN = 0.2;

/**
 * The tray region (`findTrayRegion`), and how far the floor reaches beyond
 * each side of it. The region is a box inside the floor's outline. A tray
 * wholly in view (its floor ends inside the frame all round) that is turned
 * against the frame gives a box turned with it. Otherwise the box is upright,
 * and on a turned tray floor lies beyond it; round corners leave floor beyond
 * any box. A die lying against the rim there is cut by the region's edge and
 * re-rolled: `dice-tower calibrate` warns of it.
 */
export function findTrayFloor(image: cv.Mat): TrayFloor {
  const scratch = new Scratch();
  try {
    return trayFloorIn(image, scratch);
  } finally {
    scratch.release();
  }
}

/** The tray region, how far the floor reaches beyond it, and whether the floor ends inside the frame all round (only then may the region turn). */
export interface TrayFloor {
  readonly region: TrayRegion | null;
  readonly beyond: FloorBeyond;
  readonly inView: boolean;
}

function trayFloorIn(image: cv.Mat, scratch: Scratch): TrayFloor {
  const scale = 4;
  const small = scratch.add(scratch.add(image.resize(Math.round(image.rows / scale), Math.round(image.cols / scale), 0, 0, cv.INTER_AREA)).cvtColor(cv.COLOR_BGR2Lab));
  const cx = Math.floor(small.cols / 2);
  const cy = Math.floor(small.rows / 2);
  const probe = scratch.add(scratch.add(small.getRegion(new cv.Rect(cx - 8, cy - 8, 16, 16))).copy());
  const data = probe.getData();
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sums[c]! += data[i + c] ?? 0;
  const n = data.length / 3;
  // The 8-bit Lab means as L*a*b*.
  const floor = { L: ((sums[0] ?? 0) / n) * (100 / 255), a: (sums[1] ?? 0) / n - 128, b: (sums[2] ?? 0) / n - 128 };
  // Lightness counts half: light falls off towards the tray's corners.
  const distance = scratch.add(distanceMap(small, floor, 0.5));
  const kernel = scratch.add(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(5, 5)));
  const mask = scratch.add(scratch.add(distance.threshold(FLOOR_DISTANCE, 255, cv.THRESH_BINARY_INV)).morphologyEx(kernel, cv.MORPH_CLOSE));
  const around = mask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE).find((c) => {
    const r = c.boundingRect();
    return r.x <= cx && r.y <= cy && r.x + r.width >= cx && r.y + r.height >= cy && c.area > 0.1 * small.rows * small.cols;
  });
  if (!around) throw new Error('no tray floor found around the middle of the image: point the camera at the empty tray');
  const r = around.boundingRect();
  const inView = r.x > 0 && r.y > 0 && r.x + r.width < small.cols && r.y + r.height < small.rows;
  const turn = inView ? outlineTurn(around) : 0;
  if (turn !== 0) return { ...turnedRegion(around.getPoints(), turn, small, scale, scratch), inView };
  const inner = innerBox(around.getPoints(), small.rows, small.cols, scratch);
  const snap = (v: number, limit: number) => (Math.abs(v - limit) <= limit * EDGE_SNAP + 1 ? limit : v);
  const x0 = inner.x0 * scale <= image.cols * EDGE_SNAP ? 0 : (inner.x0 + 1) * scale;
  const y0 = inner.y0 * scale <= image.rows * EDGE_SNAP ? 0 : (inner.y0 + 1) * scale;
  const x1 = snap(inner.x1 * scale, image.cols);
  const y1 = snap(inner.y1 * scale, image.rows);
  const beyond = floorBeyond(inner, scale);
  if (x0 === 0 && y0 === 0 && x1 === image.cols && y1 === image.rows) return { region: null, beyond, inView };
  return { region: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, beyond, inView };
}

/** How far the floor's outline turns against the frame, degrees (clockwise as seen; -45 to 45), from its least box; 0 below `LEAST_TURN`. */
function outlineTurn(outline: cv.Contour): number {
  // A RotatedRect's angle turns its width's side clockwise from the frame's x axis; either side may be the tray's long one.
  const angle = outline.minAreaRect().angle;
  const turn = ((angle % 90) + 90) % 90;
  const signed = turn > 45 ? turn - 90 : turn;
  return Math.abs(signed) < LEAST_TURN ? 0 : Math.round(signed * 100) / 100;
}

/**
 * The region of a tray wholly in view and turned `turn` degrees: the floor's
 * outline (on `small`, the frame shrunk `scale` times) turned back about its
 * own centre, the upright box inside it there, and that box turned with the
 * tray in the frame.
 */
function turnedRegion(outline: readonly cv.Point2[], turn: number, small: cv.Mat, scale: number, scratch: Scratch): { region: TrayRegion; beyond: FloorBeyond } {
  // Turned back at the frame's size: turned on the shrunk copy, the outline's steps cost the box a shrunk pixel more (8 px inside the rim, not 4).
  const [rows, cols] = [small.rows * scale, small.cols * scale];
  // A shrunk pixel's centre in the frame.
  const inFrame = outline.map((p) => ({ x: p.x * scale + (scale - 1) / 2, y: p.y * scale + (scale - 1) / 2 }));
  // About its own centre, the outline turned back stays where it was (about the frame's, a long tray off the middle would leave the image).
  const xs = inFrame.map((p) => p.x);
  const ys = inFrame.map((p) => p.y);
  const centre = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  const upright = inFrame.map((p) => {
    const q = turnPoint(p, centre, -turn);
    return new cv.Point2(Math.round(q.x), Math.round(q.y));
  });
  const inner = innerBox(upright, rows, cols, scratch);
  // The outline runs through its shrunk pixels' centres, which may be half floor and half rim: half a shrunk pixel more in.
  const half = scale / 2;
  const [x0, y0, x1, y1] = [inner.x0 + half, inner.y0 + half, inner.x1 + 1 - half, inner.y1 + 1 - half];
  // The box's centre in the frame: turned with the tray about the outline's centre; the box turns about its own.
  const middle = turnPoint({ x: (x0 + x1) / 2, y: (y0 + y1) / 2 }, centre, turn);
  const [width, height] = [x1 - x0, y1 - y0];
  const region = { x: Math.round(middle.x - width / 2), y: Math.round(middle.y - height / 2), width, height, turn };
  return { region, beyond: floorBeyond(inner, 1) };
}

/** How far the floor's outline reaches beyond the box inside it, frame pixels. */
function floorBeyond(inner: InnerBox, scale: number): FloorBeyond {
  const r = inner.outline;
  return { left: (inner.x0 - r.x0) * scale, top: (inner.y0 - r.y0) * scale, right: (r.x1 - inner.x1) * scale, bottom: (r.y1 - inner.y1) * scale };
}

/** A box inside the floor's outline, and the outline's own bounding box (first and last column and row, inclusive, within the image). */
interface InnerBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
  readonly outline: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number };
}

/**
 * An upright box inside the floor's outline (first and last column and row,
 * inclusive): its bounding box with each side moved in until it lies wholly on
 * the floor. A tray turned against the frame, or with rounded corners, has rim
 * inside its bounding box, and the reader looks at everything inside the box:
 * rim there would be an object in every roll.
 */
function innerBox(outline: readonly cv.Point2[], rows: number, cols: number, scratch: Scratch): InnerBox {
  const filled = scratch.add(filledMat(rows, cols, cv.CV_8U, 0));
  filled.drawContours([[...outline]], -1, new cv.Vec3(255, 255, 255), -1);
  // An outline turned back may reach past the image: what lies beyond is not floor the reader sees.
  const xs = outline.map((p) => p.x);
  const ys = outline.map((p) => p.y);
  const bounds = { x0: Math.max(0, Math.min(...xs)), y0: Math.max(0, Math.min(...ys)), x1: Math.min(cols - 1, Math.max(...xs)), y1: Math.min(rows - 1, Math.max(...ys)) };
  let { x0, y0, x1, y1 } = bounds;
  const onFloor = (x: number, y: number, width: number, height: number) => scratch.add(filled.getRegion(new cv.Rect(x, y, width, height))).countNonZero() === width * height;
  for (let moved = true; moved && x0 < x1 && y0 < y1; ) {
    const sides = [!onFloor(x0, y0, 1, y1 - y0 + 1), !onFloor(x1, y0, 1, y1 - y0 + 1), !onFloor(x0, y0, x1 - x0 + 1, 1), !onFloor(x0, y1, x1 - x0 + 1, 1)];
    moved = sides.some(Boolean);
    if (sides[0]) x0++;
    if (sides[1]) x1--;
    if (sides[2]) y0++;
    if (sides[3]) y1--;
  }
  // A box that lost half its width or height is no tray's floor seen from above.
  if (2 * (x1 - x0) < bounds.x1 - bounds.x0 + 1 || 2 * (y1 - y0) < bounds.y1 - bounds.y0 + 1) throw new Error('the tray floor found around the middle of the image is far from a rectangle: point the camera straight down at the empty tray');
  return { x0, y0, x1, y1, outline: bounds };
}

/**
 * The tray's own marks in an empty-tray shot: every blob and speck of the
 * reader's foreground mask no larger than a die may be, as the reader would
 * see it under the dice. Left to the reader, a printed logo or a stain would
 * be read on every roll as a die or an object, and the roll refused. Each
 * mark's box takes in `MARK_MARGIN` pixels of floor around it.
 */
export function findTrayMarks(empty: cv.Mat, cfg: VisionConfig): TrayMark[] {
  const mask = foregroundMask(empty, cfg);
  try {
    return mask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE).flatMap((contour): TrayMark[] => {
      const r = contour.boundingRect();
      // A part of the floor larger than any die is no mark but the floor's own tone or light (a dark corner, the whole floor
      // against a rim): ignored, it would hide the dice lying in it.
      if (r.width > cfg.dieSizeMax || r.height > cfg.dieSizeMax) return [];
      const [x, y] = [Math.max(0, r.x - MARK_MARGIN), Math.max(0, r.y - MARK_MARGIN)];
      const width = Math.min(empty.cols, r.x + r.width + MARK_MARGIN) - x;
      const height = Math.min(empty.rows, r.y + r.height + MARK_MARGIN) - y;
      return [{ x, y, width, height, area: contour.area, cells: cellColours(empty, { x, y, width, height }) }];
    });
  } finally {
    mask.release();
  }
}

/** Side of the box around each of the tray floor's corners (pixels, 4 cells of about 16): the floor in one quarter, the rim in the others. */
const CORNER_BOX = 64;

/**
 * The tray floor's corners where the rim meets it on both sides, each as a
 * mark: its box (`CORNER_BOX` square about the corner, within the frame) and
 * the cells' colours in the empty tray. A side at the frame's edge has no rim
 * in view, and a corner of it cannot be placed (a straight edge fits all
 * along itself): none there.
 */
export function findTrayCorners(empty: cv.Mat, tray: TrayRegion | null): TrayMark[] {
  if (!tray) return [];
  const [left, top, right, bottom] = [tray.x, tray.y, tray.x + tray.width, tray.y + tray.height];
  // A turned region lies wholly in view: the rim is seen all round it.
  const sides = tray.turn ? { left: true, top: true, right: true, bottom: true } : { left: left > 0, top: top > 0, right: right < empty.cols, bottom: bottom < empty.rows };
  const [topLeft, topRight, bottomRight, bottomLeft] = trayCorners(tray) as [Point, Point, Point, Point];
  const corners = [
    [sides.left && sides.top, topLeft],
    [sides.right && sides.top, topRight],
    [sides.left && sides.bottom, bottomLeft],
    [sides.right && sides.bottom, bottomRight],
  ] as const;
  return corners.flatMap(([rimmed, corner]): TrayMark[] => {
    if (!rimmed) return [];
    const [cx, cy] = [Math.round(corner.x), Math.round(corner.y)];
    const [x, y] = [Math.max(0, cx - CORNER_BOX / 2), Math.max(0, cy - CORNER_BOX / 2)];
    const [width, height] = [Math.min(empty.cols, cx + CORNER_BOX / 2) - x, Math.min(empty.rows, cy + CORNER_BOX / 2) - y];
    return [{ x, y, width, height, area: width * height, cells: cellColours(empty, { x, y, width, height }) }];
  });
}

/**
 * A shot of one colour's dice lying in the tray: their median colour and
 * median edge. Throws when no die is found.
 */
export function measureDice(image: cv.Mat, cfg: VisionConfig = DEFAULT_VISION_CONFIG): { lab: Lab; dieSize: number; count: number } {
  // A die cut by the tray's edge would be measured smaller than it is.
  const dice = readDiceInImage(image, cfg).dice.filter((d) => d.lab !== undefined && !outsideTray(d.box, cfg.tray, image.cols, image.rows, cfg.trayMargin));
  if (dice.length === 0) throw new Error('no dice found in the shot: lay the dice flat on the tray, apart from each other');
  const labs = dice.map((d) => d.lab as Lab);
  return {
    lab: { L: median(labs.map((l) => l.L)), a: median(labs.map((l) => l.a)), b: median(labs.map((l) => l.b)) },
    dieSize: median(dice.map((d) => d.size)),
    count: dice.length,
  };
}

/** Whether a calibration was made for frames of this size (what it measured holds only for them). */
function madeFor(calibration: Calibration | null, frame: Calibration['frame']): calibration is Calibration {
  return calibration !== null && calibration.frame.width === frame.width && calibration.frame.height === frame.height;
}

/**
 * Builds a calibration from an empty-tray shot (optional) and shots of each
 * colour's dice. Without an empty-tray shot, the dice are measured inside the
 * tray of the `earlier` calibration when it was made for frames of this size,
 * so that dice lying beyond the tray (on the rim, the table) are not measured.
 */
export function calibrate(empty: cv.Mat | null, shots: Readonly<Record<string, cv.Mat>>, emptyTrayFile: string | null, now: Date, earlier: Calibration | null = null): Calibration {
  const first = empty ?? Object.values(shots)[0];
  if (!first) throw new Error('nothing to calibrate from: give an empty-tray image or camera, or dice shots (--dice colour=image)');
  checkFrameSize(first);
  const same = madeFor(earlier, { width: first.cols, height: first.rows });
  const tray = empty ? findTrayRegion(empty) : same ? earlier.tray : null;
  const { trayMarks, trayCorners } = empty ? measuredAround(empty, tray) : { trayMarks: [], trayCorners: [] };
  // The dice shots are read with the tray's marks, new or kept, so that no mark is measured as a die.
  const cfg = { ...DEFAULT_VISION_CONFIG, tray, trayMarks: empty ? trayMarks : same ? earlier.trayMarks : [] };
  const palette: Record<string, Lab> = {};
  const sizes: number[] = [];
  for (const [colour, shot] of Object.entries(shots)) {
    if (shot.cols !== first.cols || shot.rows !== first.rows) throw new Error(`the ${colour} dice shot is ${shot.cols}x${shot.rows}, the others ${first.cols}x${first.rows}: use one camera setting`);
    const measured = measureDice(shot, cfg);
    palette[colour] = measured.lab;
    sizes.push(measured.dieSize);
  }
  const dieSize = sizes.length > 0 ? median(sizes) : null;
  return { version: 1, createdAt: now.toISOString(), frame: { width: first.cols, height: first.rows }, tray, emptyTray: empty ? emptyTrayFile : null, trayMarks, trayCorners, dieSize, palette };
}

/** The tray's marks and rim corners in the empty-tray shot, for a tray region (found, or set by hand). */
function measuredAround(empty: cv.Mat, tray: TrayRegion | null): { trayMarks: TrayMark[]; trayCorners: TrayMark[] } {
  return { trayMarks: findTrayMarks(empty, { ...DEFAULT_VISION_CONFIG, tray }), trayCorners: findTrayCorners(empty, tray) };
}

/**
 * The calibration with its tray region set by hand (the setup page's dragged
 * corners): the marks and rim corners measured again in the empty-tray shot
 * for that region, the rest kept. Throws when the region leaves the frame or
 * is smaller than a die.
 */
export function withTrayRegion(calibration: Calibration, empty: cv.Mat, tray: TrayRegion): Calibration {
  const { width, height } = calibration.frame;
  if (empty.cols !== width || empty.rows !== height) throw new Error(`the empty-tray shot is ${empty.cols}x${empty.rows}, the calibration ${width}x${height}: empty the tray and take the shot again`);
  const inFrame = trayCorners(tray).every((p) => p.x >= -1 && p.y >= -1 && p.x <= width + 1 && p.y <= height + 1);
  if (!inFrame) throw new Error(`the tray region ${tray.width}x${tray.height} at (${tray.x}, ${tray.y}) reaches beyond the ${width}x${height} frame`);
  const smallest = calibration.dieSize ?? DEFAULT_VISION_CONFIG.dieSizeMin;
  if (tray.width < 2 * smallest || tray.height < 2 * smallest) throw new Error(`the tray region ${tray.width}x${tray.height} is too small to hold two dice side by side`);
  return { ...calibration, tray, ...measuredAround(empty, tray) };
}

/** The reader's config with a calibration applied: its tray, die size, and its colours over the default palette. */
export function calibratedConfig(calibration: Calibration | null, base: VisionConfig = DEFAULT_VISION_CONFIG): VisionConfig {
  if (!calibration) return base;
  return {
    ...base,
    tray: calibration.tray,
    trayFrame: calibration.frame,
    trayMarks: calibration.trayMarks,
    trayCorners: calibration.trayCorners,
    dieSize: calibration.dieSize ?? base.dieSize,
    palette: { ...DEFAULT_PALETTE, ...base.palette, ...calibration.palette },
  };
}

function isLab(v: unknown): v is Lab {
  const o = v as Record<string, unknown>;
  return typeof v === 'object' && v !== null && ['L', 'a', 'b'].every((k) => typeof o[k] === 'number' && Number.isFinite(o[k]));
}

/**
 * A new calibration on top of the one already written, so that dice shots can
 * be added one colour at a time: what the new one did not measure (the tray,
 * when no empty-tray shot was given; the die edge, without dice shots; colours
 * not shot again) is kept from the earlier one, when it was made for frames of
 * the same size. `kept` says what was kept, for the user.
 */
export function onTopOf(earlier: Calibration | null, fresh: Calibration, measuredTray: boolean): { calibration: Calibration; kept: Note[] } {
  if (!madeFor(earlier, fresh.frame)) return { calibration: fresh, kept: [] };
  const kept: Note[] = [];
  if (!measuredTray) {
    // Each part by its code (the setup page's words: setup.kept.<part>), and in English.
    const parts: Array<[string, string]> = [
      earlier.tray ? ['trayRegion', 'the tray region'] : ['trayFrame', 'the tray filling the frame'],
      ...(earlier.trayMarks.length > 0 ? [['marks', 'its marks'] as [string, string]] : []),
      ...(earlier.trayCorners.length > 0 ? [['rimCorners', 'its rim corners'] as [string, string]] : []),
    ];
    const english = parts.map(([, words]) => words);
    const message = english.length === 1 ? english[0] as string : `${english.slice(0, -1).join(', ')} and ${english.at(-1) as string}`;
    kept.push(note('calibration/kept_tray', message, { parts: parts.map(([part]) => ({ key: `setup.kept.${part}` })) }));
  }
  if (fresh.dieSize === null && earlier.dieSize !== null) kept.push(note('calibration/kept_die_edge', 'the normal die edge'));
  const colours = Object.keys(earlier.palette).filter((name) => !(name in fresh.palette));
  if (colours.length > 0) kept.push(note('calibration/kept_colours', `the colour${colours.length === 1 ? '' : 's'} ${colours.join(', ')}`, { colours }));
  return {
    calibration: {
      ...fresh,
      tray: measuredTray ? fresh.tray : earlier.tray,
      emptyTray: measuredTray ? fresh.emptyTray : earlier.emptyTray,
      trayMarks: measuredTray ? fresh.trayMarks : earlier.trayMarks,
      trayCorners: measuredTray ? fresh.trayCorners : earlier.trayCorners,
      dieSize: fresh.dieSize ?? earlier.dieSize,
      palette: { ...earlier.palette, ...fresh.palette },
    },
    kept,
  };
}

/** Reads a calibration file; null when there is none. Throws, naming the file, when it is not a calibration. */
export function readCalibrationFile(file: string): Calibration | null {
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${errorText(err)}): run dice-tower calibrate again`);
  }
  const bad = (what: string) => new Error(`${file} is not a dice-tower calibration (${what}): run dice-tower calibrate again`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad(`it holds ${Array.isArray(parsed) ? 'a list' : String(parsed)}, not an object`);
  const data = parsed as Partial<Calibration>;
  if (data.version !== 1) throw bad(`version ${String(data.version)}`);
  if (typeof data.palette !== 'object' || data.palette === null || !Object.values(data.palette).every(isLab)) throw bad('bad palette');
  if (data.dieSize !== null && (typeof data.dieSize !== 'number' || !(data.dieSize > 0))) throw bad('bad die size');
  const frame = data.frame;
  if (typeof frame !== 'object' || frame === null || !Number.isInteger(frame.width) || !Number.isInteger(frame.height) || !(frame.width > 0 && frame.height > 0)) throw bad('bad frame size');
  const t = data.tray;
  // Every box lies inside the frame: the reader cuts regions of frames of that size at them.
  const isRegion = (r: Partial<Region> | null | undefined) =>
    typeof r === 'object' && r !== null && [r.x, r.y, r.width, r.height].every((v) => typeof v === 'number' && v >= 0) && (r.x as number) + (r.width as number) <= frame.width && (r.y as number) + (r.height as number) <= frame.height;
  const size = `the ${frame.width}x${frame.height} frame`;
  // A turned tray region's corners lie in the frame (to within the pixel its rounding may take).
  const inFrame = (p: Point) => p.x >= -1 && p.y >= -1 && p.x <= frame.width + 1 && p.y <= frame.height + 1;
  const isTray = (r: Partial<TrayRegion> | null | undefined) =>
    r?.turn === undefined || r.turn === 0 ? isRegion(r) : typeof r.turn === 'number' && Math.abs(r.turn) <= 45 && [r.x, r.y, r.width, r.height].every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0) && trayCorners(r as TrayRegion).every(inFrame);
  if (t !== null && !isTray(t)) throw bad(`bad tray region, or one beyond ${size}`);
  const marks: unknown = data.trayMarks ?? [];
  const isMark = (m: Partial<TrayMark>) => isRegion(m) && typeof m.area === 'number' && m.area >= 0 && Array.isArray(m.cells) && m.cells.length === markCells(m as TrayMark) && m.cells.every(isLab);
  if (!Array.isArray(marks) || !marks.every(isMark)) throw bad(`bad tray marks, or one beyond ${size}`);
  const corners: unknown = data.trayCorners ?? [];
  if (!Array.isArray(corners) || !corners.every(isMark)) throw bad(`bad tray corners, or one beyond ${size}`);
  return { ...data, trayMarks: marks, trayCorners: corners } as Calibration;
}

/** Writes a calibration file atomically (a half-written file is never loaded). */
export function writeCalibrationFile(file: string, calibration: Calibration): void {
  const temp = `${file}.tmp`;
  writeFileSync(temp, `${JSON.stringify(calibration, null, 2)}\n`);
  renameSync(temp, file);
}
