import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { FACE_INPUT_CHANNELS, FACE_INPUT_SIDE, faceInput, loadFaceClassifier, MODEL_CFG, MODEL_DIR, MODEL_WEIGHTS } from '../../src/vision/face-classifier.js';
import { findDieBlobs } from '../../src/vision/blobs.js';
import { DEFAULT_VISION_CONFIG } from '../../src/vision/config.js';
import { uprightFace } from '../../src/vision/face.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/read-dice.js';
import { decideValue, readFace } from '../../src/vision/value.js';
import { VisionError } from '../../src/vision/types.js';

const cfg = DEFAULT_VISION_CONFIG;

describe('the face classifier (the shipped model through OpenCV dnn)', () => {
  const classifier = loadFaceClassifier();

  it('reads simulator faces it was not trained on (seeds outside the training script\'s)', () => {
    const wrong: string[] = [];
    let faces = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new SeededRandom(seed);
      const truth = throwDice(rng, 6, Array.from({ length: 6 }, () => rng.pick(DIE_COLOURS)));
      const frame = decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed }));
      const blobs = findDieBlobs(frame, cfg).blobs;
      const guesses = classifier.classify(
        blobs.map((b) => {
          const face = readFace(uprightFace(frame, b, cfg.facePatch), cfg);
          return faceInput(face.inner, face.body);
        }),
      );
      blobs.forEach((blob, i) => {
        const die = truth.find((d) => Math.hypot(d.x - blob.rect.center.x, d.y - blob.rect.center.y) < d.size / 3);
        if (!die) return;
        faces++;
        const guess = guesses[i];
        if (guess?.value !== die.value) wrong.push(`seed ${seed}: ${die.colour} ${die.value} read as ${guess?.value} (p ${guess?.probability.toFixed(3)})`);
      });
    }
    expect(faces).toBeGreaterThan(150);
    expect(wrong).toEqual([]);
  });

  it('says a blank patch is no die face, with one guess per input and none for no input', () => {
    const blank = new cv.Mat(FACE_INPUT_SIDE, FACE_INPUT_SIDE, cv.CV_32FC3, [0, 0, 0]);
    const [guess, ...rest] = classifier.classify([blank]);
    expect(rest).toEqual([]);
    expect(guess?.value).toBe(0);
    expect(classifier.classify([])).toEqual([]);
  });

  it('averages the same 8 views when given the upright guesses it already made (and no longer classifies the upright view again)', () => {
    const frame = decodeFrame(readFileSync(new URL('../../fixtures/vision-photos/matteop65-four_48.jpg', import.meta.url)));
    const inputs = findDieBlobs(frame, cfg).blobs.map((b) => {
      const face = readFace(uprightFace(frame, b, cfg.facePatch), cfg);
      return faceInput(face.inner, face.body);
    });
    expect(inputs.length).toBeGreaterThan(2);
    const upright = classifier.classify(inputs);
    const all = classifier.classify(inputs, true);
    const reused = classifier.classify(inputs, true, upright);
    reused.forEach((guess, i) => {
      expect(guess.value).toBe(all[i]?.value);
      expect(guess.probability).toBeCloseTo(all[i]?.probability ?? NaN, 5);
    });
    // The upright view counts: averaging the other 7 alone would differ.
    const fake = upright.map((g) => ({ ...g, classes: [1, 0, 0, 0, 0, 0, 0] }));
    expect(classifier.classify(inputs, true, fake).some((g, i) => Math.abs(g.probability - (all[i]?.probability ?? 0)) > 1e-3)).toBe(true);
  });

  it.each(['nell-byler-IMG_20191208_111457', 'nell-byler-IMG_20191209_095453', 'matteop65-four_48', 'matteop65-two_35', 'matteop65-dice_23'])(
    'reads the faces of %s that the pip counter alone leaves unreadable',
    (name) => {
      const photo = (ext: string) => readFileSync(new URL(`../../fixtures/vision-photos/${name}.${ext}`, import.meta.url));
      const labelled = (JSON.parse(photo('json').toString()) as { dice: unknown[] }).dice.length;
      const image = decodeFrame(photo('jpg'));
      const read = (reading: ReturnType<typeof readDiceInImage>) => reading.dice.filter((d) => d.value !== null).length;
      expect(read(readDiceInImage(image, { ...cfg, useClassifier: false }))).toBeLessThan(labelled);
      // Every labelled die read (that each is read right, and nothing else is, is photo-fixtures.test.ts's check).
      expect(read(readDiceInImage(image))).toBe(labelled);
    },
  );

  it('refuses to start without its model files, naming them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-model-'));
    copyFileSync(join(MODEL_DIR, MODEL_CFG), join(dir, MODEL_CFG));
    expect(() => loadFaceClassifier(dir)).toThrow(VisionError);
    expect(() => loadFaceClassifier(dir)).toThrow(/die-face\.weights/);
  });

  it('refuses a model trained for another face size, naming both sizes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'other-size-'));
    writeFileSync(join(dir, MODEL_CFG), readFileSync(join(MODEL_DIR, MODEL_CFG), 'utf8').replace(/^width=\d+/m, 'width=32'));
    copyFileSync(join(MODEL_DIR, MODEL_WEIGHTS), join(dir, MODEL_WEIGHTS));
    expect(() => loadFaceClassifier(dir)).toThrow(new RegExp(`32-pixel faces, the reader gives ${FACE_INPUT_SIDE}`));
  });

  it('refuses a model trained on faces of another number of channels, naming both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'other-channels-'));
    writeFileSync(join(dir, MODEL_CFG), readFileSync(join(MODEL_DIR, MODEL_CFG), 'utf8').replace(/^channels=\d+/m, 'channels=1'));
    copyFileSync(join(MODEL_DIR, MODEL_WEIGHTS), join(dir, MODEL_WEIGHTS));
    expect(() => loadFaceClassifier(dir)).toThrow(new RegExp(`1-channel faces, the reader gives ${FACE_INPUT_CHANNELS}`));
  });
});

