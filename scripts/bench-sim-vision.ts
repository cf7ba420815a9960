/**
 * Benchmark: vision v0 on simulator frames. Renders seeded frames of 1-10 dice
 * across the whole palette, reads each one, and prints the share read exactly,
 * dice-level accuracy, and the reading time (decode + read) per frame.
 * The last line is one JSON object with the figures.
 *
 *   npx tsx scripts/bench-sim-vision.ts [frames=300] [firstSeed=100000]
 */
import { DIE_COLOURS, SeededRandom } from '../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../src/hardware/simulator/index.js';
import cv from '../src/hardware/opencv.js';
import { createDiceReader } from '../src/vision/index.js';

const frames = Number(process.argv[2] ?? 300);
const firstSeed = Number(process.argv[3] ?? 100_000);
cv.setNumThreads(1);
const reader = createDiceReader();
const readMs: number[] = [];
// CPU time too: on a shared, busy machine wall time mostly measures waiting.
const readCpuMs: number[] = [];
const renderMs: number[] = [];
let exact = 0;
let dice = 0;
let diceRight = 0;
let unreadable = 0;

for (let seed = firstSeed; seed < firstSeed + frames; seed++) {
  const rng = new SeededRandom(seed);
  const n = rng.int(1, 10);
  const truth = throwDice(rng, n, Array.from({ length: n }, () => rng.pick(DIE_COLOURS)));
  let t = performance.now();
  const image = renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed });
  renderMs.push(performance.now() - t);
  t = performance.now();
  const cpu = process.cpuUsage();
  const reading = await reader.read({ image, width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height, capturedAt: 0 }, n);
  readMs.push(performance.now() - t);
  const used = process.cpuUsage(cpu);
  readCpuMs.push((used.user + used.system) / 1000);
  let right = 0;
  for (const die of truth) {
    const hit = reading.dice.find((d) => Math.hypot(d.center.x - die.x, d.center.y - die.y) < die.size / 4);
    if (hit?.value === die.value && hit.colour === die.colour) right++;
  }
  unreadable += reading.dice.filter((d) => d.value === null).length;
  dice += n;
  diceRight += right;
  if (right === n && reading.dice.length === n && reading.valid) exact++;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const round = (x: number) => Math.round(x * 10) / 10;
const figures = {
  frames,
  dice,
  framesExact: round((100 * exact) / frames),
  diceCorrect: round((100 * diceRight) / dice),
  diceUnreadable: unreadable,
  readMsMedian: round(quantile(readMs, 0.5)),
  readMsP95: round(quantile(readMs, 0.95)),
  readCpuMsMedian: round(quantile(readCpuMs, 0.5)),
  readCpuMsP95: round(quantile(readCpuMs, 0.95)),
  renderMsMedian: round(quantile(renderMs, 0.5)),
};
console.log(`frames ${frames} (${dice} dice, ${DEFAULT_TRAY.width}x${DEFAULT_TRAY.height}), seeds ${firstSeed}..${firstSeed + frames - 1}`);
console.log(`read exactly      ${figures.framesExact}% of frames, ${figures.diceCorrect}% of dice (value and colour), ${unreadable} unreadable`);
console.log(`read time         median ${figures.readMsMedian} ms, p95 ${figures.readMsP95} ms per frame (decode + read, one thread); CPU time median ${figures.readCpuMsMedian}, p95 ${figures.readCpuMsP95}`);
console.log(`render time       median ${figures.renderMsMedian} ms per frame`);
console.log(JSON.stringify(figures));
