/**
 * A calibration step as `dice-tower calibrate` and the setup page make it: the
 * new measurements put on top of the calibration already in the data
 * directory, written there (`calibration.json`, and the empty-tray shot beside
 * it), with the warnings a person needs, in words.
 */
import { note, type Note } from '../note.js';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import cv from '../hardware/opencv.js';
import { decodeImage } from '../hardware/image-bytes.js';
import { calibrate, calibratedConfig, findTrayFloor, onTopOf, readCalibrationFile, withTrayRegion, writeCalibrationFile, type Calibration } from './calibrate.js';
import { DEFAULT_VISION_CONFIG, type VisionConfig } from './config.js';
import { colourDistance } from './palette.js';
import { createDiceReader, readDiceInImage } from './read-dice.js';
import type { DiceReader } from './types.js';
import type { TrayRegion } from './validity.js';
import { errorText } from '../error-text.js';

/** The empty-tray shot's file name beside the calibration. */
export const EMPTY_TRAY_FILE = 'empty-tray.png';

/** The calibration file `serve` and `read` load: `<data dir>/calibration.json`. */
export function calibrationFile(dataDir: string): string {
  return join(dataDir, 'calibration.json');
}

export interface CalibrationStep {
  readonly file: string;
  readonly calibration: Calibration;
  /** What was kept from the earlier calibration, for the person. */
  readonly kept: readonly Note[];
  /** What may make the reader miss or cut dice, and what to do: each a code the setup page words, and an English sentence. */
  readonly warnings: readonly Note[];
}

/** An image file decoded; throws naming the file and the problem. */
export function loadImage(file: string): cv.Mat {
  if (!existsSync(file)) throw new Error(`cannot read image '${file}': no such file`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new Error(`cannot read image '${file}': ${errorText(err)}`);
  }
  const decoded = decodeImage(bytes);
  if ('problem' in decoded) throw new Error(`'${file}' is not a readable image: ${decoded.problem}`);
  return decoded.image;
}

/** Writes an image file (PNG or JPEG by its name), throwing with the reason when it cannot (cv.imwrite fails silently). */
export function writeImage(file: string, image: cv.Mat): void {
  try {
    writeFileSync(file, cv.imencode(extname(file), image));
  } catch (err) {
    throw new Error(`cannot write '${file}': ${errorText(err)}`);
  }
}

/**
 * Measures the empty tray and/or each colour's dice shot on top of the
 * calibration in `dataDir`, and writes the result there. An earlier file that
 * cannot be read is replaced, with a warning saying so.
 */
export function calibrateInto(dataDir: string, empty: cv.Mat | null, shots: Readonly<Record<string, cv.Mat>>, now = new Date()): CalibrationStep {
  const file = calibrationFile(dataDir);
  const replaced: Note[] = [];
  let earlier: Calibration | null = null;
  try {
    earlier = readCalibrationFile(file);
  } catch (err) {
    replaced.push(note('calibration/replaced', `the earlier calibration is replaced, as it cannot be read: ${errorText(err)}`, { error: errorText(err) }));
  }
  const { calibration, kept } = onTopOf(earlier, calibrate(empty, shots, EMPTY_TRAY_FILE, now, earlier), empty !== null);
  mkdirSync(dataDir, { recursive: true });
  if (empty) writeImage(join(dataDir, EMPTY_TRAY_FILE), empty);
  writeCalibrationFile(file, calibration);
  return { file, calibration, kept, warnings: [...replaced, ...(empty ? [...floorBeyondWarning(empty), ...diceLeftIn(empty, calibration)] : []), ...closePairs(calibration)] };
}

/** Sets the tray region by hand on the calibration in `dataDir` (its marks measured again in its empty-tray shot), and writes it. */
export function setTrayRegion(dataDir: string, tray: TrayRegion): CalibrationStep {
  const file = calibrationFile(dataDir);
  const earlier = readCalibrationFile(file);
  if (earlier === null || earlier.emptyTray === null) throw new Error('there is no empty-tray shot to set the tray region on: empty the tray and take its shot first');
  const empty = loadImage(join(dataDir, earlier.emptyTray));
  try {
    const calibration = withTrayRegion(earlier, empty, tray);
    writeCalibrationFile(file, calibration);
    return { file, calibration, kept: [], warnings: [...diceLeftIn(empty, calibration), ...closePairs(calibration)] };
  } finally {
    empty.release();
  }
}

