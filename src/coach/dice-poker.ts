/**
 * The Dice Poker coach: expected-final-score-optimal solitaire play of the
 * Yahtzee-like scorecard game (src/games/dice-poker.ts) with its upper
 * bonus, extra-Poker bonus and forced Joker placement, for every option.
 *
 * The Joker rule needs one more bit per state: whether the Poker row holds
 * points (the bonus and the forced placement depend on it).
 */
import {
  CATEGORIES,
  CATEGORY_LABELS,
  UPPER_CATEGORIES,
  dicePoker,
  jokerScore,
  pokerBonusDue,
  scoreCategory,
  scoreChoices,
  totals,
  type Category,
  type DicePokerAction,
  type DicePokerOptions,
  type DicePokerState,
  type LowerCategory,
} from '../games/dice-poker.js';
import { scorecardCoach } from './scorecard-policy.js';
import { DICE, ROLLS, type ScorecardModel } from './scorecard-solver.js';
import type { GameCoach } from './types.js';

const MAX_UPPER = 5 * (1 + 2 + 3 + 4 + 5 + 6);
const isUpper = (c: Category): boolean => (UPPER_CATEGORIES as readonly string[]).includes(c);

/**
 * The solver's view of Dice Poker on these rows (all 15 for the game; the
 * 13 Yahtzee rows reproduce Verhoeff's solitaire Yahtzee in the tests).
 */
export function dicePokerModel(options: DicePokerOptions, categories: readonly Category[] = CATEGORIES): ScorecardModel {
  const rows = categories.length;
  const points = new Int16Array(ROLLS * rows);
  DICE.rolls.forEach((dice, r) => categories.forEach((c, i) => (points[r * rows + i] = scoreCategory(dice, c, options))));
  const jokerPoints = new Int16Array(6 * rows);
  for (let face = 1; face <= 6; face++) {
    const five = [face, face, face, face, face];
    categories.forEach((c, i) => (jokerPoints[(face - 1) * rows + i] = isUpper(c) ? 0 : jokerScore(five, c as LowerCategory, options)));
  }
  // '>' is '>=' one point higher; tracked only when reaching it is a choice.
  const t = options.upperBonusThreshold + (options.upperBonusComparison === '>' ? 1 : 0);
  const tracked = options.upperBonus > 0 && t >= 1 && t <= MAX_UPPER;
  const fiveRow = categories.indexOf('poker');
  return {
    rows,
    upper: categories.map(isUpper),
    face: categories.map((c) => (isUpper(c) ? (UPPER_CATEGORIES as readonly string[]).indexOf(c) + 1 : 0)),
    points,
    threshold: tracked ? t : 0,
    bonus: options.upperBonus,
    emptyTotal: t <= 0 ? options.upperBonus : 0,
    forcedOrder: false,
    throws: options.maxThrows,
    joker: fiveRow < 0 ? null : { fiveRow, extraBonus: options.pokerBonus, whenScratched: options.jokerWhenPokerScratched, points: jokerPoints },
  };
}

const playerOf = (s: DicePokerState) => {
  const p = s.players[s.current];
  if (p === undefined) throw new RangeError(`State has no player ${s.current}`);
  return p;
};

const thrown = (s: DicePokerState): number[] => s.dice.filter((d): d is number => d !== null);

export const dicePokerCoach: GameCoach<DicePokerState, DicePokerAction, DicePokerOptions> = scorecardCoach<Category, DicePokerState, DicePokerOptions, DicePokerAction>({
  id: dicePoker.id,
  name: dicePoker.name,
  categories: CATEGORIES,
  labels: CATEGORY_LABELS,
  unsupported: (o) =>
    o.turns !== CATEGORIES.length
      ? `Dice Poker lasts one turn per row (${CATEGORIES.length}).`
      : Number.isInteger(o.maxThrows) && o.maxThrows >= 1 && o.maxThrows <= 10
        ? null
        : 'Throws per turn must be 1 to 10.',
  model: (o) => dicePokerModel(o),
  playKey: (o) =>
    JSON.stringify([
      o.upperBonusThreshold,
      o.upperBonusComparison,
      o.upperBonus,
      o.twoPairsAllowFourOfAKind,
      o.fullHouseAllowsFiveOfAKind,
      o.jokerFixedValues,
      o.jokerWhenPokerScratched,
      o.pokerBonus,
      o.maxThrows,
    ]),
  choices: (s) => (s.throwsTaken === 0 || s.over ? [] : scoreChoices(playerOf(s).card, thrown(s), s.options)),
  totalNow: (s) => totals(playerOf(s), s.options).total,
  totalAfter: (s, category, points) => {
    const p = playerOf(s);
    // The extra-Poker bonus is booked with the row, as the game does.
    const extra = pokerBonusDue(p.card, thrown(s)) ? s.options.pokerBonus : 0;
    return totals({ ...p, card: { ...p.card, [category]: points }, pokerBonus: p.pokerBonus + extra }, s.options).total;
  },
});
