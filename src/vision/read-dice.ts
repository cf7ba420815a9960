import cv from '../hardware/opencv.js';
import type { Frame } from '../hardware/types.js';
import { DEFAULT_PALETTE, nearestColour, type Lab } from './palette.js';
import { VisionError, type DiceReader, type DiceReading, type DieReading, type Point } from './types.js';

/**
 * Every tunable of the reader, with its unit and which way to turn it.
 * Calibration (a later step) fills `palette` from the user's own dice.
 */
export interface VisionConfig {
  /** Weighted Lab distance from the tray floor above which a pixel is part of a die. Raise it when felt texture or shadows show up as dice; lower it when dark dice on a dark tray are missed. */
  readonly foregroundThreshold: number;
  /** How much lightness counts against hue (0-1). Lower it when shadows are taken for dice. */
  readonly lightnessWeight: number;
  /** Smallest and largest die edge in pixels. Widen when the camera sits lower or higher. */
  readonly dieSizeMin: number;
  readonly dieSizeMax: number;
  /** Longest/shortest side of a die's box above which the blob is not one die lying flat. */
  readonly maxAspect: number;
  /** Share of its box a die's blob must fill (a square fills ~0.95, rounded corners ~0.9). */
  readonly minFill: number;
  /** Side of the upright face patch the pips are counted on, pixels. */
  readonly facePatch: number;
  /** Share of the face, at each edge, ignored when counting pips (bevel, rounded corners). */
  readonly faceInset: number;
  /** Lab distance from the face colour above which a pixel belongs to a pip. Lower it for low-contrast pips. */
  readonly pipThreshold: number;
  /** Pip area as a share of the face area, smallest and largest accepted. */
  readonly pipAreaMin: number;
  readonly pipAreaMax: number;
  /** Below this confidence a die's value is reported as unreadable (null). */
  readonly minConfidence: number;
  readonly palette: Readonly<Record<string, Lab>>;
}

export const DEFAULT_VISION_CONFIG: VisionConfig = Object.freeze({
  foregroundThreshold: 22,
  lightnessWeight: 0.45,
  dieSizeMin: 24,
  dieSizeMax: 200,
  maxAspect: 1.3,
  minFill: 0.78,
  facePatch: 80,
  faceInset: 0.08,
  pipThreshold: 38,
  pipAreaMin: 0.006,
  pipAreaMax: 0.06,
  minConfidence: 0.6,
  palette: DEFAULT_PALETTE,
});

/** OpenCV's 8-bit Lab stores L scaled to 0-255 and a, b offset by 128. */
function labAt(data: Buffer, i: number): Lab {
  return { L: ((data[i] ?? 0) * 100) / 255, a: (data[i + 1] ?? 128) - 128, b: (data[i + 2] ?? 128) - 128 };
}

function median(values: number[]): number {
  values.sort((p, q) => p - q);
  return values[Math.floor(values.length / 2)] ?? 0;
}

/** Median colour of a Lab image over a sampling grid (or only where `mask` is set). */
function medianLab(lab: cv.Mat, step: number, mask?: Buffer): Lab {
  const data = lab.getData();
  const L: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (let y = 0; y < lab.rows; y += step) {
    for (let x = 0; x < lab.cols; x += step) {
      const p = y * lab.cols + x;
      if (mask && !mask[p]) continue;
      const c = labAt(data, p * 3);
      L.push(c.L);
      a.push(c.a);
      b.push(c.b);
    }
  }
  return { L: median(L), a: median(a), b: median(b) };
}

/** Map of how far each pixel's colour is from `ref` (8-bit, saturating). */
function distanceMap(lab: cv.Mat, ref: Lab, lightnessWeight: number): cv.Mat {
  // (setTo: filling through the constructor's array argument is ~100x slower)
  const refMat = new cv.Mat(lab.rows, lab.cols, cv.CV_8UC3).setTo(new cv.Vec3((ref.L * 255) / 100, ref.a + 128, ref.b + 128));
  const [dL, da, db] = lab.absdiff(refMat).splitChannels() as [cv.Mat, cv.Mat, cv.Mat];
  // 8-bit L is in 1/2.55 units of L*; a and b are already in L*a*b* units.
  return dL.addWeighted(lightnessWeight / 2.55, da, 1, 0).addWeighted(1, db, 1, 0);
}

