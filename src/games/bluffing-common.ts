/**
 * Helpers shared by the two secret-throw bluffing games, Bluff (`bluff`) and
 * Bluffi (`bluffi`): checking a throw off the wire and masking dice a viewer
 * may not see.
 */
import { invalid } from './types.js';
import type { DiceRequest, InvalidAction } from './types.js';
import { isDieValue, show } from './dice.js';

// Re-exported: the bluffing games take them from here.
export { isDieValue, show };

/** True for a whole number in [min, max]. */
export const isIntIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * The values of a `roll` action when they fit the request, else why not.
 * `values` comes straight off the wire, so its shape is checked here.
 */
export function checkThrow(request: DiceRequest | null, values: unknown): readonly number[] | InvalidAction {
  if (request === null) return invalid('game/no_throw_now', 'No throw is expected now; make a decision instead.');
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  return values as number[];
}

/** The dice with every slot the viewer may not see replaced by null. */
export function maskDice(dice: readonly (number | null)[], visible: (slot: number) => boolean): (number | null)[] {
  return dice.map((d, slot) => (visible(slot) ? d : null));
}
