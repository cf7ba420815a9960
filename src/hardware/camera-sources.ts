/**
 * Real and replayed cameras: an OpenCV VideoCapture on a device (`/dev/videoN`
 * or an index) or a video file, and a folder of still images. All deliver
 * JPEG frames through the `Camera` interface, like the simulator.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import cv from './opencv.js';
import { CameraError, type Camera, type Frame } from './types.js';
import { errorText } from '../error-text.js';
import { note, type Note } from '../note.js';
import { decodeImage } from './image-bytes.js';
import type { CameraFault, CameraReply, CameraRequest } from './camera-process.js';
import type { CameraSettings, FixedSettings, VideoCameraOptions } from './video-capture.js';

export { isCameraDevice, type CameraSettings, type FixedSettings, type VideoCameraOptions } from './video-capture.js';

export interface VideoCamera extends Camera {
  /** Which fixed settings the driver accepted (some webcams ignore them). */
  readonly settings: CameraSettings;
  /** Fixes (or sets back to automatic) the exposure and white balance now and whenever the camera is opened again; says which the driver took. */
  adjust(asked: FixedSettings): Promise<CameraSettings>;
  /** Frees the camera. A capture under way is rejected at once; the camera is freed when its read ends (waited for up to `CLOSE_WAIT_MS`). */
  close(): Promise<void>;
}

/** How long `close` waits for the camera's process to end by itself (a read under way finishing) before it kills it. */
export const CLOSE_WAIT_MS = 3000;
/** How long opening a camera may take, unless its options say otherwise, before it is given up as hung (a V4L2 device opens in well under 2 s). */
export const OPEN_TIMEOUT_MS = 15_000;

/** A captured image as a JPEG frame, the image freed. Encoded off the main thread (a 1280×720 frame takes 2-3 ms): the server keeps answering meanwhile. */
async function encoded(image: cv.Mat, quality: number, capturedAt = Date.now()): Promise<Frame> {
  try {
    return { image: await cv.imencodeAsync('.jpg', image, [cv.IMWRITE_JPEG_QUALITY, quality]), width: image.cols, height: image.rows, capturedAt };
  } finally {
    image.release();
  }
}

/** Warnings for fixed camera settings asked for that the driver refused (many webcams ignore some): the colours may drift between frames. */
export function refusedSettings(asked: Pick<VideoCameraOptions, 'exposure' | 'whiteBalance'>, camera: Pick<VideoCamera, 'settings'>): string[] {
  return refusedSettingNotes(asked, camera).map((n) => n.message);
}

/** The same, as notes a page words in its own language (the setup page). */
export function refusedSettingNotes(asked: Pick<VideoCameraOptions, 'exposure' | 'whiteBalance'>, camera: Pick<VideoCamera, 'settings'>): Note[] {
  const refused: Note[] = [];
  if (asked.exposure != null && !camera.settings.exposure) {
    refused.push(note('camera/exposure_refused', `the camera did not take the fixed exposure ${asked.exposure}: it stays automatic`, { value: asked.exposure }));
  }
  if (asked.whiteBalance != null && !camera.settings.whiteBalance) {
    refused.push(note('camera/white_balance_refused', `the camera did not take the fixed white balance ${asked.whiteBalance} K: it stays automatic`, { value: asked.whiteBalance }));
  }
  return refused;
}

const CAMERA_PROCESS = fileURLToPath(new URL('./camera-process.ts', import.meta.url));
// The camera's process runs TypeScript as the command does (bin/dice-tower.js): through tsx, named by its full path so the
// working directory does not matter.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const cameraError = (fault: CameraFault) => new CameraError(fault.code, fault.message);

/** A running camera process and the captures it owes. */
interface CameraProcess {
  readonly child: ChildProcess;
  /** As opened, then as adjusted. */
  settings: CameraSettings;
  /** What it owes: frames, and the settings it was asked to fix. */
  readonly pending: Map<number, { resolve: (answer: Frame | CameraSettings) => void; reject: (err: CameraError) => void }>;
}