/** Corners of a rotated rectangle, in order around it. */
function corners(rect: cv.RotatedRect): Point[] {
  const rad = (rect.angle * Math.PI) / 180;
  const ux = { x: (Math.cos(rad) * rect.size.width) / 2, y: (Math.sin(rad) * rect.size.width) / 2 };
  const uy = { x: (-Math.sin(rad) * rect.size.height) / 2, y: (Math.cos(rad) * rect.size.height) / 2 };
  const c = rect.center;
  return [
    { x: c.x - ux.x - uy.x, y: c.y - ux.y - uy.y },
    { x: c.x + ux.x - uy.x, y: c.y + ux.y - uy.y },
    { x: c.x + ux.x + uy.x, y: c.y + ux.y + uy.y },
    { x: c.x - ux.x + uy.x, y: c.y - ux.y + uy.y },
  ];
}

const KERNEL_3 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(3, 3));
const KERNEL_5 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(5, 5));

interface Blob {
  readonly rect: cv.RotatedRect;
  readonly box: Point[];
  readonly size: number;
}

/** Step 1: the dice-shaped blobs that stand out from the tray floor, and the blobs that do not fit. */
function findDieBlobs(lab: cv.Mat, cfg: VisionConfig): { blobs: Blob[]; problems: string[] } {
  const floor = medianLab(lab, 8);
  const mask = distanceMap(lab, floor, cfg.lightnessWeight)
    .threshold(cfg.foregroundThreshold, 255, cv.THRESH_BINARY)
    .morphologyEx(KERNEL_3, cv.MORPH_OPEN)
    .morphologyEx(KERNEL_5, cv.MORPH_CLOSE);
  const blobs: Blob[] = [];
  const problems: string[] = [];
  const minArea = cfg.dieSizeMin * cfg.dieSizeMin * 0.5;
  for (const contour of mask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE)) {
    if (contour.area < minArea) continue; // specks of noise, not dice
    const rect = contour.minAreaRect();
    const long = Math.max(rect.size.width, rect.size.height);
    const short = Math.min(rect.size.width, rect.size.height);
    const at = `at (${Math.round(rect.center.x)}, ${Math.round(rect.center.y)})`;
    if (long > cfg.dieSizeMax || long / short > cfg.maxAspect || contour.area / (long * short) < cfg.minFill) {
      problems.push(`an object ${at} is not a single die lying flat (${Math.round(long)}x${Math.round(short)} px)`);
      continue;
    }
    if (short < cfg.dieSizeMin) continue;
    blobs.push({ rect, box: corners(rect), size: (long + short) / 2 });
  }
  return { blobs, problems };
}

