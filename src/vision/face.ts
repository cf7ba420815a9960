/**
 * A die's face as an image: the face in a die's box warped upright onto a
 * square Lab patch (`uprightFace`) and points of that patch back in the frame
 * (`patchToFrame`), how far the edges on a patch are turned against its sides
 * (`edgeTurn`), a patch's body colour (`medianLab`) and each pixel's distance
 * from a colour (`distanceMap`). In: a BGR frame and a die's box, or a Lab
 * patch; out: patches, colours, angles and points.
 */
import cv from '../hardware/opencv.js';
import { toBlob, type Blob } from './box.js';
import { filledMat, KERNEL_3, median, Scratch } from './mats.js';
import type { Lab } from './palette.js';
import type { Point } from './types.js';

/** Median of the 8-bit values counted in a 256-bin histogram. */
function histogramMedian(hist: Uint32Array, count: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v] as number;
    if (seen * 2 > count) return v;
  }
  return 255;
}

// Histograms reused by medianLab (one per channel): no allocation per die.
const HISTOGRAMS = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;

/** Median colour of an 8-bit Lab image (L scaled to 0-255, a and b offset by 128) over a sampling grid. */
export function medianLab(lab: cv.Mat, step: number): Lab {
  const data = lab.getData();
  // Read once: a Mat's rows and cols are calls into the native addon, too slow for every pixel.
  const rows = lab.rows;
  const cols = lab.cols;
  const [hL, ha, hb] = HISTOGRAMS;
  hL.fill(0);
  ha.fill(0);
  hb.fill(0);
  let count = 0;
  for (let y = 0; y < rows; y += step) {
    for (let x = 0; x < cols; x += step) {
      const i = (y * cols + x) * 3;
      const L = data[i] as number;
      const a = data[i + 1] as number;
      const b = data[i + 2] as number;
      hL[L] = (hL[L] as number) + 1;
      ha[a] = (ha[a] as number) + 1;
      hb[b] = (hb[b] as number) + 1;
      count++;
    }
  }
  if (count === 0) return { L: 0, a: 0, b: 0 };
  return { L: (histogramMedian(hL, count) * 100) / 255, a: histogramMedian(ha, count) - 128, b: histogramMedian(hb, count) - 128 };
}

/** Map of how far each pixel's colour (8-bit Lab) is from `ref` (8-bit, saturating). */
export function distanceMap(lab: cv.Mat, ref: Lab, lightnessWeight: number): cv.Mat {
  const scratch = new Scratch();
  try {
    const refMat = scratch.add(filledMat(lab.rows, lab.cols, cv.CV_8UC3, new cv.Vec3((ref.L * 255) / 100, ref.a + 128, ref.b + 128)));
    const [dL, da, db] = scratch.add(lab.absdiff(refMat)).splitChannels().map((m) => scratch.add(m)) as [cv.Mat, cv.Mat, cv.Mat];
    // 8-bit L is in 1/2.55 units of L*; a and b are already in L*a*b* units.
    return scratch.add(dL.addWeighted(lightnessWeight / 2.55, da, 1, 0)).addWeighted(1, db, 1, 0);
  } finally {
    scratch.release();
  }
}

/** A point of the upright face patch back in frame pixels (the patch spans the blob's box, corner 0 at its origin). */
export function patchToFrame(blob: Blob, p: Point, side: number): Point {
  const [c0, c1, , c3] = blob.box as [Point, Point, Point, Point];
  const u = p.x / side;
  const v = p.y / side;
  return { x: c0.x + u * (c1.x - c0.x) + v * (c3.x - c0.x), y: c0.y + u * (c1.y - c0.y) + v * (c3.y - c0.y) };
}

/**
 * Step 2: the die's top face in a BGR frame warped upright onto a square patch,
 * in Lab (only the patch is converted, not the frame). Exported for debugging
 * tools, like the stages below.
 */
