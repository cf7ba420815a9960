/** Moves for the Las Vegas tests: apply one that must be legal, or one that must be refused. */
import { isInvalid, type InvalidAction } from '../../src/games/types.js';
import { lasVegas, type LasVegasAction, type LasVegasState } from '../../src/games/las-vegas.js';

export function step(state: LasVegasState, action: LasVegasAction): LasVegasState {
  const next = lasVegas.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

export function refuse(state: LasVegasState, action: unknown): InvalidAction {
  const next = lasVegas.apply(state, action as LasVegasAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

export const roll = (...values: number[]): LasVegasAction => ({ type: 'roll', values });
