/** Helpers every coach shares: options compared with the solved ones, and decisions ranked. */
import type { RankedDecision } from './types.js';

/** Why a state played under other options than the solved ones cannot be coached (naming them), or null. */
export function otherOptions<O extends object>(solved: O, played: O, keys: readonly (keyof O)[]): string | null {
  const differ = keys.filter((k) => solved[k] !== played[k]);
  return differ.length === 0 ? null : `The coach solved other options (${differ.map(String).join(', ')}).`;
}

/** The options among `keys`, in that order: what a coach's tables depend on (its `tableKey`). */
export const pickOptions = <O extends object>(options: O, keys: readonly (keyof O)[]): unknown[] => keys.map((k) => options[k]);

/**
 * Decisions best first, each with its loss against the best: `higher` when a
 * bigger value is better (scores, chances), `lower` for penalties.
 */
export function rankDecisions<A>(list: ReadonlyArray<Omit<RankedDecision<A>, 'loss'>>, better: 'higher' | 'lower' = 'higher'): RankedDecision<A>[] {
  const sign = better === 'higher' ? 1 : -1;
  const sorted = [...list].sort((a, b) => sign * (b.value - a.value));
  const best = sorted[0]?.value ?? 0;
  return sorted.map((d) => ({ ...d, loss: Math.max(0, sign * (best - d.value)) }));
}
