import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, findDieBlobs, type VisionConfig } from '../../src/vision/read-dice.js';

/** Labelled dice of a photo fixture with a found die whose centre lies in their box. */
function diceFound(name: string, cfg: VisionConfig): { found: number; labelled: number } {
  const photo = (ext: string) => readFileSync(new URL(`../../fixtures/vision-photos/${name}.${ext}`, import.meta.url));
  const { dice } = JSON.parse(photo('json').toString()) as { dice: { box: [number, number, number, number] }[] };
  const lab = decodeFrame(photo('jpg')).cvtColor(cv.COLOR_BGR2Lab);
  const { blobs } = findDieBlobs(lab, cfg);
  const found = dice.filter(({ box: [x0, y0, x1, y1] }) => blobs.some(({ rect: { center: c } }) => c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1)).length;
  return { found, labelled: dice.length };
}

describe('finding dice pressed together', () => {
  it.each(['nell-byler-IMG_20191209_095919', 'matteop65-six_56'])('%s: every die is found only when blobs are cut at their colour seams', (name) => {
    const { found, labelled } = diceFound(name, DEFAULT_VISION_CONFIG);
    expect(found).toBe(labelled);
    expect(diceFound(name, { ...DEFAULT_VISION_CONFIG, seamThreshold: 0 }).found).toBeLessThan(labelled);
  });

  it('finds a small die pressed against a larger one, which the depth cut that parts the larger loses', () => {
    const name = 'finding/nell-byler-IMG_20191209_095613';
    const { found, labelled } = diceFound(name, DEFAULT_VISION_CONFIG);
    expect(found).toBe(labelled);
    // With no limit on what a cut may leave unexplained, the larger die's box is taken for the whole blob.
    expect(diceFound(name, { ...DEFAULT_VISION_CONFIG, splitLeftover: Infinity }).found).toBeLessThan(labelled);
  });
});
