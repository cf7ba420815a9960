import type { AnyGameDef } from '../games/index.js';
import type { AnyPolicy } from './library.js';

/**
 * The strong bot's move: the first step of the coach's best decision (null:
 * throw the dice), or a reason when the coach cannot judge the position and
 * the game's own bot must move instead.
 */
export function strongMove(def: AnyGameDef, policy: AnyPolicy, state: unknown): { type: string } | null | { readonly outside: string } {
  const outside = policy.outside(state);
  if (outside) return { outside };
  const best = policy.decisions(state)[0];
  if (!best) return def.diceRequest(state) ? null : { outside: 'the coach offers no decision here' };
  return best.actions[0] ?? null;
}
