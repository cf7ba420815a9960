/**
 * Big Six (`big-six`): one die, a board of six fields. A 1-5 puts a counter
 * on an empty field or takes back the counter lying there; a 6 puts a
 * counter out of play on field 6. The first player rid of their counters
 * wins. Rules: shared/rules/big-six.md; every option below is one row of that
 * spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { GameSetupError, invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { actionType, checkThrow, gameOver, unknownAction } from './small-dice-common.js';
import { boardSay, gameSay, gameValue, winnersSay } from './board-text.js';

/** The field that takes any number of counters, out of play for good. */
export const OUT_FIELD = 6;

// ---------------------------------------------------------------------------
// Options

export interface BigSixOptions {
  /** A player may decline to place on an empty field 1-5 ("you may put"). Spec ambiguity 1. */
  readonly placeIsOptional: boolean;
  /** Counters each player starts with. Spec ambiguity 2. */
  readonly countersPerPlayer: number;
  /** Seat that throws first. Spec ambiguity 3. */
  readonly firstPlayer: number;
}

export const BIG_SIX_DEFAULT_OPTIONS: BigSixOptions = { placeIsOptional: false, countersPerPlayer: 5, firstPlayer: 0 };

export const BIG_SIX_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'placeIsOptional', type: 'boolean', default: false, description: 'A player may decline to put a counter on an empty field 1-5 (the text says "may"; placing is always better).' },
  { name: 'countersPerPlayer', type: 'integer', default: 5, min: 1, max: 50, description: 'Counters each player starts with.' },
  { name: 'firstPlayer', type: 'integer', default: 0, min: 0, max: 5, description: 'Seat (from 0) that throws first.' },
];

// ---------------------------------------------------------------------------
// State and actions

/** What the last throw did, for the scoreboard. */
export type BigSixEffect = 'placed' | 'took' | 'declined';

export interface BigSixState {
  readonly game: 'big-six';
  readonly options: BigSixOptions;
  readonly players: ReadonlyArray<{ readonly name: string; readonly counters: number }>;
  /** Counters on fields 1..6 (index 0 is field 1); fields 1-5 hold 0 or 1. */
  readonly fields: readonly number[];
  /** Seat whose turn it is (the winner once the game is over). */
  readonly current: number;
  /** The single die: the last throw, or null before it. */
  readonly dice: readonly (number | null)[];
  /** With `placeIsOptional`: the thrown empty field 1-5 waiting for place or decline; else null. */
  readonly pending: number | null;
  readonly last: { readonly seat: number; readonly value: number; readonly effect: BigSixEffect } | null;
  readonly winner: number | null;
  readonly over: boolean;
}

export type BigSixAction = RollAction | { readonly type: 'place' } | { readonly type: 'decline' };

// ---------------------------------------------------------------------------
// Rules

/**
 * What a throw does to the thrower's supply and the board, ignoring the
 * optional-placement choice: `placed` on an empty field 1-5 or on field 6,
 * `took` from an occupied field 1-5.
 */
export function throwEffect(fields: readonly number[], value: number): 'placed' | 'took' {
  return value !== OUT_FIELD && (fields[value - 1] ?? 0) > 0 ? 'took' : 'placed';
}

/** The throw's effect made real: counters move, and the game ends or passes left. */
function settle(state: BigSixState, value: number, effect: BigSixEffect): BigSixState {
  const seat = state.current;
  const delta = effect === 'placed' ? 1 : effect === 'took' ? -1 : 0;
  const fields = state.fields.map((c, i) => (i === value - 1 ? c + delta : c));
  const players = state.players.map((p, i) => (i === seat ? { ...p, counters: p.counters - delta } : p));
  const won = (players[seat]?.counters ?? 1) === 0;
  return {
    ...state,
    players,
    fields,
    pending: null,
    last: { seat, value, effect },
    current: won ? seat : (seat + 1) % players.length,
    winner: won ? seat : null,
    over: won,
  };
}

function applyRoll(state: BigSixState, values: unknown): BigSixState | InvalidAction {
  const dice = checkThrow(bigSix.diceRequest(state), values);
  if (!Array.isArray(dice)) return dice;
  const value = dice[0] ?? 0;
  const s = { ...state, dice };
  const effect = throwEffect(state.fields, value);
  if (effect === 'placed' && value !== OUT_FIELD && state.options.placeIsOptional) return { ...s, pending: value };
  return settle(s, value, effect);
}

