import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import cv from '../../src/hardware/opencv.js';
import { createDiceReader } from '../../src/vision/index.js';
import { readingErrors, type ExpectedDie } from './match.js';

const dir = new URL('../../fixtures/vision/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

interface Fixture {
  readonly width: number;
  readonly height: number;
  readonly valid: boolean;
  readonly dice: readonly ExpectedDie[];
}

describe('vision on recorded fixture frames', () => {
  const reader = createDiceReader();

  it('has fixtures to read', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases)('%s reads as recorded', async (name) => {
    const expected = JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as Fixture;
    const image = readFileSync(new URL(`${name}.jpg`, dir));
    const reading = await reader.read({ image, width: expected.width, height: expected.height, capturedAt: 0 }, expected.dice.length);
    expect(reading.valid).toBe(expected.valid);
    expect(readingErrors(reading, expected.dice)).toEqual([]);
  });

  it('refuses an empty frame, a JPEG cut short and a frame too small for a view of the tray, naming the problem', async () => {
    const frame = (image: Buffer) => ({ image, width: 1, height: 1, capturedAt: 0 });
    await expect(reader.read(frame(Buffer.alloc(0)))).rejects.toMatchObject({ code: 'vision/bad_frame', message: 'the frame is not a readable image: it is empty (0 bytes)' });
    const whole = readFileSync(new URL(`${cases[0]}.jpg`, dir));
    await expect(reader.read(frame(whole.subarray(0, whole.length >> 1)))).rejects.toMatchObject({ code: 'vision/bad_frame', message: expect.stringContaining('the JPEG data stops before its end') });
    const tiny = cv.imencode('.png', new cv.Mat(40, 48, cv.CV_8UC3, [200, 200, 200]));
    await expect(reader.read(frame(tiny))).rejects.toMatchObject({ code: 'vision/bad_frame', message: expect.stringContaining('the frame is 48x40: too small') });
  });

  it('reads a grey image as a colour one (decoded to BGR, not left with one channel)', async () => {
    const name = cases[0] as string;
    const expected = JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as Fixture;
    const grey = cv.imencode('.png', cv.imdecode(readFileSync(new URL(`${name}.jpg`, dir))).cvtColor(cv.COLOR_BGR2GRAY));
    const reading = await reader.read({ image: grey, width: expected.width, height: expected.height, capturedAt: 0 }, expected.dice.length);
    expect(reading.dice.map((d) => d.value).sort()).toEqual(expected.dice.map((d) => d.value).sort());
  });

  it('refuses bytes that are not an image with a clear error', async () => {
    await expect(reader.read({ image: Buffer.from('not a jpeg'), width: 1, height: 1, capturedAt: 0 })).rejects.toMatchObject({
      code: 'vision/bad_frame',
      message: expect.stringContaining('not a readable image'),
    });
  });
});
