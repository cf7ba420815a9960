/** Public surface of the rules engine: the game contract and every game. */
export * from './types.js';
export * from './dice-poker.js';

import type { GameDef } from './types.js';
import { dicePoker } from './dice-poker.js';

/** Any game, with its own state/action/options types erased for lookup. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGameDef = GameDef<any, { type: string }, any>;

/** Every game by id. */
export const GAMES = {
  'dice-poker': dicePoker,
} as const satisfies Record<string, AnyGameDef>;

export type GameId = keyof typeof GAMES;

/** The game with this id, or null when there is none. */
export function findGame(id: string): AnyGameDef | null {
  return Object.prototype.hasOwnProperty.call(GAMES, id) ? GAMES[id as GameId] : null;
}
