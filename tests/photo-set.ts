import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LabelledDie {
  value: number;
  box: [number, number, number, number];
  note?: string;
}

/** A one-photo set in shared/datasets/FORMAT.md's layout, in a new temporary folder, from fixture photo matteop65-dice_23 and its labels (dice given a note by index). */
export function onePhotoSet(notes: Record<number, string> = {}): string {
  const photo = (name: string) => fileURLToPath(new URL(`../fixtures/vision-photos/${name}`, import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'photo-set-'));
  mkdirSync(join(dir, 'images'));
  copyFileSync(photo('matteop65-dice_23.jpg'), join(dir, 'images', 'a.jpg'));
  const fixture = JSON.parse(readFileSync(photo('matteop65-dice_23.json'), 'utf8')) as { width: number; height: number; dice: LabelledDie[] };
  const dice = fixture.dice.map((d, i) => (notes[i] ? { ...d, note: notes[i] } : d));
  writeFileSync(join(dir, 'labels.json'), JSON.stringify({ images: [{ file: 'images/a.jpg', width: fixture.width, height: fixture.height, dice }] }));
  return dir;
}
