/**
 * Synthetic training photos for the learned die finder, a small CNN that finds
 * dice centres and sizes on any floor and at any scale. One seed gives one scene:
 * a random frame size, floor (plain, felt, wood, cloth, printed board, tiles,
 * stone, a rim or a bowl), 0-30 dice of any colour and size seen from above or
 * obliquely, light and shadows, and a camera (blur, noise, exposure, gamma,
 * uneven light, colour cast, JPEG). The labels are exact: every die's visible
 * box and its top face.
 *
 *   npx tsx scripts/finder-scenes.ts --out DIR --count N [--seed S]
 *
 * writes DIR/images/scene-<seed>.jpg for seeds S..S+N-1 (S defaults to 1) and
 * DIR/labels.json in the photo-set format (shared/datasets/FORMAT.md): flat dice
 * under `dice`, the boxes of tipped and stacked ones under `unflat`.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import cv from '../src/hardware/opencv.js';
import { SeededRandom } from '../src/hardware/random.js';
import { PIP_LAYOUT } from '../src/hardware/simulator/render.js';

// One OpenCV thread: warpPerspective's worker threads allocate through the
// binding's allocator, which then calls into V8 off the main thread and aborts
// the process (seen here: "Check failed: marking_done_").
cv.setNumThreads(1);

export interface SceneDie {
  value: number;
  /** x0, y0, x1, y1 px of the whole visible die (top face and any visible sides), clipped to the frame; x1, y1 are the right and bottom edges. */
  box: [number, number, number, number];
  /** Top face centre and edge length px (the edge at the die's distance, not foreshortened); may lie outside the frame for a die cut by its edge. */
  top: { x: number; y: number; size: number };
  /** False when tipped (cocked) or lying on another die. */
  flat: boolean;
}

export interface FinderScene {
  /** BGR CV_8UC3. */
  image: cv.Mat;
  dice: SceneDie[];
}

type Rgb = readonly [number, number, number];
type V2 = [number, number];
type V3 = [number, number, number];

// In this order: the scenes the shipped finder was trained on pick from it.
const BODIES: Readonly<Record<string, Rgb>> = {
  white: [240, 240, 236],
  ivory: [236, 224, 188],
  black: [30, 30, 33],
  red: [196, 28, 34],
  green: [34, 150, 72],
  blue: [30, 72, 190],
  yellow: [246, 206, 40],
  purple: [112, 46, 150],
  grey: [134, 134, 138],
  orange: [238, 118, 28],
  pink: [236, 120, 170],
  teal: [20, 140, 140],
  wood: [150, 100, 58],
};
const BODY_NAMES = [...Object.keys(BODIES), 'pastel', 'white', 'black', 'red'];
const PIPS: readonly Rgb[] = [
  [20, 20, 22], // black
  [246, 246, 242], // white
  [200, 30, 30], // red
  [245, 210, 40], // yellow
  [205, 165, 70], // gold
  [30, 60, 180], // blue
];

/** The six faces of a die in its own frame: outward normal and the two face axes (u × w = n). Order +x, -x, +y, -y, +z, -z. */
const FACES: ReadonlyArray<{ n: V3; u: V3; w: V3 }> = [
  { n: [1, 0, 0], u: [0, 1, 0], w: [0, 0, 1] },
  { n: [-1, 0, 0], u: [0, -1, 0], w: [0, 0, 1] },
  { n: [0, 1, 0], u: [-1, 0, 0], w: [0, 0, 1] },
  { n: [0, -1, 0], u: [1, 0, 0], w: [0, 0, 1] },
  { n: [0, 0, 1], u: [1, 0, 0], w: [0, 1, 0] },
  { n: [0, 0, -1], u: [0, 1, 0], w: [1, 0, 0] },
];
const TOP = 4;

// ---------------------------------------------------------------- small helpers

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);
const chance = (rng: SeededRandom, p: number): boolean => rng.next() < p;
const logRange = (rng: SeededRandom, lo: number, hi: number): number => Math.exp(rng.range(Math.log(lo), Math.log(hi)));
const shade = (c: Rgb, k: number): Rgb => [clamp(c[0] * k, 0, 255), clamp(c[1] * k, 0, 255), clamp(c[2] * k, 0, 255)];
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const luma = (c: Rgb): number => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
/**
 * The camera's exposure, colour cast and gamma, set for each scene. It is
 * applied to every colour as it is drawn rather than to the finished frame:
 * exact for flat colours, and three passes over the frame cheaper. (Shadows and
 * uneven light are multiplied into the floor after it, see `shadeFloor`; the
 * dice take the light in their colours.)
 */
let tone = (c: Rgb): Rgb => c;
const bgr = (c: Rgb): cv.Vec3 => {
  const t = tone(c);
  return new cv.Vec3(t[2], t[1], t[0]);
};
const grey = (v: number): cv.Vec3 => new cv.Vec3(v, v, v);
/** A Mat of one value. (The binding's constructor with a fill value sets the pixels one by one: 20 ms for a frame, against 0.3 for setTo.) */
const filled = (rows: number, cols: number, type: number, value: number | cv.Vec3): cv.Mat => new cv.Mat(rows, cols, type).setTo(value);
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function weighted<T>(rng: SeededRandom, items: ReadonlyArray<readonly [T, number]>): T {
  let r = rng.next() * items.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return (items[items.length - 1] as readonly [T, number])[0];
}

/** sRGB from hue (degrees), saturation and value (0..1). */
function hsv(h: number, s: number, v: number): Rgb {
  const c = v * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = v - c;
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

const jitter = (rng: SeededRandom, c: Rgb, by: number): Rgb => [
  clamp(c[0] + rng.range(-by, by), 0, 255),
  clamp(c[1] + rng.range(-by, by), 0, 255),
  clamp(c[2] + rng.range(-by, by), 0, 255),
];

/** Any floor colour: mostly mid tones of any hue, sometimes white or black. */
function floorColour(rng: SeededRandom): Rgb {
  const r = rng.next();
  if (r < 0.09) return hsv(rng.range(0, 360), rng.range(0, 0.08), rng.range(0.88, 1));
  if (r < 0.18) return hsv(rng.range(0, 360), rng.range(0, 0.3), rng.range(0.03, 0.14));
  return hsv(rng.range(0, 360), rng.range(0, 1) ** 1.3, rng.range(0.15, 0.95));
}

function woodColour(rng: SeededRandom): Rgb {
  return hsv(rng.range(16, 40), rng.range(0.35, 0.8), rng.range(0.22, 0.92));
}

function convexHull(points: V2[]): V2[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: V2, a: V2, b: V2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: V2[]): V2[] => {
    const out: V2[] = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2] as V2, out[out.length - 1] as V2, q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half(p.reverse())];
}

/** Whether two convex polygons overlap by more than `tol` px (touching is allowed). */
function overlaps(a: V2[], b: V2[], tol: number): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i] as V2;
      const q = poly[(i + 1) % poly.length] as V2;
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len < 1e-9) continue;
      const nx = (p[1] - q[1]) / len;
      const ny = (q[0] - p[0]) / len;
      let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
      for (const [x, y] of a) { const d = x * nx + y * ny; minA = Math.min(minA, d); maxA = Math.max(maxA, d); }
      for (const [x, y] of b) { const d = x * nx + y * ny; minB = Math.min(minB, d); maxB = Math.max(maxB, d); }
      if (maxA <= minB + tol || maxB <= minA + tol) return false;
    }
  }
  return true;
}

/**
 * Points for drawFillPoly with 4 fractional bits (shift 4), relative to (ox, oy):
 * sub-pixel edges even on 10 px dice. (Each point is an object for the binding
 * and for the garbage collector: make each polygon once.)
 */
const fixed = (list: V2[], ox = 0, oy = 0): cv.Point2[] => list.map(([x, y]) => new cv.Point2(Math.round((x - ox) * 16), Math.round((y - oy) * 16)));
/** drawFillPoly's offset for points made by `fixed`, drawn into a region of the frame starting at (x0, y0) (in the same 1/16 px). */
const regionOffset = (x0: number, y0: number): cv.Point2 => new cv.Point2(-16 * x0, -16 * y0);
/** (the binding takes no `undefined` for the offset) */
const NO_OFFSET = new cv.Point2(0, 0);

