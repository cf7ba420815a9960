/**
 * Yatzy (`yatzy`): Scandinavian Yatzy, 15 rows, 50 bonus at 63, no Yahtzee
 * joker. Rules: shared/rules/yatzy.md; every option below is one row of that
 * spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import type { GameDef, OptionSpec } from './types.js';
import {
  facesWithAtLeast,
  faceCounts,
  scorecardEngine,
  showsAll,
  sumOf,
  type Card,
  type ScorecardAction,
  type ScorecardState,
} from './yatzy-family-common.js';

export const YATZY_UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'] as const;
export const YATZY_LOWER = ['onePair', 'twoPairs', 'threeOfAKind', 'fourOfAKind', 'smallStraight', 'largeStraight', 'fullHouse', 'chance', 'yatzy'] as const;
export type YatzyCategory = (typeof YATZY_UPPER)[number] | (typeof YATZY_LOWER)[number];
/** All 15 rows in scorecard order. */
export const YATZY_CATEGORIES: readonly YatzyCategory[] = [...YATZY_UPPER, ...YATZY_LOWER];

export const YATZY_LABELS: Readonly<Record<YatzyCategory, string>> = {
  ones: 'Ones',
  twos: 'Twos',
  threes: 'Threes',
  fours: 'Fours',
  fives: 'Fives',
  sixes: 'Sixes',
  onePair: 'One Pair',
  twoPairs: 'Two Pairs',
  threeOfAKind: 'Three of a Kind',
  fourOfAKind: 'Four of a Kind',
  smallStraight: 'Small Straight',
  largeStraight: 'Large Straight',
  fullHouse: 'Full House',
  chance: 'Chance',
  yatzy: 'Yatzy',
};

const DICE = 5;

export interface YatzyOptions {
  /** Upper total that earns the bonus (at least this much). Spec ambiguity 1. */
  readonly upperBonusThreshold: number;
  /** Points of the upper bonus. Spec ambiguity 1. */
  readonly upperBonus: number;
  /** "Forced Yatzy": rows must be filled in card order. Spec ambiguity 2. */
  readonly forcedOrder: boolean;
  /** Throws per turn. Spec ambiguity 3. */
  readonly maxThrows: number;
  /** A tie for first: shared win, or nobody wins. Spec ambiguity 4. */
  readonly endTie: 'shared' | 'noWinner';
}

export const YATZY_DEFAULT_OPTIONS: YatzyOptions = {
  upperBonusThreshold: 63,
  upperBonus: 50,
  forcedOrder: false,
  maxThrows: 3,
  endTie: 'shared',
};

export const YATZY_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'upperBonusThreshold', type: 'integer', default: 63, min: 0, description: 'Upper total (or more) that earns the upper bonus.' },
  { name: 'upperBonus', type: 'integer', default: 50, min: 0, description: 'Points of the upper bonus.' },
  { name: 'forcedOrder', type: 'boolean', default: false, description: '"Forced Yatzy": fill the rows in card order, top to bottom.' },
  { name: 'maxThrows', type: 'integer', default: 3, min: 1, max: 10, description: 'Throws per turn.' },
  { name: 'endTie', type: 'choice', default: 'shared', choices: ['shared', 'noWinner'], description: "A tie for the best total: 'shared' win, or 'noWinner'." },
];

export type YatzyState = ScorecardState<YatzyCategory, YatzyOptions>;
export type YatzyAction = ScorecardAction<YatzyCategory>;

function assertDice(dice: readonly number[]): void {
  // Callers hand over complete throws; anything else is a bug, not a player's mistake.
  if (dice.length !== DICE || !dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) {
    throw new RangeError(`Expected ${DICE} dice with values 1..6, got [${dice.join(', ')}]`);
  }
}

