/**
 * The dice reader. `readDiceInImage` runs the stages over a decoded BGR frame
 * and returns its `DiceReading`: the dice found (blobs.ts), each face warped
 * upright (face.ts) and its value read (value.ts), the objects searched for
 * dice (blobs.ts), a box that holds a smaller die's centre and a die on a tray
 * mark of its own colour left unreadable, what the learned die finder
 * (find.ts) sees no die in dropped, the scene judged (validity.ts) and,
 * for a refused roll, a moved camera looked for (tray-marks.ts); the "Step N"
 * labels in those files number the stages in this order. Also the frame's
 * decoding (`decodeFrame`) and size check, the dice's reading order, and
 * `createDiceReader`, the `DiceReader` over camera frames.
 */
import cv from '../hardware/opencv.js';
import type { Frame } from '../hardware/types.js';
import { decodeImage } from '../hardware/image-bytes.js';
import { DEFAULT_FINDER_CONFIG, findDice, loadDieFinder, type DieCandidate } from './find.js';
import { findDieBlobs, searchObjects } from './blobs.js';
import { contains, type Blob } from './box.js';
import { checkVisionConfig, DEFAULT_VISION_CONFIG, type VisionConfig } from './config.js';
import { patchToFrame } from './face.js';
import { nearestColour, type Lab } from './palette.js';
import { cameraMovedIn, ownColourShare, TRAY_MARK_BESIDE, TRAY_MARK_OWN } from './tray-marks.js';
import { VisionError, type DiceReader, type DiceReading, type DieReading, type Point } from './types.js';
import { judgeScene } from './validity.js';
import { classifierFor, classifyFaces, confirmedCount, decideValue, readAgain, readFaces, readTurned, topFaceCentre, type FaceRead, type Reread } from './value.js';

/**
 * Left to right in columns, then top to bottom in each column: a stable order
 * for the game. A column starts at its leftmost die and takes the dice whose
 * centres are within half a die's width of it. The columns are formed first,
 * so the order is the same whatever order the dice were found in (comparing
 * two dice at a time is not: A may come before B, B before C and C before A).
 */
export function inReadingOrder<T extends { readonly center: { readonly x: number; readonly y: number }; readonly size: number }>(dice: readonly T[]): T[] {
  const byX = [...dice].sort((p, q) => p.center.x - q.center.x || p.center.y - q.center.y);
  const columns: T[][] = [];
  for (const die of byX) {
    const column = columns.at(-1);
    const first = column?.[0];
    if (column && first && die.center.x - first.center.x <= Math.max(first.size, die.size) / 2) column.push(die);
    else columns.push([die]);
  }
  return columns.flatMap((column) => column.sort((p, q) => p.center.y - q.center.y || p.center.x - q.center.x));
}

/** A die read whose box is at least this many times the size of a die read whose centre it holds takes in more than one die's face. */
export const HOLDER_RATIO = 1.5;

/**
 * Step 6: the dice read whose boxes hold the centre of another die read at
 * most 1/HOLDER_RATIO their size. Such a box takes in that die and more
 * (nell-byler IMG_20191208_111304: a box over the tray's dark corner and a
 * blue 4 beside it, read as a second 4), so what was read in it is not one
 * die's face: the reader leaves it unreadable, and the roll is refused. Dice
 * lying side by side never hold each other's centres; in a crowd, the box of a
 * die pressed among others may hold a neighbour's, but the two are near one
 * size (in-sample on nell-byler, two dice read right hold a neighbour's centre
 * at 1.24 and 1.28 times its size; the corner's box is 1.77 times the 4's).
 */
export function holdersOfSmallerDice(dice: readonly DieReading[]): Set<DieReading> {
  const read = dice.filter((die) => die.value !== null);
  return new Set(read.filter((die) => read.some((other) => other.size * HOLDER_RATIO <= die.size && contains(die.box, other.center))));
}

/** A die-finder score at which the finder is sure of a die (reader.ts drops a place it is less sure of that the classifier takes for no face). */
export const FINDER_SURE = 0.5;

/**
 * Step 7: what the learned die finder (find.ts) sees, asked of what the
 * reader found that is no die it could read. An unreadable "die" that the
 * classifier is sure is no die's face (`noFace`) is dropped unless the finder
 * is sure of a die within 0.6 of its size of its centre; an object is dropped
 * unless a die read or a die the finder is sure of has its centre in it.
 * Without it, a board's fasteners, a tray's corners and wood grain are
 * reported as unreadable dice or objects, and a good roll is refused (held
 * out on nell-byler half 1: 0 of 50 rolls whose dice lie apart judged valid,
 * 35 with it; BENCHMARKS.md).
 */
