/**
 * Bluffi (`bluffi`): the three-dice bluff from the Finnish booklet. One cup
 * of three dice goes round the table; each player throws in secret and
 * announces a total higher than the last, true or not; the next player
 * accepts (the announcer pays a counter into the pot) or calls "Bluffi!".
 * The first player without counters wins. Rules: shared/rules/bluffi.md;
 * every option below is one row of that spec's "Ambiguities and chosen
 * defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, BoardPanel, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkThrow, isIntIn, maskDice, show } from './bluffing-common.js';
import { gameSay, gameValue, winnersSay } from './board-text.js';

export const DICE_COUNT = 3;
/** Lowest and highest total of three dice, the range of announcements. */
export const MIN_TOTAL = 3;
export const MAX_TOTAL = 18;

// ---------------------------------------------------------------------------
// Options

export interface BluffiOptions {
  /** Who may call "Bluffi!": the next player only, or anyone but the announcer. Spec ambiguity 2. */
  readonly challengeBy: 'nextPlayer' | 'anyone';
  /** Who throws first in the round after a challenge. Spec ambiguity 3. */
  readonly nextRoundStarter: 'challenger' | 'loser' | 'winner';
  /** Counters each player starts with. Spec ambiguity 7. */
  readonly countersPerPlayer: number;
}

export const DEFAULT_OPTIONS: BluffiOptions = {
  challengeBy: 'nextPlayer',
  nextRoundStarter: 'challenger',
  countersPerPlayer: 5,
};

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'challengeBy', type: 'choice', default: DEFAULT_OPTIONS.challengeBy, choices: ['nextPlayer', 'anyone'], description: 'Who may call "Bluffi!": only the player after the announcer, or anyone but the announcer (the text also says "if someone shouts Bluffi").' },
  { name: 'nextRoundStarter', type: 'choice', default: DEFAULT_OPTIONS.nextRoundStarter, choices: ['challenger', 'loser', 'winner'], description: 'Who throws first after a challenge: the challenger, the side that was wrong (and receives a counter), or the side that was right (and gives one away).' },
  { name: 'countersPerPlayer', type: 'integer', default: DEFAULT_OPTIONS.countersPerPlayer, min: 1, max: 30, description: 'Counters each player starts with.' },
];

// ---------------------------------------------------------------------------
// Pure helpers

/** Ways three dice make each total, over the 216 throws; index = total. */
const WAYS: readonly number[] = (() => {
  const ways = Array<number>(MAX_TOTAL + 1).fill(0);
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) ways[a + b + c] = (ways[a + b + c] ?? 0) + 1;
  return ways;
})();

/** Chance that three fair dice total at least `total`. */
export function chanceAtLeast(total: number): number {
  let ways = 0;
  for (let t = Math.max(total, MIN_TOTAL); t <= MAX_TOTAL; t++) ways += WAYS[t] ?? 0;
  return ways / 216;
}

/** Lowest total that may be announced over `previous` (null = a new round), or null when nothing is higher. */
export function minimumAnnouncement(previous: number | null): number | null {
  if (previous === null) return MIN_TOTAL;
  return previous >= MAX_TOTAL ? null : previous + 1;
}

/** How a "Bluffi!" call ends: the announcement holds when the dice total at least what was announced. */
export interface BluffiVerdict {
  readonly total: number;
  readonly truthful: boolean;
  /** The side that was right gives one of its counters to the other. */
  readonly giver: number;
  readonly receiver: number;
}

export function judgeBluffi(dice: readonly number[], announced: number, announcer: number, challenger: number): BluffiVerdict {
  const total = dice.reduce((a, b) => a + b, 0);
  const truthful = total >= announced;
  return { total, truthful, giver: truthful ? announcer : challenger, receiver: truthful ? challenger : announcer };
}

// ---------------------------------------------------------------------------
// State and actions

export interface BluffiPlayer {
  readonly name: string;
  readonly counters: number;
}

/** The last "Bluffi!" call, revealed to everyone. */
export interface BluffiChallenge {
  readonly round: number;
  readonly announcer: number;
  readonly challenger: number;
  readonly announced: number;
  readonly dice: readonly number[];
  readonly total: number;
  readonly truthful: boolean;
  readonly giver: number;
  readonly receiver: number;
}

