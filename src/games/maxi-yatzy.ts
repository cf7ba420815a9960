/**
 * Maxi Yatzy (`maxi-yatzy`): Yatzy on six dice with a 20-row card, and
 * throws left unused in a turn saved for later turns. Rules:
 * shared/rules/maxi-yatzy.md; every option below is one row of that spec's
 * "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import type { GameDef, OptionSpec } from './types.js';
import {
  faceCounts,
  facesWithAtLeast,
  scorecardEngine,
  showsAll,
  sumOf,
  type Card,
  type ScorecardAction,
  type ScorecardState,
} from './yatzy-family-common.js';

export const MAXI_UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'] as const;
export const MAXI_LOWER = [
  'onePair',
  'twoPairs',
  'threePairs',
  'threeOfAKind',
  'fourOfAKind',
  'fiveOfAKind',
  'smallStraight',
  'largeStraight',
  'fullStraight',
  'fullHouse',
  'villa',
  'tower',
  'chance',
  'maxiYatzy',
] as const;
export type MaxiCategory = (typeof MAXI_UPPER)[number] | (typeof MAXI_LOWER)[number];
/** All 20 rows in scorecard order. */
export const MAXI_CATEGORIES: readonly MaxiCategory[] = [...MAXI_UPPER, ...MAXI_LOWER];

export const MAXI_LABELS: Readonly<Record<MaxiCategory, string>> = {
  ones: 'Ones',
  twos: 'Twos',
  threes: 'Threes',
  fours: 'Fours',
  fives: 'Fives',
  sixes: 'Sixes',
  onePair: '1 Pair',
  twoPairs: '2 Pairs',
  threePairs: '3 Pairs',
  threeOfAKind: '3 of a Kind',
  fourOfAKind: '4 of a Kind',
  fiveOfAKind: '5 of a Kind',
  smallStraight: 'Small Straight',
  largeStraight: 'Large Straight',
  fullStraight: 'Full Straight',
  fullHouse: 'Full House',
  villa: 'Villa',
  tower: 'Tower',
  chance: 'Chance',
  maxiYatzy: 'Maxi Yatzy',
};

const DICE = 6;

export interface MaxiYatzyOptions {
  /** Upper total (or more) that earns the bonus. Spec ambiguity 1. */
  readonly upperBonusThreshold: number;
  /** Points of the upper bonus. Spec ambiguity 1. */
  readonly upperBonus: number;
  /** Throws left unused in a turn are saved for later turns. Spec ambiguity 2. */
  readonly saveUnusedThrows: boolean;
  /** Throws per turn (before saved ones). Spec ambiguity 3. */
  readonly throwsPerTurn: number;
}

export const MAXI_DEFAULT_OPTIONS: MaxiYatzyOptions = { upperBonusThreshold: 84, upperBonus: 100, saveUnusedThrows: true, throwsPerTurn: 3 };

export const MAXI_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'upperBonusThreshold', type: 'integer', default: 84, min: 0, description: 'Upper total (or more) that earns the upper bonus (svenskaspelregler.se: 75).' },
  { name: 'upperBonus', type: 'integer', default: 100, min: 0, description: 'Points of the upper bonus (svenskaspelregler.se: 50).' },
  { name: 'saveUnusedThrows', type: 'boolean', default: true, description: 'Throws not used in a turn are saved for later turns.' },
  { name: 'throwsPerTurn', type: 'integer', default: 3, min: 1, max: 10, description: 'Throws per turn, before saved ones.' },
];

export interface MaxiYatzyState extends ScorecardState<MaxiCategory, MaxiYatzyOptions> {
  /** Saved throws per seat, usable on top of a turn's own throws. */
  readonly savedThrows: readonly number[];
}
export type MaxiYatzyAction = ScorecardAction<MaxiCategory>;

/** Sum of `n` dice of `face`. */
const many = (face: number | undefined, n: number): number => (face === undefined ? 0 : face * n);

/** Points six dice score in a Maxi Yatzy row (from the best dice among them); a miss scores 0. */
export function maxiScore(dice: readonly number[], category: MaxiCategory): number {
  // Callers hand over complete throws; anything else is a bug, not a player's mistake.
  if (dice.length !== DICE || !dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) {
    throw new RangeError(`Expected ${DICE} dice with values 1..6, got [${dice.join(', ')}]`);
  }
  const counts = faceCounts(dice);
  const upper = (MAXI_UPPER as readonly string[]).indexOf(category);
  if (upper >= 0) return (upper + 1) * (counts[upper + 1] ?? 0);
  const pairs = facesWithAtLeast(dice, 2);
  // The dice's group sizes, largest first (4-4-4-4-6-6 → "42").
  const shape = counts.filter((c) => c > 0).sort((a, b) => b - a).join('');
  switch (category) {
    case 'onePair':
      return many(pairs[0], 2);
    case 'twoPairs':
      return pairs.length >= 2 ? many(pairs[0], 2) + many(pairs[1], 2) : 0;
    case 'threePairs':
      return pairs.length === 3 ? sumOf(dice) : 0;
    case 'threeOfAKind':
      return many(facesWithAtLeast(dice, 3)[0], 3);
    case 'fourOfAKind':
      return many(facesWithAtLeast(dice, 4)[0], 4);
    case 'fiveOfAKind':
      return many(facesWithAtLeast(dice, 5)[0], 5);
    case 'smallStraight':
      return showsAll(dice, [1, 2, 3, 4, 5]) ? 15 : 0;
    case 'largeStraight':
      return showsAll(dice, [2, 3, 4, 5, 6]) ? 20 : 0;
    case 'fullStraight':
      return showsAll(dice, [1, 2, 3, 4, 5, 6]) ? 21 : 0;
    case 'fullHouse': {
      // The best three of one value plus two of another.
      let best = 0;
      for (const t of facesWithAtLeast(dice, 3)) for (const p of pairs) if (p !== t) best = Math.max(best, 3 * t + 2 * p);
      return best;
    }
    case 'villa':
      return shape === '33' ? sumOf(dice) : 0;
    case 'tower':
      return shape === '42' ? sumOf(dice) : 0;
    case 'chance':
      return sumOf(dice);
    case 'maxiYatzy':
      return shape === '6' ? 100 : 0;
    default:
      throw new RangeError(`No Maxi Yatzy row ${String(category)}`);
  }
}

