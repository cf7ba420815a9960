/**
 * Checks on what a real camera delivers, before the dice are read: a black
 * frame (lens covered, light off, a dead sensor) and a frozen one (a driver
 * that hands out the same picture again) must stop the roll with a status
 * that says so, not pass as "no dice found" or, worse, as the previous roll's
 * dice read a second time.
 */
import { createHash } from 'node:crypto';
import cv from '../hardware/opencv.js';
import { CameraError, type Camera, type Frame } from '../hardware/types.js';
import { decodeImage } from '../hardware/image-bytes.js';

export interface CameraCheckOptions {
  /** Mean brightness (0-255) below which a frame counts as black. */
  readonly blackBelow?: number;
  /**
   * Refuse a frame identical, byte for byte, to the one before. Right for a
   * live camera (sensor noise makes two real frames differ); wrong for a
   * replayed folder or video, which may repeat a picture on purpose.
   */
  readonly refuseRepeats?: boolean;
}

/** Mean brightness (0-255) of an encoded image, measured on an eighth-size grey decode (a few ms). */
export function meanBrightness(image: Buffer): number | null {
  const decoded = decodeImage(image, cv.IMREAD_REDUCED_GRAYSCALE_8);
  if ('problem' in decoded) return null; // not a whole image: the reader says so with its own error
  const brightness = decoded.image.mean().w;
  // Freed now, as the reader's (a frame's buffers left to V8's collector set off full collections).
  decoded.image.release();
  return brightness;
}

/** `camera` with its frames checked; a frame that fails rejects with a `CameraError` naming the problem. */
export function checkedCamera(camera: Camera, options: CameraCheckOptions = {}): Camera {
  const blackBelow = options.blackBelow ?? 8;
  let previous: string | null = null;
  return {
    async capture(): Promise<Frame> {
      const frame = await camera.capture();
      if (options.refuseRepeats) {
        const digest = createHash('sha256').update(frame.image).digest('hex');
        const repeated = digest === previous;
        previous = digest;
        if (repeated) throw new CameraError('camera/frozen', 'the camera sent the same picture again (frozen): its driver or cable may have hung; unplug it and plug it back');
      }
      const brightness = meanBrightness(frame.image);
      if (brightness !== null && brightness < blackBelow) {
        throw new CameraError('camera/black', `the camera's picture is black (mean brightness ${brightness.toFixed(1)} of 255): is the lens covered or the tray light off?`);
      }
      return frame;
    },
  };
}