/** Holds the server open only while the camera's process owes it an answer: an idle camera does not keep a command running. */
function holdOpen(child: ChildProcess, hold: boolean): void {
  if (hold) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

const hasEnded = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

// A camera process blocked in its driver cannot hear that the server has gone: killed when the server exits, so no orphan
// keeps the device (the next start would find it "in use by another program").
const cameraProcesses = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of cameraProcesses) child.kill('SIGKILL');
});

/** Asks a camera process to free its camera and end; kills it if it has not ended within CLOSE_WAIT_MS (blocked in its driver). */
async function endCameraProcess(child: ChildProcess): Promise<void> {
  if (hasEnded(child)) return;
  const ended = new Promise<void>((done) => child.once('exit', () => done()));
  if (child.connected) child.send({ kind: 'close' } satisfies CameraRequest);
  holdOpen(child, false);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = await Promise.race([ended.then(() => false), new Promise<boolean>((done) => (timer = setTimeout(() => done(true), CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
  if (gaveUp) {
    child.kill('SIGKILL');
    await ended;
  }
}

/**
 * Opens a webcam or a video file in a process of its own (camera-process.ts): opening, setting up and reading a camera block
 * for as long as the driver takes, and the server must keep answering meanwhile; a driver that crashes takes only that
 * process down. Rejects with CameraError `camera/not_found` when the camera cannot be opened, or does not open within
 * `openTimeoutMs`. A camera process that ends unasked fails the captures it owed with `camera/lost`; the next capture opens
 * the camera again.
 */
export async function openVideoCamera(options: VideoCameraOptions): Promise<VideoCamera> {
  const name = String(options.source);
  // The options a camera process opens with: the settings fixed since, when it is opened again.
  let opening = options;
  const wasClosed = () => new CameraError('camera/lost', `camera ${name} was closed`);
  let closed = false;
  let nextId = 0;
  let current: CameraProcess | null = null;
  let starting: { readonly child: ChildProcess; readonly started: Promise<CameraProcess> } | null = null;

  const start = (): { child: ChildProcess; started: Promise<CameraProcess> } => {
    const child = fork(CAMERA_PROCESS, [], { execArgv: ['--import', TSX_LOADER], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    cameraProcesses.add(child);
    const pending: CameraProcess['pending'] = new Map();
    const started = new Promise<CameraProcess>((resolve, reject) => {
      const openTimeoutMs = options.openTimeoutMs ?? OPEN_TIMEOUT_MS;
      const hung = setTimeout(() => {
        reject(new CameraError('camera/not_found', `camera ${name} did not open within ${openTimeoutMs / 1000} s: its driver hangs (unplug it and plug it back)`));
        child.kill('SIGKILL');
      }, openTimeoutMs);
      child.on('message', (reply: CameraReply) => {
        if (reply.kind === 'opened') {
          clearTimeout(hung);
          resolve({ child, settings: reply.settings, pending });
        } else if (reply.kind === 'not_opened') {
          clearTimeout(hung);
          reject(cameraError(reply.fault));
        } else {
          const owed = pending.get(reply.id);
          pending.delete(reply.id);
          holdOpen(child, pending.size > 0);
          if (owed === undefined) return;
          if (reply.kind === 'failed') owed.reject(cameraError(reply.fault));
          else if (reply.kind === 'adjusted') owed.resolve(reply.settings);
          else owed.resolve({ image: Buffer.from(reply.image.buffer, reply.image.byteOffset, reply.image.byteLength), width: reply.width, height: reply.height, capturedAt: reply.capturedAt });
        }
      });
      const stopped = (why: string) => {
        clearTimeout(hung);
        cameraProcesses.delete(child);
        const err = new CameraError('camera/lost', `camera ${name}'s process stopped: ${why}`);
        reject(err);
        for (const owed of pending.values()) owed.reject(err);
        pending.clear();
        if (current?.child === child) current = null;
      };
      child.on('exit', (code, signal) => stopped(signal ? `killed by ${signal}` : `it ended (exit code ${code})`));
      // Its channel failed (or it could not be started): it is of no more use, and ended so that no second one competes for
      // the device; its exit fails what it owed.
      child.on('error', () => child.kill('SIGKILL'));
      child.send({ kind: 'open', options: opening } satisfies CameraRequest);
    });
    return { child, started };
  };

  const running = async (): Promise<CameraProcess> => {
    if (current) return current;
    starting ??= start();
    const { child, started } = starting;
    try {
      current = await started;
    } catch (err) {
      throw closed ? wasClosed() : err;
    } finally {
      if (starting?.child === child) starting = null;
    }
    holdOpen(child, false);
    return current;
  };

  /** Sends a request that is owed an answer, and waits for it. */
  const ask = async (request: (id: number) => CameraRequest): Promise<Frame | CameraSettings> => {
    if (closed) throw wasClosed();
    const { child, pending } = await running();
    // Closed while it was (re)opening.
    if (closed) throw wasClosed();
    if (!child.connected) throw new CameraError('camera/lost', `camera ${name}'s process stopped: its channel is closed`);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      holdOpen(child, true);
      child.send(request(id));
    });
  };

  let settings = (await running()).settings;
  return {
    // Those of the latest process (a camera opened again may take other settings).
    get settings() {
      settings = current?.settings ?? settings;
      return settings;
    },
    async capture(): Promise<Frame> {
      return (await ask((id) => ({ kind: 'capture', id }))) as Frame;
    },
    async adjust(asked: FixedSettings): Promise<CameraSettings> {
      opening = { ...opening, ...asked };
      const taken = (await ask((id) => ({ kind: 'adjust', id, asked }))) as CameraSettings;
      if (current) current.settings = taken;
      return taken;
    },
    async close() {
      closed = true;
      const open = current;
      current = null;
      for (const owed of open?.pending.values() ?? []) owed.reject(wasClosed());
      open?.pending.clear();
      // The process serving captures, and one still opening the camera (the capture waiting on it fails as closed).
      await Promise.all([open?.child, starting?.child].flatMap((child) => (child ? [endCameraProcess(child)] : [])));
    },
  };
}

const IMAGE_TYPES = new Set(['.jpg', '.jpeg', '.png', '.bmp', '.webp']);

/** An image file of a replayed folder, decoded to BGR; `camera/no_frame`, naming the file and the problem, when it is not a whole image. */
function readImageFile(file: string): cv.Mat {
  const fail = (problem: string) => new CameraError('camera/no_frame', `${file} is not a readable image: ${problem}`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw fail(errorText(err));
  }
  const decoded = decodeImage(bytes);
  if ('problem' in decoded) throw fail(decoded.problem);
  return decoded.image;
}

/**
 * Replays a folder of still images in name order, one per capture, from the
 * start again after the last (`loop`), or failing with `camera/no_frame`.
 */
export function openFolderCamera(folder: string, loop = true): Camera {
  let files: string[];
  try {
    files = readdirSync(folder)
      .filter((f) => IMAGE_TYPES.has(extname(f).toLowerCase()))
      .sort()
      .map((f) => join(folder, f))
      .filter((f) => statSync(f).isFile());
  } catch (err) {
    throw new CameraError('camera/not_found', `cannot read the image folder ${folder}: ${errorText(err)}`);
  }
  if (files.length === 0) throw new CameraError('camera/not_found', `the folder ${folder} holds no images (${[...IMAGE_TYPES].join(', ')})`);
  let next = 0;
  return {
    async capture(): Promise<Frame> {
      if (next >= files.length) {
        if (!loop) throw new CameraError('camera/no_frame', `all ${files.length} images of ${folder} were replayed`);
        next = 0;
      }
      const file = files[next++] as string;
      return encoded(readImageFile(file), 95);
    },
  };
}