/** Rounded square of half-size `half` and corner radius `r` in face units, counter-clockwise. */
function roundedSquare(half: number, r: number, steps = 4): V2[] {
  const k = half - r;
  const out: V2[] = [];
  const corners: Array<[number, number, number]> = [[k, k, 0], [-k, k, 90], [-k, -k, 180], [k, -k, 270]];
  for (const [cx, cy, start] of corners) {
    for (let i = 0; i <= steps; i++) {
      const a = ((start + (90 * i) / steps) * Math.PI) / 180;
      out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
  }
  return out;
}

// ---------------------------------------------------------------- noise textures

const FIELD = 2048;
let field: cv.Mat | undefined;

/** A fixed field of unit-variance per-pixel noise, made once; scenes take seeded windows of it (fast, still seeded). */
function noiseField(): cv.Mat {
  if (field) return field;
  const rng = new SeededRandom(0x0f1e1d);
  const data = new Float32Array(FIELD * FIELD);
  // (triangular noise of unit variance: after blur and JPEG it passes for Gaussian)
  for (let i = 0; i < data.length; i++) data[i] = (rng.next() + rng.next() - 1) * Math.SQRT2 * Math.sqrt(3);
  field = new cv.Mat(Buffer.from(data.buffer), FIELD, FIELD, cv.CV_32F);
  return field;
}

const NOISE_LEVELS = 16;
let field8: cv.Mat | undefined;

/** The noise field as 8-bit BGR, σ NOISE_LEVELS about 128; the channels are the field flipped three ways (independent pixels). */
function noiseField8(): cv.Mat {
  if (field8) return field8;
  const f = noiseField();
  field8 = new cv.Mat([f, f.flip(0), f.flip(1)]).convertTo(cv.CV_8UC3, NOISE_LEVELS, 128);
  return field8;
}

/** w×h of per-pixel noise, σ 1, CV_32F (mirrored beyond 2048 px). */
function fineNoise(rng: SeededRandom, w: number, h: number): cv.Mat {
  const [fw, fh] = [Math.min(w, FIELD), Math.min(h, FIELD)];
  const window = noiseField().getRegion(new cv.Rect(rng.int(0, FIELD - fw), rng.int(0, FIELD - fh), fw, fh));
  const flip = rng.int(-1, 2);
  const noise = flip === 2 ? window.copy() : window.flip(flip);
  return fw === w && fh === h ? noise : noise.copyMakeBorder(0, h - fh, 0, w - fw, cv.BORDER_REFLECT);
}

/** rows×cols uniform [0, 1) values, CV_32F. */
function cells(rng: SeededRandom, rows: number, cols: number): cv.Mat {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = rng.next();
  return new cv.Mat(Buffer.from(data.buffer), rows, cols, cv.CV_32F);
}

/** Smooth noise: a cols×rows grid of random values stretched over w×h (a cheap stand-in for Perlin noise). */
function smooth(rng: SeededRandom, w: number, h: number, cols: number, rows: number): cv.Mat {
  return cells(rng, Math.max(2, Math.round(rows)), Math.max(2, Math.round(cols))).resize(new cv.Size(w, h), 0, 0, cv.INTER_CUBIC);
}

/** Sum of `octaves` smooth noises, each twice as fine and half as strong; about 0..1. */
function fractal(rng: SeededRandom, w: number, h: number, base: number, octaves: number): cv.Mat {
  // Summed at low resolution (the finest octave has far fewer cells than that), then stretched once.
  const k = Math.min(1, 256 / Math.max(w, h));
  const [sw, sh] = [Math.max(2, Math.round(w * k)), Math.max(2, Math.round(h * k))];
  let sum = smooth(rng, sw, sh, base * Math.max(1, w / h), base * Math.max(1, h / w));
  let weight = 1;
  let amp = 1;
  for (let o = 1; o < octaves; o++) {
    amp /= 2;
    const n = base * 2 ** o;
    sum = sum.addWeighted(1, smooth(rng, sw, sh, n * Math.max(1, w / h), n * Math.max(1, h / w)), amp, 0);
    weight += amp;
  }
  const scaled = sum.convertTo(cv.CV_32F, 1 / weight);
  return k === 1 ? scaled : scaled.resize(new cv.Size(w, h), 0, 0, cv.INTER_CUBIC);
}

/** Maps a 0..1 shade map to colours between c0 and c1 (extrapolating, then saturating, outside 0..1). BGR CV_8UC3. */
function colourize(t: cv.Mat, colour0: Rgb, colour1: Rgb): cv.Mat {
  const [c0, c1] = [tone(colour0), tone(colour1)];
  return new cv.Mat([2, 1, 0].map((i) => t.convertTo(cv.CV_8U, (c1[i] ?? 0) - (c0[i] ?? 0), c0[i] ?? 0)));
}

/** Clamps a CV_32F map to 0..1. */
const unit = (m: cv.Mat): cv.Mat => m.threshold(1, 1, cv.THRESH_TRUNC).threshold(0, 0, cv.THRESH_TOZERO);

/** The affine map that lays a cols×rows canvas, drawn along its own axes, over a w×h frame: turned by `angle` degrees about the centres and magnified `scale` times. */
function turnMatrix(cols: number, rows: number, w: number, h: number, angle: number, scale: number): number[][] {
  const a = (angle * Math.PI) / 180;
  const c = Math.cos(a) * scale;
  const s = Math.sin(a) * scale;
  const [cc, cr] = [cols / 2, rows / 2];
  return [[c, -s, w / 2 - c * cc + s * cr], [s, c, h / 2 - s * cc - c * cr]];
}

function turn(canvas: cv.Mat, w: number, h: number, angle: number, scale: number): cv.Mat {
  return canvas.warpAffine(new cv.Mat(turnMatrix(canvas.cols, canvas.rows, w, h, angle, scale), cv.CV_64F), new cv.Size(w, h), cv.INTER_LINEAR, cv.BORDER_REFLECT);
}

/**
 * A floor texture: an image, and the affine map `m` from its pixels to the
 * texture's (absent: the image is the texture). A turned texture stays a
 * canvas until it is laid in the frame, so that an oblique view needs one warp
 * (about 7 ms a frame), not two.
 */
interface Texture {
  image: cv.Mat;
  m?: number[][];
}

/** Textures are drawn at up to this many pixels and stretched to the frame: a floor's detail is coarser than that anyway, and the cost follows the area. */
const MAX_TEXTURE = 600_000;

/** A w×h texture, drawn at most MAX_TEXTURE px (`make` gets that size and the shrink factor) and stretched: by a resize, or inside its own warp. */
function atMost(w: number, h: number, make: (tw: number, th: number, k: number) => Texture): cv.Mat {
  const k = Math.min(1, Math.sqrt(MAX_TEXTURE / (w * h)));
  if (k === 1) return laid(make(w, h, 1), w, h);
  const [tw, th] = [Math.round(w * k), Math.round(h * k)];
  // (a warp costs by the pixels it writes: warp at the texture's size, then stretch)
  return laid(make(tw, th, k), tw, th).resize(new cv.Size(w, h), 0, 0, cv.INTER_LINEAR);
}

/** The texture as a w×h image. */
const laid = (t: Texture, w: number, h: number): cv.Mat =>
  t.m ? t.image.warpAffine(new cv.Mat(t.m, cv.CV_64F), new cv.Size(w, h), cv.INTER_LINEAR, cv.BORDER_REFLECT) : t.image;

/** A texture drawn square to its canvas, turned by `angle` (none for 0). */
const turned = (image: cv.Mat, w: number, h: number, angle: number, scale = 1): Texture =>
  angle === 0 && scale === 1 ? { image } : { image, m: turnMatrix(image.cols, image.rows, w, h, angle, scale) };

// ---------------------------------------------------------------- floors

type FloorKind = 'plain' | 'felt' | 'wood' | 'cloth' | 'board' | 'tiles' | 'stone';

/** A floor texture filling w×h, BGR CV_8UC3; `die` is the scene's die edge in px here (board marks are sized to it). */
function makeFloor(rng: SeededRandom, kind: FloorKind, w: number, h: number, die: number): Texture {
  switch (kind) {
    case 'plain': {
      const base = floorColour(rng);
      const drift = rng.range(0.02, 0.15);
      return { image: colourize(smooth(rng, w, h, rng.int(2, 4), rng.int(2, 4)), shade(base, 1 - drift), shade(base, 1 + drift)) };
    }
    case 'felt': {
      const base = floorColour(rng);
      const blot = rng.range(0.05, 0.35);
      let fibre = fineNoise(rng, w, h);
      if (chance(rng, 0.6)) fibre = fibre.gaussianBlur(new cv.Size(5, 5), rng.range(0.6, 1.3));
      const t = smooth(rng, w, h, rng.int(3, 10), rng.int(3, 10)).addWeighted(blot, fibre, rng.range(0.02, 0.09), 0.5 - blot / 2);
      return { image: colourize(t, shade(base, 0.6), shade(base, 1.4)) };
    }
    case 'wood':
      return woodFloor(rng, w, h);
    case 'cloth':
      return clothFloor(rng, w, h);
    case 'board':
      return { image: boardFloor(rng, w, h, die) };
    case 'tiles':
      return tileFloor(rng, w, h, die);
    case 'stone':
      return { image: stoneFloor(rng, w, h) };
  }
}

/** Wood: grain lines (noise stretched along one direction), planks, knots; pale pine to dark walnut. The grain runs along `angle` (0 or 90: no warp). */
function woodFloor(rng: SeededRandom, w: number, h: number, base: Rgb = woodColour(rng), angle = chance(rng, 0.5) ? rng.pick([0, 90]) : rng.range(0, 180)): Texture {
  const aligned = angle === 0 || angle === 90;
  // (a turned canvas is drawn at half size on big frames: the warp magnifies it for free)
  const scale = !aligned && w * h > 500_000 ? 2 : 1;
  const [cw, ch] = aligned ? (angle === 0 ? [w, h] : [h, w]) : canvasFor(w, h, angle, scale);
  // Rows vary fast (across the grain), columns slowly (along it).
  const pitch = rng.range(3, 14) / scale;
  const grain = cells(rng, Math.max(4, Math.round(ch / pitch)), rng.int(2, 6)).resize(new cv.Size(cw, ch), 0, 0, cv.INTER_CUBIC);
  const figure = smooth(rng, cw, ch, rng.int(2, 5), rng.int(5, 24));
  const fibres = cells(rng, Math.max(8, Math.round(ch / rng.range(1.2, 3))), rng.int(10, 40)).resize(new cv.Size(cw, ch), 0, 0, cv.INTER_LINEAR);
  const contrast = rng.range(0.6, 1.6);
  let t = figure.addWeighted(0.45, grain, 0.35, 0).addWeighted(1, fibres, 0.2, 0);
  t = t.convertTo(cv.CV_32F, contrast, 0.5 - contrast * 0.5);
  if (chance(rng, 0.6)) {
    // Planks: seams along the grain, butt joints across it.
    const plank = rng.range(60, 320) / scale;
    for (let y = rng.range(0, plank); y < ch; y += plank) {
      t.drawLine(new cv.Point2(0, Math.round(y)), new cv.Point2(cw, Math.round(y)), grey(-0.3), rng.int(1, 2));
      const joint = Math.round(rng.range(0, cw));
      t.drawLine(new cv.Point2(joint, Math.round(y)), new cv.Point2(joint, Math.round(y + plank)), grey(-0.2), 1);
    }
  }
  for (let k = rng.int(0, 3); k > 0; k--) {
    const centre = new cv.Point2(rng.range(0, cw), rng.range(0, ch));
    const r = rng.range(4, 30) / scale;
    for (let ring = 3; ring >= 1; ring--) {
      t.drawEllipse(new cv.RotatedRect(centre, new cv.Size(r * ring * 2.5, r * ring * 0.9), 0), grey(ring === 1 ? -0.3 : 0.15), ring === 1 ? -1 : 1);
    }
  }
  const image = colourize(t, shade(base, 0.55), shade(base, 1.3));
  if (angle === 90) return { image: image.transpose() };
  return turned(image, w, h, angle, scale);
}

/**
 * One repeat, side×side px, of stripes of the given values, each `width` px
 * (side a multiple of values.length × width): horizontal ones (varying down the
 * rows) or vertical.
 */
function stripeTile(values: number[], width: number, side: number, horizontal: boolean, nearest: boolean): cv.Mat {
  // One stripe more on each end, cut away again: the resize's edges are not periodic.
  const n = Math.round(side / width) + 2;
  const data = Buffer.from(Float32Array.from({ length: n }, (_, i) => values[(i - 1 + values.length) % values.length] ?? 0).buffer);
  const line = horizontal ? new cv.Mat(data, n, 1, cv.CV_32F) : new cv.Mat(data, 1, n, cv.CV_32F);
  const stretched = line.resize(horizontal ? new cv.Size(side, n * width) : new cv.Size(n * width, side), 0, 0, nearest ? cv.INTER_NEAREST : cv.INTER_LINEAR);
  return stretched.getRegion(horizontal ? new cv.Rect(0, width, side, side) : new cv.Rect(width, 0, side, side));
}

/** A canvas covering a w×h frame turned by `angle` degrees at `scale` (the frame itself when not turned). */
function canvasFor(w: number, h: number, angle: number, scale = 1): [number, number] {
  if (angle === 0 && scale === 1) return [w, h];
  const [c, s] = [Math.abs(Math.cos((angle * Math.PI) / 180)), Math.abs(Math.sin((angle * Math.PI) / 180))];
  return [Math.ceil((w * c + h * s) / scale) + 4, Math.ceil((w * s + h * c) / scale) + 4];
}

/** Repeats a tile over a w×h canvas. */
function tiled(tile: cv.Mat, w: number, h: number): cv.Mat {
  const grown = tile.copyMakeBorder(0, Math.max(0, h - tile.rows), 0, Math.max(0, w - tile.cols), cv.BORDER_WRAP);
  return grown.cols === w && grown.rows === h ? grown : grown.getRegion(new cv.Rect(0, 0, w, h));
}

/** Woven cloth: a fine two-direction weave, sometimes with plaid or gingham stripes; made as one repeat, tiled. */
function clothFloor(rng: SeededRandom, w: number, h: number): Texture {
  const angle = chance(rng, 0.5) ? 0 : rng.range(0, 90);
  const [cw, ch] = canvasFor(w, h, angle);
  const thread = rng.int(2, 6);
  const plaid = chance(rng, 0.5);
  const band = 2 * thread * (plaid ? rng.int(1, 8) : 4);
  const bands = plaid ? rng.int(2, 6) : 1;
  const side = band * bands;
  const weave = stripeTile([0, 1], thread, side, true, false).absdiff(stripeTile([0, 1], thread, side, false, false));
  let t = weave.convertTo(cv.CV_32F, rng.range(0.1, 0.35), 0.5);
  if (plaid) {
    const pattern = () => Array.from({ length: bands }, () => (rng.next() < 0.5 ? 0 : 1));
    const checks = stripeTile(pattern(), band, side, true, true).addWeighted(0.5, stripeTile(pattern(), band, side, false, true), 0.5, 0);
    t = t.addWeighted(1, checks, rng.range(0.3, 0.8), -0.25);
  }
  const base = floorColour(rng);
  const other = chance(rng, 0.5) ? floorColour(rng) : shade(base, 0.55);
  return turned(tiled(colourize(t.addWeighted(1, fineNoise(rng, side, side), 0.03, 0), other, base), cw, ch), w, h, angle);
}

/** A printed game board: coloured regions, tracks of spaces, thick lines, circles, pip-sized dots, die-sized light squares and text, all of which must not be taken for dice. */
function boardFloor(rng: SeededRandom, w: number, h: number, die: number): cv.Mat {
  const paper = chance(rng, 0.6) ? hsv(rng.range(20, 60), rng.range(0, 0.25), rng.range(0.8, 1)) : floorColour(rng);
  const img = colourize(smooth(rng, w, h, 3, 3), shade(paper, 0.95), shade(paper, 1.05));
  const colour = (): cv.Vec3 => bgr(hsv(rng.range(0, 360), rng.range(0.2, 1), rng.range(0.2, 1)));
  const at = (): V2 => [rng.range(0, w), rng.range(0, h)];
  const short = Math.min(w, h);
  for (let k = rng.int(1, 7); k > 0; k--) {
    const [cx, cy] = at();
    const r = rng.range(0.1, 0.5) * short;
    const n = rng.int(3, 8);
    const poly: V2[] = Array.from({ length: n }, (_, i) => {
      const a = ((i + rng.range(-0.3, 0.3)) / n) * 2 * Math.PI;
      const rr = r * rng.range(0.5, 1);
      return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
    });
    img.drawFillPoly([fixed(poly)], colour(), cv.LINE_AA, 4);
  }
  for (let k = rng.int(0, 2); k > 0; k--) {
    // A track of board spaces.
    const size = die * rng.range(0.9, 2.5);
    let [x, y] = at();
    let a = rng.range(0, 2 * Math.PI);
    const fill = [colour(), colour()];
    const line = bgr(shade(paper, 0.25));
    for (let i = rng.int(4, 14); i > 0; i--) {
      const sq = roundedSquare(0.5, 0.02, 1).map(([u, v]): V2 => [x + size * (u * Math.cos(a) - v * Math.sin(a)), y + size * (u * Math.sin(a) + v * Math.cos(a))]);
      img.drawFillPoly([fixed(sq)], fill[i % 2], cv.LINE_AA, 4);
      img.drawPolylines([fixed(sq)], true, line, rng.int(1, 3), cv.LINE_AA, 4);
      x += size * Math.cos(a);
      y += size * Math.sin(a);
      if (chance(rng, 0.2)) a += (Math.PI / 2) * (chance(rng, 0.5) ? 1 : -1);
    }
  }
  for (let k = rng.int(0, 6); k > 0; k--) {
    const [x0, y0] = at();
    const [x1, y1] = at();
    img.drawLine(new cv.Point2(x0, y0), new cv.Point2(x1, y1), colour(), rng.int(2, Math.max(3, Math.round(die * 0.15))), cv.LINE_AA);
  }
  for (let k = rng.int(0, 6); k > 0; k--) {
    const [x, y] = at();
    img.drawCircle(new cv.Point2(x, y), Math.max(2, Math.round(die * rng.range(0.3, 3))), colour(), chance(rng, 0.5) ? -1 : rng.int(2, 6), cv.LINE_AA);
  }
  for (let k = rng.int(0, 5); k > 0; k--) {
    // Pip-sized dots in rows or scattered.
    const r = Math.max(1, die * rng.range(0.05, 0.11));
    const dark = chance(rng, 0.7) ? bgr(hsv(rng.range(0, 360), rng.range(0, 0.5), rng.range(0, 0.2))) : colour();
    let [x, y] = at();
    const a = rng.range(0, 2 * Math.PI);
    const step = die * rng.range(0.25, 1.2);
    const row = chance(rng, 0.6);
    for (let i = rng.int(3, 14); i > 0; i--) {
      img.drawEllipse(new cv.RotatedRect(new cv.Point2(x, y), new cv.Size(2 * r, 2 * r), 0), dark, -1, cv.LINE_AA);
      if (row) {
        x += step * Math.cos(a);
        y += step * Math.sin(a);
      } else {
        [x, y] = [x + rng.range(-2, 2) * step, y + rng.range(-2, 2) * step];
      }
    }
  }
  for (let k = rng.int(0, 8); k > 0; k--) {
    // Light squares the size of a die.
    const size = die * rng.range(0.8, 1.2);
    const [x, y] = at();
    const a = rng.range(0, Math.PI / 2);
    const sq = roundedSquare(0.5, rng.range(0.02, 0.2)).map(([u, v]): V2 => [x + size * (u * Math.cos(a) - v * Math.sin(a)), y + size * (u * Math.sin(a) + v * Math.cos(a))]);
    img.drawFillPoly([fixed(sq)], bgr(hsv(rng.range(0, 360), rng.range(0, 0.15), rng.range(0.85, 1))), cv.LINE_AA, 4);
    if (chance(rng, 0.5)) img.drawPolylines([fixed(sq)], true, bgr(shade(paper, 0.3)), 1, cv.LINE_AA, 4);
  }
  const glyphs = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789+-$%&';
  const fonts = [cv.FONT_HERSHEY_SIMPLEX, cv.FONT_HERSHEY_DUPLEX, cv.FONT_HERSHEY_COMPLEX, cv.FONT_HERSHEY_TRIPLEX, cv.FONT_HERSHEY_SCRIPT_SIMPLEX];
  for (let k = rng.int(0, 10); k > 0; k--) {
    const text = Array.from({ length: rng.int(1, 12) }, () => glyphs[rng.int(0, glyphs.length - 1)]).join('');
    const [x, y] = at();
    const px = die * rng.range(0.15, 0.8);
    img.putText(text, new cv.Point2(x, y), rng.pick(fonts), Math.max(0.3, px / 22), chance(rng, 0.7) ? bgr(shade(paper, 0.2)) : colour(), rng.int(1, 3), cv.LINE_AA);
  }
  return img;
}

/** Tiles or a grid: square tiles, sometimes a checkerboard, with grout lines; a repeat of a few tiles, tiled. */
function tileFloor(rng: SeededRandom, w: number, h: number, die: number): Texture {
  const pitch = Math.max(6, Math.round(rng.range(Math.max(12, die * 0.6), Math.max(40, die * 4))));
  const angle = chance(rng, 0.4) ? 0 : rng.range(0, 90);
  const [cw, ch] = canvasFor(w, h, angle);
  const checker = chance(rng, 0.35);
  const n = 2 * rng.int(2, 4);
  const spread = rng.range(0, 0.25);
  const data = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) data[i] = (checker ? ((Math.floor(i / n) + (i % n)) % 2) * 0.8 + 0.1 : 0.5) + (rng.next() - 0.5) * spread;
  const side = n * pitch;
  const t = new cv.Mat(Buffer.from(data.buffer), n, n, cv.CV_32F).resize(new cv.Size(side, side), 0, 0, cv.INTER_NEAREST);
  const groutValue = chance(rng, 0.5) ? -0.5 : 1.5;
  const grout = rng.int(1, Math.max(1, Math.round(pitch / 12)));
  // (the lines on the repeat's two edges are half lines each: tiled, they join)
  for (let i = 0; i <= n; i++) {
    const at = i * pitch;
    t.drawLine(new cv.Point2(at, 0), new cv.Point2(at, side), grey(groutValue), grout);
    t.drawLine(new cv.Point2(0, at), new cv.Point2(side, at), grey(groutValue), grout);
  }
  const base = floorColour(rng);
  const other = checker ? floorColour(rng) : shade(base, rng.range(0.6, 0.9));
  const tile = colourize(t.addWeighted(1, fineNoise(rng, side, side), 0.02, 0), other, base);
  return turned(tiled(tile, cw, ch), w, h, angle);
}

