/**
 * Settle detection on a camera's frame stream: the dice tumble out of the
 * tower and roll for a moment; the reading must wait until the scene has been
 * still for `stillMs`, give up with a jam after `timeoutMs`, and then read
 * several still frames that must agree. Times come from the frames'
 * `capturedAt`, so recorded sequences replay exactly. Bad settings are
 * refused when the pipeline is made (`checkSettleConfig`).
 */
import cv from '../hardware/opencv.js';
import { CameraError, type Camera, type Frame } from '../hardware/types.js';
import { VisionError, type DiceReader, type DiceReading, type DieReading } from './types.js';
import { decodeFrame } from './read-dice.js';

export interface SettleConfig {
  /** How long the scene must stay still before it is read, ms. Raise it for dice that rock slowly. */
  readonly stillMs: number;
  /** How long to wait for stillness before reporting a jam, ms (from the first frame). */
  readonly timeoutMs: number;
  /** Pause between captures, ms (a live camera's frame period is the floor). */
  readonly intervalMs: number;
  /** Still frames read at the end; their readings must agree (1: no check). */
  readonly agreeFrames: number;
  /** Grey-level change (0-255, on the frame shrunk 4x and smoothed) above which a pixel changed. Raise it for a noisy camera. */
  readonly pixelThreshold: number;
  /** Share of pixels changed between two frames above which the scene is moving (a normal die covers ~0.4% of a 1280x720 frame). */
  readonly movingShare: number;
}

export const DEFAULT_SETTLE_CONFIG: SettleConfig = Object.freeze({
  stillMs: 600,
  timeoutMs: 8000,
  intervalMs: 100,
  agreeFrames: 3,
  pixelThreshold: 24,
  movingShare: 0.001,
});

/**
 * Throws `VisionError('vision/bad_config')` naming the first setting the
 * detector cannot work with: one that would read no frame, never end the wait,
 * or report every roll as a jam.
 */
export function checkSettleConfig(cfg: SettleConfig): void {
  const bad = (message: string): never => {
    throw new VisionError('vision/bad_config', `settle config: ${message}`);
  };
  if (!(Number.isInteger(cfg.agreeFrames) && cfg.agreeFrames >= 1)) bad(`agreeFrames must be a whole number of at least 1, got ${cfg.agreeFrames}`);
  if (!(cfg.stillMs >= 0 && cfg.intervalMs >= 0)) bad(`stillMs and intervalMs must be 0 or more, got ${cfg.stillMs} and ${cfg.intervalMs}`);
  // Even dice still from the first frame need stillMs and then agreeFrames frames, each at least a pause apart: a timeout of no more leaves no margin, and every roll is reported as a jam.
  const leastTimeout = cfg.stillMs + cfg.agreeFrames * cfg.intervalMs;
  if (!(cfg.timeoutMs >= leastTimeout)) bad(`timeoutMs (${cfg.timeoutMs}) must be at least stillMs + agreeFrames frame intervals (${leastTimeout}): every roll would be reported as a jam`);
  if (!(cfg.pixelThreshold >= 0 && cfg.pixelThreshold < 255)) bad(`pixelThreshold must be a grey level from 0 to 254, got ${cfg.pixelThreshold}`);
  if (!(cfg.movingShare >= 0 && cfg.movingShare < 1)) bad(`movingShare must be a share from 0 to below 1, got ${cfg.movingShare}`);
}

/** A frame shrunk 4x in grey and smoothed: enough to see a die move, cheap to compare. */
function motionImage(frame: Frame): cv.Mat {
  const image = decodeFrame(frame.image, cv.IMREAD_REDUCED_GRAYSCALE_4);
  const smooth = image.gaussianBlur(new cv.Size(5, 5), 1.2);
  // Freed now, as the reader's (a frame's buffers left to V8's collector set off full collections).
  image.release();
  return smooth;
}

/** Share of pixels that changed between two motion images (1 when their sizes differ). */
export function changedShare(a: cv.Mat, b: cv.Mat, cfg: SettleConfig): number {
  if (a.rows !== b.rows || a.cols !== b.cols) return 1;
  const difference = a.absdiff(b);
  const changed = difference.threshold(cfg.pixelThreshold, 255, cv.THRESH_BINARY);
  const share = changed.countNonZero() / (a.rows * a.cols);
  difference.release();
  changed.release();
  return share;
}

/** Unreadable frames in a row that are skipped; one more and the wait ends with the decode's error (the camera's link is failing, not one frame torn). */
export const BAD_FRAMES_SKIPPED = 3;

/**
 * Captures frames until the scene has been still for `stillMs`, and returns
 * the last `agreeFrames` still frames (oldest first). Rejects with
 * `CameraError('camera/jam')` when the scene is not still within `timeoutMs`.
 * A frame that is not a readable image (a USB glitch tears an MJPEG frame) is
 * skipped: the next good frame is compared with the last good one, so motion
 * across the gap still counts. More than `BAD_FRAMES_SKIPPED` in a row reject
 * with that frame's `vision/bad_frame` error.
 */
