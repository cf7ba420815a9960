import cv from '../opencv.js';
import type { DieColour } from '../types.js';
import { SeededRandom } from '../random.js';
import type { SimDie, TrayGeometry } from './scene.js';

type Rgb = readonly [number, number, number];

/** Body and pip colour of each die colour the simulator can render (sRGB). */
export const DIE_LOOK: Readonly<Record<DieColour, { body: Rgb; pip: Rgb }>> = {
  white: { body: [240, 240, 236], pip: [22, 22, 24] },
  ivory: { body: [236, 224, 188], pip: [48, 34, 26] },
  red: { body: [196, 28, 34], pip: [246, 246, 242] },
  green: { body: [34, 150, 72], pip: [246, 246, 242] },
  blue: { body: [30, 72, 190], pip: [246, 246, 242] },
  yellow: { body: [246, 206, 40], pip: [20, 20, 22] },
  black: { body: [30, 30, 33], pip: [240, 240, 236] },
  purple: { body: [112, 46, 150], pip: [246, 246, 242] },
  grey: { body: [134, 134, 138], pip: [248, 248, 246] },
};

/** Casino-teal felt of the tray floor. */
const FELT: Rgb = [26, 98, 80];
/** How much darker the corners are than the centre (lens vignette, uneven light). */
const VIGNETTE = 0.12;
/** Light comes from the upper left: shadows fall down-right by this share of the die size. */
const SHADOW_OFFSET = { x: 0.07, y: 0.09 };
/** Darkening at the core of a die's shadow (0 none, 1 black). */
const SHADOW_STRENGTH = 0.4;
/** Standard deviation of the sensor noise, in 8-bit levels. */
const SENSOR_NOISE = 3.2;
const JPEG_QUALITY = 85;

/** Pip centres on a unit face (-0.5..0.5), for each value. */
export const PIP_LAYOUT: Readonly<Record<number, ReadonlyArray<readonly [number, number]>>> = {
  1: [[0, 0]],
  2: [[-0.27, -0.27], [0.27, 0.27]],
  3: [[-0.27, -0.27], [0, 0], [0.27, 0.27]],
  4: [[-0.27, -0.27], [0.27, -0.27], [-0.27, 0.27], [0.27, 0.27]],
  5: [[-0.27, -0.27], [0.27, -0.27], [0, 0], [-0.27, 0.27], [0.27, 0.27]],
  6: [[-0.27, -0.27], [0.27, -0.27], [-0.27, 0], [0.27, 0], [-0.27, 0.27], [0.27, 0.27]],
};
const PIP_RADIUS = 0.085;
const CORNER_RADIUS = 0.14;

const bgr = (c: Rgb): cv.Vec3 => new cv.Vec3(c[2], c[1], c[0]);

const backgrounds = new Map<string, Buffer>();

/** The empty tray floor, BGR pixels: felt with a fixed weave texture and vignette (the same felt every frame). Shared: copy before changing it. */
export function feltBackground(tray: TrayGeometry): Buffer {
  const key = `${tray.width}x${tray.height}`;
  const cached = backgrounds.get(key);
  if (cached) return cached;
  const { width, height } = tray;
  const weave = new SeededRandom(0xfe17);
  const out = Buffer.alloc(width * height * 3);
  const cx = width / 2;
  const cy = height / 2;
  const rMax = cx * cx + cy * cy;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = 1 - (VIGNETTE * ((x - cx) ** 2 + (y - cy) ** 2)) / rMax;
      const fibre = 1 + 0.05 * (weave.next() - 0.5);
      const i = (y * width + x) * 3;
      out[i] = clampByte(FELT[2] * light * fibre);
      out[i + 1] = clampByte(FELT[1] * light * fibre);
      out[i + 2] = clampByte(FELT[0] * light * fibre);
    }
  }
  backgrounds.set(key, out);
  return out;
}