export function uprightFace(image: cv.Mat, blob: Blob, side: number): cv.Mat {
  // A blob's box is a rotated rectangle, so three corners fix the warp: an affine warp is about a third cheaper than a perspective one.
  const [c0, c1, , c3] = blob.box as [Point, Point, Point, Point];
  const src = [c0, c1, c3].map((p) => new cv.Point2(p.x, p.y));
  const dst = [new cv.Point2(0, 0), new cv.Point2(side, 0), new cv.Point2(0, side)];
  const transform = cv.getAffineTransform(src, dst);
  const face = image.warpAffine(transform, new cv.Size(side, side), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
  transform.release();
  const lab = face.cvtColor(cv.COLOR_BGR2Lab);
  face.release();
  return lab;
}

/**
 * How far (degrees, -45 to 45) the edges on a face patch (Lab) are turned
 * against the patch's sides: the gradient's direction times four, so that a
 * square's four sides agree, averaged with the squared magnitude as weight.
 */
export function edgeTurn(face: cv.Mat): number {
  const scratch = new Scratch();
  try {
    const [lightness] = face.splitChannels().map((m) => scratch.add(m)) as [cv.Mat];
    const floats = (m: cv.Mat) => {
      const data = scratch.add(m).getData();
      return new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
    };
    const gx = floats(lightness.sobel(cv.CV_32F, 1, 0, 3));
    const gy = floats(lightness.sobel(cv.CV_32F, 0, 1, 3));
    let cos = 0;
    let sin = 0;
    for (let i = 0; i < gx.length; i++) {
      const x = gx[i] as number;
      const y = gy[i] as number;
      const m2 = x * x + y * y;
      if (m2 === 0) continue;
      // (x + iy)^4 / |g|^2 = |g|^2 e^(4iθ), with no trigonometry per pixel.
      const re = x * x - y * y;
      const im = 2 * x * y;
      cos += (re * re - im * im) / m2;
      sin += (2 * re * im) / m2;
    }
    return (Math.atan2(sin, cos) / 4) * (180 / Math.PI);
  } finally {
    scratch.release();
  }
}

/** The window around a found die that its outline is looked for in, as a share of the die's side beyond each edge. */
const OUTLINE_MARGIN = 0.35;
/** The die's side in the window's copy: enough for its outline, cheap at any frame size. */
const OUTLINE_SIDE = 48;
/** Lightness counts this much against colour: a shadow is darker floor. */
const OUTLINE_LIGHTNESS = 0.5;
/** An outline whose box side is outside this share of the found die's is not that die's (a white die on a white floor, dice pressed together). */
const OUTLINE_SIDES = [0.6, 1.45] as const;

/** A found die: its centre and the sides of its box, frame pixels. */
export interface FoundDie {
  readonly center: Point;
  readonly width: number;
  readonly height: number;
}

/** The outline of the die at a found place, or, without one, `spans`: the outline's box when it holds another found die's centre too (dice pressed together). */
export type Outline = { readonly blob: Blob; readonly fill: number } | { readonly blob: null; readonly spans: readonly Point[] | null };

/**
 * The die's outline where the finder found one: in a window around its box,
 * the pixels that differ from the window's rim (the floor around the die) by
 * more than Otsu's threshold, the blob holding the centre, as a rotated
 * rectangle and the share of it the blob fills (a die lying on another fills
 * less). Worked on a copy where the die is `OUTLINE_SIDE` pixels across. No
 * outline when the blob holding the centre is not about one die's size: a
 * floor too like the die, or dice pressed together (`spans`: the blob holds
 * the centre of another found die too).
 */
export function dieOutline(image: cv.Mat, die: FoundDie, others: readonly FoundDie[]): Outline {
  const side = Math.max(die.width, die.height);
  const reach = side / 2 + side * OUTLINE_MARGIN;
  const x0 = Math.max(0, Math.floor(die.center.x - reach));
  const y0 = Math.max(0, Math.floor(die.center.y - reach));
  const x1 = Math.min(image.cols, Math.ceil(die.center.x + reach));
  const y1 = Math.min(image.rows, Math.ceil(die.center.y + reach));
  if (x1 - x0 < 8 || y1 - y0 < 8) return { blob: null, spans: null };
  const k = Math.min(1, OUTLINE_SIDE / side);
  const scratch = new Scratch();
  try {
    const view = scratch.add(image.getRegion(new cv.Rect(x0, y0, x1 - x0, y1 - y0)));
    const small = k < 1 ? scratch.add(view.resize(Math.max(8, Math.round((y1 - y0) * k)), Math.max(8, Math.round((x1 - x0) * k)), 0, 0, cv.INTER_AREA)) : view;
    const kx = small.cols / (x1 - x0);
    const ky = small.rows / (y1 - y0);
    const lab = scratch.add(small.cvtColor(cv.COLOR_BGR2Lab));
    const floor = rimColour(lab);
    const distance = scratch.add(distanceMap(lab, floor, OUTLINE_LIGHTNESS));
    const binary = scratch.add(distance.threshold(0, 255, cv.THRESH_BINARY | cv.THRESH_OTSU));
    const opened = scratch.add(binary.morphologyEx(KERNEL_3, cv.MORPH_OPEN));
    const centre = new cv.Point2((die.center.x - x0) * kx, (die.center.y - y0) * ky);
    const holding = opened.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE).find((c) => c.pointPolygonTest(centre) >= 0);
    if (holding === undefined) return { blob: null, spans: null };
    const toFrame = (p: Point): Point => ({ x: x0 + p.x / kx, y: y0 + p.y / ky });
    const spansOthers = others.some((o) => {
      const p = new cv.Point2((o.center.x - x0) * kx, (o.center.y - y0) * ky);
      return o !== die && p.x >= 0 && p.y >= 0 && p.x < small.cols && p.y < small.rows && holding.pointPolygonTest(p) >= 0;
    });
    const rect = holding.minAreaRect();
    const frameRect = new cv.RotatedRect(new cv.Point2(toFrame(rect.center).x, toFrame(rect.center).y), new cv.Size(rect.size.width / kx, rect.size.height / ky), rect.angle);
    const blob = toBlob(frameRect);
    // The finder's box is upright: a die turned by θ spans side·(|cos θ| + |sin θ|) in it.
    const turn = (rect.angle * Math.PI) / 180;
    const spans = blob.size * (Math.abs(Math.cos(turn)) + Math.abs(Math.sin(turn)));
    if (spansOthers) return { blob: null, spans: blob.box };
    if (spans < OUTLINE_SIDES[0] * side || spans > OUTLINE_SIDES[1] * side) return { blob: null, spans: null };
    return { blob, fill: holding.area / Math.max(1, rect.size.width * rect.size.height) };
  } finally {
    scratch.release();
  }
}

