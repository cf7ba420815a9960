import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_VISION_CONFIG, createDiceReader, type ReadingIssueCode } from '../../src/vision/index.js';
import { readingErrors, type ExpectedDie } from './match.js';
import { SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, outsideScene, renderTray } from '../../src/hardware/simulator/index.js';

/** Recorded by scripts/record-scenes.ts. */
interface SceneFixture {
  readonly width: number;
  readonly height: number;
  readonly dieSize: number;
  readonly expectedCount: number;
  readonly valid: boolean;
  readonly issue?: ReadingIssueCode;
  readonly note: string;
  readonly dice: readonly (ExpectedDie & { sizeClass: 'normal' | 'big' })[];
}

function load(folder: string) {
  const dir = new URL(`../../fixtures/${folder}/`, import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const name = f.replace(/\.json$/, '');
      return { name, fixture: JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as SceneFixture, image: readFileSync(new URL(`${name}.jpg`, dir)) };
    });
}

describe('invalid scenes (fixtures/scenes)', () => {
  const cases = load('scenes');
  const reader = createDiceReader();

  it('covers every validity rule', () => {
    const issues = new Set(cases.map((c) => c.fixture.issue));
    for (const code of ['cocked', 'stacked', 'object', 'outside', 'unreadable', 'too_few', 'too_many', 'empty'] as const) expect(issues).toContain(code);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s is refused for the right reason', async (_, { fixture, image }) => {
    const reading = await reader.read({ image, width: fixture.width, height: fixture.height, capturedAt: 0 }, fixture.expectedCount);
    expect(reading.valid).toBe(false);
    expect(reading.issues?.[0]?.code, `${fixture.note}: ${reading.problems.join('; ')}`).toBe(fixture.issue);
    // The sentence the table shows names the problem.
    expect(reading.problems[0]).toBe(reading.issues?.[0]?.message);
    expect(reading.problems).toHaveLength(reading.issues?.length ?? -1);
  });

  it('reads the untouched dice of a cocked scene as usual, and flags only the cocked die', async () => {
    const { fixture, image } = cases.find((c) => c.name === 'cocked-2') ?? (undefined as never);
    const reading = await reader.read({ image, width: fixture.width, height: fixture.height, capturedAt: 0 }, fixture.expectedCount);
    expect(reading.issues?.map((i) => i.code)).toEqual(['cocked']);
    const cocked = fixture.dice.find((d) => 'tilt' in d) as ExpectedDie;
    expect(Math.hypot((reading.issues?.[0]?.at?.x ?? 0) - cocked.x, (reading.issues?.[0]?.at?.y ?? 0) - cocked.y)).toBeLessThan(cocked.size / 2);
    const flat = fixture.dice.filter((d) => !('tilt' in d));
    const flatReading = { ...reading, valid: true, dice: reading.dice.filter((d) => Math.hypot(d.center.x - cocked.x, d.center.y - cocked.y) > cocked.size / 2) };
    expect(readingErrors(flatReading, flat)).toEqual([]);
  });
});

describe('a turned die cut by the frame\'s edge', () => {
  it('is refused as partly outside the tray, however it is turned and however much of it is cut off', async () => {
    const reader = createDiceReader();
    const missed: string[] = [];
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const angle of [15, 30, 45]) {
        for (const outside of [0.2, 0.35, 0.5]) {
          const dice = outsideScene(new SeededRandom(seed), 3, ['red', 'white', 'blue'], outside, DEFAULT_TRAY, angle);
          const reading = await reader.read({ image: renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed }), width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height, capturedAt: 0 }, dice.length);
          if (reading.valid || !reading.issues?.some((issue) => issue.code === 'outside')) missed.push(`seed ${seed}, ${angle}°, ${outside} out: ${reading.valid ? 'valid' : reading.problems.join('; ')}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });
});

describe('Las Vegas throws (fixtures/las-vegas): colour and size of every die', () => {
  const cases = load('las-vegas');

  it('has a throw of every player colour, big dice and the eight colours together', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
    expect(cases.some((c) => c.fixture.dice.some((d) => d.sizeClass === 'big'))).toBe(true);
    expect(new Set(cases.flatMap((c) => c.fixture.dice.map((d) => d.colour))).size).toBe(8);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s reads every die: value, colour (confident) and size', async (_, { fixture, image }) => {
    const reader = createDiceReader({ ...DEFAULT_VISION_CONFIG, dieSize: fixture.dieSize });
    const reading = await reader.read({ image, width: fixture.width, height: fixture.height, capturedAt: 0 }, fixture.expectedCount);
    expect(readingErrors(reading, fixture.dice)).toEqual([]);
    for (const die of fixture.dice) {
      const read = reading.dice.find((d) => Math.hypot(d.center.x - die.x, d.center.y - die.y) < die.size / 4);
      expect({ colourConfident: read?.colourConfident, sizeClass: read?.sizeClass }).toEqual({ colourConfident: true, sizeClass: die.sizeClass });
      expect(read?.lab).toBeDefined();
    }
  });
});
