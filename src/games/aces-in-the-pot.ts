/**
 * Aces in the Pot (`aces-in-the-pot`): two dice, two counters each. Every
 * ace sends a counter to the pot, every 6 passes one to the left. When one
 * counter is left outside the pot, its holder must throw three times without
 * a 6 to win the pot. Rules: shared/rules/aces-in-the-pot.md (public rules);
 * every option below is one row of that spec's "Ambiguities and chosen
 * defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import type { DiceRequest, GameDef, GameResult, BoardText, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { actionType, checkThrow, gameOver, nextSeat, unknownAction } from './small-dice-common.js';
import { boardSay, gameSay, gameValue, valueSay, winnersSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Options

export interface AcesInThePotOptions {
  /** A 1-6 thrown by a player with one counter: it goes to the pot, or to the left neighbour. Spec ambiguity 1. */
  readonly oneCounterAceSix: 'potFirst' | 'neighbourFirst';
  /** Pots a player must win to win the game. Spec ambiguity 3. */
  readonly potsToWin: number;
  /** Counters each player starts a pot with. Spec ambiguity 4. */
  readonly countersPerPlayer: number;
  /** Throws the last counter's holder must survive without a 6. Spec ambiguity 5. */
  readonly endgameThrows: number;
}

export const ACES_IN_THE_POT_DEFAULT_OPTIONS: AcesInThePotOptions = { oneCounterAceSix: 'potFirst', potsToWin: 1, countersPerPlayer: 2, endgameThrows: 3 };

export const ACES_IN_THE_POT_OPTION_SPECS: readonly OptionSpec[] = [
  {
    name: 'oneCounterAceSix',
    type: 'choice',
    default: 'potFirst',
    choices: ['potFirst', 'neighbourFirst'],
    description: 'A player short of counters pays aces to the pot first (netexl), or sixes to the left neighbour first.',
  },
  { name: 'potsToWin', type: 'integer', default: 1, min: 1, max: 10, description: 'Pots a player must win to win the game (one pot is one game).' },
  { name: 'countersPerPlayer', type: 'integer', default: 2, min: 1, max: 20, description: 'Counters each player starts a pot with.' },
  { name: 'endgameThrows', type: 'integer', default: 3, min: 1, max: 10, description: 'Throws without a 6 the holder of the last counter needs to win the pot.' },
];

// ---------------------------------------------------------------------------
// State and actions

/** What the last throw did, for the scoreboard. */
export interface AcesEvent {
  readonly seat: number;
  readonly toPot: number;
  readonly toLeft: number;
  /** Endgame only: the throw showed a 6 and the counter passed left, or the holder won the pot. */
  readonly endgame: 'passed' | 'survived' | 'wonPot' | null;
}

export interface AcesInThePotState {
  readonly game: 'aces-in-the-pot';
  readonly options: AcesInThePotOptions;
  readonly players: ReadonlyArray<{ readonly name: string; readonly counters: number; readonly pots: number }>;
  /** Counters in the pot. */
  readonly pot: number;
  /** Seat throwing now: the active player, or the endgame holder (the winner once the game is over). */
  readonly current: number;
  /** Seat that made the first throw of this pot. */
  readonly starter: number;
  /** True once exactly one counter is left outside the pot. */
  readonly endgame: boolean;
  /** Endgame throws the holder has survived in this attempt. */
  readonly survived: number;
  readonly dice: readonly (number | null)[];
  readonly last: AcesEvent | null;
  readonly over: boolean;
}

export type AcesInThePotAction = RollAction;

// ---------------------------------------------------------------------------
// Pure rules

/**
 * Counters a normal throw sends to the pot and to the left neighbour, for a
 * player holding `has` of the `held` counters outside the pot. A player
 * short of counters pays in the option's order. The pot never takes the
 * last counter outside it: once exactly one is left, the endgame begins at
 * once (so 1-1 from a player holding the last two pays only one).
 */
export function payments(dice: readonly number[], has: number, held: number, order: AcesInThePotOptions['oneCounterAceSix'] = 'potFirst'): { toPot: number; toLeft: number } {
  const aces = dice.filter((d) => d === 1).length;
  const sixes = dice.filter((d) => d === 6).length;
  const potCap = Math.max(0, held - 1);
  if (order === 'potFirst') {
    const toPot = Math.min(aces, has, potCap);
    return { toPot, toLeft: Math.min(sixes, has - toPot) };
  }
  const toLeft = Math.min(sixes, has);
  return { toPot: Math.min(aces, has - toLeft, potCap), toLeft };
}