export function dropUnseen<T extends { readonly die: DieReading; readonly noFace: boolean }>(
  read: readonly T[],
  objects: readonly (readonly Point[])[],
  found: readonly DieCandidate[],
): { read: T[]; objects: (readonly Point[])[] } {
  const sure = found.filter((c) => c.score >= FINDER_SURE);
  const seenNear = (die: DieReading) => sure.some((c) => Math.hypot(c.center.x - die.center.x, c.center.y - die.center.y) <= die.size * 0.6);
  const valued = read.filter((r) => r.die.value !== null);
  return {
    read: read.filter((r) => r.die.value !== null || !r.noFace || seenNear(r.die)),
    objects: objects.filter((o) => valued.some((r) => contains(o, r.die.center)) || sure.some((c) => contains(o, c.center))),
  };
}

/** The smallest frame side the reader and calibration take: the tray floor is estimated on a copy an eighth the size, and the calibration probes the middle of a quarter-size copy over 16 pixels. */
export const MIN_FRAME_SIDE = 64;

/** Throws `vision/bad_frame` for a frame too small to be a camera's view of the tray. */
export function checkFrameSize(image: cv.Mat): void {
  if (image.cols < MIN_FRAME_SIDE || image.rows < MIN_FRAME_SIDE) {
    throw new VisionError('vision/bad_frame', `the frame is ${image.cols}x${image.rows}: too small for a camera's view of the tray (at least ${MIN_FRAME_SIDE}x${MIN_FRAME_SIDE})`);
  }
}

/** Throws `vision/bad_frame` for a frame too small, and `vision/calibration_mismatch` for one of another size than the tray was calibrated on. */
export function checkFrameFor(image: cv.Mat, cfg: VisionConfig): void {
  checkFrameSize(image);
  const calibrated = cfg.trayFrame;
  if (calibrated && (image.cols !== calibrated.width || image.rows !== calibrated.height)) {
    throw new VisionError('vision/calibration_mismatch', `the frame is ${image.cols}x${image.rows}, but the tray was calibrated on ${calibrated.width}x${calibrated.height} frames: calibrate again at this size (dice-tower calibrate), or read without the calibration`);
  }
}