/** 'throwOff': public throws for the starter; 'throw': secret throw; 'announce'; 'respond': accept or call. */
export type BluffiPhase = 'throwOff' | 'throw' | 'announce' | 'respond' | 'over';

export interface BluffiState {
  readonly game: 'bluffi';
  readonly options: BluffiOptions;
  readonly players: readonly BluffiPlayer[];
  readonly phase: BluffiPhase;
  /** Seat to throw, announce or respond (the winner once over). */
  readonly current: number;
  /** The three dice in the cup; null before the throw. */
  readonly dice: readonly (number | null)[];
  /** Who may see the dice: everyone (the throw-off), or these seats (the thrower, and a player who accepted and peeked). */
  readonly visibleTo: 'everyone' | readonly number[];
  /** Throw-off: seats still contending for the start, and their totals in this pass (null = not thrown). */
  readonly contenders: readonly number[];
  readonly throwOff: readonly (number | null)[];
  /** The announcement standing in this round, and who made it. */
  readonly announcement: number | null;
  readonly announcer: number | null;
  /** This round's announcements, oldest first (the standing one last), for the players' list. */
  readonly claims: readonly { readonly seat: number; readonly total: number }[];
  /** Counters paid for accepted announcements (out of the game). */
  readonly pot: number;
  readonly round: number;
  readonly lastChallenge: BluffiChallenge | null;
  readonly over: boolean;
}

export type BluffiAction =
  | RollAction
  /** Announce a total (3..18, above the standing announcement). */
  | { readonly type: 'announce'; readonly total: number }
  /** The next player believes it: the announcer pays a counter and the cup passes on. */
  | { readonly type: 'accept' }
  /** "Bluffi!": the announcer reveals. `by` = the caller (the next player when left out). */
  | { readonly type: 'challenge'; readonly by?: number };

// ---------------------------------------------------------------------------
// Moves

const nextSeat = (state: BluffiState, seat: number): number => (seat + 1) % state.players.length;
const playerName = (state: BluffiState, seat: number | null): string => (seat === null ? '' : state.players[seat]?.name ?? `seat ${seat}`);
const NO_DICE: readonly null[] = [null, null, null];

/** A round opened by `starter`: a fresh secret throw, any announcement. */
const newRound = (state: BluffiState, starter: number, round: number): BluffiState => ({
  ...state,
  phase: 'throw',
  current: starter,
  dice: NO_DICE,
  visibleTo: [],
  announcement: null,
  announcer: null,
  claims: [],
  round,
});

function applyRoll(state: BluffiState, values: unknown): BluffiState | InvalidAction {
  const checked = checkThrow(bluffi.diceRequest(state), values);
  if (!Array.isArray(checked)) return checked as InvalidAction;
  const dice = [...checked];
  if (state.phase === 'throw') return { ...state, dice, visibleTo: [state.current], phase: 'announce' };
  // Starter throw-off: highest total starts, the tied throw again.
  const throwOff = state.throwOff.map((t, seat) => (seat === state.current ? dice.reduce((a, b) => a + b, 0) : t));
  const waiting = state.contenders.find((seat) => throwOff[seat] === null);
  if (waiting !== undefined) return { ...state, dice, visibleTo: 'everyone', throwOff, current: waiting };
  const best = Math.max(...state.contenders.map((seat) => throwOff[seat] ?? 0));
  const tied = state.contenders.filter((seat) => throwOff[seat] === best);
  if (tied.length > 1) {
    return { ...state, dice, visibleTo: 'everyone', contenders: tied, throwOff: throwOff.map(() => null), current: tied[0] as number };
  }
  return newRound({ ...state, throwOff, contenders: tied }, tied[0] as number, 1);
}

