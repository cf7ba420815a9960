/**
 * Dice Poker (`dice-poker`): a Yahtzee-family scorecard game with two extra
 * rows (Pair, Two Pairs). Rules: shared/rules/dice-poker.md; every
 * option below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, ScorecardBoard } from './types.js';
import { checkPlayers as checkSeats, resolveOptions } from './setup-checks.js';
import { faceCounts, isDieValue, show, sum } from './dice.js';
import { boardSay, valueSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Scorecard

/** Upper (left) rows, in scorecard order; row i scores the dice showing face i + 1. */
export const UPPER_CATEGORIES = ['aces', 'twos', 'threes', 'fours', 'fives', 'sixes'] as const;

/** Lower (right) rows, in scorecard order. */
export const LOWER_CATEGORIES = [
  'pair',
  'twoPairs',
  'threeOfAKind',
  'fourOfAKind',
  'fullHouse',
  'smallStraight',
  'largeStraight',
  'poker',
  'chance',
] as const;

export type UpperCategory = (typeof UPPER_CATEGORIES)[number];
export type LowerCategory = (typeof LOWER_CATEGORIES)[number];
export type Category = UpperCategory | LowerCategory;

/** All 15 rows in scorecard order (upper, then lower). */
export const CATEGORIES: readonly Category[] = [...UPPER_CATEGORIES, ...LOWER_CATEGORIES];

/** English row labels for the scoreboard. */
export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  aces: 'Aces',
  twos: 'Twos',
  threes: 'Threes',
  fours: 'Fours',
  fives: 'Fives',
  sixes: 'Sixes',
  pair: 'Pair',
  twoPairs: 'Two Pairs',
  threeOfAKind: 'Three of a Kind',
  fourOfAKind: 'Four of a Kind',
  fullHouse: 'Full House',
  smallStraight: 'Small Straight',
  largeStraight: 'Large Straight',
  poker: 'Poker',
  chance: 'Chance',
};

export const DICE_COUNT = 5;
const FULL_HOUSE_POINTS = 25;
const SMALL_STRAIGHT_POINTS = 30;
const LARGE_STRAIGHT_POINTS = 40;
const POKER_POINTS = 50;

export function isCategory(x: unknown): x is Category {
  return typeof x === 'string' && (CATEGORIES as readonly string[]).includes(x);
}

const isUpper = (c: Category): c is UpperCategory => (UPPER_CATEGORIES as readonly string[]).includes(c);

// ---------------------------------------------------------------------------
// Options

export interface DicePokerOptions {
  /** Rounds per game; must equal the number of rows (15). Spec ambiguity 1. */
  readonly turns: number;
  /** Upper total needed for the upper bonus. Spec ambiguity 2. */
  readonly upperBonusThreshold: number;
  /** `'>='`: threshold or more earns the bonus; `'>'`: strictly more (literal source text). */
  readonly upperBonusComparison: '>=' | '>';
  /** Points of the upper bonus. */
  readonly upperBonus: number;
  /** Whether four (or five) of one value counts as Two Pairs. Spec ambiguity 3. */
  readonly twoPairsAllowFourOfAKind: boolean;
  /** Whether five of a kind counts as a Full House outside the Joker rule. Spec ambiguity 4. */
  readonly fullHouseAllowsFiveOfAKind: boolean;
  /** Joker on a lower row: true = fixed 25/30/40 for FH/SS/LS and the sum elsewhere; false = the row's normal rule. Spec ambiguity 5. */
  readonly jokerFixedValues: boolean;
  /** Whether the Joker placement also applies when the Poker row holds 0 (never the bonus). Spec ambiguity 6. */
  readonly jokerWhenPokerScratched: boolean;
  /** Points for each extra Poker while the Poker row holds 50. Spec ambiguity 8. */
  readonly pokerBonus: number;
  /** Throws per turn. Spec ambiguity 9. */
  readonly maxThrows: number;
}

export const DEFAULT_OPTIONS: DicePokerOptions = {
  turns: CATEGORIES.length,
  upperBonusThreshold: 63,
  upperBonusComparison: '>=',
  upperBonus: 35,
  twoPairsAllowFourOfAKind: false,
  fullHouseAllowsFiveOfAKind: false,
  jokerFixedValues: true,
  jokerWhenPokerScratched: false,
  pokerBonus: 100,
  maxThrows: 3,
};

