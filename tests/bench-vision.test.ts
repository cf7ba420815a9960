import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../scripts/bench-vision.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const photo = (name: string) => fileURLToPath(new URL(`../fixtures/vision-photos/${name}`, import.meta.url));

interface LabelledDie {
  value: number;
  box: [number, number, number, number];
  note?: string;
}

/** A one-photo set in shared/datasets/FORMAT.md's layout, from a fixture photo and its labels (some dice given a note). */
function dataset(notes: Record<number, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-vision-'));
  mkdirSync(join(dir, 'images'));
  copyFileSync(photo('matteop65-dice_23.jpg'), join(dir, 'images', 'a.jpg'));
  const fixture = JSON.parse(readFileSync(photo('matteop65-dice_23.json'), 'utf8')) as { width: number; height: number; dice: LabelledDie[] };
  const dice = fixture.dice.map((d, i) => (notes[i] ? { ...d, note: notes[i] } : d));
  writeFileSync(join(dir, 'labels.json'), JSON.stringify({ images: [{ file: 'images/a.jpg', width: fixture.width, height: fixture.height, dice }] }));
  return dir;
}

/** Runs the benchmark; resolves with its exit code, the figures of its last line (when it printed one) and stderr. */
function bench(args: string[]): Promise<{ code: number | null; figures: Record<string, number> | null; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(TSX, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += String(c)));
    proc.stderr.on('data', (c) => (err += String(c)));
    proc.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve({ code, figures: last.startsWith('{') ? (JSON.parse(last) as Record<string, number>) : null, err });
    });
  });
}

describe('npm run bench:vision', () => {
  it('scores emblem faces apart: out of the recall and precision, and a prediction on one is no false positive', { timeout: 120_000 }, async () => {
    const plain = await bench([dataset()]);
    const marked = await bench([dataset({ 0: 'emblem face' })]);
    expect(plain.code).toBe(0);
    expect(marked.code).toBe(0);
    const p = plain.figures as Record<string, number>;
    const m = marked.figures as Record<string, number>;
    // The photo's first die is read right when it is an ordinary die (the fixture's own test says so).
    expect(p.dice).toBe(3);
    expect(p.recall).toBe(100);
    expect(p.emblemDice).toBeUndefined();
    expect(m).toMatchObject({ dice: 2, recall: 100, falsePositives: p.falsePositives, emblemDice: 1, emblemRead: 1, emblemUnreadable: 0, emblemMissed: 0 });
  });

  it('refuses a --set of a setting that is not a number or yes/no, naming it', async () => {
    const { code, figures, err } = await bench([dataset(), '--set', 'pipThresholds=50']);
    expect(code).toBe(2);
    expect(figures).toBeNull();
    expect(err).toContain('"pipThresholds=50"');
  });
});
