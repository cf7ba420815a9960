/**
 * Busted (`busted`, Finnish "Puilla paljailla"): two dice, a board of
 * fields 3-11. A sum puts that many counters on its empty field, or takes
 * the counters lying there; 7 always adds to the "prison"; 2 or 12 sweeps the
 * whole board and forces another throw. Players with no counters are out;
 * the last one with counters wins. Rules: shared/rules/busted.md; every
 * option below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { actionType, checkThrow, gameOver, nextSeat, unknownAction } from './small-dice-common.js';
import { boardSay, gameSay, gameValue, winnersSay } from './board-text.js';

/** Board fields, in order; `fields[i]` holds field `FIELDS[i]`. */
export const FIELDS = [3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
/** The field a 7 always adds to. */
export const PRISON = 7;

const fieldIndex = (sum: number): number => sum - FIELDS[0];
const isSweep = (sum: number): boolean => sum === 2 || sum === 12;

// ---------------------------------------------------------------------------
// Options

export interface BustedOptions {
  /** Counters per player ("about 25-30 each"). Spec ambiguity 1. */
  readonly countersPerPlayer: number;
  /** The turn ends after putting counters on field 7. Spec ambiguity 2. */
  readonly turnEndsAfterSeven: boolean;
  /** A second 2 or 12 fills field 7 too (63 counters in all). Spec ambiguity 4. */
  readonly fillIncludesSeven: boolean;
}

export const BUSTED_DEFAULT_OPTIONS: BustedOptions = { countersPerPlayer: 30, turnEndsAfterSeven: true, fillIncludesSeven: true };

export const BUSTED_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'countersPerPlayer', type: 'integer', default: 30, min: 1, max: 200, description: 'Counters each player starts with (the booklet says about 25-30).' },
  { name: 'turnEndsAfterSeven', type: 'boolean', default: true, description: 'The turn ends after putting counters on field 7; when off, the player may throw again or stop, as after taking counters.' },
  { name: 'fillIncludesSeven', type: 'boolean', default: true, description: 'A forced throw of 2 or 12 fills field 7 too (63 counters in all).' },
];

// ---------------------------------------------------------------------------
// State and actions

/** `throw`: the turn's first throw; `choice`: may throw again or stop; `forced`: must throw after a 2 or 12. */
export type BustedPhase = 'throw' | 'choice' | 'forced';

/** What the last throw did, for the scoreboard. */
export interface BustedEvent {
  readonly seat: number;
  readonly sum: number;
  /** `placed` on one field, `took` one field, `swept` the board, `filled` the board after a second 2 or 12. */
  readonly effect: 'placed' | 'took' | 'swept' | 'filled';
  readonly counters: number;
}

export interface BustedState {
  readonly game: 'busted';
  readonly options: BustedOptions;
  readonly players: ReadonlyArray<{ readonly name: string; readonly counters: number }>;
  /** Counters on fields 3..11 (index 0 is field 3). */
  readonly fields: readonly number[];
  /** Seat whose turn it is (the winner once the game is over). */
  readonly current: number;
  readonly phase: BustedPhase;
  /** The two dice on the table: the last throw, or nulls at the start of a turn. */
  readonly dice: readonly (number | null)[];
  readonly last: BustedEvent | null;
  readonly over: boolean;
}

export type BustedAction = RollAction | { readonly type: 'stop' };

// ---------------------------------------------------------------------------
// Pure rules

/** Counters a second 2 or 12 puts on each field, smallest first, from a supply of `has`. */
export function fillBoard(has: number, includeSeven: boolean): number[] {
  let left = has;
  return FIELDS.map((f) => {
    if (f === PRISON && !includeSeven) return 0;
    const put = Math.min(f, left);
    left -= put;
    return put;
  });
}

interface Outcome {
  readonly fields: readonly number[];
  /** Change to the thrower's supply. */
  readonly delta: number;
  readonly event: BustedEvent['effect'];
  /** What happens next: the turn ends, the player may throw again, or must throw. */
  readonly next: 'end' | 'choice' | 'forced';
}

/**
 * What a throw summing `sum` does, for a player holding `has` counters.
 * `forced` is the throw right after a 2 or 12.
 */
