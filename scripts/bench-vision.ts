/**
 * Vision benchmark on a labelled photo set (layout: shared/datasets/FORMAT.md).
 * Matches each predicted die to a labelled one by "predicted centre inside the
 * labelled box" (nearest box centre first), and prints dice-level recall and
 * precision, the share of images read exactly, a confusion matrix over values,
 * the share of dice reported unreadable, and milliseconds per image (decode +
 * read, OpenCV on one thread; also the read alone). The last line is one JSON
 * object of the figures.
 *
 *   npm run bench:vision -- <dataset-dir> [--half 0|1] [--limit N] [--set key=value ...] [--model DIR] [--label-fixes] [--mistakes FILE]
 *                          [--scale F] [--blur SIGMA] [--jpeg Q] [--finder FILE] [--found]
 *
 * `--half 0` takes the images at even positions of labels.json, `--half 1`
 * the odd ones: tune on one half, report on the other (a held-out check).
 * `--set` overrides one numeric or yes/no (0 or 1) `VisionConfig` tunable for the run (repeatable),
 * for trying a setting without editing the defaults (`--set useClassifier=0`
 * reads with the pip counter alone). `--model DIR` reads with the face
 * classifier in DIR (say one trained on `--half 0` only, to measure on half 1).
 * `--label-fixes` counts against the labels as scripts/label-fixes.json
 * corrects them (values the photos do not show, dice left without a label);
 * by default, against the labels as given.
 * `--mistakes FILE` writes every die not read right to FILE, one JSON object
 * a line (`kind`: wrong, unreadable, missed or phantom, valued or not; the
 * image, the labelled box or the read centre, both values), for checking
 * them in the photos.
 * `--scale F`, `--blur SIGMA` and `--jpeg Q` change every photo first
 * (scripts/photo-changes.ts): the same dice at another size, through a worse
 * camera. `--finder FILE` asks the die finder model in FILE (say one trained
 * on `--half 0`) where the reader found no die it could read (`--finder none`:
 * no finder asked, everything reported); `--found`
 * reads with the finder-driven reader under construction (src/vision/reader.ts).
 * Also printed: phantoms (dice reported where none is labelled, with a value
 * or without) a photo, and the share of photos whose labelled dice all lie
 * apart that are judged a valid roll.
 * Dice labelled `"note": "emblem face"` (a logo for a value, which no pip
 * counter reads) are scored apart, as FORMAT.md asks: not in the recall,
 * precision or exact images; a prediction on one is no false positive.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cv from '../src/hardware/opencv.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage, type DieReading, type VisionConfig } from '../src/vision/index.js';
import type { Point } from '../src/vision/types.js';
import { withLabelFixes, type LabelledSet } from './label-fixes.js';
import { imagesOfHalf, type Half } from './photo-halves.js';
import { changePhoto, changesAnything, describeChanges, parsePhotoChanges, type PhotoChanges } from './photo-changes.js';
import { readFoundDice } from '../src/vision/reader.js';

const args = process.argv.slice(2);
const optionValues = new Set(args.flatMap((a, i) => (['--limit', '--set', '--half', '--model', '--mistakes', '--finder', '--scale', '--blur', '--jpeg'].includes(a) ? [i + 1] : [])));
const dir = args.find((a, i) => !a.startsWith('--') && !optionValues.has(i));
const limitAt = args.indexOf('--limit');
const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : Infinity;
const halfAt = args.indexOf('--half');
const half = halfAt >= 0 ? args[halfAt + 1] : undefined;
if (half !== undefined && half !== '0' && half !== '1') {
  console.error(`bench:vision: --half takes 0 (even positions) or 1 (odd positions), got "${half}"`);
  process.exit(2);
}
const overrides: Record<string, number | boolean> = {};
args.forEach((a, i) => {
  if (a !== '--set') return;
  const [key, value] = (args[i + 1] ?? '').split('=');
  const kind = key === undefined ? undefined : typeof (DEFAULT_VISION_CONFIG as unknown as Record<string, unknown>)[key];
  if (key === undefined || (kind !== 'number' && kind !== 'boolean') || !Number.isFinite(Number(value))) {
    console.error(`bench:vision: --set needs key=number with a numeric or yes/no (0 or 1) VisionConfig key, got "${args[i + 1]}"`);
    process.exit(2);
  }
  // Yes/no settings are set as 0 or 1.
  overrides[key] = kind === 'boolean' ? Number(value) !== 0 : Number(value);
});
let changes: PhotoChanges;
try {
  changes = parsePhotoChanges((name) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? '') : undefined));
} catch (err) {
  console.error(`bench:vision: ${(err as Error).message}`);
  process.exit(2);
}
const modelAt = args.indexOf('--model');
const finderAt = args.indexOf('--finder');
const config: VisionConfig = {
  ...DEFAULT_VISION_CONFIG,
  ...overrides,
  ...(modelAt >= 0 ? { classifierModel: args[modelAt + 1] as string } : {}),
  ...(finderAt >= 0 ? { finderModel: args[finderAt + 1] === 'none' ? null : (args[finderAt + 1] as string) } : {}),
};
if (!dir) {
  console.error('usage: npm run bench:vision -- <dataset-dir> [--half 0|1] [--limit N] [--set key=value ...] [--model DIR] [--label-fixes] [--mistakes FILE] [--scale F] [--blur SIGMA] [--jpeg Q] [--finder FILE] [--found]');
  process.exit(2);
}
let labels: LabelledSet;
try {
  labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8'));
} catch (err) {
  console.error(`bench:vision: cannot read ${join(dir, 'labels.json')}: ${(err as Error).message}`);
  process.exit(2);
}
const fixLabels = args.includes('--label-fixes');
let labelFixes = 0;
if (fixLabels) ({ set: labels, fixes: labelFixes } = withLabelFixes(labels));
const mistakesAt = args.indexOf('--mistakes');
const mistakesFile = mistakesAt >= 0 ? args[mistakesAt + 1] : undefined;
if (mistakesAt >= 0 && (mistakesFile === undefined || mistakesFile.startsWith('--'))) {
  console.error('bench:vision: --mistakes needs the file to write the dice not read right to');
  process.exit(2);
}
if (mistakesFile !== undefined) {
  // Checked before the run, not after it.
  try {
    writeFileSync(mistakesFile, '');
  } catch (err) {
    console.error(`bench:vision: cannot write the --mistakes file ${mistakesFile}: ${(err as Error).message}`);
    process.exit(2);
  }
}
/** Whether no two boxes touch: a photo whose dice all lie apart (flat is not labelled; in the top-down sets nearly every die is). */
function isApart(boxes: readonly (readonly [number, number, number, number])[]): boolean {
  return boxes.every((a, i) => boxes.every((b, j) => j <= i || a[2] < b[0] || b[2] < a[0] || a[3] < b[1] || b[3] < a[1]));
}
const rounded = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
/** Every die not read right, as written to the --mistakes file. */
const mistakes: object[] = [];
cv.setNumThreads(1);