/** The options as the catalog shows them; the defaults are DEFAULT_OPTIONS. */
export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'turns', type: 'integer', default: DEFAULT_OPTIONS.turns, min: CATEGORIES.length, max: CATEGORIES.length, description: 'Rounds per game: one per scorecard row (15).' },
  { name: 'upperBonusThreshold', type: 'integer', default: DEFAULT_OPTIONS.upperBonusThreshold, min: 0, description: 'Upper total that earns the upper bonus.' },
  { name: 'upperBonusComparison', type: 'choice', default: DEFAULT_OPTIONS.upperBonusComparison, choices: ['>=', '>'], description: "'>=': the threshold or more earns the bonus; '>': strictly more (the source's literal wording)." },
  { name: 'upperBonus', type: 'integer', default: DEFAULT_OPTIONS.upperBonus, min: 0, description: 'Points of the upper bonus.' },
  { name: 'twoPairsAllowFourOfAKind', type: 'boolean', default: DEFAULT_OPTIONS.twoPairsAllowFourOfAKind, description: 'Four of one value counts as Two Pairs.' },
  { name: 'fullHouseAllowsFiveOfAKind', type: 'boolean', default: DEFAULT_OPTIONS.fullHouseAllowsFiveOfAKind, description: 'Five of a kind counts as a Full House outside the Joker rule.' },
  { name: 'jokerFixedValues', type: 'boolean', default: DEFAULT_OPTIONS.jokerFixedValues, description: "A Joker scores Yahtzee's fixed 25/30/40 on Full House and the straights." },
  { name: 'jokerWhenPokerScratched', type: 'boolean', default: DEFAULT_OPTIONS.jokerWhenPokerScratched, description: 'The forced Joker placement also applies when Poker holds 0 (never the bonus).' },
  { name: 'pokerBonus', type: 'integer', default: DEFAULT_OPTIONS.pokerBonus, min: 0, description: 'Bonus for each extra Poker while the Poker row holds 50.' },
  { name: 'maxThrows', type: 'integer', default: DEFAULT_OPTIONS.maxThrows, min: 1, max: 10, description: 'Throws per turn.' },
];

/** The options that change how a row scores a throw. */
export type ScoringRules = Pick<DicePokerOptions, 'twoPairsAllowFourOfAKind' | 'fullHouseAllowsFiveOfAKind'>;

// ---------------------------------------------------------------------------
// State and actions

export type Card = Readonly<Record<Category, number | null>>;

export interface DicePokerPlayer {
  readonly name: string;
  /** Points per row; null while the row is empty. */
  readonly card: Card;
  /** Extra-Poker bonus points earned so far (kept apart because no row holds them). */
  readonly pokerBonus: number;
}

export interface DicePokerState {
  readonly game: 'dice-poker';
  readonly options: DicePokerOptions;
  readonly players: readonly DicePokerPlayer[];
  /** Index of the player whose turn it is (the last scorer once the game is over). */
  readonly current: number;
  /** Throws used in the current turn, 0..maxThrows. */
  readonly throwsTaken: number;
  /** The five dice; all null before the first throw of a turn. */
  readonly dice: readonly (number | null)[];
  /** Dice set aside; cleared at the start of every turn. */
  readonly held: readonly boolean[];
  /** Current round, 1-based (stays at `turns` once the game is over). */
  readonly round: number;
  readonly over: boolean;
}

export type DicePokerAction =
  | RollAction
  /** Set aside dice (indices 0..4) between throws. */
  | { readonly type: 'hold'; readonly dice: readonly number[] }
  /** Put set-aside dice (indices 0..4) back into the next throw. */
  | { readonly type: 'release'; readonly dice: readonly number[] }
  | { readonly type: 'score'; readonly category: Category };

/** Scoreboard breakdown of one player's card. */
export interface Totals {
  readonly upper: number;
  readonly upperBonus: number;
  readonly lower: number;
  readonly pokerBonus: number;
  readonly total: number;
}

/** One row a player may score the current dice in, and what it would give. */
export interface ScoreChoice {
  readonly category: Category;
  readonly points: number;
}

// ---------------------------------------------------------------------------
// Pure scoring helpers

function assertDice(dice: readonly number[]): void {
  // Callers hand over complete throws; anything else is a bug, not a player's mistake.
  if (dice.length !== DICE_COUNT || !dice.every(isDieValue)) {
    throw new RangeError(`Expected ${DICE_COUNT} dice with values 1..6, got [${dice.join(', ')}]`);
  }
}

