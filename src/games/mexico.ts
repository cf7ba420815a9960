/**
 * Mexico (`mexico`): each round everyone throws two dice up to three times,
 * the last throw counts, and the lowest throw loses a life (two when a
 * Mexico, 2-1, was thrown). Rules: shared/rules/mexico.md; every option
 * below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { actionType, checkThrow, gameOver, nextSeat, unknownAction } from './small-dice-common.js';
import { boardSay, gameSay, gameValue, valueSay, winnersSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Ranking of a throw

/** Key of Mexico (2-1), above every other throw. */
export const MEXICO_KEY = 1000;

/** True when two dice show 2 and 1. */
export function isMexico(dice: readonly number[]): boolean {
  const [a, b] = dice;
  return (a === 2 && b === 1) || (a === 1 && b === 2);
}

/**
 * A number that sorts throws as the spec ranks them: Mexico 1000, a pair
 * 100 + its face, a mixed throw 10 × high + low.
 */
export function throwKey(dice: readonly number[]): number {
  const [a = 0, b = 0] = dice;
  const high = Math.max(a, b);
  const low = Math.min(a, b);
  if (isMexico(dice)) return MEXICO_KEY;
  if (high === low) return 100 + high;
  return 10 * high + low;
}

/** A throw as people say it: high die first ("5-4", "2-1 Mexico"). */
export function throwText(dice: readonly number[]): string {
  const [a = 0, b = 0] = dice;
  const text = `${Math.max(a, b)}-${Math.min(a, b)}`;
  return isMexico(dice) ? `${text} Mexico` : text;
}

/** Seats whose result is the lowest of the round (all of them on a tie); null results are ignored. */
export function lowestSeats(results: readonly (readonly number[] | null)[]): number[] {
  const keys = results.map((r) => (r === null ? null : throwKey(r)));
  const thrown = keys.filter((k): k is number => k !== null);
  if (thrown.length === 0) return [];
  const lowest = Math.min(...thrown);
  return keys.flatMap((k, i) => (k === lowest ? [i] : []));
}

// ---------------------------------------------------------------------------
// Options

export type MexicoStarter = 'leftOfPreviousStarter' | 'loser' | 'sameSeat';

export interface MexicoOptions {
  /** Later players may throw no more often than the round's first player did. Spec ambiguity 1 (the booklet has no cap). */
  readonly throwCapFromLeader: boolean;
  /** Who starts the next round. Spec ambiguity 2. */
  readonly nextRoundStarter: MexicoStarter;
  /** Which 2-1 throws double the round's penalty: any throw, or only final results. Spec ambiguity 3. */
  readonly mexicoCounts: 'anyThrow' | 'finalOnly';
  /** Lives per player. Spec ambiguity 4. */
  readonly lives: number;
  /** Lives lost by the round's loser(s) when a Mexico was thrown. Spec ambiguity 4. */
  readonly mexicoPenalty: number;
  /** Throws per turn. Spec ambiguity 5. */
  readonly maxThrows: number;
}

export const MEXICO_DEFAULT_OPTIONS: MexicoOptions = {
  throwCapFromLeader: false,
  nextRoundStarter: 'leftOfPreviousStarter',
  mexicoCounts: 'anyThrow',
  lives: 6,
  mexicoPenalty: 2,
  maxThrows: 3,
};

export const MEXICO_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'throwCapFromLeader', type: 'boolean', default: false, description: "Later players may throw no more often than the round's first player did (the booklet has no such cap)." },
  {
    name: 'nextRoundStarter',
    type: 'choice',
    default: 'leftOfPreviousStarter',
    choices: ['leftOfPreviousStarter', 'loser', 'sameSeat'],
    description: "Who starts the next round: the player left of the last starter, the round's loser, or the same seat (skipping players who are out).",
  },
  { name: 'mexicoCounts', type: 'choice', default: 'anyThrow', choices: ['anyThrow', 'finalOnly'], description: "Which 2-1 throws double the round's penalty: any throw, or only a player's final result." },
  { name: 'lives', type: 'integer', default: 6, min: 1, max: 99, description: 'Lives per player.' },
  { name: 'mexicoPenalty', type: 'integer', default: 2, min: 1, max: 99, description: 'Lives the lowest thrower loses when a Mexico was thrown in the round.' },
  { name: 'maxThrows', type: 'integer', default: 3, min: 1, max: 10, description: 'Throws per turn; the last one counts.' },
];