/** Chance that the holder survives `throws` endgame throws: no 6 on either die, (25/36)^throws. */
export const survivalChance = (throws: number): number => (25 / 36) ** throws;

const heldTotal = (players: AcesInThePotState['players']): number => players.reduce((a, p) => a + p.counters, 0);

// ---------------------------------------------------------------------------
// The game's moves

/** The holder survived: they win the pot, and the game or a fresh pot begins. */
function winPot(state: AcesInThePotState, dice: readonly number[]): AcesInThePotState {
  const seat = state.current;
  const players = state.players.map((p, i) => (i === seat ? { ...p, pots: p.pots + 1 } : p));
  const last: AcesEvent = { seat, toPot: 0, toLeft: 0, endgame: 'wonPot' };
  if ((players[seat]?.pots ?? 0) >= state.options.potsToWin) return { ...state, players, dice, last, survived: state.survived + 1, over: true };
  // A new pot: everyone gets fresh counters; the next seat along starts it.
  const starter = (state.starter + 1) % players.length;
  return {
    ...state,
    players: players.map((p) => ({ ...p, counters: state.options.countersPerPlayer })),
    pot: 0,
    current: starter,
    starter,
    endgame: false,
    survived: 0,
    dice: [null, null],
    last,
  };
}

function endgameThrow(state: AcesInThePotState, dice: number[]): AcesInThePotState {
  const seat = state.current;
  // Aces are ignored now; only a 6 matters.
  if (dice.includes(6)) {
    const left = (seat + 1) % state.players.length;
    const players = state.players.map((p, i) => (i === seat ? { ...p, counters: p.counters - 1 } : i === left ? { ...p, counters: p.counters + 1 } : p));
    return { ...state, players, current: left, survived: 0, dice, last: { seat, toPot: 0, toLeft: 1, endgame: 'passed' } };
  }
  if (state.survived + 1 >= state.options.endgameThrows) return winPot(state, dice);
  return { ...state, survived: state.survived + 1, dice, last: { seat, toPot: 0, toLeft: 0, endgame: 'survived' } };
}

function normalThrow(state: AcesInThePotState, dice: number[]): AcesInThePotState {
  const seat = state.current;
  const n = state.players.length;
  const left = (seat + 1) % n;
  const { toPot, toLeft } = payments(dice, state.players[seat]?.counters ?? 0, heldTotal(state.players), state.options.oneCounterAceSix);
  const players = state.players.map((p, i) => (i === seat ? { ...p, counters: p.counters - toPot - toLeft } : i === left ? { ...p, counters: p.counters + toLeft } : p));
  const s: AcesInThePotState = { ...state, players, pot: state.pot + toPot, dice, last: { seat, toPot, toLeft, endgame: null } };
  if (heldTotal(players) === 1) {
    // The holder of the last counter takes the dice at once.
    return { ...s, endgame: true, survived: 0, current: players.findIndex((p) => p.counters === 1) };
  }
  // Players without counters skip their turns but stay in.
  const next = nextSeat(seat, n, (i) => (players[i]?.counters ?? 0) > 0);
  if (next === null) throw new RangeError('No counters outside the pot in normal play');
  return { ...s, current: next };
}

function applyRoll(state: AcesInThePotState, values: unknown): AcesInThePotState | InvalidAction {
  const dice = checkThrow(acesInThePot.diceRequest(state), values);
  if (!Array.isArray(dice)) return dice;
  return state.endgame ? endgameThrow(state, dice) : normalThrow(state, dice);
}

// ---------------------------------------------------------------------------
// Scoreboard

/** The last throw in words for the page: `games.aces-in-the-pot.values.*`. */
function eventSay(state: AcesInThePotState, e: AcesEvent): BoardText {
  const name = state.players[e.seat]?.name ?? '';
  if (e.endgame === 'passed' || e.endgame === 'survived' || e.endgame === 'wonPot') return gameValue('aces-in-the-pot', e.endgame, { name });
  return e.toPot + e.toLeft === 0 ? gameValue('aces-in-the-pot', 'nothingToPay', { name }) : gameValue('aces-in-the-pot', 'paid', { name, pot: e.toPot, left: e.toLeft });
}

