/**
 * Just roll (`just-roll`): free rolls for any game the catalog does not know
 * (a game from another box, a role-playing evening). No rules: the tower
 * throws as many dice as asked (1-30), the players take turns throwing, and
 * the board keeps the sums and how often each face came up. The session ends
 * when the operator says so.
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { GameSetupError, invalid, type Board, type DiceRequest, type GameDef, type GameResult, type OptionSpec } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { faceCounts, isDieValue, sum } from './dice.js';
import { gameSay } from './board-text.js';

export const JUST_ROLL_MAX_DICE = 30;
/** Sums kept for the board's "Last sums" line. */
const RECENT_SUMS = 10;
/** The bot throws this many times, then ends the session (tests and empty tables). */
const BOT_THROWS = 12;
/** A colour is a plain lower-case name; whether the camera knows it is the camera's to say (the table refuses unsure readings). */
const COLOUR_NAME = /^[a-z][a-z-]{0,19}$/;

export interface JustRollOptions {
  /** Dice in each throw at the start (the `dice` action changes it). */
  readonly count: number;
}

export const JUST_ROLL_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'count', type: 'integer', default: 5, min: 1, max: JUST_ROLL_MAX_DICE, description: 'Dice in each throw (change it between throws).' },
];

export interface JustRollState {
  readonly options: JustRollOptions;
  readonly players: readonly string[];
  /** Dice in the next throw. */
  readonly count: number;
  /** Colour of each die of the next throw, in order, when colours matter; empty: any dice. */
  readonly colours: readonly string[];
  /** Seat whose throw is next: the seats take turns. */
  readonly thrower: number;
  /** The last throw's values, or null before the first throw (and after the number of dice changed). */
  readonly dice: readonly number[] | null;
  readonly throws: number;
  /** How often each face came up, faces 1..6 at indices 0..5. */
  readonly tally: readonly number[];
  /** Pips thrown and throws made, by seat. */
  readonly pips: readonly number[];
  readonly throwsBy: readonly number[];
  /** The latest throws' sums, oldest first. */
  readonly recentSums: readonly number[];
  readonly over: boolean;
}

export type JustRollAction =
  | { readonly type: 'roll'; readonly values: readonly number[] }
  | { readonly type: 'dice'; readonly count: number; readonly colours?: readonly string[] }
  | { readonly type: 'end' };

const other = (state: JustRollState): JustRollAction[] => [
  ...Array.from({ length: JUST_ROLL_MAX_DICE }, (_, i) => i + 1)
    .filter((n) => n !== state.count || state.colours.length > 0)
    .map((count) => ({ type: 'dice', count }) as const),
  ...(state.throws > 0 ? [{ type: 'end' } as const] : []),
];

function setup(players: readonly string[], given?: Partial<JustRollOptions>): JustRollState {
  checkPlayers('Just roll', players, 1, 10);
  const options = resolveOptions<JustRollOptions>('Just roll', JUST_ROLL_OPTION_SPECS, given);
  if (!Number.isInteger(options.count)) throw new GameSetupError('Option count must be a whole number.');
  const zeros = players.map(() => 0);
  return { options, players: [...players], count: options.count, colours: [], thrower: 0, dice: null, throws: 0, tally: [0, 0, 0, 0, 0, 0], pips: zeros, throwsBy: zeros, recentSums: [], over: false };
}

function diceRequest(state: JustRollState): DiceRequest | null {
  if (state.over) return null;
  const slots = Array.from({ length: state.count }, (_, i) => i);
  return {
    count: state.count,
    slots,
    player: state.thrower,
    secret: false,
    ...(state.colours.length > 0 ? { dice: state.colours.map((colour) => ({ colour, size: 'normal' as const })) } : {}),
  };
}

/** Why a `dice` action cannot set the next throw, or null. */
function diceProblem(count: unknown, colours: unknown): string | null {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > JUST_ROLL_MAX_DICE) return `Throw 1 to ${JUST_ROLL_MAX_DICE} dice; got ${String(count)}.`;
  if (colours === undefined) return null;
  if (!Array.isArray(colours)) return 'Colours must be a list of colour names, one per die.';
  if (colours.length > 0 && colours.length !== count) return `Name one colour per die: ${count} dice, ${colours.length} colours.`;
  const bad = colours.find((c) => typeof c !== 'string' || !COLOUR_NAME.test(c));
  return bad === undefined ? null : `'${String(bad)}' is not a colour name (lower-case letters, e.g. red).`;
}

