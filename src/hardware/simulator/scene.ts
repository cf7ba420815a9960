import { DIE_COLOURS, type DieColour, type DieSize, type HopperDie } from '../types.js';
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
  /** Big dice (Las Vegas) are drawn `BIG_DIE_SCALE` times larger. Absent: normal. */
  readonly sizeClass?: DieSize;
  /**
   * Invalid scenes only: how far the die is tipped off the floor (cocked
   * against the wall or another die), degrees; the top face is foreshortened
   * and the side face showing `sideValue` is seen. Absent or 0: lying flat.
   */
  readonly tilt?: number;
  readonly sideValue?: number;
}

/** Edge of a big die against a normal one (Las Vegas big dice are about 22 mm against 16 mm). */
export const BIG_DIE_SCALE = 1.4;

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
  const hopper = Array.from({ length: count }, (_, i) => ({ colour: colours[i % colours.length] as DieColour, size: 'normal' as const }));
  return placeDice(rng, hopper, tray);
}

/**
 * Throws exactly the dice of the hopper (colour and size of each), placed as
 * `throwDice` places them. Refuses colours the simulator cannot draw.
 */
export function throwHopper(rng: SeededRandom, hopper: readonly HopperDie[], tray: TrayGeometry = DEFAULT_TRAY): SimDie[] {
  if (hopper.length === 0) throw new RangeError('cannot throw an empty hopper: need at least 1 die');
  for (const d of hopper) {
    if (!(DIE_COLOURS as readonly string[]).includes(d.colour)) throw new RangeError(`the simulator has no ${d.colour} dice: choose from ${DIE_COLOURS.join(', ')}`);
    if (d.size !== 'normal' && d.size !== 'big') throw new RangeError(`unknown die size '${String(d.size)}': normal or big`);
  }
  return placeDice(rng, hopper as readonly { colour: DieColour; size: DieSize }[], tray);
}

/** Places the dice one by one where they touch neither another die nor the frame's edge. */
function placeDice(rng: SeededRandom, hopper: readonly { colour: DieColour; size: DieSize }[], tray: TrayGeometry): SimDie[] {
  const dice: SimDie[] = [];
  const largest = Math.max(...hopper.map((h) => edge(h.size, tray)));
  for (let tries = 0; dice.length < hopper.length; tries++) {
    if (tries > MAX_PLACEMENT_TRIES) throw new RangeError(`${hopper.length} dice of ${largest} px do not fit in a ${tray.width}x${tray.height} tray`);
    const next = hopper[dice.length] as { colour: DieColour; size: DieSize };
    const size = edge(next.size, tray);
    // A die's footprint is at most its diagonal, whatever its rotation.
    const reach = (size * Math.SQRT2) / 2;
    const margin = reach + 4;
    const x = rng.range(margin, tray.width - margin);
    const y = rng.range(margin, tray.height - margin);
    if (dice.some((d) => Math.hypot(d.x - x, d.y - y) < reach + (d.size * Math.SQRT2) / 2 + MIN_GAP * Math.max(size, d.size))) continue;
    dice.push({
      value: rng.int(1, 6),
      colour: next.colour,
      x,
      y,
      size,
      angle: rng.range(0, 90),
      ...(next.size === 'big' ? { sizeClass: 'big' as const } : {}),
    });
  }
  return dice;
}

function edge(size: DieSize, tray: TrayGeometry): number {
  return size === 'big' ? Math.round(tray.dieSize * BIG_DIE_SCALE) : tray.dieSize;
}