function applyAnnounce(state: BluffiState, total: unknown): BluffiState | InvalidAction {
  if (state.phase !== 'announce') return invalid('game/not_announcing', notNow(state, 'announce'));
  const min = minimumAnnouncement(state.announcement) as number;
  if (!isIntIn(total, MIN_TOTAL, MAX_TOTAL)) return invalid('game/bad_announcement', `An announcement is a total of three dice, ${MIN_TOTAL} to ${MAX_TOTAL}; got ${show(total)}.`);
  if (total < min) return invalid('game/announce_too_low', `The announcement must beat ${state.announcement}: ${min} or more.`);
  return { ...state, phase: 'respond', announcement: total, announcer: state.current, claims: [...state.claims, { seat: state.current, total }], current: nextSeat(state, state.current) };
}

function applyAccept(state: BluffiState): BluffiState | InvalidAction {
  if (state.phase !== 'respond') return invalid('game/not_responding', notNow(state, 'accept'));
  const announcer = state.announcer as number;
  if (minimumAnnouncement(state.announcement) === null) {
    return invalid('game/must_challenge', `Nothing beats ${MAX_TOTAL}: ${playerName(state, state.current)} must call "Bluffi!".`);
  }
  const players = state.players.map((p, i) => (i === announcer ? { ...p, counters: p.counters - 1 } : p));
  const paid = { ...state, players, pot: state.pot + 1 };
  if ((players[announcer]?.counters ?? 0) === 0) return { ...paid, phase: 'over', over: true, current: announcer };
  // The accepter takes the cup and may peek at the throw before re-throwing it.
  return { ...paid, phase: 'throw', visibleTo: [announcer, state.current] };
}

function applyChallenge(state: BluffiState, by: unknown): BluffiState | InvalidAction {
  if (state.phase !== 'respond') return invalid('game/not_responding', notNow(state, 'call "Bluffi!"'));
  const announcer = state.announcer as number;
  const challenger = by === undefined || by === null ? state.current : by;
  if (!isIntIn(challenger, 0, state.players.length - 1)) return invalid('game/bad_player', `There is no seat ${show(by)}.`);
  if (challenger === announcer) return invalid('game/not_your_turn', `${playerName(state, announcer)} cannot call "Bluffi!" on their own announcement.`);
  if (state.options.challengeBy === 'nextPlayer' && challenger !== state.current) {
    return invalid('game/not_your_turn', `Only ${playerName(state, state.current)}, the next player, may call "Bluffi!".`);
  }
  const dice = state.dice as number[];
  const v = judgeBluffi(dice, state.announcement as number, announcer, challenger);
  const players = state.players.map((p, i) => (i === v.giver ? { ...p, counters: p.counters - 1 } : i === v.receiver ? { ...p, counters: p.counters + 1 } : p));
  const lastChallenge: BluffiChallenge = { round: state.round, announcer, challenger, announced: state.announcement as number, dice, total: v.total, truthful: v.truthful, giver: v.giver, receiver: v.receiver };
  const settled: BluffiState = { ...state, players, lastChallenge, dice: NO_DICE, visibleTo: [] };
  if ((players[v.giver]?.counters ?? 0) === 0) return { ...settled, phase: 'over', over: true, current: v.giver, announcement: null, announcer: null };
  const o = state.options.nextRoundStarter;
  return newRound(settled, o === 'challenger' ? challenger : o === 'winner' ? v.giver : v.receiver, state.round + 1);
}

function notNow(state: BluffiState, verb: string): string {
  if (state.phase === 'throwOff' || state.phase === 'throw') return `Cannot ${verb} now: the dice are still to be thrown.`;
  if (state.phase === 'announce') return `Cannot ${verb} now: ${playerName(state, state.current)} is to announce a total.`;
  return `Cannot ${verb} now: ${playerName(state, state.current)} is to accept or call "Bluffi!".`;
}

// ---------------------------------------------------------------------------
// Views and board

/** True when `viewer` (null = the public) may see the cup's dice. */
export function maySee(state: BluffiState, viewer: number | null): boolean {
  return state.visibleTo === 'everyone' || (viewer !== null && state.visibleTo.includes(viewer));
}

function playerView(state: BluffiState, viewer: number | null): BluffiState {
  return maySee(state, viewer) ? state : { ...state, dice: maskDice(state.dice, () => false) };
}