function applyChoice(state: BigSixState, place: boolean): BigSixState | InvalidAction {
  if (state.pending === null) {
    return invalid('game/nothing_to_place', state.options.placeIsOptional ? 'Throw the die first; placing is chosen after a throw onto an empty field 1-5.' : 'Counters are placed automatically in this game.');
  }
  return settle(state, state.pending, place ? 'placed' : 'declined');
}

// ---------------------------------------------------------------------------
// Scoreboard and bot

function board(state: BigSixState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  const status = state.over
    ? `Game over: ${name} wins`
    : state.pending !== null
      ? `${name}: put a counter on field ${state.pending}, or decline`
      : `${name}: throw the die`;
  const say = state.over
    ? winnersSay([name])
    : state.pending !== null
      ? gameSay('big-six', 'placeOrDecline', { name, field: state.pending })
      : boardSay('throwTheDie', { name });
  const last = state.last;
  const lastText =
    last === null ? null : `${state.players[last.seat]?.name ?? ''} threw ${last.value}: ${last.effect === 'placed' ? 'placed a counter' : last.effect === 'took' ? 'took the counter back' : 'declined to place'}`;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false],
    columns: [{ id: 'counters', label: 'Counters' }],
    players: state.players.map((p) => ({ name: p.name, values: { counters: p.counters }, out: false })),
    panels: [
      {
        id: 'fields',
        label: 'Board',
        items: state.fields.map((c, i) => ({ id: 'field', label: `Field ${i + 1}`, params: { number: i + 1 }, value: c, state: c > 0 ? ('closed' as const) : ('open' as const) })),
      },
      { id: 'last', label: 'Last throw', items:
          last === null || lastText === null
            ? []
            : [{ id: 'lastThrow', label: 'Last throw', value: lastText, valueSay: gameValue('big-six', last.effect, { name: state.players[last.seat]?.name ?? '', value: last.value }) }],
      },
    ],
  };
}

/** Placing is always better (it brings the player closer to winning). */
const bot = (state: BigSixState): BigSixAction | null => (state.pending !== null ? { type: 'place' } : null);

// ---------------------------------------------------------------------------
// The game

export const bigSix: GameDef<BigSixState, BigSixAction, BigSixOptions> = {
  id: 'big-six',
  name: 'Big Six',
  minPlayers: 2,
  maxPlayers: 6,
  defaultOptions: BIG_SIX_DEFAULT_OPTIONS,
  summary:
    'A one-die race for 2-6 players with 5 counters each and a board of fields 1 to 6. On your turn throw the die once: on 1-5, put a counter on that field if it is empty, or take the counter lying there back into your supply; on 6, put a counter on field 6, where counters stay out of play for good. The first player to get rid of all their counters wins.',
  dice: { count: 1, colours: [], sizes: [] },
  optionSpecs: BIG_SIX_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<BigSixOptions>('Big Six', BIG_SIX_OPTION_SPECS, options);
    checkPlayers('Big Six', players, bigSix.minPlayers, bigSix.maxPlayers);
    if (opts.firstPlayer >= players.length) throw new GameSetupError(`Option firstPlayer must name a seat from 0 to ${players.length - 1}; got ${opts.firstPlayer}.`);
    return {
      game: 'big-six',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.countersPerPlayer })),
      fields: [0, 0, 0, 0, 0, 0],
      current: opts.firstPlayer,
      dice: [null],
      pending: null,
      last: null,
      winner: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over || state.pending !== null) return null;
    return { count: 1, slots: [0], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    const type = actionType(action);
    switch (type) {
      case 'roll':
        return applyRoll(state, (action as { values?: unknown }).values);
      case 'place':
        return applyChoice(state, true);
      case 'decline':
        return applyChoice(state, false);
      default:
        return unknownAction('Big Six', type, state.options.placeIsOptional ? 'roll, place or decline' : 'roll');
    }
  },

  legalActions(state) {
    return !state.over && state.pending !== null ? [{ type: 'place' }, { type: 'decline' }] : [];
  },

  result(state): GameResult | null {
    if (!state.over || state.winner === null) return null;
    return { winners: [state.winner], scores: state.players.map((p) => p.counters) };
  },
};
