import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { dropUnseen, FINDER_SURE } from '../../src/vision/read-dice.js';
import type { DieCandidate } from '../../src/vision/find.js';
import type { DieReading, Point } from '../../src/vision/types.js';

function square(x: number, y: number, size: number): Point[] {
  const h = size / 2;
  return [
    { x: x - h, y: y - h },
    { x: x + h, y: y - h },
    { x: x + h, y: y + h },
    { x: x - h, y: y + h },
  ];
}

function die(value: number | null, x: number, y: number, noFace = false): { die: DieReading; noFace: boolean } {
  return { die: { value, colour: 'white', lab: { L: 90, a: 0, b: 0 }, center: { x, y }, box: square(x, y, 40), size: 40, confidence: value === null ? 0 : 1 }, noFace };
}

const seen = (x: number, y: number, score: number): DieCandidate => ({ center: { x, y }, width: 40, height: 40, score });

describe('what the die finder does not take for a die is dropped (dropUnseen)', () => {
  it('drops an unreadable "die" the classifier takes for no face, unless the finder is sure of a die near it', () => {
    const fastener = die(null, 100, 100, true);
    const cornered = die(null, 300, 100, true);
    const { read } = dropUnseen([fastener, cornered], [], [seen(110, 100, FINDER_SURE - 0.01), seen(310, 100, FINDER_SURE)]);
    expect(read).toEqual([cornered]);
  });

  it('keeps a die read, and an unreadable face the classifier takes for a die, wherever the finder looks', () => {
    const read = [die(4, 100, 100), die(null, 300, 100, false)];
    expect(dropUnseen(read, [], []).read).toEqual(read);
  });

  it('takes the finder at its word only near the die: within 0.6 of its size', () => {
    const lone = die(null, 100, 100, true);
    expect(dropUnseen([lone], [], [seen(100 + 0.6 * 40, 100, 1)]).read).toEqual([lone]);
    expect(dropUnseen([lone], [], [seen(100 + 0.7 * 40, 100, 1)]).read).toEqual([]);
  });

  it('keeps an object holding a die read or a die the finder is sure of, and drops one holding neither', () => {
    const pressed = square(100, 100, 90);
    const stacked = square(300, 100, 90);
    const rim = square(500, 100, 90);
    const { objects } = dropUnseen([die(1, 90, 100)], [pressed, stacked, rim], [seen(300, 100, FINDER_SURE), seen(500, 100, FINDER_SURE - 0.1)]);
    expect(objects).toEqual([pressed, stacked]);
  });
});

describe('real photos whose good rolls the finder lets through', () => {
  // Labelled in fixtures/vision-photos; refused without the finder for a board's fasteners and tray corners read as unreadable dice or objects.
  const photos = ['nell-byler-IMG_20191208_112426', 'nell-byler-IMG_20191208_112522', 'nell-byler-IMG_20191209_100733', 'matteop65-valid_50', 'matteop65-dice_41'];
  const dir = new URL('../../fixtures/vision-photos/', import.meta.url);

  it.each(photos)('%s is refused without the finder, and read valid with it, every labelled die at its value', (name) => {
    const image = decodeFrame(readFileSync(new URL(`${name}.jpg`, dir)));
    const labelled = (JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as { dice: { value: number }[] }).dice;
    expect(readDiceInImage(image, { ...DEFAULT_VISION_CONFIG, finderModel: null }).valid).toBe(false);
    const reading = readDiceInImage(image);
    expect({ valid: reading.valid, problems: reading.problems }).toEqual({ valid: true, problems: [] });
    expect(reading.dice.map((d) => d.value).sort()).toEqual(labelled.map((d) => d.value).sort());
  });
});
