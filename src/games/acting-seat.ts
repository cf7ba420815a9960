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
 * (`GameDef.actor`), else the seat to act; null once the game is over or when
 * only the operator makes it (`GameDef.operatorActions`).
 */
export function actionSeat(def: AnyGameDef, state: unknown, action: { type: string }): number | null {
  return actionSeats(def, state, [action])[0] ?? null;
}

/** `actionSeat` for each of `actions`, the seat to act worked out once (a board is not cheap to draw). */
export function actionSeats(def: AnyGameDef, state: unknown, actions: readonly { type: string }[]): (number | null)[] {
  if (def.result(state)) return actions.map(() => null);
  let toAct: number | null | undefined;
  return actions.map((action) => {
    if (def.operatorActions?.includes(action.type)) return null;
    const named = def.actor?.(state, action) ?? null;
    if (named !== null) return named;
    if (toAct === undefined) toAct = actingSeat(def, state);
    return toAct;
  });
}
