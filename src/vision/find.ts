import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cv from '../hardware/opencv.js';
import { MODEL_DIR } from './face-classifier.js';
import type { Point } from './types.js';
import { VisionError } from './types.js';

/**
 * Find: where the dice are and how large, on any floor and at any scale.
 *
 * A small convolutional network (`scripts/train-die-finder.ts`, run through
 * OpenCV's dnn module) marks die centres on a grid of `FINDER_STRIDE` pixels
 * with the size of each die's box. It was trained on dice 8-64 px across, so
 * the frame is read at the scale that brings its dice into that band: first
 * with its longer side at `levelSide`, then at twice or half that scale where
 * the dice found are smaller or larger than the band (a pyramid that follows
 * the dice), or at once at the calibrated die size.
 */

export const FINDER_MODEL = 'die-finder.onnx';
/** Pixels of the input per cell of the heat map. */
export const FINDER_STRIDE = 4;
/** The network's outputs per cell: heat (logit), offset x, offset y, log width, log height (sizes in cells). */
export const FINDER_OUTPUTS = 5;
/**
 * The network computes on a grid twice as coarse (a third of the work) and gives
 * each of its cells' 2x2 cells as channels: channel k * 4 + i * 2 + j is
 * output k of the cell in row i, column j (PyTorch's pixel_shuffle order).
 */
const SHUFFLE = 2;
/** Input sides must be multiples of this. */
const NET_STRIDE = FINDER_STRIDE * SHUFFLE;

/** One die as the finder sees it: the centre and size of its box in frame pixels. */
export interface DieCandidate {
  readonly center: Point;
  readonly width: number;
  readonly height: number;
  /** 0-1: the network's belief that a die lies here. */
  readonly score: number;
}

export interface FinderConfig {
  /** Least score of a candidate. */
  readonly minScore: number;
  /** Longer side of the first level the frame is read at, pixels. */
  readonly levelSide: number;
  /** Die sizes (box side at a level, pixels) a level reads best; outside it the next level is read. */
  readonly band: readonly [number, number];
  /** The die size a calibrated frame is read at, pixels at the level. */
  readonly calibratedSize: number;
}

export const DEFAULT_FINDER_CONFIG: FinderConfig = Object.freeze({
  minScore: 0.3,
  levelSide: 320,
  band: [10, 48] as const,
  calibratedSize: 24,
});

/** The finder network, loaded once per model file. */
export interface DieFinder {
  /** The network's output for a BGR image at its own scale (sides multiples of 8): FINDER_OUTPUTS planes of rows x cols cells. */
  run(image: cv.Mat): { data: Float32Array; rows: number; cols: number };
}

const finders = new Map<string, DieFinder>();

export function loadDieFinder(file: string = join(MODEL_DIR, FINDER_MODEL)): DieFinder {
  const cached = finders.get(file);
  if (cached) return cached;
  if (!existsSync(file)) throw new VisionError('vision/no_model', `the die finder model ${file} is missing; train it with scripts/train-die-finder.ts`);
  const net = cv.readNetFromONNX(file);
  const finder: DieFinder = {
    run(image) {
      const blob = cv.blobFromImage(image, 1, new cv.Size(image.cols, image.rows), new cv.Vec3(0, 0, 0), false, false);
      net.setInput(blob);
      const out = net.forward();
      const [, channels, coarseRows, coarseCols] = out.sizes as [number, number, number, number];
      if (channels !== FINDER_OUTPUTS * SHUFFLE * SHUFFLE) {
        out.release();
        blob.release();
        throw new VisionError('vision/bad_model', `the die finder model ${file} gives ${channels} outputs a cell, not ${FINDER_OUTPUTS * SHUFFLE * SHUFFLE}: retrain it with scripts/train-die-finder.ts`);
      }
      // A 4-D blob has no 2-D view of its own; as channels * rows rows of cols floats it does.
      const flat = out.flattenFloat(channels * coarseRows, coarseCols);
      const bytes = flat.getData();
      const { data, rows, cols } = unshuffle(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), coarseRows, coarseCols);
      flat.release();
      blob.release();
      out.release();
      return { data, rows, cols };
    },
  };
  finders.set(file, finder);
  return finder;
}

