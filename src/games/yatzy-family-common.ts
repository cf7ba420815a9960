/**
 * Shared pieces of the Yatzy family (`yatzy`, `maxi-yatzy`, `cameroon`,
 * `poker-dice`): dice helpers, and one scorecard turn engine (throw up to N
 * times, hold dice between throws, fill one empty row) that the three
 * scorecard games configure with their rows and scoring.
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardPanel, DiceRequest, GameResult, InvalidAction, OptionSpec, RollAction, ScorecardBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { isDieValue, faceCounts, show as showValue, sum as sumOf } from './dice.js';
import { boardSay, valueSay } from './board-text.js';

// Re-exported: the yatzy-family games take them from here.
export { isDieValue, faceCounts, showValue, sumOf };

// ---------------------------------------------------------------------------
// Dice helpers

/** Faces (6 down to 1) that show on at least `n` dice, highest first. */
export function facesWithAtLeast(dice: readonly number[], n: number): number[] {
  const counts = faceCounts(dice);
  const out: number[] = [];
  for (let f = 6; f >= 1; f--) if ((counts[f] ?? 0) >= n) out.push(f);
  return out;
}

/** True when the dice show every face of `faces` (any extra dice allowed). */
export const showsAll = (dice: readonly number[], faces: readonly number[]): boolean => faces.every((f) => dice.includes(f));

/** Seats with the best score; a tie is shared, or wins nobody under `'noWinner'`. */
export function topSeats(scores: readonly number[], tie: 'shared' | 'noWinner' = 'shared'): number[] {
  const best = Math.max(...scores);
  const top = scores.flatMap((s, i) => (s === best ? [i] : []));
  return top.length > 1 && tie === 'noWinner' ? [] : top;
}

