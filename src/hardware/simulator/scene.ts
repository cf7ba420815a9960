import type { DieColour } from '../types.js';
import type { SeededRandom } from '../random.js';

/** The simulator's truth about one die lying in the tray. Only the simulator and its tests see it. */
export interface SimDie {
  readonly value: number;
  readonly colour: DieColour;
  /** Centre in frame pixels. */
  readonly x: number;
  readonly y: number;
  /** Edge length of the die's top face in pixels. */
  readonly size: number;
  /** Rotation of the die about the camera axis, degrees. */
  readonly angle: number;
}

/** What the camera sees: the tray floor filling the frame. */
export interface TrayGeometry {
  readonly width: number;
  readonly height: number;
  /** Edge of a normal die's top face in pixels (16 mm dice seen at ~4 px/mm). */
  readonly dieSize: number;
}

export const DEFAULT_TRAY: TrayGeometry = { width: 1280, height: 720, dieSize: 64 };

/** Free space kept between two dice, as a share of the die size, so no two touch. */
const MIN_GAP = 0.35;
const MAX_PLACEMENT_TRIES = 5000;

/**
 * Throws `count` dice into the tray: a fair value for each, and a random
 * position and rotation such that no two dice overlap or touch and every die
 * lies wholly inside the frame.
 */
export function throwDice(
  rng: SeededRandom,
  count: number,
  colours: readonly DieColour[],
  tray: TrayGeometry = DEFAULT_TRAY,
): SimDie[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`cannot throw ${count} dice: need a whole number of at least 1`);
  if (colours.length === 0) throw new RangeError('no die colours to throw');
  const size = tray.dieSize;
  // A die's footprint is at most its diagonal, whatever its rotation.
  const reach = (size * Math.SQRT2) / 2;
  const minDistance = 2 * reach + MIN_GAP * size;
  const margin = reach + 4;
  const dice: SimDie[] = [];
  for (let tries = 0; dice.length < count; tries++) {
    if (tries > MAX_PLACEMENT_TRIES) throw new RangeError(`${count} dice of ${size} px do not fit in a ${tray.width}x${tray.height} tray`);
    const x = rng.range(margin, tray.width - margin);
    const y = rng.range(margin, tray.height - margin);
    if (dice.some((d) => Math.hypot(d.x - x, d.y - y) < minDistance)) continue;
    dice.push({
      value: rng.int(1, 6),
      colour: colours[dice.length % colours.length] as DieColour,
      x,
      y,
      size,
      angle: rng.range(0, 90),
    });
  }
  return dice;
}
