/**
 * Cameroon (`cameroon`): a ten-row scorecard game on five dice (ones to
 * sixes, full house, Little and Big Cameroon, five of a kind). Rules:
 * shared/rules/cameroon.md; every option below is one row of that spec's
 * "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import type { GameDef, OptionSpec } from './types.js';
import { faceCounts, scorecardEngine, showsAll, sumOf, type Card, type ScorecardAction, type ScorecardState } from './yatzy-family-common.js';

export const CAMEROON_UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'] as const;
export const CAMEROON_LOWER = ['fullHouse', 'littleCameroon', 'bigCameroon', 'cameroon'] as const;
export type CameroonCategory = (typeof CAMEROON_UPPER)[number] | (typeof CAMEROON_LOWER)[number];
/** All 10 rows in scorecard order. */
export const CAMEROON_CATEGORIES: readonly CameroonCategory[] = [...CAMEROON_UPPER, ...CAMEROON_LOWER];

export const CAMEROON_LABELS: Readonly<Record<CameroonCategory, string>> = {
  ones: 'Ones',
  twos: 'Twos',
  threes: 'Threes',
  fours: 'Fours',
  fives: 'Fives',
  sixes: 'Sixes',
  fullHouse: 'Full House',
  littleCameroon: 'Little Cameroon',
  bigCameroon: 'Big Cameroon',
  cameroon: 'Cameroon',
};

/** The two traditions' values for Little Cameroon, Big Cameroon and five of a kind. */
export const CAMEROON_VALUE_SETS = {
  english: { little: 21, big: 30, five: 50 },
  french: { little: 15, big: 20, five: 30 },
} as const;

const DICE = 5;

export interface CameroonOptions {
  /**
   * Values of Little / Big Cameroon and five of a kind: 'english' 21/30/50 or
   * 'french' 15/20/30. Spec ambiguity 1 names an object; options can only be
   * scalars, so the two documented value sets are a choice.
   */
  readonly cameroonValues: keyof typeof CAMEROON_VALUE_SETS;
  /** Five of a kind counts as a Full House. Spec ambiguity 2. */
  readonly fullHouseAllowsFiveOfAKind: boolean;
}

export const CAMEROON_DEFAULT_OPTIONS: CameroonOptions = { cameroonValues: 'english', fullHouseAllowsFiveOfAKind: false };

export const CAMEROON_OPTION_SPECS: readonly OptionSpec[] = [
  {
    name: 'cameroonValues',
    type: 'choice',
    default: 'english',
    choices: ['english', 'french'],
    description: "Little Cameroon / Big Cameroon / five of a kind: 'english' 21/30/50, or 'french' (Le Cameroun) 15/20/30.",
  },
  { name: 'fullHouseAllowsFiveOfAKind', type: 'boolean', default: false, description: 'Five of a kind counts as a Full House.' },
];

export type CameroonState = ScorecardState<CameroonCategory, CameroonOptions>;
export type CameroonAction = ScorecardAction<CameroonCategory>;

/** Points five dice score in a Cameroon row; a throw that misses the row's requirement scores 0. */
export function cameroonScore(dice: readonly number[], category: CameroonCategory, options: CameroonOptions = CAMEROON_DEFAULT_OPTIONS): number {
  // Callers hand over complete throws; anything else is a bug, not a player's mistake.
  if (dice.length !== DICE || !dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) {
    throw new RangeError(`Expected ${DICE} dice with values 1..6, got [${dice.join(', ')}]`);
  }
  const values = CAMEROON_VALUE_SETS[options.cameroonValues];
  const counts = faceCounts(dice);
  const upper = (CAMEROON_UPPER as readonly string[]).indexOf(category);
  if (upper >= 0) return (upper + 1) * (counts[upper + 1] ?? 0);
  const five = Math.max(...counts) === 5;
  switch (category) {
    case 'fullHouse': {
      const shape = counts.filter((c) => c > 0).sort((a, b) => a - b);
      return (shape.length === 2 && shape[0] === 2) || (five && options.fullHouseAllowsFiveOfAKind) ? sumOf(dice) : 0;
    }
    case 'littleCameroon':
      return showsAll(dice, [1, 2, 3, 4, 5]) ? values.little : 0;
    case 'bigCameroon':
      return showsAll(dice, [2, 3, 4, 5, 6]) ? values.big : 0;
    case 'cameroon':
      return five ? values.five : 0;
    default:
      throw new RangeError(`No Cameroon row ${String(category)}`);
  }
}

/** Scoreboard breakdown of a card; empty rows count 0. */
export function cameroonTotals(card: Card<CameroonCategory>) {
  const upper = sumOf(CAMEROON_UPPER.map((c) => card[c] ?? 0));
  const lower = sumOf(CAMEROON_LOWER.map((c) => card[c] ?? 0));
  return { upperTotal: upper, lowerTotal: lower, total: upper + lower };
}

const engine = scorecardEngine<CameroonCategory, CameroonOptions, CameroonState>({
  id: 'cameroon',
  name: 'Cameroon',
  minPlayers: 1,
  maxPlayers: 10,
  diceCount: DICE,
  categories: CAMEROON_CATEGORIES,
  labels: CAMEROON_LABELS,
  optionSpecs: CAMEROON_OPTION_SPECS,
  score: cameroonScore,
  openRows: (card) => CAMEROON_CATEGORIES.filter((c) => card[c] === null),
  computed: (card) => cameroonTotals(card),
  rows: () => [
    ...CAMEROON_UPPER.map((id) => ({ id, label: CAMEROON_LABELS[id], kind: 'score' as const })),
    { id: 'upperTotal', label: 'Upper total', kind: 'subtotal' },
    ...CAMEROON_LOWER.map((id) => ({ id, label: CAMEROON_LABELS[id], kind: 'score' as const })),
    { id: 'lowerTotal', label: 'Lower total', kind: 'subtotal' },
    { id: 'total', label: 'Total', kind: 'total' },
  ],
  throwLimit: () => 3,
  initial: (base) => base,
  tie: () => 'shared',
  goodEnough: 21,
});

/** The rows the current player may fill with the dice on the table, with their points. */
export const cameroonChoices = engine.choices;

export const cameroon: GameDef<CameroonState, CameroonAction, CameroonOptions> = {
  id: 'cameroon',
  name: 'Cameroon',
  minPlayers: 1,
  maxPlayers: 10,
  defaultOptions: CAMEROON_DEFAULT_OPTIONS,
  summary:
    'A ten-box scorecard game for one or more players. Each turn, throw five dice up to three times, keeping any dice between throws, then fill one empty box: ones to sixes (the sum of that face), full house (three and two of another value: the sum of the dice), Little Cameroon (1-2-3-4-5: 21), Big Cameroon (2-3-4-5-6: 30) or Cameroon (five alike: 50). A box that does not fit scores 0. Highest total after ten rounds wins.',
  dice: { count: DICE, colours: [], sizes: [] },
  optionSpecs: CAMEROON_OPTION_SPECS,
  setup: engine.setup,
  diceRequest: engine.diceRequest,
  apply: engine.apply,
  legalActions: engine.legalActions,
  result: engine.result,
  board: engine.board,
  playerView: engine.playerView,
  bot: engine.bot,
};
