/**
 * Corrections to the shared photo sets' labels (scripts/label-fixes.json):
 * dice labelled with a value their top face does not show, dice left
 * without a label, and labels where the photo shows no die. The sets
 * themselves are not edited (datasets/README.md). Training applies them by
 * default: a wrong label teaches the classifier a wrong value, and a die left
 * out teaches it that a die's face is no face.
 * The benchmark counts against the labels as given unless asked.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Box = readonly [number, number, number, number];
export interface LabelledDie {
  readonly value: number;
  readonly box: Box;
  readonly note?: string;
}
export interface LabelledImage {
  readonly file: string;
  readonly dice: readonly LabelledDie[];
  readonly multiset?: readonly number[];
}
export interface LabelledSet {
  readonly source?: { readonly repo?: string; readonly commit?: string };
  readonly images: readonly LabelledImage[];
}
interface SetFixes {
  readonly repo: string;
  readonly commit: string;
  readonly relabel: readonly { readonly file: string; readonly box: Box; readonly labelled: number; readonly shows: number }[];
  readonly add: readonly { readonly file: string; readonly box: Box; readonly value: number }[];
  readonly remove: readonly { readonly file: string; readonly box: Box; readonly labelled: number }[];
}

export const LABEL_FIXES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'label-fixes.json');

const sameBox = (a: Box, b: Box) => a.every((v, i) => v === b[i]);

/**
 * The set's labels with the fixes for its source (repository and commit)
 * applied, and how many there were. Throws when a fix does not fit the set
 * (no such image, or no die with that box and value): the set has changed.
 */
export function withLabelFixes(set: LabelledSet, file: string = LABEL_FIXES_FILE): { set: LabelledSet; fixes: number } {
  const all = (JSON.parse(readFileSync(file, 'utf8')) as { sets: SetFixes[] }).sets;
  const fixes = all.find((f) => f.repo === set.source?.repo && f.commit === set.source?.commit);
  if (!fixes) return { set, fixes: 0 };
  const images = set.images.map((image) => {
    let dice = [...image.dice];
    const labelledAt = (fix: { box: Box; labelled: number }) => {
      const at = dice.findIndex((d) => sameBox(d.box, fix.box) && d.value === fix.labelled);
      if (at < 0) throw new Error(`${file}: ${image.file} has no die labelled ${fix.labelled} at ${fix.box.join(',')}`);
      return at;
    };
    for (const fix of fixes.remove.filter((f) => f.file === image.file)) dice.splice(labelledAt(fix), 1);
    for (const fix of fixes.relabel.filter((f) => f.file === image.file)) {
      const at = labelledAt(fix);
      dice[at] = { ...(dice[at] as LabelledDie), value: fix.shows };
    }
    dice = [...dice, ...fixes.add.filter((f) => f.file === image.file).map((f) => ({ value: f.value, box: f.box }))];
    return { ...image, dice };
  });
  const known = new Set(set.images.map((image) => image.file));
  const stray = [...fixes.relabel, ...fixes.add, ...fixes.remove].find((f) => !known.has(f.file));
  if (stray) throw new Error(`${file}: ${stray.file} is not in the set`);
  return { set: { ...set, images }, fixes: fixes.relabel.length + fixes.add.length + fixes.remove.length };
}
