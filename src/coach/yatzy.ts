/**
 * The Yatzy coach: expected-final-score-optimal solitaire play of
 * Scandinavian Yatzy (src/games/yatzy.ts) for every option that changes
 * play (bonus threshold and points, forced order, throws per turn).
 *
 * Default rules: 248.44 expected points (as teemukoukkari/yatzysolver
 * publishes for the same rules), 1 430 528 reachable turn-start states.
 */
import { YATZY_CATEGORIES, YATZY_LABELS, yatzy, yatzyChoices, yatzyScore, yatzyTotals, type YatzyAction, type YatzyCategory, type YatzyOptions, type YatzyState } from '../games/yatzy.js';
import type { Card } from '../games/yatzy-family-common.js';
import { scorecardCoach } from './scorecard-policy.js';
import { DICE, ROLLS, type ScorecardModel } from './scorecard-solver.js';
import type { GameCoach } from './types.js';

/** The largest upper total a card can reach (five of each face). */
const MAX_UPPER = 5 * (1 + 2 + 3 + 4 + 5 + 6);

/** Points of every throw in every row, from the game's own scoring (or, for the rule-variant script, another). */
export function yatzyPoints(score: (dice: readonly number[], row: YatzyCategory) => number = yatzyScore): Int16Array {
  const rows = YATZY_CATEGORIES.length;
  const points = new Int16Array(ROLLS * rows);
  DICE.rolls.forEach((dice, r) => YATZY_CATEGORIES.forEach((c, i) => (points[r * rows + i] = score(dice, c))));
  return points;
}

export function yatzyModel(options: YatzyOptions): ScorecardModel {
  const t = options.upperBonusThreshold;
  // Tracked only when reaching the threshold is a choice: at 0 the bonus is always there, above 105 never.
  const tracked = options.upperBonus > 0 && t >= 1 && t <= MAX_UPPER;
  return {
    rows: YATZY_CATEGORIES.length,
    upper: YATZY_CATEGORIES.map((_, i) => i < 6),
    face: YATZY_CATEGORIES.map((_, i) => (i < 6 ? i + 1 : 0)),
    points: yatzyPoints(),
    threshold: tracked ? t : 0,
    bonus: options.upperBonus,
    emptyTotal: t <= 0 ? options.upperBonus : 0,
    forcedOrder: options.forcedOrder,
    throws: options.maxThrows,
    joker: null,
  };
}

const cardOf = (s: YatzyState): Card<YatzyCategory> => {
  const p = s.players[s.current];
  if (p === undefined) throw new RangeError(`State has no player ${s.current}`);
  return p.card;
};

export const yatzyCoach: GameCoach<YatzyState, YatzyAction, YatzyOptions> = scorecardCoach<YatzyCategory, YatzyState, YatzyOptions, YatzyAction>({
  id: yatzy.id,
  name: yatzy.name,
  categories: YATZY_CATEGORIES,
  labels: YATZY_LABELS,
  unsupported: (o) => (Number.isInteger(o.maxThrows) && o.maxThrows >= 1 && o.maxThrows <= 10 ? null : 'Throws per turn must be 1 to 10.'),
  model: yatzyModel,
  // endTie changes who wins, not how a card is best played.
  playKey: (o) => JSON.stringify([o.upperBonusThreshold, o.upperBonus, o.forcedOrder, o.maxThrows]),
  choices: yatzyChoices,
  totalNow: (s) => yatzyTotals(cardOf(s), s.options).total,
  totalAfter: (s, category, points) => yatzyTotals({ ...cardOf(s), [category]: points }, s.options).total,
});