export function throwOutcome(fields: readonly number[], has: number, sum: number, forced: boolean, options: BustedOptions = BUSTED_DEFAULT_OPTIONS): Outcome {
  if (isSweep(sum)) {
    if (forced) {
      const put = fillBoard(has, options.fillIncludesSeven);
      return { fields: fields.map((c, i) => c + (put[i] ?? 0)), delta: -put.reduce((a, b) => a + b, 0), event: 'filled', next: 'end' };
    }
    const all = fields.reduce((a, b) => a + b, 0);
    return { fields: fields.map(() => 0), delta: all, event: 'swept', next: 'forced' };
  }
  const i = fieldIndex(sum);
  const there = fields[i] ?? 0;
  // After a sweep the board is empty, so a forced throw always places.
  if (sum !== PRISON && there > 0 && !forced) {
    return { fields: fields.map((c, j) => (j === i ? 0 : c)), delta: there, event: 'took', next: 'choice' };
  }
  const put = Math.min(sum, has);
  const next = sum === PRISON && !forced && !options.turnEndsAfterSeven ? 'choice' : 'end';
  return { fields: fields.map((c, j) => (j === i ? c + put : c)), delta: -put, event: 'placed', next };
}

// ---------------------------------------------------------------------------
// The game's moves

const inGame = (state: BustedState) => (seat: number) => (state.players[seat]?.counters ?? 0) > 0;

/** The turn passes to the next player with counters; when only one is left, they win and take the board. */
function endTurn(state: BustedState): BustedState {
  const left = state.players.filter((p) => p.counters > 0).length;
  if (left <= 1) {
    const winner = state.players.findIndex((p) => p.counters > 0);
    const board = state.fields.reduce((a, b) => a + b, 0);
    const players = state.players.map((p, i) => (i === winner ? { ...p, counters: p.counters + board } : p));
    return { ...state, players, fields: state.fields.map(() => 0), current: winner, phase: 'throw', over: true };
  }
  const next = nextSeat(state.current, state.players.length, inGame(state));
  if (next === null) throw new RangeError('No player left to take a turn');
  return { ...state, current: next, phase: 'throw', dice: [null, null] };
}

function applyRoll(state: BustedState, values: unknown): BustedState | InvalidAction {
  const dice = checkThrow(busted.diceRequest(state), values);
  if (!Array.isArray(dice)) return dice;
  const sum = (dice[0] ?? 0) + (dice[1] ?? 0);
  const seat = state.current;
  const has = state.players[seat]?.counters ?? 0;
  const out = throwOutcome(state.fields, has, sum, state.phase === 'forced', state.options);
  const players = state.players.map((p, i) => (i === seat ? { ...p, counters: p.counters + out.delta } : p));
  const s: BustedState = { ...state, players, fields: out.fields, dice, last: { seat, sum, effect: out.event, counters: Math.abs(out.delta) } };
  // "When you lose your last counter you are out", whatever the throw would allow next.
  if (out.next === 'end' || (players[seat]?.counters ?? 0) === 0) return endTurn(s);
  return { ...s, phase: out.next };
}

// ---------------------------------------------------------------------------
// Scoreboard and bot

const EVENT_TEXT: Readonly<Record<BustedEvent['effect'], string>> = { placed: 'put down', took: 'took', swept: 'swept the board and took', filled: 'filled the board with' };

