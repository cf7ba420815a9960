/**
 * Poker Dice (`poker-dice`): each round every player throws a five-dice
 * poker hand (up to three throws, keeping dice between them); the best hand
 * wins the round, and the first to win `roundsToWin` rounds wins the game.
 * Rules: shared/rules/poker-dice.md; every option below is one row of that
 * spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, BoardPanel, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkDieIndices, checkRollValues, faceCounts, isDieValue, showValue } from './yatzy-family-common.js';
import { gameSay, gameValue, valueSay } from './board-text.js';

// ---------------------------------------------------------------------------
// Hands

export type PokerHandKind = 'five' | 'four' | 'fullHouse' | 'straight' | 'three' | 'twoPairs' | 'pair' | 'bust';

/** The two hand orders public sources use: straight below the full house (default), or above it. */
export const HAND_ORDER_STRAIGHT_LOW = 'five,four,fullHouse,straight,three,twoPairs,pair,bust';
export const HAND_ORDER_STRAIGHT_HIGH = 'five,four,straight,fullHouse,three,twoPairs,pair,bust';

export const POKER_HAND_LABELS: Readonly<Record<PokerHandKind, string>> = {
  five: 'Five of a kind',
  four: 'Four of a kind',
  fullHouse: 'Full house',
  straight: 'Straight',
  three: 'Three of a kind',
  twoPairs: 'Two pairs',
  pair: 'One pair',
  bust: 'Bust',
};

const DICE = 5;

export interface PokerDiceOptions {
  /** A 1 ranks as an ace, above the 6. Spec ambiguity 1. */
  readonly aceHigh: boolean;
  /** Hand classes best first, comma-separated (a choice of the two public orders). Spec ambiguity 2. */
  readonly handOrder: string;
  /** 2-3-4-5-6 beats 1-2-3-4-5 (else the two straights tie). Spec ambiguity 3. */
  readonly highStraightBeatsLow: boolean;
  /** Later players may use at most as many throws as the hand's first player used. Spec ambiguity 4. */
  readonly throwCapFromLeader: boolean;
  /** Throws per hand. Spec ambiguity 4. */
  readonly maxThrows: number;
  /** Round wins that win the game. Spec ambiguity 5. */
  readonly roundsToWin: number;
  /** Exact tie for the best hand: the tied players 'replay' a hand, or each scores the round ('shared'). Spec ambiguity 6. */
  readonly tieRule: 'replay' | 'shared';
}

export const POKER_DICE_DEFAULT_OPTIONS: PokerDiceOptions = {
  aceHigh: true,
  handOrder: HAND_ORDER_STRAIGHT_LOW,
  highStraightBeatsLow: true,
  throwCapFromLeader: true,
  maxThrows: 3,
  roundsToWin: 3,
  tieRule: 'replay',
};

export const POKER_DICE_OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'aceHigh', type: 'boolean', default: true, description: 'A 1 ranks as an ace, above the 6.' },
  {
    name: 'handOrder',
    type: 'choice',
    default: HAND_ORDER_STRAIGHT_LOW,
    choices: [HAND_ORDER_STRAIGHT_LOW, HAND_ORDER_STRAIGHT_HIGH],
    description: 'Hand classes, best first: the straight below the full house (default) or above it.',
  },
  { name: 'highStraightBeatsLow', type: 'boolean', default: true, description: '2-3-4-5-6 beats 1-2-3-4-5; off, the two straights tie.' },
  { name: 'throwCapFromLeader', type: 'boolean', default: true, description: "Later players may use at most as many throws as the hand's first player used." },
  { name: 'maxThrows', type: 'integer', default: 3, min: 1, max: 10, description: 'Throws per hand.' },
  { name: 'roundsToWin', type: 'integer', default: 3, min: 1, max: 50, description: 'Round wins needed to win the game.' },
  { name: 'tieRule', type: 'choice', default: 'replay', choices: ['replay', 'shared'], description: "Exact tie for the best hand: the tied players 'replay' a hand among themselves, or each scores the round ('shared')." },
];