const hasRun = (dice: readonly number[], length: number): boolean => {
  const faces = new Set(dice);
  for (let start = 1; start + length - 1 <= 6; start++) {
    let ok = true;
    for (let f = start; f < start + length; f++) if (!faces.has(f)) ok = false;
    if (ok) return true;
  }
  return false;
};

/** True when all five dice show the same face. */
export function isFiveOfAKind(dice: readonly number[]): boolean {
  assertDice(dice);
  return dice.every((d) => d === dice[0]);
}

/**
 * Points a throw scores in a row by the normal rules (no Joker). A throw
 * that misses a row's requirement scores 0 there.
 */
export function scoreCategory(dice: readonly number[], category: Category, options: ScoringRules = DEFAULT_OPTIONS): number {
  assertDice(dice);
  const counts = faceCounts(dice);
  const maxCount = Math.max(...counts);
  const total = sum(dice);
  if (isUpper(category)) {
    const face = UPPER_CATEGORIES.indexOf(category) + 1;
    return face * (counts[face] ?? 0);
  }
  switch (category) {
    case 'pair':
      return maxCount >= 2 ? total : 0;
    case 'twoPairs': {
      // Two different values with 2+ dice each (a full house qualifies); four or
      // five of one value only when the option allows pairs of the same value.
      const pairedValues = counts.filter((c) => c >= 2).length;
      const ok = pairedValues >= 2 || (options.twoPairsAllowFourOfAKind && maxCount >= 4);
      return ok ? total : 0;
    }
    case 'threeOfAKind':
      return maxCount >= 3 ? total : 0;
    case 'fourOfAKind':
      return maxCount >= 4 ? total : 0;
    case 'fullHouse': {
      const shape = counts.filter((c) => c > 0).sort((a, b) => a - b);
      const ok = (shape.length === 2 && shape[0] === 2 && shape[1] === 3) || (options.fullHouseAllowsFiveOfAKind && maxCount === 5);
      return ok ? FULL_HOUSE_POINTS : 0;
    }
    case 'smallStraight':
      return hasRun(dice, 4) ? SMALL_STRAIGHT_POINTS : 0;
    case 'largeStraight':
      return hasRun(dice, 5) ? LARGE_STRAIGHT_POINTS : 0;
    case 'poker':
      return maxCount === 5 ? POKER_POINTS : 0;
    case 'chance':
      return total;
  }
}

/** Points of a five of a kind placed on a lower row as a Joker. */
export function jokerScore(dice: readonly number[], category: LowerCategory, options: ScoringRules & Pick<DicePokerOptions, 'jokerFixedValues'> = DEFAULT_OPTIONS): number {
  if (!options.jokerFixedValues) return scoreCategory(dice, category, options);
  switch (category) {
    case 'fullHouse':
      return FULL_HOUSE_POINTS;
    case 'smallStraight':
      return SMALL_STRAIGHT_POINTS;
    case 'largeStraight':
      return LARGE_STRAIGHT_POINTS;
    case 'poker':
      return POKER_POINTS; // unreachable in play: the Joker needs a filled Poker row
    default:
      assertDice(dice);
      return sum(dice);
  }
}

/** True when this throw earns the extra-Poker bonus: five of a kind over a Poker row holding 50. */
export function pokerBonusDue(card: Card, dice: readonly number[]): boolean {
  return isFiveOfAKind(dice) && card.poker !== null && card.poker > 0;
}

/** True when the Joker placement rule binds this throw. */
export function jokerApplies(card: Card, dice: readonly number[], options: Pick<DicePokerOptions, 'jokerWhenPokerScratched'> = DEFAULT_OPTIONS): boolean {
  if (!isFiveOfAKind(dice) || card.poker === null) return false;
  return card.poker > 0 || options.jokerWhenPokerScratched;
}

/**
 * Every row the player may score these dice in, with the points, in
 * scorecard order. Under the Joker rule only the forced rows are listed:
 * the face's upper row if empty; else the empty lower rows (Joker values);
 * else 0 in any empty upper row.
 */