describe('decideValue: pip count and classifier together', () => {
  const clear = { pips: 4, confidence: 0.9 };
  const doubtful = { pips: 4, confidence: 0.3 };

  it('takes a clear count the classifier agrees with', () => {
    expect(decideValue(clear, { value: 4, probability: 0.99 }, cfg)).toEqual({ value: 4, confidence: 0.99 });
  });

  it('makes a clear count unreadable when the classifier is sure of another value (short of overruling it), or that it is no face', () => {
    expect(decideValue(clear, { value: 5, probability: cfg.classifierAlone }, cfg).value).toBeNull();
    expect(decideValue(clear, { value: 0, probability: 0.9 }, cfg).value).toBeNull();
  });

  it('takes the value of a classifier all but certain of another one over a clear count, but not for a die cut at seams', () => {
    expect(decideValue(clear, { value: 5, probability: cfg.classifierOverrule }, cfg)).toEqual({ value: 5, confidence: cfg.classifierOverrule });
    expect(decideValue(clear, { value: 5, probability: cfg.classifierOverrule - 0.001 }, cfg).value).toBeNull();
    expect(decideValue(clear, { value: 0, probability: 0.9999 }, cfg).value).toBeNull();
    expect(decideValue(clear, { value: 5, probability: 0.9999 }, cfg, false).value).toBeNull();
  });

  it('makes a clear count unreadable even when the classifier disagrees without conviction: the value is disputed', () => {
    expect(decideValue(clear, { value: 5, probability: 0.4 }, cfg).value).toBeNull();
    expect(decideValue(clear, { value: 0, probability: 0.4 }, cfg).value).toBeNull();
    expect(decideValue(clear, { value: 5, probability: 0.4 }, cfg, false).value).toBeNull();
  });

  it('reads a face the pips could not only when the classifier is very sure', () => {
    expect(decideValue(doubtful, { value: 6, probability: cfg.classifierAlone }, cfg)).toEqual({ value: 6, confidence: cfg.classifierAlone });
    expect(decideValue(doubtful, { value: 6, probability: cfg.classifierAlone - 0.01 }, cfg).value).toBeNull();
    expect(decideValue(doubtful, { value: 0, probability: 0.999 }, cfg).value).toBeNull();
  });

  it('by default reads such a face when the classifier is 0.9 sure over its 8 views, not 0.8 (held out, 0.95 left right readings unreadable)', () => {
    expect(decideValue(doubtful, { value: 3, probability: 0.9 }, cfg)).toEqual({ value: 3, confidence: 0.9 });
    expect(decideValue(doubtful, { value: 3, probability: 0.8 }, cfg).value).toBeNull();
  });

  it('reads a die cut out of a cluster at its seams only from a pip count the classifier confirms', () => {
    expect(decideValue(doubtful, { value: 6, probability: 0.999 }, cfg, false).value).toBeNull();
    expect(decideValue(clear, { value: 4, probability: 0.99 }, cfg, false).value).toBe(4);
  });

  it('falls back to the pip count alone without a classifier', () => {
    expect(decideValue(clear, null, cfg).value).toBe(4);
    expect(decideValue(doubtful, null, cfg).value).toBeNull();
  });
});