/** Marble (veins through clouds) or granite (specks). */
function stoneFloor(rng: SeededRandom, w: number, h: number): cv.Mat {
  const clouds = fractal(rng, w, h, rng.int(2, 5), 4);
  let t: cv.Mat;
  if (chance(rng, 0.6)) {
    const k = rng.range(6, 22);
    const vein = unit(fractal(rng, w, h, rng.int(2, 4), 4).convertTo(cv.CV_32F, 1, -0.5).abs().convertTo(cv.CV_32F, -k, 1));
    t = clouds.addWeighted(0.5, vein, rng.range(-0.6, 0.5), 0.25);
  } else {
    const speck = fineNoise(rng, w, h).gaussianBlur(new cv.Size(5, 5), rng.range(0.6, 1.5));
    t = clouds.addWeighted(0.4, speck, rng.range(0.3, 0.6), 0.3);
  }
  const base = chance(rng, 0.6) ? hsv(rng.range(0, 60), rng.range(0, 0.2), rng.range(0.3, 0.95)) : floorColour(rng);
  return colourize(t, shade(base, 0.5), shade(base, 1.2));
}

// ---------------------------------------------------------------- camera geometry

/** A camera tilted `phi` from straight down, at distance `d` from the floor centre, turned `psi` about its axis. */
interface Camera {
  w: number;
  h: number;
  d: number;
  sinPhi: number;
  cosPhi: number;
  sinPsi: number;
  cosPsi: number;
}