// confusion[true value][predicted value], predicted 0 = unreadable, 7 = missed.
const confusion = Array.from({ length: 7 }, () => new Array<number>(8).fill(0));
let labelled = 0;
let correct = 0;
let predictedWithValue = 0;
let unreadable = 0;
let falsePositives = 0;
// Dice reported where no die is labelled, with a value or without (a null "die" on a screw is a phantom too).
let phantoms = 0;
// Photos whose labelled dice all lie apart (no two boxes touch), and how many of them are judged a valid roll.
const apart = { photos: 0, valid: 0 };
const apartRefusals = new Map<string, number>();
let exactImages = 0;
let images = 0;
const emblems = { dice: 0, read: 0, unreadable: 0, missed: 0 };
const ms: number[] = [];
// CPU time of this process per image as well: on a shared, busy machine wall time mostly measures waiting.
const cpuMs: number[] = [];
// The reader's own time (the reading's ms), without decoding: a JPEG's decoding is a fifth of a 640x640 photo's time and is not the reader's work.
const readMs: number[] = [];

const chosen = half === undefined ? labels.images : imagesOfHalf(labels.images, Number(half) as Half);
for (const image of chosen.filter((i) => i.dice.length > 0).slice(0, limit)) {
  const bytes = readFileSync(join(dir, image.file));
  let started = performance.now();
  let cpuStarted = process.cpuUsage();
  let decoded = decodeFrame(bytes);
  if (changesAnything(changes)) {
    // The changed photo is what a camera gives: its making is not timed, its decoding and reading are.
    const decodeMs = performance.now() - started;
    const decodeCpu = process.cpuUsage(cpuStarted);
    decoded = changePhoto(decoded, changes);
    started = performance.now() - decodeMs;
    const now = process.cpuUsage();
    cpuStarted = { user: now.user - decodeCpu.user, system: now.system - decodeCpu.system };
  }
  const reading = args.includes('--found') ? readFoundDice(decoded, config) : readDiceInImage(decoded, config);
  // As the camera reader does: the frame is freed at once, not left to V8's garbage collector.
  decoded.release();
  ms.push(performance.now() - started);
  readMs.push(reading.ms);
  const cpu = process.cpuUsage(cpuStarted);
  cpuMs.push((cpu.user + cpu.system) / 1000);
  // Where each die was read, in the photo's own pixels (a changed photo's scale undone), as the labels and the --mistakes file have them.
  const centres = reading.dice.map((d) => ({ x: d.center.x / changes.scale, y: d.center.y / changes.scale }));
  images++;
  const free = new Set<number>(reading.dice.map((_, i) => i));
  let imageExact = true;
  if (isApart(image.dice.map((d) => d.box))) {
    apart.photos++;
    if (reading.valid) apart.valid++;
    // Each reason once a photo: what keeps good rolls from being judged valid.
    for (const code of new Set(reading.issues?.map((issue) => issue.code) ?? [])) apartRefusals.set(code, (apartRefusals.get(code) ?? 0) + 1);
  }
  for (const die of image.dice) {
    const emblem = die.note === 'emblem face';
    if (emblem) emblems.dice++;
    else labelled++;
    const [x0, y0, x1, y1] = die.box;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    let best: number | null = null;
    for (const i of free) {
      const c = centres[i] as Point;
      if (c.x < x0 || c.x > x1 || c.y < y0 || c.y > y1) continue;
      const prev = best === null ? Infinity : Math.hypot((centres[best] as Point).x - cx, (centres[best] as Point).y - cy);
      if (Math.hypot(c.x - cx, c.y - cy) < prev) best = i;
    }
    const row = confusion[die.value] as number[];
    if (best === null) {
      if (emblem) emblems.missed++;
      else {
        row[7] = (row[7] ?? 0) + 1;
        imageExact = false;
        mistakes.push({ kind: 'missed', file: image.file, box: die.box, label: die.value });
      }
      continue;
    }
    free.delete(best);
    const value = (reading.dice[best] as DieReading).value;
    if (emblem) {
      if (value === null) emblems.unreadable++;
      else if (value === die.value) emblems.read++;
      continue;
    }
    row[value ?? 0] = (row[value ?? 0] ?? 0) + 1;
    const read = reading.dice[best] as DieReading;
    const mistake = { file: image.file, box: die.box, label: die.value, read: value, confidence: rounded(read.confidence, 3) };
    if (value === null) {
      unreadable++;
      imageExact = false;
      mistakes.push({ kind: 'unreadable', ...mistake });
    } else {
      predictedWithValue++;
      if (value === die.value) correct++;
      else {
        imageExact = false;
        mistakes.push({ kind: 'wrong', ...mistake });
      }
    }
  }
  for (const i of free) {
    const read = reading.dice[i] as DieReading;
    phantoms++;
    const c = centres[i] as Point;
    mistakes.push({ kind: 'phantom', file: image.file, center: { x: rounded(c.x, 1), y: rounded(c.y, 1) }, read: read.value, confidence: rounded(read.confidence, 3) });
    if (read.value !== null) {
      falsePositives++;
      predictedWithValue++;
      imageExact = false;
    }
  }
  if (imageExact) exactImages++;
}