/** Step 2: the die's top face warped upright onto a square patch (Lab). */
function uprightFace(lab: cv.Mat, blob: Blob, side: number): cv.Mat {
  const src = blob.box.map((p) => new cv.Point2(p.x, p.y));
  const dst = [new cv.Point2(0, 0), new cv.Point2(side, 0), new cv.Point2(side, side), new cv.Point2(0, side)];
  return lab.warpPerspective(cv.getPerspectiveTransform(src, dst), new cv.Size(side, side), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
}

/** Step 3: face colour and pip count on the upright patch. */
function readFace(face: cv.Mat, cfg: VisionConfig): { body: Lab; pips: number; confidence: number } {
  const side = cfg.facePatch;
  const inset = Math.round(side * cfg.faceInset);
  const inner = face.getRegion(new cv.Rect(inset, inset, side - 2 * inset, side - 2 * inset)).copy();
  // Pips cover at most ~15% of a face, so the median is the body colour.
  const body = medianLab(inner, 2);
  const pipMask = distanceMap(inner, body, 1)
    .threshold(cfg.pipThreshold, 255, cv.THRESH_BINARY)
    .morphologyEx(KERNEL_3, cv.MORPH_OPEN);
  const faceArea = side * side;
  const last = inner.cols - 1;
  const areas = pipMask
    .findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE)
    // Pips never reach the face's edge; what does is a rounded corner, felt or a neighbour.
    .filter((c) => {
      const r = c.boundingRect();
      return r.x > 0 && r.y > 0 && r.x + r.width - 1 < last && r.y + r.height - 1 < last;
    })
    .map((c) => c.area / faceArea)
    .filter((a) => a >= cfg.pipAreaMin * 0.5);
  const pips = areas.filter((a) => a >= cfg.pipAreaMin && a <= cfg.pipAreaMax);
  let confidence = pips.length >= 1 && pips.length <= 6 ? 1 : 0;
  // Blobs of the wrong size (glare, chips, a merged pair of pips) make the count doubtful.
  if (pips.length !== areas.length) confidence *= 0.4;
  if (pips.length > 1) {
    const mean = pips.reduce((s, a) => s + a, 0) / pips.length;
    const spread = Math.max(...pips.map((a) => Math.abs(a - mean) / mean));
    if (spread > 0.5) confidence *= 0.5;
  }
  return { body, pips: pips.length, confidence };
}

/** Left to right in columns of a die's width, then top to bottom: a stable order for the game. */
function readingOrder(p: DieReading, q: DieReading): number {
  const column = Math.max(p.size, q.size);
  const dx = p.center.x - q.center.x;
  return Math.abs(dx) > column / 2 ? dx : p.center.y - q.center.y;
}

/** Reads every die in a decoded BGR frame. Pure: the frame is not changed. */
export function readDiceInImage(image: cv.Mat, cfg: VisionConfig = DEFAULT_VISION_CONFIG, expectedCount?: number): DiceReading {
  const started = performance.now();
  const lab = image.cvtColor(cv.COLOR_BGR2Lab);
  const { blobs, problems } = findDieBlobs(lab, cfg);
  const dice: DieReading[] = blobs.map((blob) => {
    const face = readFace(uprightFace(lab, blob, cfg.facePatch), cfg);
    const colour = nearestColour(face.body, cfg.palette, cfg.lightnessWeight);
    const confidence = face.confidence;
    return {
      value: confidence >= cfg.minConfidence ? face.pips : null,
      colour: colour.name,
      center: { x: blob.rect.center.x, y: blob.rect.center.y },
      box: blob.box,
      size: blob.size,
      confidence,
    };
  });
  dice.sort(readingOrder);
  for (const d of dice) {
    if (d.value === null) problems.push(`the ${d.colour} die at (${Math.round(d.center.x)}, ${Math.round(d.center.y)}) cannot be read`);
  }
  if (expectedCount !== undefined && dice.length !== expectedCount) {
    problems.push(`expected ${expectedCount} dice in the tray, found ${dice.length}`);
  }
  return { dice, valid: problems.length === 0, problems, width: image.cols, height: image.rows, ms: performance.now() - started };
}

/** Decodes an encoded image (JPEG, PNG...) into a BGR Mat. */
export function decodeFrame(bytes: Buffer): cv.Mat {
  let image: cv.Mat;
  try {
    image = cv.imdecode(bytes);
  } catch (err) {
    throw new VisionError('vision/bad_frame', `the frame is not a readable image (${(err as Error).message})`);
  }
  if (image.empty || image.rows === 0) throw new VisionError('vision/bad_frame', 'the frame is not a readable image');
  return image;
}

/** The OpenCV dice reader over camera frames. */
export function createDiceReader(cfg: VisionConfig = DEFAULT_VISION_CONFIG): DiceReader {
  return {
    async read(frame: Frame, expectedCount?: number): Promise<DiceReading> {
      const started = performance.now();
      const reading = readDiceInImage(decodeFrame(frame.image), cfg, expectedCount);
      return { ...reading, ms: performance.now() - started };
    },
  };
}
