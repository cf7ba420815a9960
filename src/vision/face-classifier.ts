import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cv from '../hardware/opencv.js';
import type { Lab } from './palette.js';
import { VisionError } from './types.js';

/**
 * The die-face classifier: a small convolutional network that tells a face's
 * value from its contrast map. It is trained by `scripts/train-die-classifier.ts`
 * (which writes the two model files below) and run through OpenCV's `dnn`
 * module. The pip counter in value.ts and this network read every face;
 * the reader decides from both (value.ts `decideValue`).
 */

/** Side of the classifier's input, pixels. */
export const FACE_INPUT_SIDE = 24;
/** Contrast (L*a*b* distance) that maps to 1 when a face has no stronger one: a blank or washed-out face stays faint instead of being stretched into noise. */
const MIN_CONTRAST_SCALE = 40;

export const MODEL_DIR = join(dirname(fileURLToPath(import.meta.url)), 'model');
export const MODEL_CFG = 'die-face.cfg';
export const MODEL_WEIGHTS = 'die-face.weights';

/** Channels of the classifier's input: the face's signed difference from its body colour in L*, a* and b*. */
export const FACE_INPUT_CHANNELS = 3;

/**
 * A face (8-bit Lab, the inner patch inside the die's edges) as the classifier's
 * input: 24×24, float, 3 channels, each pixel's L*a*b* difference from the body
 * colour, divided by the face's strongest contrast. Signed, so the network sees
 * which way a pip differs (red pips on a marbled die, dark pips on ivory) while
 * the body colour itself drops out.
 */
export function faceInput(face: cv.Mat, body: Lab): cv.Mat {
  const small = face.resize(FACE_INPUT_SIDE, FACE_INPUT_SIDE, 0, 0, cv.INTER_AREA);
  const bytes = small.getData();
  // Freed now: opencv4nodejs counts Mats against V8's heap, and left to the collector they set off full collections.
  small.release();
  const n = FACE_INPUT_SIDE * FACE_INPUT_SIDE;
  const input = new Float32Array(n * FACE_INPUT_CHANNELS);
  // 8-bit Lab: L in 1/2.55 units of L*, a and b offset by 128.
  const L = (body.L * 255) / 100;
  const a = body.a + 128;
  const b = body.b + 128;
  let scale = MIN_CONTRAST_SCALE;
  for (let i = 0; i < n; i++) {
    const dL = ((bytes[3 * i] as number) - L) / 2.55;
    const da = (bytes[3 * i + 1] as number) - a;
    const db = (bytes[3 * i + 2] as number) - b;
    input[3 * i] = dL;
    input[3 * i + 1] = da;
    input[3 * i + 2] = db;
    scale = Math.max(scale, Math.abs(dL) + Math.abs(da) + Math.abs(db));
  }
  for (let i = 0; i < input.length; i++) input[i] = (input[i] as number) / scale;
  return new cv.Mat(Buffer.from(input.buffer), FACE_INPUT_SIDE, FACE_INPUT_SIDE, cv.CV_32FC3);
}

/** The network's classes: 0 = not one die's face (floor, a shadow, two dice, part of a die), then the values 1-6. */
export const CLASSES = 7;

export interface FaceGuess {
  /** 1-6: the likeliest value; 0 when the likeliest is that this is not one die's face. */
  readonly value: number;
  /** Its probability (softmax output, 0-1). */
  readonly probability: number;
  /** Every class's probability (index 0 = not a face, then the values), from a plain pass only (the views a symmetric pass averaged are not one view). */
  readonly classes?: readonly number[];
}

export interface FaceClassifier {
  /**
   * One guess per input (inputs from `faceInput`). With `symmetric`, each face
   * is classified in its 8 rotations and mirror images and the probabilities
   * averaged: steadier, 8 times the work. `upright` (this classifier's plain
   * guesses for the same inputs) spares classifying the unturned view again.
   */
  classify(inputs: readonly cv.Mat[], symmetric?: boolean, upright?: readonly FaceGuess[]): FaceGuess[];
}