function board(state: BustedState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  const status = state.over
    ? `Game over: ${name} wins`
    : state.phase === 'forced'
      ? `${name}: forced throw after a ${state.last?.sum ?? 2}`
      : state.phase === 'choice'
        ? `${name}: throw again or stop`
        : `${name}: throw both dice`;
  const say = state.over
    ? winnersSay([name])
    : state.phase === 'forced'
      ? gameSay('busted', 'forced', { name, sum: state.last?.sum ?? 2 })
      : state.phase === 'choice'
        ? boardSay('throwAgainOrStop', { name })
        : boardSay('throwBothDice', { name });
  const last = state.last;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false],
    columns: [{ id: 'counters', label: 'Counters' }],
    players: state.players.map((p, i) => ({ name: p.name, values: { counters: p.counters }, out: p.counters === 0 && !(state.over && i === state.current) })),
    panels: [
      {
        id: 'fields',
        label: 'Board',
        items: state.fields.map((c, i) => ({
          ...(FIELDS[i] === PRISON ? { id: 'prison', label: 'Field 7 (prison)' } : { id: 'field', label: `Field ${FIELDS[i]}`, params: { number: FIELDS[i] ?? 0 } }),
          value: c, state: c > 0 ? ('closed' as const) : ('open' as const) })),
      },
      {
        id: 'last',
        label: 'Last throw',
        items: last === null ? [] : [
                {
                  id: 'threw',
                  label: `${state.players[last.seat]?.name ?? ''} threw ${last.sum}`,
                  params: { name: state.players[last.seat]?.name ?? '', sum: last.sum },
                  value: `${EVENT_TEXT[last.effect]} ${last.counters}`,
                  valueSay: gameValue('busted', last.effect, { count: last.counters }),
                },
              ],
      },
    ],
  };
}

/** Chance of each sum of two dice, for sums 2..12 (index = sum). */
const SUM_CHANCE = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1].map((w) => w / 36);

/** Rough counters a forced throw costs on average: a placement of about 7. */
const FORCED_COST = 7;

/**
 * Expected change of the supply from one more throw: takes from full
 * fields, placements on empty ones and on 7, a sweep minus the forced
 * placement after it.
 */
export function throwAgainValue(fields: readonly number[], has: number): number {
  const board = fields.reduce((a, b) => a + b, 0);
  let value = 0;
  for (let sum = 2; sum <= 12; sum++) {
    const there = fields[fieldIndex(sum)] ?? 0;
    const gain = isSweep(sum) ? board - FORCED_COST : sum !== PRISON && there > 0 ? there : -Math.min(sum, has);
    value += (SUM_CHANCE[sum] ?? 0) * gain;
  }
  return value;
}

/** Throws again while one more throw is worth it on average. */
function bot(state: BustedState): BustedAction | null {
  if (state.phase !== 'choice') return null;
  return throwAgainValue(state.fields, state.players[state.current]?.counters ?? 0) > 0 ? null : { type: 'stop' };
}

// ---------------------------------------------------------------------------
// The game

export const busted: GameDef<BustedState, BustedAction, BustedOptions> = {
  id: 'busted',
  name: 'Busted',
  minPlayers: 3,
  maxPlayers: 10,
  defaultOptions: BUSTED_DEFAULT_OPTIONS,
  summary:
    'A two-dice counter game for 3-10 players with 30 counters each and a board of fields 3 to 11; only the sum of the dice counts. On an empty field put as many counters as its number and end your turn; on a field holding counters take them all and choose to throw again or stop. A 7 always adds 7 counters to field 7, the prison. A 2 or 12 wins everything on the board but forces another throw, and a second 2 or 12 then fills every field with its own number. Whoever runs out of counters is out; the last player with counters wins them all.',
  dice: { count: 2, colours: [], sizes: [] },
  optionSpecs: BUSTED_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<BustedOptions>('Busted', BUSTED_OPTION_SPECS, options);
    checkPlayers('Busted', players, busted.minPlayers, busted.maxPlayers);
    return {
      game: 'busted',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.countersPerPlayer })),
      fields: FIELDS.map(() => 0),
      current: 0,
      phase: 'throw',
      dice: [null, null],
      last: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    return state.over ? null : { count: 2, slots: [0, 1], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    const type = actionType(action);
    switch (type) {
      case 'roll':
        return applyRoll(state, (action as { values?: unknown }).values);
      case 'stop':
        if (state.phase === 'forced') return invalid('game/forced_throw', 'After a 2 or 12 the next throw is forced; throw the dice.');
        if (state.phase !== 'choice') return invalid('game/no_choice_now', 'You may only stop after taking counters from a field; throw the dice.');
        return endTurn(state);
      default:
        return unknownAction('Busted', type, 'roll or stop');
    }
  },

  legalActions(state) {
    return !state.over && state.phase === 'choice' ? [{ type: 'stop' }] : [];
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    return { winners: [state.current], scores: state.players.map((p) => p.counters) };
  },
};
