/**
 * Slam (`slam`): one die fixes the slam number; then each throw of three
 * dice scores by how many show it (1, little slam 5, grand slam straight to
 * 15), exactly 15 to finish, and the last player left loses. Rules:
 * shared/rules/slam.md; every option below is one row of that spec's
 * "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions. The
 * game has no decisions: every throw is scored by the rules alone.
 */
import { invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { readRoll, show } from './three-dice-common.js';
import { gameSay, winnersSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Options

export interface SlamOptions {
  /** Score that finishes a player (a grand slam sets the score to it). Spec ambiguity 1. */
  readonly target: number;
  /** Points for two dice showing the slam number. Spec ambiguity 2. */
  readonly littleSlamPoints: number;
  /** A throw that would pass the target scores nothing and ends the turn. Spec ambiguity 3. */
  readonly exactTarget: boolean;
  /** The game ends when one player is left (the loser) or when the first player finishes. Spec ambiguity 4. */
  readonly endWhen: 'oneLeft' | 'firstFinisher';
}

export const SLAM_DEFAULT_OPTIONS: SlamOptions = { target: 15, littleSlamPoints: 5, exactTarget: true, endWhen: 'oneLeft' };

export const SLAM_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'target', type: 'integer', default: SLAM_DEFAULT_OPTIONS.target, min: 1, max: 100, description: 'Score that finishes a player; a grand slam (three slam numbers) jumps straight to it.' },
  { name: 'littleSlamPoints', type: 'integer', default: SLAM_DEFAULT_OPTIONS.littleSlamPoints, min: 1, max: 50, description: 'Points for a little slam (two dice showing the slam number).' },
  { name: 'exactTarget', type: 'boolean', default: SLAM_DEFAULT_OPTIONS.exactTarget, description: 'A throw that would take the score past the target scores nothing and ends the turn.' },
  { name: 'endWhen', type: 'choice', default: SLAM_DEFAULT_OPTIONS.endWhen, choices: ['oneLeft', 'firstFinisher'], description: "'oneLeft': play on until one player is left, who loses; 'firstFinisher': the first player to finish wins and the game ends." },
];

// ---------------------------------------------------------------------------
// State and actions

export interface SlamPlayer {
  readonly name: string;
  readonly score: number;
  /** Place in the finishing order (1 = first to finish), null while playing. */
  readonly place: number | null;
}

export interface SlamState {
  readonly game: 'slam';
  readonly options: SlamOptions;
  readonly players: readonly SlamPlayer[];
  /** The slam number, null until the starter's one-die throw. */
  readonly slam: number | null;
  readonly current: number;
  readonly dice: readonly (number | null)[];
  /** What the last throw did, for the board. */
  readonly log: string | null;
  /** The last player left (endWhen 'oneLeft'), once over. */
  readonly loser: number | null;
  readonly over: boolean;
}

export type SlamAction = RollAction;

// ---------------------------------------------------------------------------
// Pure rules

/** What one throw does to a score: the new score and whether the turn goes on. */
export interface SlamThrowOutcome {
  readonly score: number;
  /** Dice showing the slam number. */
  readonly slams: number;
  /** True when the player throws again. */
  readonly again: boolean;
  /** True when the throw would have passed the target and was cancelled. */
  readonly overshoot: boolean;
  readonly finished: boolean;
}

export function scoreSlamThrow(score: number, slam: number, dice: readonly number[], options: SlamOptions = SLAM_DEFAULT_OPTIONS): SlamThrowOutcome {
  const slams = dice.filter((d) => d === slam).length;
  if (slams === 0) return { score, slams, again: false, overshoot: false, finished: false };
  const next = slams >= 3 ? Math.max(score, options.target) : score + (slams === 2 ? options.littleSlamPoints : 1);
  if (next > options.target && options.exactTarget) return { score, slams, again: false, overshoot: true, finished: false };
  const finished = next >= options.target;
  return { score: next, slams, again: !finished, overshoot: false, finished };
}

// ---------------------------------------------------------------------------
// The game

const NO_DICE: readonly (number | null)[] = [null, null, null];
const nameOf = (s: SlamState, seat: number) => s.players[seat]?.name ?? '';

/** The next seat still playing after `seat`. */
function nextPlaying(players: readonly SlamPlayer[], seat: number): number {
  for (let i = 1; i <= players.length; i++) {
    const s = (seat + i) % players.length;
    if (players[s]?.place === null) return s;
  }
  return seat;
}