function board(state: BluffiState): TableBoard {
  const name = playerName(state, state.current);
  const min = minimumAnnouncement(state.announcement);
  const claim = `${playerName(state, state.announcer)}'s ${state.announcement}`;
  const status = state.over
    ? `Game over: ${name} wins`
    : state.phase === 'throwOff'
      ? `${name}: throw for the first turn (open)`
      : state.phase === 'throw'
        ? `${name}: throw the three dice (secret)${state.announcement === null ? '' : `, then beat ${state.announcement}`}`
        : state.phase === 'announce'
          ? `${name}: announce a total of ${min}${min === MAX_TOTAL ? '' : ` to ${MAX_TOTAL}`}`
          : min === null
            ? `${name}: call "Bluffi!" on ${claim} (nothing beats it)`
            : `${name}: accept ${claim} or call "Bluffi!"`;
  const G = 'bluffi';
  const claimer = playerName(state, state.announcer);
  const say: BoardText = state.over
    ? winnersSay([name])
    : state.phase === 'throwOff'
      ? gameSay(G, 'throwOff', { name })
      : state.phase === 'throw'
        ? state.announcement === null
          ? gameSay(G, 'throwSecret', { name })
          : gameSay(G, 'throwSecretToBeat', { name, total: state.announcement })
        : state.phase === 'announce'
          ? min === MAX_TOTAL
            ? gameSay(G, 'announceTop', { name, total: min })
            : gameSay(G, 'announce', { name, total: min ?? 0, top: MAX_TOTAL })
          : min === null
            ? gameSay(G, 'mustCall', { name, other: claimer, total: state.announcement ?? 0 })
            : gameSay(G, 'acceptOrCall', { name, other: claimer, total: state.announcement ?? 0 });
  const panels: BoardPanel[] = [
    {
      id: 'claim',
      label: 'Announcement',
      items: [
        state.announcement === null ? { id: 'total', label: 'Total', value: null } : { id: 'total', label: 'Total', value: state.announcement, state: 'active' },
        { id: 'by', label: 'By', value: state.announcer === null ? null : playerName(state, state.announcer) },
        { id: 'toBeat', label: 'Next must beat', value: state.announcement },
        { id: 'round', label: 'Round', value: state.round },
      ],
    },
    { id: 'claims', label: 'Announced this round', items: state.claims.map((c) => ({ id: 'seat', label: playerName(state, c.seat), params: { name: playerName(state, c.seat) }, value: c.total })) },
    { id: 'pot', label: 'Pot', items: [{ id: 'counters', label: 'Counters', value: state.pot }] },
  ];
  if (state.phase === 'throwOff') {
    panels.push({
      id: 'throwOff',
      label: 'Throw for the first turn',
      items: state.contenders.map((seat) => ({ id: 'seat', label: playerName(state, seat), params: { name: playerName(state, seat) }, value: state.throwOff[seat] ?? null })),
    });
  }
  const lc = state.lastChallenge;
  if (lc !== null) {
    panels.push({
      id: 'challenge',
      label: `Last "Bluffi!" (round ${lc.round})`,
      params: { round: lc.round },
      items: [
        { id: 'announced', label: 'Announced', value: `${lc.announced} by ${playerName(state, lc.announcer)}`, valueSay: { key: 'bluff.bidBy', params: { bid: lc.announced, name: playerName(state, lc.announcer) } } },
        { id: 'calledBy', label: 'Called by', value: playerName(state, lc.challenger) },
        { id: 'dice', label: 'Dice', value: `${lc.dice.join('-')} = ${lc.total}`, state: 'highlight' },
        {
          id: 'verdict',
          label: 'Verdict',
          value: `${lc.truthful ? 'true' : 'a bluff'}: ${playerName(state, lc.giver)} gave a counter to ${playerName(state, lc.receiver)}`,
          valueSay: gameValue(G, lc.truthful ? 'verdictTrue' : 'verdictBluff', { giver: playerName(state, lc.giver), receiver: playerName(state, lc.receiver) }),
        },
      ],
    });
  }
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: [false, false, false],
    columns: [{ id: 'counters', label: 'Counters' }],
    players: state.players.map((p) => ({ name: p.name, values: { counters: p.counters }, out: false })),
    panels,
  };
}

