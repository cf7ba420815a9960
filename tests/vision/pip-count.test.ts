import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_VISION_CONFIG } from '../../src/vision/config.js';
import { readFace } from '../../src/vision/value.js';

/** An upright 80 px face (Lab, as `uprightFace` gives it): light body, dark pips of `radius` px at the given centres. */
function drawnFace(pips: readonly (readonly [number, number])[], radius: number): cv.Mat {
  const face = new cv.Mat(80, 80, cv.CV_8UC3, [235, 235, 235]);
  for (const [x, y] of pips) face.drawCircle(new cv.Point2(x, y), radius, new cv.Vec3(30, 30, 30), -1, cv.LINE_AA);
  return face.cvtColor(cv.COLOR_BGR2Lab);
}

describe('counting pips on an upright face', () => {
  it.each([6, 8, 10])('reads a 3 as a clear count when its middle pip sits off the centre (pips of %i px)', (radius) => {
    for (const offset of [0, 4, 8, 10]) {
      // The middle pip is the layout's one central pip however far off it sits: the spots where a larger value's pips would be are not probed on it.
      const face = readFace(drawnFace([[20, 20], [40 + offset, 40], [60, 60]], radius), DEFAULT_VISION_CONFIG);
      expect({ offset, pips: face.pips, clear: face.confidence >= DEFAULT_VISION_CONFIG.minConfidence }).toEqual({ offset, pips: 3, clear: true });
      face.inner.release();
    }
  });
});