/** Floor point (x, y, height z) to frame pixels. The floor's origin is the frame centre; at z = 0 and phi = 0 one unit is one pixel. */
function project(cam: Camera, p: V3): V2 {
  const k = cam.d / (cam.d - (p[1] * cam.sinPhi + p[2] * cam.cosPhi));
  const a = p[0] * k;
  const b = (p[1] * cam.cosPhi - p[2] * cam.sinPhi) * k;
  return [cam.w / 2 + a * cam.cosPsi - b * cam.sinPsi, cam.h / 2 + a * cam.sinPsi + b * cam.cosPsi];
}

/** Frame pixel to the floor point (z = 0) seen there. */
function unproject(cam: Camera, u: number, v: number): V2 {
  const du = u - cam.w / 2;
  const dv = v - cam.h / 2;
  const a = du * cam.cosPsi + dv * cam.sinPsi;
  const b = -du * cam.sinPsi + dv * cam.cosPsi;
  const y = (b * cam.d) / (cam.d * cam.cosPhi + b * cam.sinPhi);
  return [(a * (cam.d - y * cam.sinPhi)) / cam.d, y];
}

/** How many px one floor unit spans at this point (perspective scale, without foreshortening). */
const scaleAt = (cam: Camera, p: V3): number => cam.d / (cam.d - (p[1] * cam.sinPhi + p[2] * cam.cosPhi));

// ---------------------------------------------------------------- dice

interface Look {
  body: Rgb;
  /** Second colour swirled through the body (marbled dice). */
  swirl?: Rgb;
  /** 1 opaque; less lets the floor through the body (translucent dice); pips stay opaque. */
  opacity: number;
  pip: Rgb;
  /** Corner radius and the width of the rounded edge round each face, shares of the edge. */
  corner: number;
  bevel: number;
  pipRadius: number;
  /** Offset of the outer pips from the face centre (0.27 standard). */
  spread: number;
  emblem: 'none' | 'ring' | 'star';
  emblemColour: Rgb;
  /** Brightness of the rounded edges against the faces. */
  edge: number;
  /** Soft highlight on the top face, 8-bit levels. */
  gloss: number;
}

function randomLook(rng: SeededRandom, white: boolean): Look {
  const name = white ? 'white' : rng.pick(BODY_NAMES);
  const body = name === 'pastel' ? hsv(rng.range(0, 360), rng.range(0.15, 0.4), rng.range(0.85, 1)) : jitter(rng, BODIES[name] ?? [240, 240, 236], 14);
  const contrasting = PIPS.filter((p) => Math.abs(luma(p) - luma(body)) > 70);
  const pipChoices = contrasting.length > 0 ? contrasting : PIPS;
  // Black and white pips are the most common.
  const plain = pipChoices.filter((p) => p === PIPS[0] || p === PIPS[1]);
  const pip = jitter(rng, plain.length > 0 && chance(rng, 0.7) ? rng.pick(plain) : rng.pick(pipChoices), 10);
  const marbled = chance(rng, 0.15);
  return {
    body,
    ...(marbled ? { swirl: chance(rng, 0.5) ? shade(body, rng.range(0.3, 0.6)) : hsv(rng.range(0, 360), rng.range(0, 1), rng.range(0.2, 1)) } : {}),
    opacity: chance(rng, 0.1) ? rng.range(0.4, 0.7) : 1,
    pip,
    corner: rng.range(0.05, 0.3),
    bevel: rng.range(0.02, 0.07),
    pipRadius: rng.range(0.06, 0.11),
    spread: rng.range(0.24, 0.29),
    emblem: chance(rng, 0.1) ? (chance(rng, 0.5) ? 'ring' : 'star') : 'none',
    emblemColour: chance(rng, 0.5) ? pip : rng.pick(PIPS),
    edge: chance(rng, 0.8) ? rng.range(0.68, 0.92) : rng.range(1.05, 1.2),
    gloss: chance(rng, 0.6) ? rng.range(5, 40) : 0,
  };
}

interface Die {
  /** Floor position of the base centre, height of the base above the floor, edge. */
  x: number;
  y: number;
  z0: number;
  s: number;
  /** Degrees about the vertical; tilt about the die's own x axis (cocked dice). */
  yaw: number;
  tilt: number;
  /** Values on the faces in FACES order, and the quarter turns of their pip layouts. */
  values: number[];
  turns: number[];
  look: Look;
  flat: boolean;
  /** The die this one lies on. */
  base?: Die;
}

/** Face values of a real die with `top` up: opposite faces sum to 7, and 1-2-3 run the right way round their corner. */
function faceValues(rng: SeededRandom, top: number): number[] {
  const a = rng.pick([1, 2, 3, 4, 5, 6].filter((v) => v !== top && v !== 7 - top));
  const b = rng.pick([1, 2, 3, 4, 5, 6].filter((v) => v !== top && v !== 7 - top && v !== a && v !== 7 - a));
  const values = [a, 7 - a, b, 7 - b, top, 7 - top];
  const normal = (v: number): V3 => FACES[values.indexOf(v)]?.n ?? [0, 0, 1];
  const [n1, n2, n3] = [normal(1), normal(2), normal(3)];
  const det = dot(n1, [n2[1] * n3[2] - n2[2] * n3[1], n2[2] * n3[0] - n2[0] * n3[2], n2[0] * n3[1] - n2[1] * n3[0]]);
  // The frame's y axis points down the picture, so a die that looks right has det < 0 here.
  if (det > 0) [values[2], values[3]] = [7 - b, b];
  return values;
}

/** Rotation Rz(yaw)·Rx(tilt), row-major. */
function rotation(d: Die): number[] {
  const y = (d.yaw * Math.PI) / 180;
  const t = (d.tilt * Math.PI) / 180;
  const [cz, sz, cx, sx] = [Math.cos(y), Math.sin(y), Math.cos(t), Math.sin(t)];
  return [cz, -sz * cx, sz * sx, sz, cz * cx, -cz * sx, 0, sx, cx];
}
const turnVec = (r: number[], v: V3): V3 => [
  (r[0] ?? 0) * v[0] + (r[1] ?? 0) * v[1] + (r[2] ?? 0) * v[2],
  (r[3] ?? 0) * v[0] + (r[4] ?? 0) * v[1] + (r[5] ?? 0) * v[2],
  (r[6] ?? 0) * v[0] + (r[7] ?? 0) * v[1] + (r[8] ?? 0) * v[2],
];

/** Centre of the cube: lifted so its lowest corner or edge rests on what is under it. */
function centre(d: Die): V3 {
  const t = (d.tilt * Math.PI) / 180;
  return [d.x, d.y, d.z0 + (d.s / 2) * (Math.cos(t) + Math.sin(t))];
}

function corners(d: Die): V3[] {
  const r = rotation(d);
  const c = centre(d);
  const out: V3[] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    const v = turnVec(r, [(sx * d.s) / 2, (sy * d.s) / 2, (sz * d.s) / 2]);
    out.push([c[0] + v[0], c[1] + v[1], c[2] + v[2]]);
  }
  return out;
}

