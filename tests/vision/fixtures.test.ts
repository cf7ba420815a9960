import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
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

  it('refuses bytes that are not an image with a clear error', async () => {
    await expect(reader.read({ image: Buffer.from('not a jpeg'), width: 1, height: 1, capturedAt: 0 })).rejects.toMatchObject({
      code: 'vision/bad_frame',
      message: expect.stringContaining('not a readable image'),
    });
  });
});
