import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LABEL_FIXES_FILE, withLabelFixes, type LabelledSet } from '../scripts/label-fixes.js';

const source = { repo: 'someone/dice', commit: 'a'.repeat(40) };
const set: LabelledSet = {
  source,
  images: [
    { file: 'images/a.jpg', dice: [{ value: 2, box: [10, 10, 40, 40] }, { value: 5, box: [50, 10, 80, 40] }] },
    { file: 'images/b.jpg', dice: [{ value: 6, box: [10, 10, 40, 40] }] },
  ],
};

/** A fixes file holding these fixes for `source`. */
function fixesFile(relabel: unknown[], add: unknown[] = [], remove: unknown[] = []): string {
  const file = join(mkdtempSync(join(tmpdir(), 'label-fixes-')), 'fixes.json');
  writeFileSync(file, JSON.stringify({ sets: [{ ...source, relabel, add, remove }] }));
  return file;
}

describe('label fixes for the shared photo sets', () => {
  it('gives a die the value its photo shows and adds a die left without a label, in that image only', () => {
    const file = fixesFile([{ file: 'images/a.jpg', box: [50, 10, 80, 40], labelled: 5, shows: 4 }], [{ file: 'images/b.jpg', box: [60, 60, 90, 90], value: 3 }]);
    const { set: fixed, fixes } = withLabelFixes(set, file);
    expect(fixes).toBe(2);
    expect(fixed.images.map((i) => i.dice.map((d) => d.value))).toEqual([[2, 4], [6, 3]]);
    expect(fixed.images[1]?.dice[1]?.box).toEqual([60, 60, 90, 90]);
    // The set given is not changed.
    expect(set.images[0]?.dice[1]?.value).toBe(5);
  });

  it('drops a label where the photo shows no die, in that image only', () => {
    const file = fixesFile([{ file: 'images/a.jpg', box: [50, 10, 80, 40], labelled: 5, shows: 4 }], [], [{ file: 'images/a.jpg', box: [10, 10, 40, 40], labelled: 2 }]);
    const { set: fixed, fixes } = withLabelFixes(set, file);
    expect(fixes).toBe(2);
    expect(fixed.images.map((i) => i.dice.map((d) => d.value))).toEqual([[4], [6]]);
    expect(fixed.images[0]?.dice[0]?.box).toEqual([50, 10, 80, 40]);
    expect(set.images[0]?.dice).toHaveLength(2);
  });

  it('leaves a set from another source, or from another commit of it, as it is', () => {
    const file = fixesFile([{ file: 'images/a.jpg', box: [50, 10, 80, 40], labelled: 5, shows: 4 }]);
    expect(withLabelFixes({ ...set, source: { ...source, commit: 'b'.repeat(40) } }, file).fixes).toBe(0);
    expect(withLabelFixes({ images: set.images }, file)).toEqual({ set: { images: set.images }, fixes: 0 });
  });

  it('refuses a fix that does not fit the set, naming the image: the set has changed since the fix was written', () => {
    expect(() => withLabelFixes(set, fixesFile([{ file: 'images/a.jpg', box: [50, 10, 80, 40], labelled: 6, shows: 4 }]))).toThrow(/images\/a\.jpg has no die labelled 6 at 50,10,80,40/);
    expect(() => withLabelFixes(set, fixesFile([{ file: 'images/a.jpg', box: [51, 10, 80, 40], labelled: 5, shows: 4 }]))).toThrow(/images\/a\.jpg has no die labelled 5 at 51,10,80,40/);
    expect(() => withLabelFixes(set, fixesFile([], [{ file: 'images/c.jpg', box: [1, 1, 9, 9], value: 1 }]))).toThrow(/images\/c\.jpg is not in the set/);
    expect(() => withLabelFixes(set, fixesFile([], [], [{ file: 'images/b.jpg', box: [10, 10, 40, 40], labelled: 5 }]))).toThrow(/images\/b\.jpg has no die labelled 5 at 10,10,40,40/);
    expect(() => withLabelFixes(set, fixesFile([], [], [{ file: 'images/c.jpg', box: [1, 1, 9, 9], labelled: 1 }]))).toThrow(/images\/c\.jpg is not in the set/);
  });

  it('the project\'s own fixes file is well formed: each fix names its photo, box and values, and says why', () => {
    const { sets } = JSON.parse(readFileSync(LABEL_FIXES_FILE, 'utf8')) as { sets: { relabel: Record<string, unknown>[]; add: Record<string, unknown>[]; remove: Record<string, unknown>[] }[] };
    for (const fixes of sets) {
      for (const fix of [...fixes.relabel, ...fixes.add, ...fixes.remove]) {
        expect(fix).toMatchObject({ file: expect.stringMatching(/^images\/.+\.jpg$/), box: expect.any(Array), why: expect.any(String) });
      }
      const face = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 6;
      for (const fix of fixes.relabel) expect(face(fix.labelled) && face(fix.shows) && fix.labelled !== fix.shows).toBe(true);
      for (const fix of fixes.add) expect(face(fix.value)).toBe(true);
      for (const fix of fixes.remove) expect(face(fix.labelled)).toBe(true);
    }
  });
});
