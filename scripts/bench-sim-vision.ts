/**
 * Benchmark: vision v0 on simulator frames. Renders seeded frames of 1-10 dice
 * across the whole palette, reads each one, and prints the share read exactly,
 * dice-level accuracy, and the reading time (decode + read) per frame.
 * The last line is one JSON object with the figures.
 *
 *   npx tsx scripts/bench-sim-vision.ts [frames=300] [firstSeed=100000] [las-vegas]
 *
 * With `las-vegas`, each frame is a Las Vegas throw (a player's colour, maybe
 * their big die, purple chasers, white neutral dice) read with the simulator's
 * die size as calibration, and a die counts as right only when its value,
 * colour, size class are right and its colour is confident.
 */
import { DIE_COLOURS, SeededRandom } from '../src/hardware/index.js';
import { DEFAULT_TRAY, lasVegasHopper, renderTray, throwDice, throwHopper } from '../src/hardware/simulator/index.js';
import cv from '../src/hardware/opencv.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../src/vision/index.js';

const frames = Number(process.argv[2] ?? 300);
const firstSeed = Number(process.argv[3] ?? 100_000);
const lasVegas = process.argv[4] === 'las-vegas';
cv.setNumThreads(1);
const reader = createDiceReader(lasVegas ? { ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize } : DEFAULT_VISION_CONFIG);
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
  const n = lasVegas ? 0 : rng.int(1, 10);
  const truth = lasVegas ? throwHopper(rng, lasVegasHopper(rng)) : throwDice(rng, n, Array.from({ length: n }, () => rng.pick(DIE_COLOURS)));
  let t = performance.now();
  const image = renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed });
  renderMs.push(performance.now() - t);
  t = performance.now();
  const cpu = process.cpuUsage();
  const reading = await reader.read({ image, width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height, capturedAt: 0 }, truth.length);
  readMs.push(performance.now() - t);
  const used = process.cpuUsage(cpu);
  readCpuMs.push((used.user + used.system) / 1000);
  let right = 0;
  for (const die of truth) {
    const hit = reading.dice.find((d) => Math.hypot(d.center.x - die.x, d.center.y - die.y) < die.size / 4);
    const sizeRight = !lasVegas || (hit?.colourConfident === true && hit.sizeClass === (die.sizeClass ?? 'normal'));
    if (hit?.value === die.value && hit.colour === die.colour && sizeRight) right++;
  }
  unreadable += reading.dice.filter((d) => d.value === null).length;
  dice += truth.length;
  diceRight += right;
  if (right === truth.length && reading.dice.length === truth.length && reading.valid) exact++;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const round = (x: number) => Math.round(x * 10) / 10;
const figures = {
  scenes: lasVegas ? 'las-vegas' : 'palette',
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
console.log(`frames ${frames} of ${figures.scenes} throws (${dice} dice, ${DEFAULT_TRAY.width}x${DEFAULT_TRAY.height}), seeds ${firstSeed}..${firstSeed + frames - 1}`);
console.log(`read exactly      ${figures.framesExact}% of frames, ${figures.diceCorrect}% of dice (value and colour${lasVegas ? ', confident colour and size class' : ''}), ${unreadable} unreadable`);
console.log(`read time         median ${figures.readMsMedian} ms, p95 ${figures.readMsP95} ms per frame (decode + read, one thread); CPU time median ${figures.readCpuMsMedian}, p95 ${figures.readCpuMsP95}`);
console.log(`render time       median ${figures.renderMsMedian} ms per frame`);
console.log(JSON.stringify(figures));
