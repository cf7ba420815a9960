/**
 * Bouncer (`bouncer`): each player throws one die and settles the difference
 * with the player before them in counters; whoever cannot pay in full is
 * bounced, and the richest player then wins. Rules: shared/rules/bouncer.md;
 * every option below is one row of that spec's "Ambiguities and chosen
 * defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { GameSetupError } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { actionType, checkThrow, gameOver, seatsWithMax, unknownAction } from './small-dice-common.js';
import { gameSay, gameValue } from './board-text.js';

// ---------------------------------------------------------------------------
// Options

export interface BouncerOptions {
  /** A tie for most counters at the end: shared win, or nobody wins. Spec ambiguity 1. */
  readonly endTie: 'shared' | 'noWinner';
  /** Counters each player starts with. Spec ambiguity 3. */
  readonly countersPerPlayer: number;
  /** Seat that makes the opening throw. Spec ambiguity 4. */
  readonly firstPlayer: number;
}

export const BOUNCER_DEFAULT_OPTIONS: BouncerOptions = { endTie: 'shared', countersPerPlayer: 12, firstPlayer: 0 };

export const BOUNCER_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'endTie', type: 'choice', default: 'shared', choices: ['shared', 'noWinner'], description: 'A tie for most counters at the end: the tied players share the win, or nobody wins.' },
  { name: 'countersPerPlayer', type: 'integer', default: 12, min: 1, max: 99, description: 'Counters each player starts with.' },
  { name: 'firstPlayer', type: 'integer', default: 0, min: 0, max: 5, description: 'Seat (from 0) that makes the opening throw.' },
];

// ---------------------------------------------------------------------------
// State and actions

/** Counters handed over after a throw. */
export interface BouncerPayment {
  readonly from: number;
  readonly to: number;
  /** What the throw difference asked for. */
  readonly owed: number;
  /** What actually changed hands (less than owed when the payer is bounced). */
  readonly paid: number;
}

export interface BouncerState {
  readonly game: 'bouncer';
  readonly options: BouncerOptions;
  readonly players: ReadonlyArray<{ readonly name: string; readonly counters: number }>;
  /** Seat whose turn it is (the bounced player once the game is over). */
  readonly current: number;
  /** The die on the table: the last throw, or null before the opening throw. */
  readonly dice: readonly (number | null)[];
  /** The last throw made and who made it: what the current player compares with; null before the opening throw. */
  readonly previous: { readonly seat: number; readonly value: number } | null;
  /** The last throw's exchange; null after the opening throw or an equal throw. */
  readonly payment: BouncerPayment | null;
  /** The player who could not pay, once the game is over. */
  readonly bounced: number | null;
  readonly over: boolean;
}

export type BouncerAction = RollAction;

// ---------------------------------------------------------------------------
// Rules

/**
 * Who pays whom after throw `v` against the previous throw `p`: the lower
 * thrower pays the difference; null on equal throws.
 */
export function exchange(previousSeat: number, p: number, currentSeat: number, v: number): { from: number; to: number; owed: number } | null {
  if (v === p) return null;
  return v > p ? { from: previousSeat, to: currentSeat, owed: v - p } : { from: currentSeat, to: previousSeat, owed: p - v };
}

function applyRoll(state: BouncerState, values: unknown): BouncerState | InvalidAction {
  const dice = checkThrow(bouncer.diceRequest(state), values);
  if (!Array.isArray(dice)) return dice;
  const v = dice[0] ?? 0;
  const seat = state.current;
  const next = { ...state, dice, previous: { seat, value: v }, payment: null, current: (seat + 1) % state.players.length };
  // The opening throw only sets the value for the next player (spec ambiguity 2).
  if (state.previous === null) return next;
  const ex = exchange(state.previous.seat, state.previous.value, seat, v);
  if (ex === null) return next;
  const has = state.players[ex.from]?.counters ?? 0;
  const paid = Math.min(has, ex.owed);
  const players = state.players.map((p, i) => (i === ex.from ? { ...p, counters: p.counters - paid } : i === ex.to ? { ...p, counters: p.counters + paid } : p));
  const payment = { ...ex, paid };
  // Paying exactly everything keeps a player in; owing more than they have bounces them.
  if (has < ex.owed) return { ...next, players, payment, current: seat, bounced: ex.from, over: true };
  return { ...next, players, payment };
}

