/**
 * Trains the die-face classifier (src/vision/face-classifier.ts) and writes it
 * as a Darknet model (cfg + weights) that OpenCV's dnn module loads. This
 * script finds the faces; scripts/train_die_classifier.py trains on them with
 * Debian's python3-torch (a development tool only: reading needs just OpenCV).
 *
 *   npx tsx scripts/train-die-classifier.ts [--out DIR] [--half 0|1] [--sim N] [--epochs N] [--finder FILE] [--jitter N] [--jitter SET=N ...] [--jitter-turn DEG] [--seed N] [--labels-as-given] <dataset-dir> ...
 *
 * Faces come from the reader's own die finder (so training sees what reading
 * sees; `--finder FILE`: the finder-driven reader's boxes, reader.ts, with the
 * learned finder in FILE): every blob whose box holds exactly one labelled die's centre is a
 * sample with that die's value. Datasets are in shared/datasets/FORMAT.md's
 * layout; `--half 0` keeps half 0 of each set (scripts/photo-halves.ts: the
 * images at even positions of labels.json, the copies of one source photo
 * together), to measure on half 1 with `npm run bench:vision -- DIR --half 1`.
 * `--sim N` adds N simulator frames (seeded) so the simulated tower stays read.
 * `--jitter N` adds N more copies of every blob found in a photo or simulator frame, each
 * warped again from the full-resolution frame through a box shifted, scaled and turned a
 * little (as far as the die finder's boxes stray). `--jitter SET=N` gives the set whose
 * folder is named SET its own N (repeat it for more sets): the shipped model warps
 * nell-byler's faces 13 times, the others 6, as its many colours are read worst.
 * `--jitter-turn DEG` turns the warped boxes by up to DEG degrees either way (default 8; 20 is a
 * candidate, measured on one half only: BENCHMARKS.md, session 18).
 * The labels are corrected by scripts/label-fixes.json (a value the photo does
 * not show, a die left without a label) unless `--labels-as-given`.
 * Seeded throughout: the same inputs give the same model files. `--seed N`
 * (default 7) seeds the network's training only (its start and the order of
 * the faces): models trained with other seeds show how far the figures move
 * between trainings on the same faces.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DIE_COLOURS, SeededRandom } from '../src/hardware/index.js';
import cv from '../src/hardware/opencv.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../src/hardware/simulator/index.js';
import { CLASSES, FACE_INPUT_CHANNELS, FACE_INPUT_SIDE, faceInput, loadFaceClassifier, MODEL_CFG, MODEL_DIR, MODEL_WEIGHTS } from '../src/vision/face-classifier.js';
import { findDieBlobs } from '../src/vision/blobs.js';
import type { Blob } from '../src/vision/box.js';
import { DEFAULT_VISION_CONFIG, type VisionConfig } from '../src/vision/config.js';
import { uprightFace } from '../src/vision/face.js';
import { decodeFrame } from '../src/vision/read-dice.js';
import { readFace } from '../src/vision/value.js';
import type { Point } from '../src/vision/types.js';
import { findDieBoxes } from '../src/vision/reader.js';
import { withLabelFixes, type LabelledSet } from './label-fixes.js';
import { imagesOfHalf, type Half } from './photo-halves.js';

interface Sample {
  readonly input: Float32Array;
  readonly value: number;
}

const args = process.argv.slice(2);
/** Every value given for an option (`--jitter` may be repeated), and the first one. */
function options(name: string): string[] {
  return args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1] as string] : []));
}
const option = (name: string): string | undefined => options(name)[0];
// Every option but the one flag takes a value.
const optionValues = new Set(args.flatMap((a, i) => (a.startsWith('--') && a !== '--labels-as-given' ? [i + 1] : [])));
const datasets = args.filter((a, i) => !a.startsWith('--') && !optionValues.has(i));
const out = option('--out') ?? MODEL_DIR;
const half = option('--half');
const simFrames = Number(option('--sim') ?? 300);
const epochs = Number(option('--epochs') ?? 20);
// `--jitter N` for every set and the simulator, `--jitter SET=N` for the set in folder SET.
const jitters = options('--jitter').map((given) => {
  const m = /^(?:(.+)=)?(\d+)$/.exec(given);
  if (m === null) throw new Error(`--jitter takes N or SET=N (N a whole number), got "${given}"`);
  return { set: m[1], copies: Number(m[2]) };
});
const jitter = jitters.findLast((j) => j.set === undefined)?.copies ?? 0;
const jitterOf = (dir: string): number => jitters.findLast((j) => j.set === basename(dir))?.copies ?? jitter;
const seed = option('--seed') ?? '7';
const jitterTurn = Number(option('--jitter-turn') ?? 8);
if (!(jitterTurn >= 0 && jitterTurn <= 45)) throw new Error(`--jitter-turn takes degrees from 0 to 45, got "${option('--jitter-turn')}"`);
const asGiven = args.includes('--labels-as-given');
// The die finder whose boxes give the faces (reader.ts), or none: the mask finder's (blobs.ts), as the shipped reader reads.
const finderModel = option('--finder');
const jitterRng = new SeededRandom(31_337);
// Debian's interpreter, where apt's python3-torch is installed (not a pyenv or venv python on PATH).
const PYTHON = process.env.DICE_TOWER_PYTHON ?? '/usr/bin/python3';
if (half !== undefined && half !== '0' && half !== '1') throw new Error(`--half takes 0 or 1, got "${half}"`);
if (!/^\d+$/.test(seed)) throw new Error(`--seed takes a whole number, got "${seed}"`);
if (datasets.length === 0 && simFrames === 0) {
  console.error('usage: npx tsx scripts/train-die-classifier.ts [--out DIR] [--half 0|1] [--sim N] [--epochs N] [--finder FILE] [--jitter N] [--jitter SET=N ...] [--jitter-turn DEG] [--seed N] [--labels-as-given] <dataset-dir> ...');
  process.exit(2);
}
const unknown = jitters.find((j) => j.set !== undefined && !datasets.some((dir) => basename(dir) === j.set));
if (unknown !== undefined) throw new Error(`--jitter ${unknown.set}=${unknown.copies}: no dataset folder named "${unknown.set}" is given`);
// Lone 1s (findLoneOnes, session 25) are not yet among the faces trained on: the shipped model was trained without them, and
// this keeps it what this script makes. About 27 boxes more over the three photo sets (with their warped copies, about 1 %
// of the faces); retraining with them, and measuring that held out, takes the two to three hours of a full and two half models.
// So are white dice whose dark pips are parted where blur joined them (partBlurredPips, session 32): without them the faces are the
// ones the shipped model was trained on.
const cfg: VisionConfig = { ...DEFAULT_VISION_CONFIG, findLoneOnes: false, partBlurredPips: false };
cv.setNumThreads(1);

