/**
 * Trains the die finder (src/vision/find.ts) and writes it as ONNX (opset 11)
 * for OpenCV's dnn module. This script cuts the training crops; the network is
 * trained by scripts/train_die_finder.py with Debian's python3-torch.
 *
 *   npx tsx scripts/train-die-finder.ts [--out FILE] [--half 0|1] [--sim N] [--crops N] [--epochs N] [--seed N] <dataset-dir> ...
 *
 * Each labelled photo (shared/datasets/FORMAT.md layout, labels corrected by
 * scripts/label-fixes.json) and each of `--sim N` synthetic scenes
 * (scripts/finder-scenes.ts: any floor, colour, size and view) is scaled so its
 * dice are 8-64 px across (log-uniform), then cut into `SIDE`-pixel crops, most
 * around a die, some anywhere. `--crops N` (default 1500) crops come from each
 * photo set, spread over its images, so a large set does not drown a small one.
 * `--half 0` trains on half 0 of every set (scripts/photo-halves.ts), to measure
 * on half 1 with `npm run bench:finder -- DIR --half 1 --finder FILE`.
 * Seeded throughout: the same inputs give the same crops, and the same crops
 * and seed give the same network.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SeededRandom } from '../src/hardware/index.js';
import cv from '../src/hardware/opencv.js';
import { FINDER_MODEL, FINDER_OUTPUTS, FINDER_STRIDE, loadDieFinder } from '../src/vision/find.js';
import { MODEL_DIR } from '../src/vision/face-classifier.js';
import { finderScene } from './finder-scenes.js';
import { withLabelFixes, type LabelledSet } from './label-fixes.js';
import { halfOf, parseHalf } from './photo-halves.js';

/** Side of a training crop, pixels. */
const SIDE = 256;
/** Die sizes (box side, pixels) the crops show, drawn log-uniform. */
const DIE_SIZES = [8, 64] as const;
/** Share of crops centred near a die; the rest lie anywhere. */
const NEAR_A_DIE = 0.75;
const CHECK = 8;
/** matteop65's median box side over the values whose boxes cover the die (2, 4, 5, 6). */
const MATTEOP65_DIE = 44;

