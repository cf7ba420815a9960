/**
 * The die finder alone (src/vision/find.ts) on a labelled photo set: are the
 * dice found, and is anything found where no die is? Values are not read.
 * A found die matches a labelled one when its centre lies inside the labelled
 * box or its box holds the labelled box's centre (nearest first): the finder
 * places a die's box as the sets do on the whole, but a set may box the top
 * face only, or a 1's pip (matteop65). The reader's own benchmark
 * (bench:vision) scores the top face's centre it reports as datasets/README.md asks.
 *
 *   npm run bench:finder -- <dataset-dir> [--half 0|1] [--scale F] [--blur SIGMA] [--jpeg Q] [--finder FILE] [--limit N] [--misses FILE]
 *
 * `--scale F` resizes every photo by F first (a metamorphic check: the same
 * dice, other sizes), `--blur` and `--jpeg` degrade it as a worse camera would.
 * Prints recall, precision, phantoms per photo, the ratio of found to labelled
 * box size, and ms per photo (one thread); the last line is one JSON object.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cv from '../src/hardware/opencv.js';
import { DEFAULT_FINDER_CONFIG, findDice, loadDieFinder, type DieCandidate } from '../src/vision/find.js';
import { withLabelFixes, type LabelledSet } from './label-fixes.js';
import { halfOf, parseHalf } from './photo-halves.js';
import { changePhoto, describeChanges, parsePhotoChanges, type PhotoChanges } from './photo-changes.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const valued = new Set(['--half', '--scale', '--blur', '--jpeg', '--finder', '--limit', '--misses', '--min-score']);
const dir = args.find((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
if (!dir) {
  console.error('usage: npm run bench:finder -- <dataset-dir> [--half 0|1] [--scale F] [--blur SIGMA] [--jpeg Q] [--finder FILE] [--limit N] [--misses FILE]');
  process.exit(2);
}
const half = parseHalf(option('--half'));
const limit = Number(option('--limit') ?? Infinity);
const fail = (problem: string) => {
  console.error(`bench:finder: ${problem}`);
  process.exit(2);
};
let changes: PhotoChanges = { scale: 1, blur: 0, jpeg: undefined };
try {
  changes = parsePhotoChanges(option);
} catch (err) {
  fail((err as Error).message);
}
const { scale, blur, jpeg } = changes;
if (!(limit > 0)) fail(`--limit takes a number of photos, got "${option('--limit')}"`);
const misses = option('--misses');
const minScore = Number(option('--min-score') ?? DEFAULT_FINDER_CONFIG.minScore);
cv.setNumThreads(1);
const finder = loadDieFinder(option('--finder'));
const config = { ...DEFAULT_FINDER_CONFIG, minScore };

const set = halfOf(withLabelFixes(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as LabelledSet).set, half);
let labelled = 0;
let found = 0;
let matched = 0;
let phantoms = 0;
const sizeRatios: number[] = [];
const ms: number[] = [];
const log: string[] = [];
let photos = 0;
for (const im of set.images) {
  if (photos >= limit) break;
  if (im.multiset !== undefined) continue;
  photos++;
  const image = changePhoto(cv.imread(join(dir, im.file), cv.IMREAD_COLOR), changes);
  const start = performance.now();
  const dice = findDice(image, finder, config);
  ms.push(performance.now() - start);
  image.release();
  const boxes = im.dice.map((d) => d.box.map((v) => v * scale) as [number, number, number, number]);
  labelled += boxes.length;
  found += dice.length;
  const taken = new Set<number>();
  const unmatched: DieCandidate[] = [];
  for (const d of dice) {
    let best = -1;
    let bestDistance = Infinity;
    boxes.forEach(([x0, y0, x1, y1], i) => {
      const inLabel = d.center.x >= x0 && d.center.x <= x1 && d.center.y >= y0 && d.center.y <= y1;
      const holdsLabel = Math.abs((x0 + x1) / 2 - d.center.x) <= d.width / 2 && Math.abs((y0 + y1) / 2 - d.center.y) <= d.height / 2;
      if (taken.has(i) || !(inLabel || holdsLabel)) return;
      const distance = Math.hypot(d.center.x - (x0 + x1) / 2, d.center.y - (y0 + y1) / 2);
      if (distance < bestDistance) [best, bestDistance] = [i, distance];
    });
    if (best < 0) {
      unmatched.push(d);
      continue;
    }
    taken.add(best);
    matched++;
    const [x0, y0, x1, y1] = boxes[best] as [number, number, number, number];
    sizeRatios.push(Math.max(d.width, d.height) / Math.max(x1 - x0, y1 - y0));
  }
  phantoms += unmatched.length;
  for (const d of unmatched) log.push(JSON.stringify({ kind: 'phantom', file: im.file, at: [Math.round(d.center.x), Math.round(d.center.y)], size: Math.round(Math.max(d.width, d.height)), score: Number(d.score.toFixed(2)) }));
  boxes.forEach((box, i) => {
    if (!taken.has(i)) log.push(JSON.stringify({ kind: 'missed', file: im.file, box: box.map(Math.round), value: im.dice[i]?.value }));
  });
}
if (misses) writeFileSync(misses, log.join('\n') + '\n');
ms.sort((a, b) => a - b);
sizeRatios.sort((a, b) => a - b);
const pct = (n: number, d: number) => (d === 0 ? 0 : (100 * n) / d);
const figures = {
  set: dir,
  half: half ?? 'all',
  scale,
  blur,
  jpeg: jpeg ?? null,
  photos,
  labelled,
  found,
  recall: Number(pct(matched, labelled).toFixed(2)),
  precision: Number(pct(matched, found).toFixed(2)),
  phantomsPerPhoto: Number((phantoms / Math.max(1, photos)).toFixed(3)),
  sizeRatioMedian: Number((sizeRatios[Math.floor(sizeRatios.length / 2)] ?? 0).toFixed(3)),
  msMedian: Number((ms[Math.floor(ms.length / 2)] ?? 0).toFixed(2)),
  msP95: Number((ms[Math.floor(ms.length * 0.95)] ?? 0).toFixed(2)),
};
console.log(`${dir}${half === undefined ? '' : ` half ${half}`}${describeChanges(changes)}: ${photos} photos, ${labelled} dice`);
console.log(`  recall ${figures.recall} %  precision ${figures.precision} %  phantoms/photo ${figures.phantomsPerPhoto}  size found/labelled ${figures.sizeRatioMedian}`);
console.log(`  ms per photo: median ${figures.msMedian}, p95 ${figures.msP95}`);
console.log(JSON.stringify(figures));