function apply(state: JustRollState, action: JustRollAction): JustRollState | ReturnType<typeof invalid> {
  if (state.over) return invalid('game/over', 'This session of free rolls has ended; start a new one.');
  switch (action.type) {
    case 'roll': {
      const values = (action as { values?: unknown }).values;
      if (!Array.isArray(values) || values.length !== state.count || !values.every(isDieValue)) {
        return invalid('game/bad_roll', `This throw needs ${state.count} dice values from 1 to 6.`);
      }
      const counts = faceCounts(values);
      const total = sum(values);
      const seat = state.thrower;
      return {
        ...state,
        dice: [...values],
        throws: state.throws + 1,
        tally: state.tally.map((n, i) => n + (counts[i + 1] ?? 0)),
        pips: state.pips.map((p, i) => (i === seat ? p + total : p)),
        throwsBy: state.throwsBy.map((t, i) => (i === seat ? t + 1 : t)),
        recentSums: [...state.recentSums, total].slice(-RECENT_SUMS),
        thrower: (seat + 1) % state.players.length,
      };
    }
    case 'dice': {
      const { count, colours } = action as { count?: unknown; colours?: unknown };
      const problem = diceProblem(count, colours);
      if (problem) return invalid('game/bad_dice', problem);
      const n = count as number;
      const named = (colours as string[] | undefined) ?? [];
      if (n === state.count && named.join() === state.colours.join()) return invalid('game/bad_dice', `The next throw already has ${n} ${n === 1 ? 'die' : 'dice'}.`);
      return { ...state, count: n, colours: [...named], dice: n === state.count ? state.dice : null };
    }
    case 'end':
      if (state.throws === 0) return invalid('game/nothing_thrown', 'Throw at least once before ending the session.');
      return { ...state, over: true };
    default:
      return invalid('game/unknown_action', `Just roll has no action '${String((action as { type: unknown }).type)}' (roll, dice, end).`);
  }
}

function result(state: JustRollState): GameResult | null {
  // Nobody wins free rolls: the scores are the pips each seat threw.
  return state.over ? { winners: [], scores: [...state.pips] } : null;
}

function board(state: JustRollState): Board {
  const last = state.dice;
  const request = diceRequest(state);
  const next = state.players[state.thrower] ?? '';
  const status = state.over
    ? `Session over: ${state.throws} ${state.throws === 1 ? 'throw' : 'throws'}.`
    : `${state.players.length > 1 ? `${next}: t` : 'T'}hrow ${state.count} ${state.count === 1 ? 'die' : 'dice'}${state.colours.length > 0 ? ` (${state.colours.join(', ')})` : ''}.`;
  const G = 'just-roll';
  const colours = state.colours.length > 0 ? state.colours.map((c) => ({ key: `common.diceLooks.${c}`, params: {} })) : null;
  const say = state.over
    ? gameSay(G, 'over', { count: state.throws })
    : gameSay(G, `${state.players.length > 1 ? 'throwFor' : 'throw'}${colours ? 'Coloured' : ''}`, { name: next, count: state.count, ...(colours ? { colours } : {}) });
  const dice = last ?? Array.from({ length: request?.count ?? state.count }, () => null);
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.thrower,
    dice,
    held: dice.map(() => false),
    columns: [
      { id: 'throws', label: 'Throws' },
      { id: 'pips', label: 'Pips' },
    ],
    players: state.players.map((name, i) => ({ name, values: { throws: state.throwsBy[i] ?? 0, pips: state.pips[i] ?? 0 }, out: false })),
    panels: [
      {
        id: 'throw',
        label: 'Throw',
        items: [
          { id: 'sum', label: 'Sum', value: last ? sum(last) : null, state: 'highlight' },
          { id: 'dice', label: 'Dice', value: state.count },
          { id: 'throws', label: 'Throws', value: state.throws },
          { id: 'lastSums', label: 'Last sums', value: state.recentSums.length > 0 ? state.recentSums.join(' ') : null },
        ],
      },
      {
        id: 'tally',
        label: 'Faces so far',
        items: state.tally.map((n, i) => ({ id: 'face', label: String(i + 1), params: { face: i + 1 }, value: n })),
      },
    ],
  };
}

export const justRoll: GameDef<JustRollState, JustRollAction, JustRollOptions> = {
  id: 'just-roll',
  name: 'Just roll',
  minPlayers: 1,
  maxPlayers: 10,
  defaultOptions: { count: 5 },
  summary:
    'Free rolls for any game: a game from another box, a role-playing evening. Choose how many dice go into the tower (1 to 30, and which colours when the camera knows them); each throw is read, shown big with its camera frame, and recorded and counted in the fairness test like any game. Players take turns throwing; the board keeps each throw\u2019s sum, the pips per player and how often each face came up. End the session when you are done.',
  dice: { count: JUST_ROLL_MAX_DICE, colours: [], sizes: [], note: 'Any number of dice up to 30; colours only when the camera has been calibrated for them.' },
  optionSpecs: JUST_ROLL_OPTION_SPECS,
  setup,
  diceRequest,
  apply,
  legalActions: (state) => (state.over ? [] : other(state)),
  result,
  board,
  playerView: (state) => state,
  // Throws a dozen times, then ends: free rolls have no goal to play for.
  bot: (state) => (state.throws >= BOT_THROWS ? { type: 'end' } : null),
};