type CropBox = [number, number, number, number, number];

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const valued = new Set(['--out', '--half', '--sim', '--crops', '--epochs', '--seed']);
const datasets = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
const out = option('--out') ?? join(MODEL_DIR, FINDER_MODEL);
const half = parseHalf(option('--half'));
const simScenes = Number(option('--sim') ?? 4000);
const cropsPerSet = Number(option('--crops') ?? 1500);
const epochs = Number(option('--epochs') ?? 15);
const seed = option('--seed') ?? '7';
const PYTHON = process.env.DICE_TOWER_PYTHON ?? '/usr/bin/python3';
for (const [name, v] of [['--sim', simScenes], ['--crops', cropsPerSet], ['--epochs', epochs]] as const) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} takes a whole number, got "${option(name)}"`);
}
if (!/^\d+$/.test(seed)) throw new Error(`--seed takes a whole number, got "${seed}"`);
if (epochs === 0) throw new Error('--epochs takes a whole number from 1');
if (datasets.length === 0 && simScenes === 0) throw new Error('nothing to train on: give photo set folders, or --sim N synthetic scenes');

const work = mkdtempSync(join(tmpdir(), 'die-finder-'));
const cropsFile = openSync(join(work, 'crops.bin'), 'w');
const boxes: CropBox[][] = [];
const rng = new SeededRandom(4242);

/** The crop's pixels, SIDE x SIDE BGR, cut from the image scaled by `scale` around (cx, cy) in scaled pixels; the fill is the image's mean. */
function cut(image: cv.Mat, scale: number, dice: readonly CropBox[], near: boolean): void {
  const interpolation = scale < 1 ? cv.INTER_AREA : cv.INTER_LINEAR;
  const scaled = Math.abs(scale - 1) < 1e-6 ? image : image.resize(Math.max(1, Math.round(image.rows * scale)), Math.max(1, Math.round(image.cols * scale)), 0, 0, interpolation);
  const w = scaled.cols;
  const h = scaled.rows;
  let x0: number;
  let y0: number;
  const target = near && dice.length > 0 ? rng.pick(dice) : null;
  if (target) {
    x0 = Math.round(target[0] * scale - SIDE / 2 + rng.range(-0.4, 0.4) * SIDE);
    y0 = Math.round(target[1] * scale - SIDE / 2 + rng.range(-0.4, 0.4) * SIDE);
  } else {
    x0 = w > SIDE ? rng.int(0, w - SIDE) : -rng.int(0, SIDE - w);
    y0 = h > SIDE ? rng.int(0, h - SIDE) : -rng.int(0, SIDE - h);
  }
  // The crop may reach past the image: that part is filled with the image's mean colour.
  const mean = scaled.mean();
  // (setTo, not the constructor's fill value: that takes 20 ms a frame in this binding)
  const crop = new cv.Mat(SIDE, SIDE, cv.CV_8UC3).setTo(new cv.Vec3(Math.round(mean.w), Math.round(mean.x), Math.round(mean.y)));
  const sx0 = Math.max(0, x0);
  const sy0 = Math.max(0, y0);
  const sx1 = Math.min(w, x0 + SIDE);
  const sy1 = Math.min(h, y0 + SIDE);
  if (sx1 > sx0 && sy1 > sy0) {
    scaled.getRegion(new cv.Rect(sx0, sy0, sx1 - sx0, sy1 - sy0)).copyTo(crop.getRegion(new cv.Rect(sx0 - x0, sy0 - y0, sx1 - sx0, sy1 - sy0)));
  }
  const inCrop: CropBox[] = [];
  for (const [cx, cy, bw, bh, sized] of dice) {
    const x = cx * scale - x0;
    const y = cy * scale - y0;
    if (x >= 0 && y >= 0 && x < SIDE && y < SIDE) inCrop.push([x, y, bw * scale, bh * scale, sized]);
  }
  writeSync(cropsFile, crop.getData());
  boxes.push(inCrop);
}

/**
 * The labelled dice as crop boxes. matteop65's boxes of 1s (and some 3s) hug
 * the pips: their centre is the die's, their size is not. Taught as they are,
 * they make the finder take pips for dice, so such a box (a 1 or 3 less than
 * 0.75 of the photo's typical die, told by its 2s, 4s, 5s and 6s) is widened
 * to the typical die, and its size
 * is not taught (`sized` 0).
 */
function diceOf(labelled: readonly { value: number; box: readonly [number, number, number, number] }[], hugsPips: boolean): CropBox[] {
  const sideOf = (box: readonly number[]) => Math.max((box[2] as number) - (box[0] as number), (box[3] as number) - (box[1] as number));
  // The typical die from the boxes that never hug (2, 4, 5, 6), else matteop65's own median of those (44 px).
  const full = labelled.filter((d) => d.value !== 1 && d.value !== 3).map((d) => sideOf(d.box)).sort((a, b) => a - b);
  const typical = full[full.length >> 1] ?? MATTEOP65_DIE;
  return labelled.map((d) => {
    const [x0, y0, x1, y1] = d.box;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    const hugs = hugsPips && (d.value === 1 || d.value === 3) && sideOf(d.box) < 0.75 * typical;
    return hugs ? [cx, cy, typical, typical, 0] : [cx, cy, x1 - x0, y1 - y0, 1];
  });
}

/** Crops of one image: scaled so its typical die is 8-64 px. */
function cropsOf(image: cv.Mat, dice: readonly CropBox[], count: number): void {
  const sized = dice.map((d) => Math.max(d[2], d[3]));
  sized.sort((a, b) => a - b);
  const typical = sized[Math.floor(sized.length / 2)] ?? 0;
  for (let k = 0; k < count; k++) {
    const want = Math.exp(rng.range(Math.log(DIE_SIZES[0]), Math.log(DIE_SIZES[1])));
    // An image without dice is scaled so its shorter side is 1-4 crops.
    const scale = typical > 0 ? Math.min(2, want / typical) : (SIDE * rng.range(1, 4)) / Math.min(image.cols, image.rows);
    cut(image, scale, dice, rng.next() < NEAR_A_DIE);
  }
}

for (const dir of datasets) {
  let set: LabelledSet & { images: readonly ({ file: string; source_image?: string } & LabelledSet['images'][number])[] };
  try {
    set = withLabelFixes(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as LabelledSet).set as typeof set;
  } catch (err) {
    throw new Error(`cannot read ${join(dir, 'labels.json')}: ${(err as Error).message}`);
  }
  const images = halfOf(set, half).images.filter((im) => im.multiset === undefined);
  let done = 0;
  images.forEach((im, i) => {
    const count = Math.floor(((i + 1) * cropsPerSet) / images.length) - Math.floor((i * cropsPerSet) / images.length);
    if (count === 0) return;
    const image = cv.imread(join(dir, im.file), cv.IMREAD_COLOR);
    const dice = diceOf(im.dice, basename(dir) === 'matteop65');
    cropsOf(image, dice, count);
    done += count;
  });
  console.log(`${dir}: ${done} crops from ${images.length} images${half === undefined ? '' : ` (half ${half})`}`);
}
for (let s = 0; s < simScenes; s++) {
  const scene = finderScene(1_000_000 + s);
  const dice: CropBox[] = scene.dice.map((d) => {
    const [x0, y0, x1, y1] = d.box;
    return [(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, 1];
  });
  cropsOf(scene.image, dice, 1);
}
if (simScenes > 0) console.log(`simulator: ${simScenes} crops`);
closeSync(cropsFile);
writeFileSync(join(work, 'dice.json'), JSON.stringify({ side: SIDE, crops: boxes.map((b) => b.map((v) => v.map((n) => Math.round(n * 100) / 100))) }));
console.log(`training on ${boxes.length} crops (${boxes.reduce((n, b) => n + b.length, 0)} dice), ${epochs} epochs, in ${work}`);

const trained = spawnSync(PYTHON, [join(import.meta.dirname, 'train_die_finder.py'), work, out, String(epochs), seed], { stdio: 'inherit' });
if (trained.error) {
  console.error(`training could not start (${PYTHON}: ${trained.error.message}); it needs Debian's python3 with python3-torch: apt-get install python3-torch`);
  process.exit(1);
}
if (trained.status !== 0) {
  console.error(`training failed: ${PYTHON} exited ${trained.status ?? trained.signal} (its own message is above; without python3-torch it is "No module named 'torch'": apt-get install python3-torch)`);
  process.exit(1);
}