function eventText(state: AcesInThePotState, e: AcesEvent): string {
  const who = state.players[e.seat]?.name ?? '';
  switch (e.endgame) {
    case 'passed':
      return `${who} threw a 6: the last counter passes left`;
    case 'survived':
      return `${who} threw no 6`;
    case 'wonPot':
      return `${who} survived and won the pot`;
    default:
      return e.toPot + e.toLeft === 0 ? `${who}: nothing to pay` : `${who}: ${e.toPot} to the pot, ${e.toLeft} to the left`;
  }
}

function board(state: AcesInThePotState): TableBoard {
  const name = state.players[state.current]?.name ?? '';
  const o = state.options;
  const status = state.over
    ? `Game over: ${name} wins`
    : state.endgame
      ? `${name}: last counter; throw ${state.survived + 1} of ${o.endgameThrows} without a 6`
      : `${name}: throw both dice`;
  const say = state.over
    ? winnersSay([name])
    : state.endgame
      ? gameSay('aces-in-the-pot', 'lastCounter', { name, number: state.survived + 1, of: o.endgameThrows })
      : boardSay('throwBothDice', { name });
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false],
    columns: [
      { id: 'counters', label: 'Counters' },
      { id: 'pots', label: 'Pots won' },
    ],
    players: state.players.map((p) => ({ name: p.name, values: { counters: p.counters, pots: p.pots }, out: false })),
    panels: [
      {
        id: 'pot',
        label: 'Pot',
        items: [
          { id: 'pot', label: 'Pot', value: state.pot, state: 'highlight' },
          ...(o.potsToWin > 1 ? [{ id: 'potsToWin', label: 'Pots to win', value: o.potsToWin }] : []),
          ...(state.endgame && !state.over
            ? [{ id: 'survived', label: 'Throws survived', value: `${state.survived} of ${o.endgameThrows}`, valueSay: valueSay('of', { number: state.survived, of: o.endgameThrows }), state: 'active' as const }]
            : []),
        ],
      },
      { id: 'last', label: 'Last throw', items: state.last === null ? [] : [{ id: 'lastThrow', label: 'Last throw', value: eventText(state, state.last), valueSay: eventSay(state, state.last) }] },
    ],
  };
}

// ---------------------------------------------------------------------------
// The game

export const acesInThePot: GameDef<AcesInThePotState, AcesInThePotAction, AcesInThePotOptions> = {
  id: 'aces-in-the-pot',
  name: 'Aces in the Pot',
  minPlayers: 2,
  maxPlayers: 10,
  defaultOptions: ACES_IN_THE_POT_DEFAULT_OPTIONS,
  summary:
    'A two-dice game for 2 or more players with 2 counters each. On your turn throw both dice once: each ace puts one of your counters in the pot, each 6 passes one to your left-hand neighbour. A player without counters sits out their turns but can be given one again. When only one counter is left outside the pot, its holder throws up to three times: no 6 in three throws wins the pot, a 6 passes the counter and the dice to the left for a fresh attempt.',
  dice: { count: 2, colours: [], sizes: [] },
  optionSpecs: ACES_IN_THE_POT_OPTION_SPECS,
  board,
  playerView: (state) => state,
  // Nothing to decide: every throw is forced.
  bot: () => null,

  setup(players, options) {
    const opts = resolveOptions<AcesInThePotOptions>('Aces in the Pot', ACES_IN_THE_POT_OPTION_SPECS, options);
    checkPlayers('Aces in the Pot', players, acesInThePot.minPlayers, acesInThePot.maxPlayers);
    return {
      game: 'aces-in-the-pot',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.countersPerPlayer, pots: 0 })),
      pot: 0,
      current: 0,
      starter: 0,
      endgame: false,
      survived: 0,
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
    if (type !== 'roll') return unknownAction('Aces in the Pot', type, 'roll');
    return applyRoll(state, (action as { values?: unknown }).values);
  },

  legalActions: () => [],

  result(state): GameResult | null {
    if (!state.over) return null;
    return { winners: [state.current], scores: state.players.map((p) => p.pots) };
  },
};