function clampByte(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** Corners of a rounded square of side `size` centred at (cx, cy), rotated by `angle` degrees. */
function roundedSquare(cx: number, cy: number, size: number, angle: number, scale = 1): cv.Point2[] {
  const half = (size * scale) / 2;
  const r = size * scale * CORNER_RADIUS;
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const points: cv.Point2[] = [];
  const corners: Array<[number, number, number]> = [
    [half - r, half - r, 0],
    [-(half - r), half - r, 90],
    [-(half - r), -(half - r), 180],
    [half - r, -(half - r), 270],
  ];
  for (const [ox, oy, start] of corners) {
    for (let step = 0; step <= 6; step++) {
      const a = ((start + step * 15) * Math.PI) / 180;
      const px = ox + r * Math.cos(a);
      const py = oy + r * Math.sin(a);
      points.push(new cv.Point2(cx + px * cos - py * sin, cy + px * sin + py * cos));
    }
  }
  return points;
}

/** An upright die on a transparent patch: colour image and alpha mask, both `patch` pixels square. */
function dieSprite(die: SimDie, patch: number): { image: cv.Mat; alpha: cv.Mat } {
  const look = DIE_LOOK[die.colour];
  const c = patch / 2;
  const s = die.size;
  const outline = [roundedSquare(c, c, s, 0)];
  const image = new cv.Mat(patch, patch, cv.CV_8UC3, [0, 0, 0]);
  const alpha = new cv.Mat(patch, patch, cv.CV_8UC1, 0);
  image.drawFillPoly(outline, bgr(look.body), cv.LINE_AA);
  alpha.drawFillPoly(outline, new cv.Vec3(255, 255, 255), cv.LINE_AA);

  // Shading: lit from the upper left, with a darker bevel along the edges.
  const data = image.getData();
  const bevel = 0.07 * s;
  for (let y = 0; y < patch; y++) {
    for (let x = 0; x < patch; x++) {
      const u = (x - c) / s;
      const v = (y - c) / s;
      const edge = Math.min(s / 2 - Math.abs(x - c), s / 2 - Math.abs(y - c));
      let light = 1.05 - 0.12 * (u + v + 1) * 0.5;
      if (edge < bevel) light *= 0.82 + (0.18 * Math.max(edge, 0)) / bevel;
      const i = (y * patch + x) * 3;
      data[i] = clampByte((data[i] ?? 0) * light);
      data[i + 1] = clampByte((data[i + 1] ?? 0) * light);
      data[i + 2] = clampByte((data[i + 2] ?? 0) * light);
    }
  }
  const shaded = new cv.Mat(data, patch, patch, cv.CV_8UC3);

  // Pips: drilled and painted, with a thin dark rim where the hole's wall is in shade.
  const pipColour = bgr(look.pip);
  const rim = bgr([look.pip[0] * 0.6, look.pip[1] * 0.6, look.pip[2] * 0.6]);
  for (const [px, py] of PIP_LAYOUT[die.value] ?? []) {
    const centre = new cv.Point2(c + px * s, c + py * s);
    shaded.drawCircle(centre, PIP_RADIUS * s + 1, rim, -1, cv.LINE_AA);
    shaded.drawCircle(new cv.Point2(centre.x + 0.6, centre.y + 0.6), PIP_RADIUS * s, pipColour, -1, cv.LINE_AA);
  }
  return die.tilt ? tipped(shaded, alpha, die, patch) : { image: shaded, alpha };
}

/**
 * A die tipped by `die.tilt` degrees (cocked against the wall or another die),
 * seen from above: the top face squeezed to its foreshortened height, and the
 * side face that tipped towards the camera below it, in shade, with its pips.
 */
function tipped(image: cv.Mat, alpha: cv.Mat, die: SimDie, patch: number): { image: cv.Mat; alpha: cv.Mat } {
  const t = ((die.tilt ?? 0) * Math.PI) / 180;
  const s = die.size;
  const c = patch / 2;
  const top = s * Math.cos(t);
  const side = s * Math.sin(t);
  const first = c - (top + side) / 2;
  const squeeze = new cv.Mat([[1, 0, 0], [0, Math.cos(t), first + top / 2 - c * Math.cos(t)]], cv.CV_64F);
  const size = new cv.Size(patch, patch);
  const img = image.warpAffine(squeeze, size, cv.INTER_LINEAR);
  const a = alpha.warpAffine(squeeze, size, cv.INTER_LINEAR);
  const look = DIE_LOOK[die.colour];
  const y0 = first + top - 1;
  const y1 = first + top + side;
  const cut = s * CORNER_RADIUS * Math.sin(t);
  const face = [[
    new cv.Point2(c - s / 2, y0), new cv.Point2(c + s / 2, y0), new cv.Point2(c + s / 2, y1 - cut),
    new cv.Point2(c + s / 2 - cut, y1), new cv.Point2(c - s / 2 + cut, y1), new cv.Point2(c - s / 2, y1 - cut),
  ]];
  const shadeOf = (rgb: Rgb, k: number): Rgb => [rgb[0] * k, rgb[1] * k, rgb[2] * k];
  img.drawFillPoly(face, bgr(shadeOf(look.body, 0.62)), cv.LINE_AA);
  a.drawFillPoly(face, new cv.Vec3(255, 255, 255), cv.LINE_AA);
  for (const [px, py] of PIP_LAYOUT[die.sideValue ?? 2] ?? []) {
    const centre = new cv.Point2(c + px * s, (y0 + y1) / 2 + py * side);
    img.drawEllipse(new cv.RotatedRect(centre, new cv.Size(2 * PIP_RADIUS * s, 2 * PIP_RADIUS * side), 0), bgr(shadeOf(look.pip, 0.75)), -1, cv.LINE_AA);
  }
  return { image: img, alpha: a };
}

export interface RenderOptions {
  /** Seed for this frame's sensor noise (the dice themselves are in the scene). */
  readonly noiseSeed: number;
  /** The tray floor the dice lie on, BGR pixels of the tray's size (a floor with marks on it); absent: `feltBackground`. */
  readonly floor?: Buffer;
}

/**
 * Renders what a top-down camera over the tray sees: the dice lying on the
 * felt with shading, soft shadows, lens softness, sensor noise and JPEG
 * compression. Returns the JPEG bytes.
 */
export function renderTray(dice: readonly SimDie[], tray: TrayGeometry, options: RenderOptions): Buffer {
  const { width, height } = tray;
  const floor = options.floor ?? feltBackground(tray);
  if (floor.length !== width * height * 3) throw new RangeError(`the floor has ${floor.length} bytes, not the ${width}x${height} tray's ${width * height * 3}`);

  // Soft shadows: the dice outlines, shifted away from the light and blurred.
  const shadowMask = new cv.Mat(height, width, cv.CV_8UC1, 0);
  for (const d of dice) {
    const poly = roundedSquare(d.x + SHADOW_OFFSET.x * d.size, d.y + SHADOW_OFFSET.y * d.size, d.size, d.angle, 1.04);
    shadowMask.drawFillPoly([poly], new cv.Vec3(255, 255, 255), cv.LINE_AA);
  }
  const blur = Math.max(3, Math.round((dice[0]?.size ?? 64) * 0.12)) | 1;
  const shade = shadowMask
    .gaussianBlur(new cv.Size(blur * 2 + 1, blur * 2 + 1), blur / 2)
    .convertTo(cv.CV_32F, -SHADOW_STRENGTH / 255, 1);
  const frame = new cv.Mat(floor, height, width, cv.CV_8UC3)
    .convertTo(cv.CV_32FC3)
    .hMul(new cv.Mat([shade, shade, shade]))
    .convertTo(cv.CV_8UC3)
    .getData();

  // Dice: each drawn upright on its own patch, rotated into place and blended by its alpha.
  for (const d of dice) {
    // (a tipped die's footprint is longer: more room around it)
    const patch = Math.ceil(d.size * (d.tilt ? 1.9 : 1.6)) + 2;
    const { image, alpha } = dieSprite(d, patch);
    const left = Math.floor(d.x - patch / 2);
    const top = Math.floor(d.y - patch / 2);
    const rotation = cv.getRotationMatrix2D(new cv.Point2(patch / 2, patch / 2), -d.angle, 1);
    // Sub-pixel placement: shift the patch by the fractional part of the centre.
    const m = rotation.getDataAsArray() as number[][];
    const row0 = m[0] ?? [1, 0, 0];
    const row1 = m[1] ?? [0, 1, 0];
    const shift = new cv.Mat(
      [
        [row0[0] ?? 1, row0[1] ?? 0, (row0[2] ?? 0) + (d.x - patch / 2 - left)],
        [row1[0] ?? 0, row1[1] ?? 1, (row1[2] ?? 0) + (d.y - patch / 2 - top)],
      ],
      cv.CV_64F,
    );
    const size = new cv.Size(patch, patch);
    const img = image.warpAffine(shift, size, cv.INTER_LINEAR).getData();
    const a = alpha.warpAffine(shift, size, cv.INTER_LINEAR).getData();
    for (let y = 0; y < patch; y++) {
      const fy = top + y;
      if (fy < 0 || fy >= height) continue;
      for (let x = 0; x < patch; x++) {
        const fx = left + x;
        const w = (a[y * patch + x] ?? 0) / 255;
        if (fx < 0 || fx >= width || w === 0) continue;
        const i = (fy * width + fx) * 3;
        const j = (y * patch + x) * 3;
        for (let ch = 0; ch < 3; ch++) frame[i + ch] = Math.round((frame[i + ch] ?? 0) * (1 - w) + (img[j + ch] ?? 0) * w);
      }
    }
  }

  // Lens softness, then sensor noise, then the camera's JPEG encoder.
  const soft = new cv.Mat(frame, height, width, cv.CV_8UC3).gaussianBlur(new cv.Size(3, 3), 0.7).getData();
  const rng = new SeededRandom(options.noiseSeed);
  const table = noiseTable();
  let k = rng.int(0, table.length - 1);
  for (let i = 0; i < soft.length; i++) {
    if ((i & 1023) === 0) k = rng.int(0, table.length - 1);
    k = k + 1 === table.length ? 0 : k + 1;
    soft[i] = clampByte((soft[i] ?? 0) + (table[k] ?? 0));
  }
  return cv.imencode('.jpg', new cv.Mat(soft, height, width, cv.CV_8UC3), [cv.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]);
}

let noise: Float32Array | undefined;
/** Gaussian sensor noise, drawn once; frames read it from random offsets (cheap and still seeded). */
function noiseTable(): Float32Array {
  if (noise) return noise;
  const rng = new SeededRandom(0x5e45);
  noise = new Float32Array(1 << 16);
  for (let i = 0; i < noise.length; i++) noise[i] = rng.gaussian() * SENSOR_NOISE;
  return noise;
}
