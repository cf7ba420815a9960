/**
 * A die's face as an image: the face in a die's box warped upright onto a
 * square Lab patch (`uprightFace`) and points of that patch back in the frame
 * (`patchToFrame`), how far the edges on a patch are turned against its sides
 * (`edgeTurn`), a patch's body colour (`medianLab`) and each pixel's distance
 * from a colour (`distanceMap`). In: a BGR frame and a die's box, or a Lab
 * patch; out: patches, colours, angles and points.
 */
import cv from '../hardware/opencv.js';
import type { Blob } from './box.js';
import { filledMat, Scratch } from './mats.js';
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
