/**
 * An OpenCV VideoCapture on a camera device or a video file, read one frame at
 * a time. Every call blocks (opening a device, setting it up, reading a frame
 * can each take a V4L2 timeout when it hangs), so the server runs it on its own
 * process: camera-process.ts, driven by camera-sources.ts `openVideoCamera`.
 */
import { existsSync } from 'node:fs';
import cv from './opencv.js';
import { CameraError, type Frame } from './types.js';
import { errorText } from '../error-text.js';

// Not every binding exports these; they are OpenCV's own numbers (videoio.hpp).
const CAP_PROP_AUTO_WB = 44;
const CAP_PROP_WB_TEMPERATURE = 45;
/** V4L2's "manual exposure" and "aperture priority" (automatic) values of CAP_PROP_AUTO_EXPOSURE. */
const V4L2_MANUAL_EXPOSURE = 1;
const V4L2_AUTO_EXPOSURE = 3;

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
  /** How long opening may take before the camera is given up as hung (camera-sources.ts OPEN_TIMEOUT_MS by default). */
  readonly openTimeoutMs?: number;
}

/** Which fixed settings the driver accepted (some webcams ignore them). */
export interface CameraSettings {
  readonly exposure: boolean;
  readonly whiteBalance: boolean;
}

/** A camera device (an index, /dev/videoN, or a stable name such as /dev/v4l/by-id/...), not a video file. */
export const isCameraDevice = (source: number | string) => typeof source === 'number' || /^\/dev\/(video|v4l\/)/.test(source);

/** Fixed exposure and white balance asked of a camera; null: the driver's automatic one. */
export interface FixedSettings {
  readonly exposure: number | null;
  readonly whiteBalance: number | null;
}

export interface VideoSource {
  readonly settings: CameraSettings;
  /** Fixes (or frees) the exposure and white balance now, and on every later reopening; says which the driver took. */
  adjust(asked: FixedSettings): CameraSettings;
  /** One fresh frame as JPEG. Throws a CameraError when there is none: `camera/no_frame`, `camera/lost`, or `camera/not_found` when a device cannot be opened again. */
  capture(): Frame;
  close(): void;
}

/** Opens a webcam or a video file. Throws CameraError `camera/not_found` when it cannot be opened. */
export function openVideoSource(options: VideoCameraOptions): VideoSource {
  const quality = options.jpegQuality ?? 90;
  const fromFile = !isCameraDevice(options.source);
  const stale = options.staleFrames ?? (fromFile ? 0 : 2);
  const settings = { exposure: false, whiteBalance: false };
  let asked: FixedSettings = { exposure: options.exposure ?? null, whiteBalance: options.whiteBalance ?? null };

  // Automatic exposure and white balance change the dice's colours between frames: fixed where the driver allows. Set back
  // to automatic, the setting counts as not fixed.
  const apply = (cap: cv.VideoCapture) => {
    settings.exposure = asked.exposure === null ? (cap.set(cv.CAP_PROP_AUTO_EXPOSURE, V4L2_AUTO_EXPOSURE), false) : cap.set(cv.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE) && cap.set(cv.CAP_PROP_EXPOSURE, asked.exposure);
    settings.whiteBalance = asked.whiteBalance === null ? (cap.set(CAP_PROP_AUTO_WB, 1), false) : cap.set(CAP_PROP_AUTO_WB, 0) && cap.set(CAP_PROP_WB_TEMPERATURE, asked.whiteBalance);
  };

  const open = (): cv.VideoCapture => {
    if (typeof options.source === 'string' && !existsSync(options.source)) {
      throw new CameraError('camera/not_found', `camera ${options.source} does not exist (unplugged, or a wrong path)`);
    }
    let cap: cv.VideoCapture;
    try {
      cap = fromFile ? new cv.VideoCapture(options.source) : new cv.VideoCapture(options.source, cv.CAP_V4L2);
    } catch (err) {
      throw new CameraError('camera/not_found', `camera ${String(options.source)} cannot be opened: unplugged, or in use by another program (${errorText(err)})`);
    }
    if (options.width) cap.set(cv.CAP_PROP_FRAME_WIDTH, options.width);
    if (options.height) cap.set(cv.CAP_PROP_FRAME_HEIGHT, options.height);
    // Left alone unless asked: a driver's own automatic setting stays as it was.
    if (asked.exposure !== null || asked.whiteBalance !== null) apply(cap);
    return cap;
  };

  interface Opened {
    readonly cap: cv.VideoCapture;
    /** When it was opened: a video file's frame times count from here (a file opened again after its end starts again now, not in the past). */
    readonly since: number;
  }
  const opening = (): Opened => ({ cap: open(), since: Date.now() });
  let current: Opened | null = opening();
  let closed = false;
  const retire = () => {
    current?.cap.release();
    current = null;
  };

  /** One frame, or the CameraError of a lost or empty read (its capture retired, so the next one opens the camera again). */
  const captureOnce = (): Frame | CameraError => {
    current ??= opening();
    const opened = current;
    let image: cv.Mat | null = null;
    try {
      // The stale frames first: dropped, and freed at once, not left to V8's collector (a 1280×720 frame is 2.7 MB of external memory to it).
      for (let i = 0; i <= stale; i++) {
        image?.release();
        image = null;
        image = opened.cap.read();
      }
    } catch (err) {
      image?.release();
      retire();
      return new CameraError('camera/lost', `camera ${String(options.source)} stopped answering: ${errorText(err)}`);
    }
    const frame = image as cv.Mat;
    try {
      if (frame.empty || frame.rows === 0) {
        retire();
        return new CameraError('camera/no_frame', `camera ${String(options.source)} gave no frame (unplugged, busy, or the end of the video)`);
      }
      // A video file's frames carry its own clock: read faster or slower than it was recorded, a roll still takes as long as it did.
      const capturedAt = fromFile ? opened.since + opened.cap.get(cv.CAP_PROP_POS_MSEC) : Date.now();
      return { image: cv.imencode('.jpg', frame, [cv.IMWRITE_JPEG_QUALITY, quality]), width: frame.cols, height: frame.rows, capturedAt };
    } finally {
      frame.release();
    }
  };

  return {
    settings,
    adjust(next: FixedSettings): CameraSettings {
      asked = next;
      current ??= opening();
      apply(current.cap);
      return { ...settings };
    },
    capture(): Frame {
      if (closed) throw new CameraError('camera/lost', `camera ${String(options.source)} was closed`);
      // A device unplugged and plugged back reads nothing through its old handle: it is opened again, once, before the capture
      // fails. A video file that gives no frame has ended.
      for (let attempt = 1; ; attempt++) {
        const result = captureOnce();
        if (!(result instanceof CameraError)) return result;
        if (fromFile || attempt === 2) throw result;
      }
    },
    close() {
      closed = true;
      retire();
    },
  };
}