export function scoreChoices(card: Card, dice: readonly number[], options: DicePokerOptions = DEFAULT_OPTIONS): ScoreChoice[] {
  const empty = CATEGORIES.filter((c) => card[c] === null);
  if (!jokerApplies(card, dice, options)) {
    return empty.map((category) => ({ category, points: scoreCategory(dice, category, options) }));
  }
  const face = dice[0] ?? 1;
  const faceRow = UPPER_CATEGORIES[face - 1] ?? 'aces';
  if (card[faceRow] === null) return [{ category: faceRow, points: scoreCategory(dice, faceRow, options) }];
  const lower = LOWER_CATEGORIES.filter((c) => card[c] === null);
  if (lower.length > 0) return lower.map((category) => ({ category, points: jokerScore(dice, category, options) }));
  return UPPER_CATEGORIES.filter((c) => card[c] === null).map((category) => ({ category, points: 0 }));
}

const rowSum = (card: Card, rows: readonly Category[]): number => sum(rows.map((c) => card[c] ?? 0));

/** Upper bonus earned by a card so far (it can only grow, so it is shown as soon as it is reached). */
export function upperBonusFor(card: Card, options: Pick<DicePokerOptions, 'upperBonusThreshold' | 'upperBonusComparison' | 'upperBonus'> = DEFAULT_OPTIONS): number {
  const upper = rowSum(card, UPPER_CATEGORIES);
  const reached = options.upperBonusComparison === '>' ? upper > options.upperBonusThreshold : upper >= options.upperBonusThreshold;
  return reached ? options.upperBonus : 0;
}

/** Scoreboard breakdown; empty rows count 0. */
export function totals(player: DicePokerPlayer, options: DicePokerOptions = DEFAULT_OPTIONS): Totals {
  const upper = rowSum(player.card, UPPER_CATEGORIES);
  const upperBonus = upperBonusFor(player.card, options);
  const lower = rowSum(player.card, LOWER_CATEGORIES);
  return { upper, upperBonus, lower, pokerBonus: player.pokerBonus, total: upper + upperBonus + lower + player.pokerBonus };
}

/** An all-empty scorecard. */
export function emptyCard(): Card {
  const card = {} as Record<Category, number | null>;
  for (const c of CATEGORIES) card[c] = null;
  return card;
}

// ---------------------------------------------------------------------------
// Setup validation

function checkOptions(given: Partial<DicePokerOptions> | undefined): DicePokerOptions {
  return resolveOptions<DicePokerOptions>('Dice Poker', OPTION_SPECS, given);
}

function checkPlayers(players: readonly string[]): void {
  checkSeats('Dice Poker', players, dicePoker.minPlayers, dicePoker.maxPlayers);
}

// ---------------------------------------------------------------------------
// The game

const unheldSlots = (held: readonly boolean[]): number[] => held.flatMap((h, i) => (h ? [] : [i]));

/** The five dice of a state once thrown, or null before the first throw. */
function thrownDice(state: DicePokerState): number[] | null {
  if (state.throwsTaken === 0) return null;
  const dice = state.dice.filter(isDieValue);
  return dice.length === DICE_COUNT ? dice : null;
}

function currentPlayer(state: DicePokerState): DicePokerPlayer {
  const p = state.players[state.current];
  if (p === undefined) throw new RangeError(`State has no player ${state.current}`);
  return p;
}

