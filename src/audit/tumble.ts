/**
 * The no-roll check: a throw whose dice lie where the previous frame had them,
 * showing the same faces, did not tumble (a stuck tray, dice caught in the
 * tower, a camera showing an old picture). Pure, over two readings' centres
 * and values.
 */

export interface SeenDie {
  readonly value: number | null;
  readonly center: { readonly x: number; readonly y: number };
}

export interface SeenFrame {
  readonly width: number;
  readonly dice: readonly SeenDie[];
}

/** How near (fraction of the frame width) a die must lie to its place in the previous frame to count as not moved. */
export const SAME_PLACE = 0.015;

/**
 * True when `next` shows the same dice in the same places as `previous`:
 * as many dice, each matched to a distinct die of `previous` with the same
 * value whose centre is within SAME_PLACE × width. No dice at all is never a
 * "same throw" (there is nothing to compare).
 */
export function didNotTumble(previous: SeenFrame | null, next: SeenFrame, samePlace = SAME_PLACE): boolean {
  if (!previous || next.dice.length === 0 || previous.dice.length !== next.dice.length) return false;
  const limit = samePlace * Math.max(next.width, previous.width);
  const used = new Set<number>();
  for (const die of next.dice) {
    const match = previous.dice.findIndex(
      (old, i) => !used.has(i) && old.value === die.value && Math.hypot(old.center.x - die.center.x, old.center.y - die.center.y) <= limit,
    );
    if (match < 0) return false;
    used.add(match);
  }
  return true;
}

/** What the scoreboard says when a throw is refused by the check. */
export const NO_TUMBLE_PROBLEM = 'The dice did not tumble (same dice in the same places as the last frame)';
