/**
 * Post-game analysis: walks a game's log from its setup and, at every
 * decision a player committed, sets the value of what they chose against the
 * best value the coach knows. Pure.
 */
import { actingSeat, isInvalid, type AnyGameDef } from '../games/index.js';
import type { AnyPolicy } from './library.js';
import type { CoachMeasure } from './types.js';

export interface ReviewedDecision {
  /** Index of the committing action in the game's log. */
  readonly step: number;
  readonly seat: number;
  readonly chosen: { readonly key: string; readonly label: string; readonly value: number };
  readonly best: { readonly key: string; readonly label: string; readonly value: number };
  /** Best value − chosen value, ≥ 0 (the measure's units: points, or probability). */
  readonly loss: number;
}

export interface PlayerReview {
  readonly seat: number;
  readonly name: string;
  readonly decisions: number;
  readonly totalLoss: number;
  /** Mean loss per decision (Verhoeff's proficiency measure; below 0.2 points is expert Yahtzee play). */
  readonly meanLoss: number;
}

export interface GameAnalysis {
  readonly measure: CoachMeasure;
  readonly players: readonly PlayerReview[];
  /** Every reviewed decision, costliest first (ties in log order). */
  readonly decisions: readonly ReviewedDecision[];
  /** Decisions the coach could not review (a position outside its solve), with why: counted, not guessed. */
  readonly skipped: ReadonlyArray<{ readonly step: number; readonly reason: string }>;
}

export function analyseGame(def: AnyGameDef, policy: AnyPolicy, players: readonly string[], options: Readonly<Record<string, unknown>>, actions: ReadonlyArray<{ readonly type: string }>): GameAnalysis {
  const reviewed: ReviewedDecision[] = [];
  const skipped: Array<{ step: number; reason: string }> = [];
  let state: unknown = def.setup(players, options);
  actions.forEach((action, step) => {
    if (state === null) return;
    const key = policy.committed(state, action);
    const outsideNow = key === null ? policy.outside(state) : null;
    // Outside the solve the coach names no decision; a choice made there (anything but a hold, or a throw when
    // something else was open) is counted as skipped, so a game the coach could not follow never reads as flawless.
    if (outsideNow && action.type !== 'hold' && action.type !== 'release' && (action.type !== 'roll' || def.legalActions(state).length > 0)) {
      skipped.push({ step, reason: outsideNow });
    }
    if (key !== null) {
      const outside = policy.outside(state);
      const ranked = outside ? [] : policy.decisions(state);
      const chosen = ranked.find((d) => d.key === key);
      const best = ranked[0];
      const seat = actingSeat(def, state);
      if (outside) skipped.push({ step, reason: outside });
      else if (!chosen || !best || seat === null) skipped.push({ step, reason: `the coach does not know the decision '${key}' here` });
      else {
        reviewed.push({
          step,
          seat,
          chosen: { key: chosen.key, label: chosen.label, value: chosen.value },
          best: { key: best.key, label: best.label, value: best.value },
          loss: chosen.loss,
        });
      }
    }
    const next = def.apply(state, action);
    // The table only records applied actions; a refusal here means a log the rules no longer accept: stop reviewing.
    if (isInvalid(next)) {
      skipped.push({ step, reason: `the rules refuse this step now: ${next.message}` });
      state = null;
    } else state = next;
  });
  const review = players.map((name, seat) => {
    const own = reviewed.filter((d) => d.seat === seat);
    const totalLoss = own.reduce((sum, d) => sum + d.loss, 0);
    return { seat, name, decisions: own.length, totalLoss, meanLoss: own.length === 0 ? 0 : totalLoss / own.length };
  });
  const decisions = reviewed.map((d, i) => ({ d, i })).sort((a, b) => b.d.loss - a.d.loss || a.i - b.i).map(({ d }) => d);
  return { measure: policy.measure, players: review, decisions, skipped };
}