function inside(p: Point, poly: readonly Point[]): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i] as Point;
    const b = poly[j] as Point;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) hit = !hit;
  }
  return hit;
}

/**
 * The faces the die finder sees in an image, each with the value of the one labelled die inside its box, or 0 when its box holds none
 * or several. A box holding an emblem face (`unlabelled`: a logo for a value) is no sample: neither a value's pips nor no die.
 */
function facesOf(image: cv.Mat, dice: readonly { value: number; center: Point }[], jitter: number, rng: SeededRandom, unlabelled: readonly Point[] = []): Sample[] {
  const samples: Sample[] = [];
  const sample = (blob: Blob, value: number) => {
    const upright = uprightFace(image, blob, cfg.facePatch);
    const face = readFace(upright, cfg);
    upright.release();
    const data = faceInput(face.inner, face.body).getData();
    face.inner.release();
    // A copy of exactly the face's floats (the Buffer may be a view into a larger pool).
    samples.push({ input: new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4).slice(), value });
  };
  const boxes = finderModel === undefined ? findDieBlobs(image, cfg).blobs : findDieBoxes(image, { ...DEFAULT_VISION_CONFIG, finderModel }).boxes;
  for (const blob of boxes) {
    if (unlabelled.some((c) => inside(c, blob.box))) continue;
    const held = dice.filter((d) => inside(d.center, blob.box));
    // No die in it, or two: an example of what is not one die's face (class 0).
    const value = held.length === 1 ? (held[0] as { value: number }).value : 0;
    sample(blob, value);
    // The same face as a slightly misplaced box would show it, warped again from the full-resolution image.
    for (let k = 0; k < jitter; k++) sample({ ...blob, box: jitterBox(blob.box, rng) }, value);
  }
  return samples;
}

/** A face box shifted, scaled and turned a little: how far the die finder's boxes stray from the true face. */
function jitterBox(box: readonly Point[], rng: SeededRandom): Point[] {
  const cx = box.reduce((s, p) => s + p.x, 0) / box.length;
  const cy = box.reduce((s, p) => s + p.y, 0) / box.length;
  const edge = Math.hypot((box[1] as Point).x - (box[0] as Point).x, (box[1] as Point).y - (box[0] as Point).y);
  const scale = rng.range(0.92, 1.08);
  const turn = (rng.range(-jitterTurn, jitterTurn) * Math.PI) / 180;
  const dx = rng.range(-0.06, 0.06) * edge;
  const dy = rng.range(-0.06, 0.06) * edge;
  return box.map((p) => {
    const x = (p.x - cx) * scale;
    const y = (p.y - cy) * scale;
    return { x: cx + dx + x * Math.cos(turn) - y * Math.sin(turn), y: cy + dy + x * Math.sin(turn) + y * Math.cos(turn) };
  });
}

