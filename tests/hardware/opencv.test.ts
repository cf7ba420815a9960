import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';

describe('OpenCV as the project loads it', () => {
  it('runs on the calling thread only (no worker thread allocates a buffer V8 counts)', () => {
    expect(cv.getNumThreads()).toBe(1);
  });
});