const footprint = (d: Die): V2[] => convexHull(corners(d).map(([x, y]): V2 => [x, y]));
const outline = (cam: Camera, d: Die): V2[] => convexHull(corners(d).map((p) => project(cam, p)));

// ---------------------------------------------------------------- scene

interface Light {
  /** Unit vector towards the light. */
  dir: V3;
  ambient: number;
}

/** A region of the frame dice may lie in (inside a rim or bowl). */
type Allowed = (u: number, v: number) => boolean;

interface Built extends FinderScene {
  jpeg: Buffer;
}

function frameSize(rng: SeededRandom): [number, number] {
  const aspect = rng.pick([1, 4 / 3, 3 / 2, 16 / 9]);
  const long = Math.round(rng.range(320, 1600));
  const short = Math.round(long / aspect);
  return chance(rng, 0.25) ? [short, long] : [long, short];
}

/** One scene for a seed: the same seed always gives the same image and labels. */
export function finderScene(seed: number): FinderScene {
  const { image, dice } = buildScene(seed);
  return { image, dice };
}

function buildScene(seed: number): Built {
  const rng = new SeededRandom(seed);
  const [w, h] = frameSize(rng);
  const short = Math.min(w, h);
  const diag = Math.hypot(w, h);

  // Dice sizes: one size for most, sometimes a mix with some 1.4x bigger.
  const mixed = chance(rng, 0.2);
  const maxEdge = Math.min(260, 0.45 * short) / 1.15 / (mixed ? 1.4 : 1);
  const edge = logRange(rng, Math.min(10, maxEdge), maxEdge);
  const spreadSize = chance(rng, 0.7) ? 0.15 : 0.04;

  const oblique = chance(rng, 0.35);
  const phi = ((oblique ? rng.range(15, 55) : rng.range(0, 4)) * Math.PI) / 180;
  // (photos are mostly taken upright: the far side at the top, give or take)
  const psi = ((chance(rng, 0.7) ? rng.range(-35, 35) : rng.range(0, 360)) * Math.PI) / 180;
  const cam: Camera = {
    w,
    h,
    d: diag * (oblique ? rng.range(1.3, 4) : rng.range(2.5, 10)),
    sinPhi: Math.sin(phi),
    cosPhi: Math.cos(phi),
    sinPsi: Math.sin(psi),
    cosPsi: Math.cos(psi),
  };
  const azimuth = rng.range(0, 2 * Math.PI);
  const elevation = (rng.range(30, 80) * Math.PI) / 180;
  const light: Light = {
    dir: [Math.cos(elevation) * Math.cos(azimuth), Math.cos(elevation) * Math.sin(azimuth), Math.sin(elevation)],
    ambient: rng.range(0.3, 0.6),
  };

  // Floor, laid on the floor plane and seen through the camera when it is tilted.
  const kind = weighted<FloorKind | 'bowl'>(rng, [['plain', 0.1], ['felt', 0.18], ['wood', 0.16], ['cloth', 0.13], ['board', 0.14], ['tiles', 0.1], ['stone', 0.1], ['bowl', 0.09]]);
  // The camera's exposure, colour cast and gamma, applied to colours as they are drawn.
  const brightness = rng.range(0.45, 1.3);
  const gains = [rng.range(0.85, 1.15), rng.range(0.85, 1.15), rng.range(0.85, 1.15)];
  const gamma = rng.range(0.7, 1.4);
  tone = (c) => [0, 1, 2].map((i) => 255 * clamp(((c[i] ?? 0) / 255) * brightness * (gains[i] ?? 1), 0, 1) ** gamma) as unknown as Rgb;
  const floor = seenFloor(rng, cam, kind === 'bowl' ? (chance(rng, 0.5) ? 'cloth' : 'felt') : kind, edge);
  // Shadows are drawn at 1/shadowScale size, coarse enough that their blur stays a few pixels wide.
  const softness = edge * rng.range(0.04, 0.2);
  const shadowScale = clamp(Math.floor(softness / 2.5), 1, 16);
  const shadows = filled(Math.ceil(h / shadowScale), Math.ceil(w / shadowScale), cv.CV_8UC1, 0);
  let allowed: Allowed = () => true;
  let openEdges = [true, true, true, true];
  if (kind === 'bowl') allowed = drawBowl(rng, floor, shadows, shadowScale, cam, edge);
  else if (chance(rng, 0.2)) ({ allowed, openEdges } = drawRim(rng, floor, shadows, shadowScale, cam, edge));

  // Looks: one set for all dice, a few sets, or every die its own.
  const whiteOnWhite = luma(sampleColour(floor)) > 0.85 * luma(tone([255, 255, 255])) && chance(rng, 0.5);
  const sets = weighted(rng, [[1, 0.45], [2, 0.15], [3, 0.1], [0, 0.3]]);
  const looks = Array.from({ length: Math.max(sets, 1) }, () => randomLook(rng, whiteOnWhite));
  const lookFor = (): Look => (sets === 0 ? randomLook(rng, whiteOnWhite && chance(rng, 0.5)) : rng.pick(looks));

  const dice = placeDice(rng, cam, allowed, openEdges, edge, mixed, spreadSize, lookFor);

  // Shadows and uneven light shade the floor; the dice, far ones first, take the light in their colours.
  drawShadows(cam, light, shadows, shadowScale, dice, softness);
  const lightAt = unevenLight(rng, w, h);
  const frame = shadeFloor(floor, shadows, lightAt, rng.range(0.2, 0.6));
  const labels = filled(h, w, cv.CV_8UC1, 0);
  const depth = (d: Die) => { const c = centre(d); return c[1] * cam.sinPhi + c[2] * cam.cosPhi; };
  const order = dice.map((_, i) => i).sort((a, b) => depth(dice[a] as Die) - depth(dice[b] as Die));
  for (const i of order) {
    const d = dice[i] as Die;
    const [u, v] = project(cam, centre(d));
    // (colours go through `tone`, gamma included: this makes the die's light the floor's there)
    drawDie(rng, frame, labels, cam, light, lightAt(clamp(u, 0, w), clamp(v, 0, h)) ** (1 / gamma), d, i + 1);
  }

  const listed: SceneDie[] = [];
  dice.forEach((d, i) => {
    const box = visibleBox(labels, i + 1, outline(cam, d));
    if (!box) return;
    const c = centre(d);
    const up = turnVec(rotation(d), [0, 0, d.s / 2]);
    const topCentre: V3 = [c[0] + up[0], c[1] + up[1], c[2] + up[2]];
    const [tx, ty] = project(cam, topCentre);
    const round1 = (v: number) => Math.round(v * 10) / 10;
    listed.push({ value: d.values[TOP] ?? 0, box, top: { x: round1(tx), y: round1(ty), size: round1(d.s * scaleAt(cam, topCentre)) }, flat: d.flat });
  });

  const jpeg = cv.imencode('.jpg', camera(rng, frame), [cv.IMWRITE_JPEG_QUALITY, rng.int(30, 95)]);
  return { image: cv.imdecode(jpeg), dice: listed, jpeg };
}

/** Mean colour of a floor (RGB), to see whether it is white. */
function sampleColour(img: cv.Mat): Rgb {
  const m = img.resize(new cv.Size(24, 24), 0, 0, cv.INTER_NEAREST).mean();
  return [m.z, m.y, m.x];
}

/** The floor texture as the camera sees it: drawn on the floor plane and warped into the frame when the view is oblique. */
function seenFloor(rng: SeededRandom, cam: Camera, kind: FloorKind, edge: number): cv.Mat {
  const { w, h } = cam;
  if (cam.sinPhi < Math.sin((6 * Math.PI) / 180)) return atMost(w, h, (tw, th, k) => makeFloor(rng, kind, tw, th, edge * k));
  const frameCorners: V2[] = [[0, 0], [w, 0], [w, h], [0, h]];
  const onFloor = frameCorners.map(([u, v]) => unproject(cam, u, v));
  const xs = onFloor.map((p) => p[0]);
  const ys = onFloor.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const [fw, fh] = [Math.max(...xs) - x0, Math.max(...ys) - y0];
  // Texture pixels per floor unit: keep the texture about the frame's size (it is softer where magnified).
  // (and within the noise field's size)
  const per = Math.min(1, Math.sqrt(Math.min(w * h, MAX_TEXTURE) / (fw * fh)), (FIELD - 2) / fw, (FIELD - 2) / fh);
  const tw = Math.ceil(fw * per) + 2;
  const th = Math.ceil(fh * per) + 2;
  const texture = makeFloor(rng, kind, tw, th, edge * per);
  const src = onFloor.map(([x, y]) => new cv.Point2((x - x0) * per, (y - y0) * per));
  const toFrame = cv.getPerspectiveTransform(src, frameCorners.map(([u, v]) => new cv.Point2(u, v))).getDataAsArray();
  // Texture to frame, after the canvas to texture map: one warp.
  const [a, b] = texture.m ?? [[1, 0, 0], [0, 1, 0]];
  const m = [a ?? [1, 0, 0], b ?? [0, 1, 0], [0, 0, 1]];
  // (warped into a frame of at most MAX_TEXTURE px, then stretched: the texture has no finer detail)
  const k = Math.min(1, Math.sqrt(MAX_TEXTURE / (w * h)));
  const [ow, oh] = [Math.round(w * k), Math.round(h * k)];
  const shrink = [[ow / w, 0, 0], [0, oh / h, 0], [0, 0, 1]];
  const times = (p: number[][], q: number[][]) => p.map((row) => [0, 1, 2].map((j) => row.reduce((sum, v, i) => sum + v * (q[i]?.[j] ?? 0), 0)));
  const warped = texture.image.warpPerspective(new cv.Mat(times(shrink, times(toFrame, m)), cv.CV_64F), new cv.Size(ow, oh), cv.INTER_LINEAR, cv.BORDER_REFLECT);
  return k === 1 ? warped : warped.resize(new cv.Size(w, h), 0, 0, cv.INTER_LINEAR);
}