// ---------------------------------------------------------------------------
// Scoreboard

function board(state: BouncerState): TableBoard {
  const name = (seat: number) => state.players[seat]?.name ?? '';
  let status: string;
  if (state.over) {
    const winners = bouncer.result(state)?.winners ?? [];
    const who = winners.length === 0 ? 'no winner (tie for most counters)' : `${winners.map(name).join(' and ')} ${winners.length === 1 ? 'wins' : 'share the win'}`;
    status = `Game over: ${name(state.bounced ?? 0)} is bounced; ${who}`;
  } else {
    status = state.previous === null ? `${name(state.current)}: make the opening throw` : `${name(state.current)}: throw against ${name(state.previous.seat)}'s ${state.previous.value}`;
  }
  let say: BoardText;
  if (state.over) {
    const winners = (bouncer.result(state)?.winners ?? []).map(name);
    const who = winners.length === 0 ? gameValue('bouncer', 'noWinner') : gameValue('bouncer', winners.length > 1 ? 'shareWin' : 'wins', { names: winners });
    say = gameSay('bouncer', 'over', { name: name(state.bounced ?? 0), who });
  } else {
    say = state.previous === null ? gameSay('bouncer', 'opening', { name: name(state.current) }) : gameSay('bouncer', 'against', { name: name(state.current), other: name(state.previous.seat), value: state.previous.value });
  }
  const pay = state.payment;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false],
    columns: [{ id: 'counters', label: 'Counters' }],
    players: state.players.map((p, i) => ({ name: p.name, values: { counters: p.counters }, out: i === state.bounced })),
    panels: [
      {
        id: 'throw',
        label: 'Throw to compare with',
        items: state.previous === null ? [] : [{ id: 'seat', label: name(state.previous.seat), params: { name: name(state.previous.seat) }, value: state.previous.value, state: 'active' }],
      },
      {
        id: 'payment',
        label: 'Last payment',
        items: pay === null ? [] : [
                {
                  id: 'payment',
                  label: `${name(pay.from)} to ${name(pay.to)}`,
                  params: { from: name(pay.from), to: name(pay.to) },
                  value: pay.paid < pay.owed ? `${pay.paid} of ${pay.owed} owed` : pay.paid,
                  ...(pay.paid < pay.owed ? { valueSay: gameValue('bouncer', 'owed', { number: pay.paid, of: pay.owed }) } : {}),
                },
              ],
      },
    ],
  };
}

// ---------------------------------------------------------------------------
// The game

export const bouncer: GameDef<BouncerState, BouncerAction, BouncerOptions> = {
  id: 'bouncer',
  name: 'Bouncer',
  minPlayers: 3,
  maxPlayers: 6,
  defaultOptions: BOUNCER_DEFAULT_OPTIONS,
  summary:
    'A one-die game for 3-6 players with 12 counters each. The first player makes an opening throw; after that each player throws the die and compares it with the throw just before: a higher throw collects the difference in counters from the previous player, a lower one pays the difference to them, an equal one does nothing. A player who must pay more than they have hands over everything and is bounced, which ends the game: the player holding the most counters wins.',
  dice: { count: 1, colours: [], sizes: [] },
  optionSpecs: BOUNCER_OPTION_SPECS,
  board,
  playerView: (state) => state,
  // Nothing to decide: every turn is one throw.
  bot: () => null,

  setup(players, options) {
    const opts = resolveOptions<BouncerOptions>('Bouncer', BOUNCER_OPTION_SPECS, options);
    checkPlayers('Bouncer', players, bouncer.minPlayers, bouncer.maxPlayers);
    if (opts.firstPlayer >= players.length) throw new GameSetupError(`Option firstPlayer must name a seat from 0 to ${players.length - 1}; got ${opts.firstPlayer}.`);
    return {
      game: 'bouncer',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.countersPerPlayer })),
      current: opts.firstPlayer,
      dice: [null],
      previous: null,
      payment: null,
      bounced: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    return state.over ? null : { count: 1, slots: [0], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    const type = actionType(action);
    if (type !== 'roll') return unknownAction('Bouncer', type, 'roll');
    return applyRoll(state, (action as { values?: unknown }).values);
  },

  legalActions: () => [],

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => p.counters);
    const best = seatsWithMax(scores);
    return { winners: best.length > 1 && state.options.endTie === 'noWinner' ? [] : best, scores };
  },
};
