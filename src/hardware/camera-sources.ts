/**
 * Real and replayed cameras: an OpenCV VideoCapture on a device (`/dev/videoN`
 * or an index) or a video file, and a folder of still images. All deliver
 * JPEG frames through the `Camera` interface, like the simulator.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import cv from './opencv.js';
import { CameraError, type Camera, type Frame } from './types.js';
import { errorText } from '../error-text.js';
import { decodeImage } from './image-bytes.js';

// Not every binding exports these; they are OpenCV's own numbers (videoio.hpp).
const CAP_PROP_AUTO_WB = 44;
const CAP_PROP_WB_TEMPERATURE = 45;
/** V4L2's "manual exposure" value of CAP_PROP_AUTO_EXPOSURE. */
const V4L2_MANUAL_EXPOSURE = 1;

export interface VideoCameraOptions {
  /** Device index (0 = /dev/video0), a device path, or a video file. */
  readonly source: number | string;
  readonly width?: number;
  readonly height?: number;
  /** Fixed exposure in the driver's units (V4L2: 100 µs steps); null leaves it automatic. */
  readonly exposure?: number | null;
  /** Fixed white balance in kelvin; null leaves it automatic. */
  readonly whiteBalance?: number | null;
  readonly jpegQuality?: number;
  /** Frames dropped before each capture so the frame is fresh, not one the driver buffered. */
  readonly staleFrames?: number;
}

export interface VideoCamera extends Camera {
  /** Which fixed settings the driver accepted (some webcams ignore them). */
  readonly settings: { readonly exposure: boolean; readonly whiteBalance: boolean };
  close(): void;
}

/**
 * A captured image as a JPEG frame, the image freed. Encoded off the main thread (a 1280×720 frame takes 2-3 ms, 30 times a
 * second while dice settle): the server keeps answering meanwhile.
 */
async function encoded(image: cv.Mat, quality: number, capturedAt = Date.now()): Promise<Frame> {
  try {
    return { image: await cv.imencodeAsync('.jpg', image, [cv.IMWRITE_JPEG_QUALITY, quality]), width: image.cols, height: image.rows, capturedAt };
  } finally {
    image.release();
  }
}

/** Warnings for fixed camera settings asked for that the driver refused (many webcams ignore some): the colours may drift between frames. */
export function refusedSettings(asked: Pick<VideoCameraOptions, 'exposure' | 'whiteBalance'>, camera: VideoCamera): string[] {
  const refused: string[] = [];
  if (asked.exposure != null && !camera.settings.exposure) refused.push(`the camera did not take the fixed exposure ${asked.exposure}: it stays automatic`);
  if (asked.whiteBalance != null && !camera.settings.whiteBalance) refused.push(`the camera did not take the fixed white balance ${asked.whiteBalance} K: it stays automatic`);
  return refused;
}

/** A camera device (an index, /dev/videoN, or a stable name such as /dev/v4l/by-id/...), not a video file. */
export const isCameraDevice = (source: number | string) => typeof source === 'number' || /^\/dev\/(video|v4l\/)/.test(source);