const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10);
const quantile = (q: number, xs: number[] = ms) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const wrong = predictedWithValue - correct - falsePositives;
const figures = {
  dataset: dir,
  ...(half !== undefined ? { half: Number(half) } : {}),
  ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
  ...(fixLabels ? { labelFixes } : {}),
  images,
  dice: labelled,
  recall: pct(correct, labelled),
  precision: pct(correct, predictedWithValue),
  imagesExact: pct(exactImages, images),
  unreadable: pct(unreadable, labelled),
  wrongValues: wrong,
  falsePositives,
  missed: confusion.reduce((s, r) => s + (r[7] ?? 0), 0),
  phantoms,
  phantomsPerPhoto: rounded(phantoms / Math.max(1, images), 2),
  apartPhotos: apart.photos,
  apartValid: pct(apart.valid, apart.photos),
  apartRefusals: Object.fromEntries(apartRefusals),
  ...(changesAnything(changes) ? { changes } : {}),
  msMedian: Math.round(quantile(0.5) * 10) / 10,
  msP95: Math.round(quantile(0.95) * 10) / 10,
  cpuMsMedian: Math.round(quantile(0.5, cpuMs) * 10) / 10,
  cpuMsP95: Math.round(quantile(0.95, cpuMs) * 10) / 10,
  readMsMedian: Math.round(quantile(0.5, readMs) * 10) / 10,
  ...(emblems.dice > 0 ? { emblemDice: emblems.dice, emblemRead: emblems.read, emblemUnreadable: emblems.unreadable, emblemMissed: emblems.missed } : {}),
};