export interface PokerHand {
  readonly kind: PokerHandKind;
  /** Values compared in order when the kinds are equal (higher is better). */
  readonly key: readonly number[];
}

function assertDice(dice: readonly number[]): void {
  // Callers hand over complete hands; anything else is a bug, not a player's mistake.
  if (dice.length !== DICE || !dice.every(isDieValue)) throw new RangeError(`Expected ${DICE} dice with values 1..6, got [${dice.join(', ')}]`);
}

type RankRules = Pick<PokerDiceOptions, 'aceHigh' | 'highStraightBeatsLow'>;

/** The class of five dice and the values that break ties within it. */
export function pokerHand(dice: readonly number[], options: RankRules = POKER_DICE_DEFAULT_OPTIONS): PokerHand {
  assertDice(dice);
  const counts = faceCounts(dice);
  const rank = (face: number) => (face === 1 && options.aceHigh ? 7 : face);
  // Faces by group size, then by rank: the main group first, then the kickers.
  const faces = [1, 2, 3, 4, 5, 6].filter((f) => (counts[f] ?? 0) > 0).sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || rank(b) - rank(a));
  const shape = faces.map((f) => counts[f] ?? 0).join('');
  const key = faces.map(rank);
  switch (shape) {
    case '5':
      return { kind: 'five', key };
    case '41':
      return { kind: 'four', key };
    case '32':
      return { kind: 'fullHouse', key };
    case '311':
      return { kind: 'three', key };
    case '221':
      return { kind: 'twoPairs', key };
    case '2111':
      return { kind: 'pair', key };
  }
  // Five different faces: a straight unless both 1 and 6 show.
  if (counts[1] === 0 || counts[6] === 0) {
    const high = counts[6] === 1;
    return { kind: 'straight', key: [high && options.highStraightBeatsLow ? 1 : 0] };
  }
  return { kind: 'bust', key };
}

const kindOrder = (handOrder: string): PokerHandKind[] => handOrder.split(',') as PokerHandKind[];

