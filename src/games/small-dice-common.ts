/**
 * Helpers shared by the small dice games (Big Six, Bouncer, Mexico, Busted,
 * Aces in the Pot): checking a throw off the wire, walking the seats
 * clockwise, ranking seats by a count.
 */
import { invalid } from './types.js';
import type { DiceRequest, InvalidAction } from './types.js';
import { isDieValue, show } from './dice.js';

// Re-exported: the small-dice games take them from here.
export { isDieValue, show };

/**
 * The values of a `roll` action when they fit the request, else why not.
 * `request` null means the game is waiting for a decision, not a throw.
 */
export function checkThrow(request: DiceRequest | null, values: unknown): number[] | InvalidAction {
  if (request === null) return invalid('game/no_throw_now', 'No throw is expected now; choose one of the open actions.');
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? `${values.length} values` : 'no list of values';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice value${request.count === 1 ? '' : 's'}; got ${got}.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  return values as number[];
}

/** The action's `type`, read safely from anything off the wire. */
export const actionType = (action: unknown): unknown => (typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined);

/** The refusal for any action once the game is over. */
export const gameOver = (): InvalidAction => invalid('game/over', 'The game is over; no more actions are accepted.');

/** The refusal for an action the game does not know. */
export const unknownAction = (game: string, type: unknown, known: string): InvalidAction =>
  invalid('game/unknown_action', `${game} has no action ${show(type)}; use ${known}.`);

/**
 * The first seat clockwise after `from` (or `from` itself when `includeFrom`)
 * for which `inGame` holds, or null when there is none.
 */
export function nextSeat(from: number, count: number, inGame: (seat: number) => boolean, includeFrom = false): number | null {
  for (let k = includeFrom ? 0 : 1; k <= count; k++) {
    const seat = (from + k) % count;
    if (inGame(seat)) return seat;
  }
  return null;
}

/** Seats holding the largest value. */
export function seatsWithMax(values: readonly number[]): number[] {
  const best = Math.max(...values);
  return values.flatMap((v, i) => (v === best ? [i] : []));
}

/** A die for a caption: its value, or '-' before it is thrown. */
export const dieText = (v: number | null): string => (v === null ? '-' : String(v));
