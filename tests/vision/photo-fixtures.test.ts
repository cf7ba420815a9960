import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { decodeFrame, readDiceInImage } from '../../src/vision/index.js';

/** Real photos (fixtures/vision-photos, see its README for the source and licence) that must read exactly. */
const dir = new URL('../../fixtures/vision-photos/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

interface PhotoFixture {
  readonly width: number;
  readonly height: number;
  readonly dice: readonly { readonly value: number; readonly box: readonly [number, number, number, number] }[];
}

describe('vision on real photos', () => {
  it('has photo fixtures', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('%s reads every labelled die, and nothing else', (name) => {
    const expected = JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as PhotoFixture;
    const reading = readDiceInImage(decodeFrame(readFileSync(new URL(`${name}.jpg`, dir))));
    expect([reading.width, reading.height]).toEqual([expected.width, expected.height]);
    const unmatched = new Set(reading.dice.map((_, i) => i));
    const errors: string[] = [];
    for (const die of expected.dice) {
      const [x0, y0, x1, y1] = die.box;
      const hit = [...unmatched].find((i) => {
        const c = reading.dice[i]?.center;
        return c !== undefined && c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1;
      });
      if (hit === undefined) {
        errors.push(`die in [${die.box.join(', ')}] not found`);
        continue;
      }
      unmatched.delete(hit);
      const value = reading.dice[hit]?.value;
      if (value !== die.value) errors.push(`die in [${die.box.join(', ')}]: read ${value}, is ${die.value}`);
    }
    for (const i of unmatched) {
      const d = reading.dice[i];
      if (d?.value !== null) errors.push(`phantom die read as ${d?.value} at (${Math.round(d?.center.x ?? 0)}, ${Math.round(d?.center.y ?? 0)})`);
    }
    expect(errors).toEqual([]);
  });
});
