import type { AnyGameDef } from './index.js';

/**
 * The seat that must act now in `state`: the seat whose turn the board shows,
 * else the thrower of the roll asked for; null once the game is over.
 */
export function actingSeat(def: AnyGameDef, state: unknown): number | null {
  if (def.result(state)) return null;
  const current = def.board(def.playerView(state, null)).current;
  return current ?? def.diceRequest(state)?.player ?? null;
}

/**
 * The seat that makes `action` in `state`: the one the game names for it
 * (`GameDef.actor`), else the seat to act; null once the game is over.
 */
export function actionSeat(def: AnyGameDef, state: unknown, action: { type: string }): number | null {
  if (def.result(state)) return null;
  return def.actor?.(state, action) ?? actingSeat(def, state);
}
