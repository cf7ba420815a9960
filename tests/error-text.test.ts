import { describe, expect, it } from 'vitest';
import { errorText } from '../src/error-text.js';
import cv from '../src/hardware/opencv.js';

describe('errorText', () => {
  it('gives an Error its message', () => {
    expect(errorText(new Error('tray jammed'))).toBe('tray jammed');
  });

  it('names what OpenCV throws, which is not an Error and has no message', () => {
    let thrown: unknown;
    try {
      // A 3-channel image where cvtColor needs 1 channel: OpenCV's own assertion, thrown by the binding.
      new cv.Mat(4, 4, cv.CV_8UC3).cvtColor(cv.COLOR_GRAY2BGR);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).not.toBeInstanceOf(Error);
    expect(errorText(thrown)).toMatch(/OpenCV Error|scn|Invalid number of channels/);
  });
});
