import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIE_COLOURS, SeededRandom, type CameraError } from '../../src/hardware/index.js';
import { renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { meanBrightness } from '../../src/vision/camera-checks.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage } from '../../src/vision/read-dice.js';
import { awaitStill, DEFAULT_SETTLE_CONFIG } from '../../src/vision/settle.js';
import { buffersHeldAfter } from '../opencv-buffers.js';

const PHOTOS = new URL('../../fixtures/vision-photos/', import.meta.url);

/** OpenCV buffers still held after decoding `bytes`, reading it and releasing the frame. */
function heldAfterReading(bytes: Buffer): Promise<number> {
  return buffersHeldAfter(() => {
    const frame = decodeFrame(bytes);
    readDiceInImage(frame, DEFAULT_VISION_CONFIG);
    frame.release();
  });
}

describe('reading a frame frees every OpenCV buffer it allocates', () => {
  // The classifier is loaded once and kept: load it before counting.
  const warm = () => heldAfterReading(readFileSync(new URL('matteop65-dice_23.jpg', PHOTOS)));

  it.each(readdirSync(PHOTOS).filter((f) => f.endsWith('.jpg')))('photo %s', async (file) => {
    await warm();
    expect(await heldAfterReading(readFileSync(new URL(file, PHOTOS)))).toBe(0);
  });

  it('photos of dice pressed together (cut at their seams)', async () => {
    await warm();
    for (const file of readdirSync(new URL('finding/', PHOTOS)).filter((f) => f.endsWith('.jpg'))) {
      expect(await heldAfterReading(readFileSync(new URL(`finding/${file}`, PHOTOS))), file).toBe(0);
    }
  });

  it('a 1280×720 simulator frame of 25 dice, some touching', async () => {
    await warm();
    const tray = { width: 1280, height: 720, dieSize: 64 };
    const rng = new SeededRandom(7);
    const colours = DIE_COLOURS.filter((c) => c !== 'black' && c !== 'grey');
    const frame = renderTray(throwDice(rng, 25, Array.from({ length: 25 }, () => rng.pick(colours)), tray), tray, { noiseSeed: 1 });
    expect(await heldAfterReading(frame)).toBe(0);
  });
});

describe('watching the stream frees every OpenCV buffer it allocates', () => {
  const dir = new URL('../../fixtures/settle/', import.meta.url);
  /** A recorded sequence's frames, captured one after another 100 ms apart. */
  const capturing = (name: string) => {
    const files = readdirSync(new URL(`${name}/`, dir)).filter((f) => f.endsWith('.jpg')).sort();
    let next = 0;
    return async () => {
      const image = readFileSync(new URL(`${name}/${files[Math.min(next, files.length - 1)]}`, dir));
      return { image, width: 0, height: 0, capturedAt: 100 * next++ };
    };
  };
  const config = { ...DEFAULT_SETTLE_CONFIG, stillMs: 600, timeoutMs: 2000 };

  it('settle detection, until the dice are still', async () => {
    expect(await buffersHeldAfter(() => awaitStill(capturing('rolls-then-still'), config, async () => {}))).toBe(0);
  });

  it('settle detection, until it reports a jam', async () => {
    let outcome: unknown;
    // Within the sequence's 12 frames (1.2 s).
    const jamAfter = { ...config, timeoutMs: 1000 };
    expect(await buffersHeldAfter(() => awaitStill(capturing('never-still'), jamAfter, async () => {}).catch((err: unknown) => (outcome = err)))).toBe(0);
    expect((outcome as CameraError).code).toBe('camera/jam');
  });

  it("the camera's check for a black picture", async () => {
    const frame = readFileSync(new URL('matteop65-dice_23.jpg', PHOTOS));
    expect(await buffersHeldAfter(() => meanBrightness(frame))).toBe(0);
  });
});
