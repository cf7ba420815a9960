import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import type { Camera, Frame } from '../../src/hardware/index.js';
import { awaitStill, BAD_FRAMES_SKIPPED, checkSettleConfig, createDiceReader, DEFAULT_SETTLE_CONFIG, settlingPipeline, type SettleConfig } from '../../src/vision/index.js';
import { buffersHeldAfter } from '../opencv-buffers.js';
import { readingErrors, type ExpectedDie } from './match.js';

/** Recorded by scripts/record-settle.ts. */
interface Sequence {
  readonly width: number;
  readonly height: number;
  readonly intervalMs: number;
  readonly expect: 'settled' | 'jam' | 'disagree';
  readonly stillFrom?: number;
  readonly dice: readonly ExpectedDie[];
}

/** A camera replaying a recorded sequence, one frame per capture, stamped at the recorded frame period; the frames numbered in `torn` are cut short. */
function replay(name: string, torn: readonly number[] = []): { camera: Camera; sequence: Sequence; taken: () => number } {
  const dir = new URL(`../../fixtures/settle/${name}/`, import.meta.url);
  const sequence = JSON.parse(readFileSync(new URL('sequence.json', dir), 'utf8')) as Sequence;
  const files = readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
  let next = 0;
  const camera: Camera = {
    async capture(): Promise<Frame> {
      const file = files[next];
      if (file === undefined) throw new Error(`the detector asked for frame ${next} of ${files.length}: it should have concluded already`);
      const bytes = readFileSync(new URL(file, dir));
      // A frame torn on the wire: its first half only.
      const image = torn.includes(next) ? bytes.subarray(0, bytes.length >> 1) : bytes;
      const frame = { image, width: sequence.width, height: sequence.height, capturedAt: 1_000_000 + next * sequence.intervalMs };
      next++;
      return frame;
    },
  };
  return { camera, sequence, taken: () => next };
}

const noPause = async () => {};
const config: SettleConfig = { ...DEFAULT_SETTLE_CONFIG, stillMs: 600, timeoutMs: 2000, agreeFrames: 3 };

describe('settle detection on recorded frame sequences', () => {
  it('waits through the tumbling, reads only once the dice have been still long enough, and reads them right', async () => {
    const { camera, sequence, taken } = replay('rolls-then-still');
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    const frame = await settled.camera.capture();
    // Still from frame `stillFrom`; 600 ms at 200 ms a frame is 3 frames more.
    expect(taken()).toBe((sequence.stillFrom ?? 0) + 4);
    const reading = await settled.reader.read(frame, sequence.dice.length);
    expect(readingErrors(reading, sequence.dice)).toEqual([]);
  });

  it('reads too early when told not to wait (the recorded tumbling frames are really moving)', async () => {
    const { camera, sequence } = replay('rolls-then-still');
    const first = await camera.capture();
    const reading = await createDiceReader().read(first, sequence.dice.length);
    expect(readingErrors(reading, sequence.dice)).not.toEqual([]);
  });

  it('reports a jam when the scene never comes to rest', async () => {
    const { camera, taken } = replay('never-still');
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    await expect(settled.camera.capture()).rejects.toMatchObject({ code: 'camera/jam', message: expect.stringContaining('did not come to rest within 2000 ms') });
    expect(taken()).toBe(Math.floor(2000 / 200) + 2);
  });

  it('refuses a reading whose still frames disagree', async () => {
    const { camera, sequence } = replay('still-but-disagrees');
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    const frame = await settled.camera.capture();
    const reading = await settled.reader.read(frame, sequence.dice.length);
    expect(reading.valid).toBe(false);
    expect(reading.issues?.[0]?.code).toBe('unsettled');
    expect(reading.problems[0]).toMatch(/the still frames disagree: the black die at \(\d+, \d+\) reads \d in one still frame and \d in another/);
  });

  it('reads a frame it did not settle on as it is', async () => {
    const { camera, sequence } = replay('still-but-disagrees');
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    const frames = await Promise.all([0, 1, 2, 3].map(() => camera.capture()));
    const reading = await settled.reader.read(frames[3] as Frame, sequence.dice.length);
    expect(reading.issues?.some((i) => i.code === 'unsettled')).toBe(false);
  });
});