/** Scoreboard breakdown of a card; empty rows count 0. */
export function maxiTotals(card: Card<MaxiCategory>, options: MaxiYatzyOptions = MAXI_DEFAULT_OPTIONS) {
  const upper = sumOf(MAXI_UPPER.map((c) => card[c] ?? 0));
  // The bonus can only be gained, never lost, so it is shown as soon as it is reached.
  const upperBonus = upper >= options.upperBonusThreshold ? options.upperBonus : 0;
  const lower = sumOf(MAXI_LOWER.map((c) => card[c] ?? 0));
  return { upperTotal: upper, upperBonus, lowerTotal: lower, total: upper + upperBonus + lower };
}

/** Throws the current player may use this turn: the turn's own plus any saved. */
export function maxiThrowLimit(state: MaxiYatzyState): number {
  const saved = state.options.saveUnusedThrows ? (state.savedThrows[state.current] ?? 0) : 0;
  return state.options.throwsPerTurn + saved;
}

const engine = scorecardEngine<MaxiCategory, MaxiYatzyOptions, MaxiYatzyState>({
  id: 'maxi-yatzy',
  name: 'Maxi Yatzy',
  minPlayers: 1,
  maxPlayers: 10,
  diceCount: DICE,
  categories: MAXI_CATEGORIES,
  labels: MAXI_LABELS,
  optionSpecs: MAXI_OPTION_SPECS,
  score: (dice, category) => maxiScore(dice, category),
  openRows: (card) => MAXI_CATEGORIES.filter((c) => card[c] === null),
  computed: maxiTotals,
  rows: (o) => [
    ...MAXI_UPPER.map((id) => ({ id, label: MAXI_LABELS[id], kind: 'score' as const })),
    { id: 'upperTotal', label: 'Upper total', kind: 'subtotal' },
    { id: 'upperBonus', label: `Bonus (${o.upperBonusThreshold}+)`, kind: 'bonus' },
    ...MAXI_LOWER.map((id) => ({ id, label: MAXI_LABELS[id], kind: 'score' as const })),
    { id: 'lowerTotal', label: 'Lower total', kind: 'subtotal' },
    { id: 'total', label: 'Total', kind: 'total' },
  ],
  throwLimit: maxiThrowLimit,
  initial: (base) => ({ ...base, savedThrows: base.players.map(() => 0) }),
  // Whatever the turn left unused carries over (nothing when saving is off).
  afterScore: (before, after) => ({
    ...after,
    savedThrows: before.savedThrows.map((n, i) => (i !== before.current ? n : before.options.saveUnusedThrows ? maxiThrowLimit(before) - before.throwsTaken : 0)),
  }),
  tie: () => 'shared',
  panels: (s) => [
    {
      id: 'savedThrows',
      label: 'Saved throws',
      items: s.players.map((p, i) => ({ id: 'seat', label: p.name, params: { name: p.name }, value: s.savedThrows[i] ?? 0, state: i === s.current && !s.over ? ('active' as const) : undefined })),
    },
  ],
  goodEnough: 30,
});

/** The rows the current player may fill with the dice on the table, with their points. */
export const maxiChoices = engine.choices;

export const maxiYatzy: GameDef<MaxiYatzyState, MaxiYatzyAction, MaxiYatzyOptions> = {
  id: 'maxi-yatzy',
  name: 'Maxi Yatzy',
  minPlayers: 1,
  maxPlayers: 10,
  defaultOptions: MAXI_DEFAULT_OPTIONS,
  summary:
    'Yatzy with six dice and a 20-box card, for one or more players. Each turn, throw six dice up to three times, keeping any dice between throws; throws you do not use are saved for later turns. Then fill one empty box from the best dice: ones to sixes, one to three pairs, three to five of a kind, small (15), large (20) and full (21) straights, full house, villa (3+3), tower (4+2), chance and Maxi Yatzy (six alike, 100). 84 or more in the upper boxes earns 100 bonus points. Highest total after 20 rounds wins.',
  dice: { count: DICE, colours: [], sizes: [] },
  optionSpecs: MAXI_OPTION_SPECS,
  setup: engine.setup,
  diceRequest: engine.diceRequest,
  apply: engine.apply,
  legalActions: engine.legalActions,
  result: engine.result,
  board: engine.board,
  playerView: engine.playerView,
  bot: engine.bot,
};
