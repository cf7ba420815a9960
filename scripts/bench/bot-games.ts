/** One whole game played by the game's own bot with seeded dice: the unit of the rules benchmarks. */
import { isInvalid, type AnyGameDef } from '../../src/games/index.js';
import type { SeededRandom } from '../../src/hardware/index.js';

/**
 * What a seat does in `state`: an action, null to throw the dice, or
 * undefined to leave it to the game's own bot.
 */
export type Chooser = (state: unknown) => { type: string } | null | undefined;

/** Plays one game to its end and returns how many steps (rolls and decisions) it took, and the final state. */
export function playOne(def: AnyGameDef, players: readonly string[], rng: SeededRandom, options: Record<string, unknown> = {}, choose?: Chooser): number {
  return playGame(def, players, rng, options, choose).steps;
}

export function playGame(def: AnyGameDef, players: readonly string[], rng: SeededRandom, options: Record<string, unknown> = {}, choose?: Chooser): { steps: number; state: unknown } {
  let state = def.setup(players, options);
  let steps = 0;
  while (!def.result(state)) {
    const chosen = choose?.(state);
    const choice = chosen === undefined ? def.bot(state, () => rng.next()) : chosen;
    const request = def.diceRequest(state);
    const action = choice ?? { type: 'roll', values: Array.from({ length: request?.count ?? 0 }, () => rng.int(1, 6)) };
    const next = def.apply(state, action);
    if (isInvalid(next)) throw new Error(`${def.id}: ${next.message}`);
    state = next;
    steps++;
  }
  return { steps, state };
}