/** Checks a roll action's values against the request; null when they fit. */
export function checkRollValues(request: DiceRequest, values: unknown): InvalidAction | null {
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${showValue(bad)}.`);
  return null;
}

/** Checks a hold/release list of dice indices; null when it is usable. */
export function checkDieIndices(indices: unknown, count: number, verb: string): InvalidAction | null {
  if (!Array.isArray(indices) || indices.length === 0) return invalid('game/bad_die_index', `Name the dice to ${verb} by index 0 to ${count - 1}.`);
  const bad = indices.find((i) => typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= count);
  if (bad !== undefined) return invalid('game/bad_die_index', `Dice are numbered 0 to ${count - 1}; cannot ${verb} ${showValue(bad)}.`);
  return null;
}

/** The dice the greedy bots keep: every die of the most common face (the higher face on a tie). */
export function keepMostCommon(dice: readonly number[]): boolean[] {
  const counts = faceCounts(dice);
  let face = 6;
  for (let f = 6; f >= 1; f--) if ((counts[f] ?? 0) > (counts[face] ?? 0)) face = f;
  return dice.map((d) => d === face);
}

// ---------------------------------------------------------------------------
// Scorecard engine

export type Card<C extends string> = Readonly<Record<C, number | null>>;

export interface ScorecardPlayer<C extends string> {
  readonly name: string;
  /** Points per row; null while the row is empty. */
  readonly card: Card<C>;
}

/** What every scorecard game's state holds; a game may add fields (Maxi Yatzy's saved throws). */
export interface ScorecardState<C extends string, O> {
  readonly game: string;
  readonly options: O;
  readonly players: readonly ScorecardPlayer<C>[];
  /** Seat whose turn it is (the last scorer once the game is over). */
  readonly current: number;
  /** Throws used in the current turn. */
  readonly throwsTaken: number;
  /** The dice; all null before the first throw of a turn. */
  readonly dice: readonly (number | null)[];
  /** Dice kept between throws; cleared at the start of every turn. */
  readonly held: readonly boolean[];
  /** Current round, 1-based (one row filled per player per round). */
  readonly round: number;
  readonly over: boolean;
}

export type ScorecardAction<C extends string> =
  | RollAction
  /** Keep dice (by index) out of the next throw. */
  | { readonly type: 'hold'; readonly dice: readonly number[] }
  /** Put kept dice (by index) back into the next throw. */
  | { readonly type: 'release'; readonly dice: readonly number[] }
  | { readonly type: 'score'; readonly category: C };

export interface ScoreOption<C extends string> {
  readonly category: C;
  readonly points: number;
}

type Row = ScorecardBoard['rows'][number];

/** What a scorecard game tells the engine about itself. */
export interface ScorecardRules<C extends string, O, S extends ScorecardState<C, O>> {
  readonly id: string;
  readonly name: string;
  readonly minPlayers: number;
  readonly maxPlayers: number;
  readonly diceCount: number;
  readonly categories: readonly C[];
  readonly labels: Readonly<Record<C, string>>;
  readonly optionSpecs: readonly OptionSpec[];
  /** Points a complete throw scores in a row. */
  score(dice: readonly number[], category: C, options: O): number;
  /** Rows the card may fill now (all empty rows unless a variant restricts them). */
  openRows(card: Card<C>, options: O): C[];
  /** The computed cells (subtotals, bonuses, total) of a card. */
  computed(card: Card<C>, options: O): Readonly<Record<string, number>> & { readonly total: number };
  /** Rows in display order, score rows and computed ones. */
  rows(options: O): Row[];
  /** Throws the current player may use this turn. */
  throwLimit(state: S): number;
  /** Adds the game's own fields to a fresh state. */
  initial(base: ScorecardState<C, O>): S;
  /** Bookkeeping when a row is filled (before the turn passes on); default none. */
  afterScore?(before: S, after: S): S;
  /** How a tie for first place is settled. */
  tie(options: O): 'shared' | 'noWinner';
  /** Extra board panels. */
  panels?(state: S): BoardPanel[];
  /** Points the greedy bot settles for without throwing again. */
  readonly goodEnough: number;
}

export function emptyCardOf<C extends string>(categories: readonly C[]): Card<C> {
  const card = {} as Record<C, number | null>;
  for (const c of categories) card[c] = null;
  return card;
}

/** The engine's half of a GameDef, built from a game's rules. */
export interface ScorecardEngine<C extends string, O, S extends ScorecardState<C, O>> {
  setup(players: readonly string[], options?: Partial<O>): S;
  diceRequest(state: S): DiceRequest | null;
  apply(state: S, action: ScorecardAction<C>): S | InvalidAction;
  legalActions(state: S): ScorecardAction<C>[];
  result(state: S): GameResult | null;
  board(state: S): ScorecardBoard;
  playerView(state: S, viewer: number | null): S;
  bot(state: S, random: () => number): ScorecardAction<C> | null;
  /** Rows the current player may fill with these dice now, with their points. */
  choices(state: S): ScoreOption<C>[];
  /** Final score of one card. */
  total(card: Card<C>, options: O): number;
}

export function scorecardEngine<C extends string, O, S extends ScorecardState<C, O>>(rules: ScorecardRules<C, O, S>): ScorecardEngine<C, O, S> {
  const n = rules.diceCount;
  const allSlots = Array.from({ length: n }, (_, i) => i);
  const isCategory = (x: unknown): x is C => typeof x === 'string' && (rules.categories as readonly string[]).includes(x);

  const thrown = (state: S): number[] | null => {
    if (state.throwsTaken === 0) return null;
    const dice = state.dice.filter(isDieValue);
    return dice.length === n ? dice : null;
  };

  const player = (state: S): ScorecardPlayer<C> => {
    const p = state.players[state.current];
    if (p === undefined) throw new RangeError(`State has no player ${state.current}`);
    return p;
  };

  const choices = (state: S): ScoreOption<C>[] => {
    const dice = thrown(state);
    if (dice === null || state.over) return [];
    return rules.openRows(player(state).card, state.options).map((category) => ({ category, points: rules.score(dice, category, state.options) }));
  };

  const diceRequest = (state: S): DiceRequest | null => {
    if (state.over || state.throwsTaken >= rules.throwLimit(state)) return null;
    // The first throw of a turn rolls every die: holds are cleared when a turn starts.
    const slots = state.throwsTaken === 0 ? allSlots : allSlots.filter((i) => !state.held[i]);
    if (slots.length === 0) return null;
    return { count: slots.length, slots, player: state.current, secret: false };
  };

  const applyRoll = (state: S, values: unknown): S | InvalidAction => {
    const limit = rules.throwLimit(state);
    if (state.throwsTaken >= limit) return invalid('game/no_throws_left', `All ${limit} throws of this turn are used; score a row.`);
    const request = diceRequest(state);
    if (request === null) return invalid('game/all_dice_held', 'Every die is held, so there is nothing to throw; release a die or score a row.');
    const bad = checkRollValues(request, values);
    if (bad) return bad;
    const dice = [...state.dice];
    request.slots.forEach((slot, i) => {
      dice[slot] = (values as number[])[i] as number;
    });
    return { ...state, dice, throwsTaken: state.throwsTaken + 1 };
  };

  const applyHold = (state: S, indices: unknown, hold: boolean): S | InvalidAction => {
    const verb = hold ? 'hold' : 'release';
    if (state.throwsTaken === 0) return invalid('game/no_throw_yet', `Dice can only be kept after the first throw; there is nothing to ${verb} yet.`);
    if (state.throwsTaken >= rules.throwLimit(state)) return invalid('game/no_throws_left', 'No throws are left this turn, so keeping dice no longer matters; score a row.');
    const bad = checkDieIndices(indices, n, verb);
    if (bad) return bad;
    const held = state.held.map((h, i) => ((indices as number[]).includes(i) ? hold : h));
    return { ...state, held };
  };

  const applyScore = (state: S, category: unknown): S | InvalidAction => {
    if (thrown(state) === null) return invalid('game/no_throw_yet', 'Throw the dice before scoring a row.');
    if (!isCategory(category)) return invalid('game/unknown_category', `There is no ${rules.name} scorecard row called ${showValue(category)}.`);
    const p = player(state);
    if (p.card[category] !== null) return invalid('game/category_filled', `${p.name} has already filled ${rules.labels[category]}; each row is filled only once.`);
    const choice = choices(state).find((c) => c.category === category);
    if (choice === undefined) {
      const open = rules.openRows(p.card, state.options).map((c) => rules.labels[c]);
      return invalid('game/category_not_open', `${p.name} must fill ${open.join(', ')} now, not ${rules.labels[category]}.`);
    }
    const players = state.players.map((q, i) => (i === state.current ? { ...q, card: { ...q.card, [category]: choice.points } } : q));
    const scored: S = { ...state, players };
    const booked = rules.afterScore ? rules.afterScore(state, scored) : scored;
    const lastInRound = state.current === state.players.length - 1;
    const over = lastInRound && booked.players.every((q) => rules.categories.every((c) => q.card[c] !== null));
    return {
      ...booked,
      current: over ? state.current : lastInRound ? 0 : state.current + 1,
      round: lastInRound && !over ? state.round + 1 : state.round,
      throwsTaken: 0,
      dice: Array<number | null>(n).fill(null),
      held: Array<boolean>(n).fill(false),
      over,
    };
  };

  const total = (card: Card<C>, options: O): number => rules.computed(card, options).total;

  const board = (state: S): ScorecardBoard => {
    const o = state.options;
    const limit = rules.throwLimit(state);
    const name = state.players[state.current]?.name ?? '';
    const status = state.over
      ? 'Game over'
      : state.throwsTaken === 0
        ? `${name}: throw the dice`
        : state.throwsTaken < limit
          ? `${name}: keep dice and throw again, or score a row`
          : `${name}: score a row`;
    const say = state.over
      ? boardSay('gameOver')
      : state.throwsTaken === 0
        ? boardSay('throwTheDice', { name })
        : state.throwsTaken < limit
          ? boardSay('keepOrScore', { name })
          : boardSay('scoreARow', { name });
    return {
      kind: 'scorecard',
      status,
      say,
      current: state.over ? null : state.current,
      dice: state.dice,
      held: state.held,
      rows: rules.rows(o),
      players: state.players.map((p) => ({ name: p.name, cells: { ...p.card, ...rules.computed(p.card, o) } })),
      choices: choices(state).map((c) => ({ row: c.category, points: c.points })),
      panels: [
        {
          id: 'turn',
          label: 'Turn',
          items: [
            { id: 'round', label: 'Round', value: `${state.round} of ${rules.categories.length}`, valueSay: valueSay('of', { number: state.round, of: rules.categories.length }) },
            { id: 'throw', label: 'Throw', value: `${state.throwsTaken} of ${limit}`, valueSay: valueSay('of', { number: state.throwsTaken, of: limit }) },
          ],
        },
        ...(rules.panels ? rules.panels(state) : []),
      ],
    };
  };

  /**
   * A greedy player: keeps every die of its most common face and throws the
   * rest while throws are left and no row scores well; then fills the row
   * that scores most.
   */
  const bot = (state: S, random: () => number): ScorecardAction<C> | null => {
    const dice = thrown(state);
    if (dice === null) return null;
    const open = choices(state);
    const best = open.reduce((a, b) => (b.points > a.points || (b.points === a.points && random() < 0.5) ? b : a), open[0] as ScoreOption<C>);
    if (state.throwsTaken >= rules.throwLimit(state) || best.points >= rules.goodEnough) return { type: 'score', category: best.category };
    const keep = keepMostCommon(dice);
    const change = keep.findIndex((k, i) => k !== state.held[i]);
    if (change >= 0) return { type: keep[change] ? 'hold' : 'release', dice: [change] };
    // Every die already shows one face: nothing better to throw for.
    if (keep.every(Boolean)) return { type: 'score', category: best.category };
    return null;
  };

  return {
    setup(players, options) {
      const opts = resolveOptions<O>(rules.name, rules.optionSpecs, options);
      checkPlayers(rules.name, players, rules.minPlayers, rules.maxPlayers);
      return rules.initial({
        game: rules.id,
        options: opts,
        players: players.map((name) => ({ name, card: emptyCardOf(rules.categories) })),
        current: 0,
        throwsTaken: 0,
        dice: Array<number | null>(n).fill(null),
        held: Array<boolean>(n).fill(false),
        round: 1,
        over: false,
      });
    },
    diceRequest,
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
          return invalid('game/unknown_action', `${rules.name} has no action ${showValue(a?.type)}; use roll, hold, release or score.`);
      }
    },
    legalActions(state) {
      if (state.over || thrown(state) === null) return [];
      const actions: ScorecardAction<C>[] = choices(state).map(({ category }) => ({ type: 'score', category }));
      if (state.throwsTaken < rules.throwLimit(state)) state.held.forEach((h, i) => actions.push({ type: h ? 'release' : 'hold', dice: [i] }));
      return actions;
    },
    result(state) {
      if (!state.over) return null;
      const scores = state.players.map((p) => total(p.card, state.options));
      return { winners: topSeats(scores, rules.tie(state.options)), scores };
    },
    board,
    playerView: (state) => state,
    bot,
    choices,
    total,
  };
}
