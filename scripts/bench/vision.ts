/**
 * Benchmark: vision speed.
 *
 * 1. Per-frame latency of the dice reader (decode + read, as the table calls
 *    it) on simulator-rendered frames at 640x640 and 1280x720, with 5 and 25
 *    dice. Frames are rendered before the timed part; each reading is also
 *    checked against the simulator's truth, so the times are of real reads.
 * 2. Frames per second of capture + read on a replayed camera stream: an
 *    MJPG video of simulator frames played through `openVideoCamera` (the
 *    webcam code path). The settle step (waiting for the dice to lie still,
 *    src/vision/settle.ts) is not in this tree yet, so the loop measured is
 *    capture + read of every frame.
 *
 *   npm run bench:vision-speed [-- --frames 40 --stream 60]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIE_COLOURS, SeededRandom, openVideoCamera } from '../../src/hardware/index.js';
import { renderTray, throwDice, type TrayGeometry } from '../../src/hardware/simulator/index.js';
import cv from '../../src/hardware/opencv.js';
import { createDiceReader } from '../../src/vision/index.js';
import { numberFlag, printFigures, printTable, quantile, round } from './lib.js';

const framesPerCase = numberFlag('frames', 40);
const streamFrames = numberFlag('stream', 60);

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
  let exact = 0;
  for (const { truth, image } of frames) {
    const started = performance.now();
    const reading = await reader.read({ image, width: tray.width, height: tray.height, capturedAt: 0 }, dice);
    ms.push(performance.now() - started);
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
    framesReadExactly: round((100 * exact) / frames.length),
  });
}

// The replayed stream: a video file of simulator frames (5 dice, 1280x720), read through the webcam code path.
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-bench-'));
const streamTray: TrayGeometry = { width: 1280, height: 720, dieSize: 64 };
const videoPath = join(dir, 'stream.avi');
const video = new cv.VideoWriter(videoPath, cv.VideoWriter.fourcc('MJPG'), 30, new cv.Size(streamTray.width, streamTray.height));
const rng = new SeededRandom(77);
for (let i = 0; i < streamFrames; i++) {
  const truth = throwDice(rng, 5, colours, streamTray);
  video.write(cv.imdecode(renderTray(truth, streamTray, { noiseSeed: i + 1 })));
}
video.release();
const camera = openVideoCamera({ source: videoPath });
let streamRead = 0;
let valid = 0;
const loopStarted = performance.now();
for (;;) {
  let frame;
  try {
    frame = await camera.capture();
  } catch {
    break; // the end of the video
  }
  const reading = await reader.read(frame, 5);
  streamRead++;
  if (reading.valid) valid++;
}
const loopSeconds = (performance.now() - loopStarted) / 1000;
camera.close();
rmSync(dir, { recursive: true, force: true });
const stream = { frames: streamRead, fps: round(streamRead / loopSeconds), validReadings: round((100 * valid) / Math.max(1, streamRead)), loop: 'capture+read (no settle step in this tree)' };

console.log(`Dice reader, per frame (decode + read), OpenCV threads: ${cv.getNumThreads()}`);
printTable(
  ['frame', 'dice', 'die px', 'frames', 'median ms', 'p95 ms', 'read exactly %'],
  cases.map((c) => [c.size, c.dice, c.dieSizePx, c.frames, c.msMedian, c.msP95, c.framesReadExactly]),
);
console.log('');
printTable(['replayed stream (MJPG 1280x720, 5 dice)', 'frames', 'fps', 'valid %'], [[stream.loop, stream.frames, stream.fps, stream.validReadings]]);
printFigures('vision', { openCvThreads: cv.getNumThreads(), perFrame: cases, stream });