function applyRoll(state: SlamState, values: unknown): SlamState | InvalidAction {
  const dice = readRoll(values, slam.diceRequest(state), 'The game is over.');
  if (!Array.isArray(dice)) return dice;
  if (state.slam === null) {
    const s = dice[0] as number;
    return { ...state, slam: s, dice: [s, null, null], log: `${nameOf(state, state.current)} threw ${s}: the slam number is ${s}` };
  }
  const me = state.players[state.current] as SlamPlayer;
  const out = scoreSlamThrow(me.score, state.slam, dice, state.options);
  const placed = state.players.filter((p) => p.place !== null).length;
  const players = state.players.map((p, i) => (i === state.current ? { ...p, score: out.score, place: out.finished ? placed + 1 : null } : p));
  const what =
    out.slams === 0 ? 'no slam number' : out.overshoot ? `${out.slams} (past ${state.options.target}: nothing)` : out.slams === 3 ? 'a grand slam' : out.slams === 2 ? 'a little slam' : 'one slam number';
  const next: SlamState = { ...state, players, dice, log: `${me.name} threw ${what}${out.finished ? `, finishing in place ${placed + 1}` : ''}` };
  const playing = players.flatMap((p, i) => (p.place === null ? [i] : []));
  if (out.finished && (state.options.endWhen === 'firstFinisher' || playing.length <= 1)) {
    return { ...next, over: true, loser: state.options.endWhen === 'oneLeft' ? (playing[0] ?? null) : null };
  }
  return out.again ? next : { ...next, current: nextPlaying(players, state.current) };
}

function board(state: SlamState): TableBoard {
  const me = state.players[state.current] as SlamPlayer;
  const first = state.players.findIndex((p) => p.place === 1);
  const status = state.over
    ? state.loser !== null
      ? `Game over: ${nameOf(state, state.loser)} loses`
      : `Game over: ${nameOf(state, first)} wins`
    : state.slam === null
      ? `${me.name}: throw one die for the slam number`
      : `${me.name}: throw for ${state.slam}s (${me.score} of ${state.options.target})`;
  const say = state.over
    ? state.loser !== null
      ? gameSay('slam', 'loses', { name: nameOf(state, state.loser) })
      : winnersSay([nameOf(state, first)])
    : state.slam === null
      ? gameSay('slam', 'slamNumber', { name: me.name })
      : gameSay('slam', 'throwFor', { name: me.name, face: state.slam, score: me.score, target: state.options.target });
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false, false],
    columns: [
      { id: 'score', label: 'Points' },
      { id: 'place', label: 'Finished' },
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: { score: p.score, place: p.place !== null ? p.place : i === state.loser ? 'loser' : null },
      out: p.place !== null,
    })),
    panels: [
      {
        id: 'slam',
        label: 'Slam',
        items: [
          { id: 'slamNumber', label: 'Slam number', value: state.slam, state: 'highlight' },
          { id: 'target', label: 'Target', value: state.options.target },
          ...(state.log ? [{ id: 'last', label: 'Last', value: state.log }] : []),
        ],
      },
    ],
  };
}

export const slam: GameDef<SlamState, SlamAction, SlamOptions> = {
  id: 'slam',
  name: 'Slam',
  minPlayers: 2,
  maxPlayers: 8,
  defaultOptions: SLAM_DEFAULT_OPTIONS,
  summary:
    'A game that finds a loser, for 2-8 players. The starter throws one die: its face is the slam number for the whole game. On your turn throw three dice: one slam number scores 1 point, two (a little slam) 5, three (a grand slam) take you straight to 15. Keep throwing while you score; a throw without the slam number ends your turn, and so does one that would take you past 15, which scores nothing. Reaching exactly 15 takes you out of the game safe; the last player left loses.',
  dice: { count: 3, colours: [], sizes: [], note: 'One die is thrown once at the start for the slam number.' },
  optionSpecs: SLAM_OPTION_SPECS,
  board,
  playerView: (state) => state,
  // No decisions: the bot always throws.
  bot: () => null,

  setup(players, options) {
    const opts = resolveOptions<SlamOptions>('Slam', SLAM_OPTION_SPECS, options);
    checkPlayers('Slam', players, slam.minPlayers, slam.maxPlayers);
    return {
      game: 'slam',
      options: opts,
      players: players.map((name) => ({ name, score: 0, place: null })),
      slam: null,
      current: 0,
      dice: NO_DICE,
      log: null,
      loser: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over) return null;
    if (state.slam === null) return { count: 1, slots: [0], player: state.current, secret: false };
    return { count: 3, slots: [0, 1, 2], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown } | null;
    if (a?.type === 'roll') return applyRoll(state, a.values);
    return invalid('game/unknown_action', `Slam has no action ${show(a?.type)}; the only move is to roll.`);
  },

  legalActions: () => [],

  result(state): GameResult | null {
    if (!state.over) return null;
    // The source names only a loser; the first to finish is reported as the best.
    const first = state.players.findIndex((p) => p.place === 1);
    return { winners: first >= 0 ? [first] : [], scores: state.players.map((p) => p.score) };
  },
};
