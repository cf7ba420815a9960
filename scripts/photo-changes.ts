/**
 * The metamorphic changes the benchmarks make to a photo before reading it:
 * resized by a factor (the same dice at other sizes), blurred and recompressed
 * (a worse camera). Shared by bench:vision and bench:finder.
 */
import cv from '../src/hardware/opencv.js';

export interface PhotoChanges {
  readonly scale: number;
  readonly blur: number;
  readonly jpeg: number | undefined;
}

/** The changes the `--scale F`, `--blur SIGMA` and `--jpeg Q` options ask for; throws naming the option given a bad value. */
export function parsePhotoChanges(option: (name: string) => string | undefined): PhotoChanges {
  for (const name of ['--scale', '--blur', '--jpeg']) if (option(name) === '') throw new Error(`${name} takes a value, got none`);
  const scale = Number(option('--scale') ?? 1);
  const blur = Number(option('--blur') ?? 0);
  const jpeg = option('--jpeg') === undefined ? undefined : Number(option('--jpeg'));
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`--scale takes a factor above 0, got "${option('--scale')}"`);
  if (!(blur >= 0 && Number.isFinite(blur))) throw new Error(`--blur takes a Gaussian sigma in pixels, 0 or more, got "${option('--blur')}"`);
  if (jpeg !== undefined && !(Number.isInteger(jpeg) && jpeg >= 1 && jpeg <= 100)) throw new Error(`--jpeg takes a quality from 1 to 100, got "${option('--jpeg')}"`);
  return { scale, blur, jpeg };
}

/** Whether any change is asked for. */
export function changesAnything(changes: PhotoChanges): boolean {
  return changes.scale !== 1 || changes.blur > 0 || changes.jpeg !== undefined;
}

/** How the changes read in a figure's heading: " x0.5 blur 1.5 jpeg 40", or "". */
export function describeChanges(changes: PhotoChanges): string {
  return `${changes.scale !== 1 ? ` x${changes.scale}` : ''}${changes.blur ? ` blur ${changes.blur}` : ''}${changes.jpeg !== undefined ? ` jpeg ${changes.jpeg}` : ''}`;
}

/**
 * The photo changed: resized, then blurred, then recompressed. The input is
 * freed (each step's input at once, so V8's collector does not run inside a
 * timed read), unless no change is asked for: then it is returned as it is.
 */
export function changePhoto(photo: cv.Mat, changes: PhotoChanges): cv.Mat {
  let image = photo;
  const then = (next: cv.Mat) => {
    image.release();
    image = next;
  };
  const { scale, blur, jpeg } = changes;
  if (scale !== 1) then(image.resize(Math.round(image.rows * scale), Math.round(image.cols * scale), 0, 0, scale < 1 ? cv.INTER_AREA : cv.INTER_CUBIC));
  if (blur > 0) then(image.gaussianBlur(new cv.Size(0, 0), blur));
  if (jpeg !== undefined) then(cv.imdecode(cv.imencode('.jpg', image, [cv.IMWRITE_JPEG_QUALITY, jpeg])));
  return image;
}