// ---------------------------------------------------------------------------
// State and actions

export interface MexicoPlayer {
  readonly name: string;
  /** Lives left; 0 means out (a penalty never takes it below 0). */
  readonly lives: number;
  /** This round's last throw, as thrown; null before the player's first throw of the round. */
  readonly last: readonly number[] | null;
  /** Throws taken this round. */
  readonly throws: number;
  /** True once the player's result for this round stands. */
  readonly done: boolean;
}

/** How the previous round ended, kept for the scoreboard. */
export interface MexicoRoundEnd {
  readonly results: readonly (readonly number[] | null)[];
  readonly losers: readonly number[];
  readonly livesLost: number;
}

export interface MexicoState {
  readonly game: 'mexico';
  readonly options: MexicoOptions;
  readonly players: readonly MexicoPlayer[];
  /** Seat whose turn it is (the last thrower once the game is over). */
  readonly current: number;
  /** Seat that started this round. */
  readonly starter: number;
  /** Current round, 1-based. */
  readonly round: number;
  /** The two dice on the table: the current player's last throw. */
  readonly dice: readonly (number | null)[];
  /** A 2-1 that counts for the penalty was thrown this round. */
  readonly mexicoThrown: boolean;
  /** Throws the round's first player used, when `throwCapFromLeader` caps the others; else null. */
  readonly throwCap: number | null;
  readonly lastRound: MexicoRoundEnd | null;
  readonly over: boolean;
}

export type MexicoAction = RollAction | { readonly type: 'stop' };

// ---------------------------------------------------------------------------
// Rules

const inGame = (state: MexicoState) => (seat: number) => (state.players[seat]?.lives ?? 0) > 0;

/** Throws the current player may take this turn. */
function throwLimit(state: MexicoState): number {
  return state.throwCap !== null && state.current !== state.starter ? Math.min(state.throwCap, state.options.maxThrows) : state.options.maxThrows;
}

function currentPlayer(state: MexicoState): MexicoPlayer {
  const p = state.players[state.current];
  if (p === undefined) throw new RangeError(`State has no player ${state.current}`);
  return p;
}

const freshRound = (p: MexicoPlayer): MexicoPlayer => ({ ...p, last: null, throws: 0, done: false });

function nextStarter(state: MexicoState, losers: readonly number[], players: readonly MexicoPlayer[]): number {
  const n = players.length;
  const alive = (seat: number) => (players[seat]?.lives ?? 0) > 0;
  const o = state.options.nextRoundStarter;
  let seat: number | null;
  if (o === 'sameSeat') {
    seat = nextSeat(state.starter, n, alive, true);
  } else if (o === 'loser') {
    // On a tie, the loser who threw first this round; an eliminated loser hands on to the left.
    const first = [...losers].sort((a, b) => ((a - state.starter + n) % n) - ((b - state.starter + n) % n))[0] ?? state.starter;
    seat = nextSeat(first, n, alive, true);
  } else {
    seat = nextSeat(state.starter, n, alive);
  }
  if (seat === null) throw new RangeError('No player left to start a round');
  return seat;
}