// OpenCV must compute what PyTorch computed, on the first crops.
const checkBytes = readFileSync(join(work, 'check.bin'));
const expected = new Float32Array(checkBytes.buffer, checkBytes.byteOffset, checkBytes.byteLength / 4);
const cells = SIDE / FINDER_STRIDE;
const finder = loadDieFinder(out);
const first = Buffer.alloc(CHECK * SIDE * SIDE * 3);
const cropsIn = openSync(join(work, 'crops.bin'), 'r');
readSync(cropsIn, first, 0, first.length, 0);
closeSync(cropsIn);
let worst = 0;
for (let k = 0; k < CHECK && k < boxes.length; k++) {
  const crop = new cv.Mat(first.subarray(k * SIDE * SIDE * 3, (k + 1) * SIDE * SIDE * 3), SIDE, SIDE, cv.CV_8UC3);
  const { data } = finder.run(crop);
  const offset = k * FINDER_OUTPUTS * cells * cells;
  for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs((data[i] as number) - (expected[offset + i] as number)));
}
if (!(worst < 1e-3)) {
  console.error(`OpenCV's output differs from PyTorch's by ${worst}: the exported model is not read as trained`);
  process.exit(1);
}
console.log(`wrote ${out}; OpenCV and PyTorch differ by at most ${worst.toExponential(2)} on ${CHECK} crops`);
rmSync(work, { recursive: true, force: true });