/** A dark or wooden tray rim along 1-4 edges of the frame; dice stay inside it. */
function drawRim(rng: SeededRandom, frame: cv.Mat, shadows: cv.Mat, shadowScale: number, cam: Camera, edge: number): { allowed: Allowed; openEdges: boolean[] } {
  const { w, h } = cam;
  const short = Math.min(w, h);
  // Which sides (a seeded shuffle) and how many.
  const sides = [0, 1, 2, 3];
  for (let i = sides.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [sides[i], sides[j]] = [sides[j] as number, sides[i] as number];
  }
  const chosen = sides.slice(0, rng.int(1, 4));
  const wooden = chance(rng, 0.5);
  const colour = wooden ? woodColour(rng) : shade(floorColour(rng), rng.range(0.1, 0.5));
  const grain = chosen[0] === 0 || chosen[0] === 2 ? 0 : 90;
  const texture = atMost(w, h, (tw, th) => (wooden ? woodFloor(rng, tw, th, colour, grain) : { image: colourize(smooth(rng, tw, th, 3, 3), shade(colour, 0.85), shade(colour, 1.15)) }));
  const mask = filled(h, w, cv.CV_8UC1, 0);
  const lip = bgr(shade(colour, rng.range(1.3, 2)));
  const lines: Array<[V2, V2]> = [];
  for (const side of chosen) {
    const a = short * rng.range(0.03, 0.12);
    const b = a * rng.range(0.85, 1.15);
    // Inner boundary from p to q; the rim lies outside it.
    const [p, q, poly]: [V2, V2, V2[]] =
      side === 0 ? [[0, a], [w, b], [[0, 0], [w, 0], [w, b], [0, a]]]
      : side === 1 ? [[w - a, 0], [w - b, h], [[w, 0], [w, h], [w - b, h], [w - a, 0]]]
      : side === 2 ? [[0, h - a], [w, h - b], [[0, h], [w, h], [w, h - b], [0, h - a]]]
      : [[a, 0], [b, h], [[0, 0], [0, h], [b, h], [a, 0]]];
    mask.drawFillPoly([fixed(poly)], grey(255), cv.LINE_AA, 4);
    lines.push([p, q]);
  }
  texture.copyTo(frame, mask.threshold(127, 255, cv.THRESH_BINARY));
  for (const [p, q] of lines) {
    frame.drawLine(new cv.Point2(p[0], p[1]), new cv.Point2(q[0], q[1]), lip, rng.int(1, 3), cv.LINE_AA);
    shadows.drawLine(new cv.Point2(p[0] / shadowScale, p[1] / shadowScale), new cv.Point2(q[0] / shadowScale, q[1] / shadowScale), grey(255), Math.max(1, Math.round((edge * 0.15) / shadowScale)), cv.LINE_AA);
  }
  const centreSide = (u: number, v: number) => lines.every(([p, q]) => {
    const cross = (x: number, y: number) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    return Math.sign(cross(u, v)) === Math.sign(cross(w / 2, h / 2));
  });
  return { allowed: centreSide, openEdges: [0, 1, 2, 3].map((s) => !chosen.includes(s)) };
}

/** A wooden bowl (a big ellipse) on cloth; dice lie in it. */
function drawBowl(rng: SeededRandom, frame: cv.Mat, shadows: cv.Mat, shadowScale: number, cam: Camera, edge: number): Allowed {
  const { w, h } = cam;
  const woodBase = woodColour(rng);
  const grain = rng.pick([0, 90]);
  const wood = atMost(w, h, (tw, th) => woodFloor(rng, tw, th, woodBase, grain));
  const cx = w * rng.range(0.4, 0.6);
  const cy = h * rng.range(0.4, 0.6);
  const ax = w * rng.range(0.38, 0.6);
  const ay = h * rng.range(0.38, 0.6);
  const angle = rng.range(-15, 15);
  const rim = Math.max(3, Math.min(ax, ay) * rng.range(0.04, 0.09));
  const ellipse = (k: number) => new cv.RotatedRect(new cv.Point2(cx, cy), new cv.Size(2 * ax + k, 2 * ay + k), angle);
  const mask = filled(h, w, cv.CV_8UC1, 0);
  mask.drawEllipse(ellipse(0), grey(255), -1, cv.LINE_8);
  wood.copyTo(frame, mask);
  frame.drawEllipse(ellipse(-rim), bgr(shade(woodBase, 0.65)), Math.round(rim), cv.LINE_AA);
  frame.drawEllipse(ellipse(0), bgr(shade(woodBase, 1.35)), Math.max(1, Math.round(rim * 0.5)), cv.LINE_AA);
  // The bowl's wall shades the floor inside it, and the bowl shades the cloth outside.
  const low = (k: number) => new cv.RotatedRect(new cv.Point2(cx / shadowScale, cy / shadowScale), new cv.Size((2 * ax + k) / shadowScale, (2 * ay + k) / shadowScale), angle);
  shadows.drawEllipse(low(-3 * rim), grey(200), Math.max(1, Math.round((rim * 1.5) / shadowScale)), cv.LINE_AA);
  shadows.drawEllipse(low(rim + edge * 0.1), grey(255), Math.max(1, Math.round((edge * 0.15) / shadowScale)), cv.LINE_AA);
  const a = (angle * Math.PI) / 180;
  const ix = ax - 2 * rim;
  const iy = ay - 2 * rim;
  return (u, v) => {
    const du = u - cx;
    const dv = v - cy;
    const x = du * Math.cos(a) + dv * Math.sin(a);
    const y = -du * Math.sin(a) + dv * Math.cos(a);
    return (x / ix) ** 2 + (y / iy) ** 2 <= 1;
  };
}

/** Throws the dice: random, in touching rows and clusters, cut by the frame's edge, cocked, stacked; none overlapping another. */
function placeDice(rng: SeededRandom, cam: Camera, allowed: Allowed, openEdges: boolean[], edge: number, mixed: boolean, spreadSize: number, lookFor: () => Look): Die[] {
  const { w, h } = cam;
  let count = chance(rng, 0.05) ? 0 : rng.int(1, 30);
  // (no more than fit comfortably)
  count = Math.min(count, Math.max(1, Math.floor((0.3 * w * h) / (edge * edge * (mixed ? 1.6 : 1)))));
  const clustered = chance(rng, 0.4);
  const clusterShare = rng.range(0.4, 0.9);
  const cutWanted = chance(rng, 0.3) ? rng.int(1, 2) : 0;
  const stacked = count >= 2 && chance(rng, 0.08) ? 1 : 0;
  const dice: Die[] = [];
  const prints: V2[][] = [];
  let cut = 0;

  const fits = (d: Die, asCut: boolean, ignore?: Die): boolean => {
    const shape = outline(cam, d);
    const inFrame = shape.every(([u, v]) => u >= 1 && v >= 1 && u <= w - 1 && v <= h - 1);
    if (asCut) {
      const [cu, cv0] = project(cam, centre(d));
      if (inFrame || cu < 0 || cv0 < 0 || cu > w || cv0 > h) return false;
      const edgesCrossed = [shape.some((p) => p[1] < 1), shape.some((p) => p[0] > w - 1), shape.some((p) => p[1] > h - 1), shape.some((p) => p[0] < 1)];
      if (edgesCrossed.some((crossed, i) => crossed && !openEdges[i])) return false;
      if (!shape.every(([u, v]) => allowed(clamp(u, 0, w), clamp(v, 0, h)))) return false;
    } else if (!inFrame || !shape.every(([u, v]) => allowed(u, v))) return false;
    const print = footprint(d);
    return dice.every((other, i) => other === ignore || other.base === d || !overlaps(print, prints[i] as V2[], 0.3));
  };

  const newDie = (x: number, y: number, s: number, yaw: number, tilt: number): Die => {
    const top = rng.int(1, 6);
    return { x, y, z0: 0, s, yaw, tilt, values: faceValues(rng, top), turns: FACES.map(() => rng.int(0, 3)), look: lookFor(), flat: tilt === 0 };
  };

  for (let tries = 0; dice.length < count - stacked && tries < count * 60; tries++) {
    const s = edge * (mixed && chance(rng, 0.35) ? 1.4 : 1) * rng.range(1 - spreadSize, 1 + spreadSize);
    const anchors = dice.filter((d) => d.tilt === 0);
    let d: Die;
    const asCut = cut < cutWanted && chance(rng, 0.5);
    if (clustered && !asCut && anchors.length > 0 && chance(rng, clusterShare)) {
      // Next to another die, edge to edge: rows and clusters.
      const a = rng.pick(anchors);
      const side = rng.int(0, 3);
      const along = ((a.s + s) / 2) * (1 + rng.range(0.003, 0.04));
      const across = chance(rng, 0.6) ? 0 : rng.range(-0.5, 0.5) * Math.min(s, a.s);
      const [ox, oy] = side === 0 ? [along, across] : side === 1 ? [-along, across] : side === 2 ? [across, along] : [across, -along];
      const r = (a.yaw * Math.PI) / 180;
      d = newDie(a.x + ox * Math.cos(r) - oy * Math.sin(r), a.y + ox * Math.sin(r) + oy * Math.cos(r), s, a.yaw + (chance(rng, 0.5) ? 0 : rng.range(-1.5, 1.5)), 0);
    } else {
      let u = rng.range(0, w);
      let v = rng.range(0, h);
      if (asCut) {
        // Centre just inside one open edge.
        const open = [0, 1, 2, 3].filter((i) => openEdges[i]);
        if (open.length === 0) continue;
        const side = rng.pick(open);
        const inset = s * rng.range(0.1, 0.45);
        if (side === 0) v = inset;
        else if (side === 1) u = w - inset;
        else if (side === 2) v = h - inset;
        else u = inset;
      }
      const [x, y] = unproject(cam, u, v);
      d = newDie(x, y, s, rng.range(0, 360), !asCut && chance(rng, 0.06) ? rng.range(20, 44) : 0);
    }
    if (!fits(d, asCut)) continue;
    if (asCut) cut++;
    dice.push(d);
    prints.push(footprint(d));
  }

  if (stacked) {
    const bases = dice.filter((d) => d.tilt === 0 && d.z0 === 0);
    for (let tries = 0; tries < 30 && bases.length > 0; tries++) {
      const base = rng.pick(bases);
      const off = rng.range(0, 0.3) * base.s;
      const dir = rng.range(0, 2 * Math.PI);
      const upper: Die = { ...newDie(base.x + off * Math.cos(dir), base.y + off * Math.sin(dir), base.s * rng.range(0.9, 1), rng.range(0, 360), 0), z0: base.s, flat: false, base };
      if (!fits(upper, false, base)) continue;
      dice.push(upper);
      prints.push(footprint(upper));
      break;
    }
  }
  return dice;
}

