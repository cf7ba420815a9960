/**
 * Martinetti (`martinetti`): cross off squares 1 to 12 and back to 1 with
 * three dice, each square reached by one die or a sum of dice. Rules:
 * shared/rules/martinetti.md; every option below is one row of that spec's
 * "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions. The
 * game has no decisions: every throw is scored by the rules alone.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { readRoll, show, sum } from './three-dice-common.js';
import { gameSay, gameValue, winnersSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Options

export interface MartinettiOptions {
  /** One die may serve several squares in one throw (the booklet's 1-2-4 → 7). Spec ambiguity 1. */
  readonly reuseDice: boolean;
  /** The way back crosses the top square a second time. Spec ambiguity 2. */
  readonly returnIncludesTwelve: boolean;
  /** Highest square of the track. Spec ambiguity 4. */
  readonly topSquare: number;
}

export const MARTINETTI_DEFAULT_OPTIONS: MartinettiOptions = { reuseDice: true, returnIncludesTwelve: false, topSquare: 12 };

export const MARTINETTI_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'reuseDice', type: 'boolean', default: MARTINETTI_DEFAULT_OPTIONS.reuseDice, description: 'One die may count towards several squares in the same throw (1-2-4 crosses 1 to 7).' },
  { name: 'returnIncludesTwelve', type: 'boolean', default: MARTINETTI_DEFAULT_OPTIONS.returnIncludesTwelve, description: 'The way back starts by crossing the top square again (else it starts at the square below).' },
  { name: 'topSquare', type: 'integer', default: MARTINETTI_DEFAULT_OPTIONS.topSquare, min: 3, max: 18, description: 'Highest square of the track (the board picture is missing; the text says 12).' },
];

// ---------------------------------------------------------------------------
// State and actions

export interface MartinettiPlayer {
  readonly name: string;
  /** Squares crossed so far along the track (an index into `martinettiTrack`). */
  readonly crossed: number;
}

export interface MartinettiState {
  readonly game: 'martinetti';
  readonly options: MartinettiOptions;
  readonly players: readonly MartinettiPlayer[];
  readonly current: number;
  readonly dice: readonly (number | null)[];
  /** Squares the last throw crossed (empty when it crossed none). */
  readonly lastCrossed: readonly number[];
  readonly winner: number | null;
}

export type MartinettiAction = RollAction;

// ---------------------------------------------------------------------------
// Pure rules

/** The squares in crossing order: up to the top, then back down to 1. */
export function martinettiTrack(options: Pick<MartinettiOptions, 'topSquare' | 'returnIncludesTwelve'> = MARTINETTI_DEFAULT_OPTIONS): number[] {
  const top = options.topSquare;
  const up = Array.from({ length: top }, (_, i) => i + 1);
  const back = Array.from({ length: top - 1 }, (_, i) => top - 1 - i);
  return [...up, ...(options.returnIncludesTwelve ? [top] : []), ...back];
}

/** Every square one throw reaches: each die, each pair's sum, the sum of all. */
export function martinettiReachable(dice: readonly number[]): number[] {
  const out = new Set<number>();
  for (let mask = 1; mask < 1 << dice.length; mask++) out.add(sum(dice.filter((_, i) => mask & (1 << i))));
  return [...out].sort((a, b) => a - b);
}

/**
 * How many of `targets` (in order) one throw crosses: as long as each next
 * target is reachable. Without reuse every die serves one square at most, and
 * the dice are shared out to cross as many as possible.
 */
export function martinettiCrossCount(dice: readonly number[], targets: readonly number[], reuseDice = true): number {
  if (reuseDice) {
    const can = martinettiReachable(dice);
    const miss = targets.findIndex((t) => !can.includes(t));
    return miss < 0 ? targets.length : miss;
  }
  const best = (left: readonly number[], from: number): number => {
    const t = targets[from];
    if (t === undefined) return 0;
    let most = 0;
    for (let mask = 1; mask < 1 << left.length; mask++) {
      const used = left.filter((_, i) => mask & (1 << i));
      if (sum(used) === t) most = Math.max(most, 1 + best(left.filter((_, i) => !(mask & (1 << i))), from + 1));
    }
    return most;
  };
  return best(dice, 0);
}

// ---------------------------------------------------------------------------
// The game

const NO_DICE: readonly (number | null)[] = [null, null, null];

/** The player's next square, or null once they have crossed them all. */
export function martinettiTarget(state: MartinettiState, seat: number): number | null {
  return martinettiTrack(state.options)[state.players[seat]?.crossed ?? 0] ?? null;
}

function applyRoll(state: MartinettiState, values: unknown): MartinettiState | InvalidAction {
  const dice = readRoll(values, martinetti.diceRequest(state), 'The game is over.');
  if (!Array.isArray(dice)) return dice;
  const path = martinettiTrack(state.options);
  const me = state.players[state.current] as MartinettiPlayer;
  const topIndex = state.options.topSquare - 1; // the top square on the way up
  // Crossing the top ends the turn: the way back starts next turn.
  const limit = me.crossed <= topIndex ? topIndex + 1 : path.length;
  const n = martinettiCrossCount(dice, path.slice(me.crossed, limit), state.options.reuseDice);
  const crossed = me.crossed + n;
  const players = state.players.map((p, i) => (i === state.current ? { ...p, crossed } : p));
  const next: MartinettiState = { ...state, players, dice, lastCrossed: path.slice(me.crossed, crossed) };
  if (crossed === path.length) return { ...next, winner: state.current };
  if (n > 0 && crossed !== topIndex + 1) return next;
  return { ...next, current: (state.current + 1) % state.players.length };
}