/** Points five dice score in a Yatzy row; a throw that misses the row's requirement scores 0. */
export function yatzyScore(dice: readonly number[], category: YatzyCategory): number {
  assertDice(dice);
  const upper = (YATZY_UPPER as readonly string[]).indexOf(category);
  if (upper >= 0) return (upper + 1) * (faceCounts(dice)[upper + 1] ?? 0);
  const pairs = facesWithAtLeast(dice, 2);
  switch (category) {
    case 'onePair':
      return 2 * (pairs[0] ?? 0);
    case 'twoPairs':
      // Two different values: four of one value is not two pairs.
      return pairs.length >= 2 ? 2 * ((pairs[0] ?? 0) + (pairs[1] ?? 0)) : 0;
    case 'threeOfAKind':
      return 3 * (facesWithAtLeast(dice, 3)[0] ?? 0);
    case 'fourOfAKind':
      return 4 * (facesWithAtLeast(dice, 4)[0] ?? 0);
    case 'smallStraight':
      return showsAll(dice, [1, 2, 3, 4, 5]) ? 15 : 0;
    case 'largeStraight':
      return showsAll(dice, [2, 3, 4, 5, 6]) ? 20 : 0;
    case 'fullHouse': {
      // Three of one value and two of another: five of a kind does not count.
      const shape = faceCounts(dice).filter((c) => c > 0).sort((a, b) => a - b);
      return shape.length === 2 && shape[0] === 2 ? sumOf(dice) : 0;
    }
    case 'chance':
      return sumOf(dice);
    case 'yatzy':
      return facesWithAtLeast(dice, 5).length > 0 ? 50 : 0;
    default:
      throw new RangeError(`No Yatzy row ${String(category)}`);
  }
}

const rowSum = (card: Card<YatzyCategory>, rows: readonly YatzyCategory[]): number => sumOf(rows.map((c) => card[c] ?? 0));

/** Scoreboard breakdown of a card; empty rows count 0. */
export function yatzyTotals(card: Card<YatzyCategory>, options: YatzyOptions = YATZY_DEFAULT_OPTIONS) {
  const upper = rowSum(card, YATZY_UPPER);
  // The bonus can only be gained, never lost, so it is shown as soon as it is reached.
  const upperBonus = upper >= options.upperBonusThreshold ? options.upperBonus : 0;
  const lower = rowSum(card, YATZY_LOWER);
  return { upperTotal: upper, upperBonus, lowerTotal: lower, total: upper + upperBonus + lower };
}

const engine = scorecardEngine<YatzyCategory, YatzyOptions, YatzyState>({
  id: 'yatzy',
  name: 'Yatzy',
  minPlayers: 1,
  maxPlayers: 10,
  diceCount: DICE,
  categories: YATZY_CATEGORIES,
  labels: YATZY_LABELS,
  optionSpecs: YATZY_OPTION_SPECS,
  score: (dice, category) => yatzyScore(dice, category),
  openRows: (card, o) => {
    const empty = YATZY_CATEGORIES.filter((c) => card[c] === null);
    return o.forcedOrder ? empty.slice(0, 1) : empty;
  },
  computed: yatzyTotals,
  rows: (o) => [
    ...YATZY_UPPER.map((id) => ({ id, label: YATZY_LABELS[id], kind: 'score' as const })),
    { id: 'upperTotal', label: 'Upper total', kind: 'subtotal' },
    { id: 'upperBonus', label: `Bonus (${o.upperBonusThreshold}+)`, kind: 'bonus' },
    ...YATZY_LOWER.map((id) => ({ id, label: YATZY_LABELS[id], kind: 'score' as const })),
    { id: 'lowerTotal', label: 'Lower total', kind: 'subtotal' },
    { id: 'total', label: 'Total', kind: 'total' },
  ],
  throwLimit: (s) => s.options.maxThrows,
  initial: (base) => base,
  tie: (o) => o.endTie,
  goodEnough: 20,
});

/** The rows the current player may fill with the dice on the table, with their points. */
export const yatzyChoices = engine.choices;

export const yatzy: GameDef<YatzyState, YatzyAction, YatzyOptions> = {
  id: 'yatzy',
  name: 'Yatzy',
  minPlayers: 1,
  maxPlayers: 10,
  defaultOptions: YATZY_DEFAULT_OPTIONS,
  summary:
    'Scandinavian Yatzy for one or more players. Each turn, throw five dice up to three times, keeping any dice between throws, then fill one empty box of your 15-box card: ones to sixes, one pair, two pairs, three and four of a kind, small straight (1-5, 15), large straight (2-6, 20), full house, chance and Yatzy (five alike, 50). Pairs, sets and full house score the dice they use. 63 or more in the upper boxes earns a 50-point bonus. Highest total after 15 rounds wins.',
  dice: { count: DICE, colours: [], sizes: [] },
  optionSpecs: YATZY_OPTION_SPECS,
  setup: engine.setup,
  diceRequest: engine.diceRequest,
  apply: engine.apply,
  legalActions: engine.legalActions,
  result: engine.result,
  board: engine.board,
  playerView: engine.playerView,
  bot: engine.bot,
};