/** Pairs of calibrated colours so close that the reader will often not be sure between them. */
function closePairs(calibration: Calibration): Note[] {
  const names = Object.keys(calibration.palette);
  const pairs: Note[] = [];
  for (const [i, p] of names.entries()) {
    for (const q of names.slice(i + 1)) {
      const d = colourDistance(calibration.palette[p]!, calibration.palette[q]!, DEFAULT_VISION_CONFIG.colourLightnessWeight);
      const distance = d.toFixed(1);
      if (d < 12) pairs.push(note('calibration/close_colours', `${p} and ${q} (distance ${distance}) are close; light the tray evenly or use dice of clearer colours`, { first: p, second: q, distance }));
    }
  }
  return pairs;
}

/** Floor beyond the tray region, pixels, from which a die lying against the rim there may be cut short (the region's own inset is 4-8). */
const FLOOR_BEYOND_WARNED = 8;

/** A warning when the floor reaches well beyond the region on some side (round corners; a turned tray not wholly in view): dice against the rim there are re-rolled. */
function floorBeyondWarning(empty: cv.Mat): Note[] {
  const { region, beyond, inView } = findTrayFloor(empty);
  if (!region) return [];
  const sides = (['left', 'top', 'right', 'bottom'] as const).filter((side) => beyond[side] >= FLOOR_BEYOND_WARNED);
  if (sides.length === 0) return [];
  const most = Math.max(...sides.map((side) => beyond[side]));
  const named = sides.length === 1 ? sides[0] : `${sides.slice(0, -1).join(', ')} and ${sides[sides.length - 1]}`;
  // A tray wholly in view has its region turned with it (calibrate.ts): only round corners leave floor beyond it.
  const why = inView ? 'its corners are round' : 'the tray is not wholly in view, and turned against the camera or its corners are round';
  const remedy = inView ? '' : '; bring the whole tray into view (or turn the camera square to it) and calibrate again';
  const message = `the tray floor reaches up to ${most} px beyond the region the reader looks in, on the ${named} side${sides.length > 1 ? 's' : ''} (${why}): a die lying against the rim there may be cut short and re-rolled${remedy}`;
  return [note(inView ? 'calibration/floor_beyond_round' : 'calibration/floor_beyond_out_of_view', message, { px: most, sides: sides.map((side) => ({ key: `setup.sides.${side}` })) })];
}

/** Dice read, with their values, in the empty-tray shot (the calibration's tray applied, not its marks): dice left in the tray, most likely. */
function diceLeftIn(empty: cv.Mat, calibration: Calibration): Note[] {
  return readDiceInImage(empty, { ...calibratedConfig(calibration), trayMarks: [] })
    .dice.filter((d) => d.value !== null)
    .map((die) => {
      const [value, x, y] = [die.value as number, Math.round(die.center.x), Math.round(die.center.y)];
      return note('calibration/die_left', `the empty tray shows a ${value} at (${x}, ${y}); if a die was left there, take it out and calibrate again (dice lying there would be missed)`, { value, x, y });
    });
}

/**
 * A reader that follows the calibration file: written again (by the setup
 * page, or `dice-tower calibrate` while the server runs), it is loaded before
 * the next read. `configFor` makes the reader's config from the calibration
 * (null: none). A file that cannot be read fails the read, naming it.
 */
export function calibratedReader(dataDir: string, configFor: (calibration: Calibration | null) => VisionConfig): DiceReader & { readonly calibration: () => Calibration | null } {
  const file = calibrationFile(dataDir);
  const stamp = () => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? null;
  let loadedAt = stamp();
  let calibration = readCalibrationFile(file);
  let reader = createDiceReader(configFor(calibration));
  return {
    calibration: () => calibration,
    async read(frame, expectedCount) {
      const now = stamp();
      if (now !== loadedAt) {
        const next = readCalibrationFile(file);
        reader = createDiceReader(configFor(next));
        [calibration, loadedAt] = [next, now];
      }
      return reader.read(frame, expectedCount);
    },
  };
}