console.log(`${dir}${half === undefined ? '' : ` (half ${half})`}${describeChanges(changes)}: ${images} images, ${labelled} labelled dice${fixLabels ? ` (labels corrected by scripts/label-fixes.json: ${labelFixes} fixes in the set)` : ''}`);
console.log(`recall ${figures.recall}%   precision ${figures.precision}%   images exact ${figures.imagesExact}%   unreadable ${figures.unreadable}%`);
console.log(`wrong values ${wrong}   false positives ${falsePositives}   missed ${figures.missed}   phantoms (valued or not) ${phantoms}, ${figures.phantomsPerPhoto} a photo`);
console.log(`valid rolls: ${apart.valid} of ${apart.photos} photos whose labelled dice lie apart (${figures.apartValid}%)`);
if (apartRefusals.size > 0) console.log(`  the others refused for (photos): ${[...apartRefusals].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ')}`);
if (emblems.dice > 0) console.log(`emblem faces (scored apart): ${emblems.dice}, read right ${emblems.read}, unreadable ${emblems.unreadable}, missed ${emblems.missed}`);
console.log(`ms per image (one thread): median ${figures.msMedian}, p95 ${figures.msP95}   (CPU time: median ${figures.cpuMsMedian}, p95 ${figures.cpuMsP95}; the read alone, without decoding: median ${figures.readMsMedian})`);
console.log('\nconfusion (rows: true value; columns: read as)');
console.log(['true', '1', '2', '3', '4', '5', '6', '?', 'missed'].map((h) => h.padStart(7)).join(''));
for (let v = 1; v <= 6; v++) {
  const row = confusion[v] as number[];
  console.log([String(v), ...[1, 2, 3, 4, 5, 6, 0, 7].map((p) => String(row[p] ?? 0))].map((c) => c.padStart(7)).join(''));
}
if (mistakesFile !== undefined) {
  writeFileSync(mistakesFile, mistakes.map((m) => JSON.stringify(m) + '\n').join(''));
  console.log(`${mistakes.length} dice not read right written to ${mistakesFile}`);
}
console.log(JSON.stringify(figures));