/** The median colour of a Lab window's outermost two pixels all round: the floor next to the die. */
function rimColour(lab: cv.Mat): Lab {
  const rows = lab.rows;
  const cols = lab.cols;
  const data = lab.getData();
  const channels: [number[], number[], number[]] = [[], [], []];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      if (y >= 2 && y < rows - 2 && x >= 2 && x < cols - 2) continue;
      const i = (y * cols + x) * 3;
      for (let ch = 0; ch < 3; ch++) channels[ch as 0 | 1 | 2].push(data[i + ch] as number);
    }
  }
  const [L, a, b] = channels.map((values) => median(values)) as [number, number, number];
  return { L: (L * 100) / 255, a: a - 128, b: b - 128 };
}

/**
 * A square die box where the finder found a die whose outline could not be
 * told from the floor: on the found centre, turned as the edges in its window
 * run (`edgeTurn`), the side that spans the found box when so turned.
 */
export function squareAtFound(image: cv.Mat, die: FoundDie): Blob {
  const side = Math.max(die.width, die.height);
  const window = toBlob(new cv.RotatedRect(new cv.Point2(die.center.x, die.center.y), new cv.Size(side, side), 0));
  const patch = uprightFace(image, window, OUTLINE_SIDE);
  const turn = edgeTurn(patch);
  patch.release();
  const rad = (turn * Math.PI) / 180;
  const edge = side / (Math.abs(Math.cos(rad)) + Math.abs(Math.sin(rad)));
  return toBlob(new cv.RotatedRect(new cv.Point2(die.center.x, die.center.y), new cv.Size(edge, edge), turn));
}
