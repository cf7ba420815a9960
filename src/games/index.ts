/** Public surface of the rules engine: the game contract and every game. */
export * from './types.js';
export * from './dice-poker.js';
export { RESERVED_GAMES, findReserved, type ReservedGame } from './reserved.js';
export { actingSeat, actionSeat, actionSeats } from './acting-seat.js';

import type { GameDef } from './types.js';
import { dicePoker } from './dice-poker.js';
import { yatzy } from './yatzy.js';
import { maxiYatzy } from './maxi-yatzy.js';
import { cameroon } from './cameroon.js';
import { pokerDice } from './poker-dice.js';
import { bigSix } from './big-six.js';
import { bouncer } from './bouncer.js';
import { mexico } from './mexico.js';
import { busted } from './busted.js';
import { acesInThePot } from './aces-in-the-pot.js';
import { tenThousand } from './ten-thousand.js';
import { dropDead } from './drop-dead.js';
import { sevens } from './sevens.js';
import { bluff } from './bluff.js';
import { bluffi } from './bluffi.js';
import { shutTheBox } from './shut-the-box.js';
import { fourTwoOne } from './four-two-one.js';
import { martinetti } from './martinetti.js';
import { slam } from './slam.js';
import { lasVegas } from './las-vegas.js';
import { justRoll } from './just-roll.js';

export { yatzy, maxiYatzy, cameroon, pokerDice, bigSix, bouncer, mexico, busted, acesInThePot, tenThousand, dropDead, sevens, bluff, bluffi };
export { shutTheBox, fourTwoOne, martinetti, slam, lasVegas, justRoll };

/** Any game, with its own state/action/options types erased for lookup. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGameDef = GameDef<any, { type: string }, any>;

/** Every game by id, in the order the catalog lists them. */
export const GAMES = {
  'dice-poker': dicePoker,
  yatzy,
  'maxi-yatzy': maxiYatzy,
  cameroon,
  'poker-dice': pokerDice,
  'big-six': bigSix,
  bouncer,
  mexico,
  busted,
  'aces-in-the-pot': acesInThePot,
  'shut-the-box': shutTheBox,
  'four-two-one': fourTwoOne,
  martinetti,
  slam,
  'drop-dead': dropDead,
  sevens,
  'ten-thousand': tenThousand,
  bluff,
  bluffi,
  'las-vegas': lasVegas,
  // Free rolls for any other game: last, after the games with rules.
  'just-roll': justRoll,
} as const satisfies Record<string, AnyGameDef>;

export type GameId = keyof typeof GAMES;

/** The game with this id, or null when there is none. */
export function findGame(id: string): AnyGameDef | null {
  return Object.prototype.hasOwnProperty.call(GAMES, id) ? GAMES[id as GameId] : null;
}