/**
 * The network's output (FINDER_OUTPUTS * 4 planes of rows x cols coarse cells)
 * as FINDER_OUTPUTS planes of the fine cells: channel k * 4 + i * 2 + j of a
 * coarse cell (x, y) is output k of fine cell (2x + j, 2y + i).
 */
export function unshuffle(coarse: Float32Array, coarseRows: number, coarseCols: number): { data: Float32Array; rows: number; cols: number } {
  const rows = coarseRows * SHUFFLE;
  const cols = coarseCols * SHUFFLE;
  const data = new Float32Array(FINDER_OUTPUTS * rows * cols);
  for (let k = 0; k < FINDER_OUTPUTS; k++) {
    for (let i = 0; i < SHUFFLE; i++) {
      for (let j = 0; j < SHUFFLE; j++) {
        const from = (k * SHUFFLE * SHUFFLE + i * SHUFFLE + j) * coarseRows * coarseCols;
        for (let y = 0; y < coarseRows; y++) {
          const to = k * rows * cols + (y * SHUFFLE + i) * cols + j;
          for (let x = 0; x < coarseCols; x++) data[to + x * SHUFFLE] = coarse[from + y * coarseCols + x] as number;
        }
      }
    }
  }
  return { data, rows, cols };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Candidates of one level: local maxima of the heat map above `minScore`, in level pixels. */
export function decodeLevel(out: { data: Float32Array; rows: number; cols: number }, minScore: number): DieCandidate[] {
  const { data, rows, cols } = out;
  const plane = rows * cols;
  const logit = Math.log(minScore / (1 - minScore));
  const found: DieCandidate[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      const v = data[i] as number;
      if (v < logit) continue;
      let peak = true;
      for (let dy = -1; dy <= 1 && peak; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if ((dx === 0 && dy === 0) || yy < 0 || xx < 0 || yy >= rows || xx >= cols) continue;
          const w = data[yy * cols + xx] as number;
          // Ties go to the first cell in reading order.
          if (w > v || (w === v && (dy < 0 || (dy === 0 && dx < 0)))) {
            peak = false;
            break;
          }
        }
      }
      if (!peak) continue;
      const cx = (x + (data[plane + i] as number)) * FINDER_STRIDE;
      const cy = (y + (data[2 * plane + i] as number)) * FINDER_STRIDE;
      found.push({
        center: { x: cx, y: cy },
        width: Math.exp(data[3 * plane + i] as number) * FINDER_STRIDE,
        height: Math.exp(data[4 * plane + i] as number) * FINDER_STRIDE,
        score: sigmoid(v),
      });
    }
  }
  return found;
}

const sideOf = (c: DieCandidate) => Math.max(c.width, c.height);

/** Reads the frame at `scale` (rounded so each side is a whole number of cells) and returns its candidates in frame pixels. */
function readLevel(image: cv.Mat, finder: DieFinder, scale: number, minScore: number): { scale: number; found: DieCandidate[] } {
  const cols = Math.max(NET_STRIDE * 2, Math.round((image.cols * scale) / NET_STRIDE) * NET_STRIDE);
  const rows = Math.max(NET_STRIDE * 2, Math.round((image.rows * scale) / NET_STRIDE) * NET_STRIDE);
  const level = cols === image.cols && rows === image.rows ? image : image.resize(rows, cols, 0, 0, scale < 1 ? cv.INTER_AREA : cv.INTER_LINEAR);
  const sx = image.cols / cols;
  const sy = image.rows / rows;
  const found = decodeLevel(finder.run(level), minScore).map((c) => ({
    center: { x: c.center.x * sx, y: c.center.y * sy },
    width: c.width * sx,
    height: c.height * sy,
    score: c.score,
  }));
  if (level !== image) level.release();
  return { scale: cols / image.cols, found };
}

