/**
 * Benchmark: vision speed.
 *
 * 1. Per-frame latency of the dice reader (decode + read, as the table calls
 *    it) on simulator-rendered frames at 640x640 and 1280x720, with 5 and 25
 *    dice. Frames are rendered before the timed part; each reading is also
 *    checked against the simulator's truth, so the times are of real reads.
 * 2. Frames per second of the full settle-and-read loop on a replayed camera
 *    stream: simulated rolls (dice tumbling, then at rest) in an MJPG video,
 *    through `openVideoCamera` (the webcam code path) and `settlingPipeline`
 *    (wait for a still scene, read the still frames, require agreement).
 *
 *   npm run bench:vision-speed [-- --frames 40 --stream 6 --threads 1]
 *
 * `--threads N` runs OpenCV on N threads (default: OpenCV's own choice, one
 * per core); the reader's speed targets are for one thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIE_COLOURS, SeededRandom, openVideoCamera, type Camera } from '../../src/hardware/index.js';
import { renderTray, throwDice, type TrayGeometry } from '../../src/hardware/simulator/index.js';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_SETTLE_CONFIG, createDiceReader, settlingPipeline } from '../../src/vision/index.js';
import { numberFlag, printFigures, printTable, quantile, round } from './lib.js';

const framesPerCase = numberFlag('frames', 40);
const streamRolls = numberFlag('stream', 6);
const threads = numberFlag('threads', 0);
if (threads > 0) cv.setNumThreads(threads);

/** 640x640 sees the tray from further away than 1280x720: smaller dice, so 25 still fit without touching. */
const CASES: ReadonlyArray<{ tray: TrayGeometry; dice: number }> = [
  { tray: { width: 640, height: 640, dieSize: 40 }, dice: 5 },
  { tray: { width: 640, height: 640, dieSize: 40 }, dice: 25 },
  { tray: { width: 1280, height: 720, dieSize: 64 }, dice: 5 },
  { tray: { width: 1280, height: 720, dieSize: 64 }, dice: 25 },
];

const reader = createDiceReader();
const colours = DIE_COLOURS.filter((c) => c !== 'black' && c !== 'grey');

interface CaseFigures {
  readonly size: string;
  readonly dice: number;
  readonly dieSizePx: number;
  readonly frames: number;
  readonly msMedian: number;
  readonly msP95: number;
  /** CPU time of the process per frame: on a shared, busy machine wall time also measures waiting. */
  readonly cpuMsMedian: number;
  readonly framesReadExactly: number;
}

const cases: CaseFigures[] = [];
for (const { tray, dice } of CASES) {
  const rng = new SeededRandom(1000 + dice + tray.width);
  const frames = Array.from({ length: framesPerCase }, (_, i) => {
    const truth = throwDice(rng, dice, Array.from({ length: dice }, () => rng.pick(colours)), tray);
    return { truth, image: renderTray(truth, tray, { noiseSeed: i + 1 }) };
  });
  // One untimed read first: OpenCV's first call on a new size allocates its buffers.
  await reader.read({ image: frames[0]?.image ?? Buffer.alloc(0), width: tray.width, height: tray.height, capturedAt: 0 }, dice);
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let exact = 0;
  for (const { truth, image } of frames) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const reading = await reader.read({ image, width: tray.width, height: tray.height, capturedAt: 0 }, dice);
    ms.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStarted);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    const want = truth.map((d) => d.value).sort().join();
    const got = reading.dice.map((d) => d.value).sort().join();
    if (reading.valid && want === got) exact++;
  }
  cases.push({
    size: `${tray.width}x${tray.height}`,
    dice,
    dieSizePx: tray.dieSize,
    frames: frames.length,
    msMedian: round(quantile(ms, 0.5)),
    msP95: round(quantile(ms, 0.95)),
    cpuMsMedian: round(quantile(cpuMs, 0.5)),
    framesReadExactly: round((100 * exact) / frames.length),
  });
}

