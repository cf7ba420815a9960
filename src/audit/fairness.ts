/**
 * Are the dice fair? Face counts per die (by the colour the camera read, as
 * that is the only identity a die has) and over all dice, each with Pearson's
 * chi-square goodness-of-fit test against a fair six-sided die. Pure: it takes
 * the rolls, the caller chooses which.
 */
import { chiSquarePValue } from './chi-square.js';

export const FACES = 6;
/**
 * Rolls of a die before its test is judged: 60 gives 10 expected per face, twice
 * the usual minimum of 5 for the chi-square approximation, and enough power to
 * see a strongly loaded die. Below it the panel shows counts and says how many
 * more rolls it needs.
 */
export const MIN_ROLLS = 60;
/** A die is called biased when its p-value falls below this (1 in 100 for a fair die). */
export const ALPHA = 0.01;

/** One die in one roll: its value (after corrections) and where it came from. */
export interface DieOutcome {
  readonly value: number;
  /** The die's identity: the colour the camera read, or a fixed key for typed-in dice. */
  readonly key: string;
}

export interface FaceStats {
  readonly key: string;
  /** How many times a die of this key landed. */
  readonly rolls: number;
  /** counts[f - 1] = how often face f came up. */
  readonly counts: readonly number[];
  /** Pearson's statistic against 1/6 per face (0 with no rolls). */
  readonly chiSquare: number;
  /** P(statistic this large | fair die), df 5; null with no rolls. */
  readonly pValue: number | null;
  /** Whether there are enough rolls (MIN_ROLLS) to judge. */
  readonly enough: boolean;
  /** Rolls still needed before judging (0 once enough). */
  readonly needed: number;
  /** Enough rolls and p < ALPHA. */
  readonly biased: boolean;
}

export interface FairnessReport {
  readonly overall: FaceStats;
  /** Per die key, most rolled first. */
  readonly dice: readonly FaceStats[];
  readonly minRolls: number;
  readonly alpha: number;
}

/** Face counts and the chi-square test of one set of outcomes. */
export function faceStats(key: string, values: readonly number[]): FaceStats {
  const counts = new Array<number>(FACES).fill(0);
  for (const v of values) {
    if (!Number.isInteger(v) || v < 1 || v > FACES) throw new RangeError(`die value ${v} is not a face 1-${FACES}`);
    counts[v - 1] = (counts[v - 1] ?? 0) + 1;
  }
  const rolls = values.length;
  const expected = rolls / FACES;
  const chiSquare = rolls === 0 ? 0 : counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
  const pValue = rolls === 0 ? null : chiSquarePValue(chiSquare, FACES - 1);
  const enough = rolls >= MIN_ROLLS;
  return { key, rolls, counts, chiSquare, pValue, enough, needed: Math.max(0, MIN_ROLLS - rolls), biased: enough && pValue !== null && pValue < ALPHA };
}

/**
 * Dice typed in by hand: how often each face was typed. Shown apart and never
 * judged: a typed value is what someone entered, not what a die did, so it
 * says nothing about the dice (and would swamp "all dice" after a few games).
 */
export interface TypedInCounts {
  readonly rolls: number;
  readonly counts: readonly number[];
}

export function typedInCounts(values: readonly number[]): TypedInCounts {
  const { rolls, counts } = faceStats('typed in', values);
  return { rolls, counts };
}

/** The fairness report over these die outcomes (dice the camera read: typed-in ones go to `typedInCounts`). */
export function fairness(outcomes: readonly DieOutcome[]): FairnessReport {
  const byKey = new Map<string, number[]>();
  for (const o of outcomes) {
    const list = byKey.get(o.key) ?? [];
    list.push(o.value);
    byKey.set(o.key, list);
  }
  const dice = [...byKey.entries()].map(([key, values]) => faceStats(key, values)).sort((a, b) => b.rolls - a.rolls || a.key.localeCompare(b.key));
  return { overall: faceStats('all dice', outcomes.map((o) => o.value)), dice, minRolls: MIN_ROLLS, alpha: ALPHA };
}
