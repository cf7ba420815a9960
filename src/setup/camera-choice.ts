/**
 * The camera chosen on the setup page and its fixed settings, kept in the data
 * directory (`camera.json`) so that `serve` alone uses them at the next start;
 * its command-line options still override them.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorText } from '../error-text.js';

export const CAMERA_FILE = 'camera.json';

/** The ranges `--exposure` and `--white-balance` take (cli-options.ts). */
export const EXPOSURE_RANGE = { min: 1, max: 100_000 } as const;
export const WHITE_BALANCE_RANGE = { min: 1000, max: 15_000 } as const;

export interface CameraChoice {
  /** As `--camera` takes it: sim, 0, /dev/video0, a video file... */
  readonly source: string;
  /** Fixed exposure (V4L2: 100 µs steps), or null for automatic. */
  readonly exposure: number | null;
  /** Fixed white balance in kelvin, or null for automatic. */
  readonly whiteBalance: number | null;
}

export const inRange = (v: unknown, range: { min: number; max: number }) => v === null || (Number.isInteger(v) && (v as number) >= range.min && (v as number) <= range.max);

/** What is wrong with a camera choice, or null. */
export function cameraChoiceProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
  const c = value as Partial<CameraChoice>;
  if (typeof c.source !== 'string' || c.source.length === 0) return 'no camera source';
  if (!inRange(c.exposure, EXPOSURE_RANGE)) return `exposure ${String(c.exposure)} is not null nor a whole number from ${EXPOSURE_RANGE.min} to ${EXPOSURE_RANGE.max}`;
  if (!inRange(c.whiteBalance, WHITE_BALANCE_RANGE)) return `white balance ${String(c.whiteBalance)} is not null nor a whole number from ${WHITE_BALANCE_RANGE.min} to ${WHITE_BALANCE_RANGE.max}`;
  return null;
}

/** The saved choice; null when none was saved. Throws, naming the file and the problem, when it is not one. */
export function readCameraChoice(dataDir: string): CameraChoice | null {
  const parsed = readSavedChoice(join(dataDir, CAMERA_FILE), 'a camera choice', cameraChoiceProblem, 'choose the camera again on /setup.html');
  if (parsed === null) return null;
  const { source, exposure, whiteBalance } = parsed as CameraChoice;
  return { source, exposure, whiteBalance };
}

/** Writes the choice atomically (a half-written file is never read). */
export function writeCameraChoice(dataDir: string, choice: CameraChoice): void {
  writeSavedChoice(join(dataDir, CAMERA_FILE), choice);
}

/** A choice kept as JSON: null when there is none; throws, naming the file, what it should be, its problem and `remedy`, when it is not one. */
export function readSavedChoice(file: string, what: string, problemOf: (value: unknown) => string | null, remedy: string): unknown {
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${errorText(err)}): ${remedy}, or remove the file`);
  }
  const problem = problemOf(parsed);
  if (problem) throw new Error(`${file} is not ${what} (${problem}): ${remedy}, or remove the file`);
  return parsed;
}

/** Writes a choice as JSON atomically (a half-written file is never read). */
export function writeSavedChoice(file: string, choice: object): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(choice, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * The camera `serve` opens: the `--camera` option, else the saved choice, else
 * the simulator; the fixed settings from the options, else the saved ones when
 * the saved camera is the one opened.
 */
export function cameraToUse(flags: { readonly camera?: string | undefined; readonly exposure?: number | null | undefined; readonly whiteBalance?: number | null | undefined }, saved: CameraChoice | null): CameraChoice {
  const source = flags.camera ?? saved?.source ?? 'sim';
  const same = saved !== null && saved.source === source;
  return { source, exposure: flags.exposure ?? (same ? saved.exposure : null), whiteBalance: flags.whiteBalance ?? (same ? saved.whiteBalance : null) };
}