/** Everyone has thrown: the lowest lose lives, then the next round starts or the game ends. */
function resolveRound(state: MexicoState): MexicoState {
  const results = state.players.map((p) => (p.lives > 0 ? p.last : null));
  const losers = lowestSeats(results);
  const livesLost = state.mexicoThrown ? state.options.mexicoPenalty : 1;
  // Lives below zero are read as zero (spec example 7).
  const players = state.players.map((p, i) => (losers.includes(i) ? { ...p, lives: Math.max(0, p.lives - livesLost) } : p));
  const lastRound: MexicoRoundEnd = { results, losers, livesLost };
  const left = players.filter((p) => p.lives > 0).length;
  if (left <= 1) return { ...state, players, lastRound, over: true };
  const starter = nextStarter(state, losers, players);
  return {
    ...state,
    players: players.map(freshRound),
    current: starter,
    starter,
    round: state.round + 1,
    dice: [null, null],
    mexicoThrown: false,
    throwCap: null,
    lastRound,
  };
}

/** The current player's result stands: pass to the next player still to throw, or resolve the round. */
function endTurn(state: MexicoState): MexicoState {
  const me = currentPlayer(state);
  const finalMexico = state.options.mexicoCounts === 'finalOnly' && me.last !== null && isMexico(me.last);
  const players = state.players.map((p, i) => (i === state.current ? { ...p, done: true } : p));
  const throwCap = state.options.throwCapFromLeader && state.current === state.starter ? me.throws : state.throwCap;
  const s: MexicoState = { ...state, players, throwCap, mexicoThrown: state.mexicoThrown || finalMexico };
  const next = nextSeat(state.current, players.length, (seat) => inGame(s)(seat) && !(players[seat]?.done ?? true));
  if (next === null) return resolveRound(s);
  return { ...s, current: next, dice: [null, null] };
}

function applyRoll(state: MexicoState, values: unknown): MexicoState | InvalidAction {
  const dice = checkThrow(mexico.diceRequest(state), values);
  if (!Array.isArray(dice)) return dice;
  const me = currentPlayer(state);
  const players = state.players.map((p, i) => (i === state.current ? { ...p, last: dice, throws: p.throws + 1 } : p));
  const mexicoThrown = state.mexicoThrown || (state.options.mexicoCounts === 'anyThrow' && isMexico(dice));
  const s: MexicoState = { ...state, players, dice, mexicoThrown };
  return me.throws + 1 >= throwLimit(state) ? endTurn(s) : s;
}

// ---------------------------------------------------------------------------
// Scoreboard and bot

const livesText = (n: number): string => `${n} ${n === 1 ? 'life' : 'lives'}`;

function board(state: MexicoState): TableBoard {
  const me = state.players[state.current];
  const name = me?.name ?? '';
  const limit = throwLimit(state);
  let status: string;
  if (state.over) {
    const winner = state.players.find((p) => p.lives > 0);
    status = winner ? `Game over: ${winner.name} wins` : 'Game over: everyone went out together, no winner';
  } else if (me === undefined || me.last === null) {
    status = `${name}: throw both dice`;
  } else {
    status = `${name}: ${throwText(me.last)}; throw again (${limit - me.throws} left) or stop`;
  }
  let say: BoardText;
  if (state.over) {
    const winner = state.players.find((p) => p.lives > 0);
    say = winner ? winnersSay([winner.name]) : gameSay('mexico', 'allOut');
  } else if (me === undefined || me.last === null) {
    say = boardSay('throwBothDice', { name });
  } else {
    say = gameSay('mexico', 'againOrStop', { name, throw: throwText(me.last), count: limit - me.throws });
  }
  const lr = state.lastRound;
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false],
    columns: [
      { id: 'lives', label: 'Lives' },
      { id: 'result', label: 'This round' },
      { id: 'throws', label: 'Throws' },
    ],
    players: state.players.map((p) => ({
      name: p.name,
      values: { lives: p.lives, result: p.last === null ? null : throwText(p.last), throws: p.throws },
      out: p.lives <= 0,
    })),
    panels: [
      {
        id: 'round',
        label: 'Round',
        items: [
          { id: 'round', label: 'Round', value: state.round },
          { id: 'startedBy', label: 'Started by', value: state.players[state.starter]?.name ?? '' },
          { id: 'throwsAllowed', label: 'Throws allowed', value: limit },
          { id: 'mexicoThrown', label: 'Mexico thrown', value: state.mexicoThrown ? 'yes' : 'no', valueSay: valueSay(state.mexicoThrown ? 'yes' : 'no'), ...(state.mexicoThrown ? { state: 'highlight' as const } : {}) },
          {
            id: 'lowestLoses',
            label: 'Lowest loses',
            value: livesText(state.mexicoThrown ? state.options.mexicoPenalty : 1),
            valueSay: gameValue('mexico', 'lives', { count: state.mexicoThrown ? state.options.mexicoPenalty : 1 }),
          },
        ],
      },
      {
        id: 'lastRound',
        label: 'Last round',
        items:
          lr === null
            ? []
            : [
                ...lr.results.flatMap((r, i) =>
                  r === null ? [] : [{ id: 'seat', label: state.players[i]?.name ?? '', params: { name: state.players[i]?.name ?? '' }, value: throwText(r), ...(lr.losers.includes(i) ? { state: 'active' as const } : {}) }],
                ),
                { id: 'livesLost', label: 'Lives lost', value: lr.livesLost },
              ],
      },
    ],
  };
}

