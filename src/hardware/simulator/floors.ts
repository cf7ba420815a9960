/**
 * Tray floors other than plain felt, for `renderTray`'s `floor`: felt with
 * marks printed or spilt on it, wood grain, specks, and a wooden rim in view
 * all round. The vision tests and the tray-floor benchmark read dice on them,
 * with the tray calibrated from an empty shot.
 */
import cv from '../opencv.js';
import { SeededRandom } from '../random.js';
import { feltBackground } from './render.js';
import { DEFAULT_TRAY } from './scene.js';

/**
 * A tray whose felt has marks printed or spilt on it: a die face's 1 (a ring
 * with a dot, as a tower maker's logo might be), a die-sized dark square, a
 * dark square logo more than twice a die's size, a lone dark dot, and a light
 * scratch. Left to the reader, each is read on every roll as a die or an
 * object.
 */
export const RING = { x: 200, y: 150, radius: 34 };
export const SQUARE = { x: 1000, y: 500, side: 60 };
export const LOGO = { x: 700, y: 120, side: 150 };
export const DOT = { x: 640, y: 600 };
export const SCRATCH = { from: { x: 300, y: 600 }, to: { x: 420, y: 640 } };

/** The marked floor's BGR pixels, for `renderTray`'s `floor`; `moved`: the marks drawn that far off (the camera moved since the calibration). */
export function markedFloor(moved = { x: 0, y: 0 }): Buffer {
  const { width, height } = DEFAULT_TRAY;
  const floor = new cv.Mat(Buffer.from(feltBackground(DEFAULT_TRAY)), height, width, cv.CV_8UC3);
  const ink = new cv.Vec3(30, 40, 35);
  const at = (x: number, y: number) => new cv.Point2(x + moved.x, y + moved.y);
  floor.drawCircle(at(RING.x, RING.y), RING.radius, ink, 3, cv.LINE_AA);
  floor.drawCircle(at(RING.x, RING.y), 6, ink, -1, cv.LINE_AA);
  floor.drawRectangle(new cv.Rect(SQUARE.x + moved.x, SQUARE.y + moved.y, SQUARE.side, SQUARE.side), ink, -1, cv.LINE_AA);
  floor.drawRectangle(new cv.Rect(LOGO.x + moved.x, LOGO.y + moved.y, LOGO.side, LOGO.side), ink, -1, cv.LINE_AA);
  floor.drawCircle(at(DOT.x, DOT.y), 6, ink, -1, cv.LINE_AA);
  floor.drawLine(at(SCRATCH.from.x, SCRATCH.from.y), at(SCRATCH.to.x, SCRATCH.to.y), new cv.Vec3(200, 210, 200), 2, cv.LINE_AA);
  return floor.getData();
}

/** Felt with two parallel light scratches, each shorter than `dieSizeMax` (marks, as wood grain might be): `GRAIN` holds their left ends. */
export const GRAIN = [{ x: 300, y: 250 }, { x: 300, y: 450 }];
export const GRAIN_LENGTH = 140;
export function grainFloor(): Buffer {
  const { width, height } = DEFAULT_TRAY;
  const floor = new cv.Mat(Buffer.from(feltBackground(DEFAULT_TRAY)), height, width, cv.CV_8UC3);
  for (const end of GRAIN) floor.drawLine(new cv.Point2(end.x, end.y), new cv.Point2(end.x + GRAIN_LENGTH, end.y + 4), new cv.Vec3(200, 210, 200), 3, cv.LINE_AA);
  return floor.getData();
}

/** Felt speckled with `count` dark specks 4-10 pixels wide (seeded), as a worn or grainy tray might be: each a mark. */
export function speckledFloor(count: number, seed = 5): Buffer {
  const { width, height } = DEFAULT_TRAY;
  const rng = new SeededRandom(seed);
  const floor = new cv.Mat(Buffer.from(feltBackground(DEFAULT_TRAY)), height, width, cv.CV_8UC3);
  for (let i = 0; i < count; i++) {
    const at = new cv.Point2(40 + Math.floor(rng.next() * (width - 80)), 40 + Math.floor(rng.next() * (height - 80)));
    floor.drawCircle(at, 2 + Math.floor(rng.next() * 4), new cv.Vec3(30, 40, 35), -1, cv.LINE_AA);
  }
  return floor.getData();
}

/** A wooden rim around the tray floor, pixels of the frame it covers on each side. */
export const RIM = { left: 96, right: 80, top: 48, bottom: 40 };