// The replayed stream: a video file (MJPG, 1280x720) of simulated rolls, each a few frames of dice still
// tumbling (thrown again every frame) and then the dice at rest (the same dice, new sensor noise every frame),
// played through the webcam code path (`openVideoCamera`) into the settle-and-read loop (`settlingPipeline`):
// wait until the scene is still, read the still frames, require them to agree. The frames carry the stream's
// own clock (30 fps), and the loop's pause between captures is skipped, so what is measured is the work.
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-bench-'));
const streamTray: TrayGeometry = { width: 1280, height: 720, dieSize: 64 };
const FPS = 30;
const TUMBLING = 6;
const AT_REST = Math.ceil(((DEFAULT_SETTLE_CONFIG.stillMs + 200) * FPS) / 1000) + DEFAULT_SETTLE_CONFIG.agreeFrames;
const videoPath = join(dir, 'stream.avi');
const video = new cv.VideoWriter(videoPath, cv.VideoWriter.fourcc('MJPG'), FPS, new cv.Size(streamTray.width, streamTray.height));
const rng = new SeededRandom(77);
const streamTruth: string[] = [];
let noise = 1;
for (let roll = 0; roll < streamRolls; roll++) {
  for (let i = 0; i < TUMBLING; i++) video.write(cv.imdecode(renderTray(throwDice(rng, 5, colours, streamTray), streamTray, { noiseSeed: noise++ })));
  const dice = throwDice(rng, 5, colours, streamTray);
  streamTruth.push(dice.map((d) => d.value).sort().join());
  for (let i = 0; i < AT_REST; i++) video.write(cv.imdecode(renderTray(dice, streamTray, { noiseSeed: noise++ })));
}
video.release();
const webcam = await openVideoCamera({ source: videoPath });
let frameNo = 0;
const streamCamera: Camera = {
  async capture() {
    const frame = await webcam.capture();
    return { ...frame, capturedAt: (frameNo++ * 1000) / FPS };
  },
};
const pipeline = settlingPipeline(streamCamera, reader, DEFAULT_SETTLE_CONFIG, async () => {});
let settledRight = 0;
let settled = 0;
let loopMs = 0;
let loopFrames = 0;
for (let roll = 0; roll < streamRolls; roll++) {
  const startedAt = performance.now();
  const firstFrame = frameNo;
  const frame = await pipeline.camera.capture();
  const reading = await pipeline.reader.read(frame, 5);
  loopMs += performance.now() - startedAt;
  loopFrames += frameNo - firstFrame;
  settled++;
  if (reading.valid && reading.dice.map((d) => d.value).sort().join() === streamTruth[roll]) settledRight++;
  // Skip (untimed) what is left of this roll's rest, so the next roll starts with its tumbling frames.
  const rollEnd = (roll + 1) * (TUMBLING + AT_REST);
  while (frameNo < rollEnd) await streamCamera.capture();
}
const loopSeconds = loopMs / 1000;
await webcam.close();
rmSync(dir, { recursive: true, force: true });
const stream = {
  loop: 'settle-and-read (settlingPipeline over openVideoCamera)',
  rolls: settled,
  frames: loopFrames,
  fps: round(loopFrames / loopSeconds),
  rollsReadRight: settledRight,
  msPerRoll: round((1000 * loopSeconds) / settled),
};

console.log(`Dice reader, per frame (decode + read), OpenCV threads: ${cv.getNumThreads()}`);
printTable(
  ['frame', 'dice', 'die px', 'frames', 'median ms', 'p95 ms', 'CPU median ms', 'read exactly %'],
  cases.map((c) => [c.size, c.dice, c.dieSizePx, c.frames, c.msMedian, c.msP95, c.cpuMsMedian, c.framesReadExactly]),
);
console.log('');
printTable(
  ['replayed stream (MJPG 1280x720, 5 dice)', 'rolls', 'frames', 'fps', 'ms per roll', 'rolls read right'],
  [[stream.loop, stream.rolls, stream.frames, stream.fps, stream.msPerRoll, `${stream.rollsReadRight} of ${stream.rolls}`]],
);
printFigures('vision', { openCvThreads: cv.getNumThreads(), perFrame: cases, stream });