const samples: Sample[] = [];
for (const dir of datasets) {
  const given = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as LabelledSet;
  const { set: labels, fixes } = asGiven ? { set: given, fixes: 0 } : withLabelFixes(given);
  const chosen = half === undefined ? labels.images : imagesOfHalf(labels.images, Number(half) as Half);
  let labelled = 0;
  const before = samples.length;
  const centre = (box: readonly [number, number, number, number]): Point => ({ x: (box[0] + box[2]) / 2, y: (box[1] + box[3]) / 2 });
  for (const image of chosen) {
    // An image labelled only with its values (no boxes) cannot say which blob is which die, nor which is none.
    if (image.multiset !== undefined && image.dice.length === 0) continue;
    // An emblem face (FORMAT.md: a logo for the value) shows no pips to learn.
    const emblem = (d: { note?: string }) => d.note === 'emblem face';
    const dice = image.dice.filter((d) => !emblem(d)).map((d) => ({ value: d.value, center: centre(d.box) }));
    const emblems = image.dice.filter(emblem).map((d) => centre(d.box));
    labelled += dice.length;
    samples.push(...facesOf(decodeFrame(readFileSync(join(dir, image.file))), dice, jitterOf(dir), jitterRng, emblems));
  }
  console.log(`${dir}${half === undefined ? '' : ` (half ${half})`}: ${chosen.length} images, ${labelled} labelled dice, ${samples.length - before} faces found with ${jitterOf(dir)} warped copies each${fixes > 0 ? ` (${fixes} label fixes in the set)` : ''}`);
}
if (simFrames > 0) {
  const before = samples.length;
  for (let seed = 1; seed <= simFrames; seed++) {
    const rng = new SeededRandom(900_000 + seed);
    const n = rng.int(1, 10);
    const truth = throwDice(rng, n, Array.from({ length: n }, () => rng.pick(DIE_COLOURS)));
    const frame = decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed }));
    samples.push(...facesOf(frame, truth.map((d) => ({ value: d.value, center: { x: d.x, y: d.y } })), jitter, jitterRng));
  }
  console.log(`simulator: ${simFrames} frames, ${samples.length - before} faces found`);
}

const counts = [0, 1, 2, 3, 4, 5, 6].map((v) => samples.filter((s) => s.value === v).length);
console.log(`training on ${samples.length} faces (not a face, then values 1-6: ${counts.join(', ')})`);
const work = mkdtempSync(join(tmpdir(), 'die-faces-'));
// The faces take hundreds of megabytes: removed however the run ends (a failed training, a model OpenCV reads otherwise).
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'faces.bin'), Buffer.concat(samples.map((s) => Buffer.from(s.input.buffer, s.input.byteOffset, s.input.byteLength))));
writeFileSync(join(work, 'values.bin'), Uint8Array.from(samples.map((s) => s.value)));
// The model is written beside the faces and reaches --out only once OpenCV gives its answers: a training stopped or failed,
// or a model OpenCV reads otherwise, leaves --out as it was.
const trained = join(work, 'model');
const python = spawn(PYTHON, [join(import.meta.dirname, 'train_die_classifier.py'), work, trained, String(epochs), String(FACE_INPUT_SIDE), String(FACE_INPUT_CHANNELS), seed], { stdio: 'inherit' });
// null when it ended well; otherwise how it ended.
const failure = new Promise<string | null>((resolve) => {
  python.once('error', (err) => resolve(`could not be started: ${err.message}`));
  python.once('exit', (code, signal) => resolve(code === 0 ? null : code === null ? `was killed by ${signal}` : `exited with ${code}`));
});
// Stopped (Ctrl-C, a kill): the training is stopped and waited for, then the exit handler above removes the faces.
const stopped: { by: 'SIGINT' | 'SIGTERM' | 'SIGHUP' | null } = { by: null };
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopped.by = signal;
    console.error(`training stopped by ${signal}; no model was written`);
    python.kill(signal);
    setTimeout(() => python.kill('SIGKILL'), 5000).unref();
  });
}
const failed = await failure;
if (stopped.by !== null) process.exit(128 + constants.signals[stopped.by]);
if (failed !== null) {
  console.error(`training failed (${PYTHON} ${failed}); it needs Debian's python3-torch: apt-get install python3-torch`);
  process.exit(1);
}

// The model as OpenCV runs it must give the trained network's answers.
const checkBytes = readFileSync(join(work, 'check.bin'));
// Exactly the file's floats: a small file's Buffer is a view into Node's shared pool.
const expected = new Float32Array(checkBytes.buffer, checkBytes.byteOffset, checkBytes.byteLength / 4).slice();
const check = samples.slice(0, expected.length / CLASSES);
const fromCv = loadFaceClassifier(trained).classify(check.map((s) => new cv.Mat(Buffer.from(s.input.buffer), FACE_INPUT_SIDE, FACE_INPUT_SIDE, cv.CV_32FC3)), true);
let worst = 0;
fromCv.forEach((g, i) => (worst = Math.max(worst, Math.abs(g.probability - (expected[i * CLASSES + g.value] as number)))));
if (worst > 1e-4) throw new Error(`the model OpenCV loaded does not give the trained answers (they differ by up to ${worst.toExponential(2)}); ${out} is left as it was`);
mkdirSync(out, { recursive: true });
for (const file of [MODEL_CFG, MODEL_WEIGHTS]) copyFileSync(join(trained, file), join(out, file));
console.log(`wrote ${join(out, MODEL_CFG)} and ${MODEL_WEIGHTS}; OpenCV and PyTorch differ by at most ${worst.toExponential(2)} on ${check.length} faces`);