/** Paints the tray's wooden rim over `image` (a frame or a floor of the tray's size), in place; `moved`: that far off. */
export function paintRim(image: cv.Mat, moved = { x: 0, y: 0 }, shape: RimShape = {}): cv.Mat {
  const { cols: width, rows: height } = image;
  const wood = new cv.Vec3(40, 90, 150);
  const [left, right] = [RIM.left + moved.x, width - RIM.right + moved.x];
  const [top, bottom] = [RIM.top + moved.y, height - RIM.bottom + moved.y];
  const { turn = 0, cornerRadius: r = 0 } = shape;
  // The floor's outline (its last column and row inside it): its corners rounded (arcs every 10 degrees), turned about its
  // centre; wood everywhere outside it.
  const turned = turnAboutFloor(width, height, moved, turn);
  const arcs = [
    [right - 1 - r, bottom - 1 - r, 0],
    [left + r, bottom - 1 - r, 90],
    [left + r, top + r, 180],
    [right - 1 - r, top + r, 270],
  ] as const;
  const outline = arcs.flatMap(([ax, ay, from]) =>
    Array.from({ length: 10 }, (_, k) => {
      const a = ((from + k * 10) * Math.PI) / 180;
      const p = turned(ax + r * Math.cos(a), ay + r * Math.sin(a));
      return new cv.Point2(Math.round(p.x), Math.round(p.y));
    }),
  );
  const floor = new cv.Mat(height, width, cv.CV_8U, 0);
  floor.drawFillPoly([outline], new cv.Vec3(255, 255, 255));
  image.setTo(wood, floor.bitwiseNot());
  return image;
}

/** A point of a frame of `width`×`height` turned `turn` degrees about the centre of the floor inside the rim (`moved` off), as paintRim turns the floor. */
function turnAboutFloor(width: number, height: number, moved: { x: number; y: number }, turn: number): (x: number, y: number) => { x: number; y: number } {
  const [cx, cy] = [(RIM.left + width - RIM.right - 1) / 2 + moved.x, (RIM.top + height - RIM.bottom - 1) / 2 + moved.y];
  const [cos, sin] = [Math.cos((turn * Math.PI) / 180), Math.sin((turn * Math.PI) / 180)];
  return (x, y) => ({ x: cx + (x - cx) * cos - (y - cy) * sin, y: cy + (x - cx) * sin + (y - cy) * cos });
}

/** A rim not square to the camera: `turn` degrees about the floor's centre, and inner corners rounded to `cornerRadius` pixels. */
export interface RimShape {
  readonly turn?: number;
  readonly cornerRadius?: number;
}

/** The felt with the tray's wooden rim painted around it, for `renderTray`'s `floor` (dice drawn on it may lie on the rim, and the rim takes the frame's grain and light); `moved`: the rim drawn that far off. */
export function rimmedFloor(moved = { x: 0, y: 0 }, shape: RimShape = {}): Buffer {
  const { width, height } = DEFAULT_TRAY;
  return paintRim(new cv.Mat(Buffer.from(feltBackground(DEFAULT_TRAY)), height, width, cv.CV_8UC3), moved, shape).getData();
}

/**
 * Where to lay a die of `dieSize` by each side of the rim (left, top, right,
 * bottom, at a fixed place along each), its farthest point `gap` pixels from
 * the rim (negative: over it), turned `turn` degrees against that side. On a
 * rim of `shape` turned, the places and the die turn with it (its round
 * corners are far from these places).
 */
export function besideRim(gap: number, turn: number, dieSize = DEFAULT_TRAY.dieSize, shape: RimShape = {}): { side: string; x: number; y: number; angle: number }[] {
  // From the die's centre to its farthest point across the rim.
  const reach = (dieSize / 2) * (Math.abs(Math.cos((turn * Math.PI) / 180)) + Math.abs(Math.sin((turn * Math.PI) / 180)));
  const { width, height } = DEFAULT_TRAY;
  const rimTurn = shape.turn ?? 0;
  const turned = turnAboutFloor(width, height, { x: 0, y: 0 }, rimTurn);
  return [
    { side: 'left', x: RIM.left + gap + reach, y: 360 },
    { side: 'top', x: 500, y: RIM.top + gap + reach },
    { side: 'right', x: width - RIM.right - gap - reach, y: 360 },
    { side: 'bottom', x: 500, y: height - RIM.bottom - gap - reach },
  ].map(({ side, x, y }) => ({ side, ...turned(x, y), angle: turn + rimTurn }));
}
