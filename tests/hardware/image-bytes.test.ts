import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { encodedImageProblem } from '../../src/hardware/image-bytes.js';

const tray = new cv.Mat(120, 160, cv.CV_8UC3, [60, 110, 40]);
const jpeg = cv.imencode('.jpg', tray);
const png = cv.imencode('.png', tray);

describe('an encoded image checked before OpenCV decodes it', () => {
  it('passes a whole JPEG or PNG, and a JPEG with bytes after its end (some cameras append data)', () => {
    expect(encodedImageProblem(jpeg)).toBeNull();
    expect(encodedImageProblem(png)).toBeNull();
    expect(encodedImageProblem(Buffer.concat([jpeg, Buffer.from('trailer')]))).toBeNull();
  });

  it('names an empty buffer (OpenCV would abort the process on it)', () => {
    expect(encodedImageProblem(Buffer.alloc(0))).toBe('it is empty (0 bytes)');
  });

  it('names a JPEG cut short, which OpenCV decodes without an error (the missing rows grey)', () => {
    for (const share of [0.3, 0.6, 0.99]) expect(encodedImageProblem(jpeg.subarray(0, Math.floor(jpeg.length * share)))).toMatch(/JPEG data stops before its end/);
    // Cut off before its scan: only the headers.
    expect(encodedImageProblem(jpeg.subarray(0, 20))).toMatch(/stops before its end/);
  });
});