/** Soft shadows: each die's outline cast along the light onto the floor, into a low-resolution mask, then blurred. */
function drawShadows(cam: Camera, light: Light, mask: cv.Mat, scale: number, dice: Die[], softness: number): void {
  const [lx, ly, lz] = light.dir;
  for (const d of dice) {
    const cast = corners(d).map(([x, y, z]) => project(cam, [x - (lx * z) / lz, y - (ly * z) / lz, 0]));
    const base = d.base ? [] : corners(d).map(([x, y]) => project(cam, [x, y, 0]));
    const poly = convexHull([...cast, ...base]).map(([u, v]): V2 => [u / scale, v / scale]);
    mask.drawFillPoly([fixed(poly)], grey(255), cv.LINE_AA, 4);
  }
  const sigma = Math.max(0.8, softness / scale);
  const k = 2 * Math.ceil(3 * sigma) + 1;
  mask.gaussianBlur(new cv.Size(k, k), sigma).copyTo(mask);
}

/** Brightness of a face with world normal `n` against a face lying flat: Lambert with ambient light. */
function faceLight(light: Light, n: V3): number {
  const lit = (m: V3) => light.ambient + (1 - light.ambient) * Math.max(0, dot(m, light.dir));
  return Math.min(1.2, lit(n) / lit([0, 0, 1]));
}

interface FaceView {
  index: number;
  /** Seen so nearly edge-on that only its outline counts (no face or pips worth drawing). */
  edgeOn: boolean;
  origin: V3;
  u: V3;
  w: V3;
  light: number;
}

const facePoint = (cam: Camera, f: FaceView, a: number, b: number): V2 =>
  project(cam, [f.origin[0] + a * f.u[0] + b * f.w[0], f.origin[1] + a * f.u[1] + b * f.w[1], f.origin[2] + a * f.u[2] + b * f.w[2]]);

/** Draws a circle of radius r (face units) at (a, b) on a face: a small circle projects to an ellipse. */
function drawDisc(img: cv.Mat, cam: Camera, f: FaceView, a: number, b: number, r: number, colour: cv.Vec3): void {
  const [cx, cy] = facePoint(cam, f, a, b);
  const [ux, uy] = facePoint(cam, f, a + 0.01, b);
  const [wx, wy] = facePoint(cam, f, a, b + 0.01);
  // Jacobian columns scaled to the radius; the ellipse axes are its singular values.
  const j00 = ((ux - cx) / 0.01) * r, j10 = ((uy - cy) / 0.01) * r;
  const j01 = ((wx - cx) / 0.01) * r, j11 = ((wy - cy) / 0.01) * r;
  const p = j00 * j00 + j01 * j01;
  const q = j00 * j10 + j01 * j11;
  const s = j10 * j10 + j11 * j11;
  const mid = (p + s) / 2;
  const root = Math.sqrt(((p - s) / 2) ** 2 + q * q);
  const major = Math.sqrt(mid + root);
  const minor = Math.sqrt(Math.max(0, mid - root));
  if (major < 0.15) return;
  const angle = (0.5 * Math.atan2(2 * q, p - s) * 180) / Math.PI;
  // (centre and half-axes in 1/16 px: shift 4)
  img.drawEllipse(new cv.Point2(Math.round(cx * 16), Math.round(cy * 16)), new cv.Size(Math.round(major * 16), Math.max(2, Math.round(minor * 16))), angle, 0, 360, colour, -1, cv.LINE_AA, 4);
}

/** Draws a die into the frame (`lit`: the uneven light where it lies) and its pixels into `labels` as `id`. */
function drawDie(rng: SeededRandom, frame: cv.Mat, labels: cv.Mat, cam: Camera, light: Light, lit: number, d: Die, id: number): void {
  const { w, h } = cam;
  const look = d.look;
  const r = rotation(d);
  const c = centre(d);
  const eye: V3 = [0, cam.d * cam.sinPhi, cam.d * cam.cosPhi];
  const faces: FaceView[] = [];
  FACES.forEach((face, index) => {
    const n = turnVec(r, face.n);
    const origin: V3 = [c[0] + (n[0] * d.s) / 2, c[1] + (n[1] * d.s) / 2, c[2] + (n[2] * d.s) / 2];
    const toEye: V3 = [eye[0] - origin[0], eye[1] - origin[1], eye[2] - origin[2]];
    const facing = dot(n, toEye) / Math.hypot(...toEye);
    if (facing <= 0) return;
    const u = turnVec(r, face.u);
    const v = turnVec(r, face.w);
    faces.push({ index, origin, u: [u[0] * d.s, u[1] * d.s, u[2] * d.s], w: [v[0] * d.s, v[1] * d.s, v[2] * d.s], light: faceLight(light, n) * lit, edgeOn: facing < 0.06 });
  });
  // (fewer points on the corners of small dice: every point is an object for the binding)
  const approxPx = d.s * scaleAt(cam, c);
  const steps = approxPx < 30 ? 1 : approxPx < 90 ? 2 : approxPx < 180 ? 3 : 4;
  const outer = roundedSquare(0.5, look.corner, steps);
  const inner = roundedSquare(0.5 - look.bevel, Math.max(0.01, look.corner - look.bevel), steps);
  const silhouette = convexHull(faces.flatMap((f) => outer.map(([a, b]) => facePoint(cam, f, a, b))));
  const xs = silhouette.map((p) => p[0]);
  const ys = silhouette.map((p) => p[1]);
  const x0 = clamp(Math.floor(Math.min(...xs)) - 2, 0, w);
  const y0 = clamp(Math.floor(Math.min(...ys)) - 2, 0, h);
  const x1 = clamp(Math.ceil(Math.max(...xs)) + 3, 0, w);
  const y1 = clamp(Math.ceil(Math.max(...ys)) + 3, 0, h);
  if (x1 - x0 < 1 || y1 - y0 < 1) return;
  const rect = new cv.Rect(x0, y0, x1 - x0, y1 - y0);
  const meanLight = faces.reduce((sum, f) => sum + f.light, 0) / faces.length;
  const px = approxPx;

  // Body: the rounded edges (the whole silhouette), then each face inside them.
  const outlinePoints = fixed(silhouette);
  const shown = faces.filter((f) => !f.edgeOn);
  const facePoints = shown.map((f) => fixed(inner.map(([a, b]) => facePoint(cam, f, a, b))));
  const body = (img: cv.Mat, colour: Rgb, offset = NO_OFFSET) => {
    img.drawFillPoly([outlinePoints], bgr(shade(colour, meanLight * look.edge)), cv.LINE_AA, 4, offset);
    shown.forEach((f, i) => img.drawFillPoly([facePoints[i] ?? []], bgr(shade(colour, f.light)), cv.LINE_AA, 4, offset));
  };
  if (look.opacity === 1 && !look.swirl) body(frame, look.body);
  else {
    const roi = frame.getRegion(rect);
    const offset = regionOffset(x0, y0);
    let layer = roi.copy();
    body(layer, look.body, offset);
    if (look.swirl) {
      const other = roi.copy();
      body(other, look.swirl, offset);
      // Swirls: the band where stretched, turned noise is near its middle.
      const noise = smooth(rng, rect.width, rect.height, rng.int(2, 3), rng.int(4, 7));
      const stretched = turn(noise, rect.width, rect.height, rng.range(0, 180), rng.range(1, 2));
      const band = stretched.convertTo(cv.CV_32F, 1, -0.5).abs().threshold(rng.range(0.04, 0.14), 255, cv.THRESH_BINARY_INV).convertTo(cv.CV_8U);
      other.copyTo(layer, band);
    }
    if (look.opacity < 1) layer = roi.addWeighted(1 - look.opacity, layer, look.opacity, 0);
    layer.copyTo(roi);
  }

  const topIndex = shown.findIndex((f) => f.index === TOP);
  const top = shown[topIndex];
  // (no highlight shows on small dice)
  if (top && look.gloss > 0 && px >= 24) gloss(frame, cam, light, top, inner, facePoints[topIndex] ?? [], look.gloss, d.s);

  // Pips: a dark drilled rim, then the paint; an emblem round the 1 on some dice.
  for (const f of shown) {
    const value = d.values[f.index] ?? 1;
    const turnBy = ((d.turns[f.index] ?? 0) * Math.PI) / 2;
    const [cs, sn] = [Math.cos(turnBy), Math.sin(turnBy)];
    const pip = bgr(shade(look.pip, Math.min(1.1, f.light)));
    const hole = bgr(shade(mix(look.body, [0, 0, 0], 0.5), f.light));
    let radius = look.pipRadius;
    if (value === 1 && look.emblem !== 'none') {
      const emblem = shade(look.emblemColour, f.light);
      if (look.emblem === 'ring') {
        const outerR = rng.range(0.3, 0.38);
        drawDisc(frame, cam, f, 0, 0, outerR, bgr(emblem));
        drawDisc(frame, cam, f, 0, 0, outerR - rng.range(0.04, 0.08), bgr(shade(look.body, f.light)));
      } else {
        const star: V2[] = Array.from({ length: 10 }, (_, i) => {
          const a = (i * Math.PI) / 5 + turnBy;
          const rr = i % 2 === 0 ? 0.36 : 0.15;
          return facePoint(cam, f, rr * Math.cos(a), rr * Math.sin(a));
        });
        frame.drawFillPoly([fixed(star)], bgr(emblem), cv.LINE_AA, 4);
      }
      radius *= 1.4;
    }
    for (const [pa, pb] of PIP_LAYOUT[value] ?? []) {
      const a = ((pa * look.spread) / 0.27) * cs - ((pb * look.spread) / 0.27) * sn;
      const b = ((pa * look.spread) / 0.27) * sn + ((pb * look.spread) / 0.27) * cs;
      if (radius * px > 1.5) drawDisc(frame, cam, f, a, b, radius * 1.15, hole);
      drawDisc(frame, cam, f, a, b, radius, pip);
    }
  }

  labels.drawFillPoly([outlinePoints], grey(id), cv.LINE_8, 4);
}