/** Reads every die in a decoded BGR frame. Pure: the frame is not changed. */
export function readDiceInImage(image: cv.Mat, cfg: VisionConfig = DEFAULT_VISION_CONFIG, expectedCount?: number): DiceReading {
  const started = performance.now();
  checkFrameFor(image, cfg);
  const { blobs, objects, searchAt, typical } = findDieBlobs(image, cfg);
  const faces = readFaces(image, blobs, cfg);
  // The face patches are freed only at the end: a die the classifier reads is placed by the spots on its patch (topFaceCentre).
  try {
    const classifier = classifierFor(cfg);
    const guesses = classifier ? classifyFaces(classifier, faces, cfg) : [];
    // A die found by its pips alone is a die only when they are counted clearly and the classifier is sure of the same value. Its
    // box is turned as its layout of specks, which a pip the mask lost turns wrong: unconfirmed there, it is read again in a box
    // turned to its edges, on the same terms, and takes that box (`turned`).
    const kept: { blob: Blob; i: number; turned: Reread | null }[] = [];
    blobs.forEach((blob, i) => {
      const guess = guesses[i];
      const aFace = guess !== undefined && guess.value > 0;
      if (!blob.byPips || confirmedCount(faces[i] as FaceRead, guess, cfg)) {
        kept.push({ blob, i, turned: null });
        return;
      }
      const turned = classifier && cfg.rereadTurned && aFace ? readTurned(image, blob, classifier, cfg) : null;
      if (turned) kept.push({ blob, i, turned });
    });
    const dieAt = (value: number | null, body: Lab, center: Point, box: Blob, confidence: number): DieReading => {
      const colour = nearestColour(body, cfg.palette, cfg.colourLightnessWeight);
      return { value, colour: colour.name, lab: body, center, box: box.box, size: box.size, confidence };
    };
    const readings = kept.map(({ blob, i, turned }) => {
      const face = faces[i] as FaceRead;
      const guess = guesses[i] ?? null;
      const decided = decideValue(face, guess, cfg, !blob.seamCut);
      // Most faces left unreadable are blobs the classifier takes for no face (tray parts, shadows): not worth reading again.
      const reread = turned ?? (decided.value === null && classifier && guess !== null && guess.value > 0 ? readAgain(image, blob, blobs, classifier, cfg) : null);
      const { value, confidence } = reread ?? decided;
      // The top face's centre, not the blob's (which may include side faces).
      const centre = reread?.centre ?? (value === null ? { x: blob.rect.center.x, y: blob.rect.center.y } : patchToFrame(blob, topFaceCentre(face, value, cfg), cfg.facePatch));
      return { blob, i, die: dieAt(value, turned?.body ?? face.body, centre, turned?.box ?? blob, confidence) };
    });
    const found = classifier && searchAt.length > 0 ? searchObjects(image, searchAt, typical, readings.map((r) => r.die), classifier, cfg) : [];
    const holds = (die: DieReading, f: Reread) => die.value === null && contains(die.box, f.centre);
    // An unreadable "die" holding two or more dice the search found was a cluster of dice: they replace it, and its box is an object (they may lie on one another).
    const isCluster = (die: DieReading) => found.filter((f) => holds(die, f)).length >= 2;
    const clusters: (readonly Point[])[] = [];
    const single: typeof readings = [];
    for (const r of readings) {
      if (isCluster(r.die)) clusters.push(r.die.box);
      else single.push(r);
    }
    // A die left unreadable where the search found one was that die in a poor box: it takes the value, and keeps its box, whose shape the validity rules judge (a die seen cocked).
    const placed = single.map(({ blob, i, die }) => {
      const match = found.find((f) => holds(die, f));
      return { blob, i, die: match ? { ...die, value: match.value, center: match.centre, confidence: match.confidence } : die };
    });
    const foundAlone = found.filter((f) => !single.some((r) => holds(r.die, f))).map((f) => dieAt(f.value, f.body, f.centre, f.box, f.confidence));
    const holders = holdersOfSmallerDice([...placed.map((r) => r.die), ...foundAlone]);
    // A die on a tray mark of its own colour is in the mask only where its pips changed the mark's cells: what was read is part of its face.
    const onOwnMark = (die: DieReading) => die.lab !== undefined && cfg.trayMarks.length > 0 && ownColourShare(die.box, die.lab, typical * TRAY_MARK_BESIDE, cfg.trayMarks) > TRAY_MARK_OWN;
    const unsure = (die: DieReading): DieReading => (holders.has(die) || onOwnMark(die) ? { ...die, value: null, confidence: 0 } : die);
    // The classifier's guess is the blob's own only while the die keeps the blob's box.
    const noFace = (i: number, die: DieReading) => {
      const guess = guesses[i];
      return die.value === null && guess !== undefined && guess.value === 0 && guess.probability >= cfg.classifierNoFace;
    };
    const candidates = [
      ...placed.map(({ blob, i, die }) => ({ blob, die: unsure(die), noFace: noFace(i, die) })),
      ...foundAlone.map((die) => ({ blob: null, die: unsure(die), noFace: false })),
    ];
    const allObjects = [...objects, ...clusters];
    // The finder runs only where it may drop something: most rolls have neither.
    const ask = cfg.finderModel !== null && (allObjects.length > 0 || candidates.some((c) => c.noFace));
    const seen = ask ? dropUnseen(candidates, allObjects, findDice(image, loadDieFinder(cfg.finderModel ?? undefined), DEFAULT_FINDER_CONFIG, cfg.dieSize ?? undefined)) : { read: candidates, objects: allObjects };
    const fills = new Map(seen.read.map((r) => [r.die, r.blob?.fill ?? 1]));
    // A die found by its pips was given the frame's median size, and one the search found its window's (the median's, or 1.2 or 1.4
    // times it): their size class (a Las Vegas big die) cannot be told.
    const unsized = new Set(seen.read.filter((r) => r.blob === null || r.blob.byPips).map((r) => r.die));
    // Validity, colour confidence and size class: src/vision/validity.ts.
    const draft = { dice: inReadingOrder(seen.read.map((r) => r.die)), fills, unsized, objects: seen.objects, width: image.cols, height: image.rows };
    const judged = judgeScene(draft, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount);
    // A moved camera is looked for in a refused roll, and in one where the finder dropped what may be the tray's marks moved.
    const dropped = seen.read.length < candidates.length || seen.objects.length < allObjects.length;
    const moved = judged.valid && !dropped ? null : cameraMovedIn(image, cfg.trayMarks, cfg.trayCorners);
    const final = moved ? judgeScene({ ...draft, cameraMoved: moved }, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount) : judged;
    return { ...final, width: image.cols, height: image.rows, ms: performance.now() - started };
  } finally {
    for (const face of faces) face.inner.release();
  }
}

/**
 * Decodes an encoded image (JPEG, PNG...) into a Mat: BGR by default (a grey
 * or RGBA image too), or as `flags` asks (the settle detector's small grey copy).
 */
export function decodeFrame(bytes: Buffer, flags: number = cv.IMREAD_COLOR): cv.Mat {
  const decoded = decodeImage(bytes, flags);
  if ('problem' in decoded) throw new VisionError('vision/bad_frame', `the frame is not a readable image: ${decoded.problem}`);
  return decoded.image;
}

/**
 * The OpenCV dice reader over camera frames. Throws `VisionError` when made
 * with a bad setting (`vision/bad_config`) or without its model
 * (`vision/no_model`, `vision/bad_model`).
 */
export function createDiceReader(cfg: VisionConfig = DEFAULT_VISION_CONFIG): DiceReader {
  // A bad setting or a missing model fails here, when the reader is made, not at a game's first roll.
  checkVisionConfig(cfg);
  classifierFor(cfg);
  if (cfg.finderModel !== null) loadDieFinder(cfg.finderModel);
  return {
    async read(frame: Frame, expectedCount?: number): Promise<DiceReading> {
      const started = performance.now();
      const image = decodeFrame(frame.image);
      try {
        const reading = readDiceInImage(image, cfg, expectedCount);
        return { ...reading, ms: performance.now() - started };
      } finally {
        // Freed now, not by the garbage collector (see Scratch).
        image.release();
      }
    },
  };
}