describe('settle detection skips a torn frame', () => {
  it('settles and reads right when frames are torn while the dice tumble and while they rest', async () => {
    const plain = replay('rolls-then-still');
    const stillFrom = plain.sequence.stillFrom ?? 0;
    const { camera, sequence, taken } = replay('rolls-then-still', [0, stillFrom + 1]);
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    const frame = await settled.camera.capture();
    // As many frames as with none torn: the frames either side of the torn still frame are compared, and the still time runs on across it.
    expect(taken()).toBe(stillFrom + 4);
    const reading = await settled.reader.read(frame, sequence.dice.length);
    expect(readingErrors(reading, sequence.dice)).toEqual([]);
  });

  it('does not let a torn frame hide the dice moving: the still time counts from the first good frame after it', async () => {
    const { sequence } = replay('rolls-then-still');
    const stillFrom = sequence.stillFrom ?? 0;
    // The first still frame is torn: the next one is compared with the last tumbling frame, so the still time starts a frame later.
    const { camera, taken } = replay('rolls-then-still', [stillFrom]);
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    await settled.camera.capture();
    expect(taken()).toBe(stillFrom + 5);
  });

  it(`gives up with the decode's error after more than ${BAD_FRAMES_SKIPPED} torn frames in a row`, async () => {
    const { camera, taken } = replay('rolls-then-still', [2, 3, 4, 5]);
    const settled = settlingPipeline(camera, createDiceReader(), config, noPause);
    await expect(settled.camera.capture()).rejects.toMatchObject({ code: 'vision/bad_frame', message: expect.stringMatching(/^4 camera frames in a row were unreadable, the last: the frame is not a readable image: /) });
    expect(taken()).toBe(6);
  });

  it('frees every buffer when it skips torn frames', async () => {
    const { camera } = replay('rolls-then-still', [1, 6]);
    expect(await buffersHeldAfter(() => awaitStill(() => camera.capture(), config, noPause))).toBe(0);
  });
});

// A live camera sends 30 frames a second: buffers left to V8's collector set off full collections.
describe('settle detection frees every OpenCV buffer it allocates', () => {
  it('until the dice are still', async () => {
    const { camera } = replay('rolls-then-still');
    expect(await buffersHeldAfter(() => awaitStill(() => camera.capture(), config, noPause))).toBe(0);
  });

  it('until it reports a jam', async () => {
    const { camera } = replay('never-still');
    let outcome: unknown;
    expect(await buffersHeldAfter(() => awaitStill(() => camera.capture(), config, noPause).catch((err: unknown) => (outcome = err)))).toBe(0);
    expect(outcome).toMatchObject({ code: 'camera/jam' });
  });
});

describe('settle settings', () => {
  it('takes the defaults and one still frame', () => {
    expect(() => checkSettleConfig(DEFAULT_SETTLE_CONFIG)).not.toThrow();
    expect(() => checkSettleConfig({ ...DEFAULT_SETTLE_CONFIG, agreeFrames: 1, stillMs: 0 })).not.toThrow();
  });

  it.each<[Partial<SettleConfig>, string]>([
    [{ agreeFrames: 0 }, 'agreeFrames must be a whole number of at least 1, got 0'],
    [{ agreeFrames: 2.5 }, 'agreeFrames must be a whole number of at least 1, got 2.5'],
    [{ stillMs: -1 }, 'stillMs and intervalMs must be 0 or more, got -1 and 100'],
    [{ intervalMs: Number.NaN }, 'stillMs and intervalMs must be 0 or more, got 600 and NaN'],
    [{ stillMs: 9000 }, 'timeoutMs (8000) must be at least stillMs + agreeFrames frame intervals (9300)'],
    [{ agreeFrames: 5, intervalMs: 1500 }, 'timeoutMs (8000) must be at least stillMs + agreeFrames frame intervals (8100)'],
    // As long as the still time alone: no frame lands exactly on it, so every roll was a jam.
    [{ stillMs: 600, timeoutMs: 600 }, 'timeoutMs (600) must be at least stillMs + agreeFrames frame intervals (900)'],
    [{ pixelThreshold: 255 }, 'pixelThreshold must be a grey level from 0 to 254, got 255'],
    [{ movingShare: 1 }, 'movingShare must be a share from 0 to below 1, got 1'],
  ])('refuses %j, naming the setting', (bad, message) => {
    expect(() => checkSettleConfig({ ...DEFAULT_SETTLE_CONFIG, ...bad })).toThrow(expect.objectContaining({ code: 'vision/bad_config', message: expect.stringContaining(`settle config: ${message}`) }));
  });

  it('are checked when the pipeline is made, before any frame is taken', () => {
    const { camera, taken } = replay('rolls-then-still');
    expect(() => settlingPipeline(camera, createDiceReader(), { ...config, agreeFrames: 0 }, noPause)).toThrow(expect.objectContaining({ code: 'vision/bad_config' }));
    expect(taken()).toBe(0);
  });
});
