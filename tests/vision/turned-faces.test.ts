import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, edgeTurn, readDiceInImage, toBlob, uprightFace, type Blob, type VisionConfig } from '../../src/vision/read-dice.js';

/** A square blob of side `side` centred on (cx, cy), turned `angle` degrees, as the reader makes them. */
const squareBlob = (cx: number, cy: number, side: number, angle: number): Blob => toBlob(new cv.RotatedRect(new cv.Point2(cx, cy), new cv.Size(side, side), angle));

describe('edgeTurn: how far a face is turned against its box', () => {
  it.each([-30, -10, 20, 40])('finds a red square turned %d° in an upright box, and about 0° once the box is turned by what it found', (angle) => {
    const frame = new cv.Mat(200, 200, cv.CV_8UC3, [200, 200, 200]);
    const die = squareBlob(100, 100, 50, angle).box.map((p) => new cv.Point2(Math.round(p.x), Math.round(p.y)));
    frame.drawFillPoly([die], new cv.Vec3(30, 30, 180));
    const turn = edgeTurn(uprightFace(frame, squareBlob(100, 100, 70, 0), 80));
    expect(Math.abs(turn - angle)).toBeLessThan(3);
    expect(Math.abs(edgeTurn(uprightFace(frame, squareBlob(100, 100, 70, turn), 80)))).toBeLessThan(2);
  });

  it('finds no turn on a face square to its box, or on a blank one', () => {
    const frame = new cv.Mat(200, 200, cv.CV_8UC3, [200, 200, 200]);
    expect(edgeTurn(uprightFace(frame, squareBlob(100, 100, 70, 0), 80))).toBe(0);
    frame.drawRectangle(new cv.Point2(75, 75), new cv.Point2(125, 125), new cv.Vec3(30, 30, 180), -1);
    expect(Math.abs(edgeTurn(uprightFace(frame, squareBlob(100, 100, 70, 0), 80)))).toBeLessThan(1);
  });
});

describe('a face left unreadable, read again in a box turned to its edges', () => {
  // Not every die of this crowded photo is read (a die-finding fixture), so only the one die and the absence of wrong values are checked.
  const name = 'finding/nell-byler-IMG_20191208_111718';
  const photo = (ext: string) => readFileSync(new URL(`../../fixtures/vision-photos/${name}.${ext}`, import.meta.url));
  const { dice: labelled } = JSON.parse(photo('json').toString()) as { dice: { value: number; box: [number, number, number, number] }[] };
  const image = decodeFrame(photo('jpg'));
  const inBox = (box: readonly number[], c: { x: number; y: number }) => c.x >= (box[0] as number) && c.x <= (box[2] as number) && c.y >= (box[1] as number) && c.y <= (box[3] as number);
  const purpleTwo = [219, 330, 259, 370];
  const readAt = (cfg: VisionConfig) => readDiceInImage(image, cfg).dice.filter((d) => inBox(purpleTwo, d.center)).map((d) => d.value);

  it('reads the purple 2 cut out at its seams in a box turned 45° against it, which is unreadable without', () => {
    expect(readAt(DEFAULT_VISION_CONFIG)).toEqual([2]);
    expect(readAt({ ...DEFAULT_VISION_CONFIG, rereadTurned: false })).toEqual([null]);
  });

  it('reads no die of the photo with a value its label does not have', () => {
    const { dice } = readDiceInImage(image, DEFAULT_VISION_CONFIG);
    const wrong = dice.filter((d) => d.value !== null && !labelled.some((l) => l.value === d.value && inBox(l.box, d.center)));
    expect(wrong.map((d) => `${d.value} at (${Math.round(d.center.x)}, ${Math.round(d.center.y)})`)).toEqual([]);
    expect(dice.filter((d) => d.value !== null).length).toBeGreaterThan(15);
  });
});