// ---------------------------------------------------------------------------
// Bot

/**
 * A simple player from its own view: announces its true total when that is
 * high enough, else the lowest allowed total; calls "Bluffi!" with the
 * chance that three dice fall short of the announcement.
 */
function bot(state: BluffiState, random: () => number): BluffiAction | null {
  if (state.phase === 'throwOff' || state.phase === 'throw' || state.over) return null;
  const view = playerView(state, state.current);
  if (view.phase === 'announce') {
    const total = view.dice.reduce<number>((a, d) => a + (d ?? 0), 0);
    const min = minimumAnnouncement(view.announcement) as number;
    return { type: 'announce', total: Math.max(total, min) };
  }
  const announced = view.announcement as number;
  if (minimumAnnouncement(announced) === null || random() >= chanceAtLeast(announced)) return { type: 'challenge', by: view.current };
  return { type: 'accept' };
}

// ---------------------------------------------------------------------------
// The game

export const bluffi: GameDef<BluffiState, BluffiAction, BluffiOptions> = {
  id: 'bluffi',
  name: 'Bluffi',
  minPlayers: 2,
  maxPlayers: 4,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    'A three-dice bluffing game for 2-4 players with 5 counters each. The highest open throw starts. In turn, a player throws three dice in secret and announces their total, true or not, higher than the last announcement of the round. The next player either accepts (the announcer pays a counter into the pot, and the accepter throws and must announce higher) or calls "Bluffi!": the dice are shown, and if they total at least the announcement the announcer gives a counter to the caller, otherwise the caller gives one to the announcer; a new round starts. The first player with no counters left wins.',
  dice: { count: 3, colours: [], sizes: [], note: 'Every turn is a secret throw shown only to the thrower; the throw for the first turn is open.' },
  secretThrows: true,
  optionSpecs: OPTION_SPECS,
  board,
  playerView,
  bot,
  // With challengeBy 'anyone' a caller other than the next player names themself.
  actor: (_state, action) => (action.type === 'challenge' && typeof action.by === 'number' ? action.by : null),

  setup(players, options) {
    const opts = resolveOptions<BluffiOptions>('Bluffi', OPTION_SPECS, options);
    checkPlayers('Bluffi', players, bluffi.minPlayers, bluffi.maxPlayers);
    return {
      game: 'bluffi',
      options: opts,
      players: players.map((name) => ({ name, counters: opts.countersPerPlayer })),
      phase: 'throwOff',
      current: 0,
      dice: NO_DICE,
      visibleTo: 'everyone',
      contenders: players.map((_, i) => i),
      throwOff: players.map(() => null),
      announcement: null,
      announcer: null,
      claims: [],
      pot: 0,
      round: 0,
      lastChallenge: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.phase !== 'throwOff' && state.phase !== 'throw') return null;
    return { count: DICE_COUNT, slots: [0, 1, 2], player: state.current, secret: state.phase === 'throw' };
  },

  apply(state, action) {
    if (state.over) return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown; total?: unknown; by?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'announce':
        return applyAnnounce(state, a.total);
      case 'accept':
        return applyAccept(state);
      case 'challenge':
        return applyChallenge(state, a.by);
      default:
        return invalid('game/unknown_action', `Bluffi has no action ${show(a?.type)}; use roll, announce, accept or challenge.`);
    }
  },

  legalActions(state) {
    if (state.phase === 'announce') {
      const min = minimumAnnouncement(state.announcement) as number;
      return Array.from({ length: MAX_TOTAL - min + 1 }, (_, i): BluffiAction => ({ type: 'announce', total: min + i }));
    }
    if (state.phase !== 'respond') return [];
    const actions: BluffiAction[] = minimumAnnouncement(state.announcement) === null ? [] : [{ type: 'accept' }];
    actions.push({ type: 'challenge', by: state.current });
    if (state.options.challengeBy === 'anyone') {
      state.players.forEach((_, seat) => {
        if (seat !== state.current && seat !== state.announcer) actions.push({ type: 'challenge', by: seat });
      });
    }
    return actions;
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    return { winners: [state.current], scores: state.players.map((p) => p.counters) };
  },
};
