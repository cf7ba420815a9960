/**
 * The tray's servo angles set on the setup page, kept in the data directory
 * (`tray.json`) so that `serve` alone uses them at the next start; its
 * `--tower-tip` and `--tower-rest` options still override them.
 */
import { join } from 'node:path';
import { inRange, readSavedChoice, writeSavedChoice } from './camera-choice.js';

export const TRAY_FILE = 'tray.json';
export const DEFAULT_ANGLES: TrayAngles = { tipAngle: 150, restAngle: 30 };
const ANGLE = { min: 0, max: 180 } as const;

export interface TrayAngles {
  /** Degrees of the tray's servo when it tips the dice out, and at rest. */
  readonly tipAngle: number;
  readonly restAngle: number;
}

/** What is wrong with a pair of angles, or null. */
export function trayAnglesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
  const a = value as Partial<TrayAngles>;
  for (const key of ['tipAngle', 'restAngle'] as const) {
    if (a[key] === null || !inRange(a[key], ANGLE)) return `${key} ${String(a[key])} is not a whole number of degrees from ${ANGLE.min} to ${ANGLE.max}`;
  }
  if (a.tipAngle === a.restAngle) return `the tip and rest angles are both ${String(a.tipAngle)}°: the tray would never move`;
  return null;
}

export function readTrayAngles(dataDir: string): TrayAngles | null {
  const parsed = readSavedChoice(join(dataDir, TRAY_FILE), 'a pair of tray angles', trayAnglesProblem, 'set the angles again on /setup.html');
  if (parsed === null) return null;
  const { tipAngle, restAngle } = parsed as TrayAngles;
  return { tipAngle, restAngle };
}

export function writeTrayAngles(dataDir: string, angles: TrayAngles): void {
  writeSavedChoice(join(dataDir, TRAY_FILE), { tipAngle: angles.tipAngle, restAngle: angles.restAngle });
}

/** The angles `serve` drives the tray with: each option given, else the saved one, else the default. */
export function anglesToUse(flags: { readonly towerTip?: number | undefined; readonly towerRest?: number | undefined }, saved: TrayAngles | null): TrayAngles {
  return { tipAngle: flags.towerTip ?? saved?.tipAngle ?? DEFAULT_ANGLES.tipAngle, restAngle: flags.towerRest ?? saved?.restAngle ?? DEFAULT_ANGLES.restAngle };
}
