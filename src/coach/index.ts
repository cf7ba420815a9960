/**
 * The coach: exact solvers of the games where optimal play is affordable,
 * each a pure module (contract in types.ts), and what is built on them:
 * hints, post-game analysis and the strong bot level.
 */
import type { GameCoach } from './types.js';
import { yatzyCoach } from './yatzy.js';
import { dicePokerCoach } from './dice-poker.js';
import { cameroonCoach } from './cameroon.js';
import { shutTheBoxCoach } from './shut-the-box.js';
import { mexicoCoach } from './mexico.js';
import { bustedCoach } from './busted.js';
import { tenThousandCoach } from './ten-thousand.js';

export * from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCoach = GameCoach<any, { type: string }, any>;

/** Every coach by the id of its game. */
export const COACHES: Readonly<Record<string, AnyCoach>> = {
  yatzy: yatzyCoach,
  'dice-poker': dicePokerCoach,
  cameroon: cameroonCoach,
  'shut-the-box': shutTheBoxCoach,
  mexico: mexicoCoach,
  busted: bustedCoach,
  'ten-thousand': tenThousandCoach,
} as Record<string, AnyCoach>;

/** The coach of a game, or null when it has none. */
export function findCoach(game: string): AnyCoach | null {
  return Object.prototype.hasOwnProperty.call(COACHES, game) ? (COACHES[game] as AnyCoach) : null;
}