/** Opens a webcam or a video file. Throws CameraError `camera/not_found` when it cannot be opened. */
export function openVideoCamera(options: VideoCameraOptions): VideoCamera {
  const quality = options.jpegQuality ?? 90;
  const stale = options.staleFrames ?? (isCameraDevice(options.source) ? 2 : 0);
  const settings = { exposure: false, whiteBalance: false };

  const open = (): cv.VideoCapture => {
    if (typeof options.source === 'string' && !existsSync(options.source)) {
      throw new CameraError('camera/not_found', `camera ${options.source} does not exist (unplugged, or a wrong path)`);
    }
    let cap: cv.VideoCapture;
    try {
      cap = isCameraDevice(options.source) ? new cv.VideoCapture(options.source, cv.CAP_V4L2) : new cv.VideoCapture(options.source);
    } catch (err) {
      throw new CameraError('camera/not_found', `camera ${String(options.source)} cannot be opened: unplugged, or in use by another program (${errorText(err)})`);
    }
    if (options.width) cap.set(cv.CAP_PROP_FRAME_WIDTH, options.width);
    if (options.height) cap.set(cv.CAP_PROP_FRAME_HEIGHT, options.height);
    // Automatic exposure and white balance change the dice's colours between frames: fix them where the driver allows.
    if (options.exposure != null) {
      settings.exposure = cap.set(cv.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE) && cap.set(cv.CAP_PROP_EXPOSURE, options.exposure);
    }
    if (options.whiteBalance != null) {
      settings.whiteBalance = cap.set(CAP_PROP_AUTO_WB, 0) && cap.set(CAP_PROP_WB_TEMPERATURE, options.whiteBalance);
    }
    return cap;
  };

  const fromFile = !isCameraDevice(options.source);
  // Frames are read off the main thread: a read waits for the camera (up to V4L2's timeout when it hangs), and the server must
  // keep answering meanwhile. A capture that is lost or closed is retired, and freed once no read is using it: never under one.
  interface Opened {
    readonly cap: cv.VideoCapture;
    /** When it was opened: a video file's frame times count from here (a file opened again after its end starts again now, not in the past). */
    readonly since: number;
    reads: number;
    retired: boolean;
  }
  const opening = (): Opened => ({ cap: open(), since: Date.now(), reads: 0, retired: false });
  let current: Opened | null = opening();
  let closed = false;
  const retire = (opened: Opened) => {
    if (current === opened) current = null;
    if (opened.retired) return;
    opened.retired = true;
    if (opened.reads === 0) opened.cap.release();
  };
  const read = async (opened: Opened): Promise<cv.Mat> => {
    opened.reads++;
    try {
      return await opened.cap.readAsync();
    } finally {
      opened.reads--;
      if (opened.retired && opened.reads === 0) opened.cap.release();
    }
  };
  const wasClosed = () => new CameraError('camera/lost', `camera ${String(options.source)} was closed`);
  /** One frame, or the CameraError of a lost or empty read (its capture retired, so the next one opens the camera again). */
  const captureOnce = async (): Promise<Frame | CameraError> => {
    if (closed) throw wasClosed();
    current ??= opening();
    const opened = current;
    let image: cv.Mat | null = null;
    try {
      // The stale frames first: dropped, and freed at once, not left to V8's collector (a 1280×720 frame is 2.7 MB of external memory to it).
      for (let i = 0; i <= stale; i++) {
        image?.release();
        image = null;
        if (opened.retired) throw new Error('it was given up during this capture');
        image = await read(opened);
      }
    } catch (err) {
      image?.release();
      if (closed) throw wasClosed();
      retire(opened);
      return new CameraError('camera/lost', `camera ${String(options.source)} stopped answering: ${errorText(err)}`);
    }
    const frame = image as cv.Mat;
    if (closed) {
      frame.release();
      throw wasClosed();
    }
    if (frame.empty || frame.rows === 0) {
      retire(opened);
      return new CameraError('camera/no_frame', `camera ${String(options.source)} gave no frame (unplugged, busy, or the end of the video)`);
    }
    // A video file's frames carry its own clock: read faster or slower than it was recorded, a roll still takes as long as it did.
    return encoded(frame, quality, fromFile ? opened.since + opened.cap.get(cv.CAP_PROP_POS_MSEC) : Date.now());
  };
  return {
    settings,
    async capture(): Promise<Frame> {
      // A device unplugged and plugged back reads nothing through its old handle: it is opened again, once, before the capture
      // fails. A video file that gives no frame has ended.
      for (let attempt = 1; ; attempt++) {
        const result = await captureOnce();
        if (!(result instanceof CameraError)) return result;
        if (fromFile || attempt === 2) throw result;
      }
    },
    close() {
      closed = true;
      if (current) retire(current);
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
