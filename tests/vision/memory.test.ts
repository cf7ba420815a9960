import { readdirSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import { renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage } from '../../src/vision/read-dice.js';

const PHOTOS = new URL('../../fixtures/vision-photos/', import.meta.url);

// V8's collector on demand, to free what earlier code left to it before counting.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * OpenCV buffers still held after decoding `bytes`, reading it and releasing
 * the frame. (Counted, not summed in bytes: opencv4nodejs's byte total drifts
 * for buffers it frees at another size than it allocated them.)
 */
function heldAfterReading(bytes: Buffer): number {
  collectGarbage();
  const before = cv.getMemMetrics();
  const frame = decodeFrame(bytes);
  readDiceInImage(frame, DEFAULT_VISION_CONFIG);
  frame.release();
  const after = cv.getMemMetrics();
  return after.NumAllocations - after.NumDeAllocations - (before.NumAllocations - before.NumDeAllocations);
}

// A buffer left to V8's collector is counted as external memory until a full
// collection finds its handle: a frame that leaves some behind sets off full
// collections (and their pauses) every few frames.
describe('reading a frame frees every OpenCV buffer it allocates', () => {
  // The classifier is loaded once and kept: load it before counting.
  const warm = () => heldAfterReading(readFileSync(new URL('matteop65-dice_23.jpg', PHOTOS)));

  it.each(readdirSync(PHOTOS).filter((f) => f.endsWith('.jpg')))('photo %s', (file) => {
    warm();
    expect(heldAfterReading(readFileSync(new URL(file, PHOTOS)))).toBe(0);
  });

  it('photos of dice pressed together (cut at their seams)', () => {
    warm();
    for (const file of readdirSync(new URL('finding/', PHOTOS)).filter((f) => f.endsWith('.jpg'))) {
      expect(heldAfterReading(readFileSync(new URL(`finding/${file}`, PHOTOS))), file).toBe(0);
    }
  });

  it('a 1280×720 simulator frame of 25 dice, some touching', () => {
    warm();
    const tray = { width: 1280, height: 720, dieSize: 64 };
    const rng = new SeededRandom(7);
    const colours = DIE_COLOURS.filter((c) => c !== 'black' && c !== 'grey');
    const frame = renderTray(throwDice(rng, 25, Array.from({ length: 25 }, () => rng.pick(colours)), tray), tray, { noiseSeed: 1 });
    expect(heldAfterReading(frame)).toBe(0);
  });
});