/** Positive when hand `a` beats hand `b`, negative when it loses, 0 on an exact tie. */
export function comparePokerHands(a: readonly number[], b: readonly number[], options: PokerDiceOptions = POKER_DICE_DEFAULT_OPTIONS): number {
  const ha = pokerHand(a, options);
  const hb = pokerHand(b, options);
  const order = kindOrder(options.handOrder);
  const byKind = order.indexOf(hb.kind) - order.indexOf(ha.kind);
  if (byKind !== 0) return byKind;
  for (let i = 0; i < Math.max(ha.key.length, hb.key.length); i++) {
    const d = (ha.key[i] ?? 0) - (hb.key[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A hand for people: "Full house 2-2-2-5-5". */
export function describePokerHand(dice: readonly number[], options: PokerDiceOptions = POKER_DICE_DEFAULT_OPTIONS): string {
  const h = pokerHand(dice, options);
  const rank = (f: number) => (f === 1 && options.aceHigh ? 7 : f);
  const counts = faceCounts(dice);
  const sorted = [...dice].sort((x, y) => (counts[y] ?? 0) - (counts[x] ?? 0) || rank(y) - rank(x));
  return `${POKER_HAND_LABELS[h.kind]} ${sorted.join('-')}`;
}

// ---------------------------------------------------------------------------
// State and actions

export interface PokerDicePlayer {
  readonly name: string;
  /** Rounds won so far. */
  readonly wins: number;
}

export interface PokerDiceState {
  readonly game: 'poker-dice';
  readonly options: PokerDiceOptions;
  readonly players: readonly PokerDicePlayer[];
  /** 'start': one die each to choose the first player; 'hand': playing hands; 'over'. */
  readonly phase: 'start' | 'hand' | 'over';
  /** Seats throwing in the current start-throw pass or hand, in throwing order. */
  readonly order: readonly number[];
  /** Index into `order` of the seat throwing now. */
  readonly turn: number;
  /** The start throw per seat (null = not thrown in this pass, or out of it). */
  readonly startThrows: readonly (number | null)[];
  /** Round number, 1-based; a replay after a tie stays in its round. */
  readonly round: number;
  /** Seat that opened this round (the next round opens with the seat to its left). */
  readonly leader: number;
  /** True while the tied players of this round replay a hand. */
  readonly replay: boolean;
  /** Throws the hand's first player used: the cap for the rest (null until they finish). */
  readonly cap: number | null;
  readonly throwsTaken: number;
  readonly dice: readonly (number | null)[];
  readonly held: readonly boolean[];
  /** Final hands of this hand, per seat (null = not played yet, or not in it). */
  readonly hands: readonly (readonly number[] | null)[];
  /** The last finished hand, for the scoreboard. */
  readonly lastHand: { readonly round: number; readonly hands: readonly (readonly number[] | null)[]; readonly best: readonly number[] } | null;
}

export type PokerDiceAction =
  | RollAction
  /** Keep dice (by index) out of the next throw. */
  | { readonly type: 'hold'; readonly dice: readonly number[] }
  /** Put kept dice (by index) back into the next throw. */
  | { readonly type: 'release'; readonly dice: readonly number[] }
  /** End one's hand with the dice on the table. */
  | { readonly type: 'stand' };

// ---------------------------------------------------------------------------
// The game

const noDice = (): (number | null)[] => Array<number | null>(DICE).fill(null);
const noHolds = (): boolean[] => Array<boolean>(DICE).fill(false);

/** Seat throwing now, or null once over. */
function seatNow(state: PokerDiceState): number | null {
  return state.phase === 'over' ? null : (state.order[state.turn] ?? null);
}

/** Seats clockwise from `first`, keeping only those in `among`. */
function clockwise(n: number, first: number, among: readonly number[]): number[] {
  return Array.from({ length: n }, (_, i) => (first + i) % n).filter((s) => among.includes(s));
}

/** Throws the seat now throwing may use in this hand. */
function throwLimit(state: PokerDiceState): number {
  if (state.turn === 0 || !state.options.throwCapFromLeader || state.cap === null) return state.options.maxThrows;
  return state.cap;
}

function thrownHand(state: PokerDiceState): number[] | null {
  if (state.phase !== 'hand' || state.throwsTaken === 0) return null;
  const dice = state.dice.filter(isDieValue);
  return dice.length === DICE ? dice : null;
}

/** A fresh hand for `seats` (in throwing order). */
function startHand(state: PokerDiceState, seats: readonly number[], fields: Partial<PokerDiceState>): PokerDiceState {
  return {
    ...state,
    ...fields,
    phase: 'hand',
    order: seats,
    turn: 0,
    cap: null,
    throwsTaken: 0,
    dice: noDice(),
    held: noHolds(),
    hands: state.players.map(() => null),
  };
}

/** The best hands among `seats`. */
function bestSeats(hands: readonly (readonly number[] | null)[], seats: readonly number[], options: PokerDiceOptions): number[] {
  let best: number[] = [];
  for (const s of seats) {
    const h = hands[s];
    if (!h) continue;
    const top = best[0] === undefined ? null : (hands[best[0]] ?? null);
    const c = top === null ? 1 : comparePokerHands(h, top, options);
    if (c > 0) best = [s];
    else if (c === 0) best.push(s);
  }
  return best;
}

/** Every seat in the hand has played: award the round, replay a tie, or end the game. */
function settleHand(state: PokerDiceState): PokerDiceState {
  const o = state.options;
  const best = bestSeats(state.hands, state.order, o);
  const lastHand = { round: state.round, hands: state.hands, best };
  if (best.length > 1 && o.tieRule === 'replay') {
    return startHand(state, best, { replay: true, lastHand });
  }
  const players = state.players.map((p, i) => (best.includes(i) ? { ...p, wins: p.wins + 1 } : p));
  if (players.some((p) => p.wins >= o.roundsToWin)) {
    return { ...state, players, lastHand, phase: 'over', throwsTaken: 0, held: noHolds() };
  }
  const n = state.players.length;
  const leader = (state.leader + 1) % n;
  return startHand({ ...state, players }, clockwise(n, leader, state.players.map((_, i) => i)), { leader, round: state.round + 1, replay: false, lastHand });
}

/** The seat now throwing ends its hand with the dice on the table. */
function finishTurn(state: PokerDiceState): PokerDiceState {
  const seat = state.order[state.turn] as number;
  const hand = state.dice.filter(isDieValue);
  const hands = state.hands.map((h, i) => (i === seat ? hand : h));
  const cap = state.turn === 0 ? state.throwsTaken : state.cap;
  const next = { ...state, hands, cap };
  if (state.turn + 1 >= state.order.length) return settleHand(next);
  return { ...next, turn: state.turn + 1, throwsTaken: 0, dice: noDice(), held: noHolds() };
}

function applyStartThrow(state: PokerDiceState, values: unknown): PokerDiceState | InvalidAction {
  const request = pokerDice.diceRequest(state) as DiceRequest;
  const bad = checkRollValues(request, values);
  if (bad) return bad;
  const seat = request.player;
  const value = (values as number[])[0] as number;
  const startThrows = state.startThrows.map((v, i) => (i === seat ? value : v));
  const dice = noDice();
  dice[0] = value;
  if (state.turn + 1 < state.order.length) return { ...state, startThrows, dice, turn: state.turn + 1 };
  // Everyone in this pass has thrown: the highest starts; a tie for highest throws again.
  const high = Math.max(...state.order.map((s) => startThrows[s] ?? 0));
  const top = state.order.filter((s) => startThrows[s] === high);
  if (top.length > 1) {
    return { ...state, dice, order: top, turn: 0, startThrows: startThrows.map((v, i) => (top.includes(i) ? null : v)) };
  }
  const leader = top[0] as number;
  return startHand({ ...state, startThrows }, clockwise(state.players.length, leader, state.players.map((_, i) => i)), { leader });
}

function applyRoll(state: PokerDiceState, values: unknown): PokerDiceState | InvalidAction {
  if (state.phase === 'start') return applyStartThrow(state, values);
  const limit = throwLimit(state);
  if (state.throwsTaken >= limit) return invalid('game/no_throws_left', `All ${limit} throws of this hand are used.`);
  const request = pokerDice.diceRequest(state);
  if (request === null) return invalid('game/all_dice_held', 'Every die is kept, so there is nothing to throw; release a die or stand.');
  const bad = checkRollValues(request, values);
  if (bad) return bad;
  const dice = [...state.dice];
  request.slots.forEach((slot, i) => {
    dice[slot] = (values as number[])[i] as number;
  });
  const thrown = { ...state, dice, throwsTaken: state.throwsTaken + 1 };
  // The last allowed throw leaves nothing to decide: the hand stands as thrown.
  return thrown.throwsTaken >= limit ? finishTurn(thrown) : thrown;
}

function applyHold(state: PokerDiceState, indices: unknown, hold: boolean): PokerDiceState | InvalidAction {
  const verb = hold ? 'keep' : 'release';
  if (thrownHand(state) === null) return invalid('game/no_throw_yet', `Dice can only be kept after the first throw of a hand; there is nothing to ${verb} yet.`);
  const bad = checkDieIndices(indices, DICE, verb);
  if (bad) return bad;
  return { ...state, held: state.held.map((h, i) => ((indices as number[]).includes(i) ? hold : h)) };
}

function board(state: PokerDiceState): TableBoard {
  const o = state.options;
  const seat = seatNow(state);
  const name = seat === null ? '' : (state.players[seat]?.name ?? '');
  const limit = throwLimit(state);
  const handOf = (i: number): string | null => {
    const h = state.hands[i];
    return h ? describePokerHand(h, o) : null;
  };
  let status: string;
  if (state.phase === 'over') {
    const r = pokerDice.result(state) as GameResult;
    status = `Game over: ${r.winners.map((w) => state.players[w]?.name).join(' and ')} ${r.winners.length > 1 ? 'win' : 'wins'}`;
  } else if (state.phase === 'start') {
    status = `${name}: throw one die to choose who starts`;
  } else if (state.throwsTaken === 0) {
    status = `${name}: throw for your hand${state.turn > 0 && o.throwCapFromLeader ? ` (at most ${limit} throw${limit === 1 ? '' : 's'})` : ''}`;
  } else {
    status = `${name}: keep dice and throw again, or stand`;
  }
  let say: BoardText;
  if (state.phase === 'over') {
    const r = pokerDice.result(state) as GameResult;
    say = gameSay('poker-dice', r.winners.length > 1 ? 'overShared' : 'over', { names: r.winners.map((w) => state.players[w]?.name ?? '') });
  } else if (state.phase === 'start') say = gameSay('poker-dice', 'start', { name });
  else if (state.throwsTaken === 0) say = state.turn > 0 && o.throwCapFromLeader ? gameSay('poker-dice', 'handAtMost', { name, count: limit }) : gameSay('poker-dice', 'hand', { name });
  else say = gameSay('poker-dice', 'keepOrStand', { name });
  const best = state.lastHand?.best ?? [];
  const panels: BoardPanel[] = [
    {
      id: 'round',
      label: 'Round',
      items: [
        { id: 'round', label: 'Round', value: state.round },
        { id: 'firstPlayer', label: 'First player', value: state.phase === 'start' ? null : (state.players[state.leader]?.name ?? null) },
        { id: 'throw', label: 'Throw', value: state.phase === 'hand' ? `${state.throwsTaken} of ${limit}` : null, valueSay: valueSay('of', { number: state.throwsTaken, of: limit }) },
        ...(state.replay ? [{ id: 'tie', label: 'Tie', value: 'replaying the hand', valueSay: gameValue('poker-dice', 'replaying'), state: 'active' as const }] : []),
        { id: 'toWin', label: 'To win', value: `${o.roundsToWin} rounds`, valueSay: gameValue('poker-dice', 'rounds', { count: o.roundsToWin }) },
      ],
    },
  ];
  if (state.phase === 'start') {
    panels.push({
      id: 'start',
      label: 'Throw for the start',
      items: state.players.map((p, i) => ({ id: 'seat', label: p.name, params: { name: p.name }, value: state.startThrows[i] ?? null, state: state.order.includes(i) ? 'active' : undefined })),
    });
  }
  if (state.lastHand) {
    const last = state.lastHand;
    panels.push({
      id: 'lastHand',
      label: `Last hand (round ${last.round})`,
      params: { round: last.round },
      items: state.players.flatMap((p, i) => {
        const h = last.hands[i];
        return h ? [{ id: 'seat', label: p.name, params: { name: p.name }, value: describePokerHand(h, o), state: best.includes(i) ? ('highlight' as const) : undefined }] : [];
      }),
    });
  }
  return {
    kind: 'table',
    status,
    say,
    current: seat,
    dice: state.dice,
    held: state.held,
    columns: [
      { id: 'wins', label: 'Rounds won' },
      { id: 'hand', label: 'Hand' },
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: { wins: p.wins, hand: handOf(i) },
      out: state.phase === 'hand' && !state.order.includes(i),
    })),
    panels,
  };
}

/** Class rank (0 = best) of a hand under the options. */
const classRank = (dice: readonly number[], o: PokerDiceOptions) => kindOrder(o.handOrder).indexOf(pokerHand(dice, o).kind);

/**
 * A greedy player: stands once its hand beats every hand already played (or,
 * throwing first, on three of a kind or better); otherwise keeps its pairs
 * and sets and throws the rest.
 */
function bot(state: PokerDiceState): PokerDiceAction | null {
  const dice = thrownHand(state);
  if (dice === null) return null;
  const o = state.options;
  const played = state.order.slice(0, state.turn).map((s) => state.hands[s]).filter((h): h is readonly number[] => h !== null);
  const good = played.length > 0 ? played.every((h) => comparePokerHands(dice, h, o) > 0) : classRank(dice, o) <= kindOrder(o.handOrder).indexOf('three');
  const counts = faceCounts(dice);
  const keep = dice.map((d) => (counts[d] ?? 0) >= 2);
  if (good || pokerHand(dice, o).kind === 'straight' || keep.every(Boolean)) return { type: 'stand' };
  const change = keep.findIndex((k, i) => k !== state.held[i]);
  if (change >= 0) return { type: keep[change] ? 'hold' : 'release', dice: [change] };
  return null;
}

export const pokerDice: GameDef<PokerDiceState, PokerDiceAction, PokerDiceOptions> = {
  id: 'poker-dice',
  name: 'Poker Dice',
  minPlayers: 2,
  maxPlayers: 10,
  defaultOptions: POKER_DICE_DEFAULT_OPTIONS,
  summary:
    'Poker hands with five dice, for two or more players. One die each decides who opens. Each round every player throws a hand: up to three throws, keeping any dice between them, though later players may not use more throws than the round\'s first player did. Hands rank five of a kind, four of a kind, full house, straight, three of a kind, two pairs, one pair, bust; aces are high. The best hand wins the round (tied hands are replayed by the tied players); the first to win three rounds wins the game.',
  dice: { count: DICE, colours: [], sizes: [], note: 'Pip dice stand for poker dice: 1 = ace, 2-6 = 9 to king.' },
  optionSpecs: POKER_DICE_OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<PokerDiceOptions>('Poker Dice', POKER_DICE_OPTION_SPECS, options);
    checkPlayers('Poker Dice', players, pokerDice.minPlayers, pokerDice.maxPlayers);
    return {
      game: 'poker-dice',
      options: opts,
      players: players.map((name) => ({ name, wins: 0 })),
      phase: 'start',
      order: players.map((_, i) => i),
      turn: 0,
      startThrows: players.map(() => null),
      round: 1,
      leader: 0,
      replay: false,
      cap: null,
      throwsTaken: 0,
      dice: noDice(),
      held: noHolds(),
      hands: players.map(() => null),
      lastHand: null,
    };
  },

  diceRequest(state): DiceRequest | null {
    const seat = seatNow(state);
    if (seat === null) return null;
    if (state.phase === 'start') return { count: 1, slots: [0], player: seat, secret: false };
    if (state.throwsTaken >= throwLimit(state)) return null;
    const slots = state.throwsTaken === 0 ? [0, 1, 2, 3, 4] : [0, 1, 2, 3, 4].filter((i) => !state.held[i]);
    return slots.length === 0 ? null : { count: slots.length, slots, player: seat, secret: false };
  },

  apply(state, action) {
    if (state.phase === 'over') return invalid('game/over', 'The game is over; no more actions are accepted.');
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown; dice?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'hold':
        return applyHold(state, a.dice, true);
      case 'release':
        return applyHold(state, a.dice, false);
      case 'stand':
        if (thrownHand(state) === null) {
          return invalid('game/no_throw_yet', state.phase === 'start' ? 'First throw one die to choose who starts.' : 'Throw at least once before standing.');
        }
        return finishTurn(state);
      default:
        return invalid('game/unknown_action', `Poker Dice has no action ${showValue(a?.type)}; use roll, hold, release or stand.`);
    }
  },

  legalActions(state) {
    if (thrownHand(state) === null) return [];
    const actions: PokerDiceAction[] = [{ type: 'stand' }];
    state.held.forEach((h, i) => actions.push({ type: h ? 'release' : 'hold', dice: [i] }));
    return actions;
  },

  result(state): GameResult | null {
    if (state.phase !== 'over') return null;
    const scores = state.players.map((p) => p.wins);
    return { winners: scores.flatMap((w, i) => (w >= state.options.roundsToWin ? [i] : [])), scores };
  },
};
