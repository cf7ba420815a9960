/**
 * The Cameroon coach: expected-final-score-optimal solitaire play of the
 * ten-row scorecard game (src/games/cameroon.ts), both value sets and the
 * full-house option. No bonus, so a state is just the filled rows (1024).
 */
import {
  CAMEROON_CATEGORIES,
  CAMEROON_LABELS,
  cameroon,
  cameroonChoices,
  cameroonScore,
  cameroonTotals,
  type CameroonAction,
  type CameroonCategory,
  type CameroonOptions,
  type CameroonState,
} from '../games/cameroon.js';
import type { Card } from '../games/yatzy-family-common.js';
import { scorecardCoach } from './scorecard-policy.js';
import { DICE, ROLLS, type ScorecardModel } from './scorecard-solver.js';
import type { GameCoach } from './types.js';

/** Throws per turn: fixed by the rules (the module's throw limit). */
const THROWS = 3;

export function cameroonModel(options: CameroonOptions): ScorecardModel {
  const rows = CAMEROON_CATEGORIES.length;
  const points = new Int16Array(ROLLS * rows);
  DICE.rolls.forEach((dice, r) => CAMEROON_CATEGORIES.forEach((c, i) => (points[r * rows + i] = cameroonScore(dice, c, options))));
  return {
    rows,
    upper: CAMEROON_CATEGORIES.map((_, i) => i < 6),
    face: CAMEROON_CATEGORIES.map((_, i) => (i < 6 ? i + 1 : 0)),
    points,
    threshold: 0,
    bonus: 0,
    emptyTotal: 0,
    forcedOrder: false,
    throws: THROWS,
    joker: null,
  };
}

const cardOf = (s: CameroonState): Card<CameroonCategory> => {
  const p = s.players[s.current];
  if (p === undefined) throw new RangeError(`State has no player ${s.current}`);
  return p.card;
};

export const cameroonCoach: GameCoach<CameroonState, CameroonAction, CameroonOptions> = scorecardCoach<CameroonCategory, CameroonState, CameroonOptions, CameroonAction>({
  id: cameroon.id,
  name: cameroon.name,
  categories: CAMEROON_CATEGORIES,
  labels: CAMEROON_LABELS,
  unsupported: () => null,
  model: cameroonModel,
  playKey: (o) => JSON.stringify([o.cameroonValues, o.fullHouseAllowsFiveOfAKind]),
  choices: cameroonChoices,
  totalNow: (s) => cameroonTotals(cardOf(s)).total,
  totalAfter: (s, category, points) => cameroonTotals({ ...cardOf(s), [category]: points }).total,
});