/** True when `p`'s centre lies inside `q`'s box. */
const inside = (p: DieCandidate, q: DieCandidate) => Math.abs(p.center.x - q.center.x) < q.width / 2 && Math.abs(p.center.y - q.center.y) < q.height / 2;
/** One die seen twice: either centre inside the other's box. */
const sameDie = (a: DieCandidate, b: DieCandidate) => inside(a, b) || inside(b, a);

/** How far the size ranges of neighbouring levels overlap (a factor): a die's size is an estimate. */
const LEVEL_OVERLAP = 1.15;

/**
 * The dice of a BGR frame. With `dieSize` (a calibrated die's edge, frame
 * pixels) the frame is read once, at the scale that makes it
 * `calibratedSize`, every size kept. Without, it is read at `levelSide`, and at every coarser
 * level (half, quarter... while its shorter side holds twice the band's top),
 * and at finer levels (twice, up to full resolution) while a die found is
 * below the band or none is found at all. Each level answers only for the
 * sizes no other level sees in band: the first level for the band, a coarser
 * one for dice larger than its finer neighbour's band, a finer one for dice
 * smaller than its coarser neighbour's (so a die's pips at a finer level, or a
 * group of dice at a coarser one, are seldom taken for dice). What two levels
 * both see is kept once (`oncePerDie`).
 */
export function findDice(image: cv.Mat, finder: DieFinder, cfg: FinderConfig = DEFAULT_FINDER_CONFIG, dieSize?: number): DieCandidate[] {
  if (dieSize !== undefined) return oncePerDie(readLevel(image, finder, Math.min(2, cfg.calibratedSize / dieSize), cfg.minScore).found);
  const [low, high] = cfg.band;
  const shorter = Math.min(image.cols, image.rows);
  const first = Math.min(1, cfg.levelSide / Math.max(image.cols, image.rows));
  const seen: DieCandidate[] = [];
  /** Keeps a level's candidates whose frame size lies in [from, to). */
  const keep = (found: readonly DieCandidate[], from: number, to: number) => seen.push(...found.filter((c) => sideOf(c) >= from / LEVEL_OVERLAP && sideOf(c) < to * LEVEL_OVERLAP));
  // The first level, then the coarser ones: each answers for sizes above its finer neighbour's band.
  const levels: number[] = [first];
  while (shorter * (levels.at(-1) as number) / 2 >= 2 * high) levels.push((levels.at(-1) as number) / 2);
  let firstFound: DieCandidate[] = [];
  levels.forEach((scale, k) => {
    const { scale: at, found } = readLevel(image, finder, scale, cfg.minScore);
    const coarsest = k === levels.length - 1;
    const from = k === 0 ? (first === 1 ? 0 : low / at) : high / (2 * at);
    keep(found, from, coarsest ? Infinity : high / at);
    if (k === 0) firstFound = found;
  });
  // Finer levels while a die below the band was found at the level before, or none at all: each answers for sizes below that level's band.
  let scale = first;
  let below = firstFound.some((c) => sideOf(c) * first < low) || seen.length === 0;
  while (scale < 1 && below) {
    const coarserBand = low / scale;
    scale = Math.min(1, scale * 2);
    const { scale: at, found } = readLevel(image, finder, scale, cfg.minScore);
    keep(found, scale === 1 ? 0 : low / at, coarserBand);
    below = found.some((c) => sideOf(c) * at < low);
  }
  return oncePerDie(seen);
}

/**
 * Surest first, a candidate is dropped when its centre lies in a kept one's
 * box or its box holds a kept one's centre, whatever their sizes: the same die
 * seen at two levels, or a die's pips seen at a finer level. (A small die
 * beside a larger, surer false box, such as a pile read as one, is lost.)
 */
function oncePerDie(candidates: readonly DieCandidate[]): DieCandidate[] {
  const kept: DieCandidate[] = [];
  for (const c of [...candidates].sort((p, q) => q.score - p.score)) if (!kept.some((k) => sameDie(k, c))) kept.push(c);
  return kept;
}
