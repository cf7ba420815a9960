import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/hardware/index.js';
import cv from '../../src/hardware/opencv.js';
import { foregroundCounter } from '../../src/vision/blobs.js';

describe('foregroundCounter (the search windows fill test)', () => {
  // A 37×23 mask of blobs and specks: every rectangle's count must equal OpenCV's own count of its pixels.
  const rng = new SeededRandom(11);
  const mask = new cv.Mat(23, 37, cv.CV_8UC1, 0);
  for (let y = 0; y < mask.rows; y++) for (let x = 0; x < mask.cols; x++) if (rng.next() < 0.4) mask.set(y, x, 255);
  mask.drawRectangle(new cv.Rect(5, 4, 12, 9), new cv.Vec3(255, 255, 255), -1);
  const countOf = foregroundCounter(mask);

  it("counts a rectangle's foreground pixels as countNonZero does, for rectangles anywhere, edges included", () => {
    const rects: [number, number, number, number][] = [
      [0, 0, mask.cols, mask.rows],
      [0, 0, 1, 1],
      [mask.cols - 1, mask.rows - 1, mask.cols, mask.rows],
      [5, 4, 17, 13],
    ];
    for (let i = 0; i < 200; i++) {
      const x0 = Math.floor(rng.next() * mask.cols);
      const y0 = Math.floor(rng.next() * mask.rows);
      rects.push([x0, y0, x0 + 1 + Math.floor(rng.next() * (mask.cols - x0)), y0 + 1 + Math.floor(rng.next() * (mask.rows - y0))]);
    }
    for (const [x0, y0, x1, y1] of rects) {
      const region = mask.getRegion(new cv.Rect(x0, y0, x1 - x0, y1 - y0));
      expect(countOf(x0, y0, x1, y1), `[${x0}, ${x1}) × [${y0}, ${y1})`).toBe(region.countNonZero());
      region.release();
    }
    expect(countOf(5, 4, 17, 13)).toBe(12 * 9);
  });

  it('counts an empty rectangle as 0', () => {
    expect(countOf(8, 8, 8, 12)).toBe(0);
  });

  it('refuses a mask that is not 8-bit with one channel, naming the problem', () => {
    const colour = new cv.Mat(4, 4, cv.CV_8UC3, [0, 0, 0]);
    expect(() => foregroundCounter(colour)).toThrow(/8-bit one-channel/);
  });
});