function applyRoll(state: DicePokerState, values: unknown): DicePokerState | InvalidAction {
  if (state.throwsTaken >= state.options.maxThrows) {
    return invalid('game/no_throws_left', `All ${state.options.maxThrows} throws of this turn are used; score a row.`);
  }
  const request = dicePoker.diceRequest(state);
  if (request === null) return invalid('game/all_dice_held', 'All five dice are held, so there is nothing to throw; release a die or score a row.');
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const badValue = values.find((v) => !isDieValue(v));
  if (badValue !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(badValue)}.`);
  const dice = [...state.dice];
  request.slots.forEach((slot, i) => {
    dice[slot] = values[i] as number;
  });
  return { ...state, dice, throwsTaken: state.throwsTaken + 1 };
}

function applyHold(state: DicePokerState, indices: unknown, hold: boolean): DicePokerState | InvalidAction {
  const verb = hold ? 'hold' : 'release';
  if (state.throwsTaken === 0) return invalid('game/no_throw_yet', `Dice can only be set aside after the first throw; there is nothing to ${verb} yet.`);
  if (state.throwsTaken >= state.options.maxThrows) {
    return invalid('game/no_throws_left', `All ${state.options.maxThrows} throws are used, so setting dice aside no longer matters; score a row.`);
  }
  if (!Array.isArray(indices) || indices.length === 0) return invalid('game/bad_die_index', `Name the dice to ${verb} by index 0 to 4.`);
  const badIndex = indices.find((i) => typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= DICE_COUNT);
  if (badIndex !== undefined) return invalid('game/bad_die_index', `Dice are numbered 0 to 4; cannot ${verb} ${show(badIndex)}.`);
  const held = state.held.map((h, i) => ((indices as number[]).includes(i) ? hold : h));
  return { ...state, held };
}

function applyScore(state: DicePokerState, category: unknown): DicePokerState | InvalidAction {
  const dice = thrownDice(state);
  if (dice === null) return invalid('game/no_throw_yet', 'Throw the dice before scoring a row.');
  if (!isCategory(category)) return invalid('game/unknown_category', `There is no scorecard row called ${show(category)}.`);
  const player = currentPlayer(state);
  if (player.card[category] !== null) {
    return invalid('game/category_filled', `${player.name} has already filled ${CATEGORY_LABELS[category]}; each row is filled only once.`);
  }
  const choices = scoreChoices(player.card, dice, state.options);
  const choice = choices.find((c) => c.category === category);
  if (choice === undefined) {
    // Only the Joker rule removes empty rows from the choices.
    const allowed = choices.map((c) => CATEGORY_LABELS[c.category]).join(', ');
    return invalid('game/joker_forces', `Five of a kind with Poker already filled is a Joker: it must go in ${allowed}, not ${CATEGORY_LABELS[category]}.`);
  }
  const bonus = pokerBonusDue(player.card, dice) ? state.options.pokerBonus : 0;
  const scored: DicePokerPlayer = {
    ...player,
    card: { ...player.card, [category]: choice.points },
    pokerBonus: player.pokerBonus + bonus,
  };
  const players = state.players.map((p, i) => (i === state.current ? scored : p));
  const lastInRound = state.current === state.players.length - 1;
  const over = lastInRound && state.round >= state.options.turns;
  return {
    ...state,
    players,
    current: over ? state.current : lastInRound ? 0 : state.current + 1,
    round: lastInRound && !over ? state.round + 1 : state.round,
    throwsTaken: 0,
    dice: Array<number | null>(DICE_COUNT).fill(null),
    held: Array<boolean>(DICE_COUNT).fill(false),
    over,
  };
}

/** The scorecard as the scoreboard draws it: rows in card order with the computed rows between. */
function board(state: DicePokerState): ScorecardBoard {
  const o = state.options;
  const rows: ScorecardBoard['rows'][number][] = [
    ...UPPER_CATEGORIES.map((id) => ({ id, label: CATEGORY_LABELS[id], kind: 'score' as const })),
    { id: 'upperTotal', label: 'Upper total', kind: 'subtotal' },
    { id: 'upperBonus', label: `Upper bonus (${o.upperBonusThreshold}${o.upperBonusComparison === '>=' ? '+' : '<'})`, kind: 'bonus' },
    ...LOWER_CATEGORIES.map((id) => ({ id, label: CATEGORY_LABELS[id], kind: 'score' as const })),
    { id: 'pokerBonus', label: 'Poker bonus', kind: 'bonus' },
    { id: 'total', label: 'Total', kind: 'total' },
  ];
  const players = state.players.map((p) => {
    const t = totals(p, o);
    return { name: p.name, cells: { ...p.card, upperTotal: t.upper, upperBonus: t.upperBonus, pokerBonus: t.pokerBonus, total: t.total } };
  });
  const dice = thrownDice(state);
  const current = state.over ? null : state.current;
  const name = state.players[state.current]?.name ?? '';
  const status = state.over
    ? 'Game over'
    : state.throwsTaken === 0
      ? `${name}: throw the dice`
      : state.throwsTaken < o.maxThrows
        ? `${name}: hold dice and throw again, or score a row`
        : `${name}: score a row`;
  const say = state.over
    ? boardSay('gameOver')
    : state.throwsTaken === 0
      ? boardSay('throwTheDice', { name })
      : state.throwsTaken < o.maxThrows
        ? boardSay('holdOrScore', { name })
        : boardSay('scoreARow', { name });
  return {
    kind: 'scorecard',
    status,
    say,
    current,
    dice: state.dice,
    held: state.held,
    rows,
    players,
    choices: dice && !state.over ? scoreChoices(currentPlayer(state).card, dice, o).map((c) => ({ row: c.category, points: c.points })) : [],
    panels: [
      {
        id: 'turn',
        label: 'Turn',
        items: [
          { id: 'round', label: 'Round', value: `${state.round} of ${o.turns}`, valueSay: valueSay('of', { number: state.round, of: o.turns }) },
          { id: 'throw', label: 'Throw', value: `${state.throwsTaken} of ${o.maxThrows}`, valueSay: valueSay('of', { number: state.throwsTaken, of: o.maxThrows }) },
        ],
      },
    ],
  };
}

/** Rows a greedy bot settles for without throwing again. */
const GOOD_ENOUGH = 25;

/**
 * A greedy player: keeps the dice of its most common face and throws the
 * rest while throws are left and nothing scores well; then takes the row
 * that scores most.
 */
function bot(state: DicePokerState, random: () => number): DicePokerAction | null {
  const dice = thrownDice(state);
  if (dice === null) return null;
  const choices = scoreChoices(currentPlayer(state).card, dice, state.options);
  const best = choices.reduce((a, b) => (b.points > a.points || (b.points === a.points && random() < 0.5) ? b : a), choices[0] as ScoreChoice);
  if (state.throwsTaken >= state.options.maxThrows || best.points >= GOOD_ENOUGH) return { type: 'score', category: best.category };
  const counts = faceCounts(dice);
  const face = counts.indexOf(Math.max(...counts.slice(1)));
  const keep = dice.map((d) => d === face);
  const change = keep.findIndex((k, i) => k !== state.held[i]);
  if (change >= 0) return { type: keep[change] ? 'hold' : 'release', dice: [change] };
  // Five of a kind that scores little here: nothing better to throw for.
  if (keep.every(Boolean)) return { type: 'score', category: best.category };
  return null;
}

export const dicePoker: GameDef<DicePokerState, DicePokerAction, DicePokerOptions> = {
  id: 'dice-poker',
  name: 'Dice Poker',
  minPlayers: 1,
  maxPlayers: 6,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    'A Yahtzee-style scorecard game for 1-6 players. Each turn, throw five dice up to three times, setting aside any dice between throws, then write the result in one empty row of your 15-row card (aces to sixes, pair, two pairs, three and four of a kind, full house, small and large straight, poker, chance). 63 or more in the upper rows earns 35 bonus points; every extra poker earns 100. Highest total wins.',
  dice: { count: 5, colours: [], sizes: [] },
  optionSpecs: OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = checkOptions(options);
    checkPlayers(players);
    return {
      game: 'dice-poker',
      options: opts,
      players: players.map((name) => ({ name, card: emptyCard(), pokerBonus: 0 })),
      current: 0,
      throwsTaken: 0,
      dice: Array<number | null>(DICE_COUNT).fill(null),
      held: Array<boolean>(DICE_COUNT).fill(false),
      round: 1,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over || state.throwsTaken >= state.options.maxThrows) return null;
    // Throw 1 always rolls all five: holds are cleared when a turn starts.
    const slots = state.throwsTaken === 0 ? [0, 1, 2, 3, 4] : unheldSlots(state.held);
    if (slots.length === 0) return null;
    return { count: slots.length, slots, player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return invalid('game/over', 'The game is over; no more actions are accepted.');
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown; dice?: unknown; category?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'hold':
        return applyHold(state, a.dice, true);
      case 'release':
        return applyHold(state, a.dice, false);
      case 'score':
        return applyScore(state, a.category);
      default:
        return invalid('game/unknown_action', `Dice Poker has no action ${show(a?.type)}; use roll, hold, release or score.`);
    }
  },

  legalActions(state) {
    const dice = thrownDice(state);
    if (state.over || dice === null) return [];
    const actions: DicePokerAction[] = scoreChoices(currentPlayer(state).card, dice, state.options).map(({ category }) => ({
      type: 'score',
      category,
    }));
    if (state.throwsTaken < state.options.maxThrows) {
      state.held.forEach((h, i) => actions.push({ type: h ? 'release' : 'hold', dice: [i] }));
    }
    return actions;
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => totals(p, state.options).total);
    const best = Math.max(...scores);
    return { winners: scores.flatMap((s, i) => (s === best ? [i] : [])), scores };
  },
};
