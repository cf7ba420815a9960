/**
 * Helpers shared by the push-your-luck games (10 000, Drop Dead, Sevens):
 * checking a thrown roll against the request, counting faces, ranking totals.
 * Pure functions over plain data.
 */
import { invalid } from './types.js';
import type { DiceRequest, InvalidAction } from './types.js';
import { isDieValue, show, sum, faceCounts } from './dice.js';

// Re-exported: the push-luck games take them from here.
export { isDieValue, show, sum, faceCounts };

/**
 * The values of a `roll` action when they fit the request, else the refusal:
 * exactly `request.count` whole numbers 1..6 (they come straight off the wire).
 */
export function checkRoll(request: DiceRequest, values: unknown): number[] | InvalidAction {
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  return values as number[];
}

/** Writes thrown values into their slots. */
export function fillSlots<T>(dice: readonly (T | null)[], slots: readonly number[], values: readonly T[]): (T | null)[] {
  const out = [...dice];
  slots.forEach((slot, i) => {
    out[slot] = values[i] ?? null;
  });
  return out;
}

/**
 * Die indices named by an action, checked: a non-empty list of distinct
 * whole numbers below `count`. Returns the refusal otherwise.
 */
export function checkIndices(indices: unknown, count: number, verb: string): number[] | InvalidAction {
  if (!Array.isArray(indices) || indices.length === 0) return invalid('game/bad_die_index', `Name the dice to ${verb} by index 0 to ${count - 1}.`);
  const bad = indices.find((i) => typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= count);
  if (bad !== undefined) return invalid('game/bad_die_index', `Dice are numbered 0 to ${count - 1}; cannot ${verb} ${show(bad)}.`);
  if (new Set(indices).size !== indices.length) return invalid('game/bad_die_index', `Each die may be named only once; got [${indices.join(', ')}].`);
  return [...(indices as number[])].sort((a, b) => a - b);
}

/** Seats holding the highest score (a shared win on a tie). */
export function highest(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  return scores.flatMap((s, i) => (s === best ? [i] : []));
}

/** A game's refusal of anything once it is over. */
export const gameOver = (): InvalidAction => invalid('game/over', 'The game is over; no more actions are accepted.');
