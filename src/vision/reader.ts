/**
 * The dice reader, stage by stage over a decoded BGR frame:
 *   find (find.ts: where each die is and how large, at any scale and on any floor)
 *   → face (face.ts: the die's outline near where it was found, its face warped upright, its colour)
 *   → value (value.ts: pips counted and the face classifier, which must agree)
 *   → judge (validity.ts: colour confidence, size class, and whether the roll may be used)
 *   → the reading (dice in reading order, their issues, and a moved camera looked for when refused).
 */
import type cv from '../hardware/opencv.js';
import { contains, type Blob } from './box.js';
import type { VisionConfig } from './config.js';
import { dieOutline, patchToFrame, squareAtFound, type Outline } from './face.js';
import { DEFAULT_FINDER_CONFIG, findDice, loadDieFinder, type DieCandidate } from './find.js';
import { nearestColour } from './palette.js';
import { checkFrameFor, inReadingOrder } from './read-dice.js';
import { cameraMovedIn } from './tray-marks.js';
import type { DiceReading, DieReading, Point } from './types.js';
import { boxCentre, judgeScene } from './validity.js';
import { classifierFor, classifyFaces, decideValue, readFaces, readNearby, readTurned, topFaceCentre } from './value.js';

/**
 * Find and face, the stages before values: the dice the finder finds, each
 * one's outline near where it was found, and the box its face is read in (the
 * outline's, else a square turned to the face's edges). The face classifier
 * is still trained on the old finder's boxes (blobs.ts); it is to learn these.
 */
export function findDieBoxes(image: cv.Mat, cfg: VisionConfig): { found: DieCandidate[]; outlines: Outline[]; boxes: Blob[] } {
  const found = findDice(image, loadDieFinder(cfg.finderModel ?? undefined), DEFAULT_FINDER_CONFIG, cfg.dieSize ?? undefined);
  const outlines = found.map((die) => dieOutline(image, die, found));
  const boxes = found.map((die, i) => (outlines[i] as Outline).blob ?? squareAtFound(image, die));
  return { found, outlines, boxes };
}

/**
 * A face left unreadable is read again nearby when the classifier gives its
 * value at least this probability: the pips must then count to that value
 * there (held out, nell-byler and matteop65 half 1: 3 and 4 points of recall,
 * precision within half a point).
 */
const NEARBY_GUESS = 0.5;

/** Below this finder score, a place the classifier takes for no die's face is dropped rather than reported unreadable. */
const NO_DIE_SCORE = 0.5;

export function readFoundDice(image: cv.Mat, cfg: VisionConfig, expectedCount?: number): DiceReading {
  const started = performance.now();
  checkFrameFor(image, cfg);
  const { found, outlines, boxes } = findDieBoxes(image, cfg);
  const faces = readFaces(image, boxes, cfg);
  try {
    const classifier = classifierFor(cfg);
    const guesses = classifier ? classifyFaces(classifier, faces, cfg) : [];
    const fills = new Map<DieReading, number>();
    const unsized = new Set<DieReading>();
    // A place the finder is unsure of, whose face the classifier is sure is no die's, is no die (a screw head, a tray's corner).
    const noDie = (i: number) => {
      const guess = guesses[i];
      return (found[i] as (typeof found)[number]).score < NO_DIE_SCORE && guess !== undefined && guess.value === 0 && guess.probability >= cfg.classifierNoFace;
    };
    const dice = boxes.flatMap((blob, i): DieReading[] => {
      if (noDie(i)) return [];
      const face = faces[i] as (typeof faces)[number];
      const guess = guesses[i] ?? null;
      const decided = decideValue(face, guess, cfg);
      // Unreadable, but a die's face to the classifier: read again in a box turned to its edges, else in a box nearby (a die
      // seen from the side) where the pips count to the classifier's value, unless that face lies in another die's box.
      const faceOfADie = decided.value === null && classifier && guess !== null && guess.value > 0 ? guess : null;
      const turned = faceOfADie && classifier && cfg.rereadTurned ? readTurned(image, blob, classifier, cfg) : null;
      const nearby = faceOfADie && !turned && faceOfADie.probability >= NEARBY_GUESS ? readNearby(image, blob, faceOfADie, cfg) : null;
      const reread = turned ?? (nearby && !boxes.some((other) => other !== blob && contains(other.box, nearby.centre)) ? nearby : null);
      const { value, confidence } = reread ?? decided;
      const centre: Point = reread?.centre ?? (value === null ? (found[i] as (typeof found)[number]).center : patchToFrame(blob, topFaceCentre(face, value, cfg), cfg.facePatch));
      const body = reread?.body ?? face.body;
      const die: DieReading = { value, colour: nearestColour(body, cfg.palette, cfg.colourLightnessWeight).name, lab: body, center: centre, box: (reread?.box ?? blob).box, size: blob.size, confidence };
      const outline = outlines[i];
      if (outline?.blob) fills.set(die, outline.fill);
      else unsized.add(die);
      return [die];
    });
    // Dice pressed together make one outline: they are not apart, and one may hide part of the other.
    const objects: (readonly Point[])[] = [];
    for (const outline of outlines) {
      const spans = outline.blob === null ? outline.spans : null;
      if (spans && !objects.some((o) => contains(o, boxCentre(spans)))) objects.push(spans);
    }
    const draft = { dice: inReadingOrder(dice), fills, unsized, objects, width: image.cols, height: image.rows };
    const judged = judgeScene(draft, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount);
    const moved = judged.valid ? null : cameraMovedIn(image, cfg.trayMarks, cfg.trayCorners);
    const final = moved ? judgeScene({ ...draft, cameraMoved: moved }, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount) : judged;
    return { ...final, width: image.cols, height: image.rows, ms: performance.now() - started };
  } finally {
    for (const face of faces) face.inner.release();
  }
}
