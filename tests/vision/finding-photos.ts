import { readFileSync } from 'node:fs';
import type cv from '../../src/hardware/opencv.js';
import { DEFAULT_VISION_CONFIG, type VisionConfig } from '../../src/vision/config.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/read-dice.js';

/** A labelled die's box: x0, y0, x1, y1 (frame pixels). */
export type Box = readonly [number, number, number, number];
export const inBox = (box: Box, c: { x: number; y: number }) => c.x >= box[0] && c.x <= box[2] && c.y >= box[1] && c.y <= box[3];

/** A photo of `fixtures/vision-photos/finding/` and its labelled dice. */
export function findingPhoto(name: string): { image: cv.Mat; labelled: { value: number; box: Box }[] } {
  const photo = (ext: string) => readFileSync(new URL(`../../fixtures/vision-photos/finding/${name}.${ext}`, import.meta.url));
  return { image: decodeFrame(photo('jpg')), labelled: (JSON.parse(photo('json').toString()) as { dice: { value: number; box: Box }[] }).dice };
}

/** The dice read with a value, and those of them whose value no labelled die at their centre has ("value at (x, y)"). */
export function readValues(image: cv.Mat, labelled: readonly { value: number; box: Box }[], cfg: VisionConfig = DEFAULT_VISION_CONFIG) {
  const read = readDiceInImage(image, cfg).dice.filter((d) => d.value !== null);
  const wrong = read.filter((d) => !labelled.some((l) => l.value === d.value && inBox(l.box, d.center)));
  return { read, wrong: wrong.map((d) => `${d.value} at (${Math.round(d.center.x)}, ${Math.round(d.center.y)})`) };
}

/** The values read for the dice centred in `box` (null: unreadable). */
export const valuesIn = (image: cv.Mat, box: Box, cfg: VisionConfig) => readDiceInImage(image, cfg).dice.filter((d) => inBox(box, d.center)).map((d) => d.value);