/** A throw the first player of a round is happy with: any 6-x, a pair or Mexico. */
const LEADER_SATISFIED = 61;

/**
 * Stops once the throw beats somebody's result this round (then someone
 * else is lower); the round's first player stops on 6-1 or better.
 */
function bot(state: MexicoState): MexicoAction | null {
  const me = currentPlayer(state);
  if (me.last === null) return null;
  const key = throwKey(me.last);
  const others = state.players.flatMap((p, i) => (i !== state.current && p.done && p.lives > 0 && p.last !== null ? [throwKey(p.last)] : []));
  const safe = others.length > 0 ? key > Math.min(...others) : key >= LEADER_SATISFIED;
  return safe ? { type: 'stop' } : null;
}

// ---------------------------------------------------------------------------
// The game

export const mexico: GameDef<MexicoState, MexicoAction, MexicoOptions> = {
  id: 'mexico',
  name: 'Mexico',
  minPlayers: 2,
  maxPlayers: 6,
  defaultOptions: MEXICO_DEFAULT_OPTIONS,
  summary:
    'A two-dice elimination game for 2-6 players with 6 lives each. Each round every player throws both dice up to three times and keeps the last throw. Read high die first: Mexico (2-1) is best, then pairs 6-6 down to 1-1, then 6-5 down to 3-1. The lowest throw of the round loses a life, or two if anyone threw a Mexico; ties for lowest all lose. The last player with lives wins; if everyone left goes out together, nobody wins.',
  dice: { count: 2, colours: [], sizes: [], note: "Each player's life-counter die stays outside the tray and is never thrown." },
  optionSpecs: MEXICO_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<MexicoOptions>('Mexico', MEXICO_OPTION_SPECS, options);
    checkPlayers('Mexico', players, mexico.minPlayers, mexico.maxPlayers);
    return {
      game: 'mexico',
      options: opts,
      players: players.map((name) => ({ name, lives: opts.lives, last: null, throws: 0, done: false })),
      current: 0,
      starter: 0,
      round: 1,
      dice: [null, null],
      mexicoThrown: false,
      throwCap: null,
      lastRound: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over || currentPlayer(state).throws >= throwLimit(state)) return null;
    return { count: 2, slots: [0, 1], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    const type = actionType(action);
    switch (type) {
      case 'roll':
        return applyRoll(state, (action as { values?: unknown }).values);
      case 'stop':
        if (currentPlayer(state).last === null) return invalid('game/no_throw_yet', 'Throw the dice before stopping; your last throw is your result.');
        return endTurn(state);
      default:
        return unknownAction('Mexico', type, 'roll or stop');
    }
  },

  legalActions(state) {
    return !state.over && currentPlayer(state).last !== null ? [{ type: 'stop' }] : [];
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => p.lives);
    return { winners: scores.flatMap((l, i) => (l > 0 ? [i] : [])), scores };
  },
};