export async function awaitStill(
  capture: () => Promise<Frame>,
  cfg: SettleConfig = DEFAULT_SETTLE_CONFIG,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<Frame[]> {
  checkSettleConfig(cfg);
  let startedAt: number | undefined;
  let badInARow = 0;
  /** The next readable frame with its motion image. */
  const nextFrame = async (): Promise<{ frame: Frame; motion: cv.Mat }> => {
    for (;;) {
      const frame = await capture();
      startedAt ??= frame.capturedAt;
      if (frame.capturedAt - startedAt > cfg.timeoutMs) {
        throw new CameraError('camera/jam', `the dice did not come to rest within ${cfg.timeoutMs} ms: the tower or tray may be jammed`);
      }
      try {
        const motion = motionImage(frame);
        badInARow = 0;
        return { frame, motion };
      } catch (err) {
        if (!(err instanceof VisionError && err.code === 'vision/bad_frame')) throw err;
        badInARow++;
        if (badInARow > BAD_FRAMES_SKIPPED) throw new VisionError('vision/bad_frame', `${badInARow} camera frames in a row were unreadable, the last: ${err.message}`);
        await pause(cfg.intervalMs);
      }
    }
  };
  const first = await nextFrame();
  let previous = first.motion;
  try {
    let stillSince = first.frame.capturedAt;
    let still: Frame[] = [first.frame];
    for (;;) {
      const done = still.length >= cfg.agreeFrames && (still.at(-1)?.capturedAt ?? 0) - stillSince >= cfg.stillMs;
      if (done) return still.slice(-cfg.agreeFrames);
      await pause(cfg.intervalMs);
      const { frame, motion } = await nextFrame();
      if (changedShare(previous, motion, cfg) > cfg.movingShare) {
        stillSince = frame.capturedAt;
        still = [frame];
      } else {
        still.push(frame);
      }
      previous.release();
      previous = motion;
    }
  } finally {
    previous.release();
  }
}

/** Two dice are the same die read alike: near each other, same value, colour and size class. */
function sameDie(p: DieReading, q: DieReading): boolean {
  return Math.hypot(p.center.x - q.center.x, p.center.y - q.center.y) < Math.min(p.size, q.size) / 4 && p.value === q.value && p.colour === q.colour && p.sizeClass === q.sizeClass;
}

/** How two readings of still frames differ, as a sentence; null when they agree. */
export function disagreement(a: DiceReading, b: DiceReading): string | null {
  if (a.dice.length !== b.dice.length) return `${a.dice.length} dice in one still frame, ${b.dice.length} in another`;
  const unmatched = [...b.dice];
  for (const d of a.dice) {
    const i = unmatched.findIndex((e) => sameDie(d, e));
    if (i < 0) {
      const near = b.dice.find((e) => Math.hypot(d.center.x - e.center.x, d.center.y - e.center.y) < d.size / 2);
      const what = near ? `${d.value ?? '?'} in one still frame and ${near.value ?? '?'} in another` : 'in one still frame only';
      return `the ${d.colour} die at (${Math.round(d.center.x)}, ${Math.round(d.center.y)}) reads ${what}`;
    }
    unmatched.splice(i, 1);
  }
  return null;
}

/**
 * Reads several still frames and returns the reading of the last, made
 * invalid (`unsettled`) when the others do not agree with it.
 */
export async function readAgreeing(reader: DiceReader, frames: readonly Frame[], expectedCount?: number): Promise<DiceReading> {
  const readings: DiceReading[] = [];
  for (const frame of frames) readings.push(await reader.read(frame, expectedCount));
  const last = readings.at(-1);
  if (!last) throw new VisionError('vision/bad_frame', 'no frames to read');
  const ms = readings.reduce((s, r) => s + r.ms, 0);
  for (const other of readings.slice(0, -1)) {
    const differ = disagreement(other, last);
    if (differ) {
      const message = `the still frames disagree: ${differ}`;
      return { ...last, valid: false, problems: [message, ...last.problems], issues: [{ code: 'unsettled', message }, ...(last.issues ?? [])], ms };
    }
  }
  return { ...last, ms };
}

/**
 * A camera and a reader over a live stream that wait for the dice to settle:
 * `camera.capture()` resolves with the last still frame once the scene has
 * been still long enough (or rejects with a jam), and `reader.read()` of that
 * frame reads every still frame taken with it and requires them to agree.
 * Other frames are read as they are.
 */
export function settlingPipeline(
  camera: Camera,
  reader: DiceReader,
  cfg: SettleConfig = DEFAULT_SETTLE_CONFIG,
  pause?: (ms: number) => Promise<void>,
): { camera: Camera; reader: DiceReader } {
  // At start, not at a game's first roll.
  checkSettleConfig(cfg);
  let lastStill: readonly Frame[] = [];
  return {
    camera: {
      async capture(): Promise<Frame> {
        lastStill = await awaitStill(() => camera.capture(), cfg, pause);
        return lastStill.at(-1) as Frame;
      },
    },
    reader: {
      async read(frame: Frame, expectedCount?: number): Promise<DiceReading> {
        if (lastStill.at(-1) !== frame) return reader.read(frame, expectedCount);
        return readAgreeing(reader, lastStill, expectedCount);
      },
    },
  };
}
