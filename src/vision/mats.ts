/**
 * Small OpenCV helpers shared by the reader's stages and the calibration:
 * `Scratch` (intermediate Mats freed together), `filledMat` (a Mat of one
 * value), the 3x3 structuring element and the colour black they draw with,
 * and `median` of a list of numbers. No stage of its own.
 */
import cv from '../hardware/opencv.js';

/**
 * Intermediate Mats freed together once a step is done. opencv4nodejs counts
 * every Mat's memory against V8's heap, so a frame's worth of full-size
 * intermediates left to the garbage collector sets off a full collection
 * every frame or two (about a third of the reader's time).
 */
export class Scratch {
  private readonly mats: cv.Mat[] = [];
  /** `mat`, to be freed by `release`. */
  add<T extends cv.Mat>(mat: T): T {
    this.mats.push(mat);
    return mat;
  }
  release(): void {
    for (const mat of this.mats) mat.release();
    this.mats.length = 0;
  }
}

/**
 * A new Mat with every pixel set to `value`. (Filling through the constructor
 * is ~100x slower; and setTo returns a second handle on the same pixels, which
 * is dropped here so that releasing the result frees them, not the collector.)
 */
export function filledMat(rows: number, cols: number, type: number, value: number | cv.Vec3): cv.Mat {
  const mat = new cv.Mat(rows, cols, type);
  mat.setTo(value).release();
  return mat;
}

export const KERNEL_3 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(3, 3));

export const BLACK = new cv.Vec3(0, 0, 0);

/** Median of the numbers (0 for none). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((p, q) => p - q);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