const SPOT_SIDE = 64;
const SPOT_RADIUS = 12;
let spotImage: cv.Mat | undefined;

/** A round spot blurred soft (σ about half its radius), 255 at the centre, made once. */
function softSpot(): cv.Mat {
  if (spotImage) return spotImage;
  const disc = filled(SPOT_SIDE, SPOT_SIDE, cv.CV_8UC1, 0);
  disc.drawCircle(new cv.Point2(SPOT_SIDE / 2, SPOT_SIDE / 2), SPOT_RADIUS, grey(255), -1, cv.LINE_AA);
  const soft = disc.gaussianBlur(new cv.Size(41, 41), 6.5);
  spotImage = soft.convertTo(cv.CV_8U, 255 / soft.minMaxLoc().maxVal);
  return spotImage;
}

/** A soft highlight on the top face, towards the light. */
function gloss(frame: cv.Mat, cam: Camera, light: Light, top: FaceView, inner: V2[], innerPoints: cv.Point2[], level: number, edge: number): void {
  const { w, h } = cam;
  const poly = inner.map(([a, b]) => facePoint(cam, top, a, b));
  const x0 = clamp(Math.floor(Math.min(...poly.map((p) => p[0]))), 0, w);
  const y0 = clamp(Math.floor(Math.min(...poly.map((p) => p[1]))), 0, h);
  const x1 = clamp(Math.ceil(Math.max(...poly.map((p) => p[0]))) + 1, 0, w);
  const y1 = clamp(Math.ceil(Math.max(...poly.map((p) => p[1]))) + 1, 0, h);
  if (x1 - x0 < 4 || y1 - y0 < 4) return;
  const lu = dot(light.dir, top.u) / edge;
  const lw = dot(light.dir, top.w) / edge;
  const len = Math.hypot(lu, lw) || 1;
  const [cx, cy] = facePoint(cam, top, (0.2 * lu) / len, (0.2 * lw) / len);
  // The soft spot scaled into place (blurring a spot per die cost more than the rest of the die).
  const k = (edge * scaleAt(cam, top.origin) * 0.225) / SPOT_RADIUS;
  const place = new cv.Mat([[k, 0, cx - x0 - (SPOT_SIDE / 2) * k], [0, k, cy - y0 - (SPOT_SIDE / 2) * k]], cv.CV_64F);
  const spot = softSpot().warpAffine(place, new cv.Size(x1 - x0, y1 - y0), cv.INTER_LINEAR, cv.BORDER_CONSTANT);
  const face = filled(y1 - y0, x1 - x0, cv.CV_8UC1, 0);
  face.drawFillPoly([innerPoints], grey(255), cv.LINE_8, 4, regionOffset(x0, y0));
  const add = spot.bitwiseAnd(face).convertTo(cv.CV_8U, level / 255);
  const roi = frame.getRegion(new cv.Rect(x0, y0, x1 - x0, y1 - y0));
  roi.add(new cv.Mat([add, add, add])).copyTo(roi);
}

/** Tight box of the pixels labelled `id` near the die's outline; undefined when none is visible. */
function visibleBox(labels: cv.Mat, id: number, shape: V2[]): [number, number, number, number] | undefined {
  const x0 = clamp(Math.floor(Math.min(...shape.map((p) => p[0]))) - 3, 0, labels.cols);
  const y0 = clamp(Math.floor(Math.min(...shape.map((p) => p[1]))) - 3, 0, labels.rows);
  const x1 = clamp(Math.ceil(Math.max(...shape.map((p) => p[0]))) + 3, 0, labels.cols);
  const y1 = clamp(Math.ceil(Math.max(...shape.map((p) => p[1]))) + 3, 0, labels.rows);
  if (x1 <= x0 || y1 <= y0) return undefined;
  const rw = x1 - x0;
  const data = labels.getRegion(new cv.Rect(x0, y0, rw, y1 - y0)).copy().getData();
  let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
  for (let i = 0; i < data.length; i++) {
    if (data[i] !== id) continue;
    const x = i % rw;
    const y = (i - x) / rw;
    if (x < bx0) bx0 = x;
    if (x > bx1) bx1 = x;
    if (y < by0) by0 = y;
    if (y > by1) by1 = y;
  }
  return bx1 < bx0 ? undefined : [x0 + bx0, y0 + by0, x0 + bx1 + 1, y0 + by1 + 1];
}

/** Uneven light over a w×h frame, 0.6..1 at its darkest: a linear or a radial falloff. */
function unevenLight(rng: SeededRandom, w: number, h: number): (u: number, v: number) => number {
  const low = rng.range(0.6, 1);
  const radial = chance(rng, 0.5);
  const [gx, gy] = [rng.range(0, 1), rng.range(0, 1)];
  const direction = rng.range(0, 2 * Math.PI);
  const [cos, sin] = [Math.cos(direction), Math.sin(direction)];
  return (u, v) => {
    const [x, y] = [u / w, v / h];
    const t = radial ? Math.min(1, Math.hypot(x - gx, y - gy) / Math.SQRT2) : clamp(0.5 + ((x - 0.5) * cos + (y - 0.5) * sin) / Math.SQRT2, 0, 1);
    return 1 - (1 - low) * t;
  };
}

/**
 * The floor darkened by the shadows (`shadows`: the blurred mask, at a fraction
 * of the frame's size) and the uneven light: one multiply of the frame, in 16
 * bits (half the time of floats; 8-bit pixels times a 0..256 shade fit).
 */
function shadeFloor(floor: cv.Mat, shadows: cv.Mat, lightAt: (u: number, v: number) => number, strength: number): cv.Mat {
  const { cols: w, rows: h } = floor;
  const n = 9;
  const grid = Float32Array.from({ length: n * n }, (_, i) => lightAt(((i % n) / (n - 1)) * w, (Math.floor(i / n) / (n - 1)) * h));
  const light = new cv.Mat(Buffer.from(grid.buffer), n, n, cv.CV_32F).resize(new cv.Size(shadows.cols, shadows.rows), 0, 0, cv.INTER_LINEAR);
  // (the shade is made at the shadows' size and stretched once)
  let shade = shadows.convertTo(cv.CV_32F, -strength / 255, 1).hMul(light).convertTo(cv.CV_16U, 256);
  if (shade.cols !== w || shade.rows !== h) shade = shade.resize(new cv.Size(w, h), 0, 0, cv.INTER_LINEAR);
  return floor.convertTo(cv.CV_16UC3).hMul(new cv.Mat([shade, shade, shade])).convertTo(cv.CV_8UC3, 1 / 256);
}

/** The camera after exposure (see `tone`) and light: lens blur, then sensor noise; the JPEG comes after. */
function camera(rng: SeededRandom, frame: cv.Mat): cv.Mat {
  const { cols: w, rows: h } = frame;
  let img = frame;
  const sigma = chance(rng, 0.2) ? 0 : rng.range(0, 2.2);
  if (sigma >= 0.3) {
    const k = 2 * Math.ceil(3 * sigma) + 1;
    img = img.gaussianBlur(new cv.Size(k, k), sigma);
  }
  const noise = rng.range(0, 8);
  if (noise < 0.3) return img;
  // Sensor noise in 8 bits: a window of the shared noise (σ NOISE_LEVELS about 128), scaled and added less its middle in one pass.
  const window = noiseField8().getRegion(new cv.Rect(rng.int(0, FIELD - w), rng.int(0, FIELD - h), w, h));
  return img.addWeighted(1, window, noise / NOISE_LEVELS, (-128 * noise) / NOISE_LEVELS);
}

// ---------------------------------------------------------------- command line

function main(args: string[]): void {
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = value('--out');
  const count = Number(value('--count'));
  const first = Number(value('--seed') ?? 1);
  if (!out || !Number.isInteger(count) || count < 1 || !Number.isInteger(first)) {
    console.error('usage: npx tsx scripts/finder-scenes.ts --out DIR --count N [--seed S]');
    process.exit(2);
  }
  mkdirSync(join(out, 'images'), { recursive: true });
  const images: string[] = [];
  for (let seed = first; seed < first + count; seed++) {
    const scene = buildScene(seed);
    const file = `images/scene-${seed}.jpg`;
    // The JPEG of the camera's own round trip: written as is, no second compression.
    writeFileSync(join(out, file), scene.jpeg);
    images.push(JSON.stringify({
      file,
      width: scene.image.cols,
      height: scene.image.rows,
      dice: scene.dice.filter((d) => d.flat).map((d) => ({ value: d.value, box: d.box })),
      unflat: scene.dice.filter((d) => !d.flat).map((d) => d.box),
    }));
  }
  const source = { repo: 'dice-tower/simulator', commit: '', license: 'MIT', attribution: 'synthetic' };
  const notes = ['scripts/finder-scenes.ts, one scene per seed; boxes cover the whole visible die (top face and any visible sides), clipped to the frame; tipped and stacked dice are under "unflat"'];
  writeFileSync(join(out, 'labels.json'), `{"source":${JSON.stringify(source)},"notes":${JSON.stringify(notes)},"images":[\n${images.join(',\n')}\n]}\n`);
  console.log(`wrote ${count} scenes to ${out}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main(process.argv.slice(2));