function board(state: MartinettiState): TableBoard {
  const path = martinettiTrack(state.options);
  const top = state.options.topSquare - 1;
  const name = (i: number) => state.players[i]?.name ?? '';
  const where = (p: MartinettiPlayer) => {
    const t = path[p.crossed];
    return t === undefined ? 'home' : `${t} ${p.crossed <= top ? 'up' : 'back'}`;
  };
  const last = state.lastCrossed.length > 0 ? `crossed ${state.lastCrossed.join(', ')}` : 'crossed nothing';
  const status =
    state.winner !== null
      ? `Game over: ${name(state.winner)} wins`
      : `${name(state.current)}: throw for ${where(state.players[state.current] as MartinettiPlayer)}`;
  const G = 'martinetti';
  const whereSay = (p: MartinettiPlayer) => {
    const t = path[p.crossed];
    return t === undefined ? gameValue(G, 'home') : gameValue(G, p.crossed <= top ? 'up' : 'back', { square: t });
  };
  const say =
    state.winner !== null
      ? winnersSay([name(state.winner)])
      : gameSay(G, 'throwFor', { name: name(state.current), square: whereSay(state.players[state.current] as MartinettiPlayer) });
  const me = state.players[state.winner ?? state.current] as MartinettiPlayer;
  return {
    kind: 'table',
    status,
    say,
    current: state.winner === null ? state.current : null,
    dice: state.dice,
    held: [false, false, false],
    columns: [
      { id: 'next', label: 'Next square' },
      { id: 'crossed', label: 'Crossed' },
    ],
    players: state.players.map((p) => ({ name: p.name, values: { next: where(p), crossed: `${p.crossed} of ${path.length}` }, out: false })),
    panels: [
      {
        id: 'track',
        label: `Track of ${me.name}`,
        params: { name: me.name },
        items: path.map((sq, i) => ({
          id: 'square',
          label: String(sq),
          params: { square: sq },
          value: i <= top ? 'up' : 'back',
          valueSay: gameValue(G, i <= top ? 'upward' : 'backward'),
          state: i < me.crossed ? ('closed' as const) : i === me.crossed ? ('active' as const) : ('open' as const),
        })),
      },
      ...(state.dice[0] !== null ? [{ id: 'last', label: 'Last throw', items: [
                {
                  id: 'reachable',
                  label: martinettiReachable(state.dice as number[]).join(', '),
                  params: { squares: martinettiReachable(state.dice as number[]).join(', ') },
                  value: last,
                  valueSay: state.lastCrossed.length > 0 ? gameValue(G, 'crossed', { squares: state.lastCrossed.join(', ') }) : gameValue(G, 'crossedNothing'),
                },
              ],
            },
          ]
        : []),
    ],
  };
}

export const martinetti: GameDef<MartinettiState, MartinettiAction, MartinettiOptions> = {
  id: 'martinetti',
  name: 'Martinetti',
  minPlayers: 2,
  maxPlayers: 8,
  defaultOptions: MARTINETTI_DEFAULT_OPTIONS,
  summary:
    'A race over squares 1 to 12 and back to 1 for 2-8 players. Throw three dice: a square is reached by any single die, the sum of two dice or of all three. Cross off your next square and the ones after it in order as long as each is reached, then throw again; a throw that crosses nothing ends your turn, and so does crossing 12, where the way back (11 down to 1) begins. The first player back at 1 wins.',
  dice: { count: 3, colours: [], sizes: [] },
  optionSpecs: MARTINETTI_OPTION_SPECS,
  board,
  playerView: (state) => state,
  // No decisions: the bot always throws.
  bot: () => null,

  setup(players, options) {
    const opts = resolveOptions<MartinettiOptions>('Martinetti', MARTINETTI_OPTION_SPECS, options);
    checkPlayers('Martinetti', players, martinetti.minPlayers, martinetti.maxPlayers);
    return {
      game: 'martinetti',
      options: opts,
      players: players.map((name) => ({ name, crossed: 0 })),
      current: 0,
      dice: NO_DICE,
      lastCrossed: [],
      winner: null,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.winner !== null) return null;
    return { count: 3, slots: [0, 1, 2], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.winner !== null) return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown } | null;
    if (a?.type === 'roll') return applyRoll(state, a.values);
    return invalid('game/unknown_action', `Martinetti has no action ${show(a?.type)}; the only move is to roll.`);
  },

  legalActions: () => [],

  result(state): GameResult | null {
    if (state.winner === null) return null;
    return { winners: [state.winner], scores: state.players.map((p) => p.crossed) };
  },
};
