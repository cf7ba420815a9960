/**
 * Small helpers shared by the `three-dice` batch (Shut the Box, 421,
 * Martinetti, Slam): checking a roll off the wire, sums, picking at random.
 */
import { invalid } from './types.js';
import type { DiceRequest, InvalidAction } from './types.js';
import { isDieValue, show, sum } from './dice.js';

// Re-exported: the three-dice games take them from here.
export { isDieValue, show, sum };

/**
 * The dice values of a `roll` action checked against the request the game
 * makes now, or why they are refused.
 */
export function readRoll(values: unknown, request: DiceRequest | null, why: string): number[] | InvalidAction {
  if (request === null) return invalid('game/no_roll_expected', why);
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    const slots = request.slots.join(', ');
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice ${request.count === 1 ? 'value' : 'values'} (slot${request.count === 1 ? '' : 's'} ${slots}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  return values as number[];
}

/** Seats whose score equals the best (lowest when `low`) score. */
export function bestSeats(scores: readonly number[], low: boolean): number[] {
  const best = low ? Math.min(...scores) : Math.max(...scores);
  return scores.flatMap((s, i) => (s === best ? [i] : []));
}

/** One element of a non-empty list, drawn with the bot's random(). */
export function pick<T>(xs: readonly T[], random: () => number): T {
  const x = xs[Math.min(xs.length - 1, Math.floor(random() * xs.length))];
  if (x === undefined) throw new RangeError('pick() needs a non-empty list');
  return x;
}