const SYMMETRIES = 8;
/** A square patch in its 4 rotations and their mirror images. */
function symmetries(patch: cv.Mat): cv.Mat[] {
  const mirrored = patch.flip(1);
  return [patch, mirrored].flatMap((m) => [m, m.rotate(cv.ROTATE_90_CLOCKWISE), m.rotate(cv.ROTATE_180), m.rotate(cv.ROTATE_90_COUNTERCLOCKWISE)]);
}

/** Loads the network from `dir` (the model shipped in the repo by default). */
export function loadFaceClassifier(dir: string = MODEL_DIR): FaceClassifier {
  const cfg = join(dir, MODEL_CFG);
  const weights = join(dir, MODEL_WEIGHTS);
  if (!existsSync(cfg) || !existsSync(weights)) {
    throw new VisionError('vision/no_model', `the die-face model is missing: expected ${cfg} and ${weights} (run scripts/train-die-classifier.ts)`);
  }
  // A model trained for another face size would read every face wrong without an error of its own, and one for other channels fails deep inside OpenCV.
  const text = readFileSync(cfg, 'utf8');
  const side = /^width=(\d+)/m.exec(text)?.[1];
  if (Number(side) !== FACE_INPUT_SIDE) {
    throw new VisionError('vision/bad_model', `the die-face model ${cfg} takes ${side ?? 'no stated'}-pixel faces, the reader gives ${FACE_INPUT_SIDE} (retrain it with scripts/train-die-classifier.ts)`);
  }
  const channels = /^channels=(\d+)/m.exec(text)?.[1];
  if (Number(channels) !== FACE_INPUT_CHANNELS) {
    throw new VisionError('vision/bad_model', `the die-face model ${cfg} takes ${channels ?? 'no stated'}-channel faces, the reader gives ${FACE_INPUT_CHANNELS} (retrain it with scripts/train-die-classifier.ts)`);
  }
  const net = cv.readNetFromDarknet(cfg, weights);
  return {
    classify(inputs, symmetric = false, upright) {
      if (inputs.length === 0) return [];
      // The unturned view's probabilities when the caller has them (symmetries() lists it first).
      const known = (i: number) => (symmetric ? upright?.[i]?.classes : undefined);
      const views = symmetric ? inputs.flatMap((input, i) => symmetries(input).slice(known(i) ? 1 : 0)) : [...inputs];
      // One forward pass for every view of every face.
      const blob = cv.blobFromImages(views, 1, new cv.Size(FACE_INPUT_SIDE, FACE_INPUT_SIDE), new cv.Vec3(0, 0, 0), false, false);
      net.setInput(blob);
      // The output blob is N×7×1×1; as an N×7 matrix its floats are one per class.
      const output = net.forward();
      const flat = output.flattenFloat(views.length, CLASSES);
      const data = flat.getData();
      // Freed now (the caller's inputs stay): opencv4nodejs counts Mats against V8's heap, and left to the collector they set off full collections.
      for (const mat of [blob, output, flat, ...views.filter((v) => !inputs.includes(v))]) mat.release();
      const probabilities = new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
      if (probabilities.length !== views.length * CLASSES) throw new VisionError('vision/bad_model', `the die-face model gave ${probabilities.length} outputs for ${views.length} faces (expected ${CLASSES} each)`);
      const perFace = symmetric ? SYMMETRIES : 1;
      let view = 0;
      return inputs.map((_, i) => {
        const mean = new Array<number>(CLASSES).fill(0);
        const first = known(i);
        if (first) for (let c = 0; c < CLASSES; c++) mean[c] = (first[c] ?? 0) / perFace;
        for (let v = first ? 1 : 0; v < perFace; v++, view++) for (let c = 0; c < CLASSES; c++) mean[c] = (mean[c] as number) + (probabilities[view * CLASSES + c] as number) / perFace;
        let best = 0;
        for (let c = 1; c < CLASSES; c++) if ((mean[c] as number) > (mean[best] as number)) best = c;
        return symmetric ? { value: best, probability: mean[best] as number } : { value: best, probability: mean[best] as number, classes: mean };
      });
    },
  };
}
