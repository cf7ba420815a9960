import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onePhotoSet, type LabelledDie } from './photo-set.js';
import { decodeFrame, readDiceInImage, type DiceReading } from '../src/vision/index.js';

const SCRIPT = fileURLToPath(new URL('../scripts/bench-vision.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const photo = (name: string) => fileURLToPath(new URL(`../fixtures/vision-photos/${name}`, import.meta.url));

/** The shipped reader's reading of the one-photo set's photo. */
function readFixture(): DiceReading {
  const image = decodeFrame(readFileSync(photo('matteop65-dice_23.jpg')));
  try {
    return readDiceInImage(image);
  } finally {
    image.release();
  }
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
    const plain = await bench([onePhotoSet()]);
    const marked = await bench([onePhotoSet({ 0: 'emblem face' })]);
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

  it('counts against the labels as scripts/label-fixes.json corrects them with --label-fixes, and as given without', { timeout: 120_000 }, async () => {
    // A set claiming nell-byler's source: every photo the fixes name (one fixture photo under each name), each relabelled die labelled as the set has it.
    const fixes = JSON.parse(readFileSync(fileURLToPath(new URL('../scripts/label-fixes.json', import.meta.url)), 'utf8')) as {
      sets: { repo: string; commit: string; relabel: { file: string; box: [number, number, number, number]; labelled: number }[]; add: { file: string }[] }[];
    };
    const nell = fixes.sets.find((f) => f.repo === 'nell-byler/dice_detection');
    if (!nell) throw new Error('no nell-byler fixes');
    const dir = mkdtempSync(join(tmpdir(), 'bench-vision-fixes-'));
    mkdirSync(join(dir, 'images'));
    const files = [...new Set([...nell.relabel, ...nell.add].map((f) => f.file))];
    const images = files.map((file) => {
      copyFileSync(photo('matteop65-dice_23.jpg'), join(dir, file));
      return { file, width: 640, height: 640, dice: nell.relabel.filter((f) => f.file === file).map((f) => ({ value: f.labelled, box: f.box })) };
    });
    writeFileSync(join(dir, 'labels.json'), JSON.stringify({ source: { repo: nell.repo, commit: nell.commit }, images }));
    const given = await bench([dir]);
    const fixed = await bench([dir, '--label-fixes']);
    expect(given.code).toBe(0);
    expect(fixed.code).toBe(0);
    expect(given.figures?.dice).toBe(nell.relabel.length);
    expect(given.figures?.labelFixes).toBeUndefined();
    // The dice left without a label are counted too.
    expect(fixed.figures).toMatchObject({ dice: nell.relabel.length + nell.add.length, labelFixes: nell.relabel.length + nell.add.length });
  });

  it('writes every die not read right to the --mistakes file: wrong values, missed dice and phantoms, with the image and the box or centre', { timeout: 120_000 }, async () => {
    // The fixture photo's three dice, all 1s read right (the fixture's own test says so): the first labelled 2, the second left without a label, and a die labelled where there is none.
    const dir = onePhotoSet();
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as { images: { dice: LabelledDie[] }[] };
    const photoLabels = labels.images[0] as { dice: LabelledDie[] };
    const [first, second, third] = photoLabels.dice as [LabelledDie, LabelledDie, LabelledDie];
    photoLabels.dice = [{ ...first, value: 2 }, third, { value: 3, box: [0, 0, 10, 10] }];
    writeFileSync(join(dir, 'labels.json'), JSON.stringify(labels));
    const file = join(dir, 'mistakes.jsonl');
    const { code, figures } = await bench([dir, '--mistakes', file]);
    expect(code).toBe(0);
    // Every die read but the two labelled is a phantom: the unlabelled 1 and whatever the reader reports with no value.
    const phantoms = readFixture().dice.length - 2;
    expect(phantoms).toBeGreaterThanOrEqual(1);
    expect(figures).toMatchObject({ dice: 3, wrongValues: 1, missed: 1, falsePositives: 1, phantoms, phantomsPerPhoto: phantoms });
    const mistakes = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; file: string; box?: number[]; center?: { x: number; y: number }; label?: number; read?: number | null });
    expect(mistakes).toHaveLength(2 + phantoms);
    expect(mistakes.filter((m) => m.kind === 'phantom' && m.read === null)).toHaveLength(phantoms - 1);
    expect(mistakes).toContainEqual(expect.objectContaining({ kind: 'wrong', file: 'images/a.jpg', box: first.box, label: 2, read: 1 }));
    expect(mistakes).toContainEqual({ kind: 'missed', file: 'images/a.jpg', box: [0, 0, 10, 10], label: 3 });
    const phantom = mistakes.find((m) => m.kind === 'phantom' && m.read !== null);
    const [x0, y0, x1, y1] = second.box;
    expect(phantom).toMatchObject({ file: 'images/a.jpg', read: 1 });
    expect(phantom?.center?.x).toBeGreaterThanOrEqual(x0);
    expect(phantom?.center?.x).toBeLessThanOrEqual(x1);
    expect(phantom?.center?.y).toBeGreaterThanOrEqual(y0);
    expect(phantom?.center?.y).toBeLessThanOrEqual(y1);
  });

  it('reads every photo changed with --scale, --blur and --jpeg, its labels scaled with it', { timeout: 120_000 }, async () => {
    const plain = await bench([onePhotoSet()]);
    const changed = await bench([onePhotoSet(), '--scale', '1.5', '--blur', '0.5', '--jpeg', '90']);
    expect(plain.code).toBe(0);
    expect(changed.code).toBe(0);
    expect(plain.figures?.recall).toBe(100);
    // Read centres at 1.5 times the photo's size fall in the labelled boxes only when the boxes are scaled too.
    expect(changed.figures).toMatchObject({ dice: 3, recall: 100, changes: { scale: 1.5, blur: 0.5, jpeg: 90 } });
    expect(plain.figures).not.toHaveProperty('changes');
  });

  it('refuses a change it cannot make, naming the option', async () => {
    for (const [option, value] of [['--scale', '0'], ['--blur', '-1'], ['--jpeg', '101']] as const) {
      const { code, figures, err } = await bench([onePhotoSet(), option, value]);
      expect(code).toBe(2);
      expect(figures).toBeNull();
      expect(err).toContain(`${option} takes`);
    }
    // An option left without its value, last on the line.
    const bare = await bench([onePhotoSet(), '--blur']);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('--blur takes a value, got none');
  });

  it('counts the photos whose labelled dice lie apart, and how many of them are judged a valid roll', { timeout: 120_000 }, async () => {
    const apart = await bench([onePhotoSet()]);
    // The fixture's three dice lie flat and apart; whether the reader judges the roll valid is the reader's matter.
    const read = readFixture();
    // And what refused it: each reason once.
    const reasons = Object.fromEntries([...new Set(read.issues?.map((issue) => issue.code) ?? [])].map((code) => [code, 1]));
    expect(apart.figures).toMatchObject({ apartPhotos: 1, apartValid: read.valid ? 100 : 0, apartRefusals: reasons });
    const dir = onePhotoSet();
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as { images: { dice: LabelledDie[] }[] };
    const dice = (labels.images[0] as { dice: LabelledDie[] }).dice;
    // A label box drawn over another: these dice are not all apart.
    dice.push({ value: 1, box: (dice[0] as LabelledDie).box });
    writeFileSync(join(dir, 'labels.json'), JSON.stringify(labels));
    const touching = await bench([dir]);
    expect(touching.figures).toMatchObject({ apartPhotos: 0, apartValid: 0 });
    // A box overlapping the first by a pixel's corner is touching; one a pixel clear of it both ways is apart.
    const [x0, y0, x1, y1] = (dice[0] as LabelledDie).box;
    for (const [box, apartPhotos] of [[[x1, y1, x1 + 10, y1 + 10], 0], [[x1 + 1, y1 + 1, x1 + 11, y1 + 11], 1], [[x0 - 10, y0 + 2, x0, y1 - 2], 0]] as const) {
      dice[3] = { value: 1, box: [...box] };
      writeFileSync(join(dir, 'labels.json'), JSON.stringify(labels));
      expect((await bench([dir])).figures?.apartPhotos, `a box at [${box.join(', ')}]`).toBe(apartPhotos);
    }
  });

  it('refuses --mistakes without a file to write to, or with one it cannot write, before reading', async () => {
    const none = await bench([onePhotoSet(), '--mistakes']);
    expect(none.code).toBe(2);
    expect(none.figures).toBeNull();
    expect(none.err).toContain('--mistakes needs the file');
    const unwritable = join(onePhotoSet(), 'no-such-folder', 'mistakes.jsonl');
    const bad = await bench([onePhotoSet(), '--mistakes', unwritable]);
    expect(bad.code).toBe(2);
    expect(bad.figures).toBeNull();
    expect(bad.err).toContain(`cannot write the --mistakes file ${unwritable}`);
  });

  it('takes a yes/no setting as 0 or 1 and reports it as no or yes', { timeout: 120_000 }, async () => {
    const { code, figures } = await bench([onePhotoSet(), '--set', 'rereadTurned=0', '--set', 'findByPips=1', '--set', 'minConfidence=0.7']);
    expect(code).toBe(0);
    expect((figures as unknown as { overrides: unknown }).overrides).toEqual({ rereadTurned: false, findByPips: true, minConfidence: 0.7 });
  });

  it('refuses a --set of a setting that is not a number or yes/no, naming it', async () => {
    const { code, figures, err } = await bench([onePhotoSet(), '--set', 'pipThresholds=50']);
    expect(code).toBe(2);
    expect(figures).toBeNull();
    expect(err).toContain('"pipThresholds=50"');
  });
});
