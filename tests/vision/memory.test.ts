import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { calibrate, calibratedConfig } from '../../src/vision/calibrate.js';
import { decodeFrame } from '../../src/vision/index.js';
import { DOT, markedFloor, RING, rimmedFloor, SQUARE } from '../../src/hardware/simulator/floors.js';
import { meanBrightness } from '../../src/vision/camera-checks.js';
import { createDiceReader } from '../../src/vision/read-dice.js';
import { buffersHeldAfter } from '../opencv-buffers.js';

const PHOTOS = new URL('../../fixtures/vision-photos/', import.meta.url);

const reader = createDiceReader();
/** OpenCV buffers still held after the camera reader has read the encoded image `bytes`. */
const heldAfterReading = (bytes: Buffer) => buffersHeldAfter(() => reader.read({ image: bytes, width: 0, height: 0, capturedAt: 0 }));

describe('reading a frame frees every OpenCV buffer it allocates', () => {
  // The classifier is loaded once and kept: load it before counting.
  beforeAll(() => heldAfterReading(readFileSync(new URL('matteop65-dice_23.jpg', PHOTOS))));

  it.each(readdirSync(PHOTOS).filter((f) => f.endsWith('.jpg')))('photo %s', async (file) => {
    expect(await heldAfterReading(readFileSync(new URL(file, PHOTOS)))).toBe(0);
  });

  it('photos of dice pressed together (cut at their seams)', async () => {
    for (const file of readdirSync(new URL('finding/', PHOTOS)).filter((f) => f.endsWith('.jpg'))) {
      expect(await heldAfterReading(readFileSync(new URL(`finding/${file}`, PHOTOS))), file).toBe(0);
    }
  });

  it('a 1280×720 simulator frame of 25 dice, some touching', async () => {
    const tray = { width: 1280, height: 720, dieSize: 64 };
    const rng = new SeededRandom(7);
    const colours = DIE_COLOURS.filter((c) => c !== 'black' && c !== 'grey');
    const frame = renderTray(throwDice(rng, 25, Array.from({ length: 25 }, () => rng.pick(colours)), tray), tray, { noiseSeed: 1 });
    expect(await heldAfterReading(frame)).toBe(0);
  });

  it('calibrating on a marked tray, and reading a frame of dice on it with its marks', async () => {
    const floor = markedFloor();
    const empty = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor }));
    const calibrateOnIt = () => calibrate(empty, {}, 'empty-tray.png', new Date(0));
    expect(await buffersHeldAfter(calibrateOnIt)).toBe(0);
    const marked = createDiceReader(calibratedConfig(calibrateOnIt()));
    const die = (x: number, y: number) => ({ value: 5, colour: 'white' as const, x, y, size: 64, angle: 10 });
    const frame = renderTray([die(DOT.x, DOT.y), die(RING.x + 70, RING.y), die(SQUARE.x + 75, SQUARE.y + 40)], DEFAULT_TRAY, { noiseSeed: 3, floor });
    expect(await buffersHeldAfter(() => marked.read({ image: frame, width: 0, height: 0, capturedAt: 0 }))).toBe(0);
    // Refused (a die too many), then with the camera moved: the marks are looked for further.
    expect(await buffersHeldAfter(() => marked.read({ image: frame, width: 0, height: 0, capturedAt: 0 }, 2))).toBe(0);
    const moved = renderTray([die(RING.x + 70, RING.y)], DEFAULT_TRAY, { noiseSeed: 3, floor: markedFloor({ x: -20, y: 16 }) });
    const reading = await marked.read({ image: moved, width: 0, height: 0, capturedAt: 0 }, 1);
    expect(reading.issues?.[0]?.code).toBe('camera_moved');
    expect(await buffersHeldAfter(() => marked.read({ image: moved, width: 0, height: 0, capturedAt: 0 }, 1))).toBe(0);
  });

  it('calibrating on a tray turned against the camera, and reading a frame of dice on it (the mask cut, the floor painted beyond the turned region)', async () => {
    const floor = rimmedFloor({ x: 0, y: 0 }, { turn: 1.5 });
    const empty = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor }));
    const calibrateOnIt = () => calibrate(empty, {}, 'empty-tray.png', new Date(0));
    expect(await buffersHeldAfter(calibrateOnIt)).toBe(0);
    const calibration = calibrateOnIt();
    expect(calibration.tray?.turn).toBeGreaterThan(1);
    const turned = createDiceReader(calibratedConfig(calibration));
    const frame = renderTray([{ value: 4, colour: 'red', x: 400, y: 300, size: 64, angle: 10 }], DEFAULT_TRAY, { noiseSeed: 3, floor });
    expect(await buffersHeldAfter(() => turned.read({ image: frame, width: 0, height: 0, capturedAt: 0 }))).toBe(0);
  });
});

describe("the camera's check for a black picture", () => {
  it('frees every OpenCV buffer it allocates', async () => {
    const frame = readFileSync(new URL('matteop65-dice_23.jpg', PHOTOS));
    expect(await buffersHeldAfter(() => meanBrightness(frame))).toBe(0);
  });
});
