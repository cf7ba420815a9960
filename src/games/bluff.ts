/**
 * Bluff (`bluff`): Richard Borg's Liar's dice with star faces and a bidding
 * board. Rules: shared/rules/bluff.md; every option below is one row of that
 * spec's "Ambiguities and chosen defaults".
 *
 * Every cup is thrown in secret (one seat at a time through the tower) and
 * `playerView` hides other players' cups until a challenge reveals them.
 * Face 6 of ordinary pip dice is the star (a joker for number bids).
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, BoardPanel, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkThrow, isIntIn, maskDice, show } from './bluffing-common.js';
import { gameSay, gameValue, winnersSay } from './board-text.js';

/** Pip-dice face that stands for the star. */
export const STAR = 6;

// ---------------------------------------------------------------------------
// Options

/** Dice-per-player choices: the Czech rule, or a fixed count. */
export const DICE_PER_PLAYER_CHOICES = ['czech', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] as const;

export interface BluffOptions {
  /** 'czech' = 6 each, 5 each with 6 players; else that many each (option type 'choice', so a numeral). Spec ambiguity 1. */
  readonly dicePerPlayer: (typeof DICE_PER_PLAYER_CHOICES)[number];
  /** What an exact count costs. Spec ambiguity 2. */
  readonly exactRule: 'transferOne' | 'allOthersLoseOne';
  /** With 'allOthersLoseOne': players other than the bidder and challenger keep their last die. Spec ambiguity 2. */
  readonly protectLastDie: boolean;
  /** Variant 2: after a bid the bidder may show dice and re-throw the rest. Spec ambiguity 3. */
  readonly showAndReroll: boolean;
  /** Who opens the next round. Spec ambiguity 4. */
  readonly nextRoundStarter: 'challengeWinner' | 'challengeLoser' | 'nextClockwise';
  /** Order of number and star fields on the bidding board. Spec ambiguity 5. */
  readonly bidTrack: 'ravensburger' | 'starAfterEven';
  /** Highest number field of the board (star fields go up to half of it). Spec ambiguity 5. */
  readonly maxQuantity: number;
  /** What a declared stacked throw re-throws: the whole throw, or only the named dice. Spec ambiguity 6. */
  readonly stackedDice: 'rethrowAll' | 'liftTopDie';
}

export const DEFAULT_OPTIONS: BluffOptions = {
  dicePerPlayer: 'czech',
  exactRule: 'transferOne',
  protectLastDie: false,
  showAndReroll: false,
  nextRoundStarter: 'challengeWinner',
  bidTrack: 'ravensburger',
  maxQuantity: 20,
  stackedDice: 'rethrowAll',
};

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'dicePerPlayer', type: 'choice', default: DEFAULT_OPTIONS.dicePerPlayer, choices: DICE_PER_PLAYER_CHOICES, description: "Dice each player starts with: 'czech' = 6 (5 with 6 players), as the Czech text says; or a fixed number (Borg's original: 5)." },
  { name: 'exactRule', type: 'choice', default: DEFAULT_OPTIONS.exactRule, choices: ['transferOne', 'allOthersLoseOne'], description: "Exact count: 'transferOne' = the challenger gives one die to the bidder (to the centre if the bidder is full); 'allOthersLoseOne' = everyone but the bidder loses one (the original rule)." },
  { name: 'protectLastDie', type: 'boolean', default: DEFAULT_OPTIONS.protectLastDie, description: "With 'allOthersLoseOne': players other than the bidder and the challenger cannot lose their last die on an exact count." },
  { name: 'showAndReroll', type: 'boolean', default: DEFAULT_OPTIONS.showAndReroll, description: 'Variant 2: right after a bid the bidder may show some dice (never all) and secretly re-throw the rest.' },
  { name: 'nextRoundStarter', type: 'choice', default: DEFAULT_OPTIONS.nextRoundStarter, choices: ['challengeWinner', 'challengeLoser', 'nextClockwise'], description: 'Who opens the next round: the winner of the challenge (the bidder on an exact count), its loser, or the player after the last starter; the next player with dice if that one is out.' },
  { name: 'bidTrack', type: 'choice', default: DEFAULT_OPTIONS.bidTrack, choices: ['ravensburger', 'starAfterEven'], description: "Bidding board: 'ravensburger' = 1, ★1, 2, 3, ★2, 4 ...; 'starAfterEven' = 1, 2, ★1, 3, 4, ★2 ..." },
  { name: 'maxQuantity', type: 'integer', default: DEFAULT_OPTIONS.maxQuantity, min: 2, max: 60, description: 'Highest number field of the bidding board; star fields go up to half of it.' },
  { name: 'stackedDice', type: 'choice', default: DEFAULT_OPTIONS.stackedDice, choices: ['rethrowAll', 'liftTopDie'], description: "Dice declared stacked after a throw: 'rethrowAll' re-throws that player's whole throw; 'liftTopDie' only the named dice." },
];

/** Dice each player starts with under these options and this many players. */
export function startingDice(options: Pick<BluffOptions, 'dicePerPlayer'>, players: number): number {
  return options.dicePerPlayer === 'czech' ? (players === 6 ? 5 : 6) : Number(options.dicePerPlayer);
}

// ---------------------------------------------------------------------------
// The bidding board

/** One field of the bidding board: a quantity, on a number field or a star field. */
export interface Field {
  readonly quantity: number;
  readonly star: boolean;
}

/**
 * The fields after the zero field, in board order: index i is position i + 1.
 * Ravensburger: number n at n + ⌊n/2⌋, star k at 3k − 1; starAfterEven: star
 * k right after the number 2k.
 */
export function bidTrack(layout: BluffOptions['bidTrack'], maxQuantity: number): Field[] {
  const rank = (f: Field): number =>
    layout === 'ravensburger'
      ? f.star ? 3 * f.quantity - 1 : f.quantity + Math.floor(f.quantity / 2)
      : f.star ? 3 * f.quantity : f.quantity + Math.floor((f.quantity - 1) / 2);
  const fields: Field[] = [];
  for (let n = 1; n <= maxQuantity; n++) fields.push({ quantity: n, star: false });
  for (let k = 1; k <= Math.floor(maxQuantity / 2); k++) fields.push({ quantity: k, star: true });
  return fields.sort((a, b) => rank(a) - rank(b));
}

/** Tracks already built, by layout and length: bots and legal-move lists ask for them at every step. */
const TRACKS: Record<string, readonly Field[]> = {};

function trackOf(o: Pick<BluffOptions, 'bidTrack' | 'maxQuantity'>): readonly Field[] {
  const key = `${o.bidTrack}/${o.maxQuantity}`;
  return (TRACKS[key] ??= bidTrack(o.bidTrack, o.maxQuantity));
}

/** Every (position, face) that beats `current` on the track, in board order. */
function raises(track: readonly Field[], current: Pick<BluffBid, 'position' | 'face'> | null): Array<{ position: number; face: number }> {
  const out: Array<{ position: number; face: number }> = [];
  for (let pos = current?.position ?? 1; pos <= track.length; pos++) {
    const field = track[pos - 1] as Field;
    const minFace = current !== null && pos === current.position ? current.face + 1 : 1;
    if (field.star) {
      if (current === null || pos > current.position) out.push({ position: pos, face: STAR });
    } else {
      for (let face = minFace; face <= 5; face++) out.push({ position: pos, face });
    }
  }
  return out;
}

/** Position (1-based) of a field on the track, or null when the board has no such field. */
export function positionOf(track: readonly Field[], quantity: number, star: boolean): number | null {
  const i = track.findIndex((f) => f.quantity === quantity && f.star === star);
  return i < 0 ? null : i + 1;
}

const fieldLabel = (f: Field): string => (f.star ? `★${f.quantity}` : String(f.quantity));

/** A bid as it lies on the board: the bidding die's field and the face it shows (6 = star). */
export interface BluffBid {
  readonly position: number;
  readonly face: number;
  readonly quantity: number;
  readonly bidder: number;
}

/** Why a new bid (position, face) is not allowed over `current` on this track, or null when it is legal. */
export function bidProblem(track: readonly Field[], current: Pick<BluffBid, 'position' | 'face'> | null, position: unknown, face: unknown): InvalidAction | null {
  if (!isIntIn(position, 1, track.length)) return invalid('game/bad_bid', `The bidding die goes on a field 1 to ${track.length}; got ${show(position)}.`);
  if (!isIntIn(face, 1, 6)) return invalid('game/bad_bid', `The bidding die shows a face 1 to 5 or the star (6); got ${show(face)}.`);
  const field = track[position - 1] as Field;
  if (field.star !== (face === STAR)) {
    return invalid('game/star_field', field.star ? `Field ${fieldLabel(field)} is a star field: only the star may be placed there.` : `A star may only be placed on a star field; field ${fieldLabel(field)} is a number field.`);
  }
  if (current !== null && (position < current.position || (position === current.position && face <= current.face))) {
    return invalid('game/bid_too_low', 'A bid must move the bidding die forward, or keep its number field and show a higher face.');
  }
  return null;
}

/** A readable bid: "6 × 1s" or "3 × ★". */
export function bidLabel(quantity: number, face: number): string {
  return face === STAR ? `${quantity} × ★` : `${quantity} × ${face}s`;
}

/** A bid for the page to word (`bluff.bidStars`, `bluff.bidFaces`): quantity and face as data. */
export function bidSay(quantity: number, face: number): BoardText {
  return face === STAR ? { key: 'bluff.bidStars', params: { count: quantity } } : { key: 'bluff.bidFaces', params: { count: quantity, face } };
}

// ---------------------------------------------------------------------------
// Counting and the challenge

/** Dice that back a bid on this face: the face or a star for a number bid, stars alone for a star bid. */
export function countFor(dice: readonly number[], face: number): number {
  return dice.filter((d) => d === STAR || d === face).length;
}

export type ChallengeOutcome = 'over' | 'under' | 'exact';

/** What a challenge does to everyone's dice. */
export interface ChallengeEffect {
  readonly outcome: ChallengeOutcome;
  /** Dice per seat afterwards. */
  readonly dice: readonly number[];
  /** Dice that went to the centre. */
  readonly toCentre: number;
  /** The side that was right (the bidder on an exact count), and the other. */
  readonly winner: number;
  readonly loser: number;
}

/**
 * Settles a challenge of a bid of `quantity` by the count `count` of matching
 * dice: the wrong side loses the difference (all they have at most); an exact
 * count follows `exactRule`.
 */
export function settleChallenge(
  dice: readonly number[],
  starts: readonly number[],
  bidder: number,
  challenger: number,
  quantity: number,
  count: number,
  options: Pick<BluffOptions, 'exactRule' | 'protectLastDie'> = DEFAULT_OPTIONS,
): ChallengeEffect {
  const after = [...dice];
  const lose = (seat: number, n: number): number => {
    const lost = Math.min(n, after[seat] ?? 0);
    after[seat] = (after[seat] ?? 0) - lost;
    return lost;
  };
  if (count > quantity) return { outcome: 'over', dice: after, toCentre: lose(challenger, count - quantity), winner: bidder, loser: challenger };
  if (count < quantity) return { outcome: 'under', dice: after, toCentre: lose(bidder, quantity - count), winner: challenger, loser: bidder };
  let toCentre = 0;
  if (options.exactRule === 'transferOne') {
    lose(challenger, 1);
    // A die that would lift the bidder above their starting number leaves the game.
    if ((after[bidder] ?? 0) < (starts[bidder] ?? 0)) after[bidder] = (after[bidder] ?? 0) + 1;
    else toCentre = 1;
  } else {
    after.forEach((n, seat) => {
      if (seat === bidder || n === 0) return;
      if (options.protectLastDie && n === 1 && seat !== challenger) return;
      toCentre += lose(seat, 1);
    });
  }
  return { outcome: 'exact', dice: after, toCentre, winner: bidder, loser: challenger };
}

// ---------------------------------------------------------------------------
// State and actions

export interface BluffPlayer {
  readonly name: string;
  /** Dice the player holds now (their lives); 0 = out. */
  readonly dice: number;
  /** Dice the player started with (an exact count never lifts them above it). */
  readonly start: number;
}

/** A throw that may still be declared stacked, or a re-throw asked for. */
export interface ThrowSlots {
  readonly seat: number;
  readonly slots: readonly number[];
}

/** The last challenge, revealed to everyone. */
export interface ChallengeRecord {
  readonly round: number;
  readonly bid: BluffBid;
  readonly challenger: number;
  /** Every seat's dice as revealed (empty for players who were out). */
  readonly cups: readonly (readonly number[])[];
  readonly count: number;
  readonly outcome: ChallengeOutcome;
  /** Dice each seat gained (+) or lost (−). */
  readonly change: readonly number[];
  readonly toCentre: number;
}

export type BluffPhase = 'throw' | 'bid' | 'show' | 'reroll' | 'over';

export interface BluffState {
  readonly game: 'bluff';
  readonly options: BluffOptions;
  readonly players: readonly BluffPlayer[];
  /** Dice slots per seat: seat s owns slots s × cupSize … s × cupSize + cupSize − 1 and uses the first `dice` of them. */
  readonly cupSize: number;
  /** This round's dice by slot; null = not thrown (or no die). Secret unless `shown`. */
  readonly dice: readonly (number | null)[];
  /** Dice lying face up for everyone (variant 2). */
  readonly shown: readonly boolean[];
  /** 'throw': cups go through the tower; 'bid': `current` raises or challenges; 'show'/'reroll': variant 2 after a bid. */
  readonly phase: BluffPhase;
  /** Seat to throw or to decide (the winner once over). */
  readonly current: number;
  /** Seats still to throw their cup this round, in order. */
  readonly toThrow: readonly number[];
  /** Seat that opens this round's bidding. */
  readonly starter: number;
  readonly bid: BluffBid | null;
  /** This round's bids, oldest first (the current one last), for the players' bid list. */
  readonly bids: readonly BluffBid[];
  /** The latest throw, which its owner may still declare stacked until someone bids or challenges. */
  readonly lastThrow: ThrowSlots | null;
  /** Dice declared stacked, waiting to be re-thrown. */
  readonly rethrow: ThrowSlots | null;
  /** Dice lost or unused, in the centre of the board. */
  readonly centre: number;
  readonly round: number;
  readonly lastChallenge: ChallengeRecord | null;
  readonly over: boolean;
}

export type BluffAction =
  | RollAction
  /**
   * Put the bidding die on field `position` (1-based) showing `face` (6 = star). The open bids also say what they
   * mean, the field's `quantity` and whether it is a `star` bid, so a page reads them instead of the board's labels;
   * sent back, they must match the field.
   */
  | { readonly type: 'bid'; readonly position: number; readonly face: number; readonly quantity?: number; readonly star?: boolean }
  /** Doubt the last bid: everyone reveals. Only the player after the bidder. */
  | { readonly type: 'challenge' }
  /** Variant 2: the bidder lays these dice (slots) face up and re-throws the rest. */
  | { readonly type: 'show'; readonly dice: readonly number[] }
  /** Variant 2: the bidder keeps every die hidden. */
  | { readonly type: 'keepHidden' }
  /** The latest throw landed stacked: re-throw these dice (slots), or the whole throw under 'rethrowAll'. */
  | { readonly type: 'rethrow'; readonly dice: readonly number[] };

// ---------------------------------------------------------------------------
// Helpers on the state

const ownerOf = (state: BluffState, slot: number): number => Math.floor(slot / state.cupSize);

/** Slots of the dice a seat holds this round. */
export function cupSlots(state: BluffState, seat: number): number[] {
  const n = state.players[seat]?.dice ?? 0;
  return Array.from({ length: n }, (_, i) => seat * state.cupSize + i);
}

const activeSeats = (state: BluffState): number[] => state.players.flatMap((p, i) => (p.dice > 0 ? [i] : []));

/** The next seat clockwise after `seat` (itself excluded) that still has dice; `seat` when none. */
function nextActive(players: readonly BluffPlayer[], seat: number): number {
  for (let k = 1; k <= players.length; k++) {
    const s = (seat + k) % players.length;
    if ((players[s]?.dice ?? 0) > 0) return s;
  }
  return seat;
}

/** `seat` itself when it still has dice, else the next one clockwise. */
const selfOrNext = (players: readonly BluffPlayer[], seat: number): number =>
  (players[seat]?.dice ?? 0) > 0 ? seat : nextActive(players, seat);

const playerName = (state: BluffState, seat: number): string => state.players[seat]?.name ?? `seat ${seat}`;

/** A new round: empty cups, everyone with dice throws in turn from the starter. */
function startRound(state: BluffState, starter: number, round: number): BluffState {
  const order: number[] = [];
  for (let k = 0; k < state.players.length; k++) {
    const s = (starter + k) % state.players.length;
    if ((state.players[s]?.dice ?? 0) > 0) order.push(s);
  }
  return {
    ...state,
    dice: state.dice.map(() => null),
    shown: state.shown.map(() => false),
    phase: 'throw',
    current: order[0] ?? starter,
    toThrow: order,
    starter,
    bid: null,
    bids: [],
    lastThrow: null,
    rethrow: null,
    round,
  };
}

function applyRoll(state: BluffState, values: unknown): BluffState | InvalidAction {
  const request = bluff.diceRequest(state);
  const checked = checkThrow(request, values);
  if (!Array.isArray(checked) || request === null) return checked as InvalidAction;
  const dice = [...state.dice];
  request.slots.forEach((slot, i) => {
    dice[slot] = checked[i] as number;
  });
  const thrown: ThrowSlots = { seat: request.player, slots: request.slots };
  if (state.rethrow !== null) return { ...state, dice, rethrow: null, lastThrow: thrown };
  if (state.phase === 'throw') {
    const toThrow = state.toThrow.slice(1);
    const next = toThrow[0];
    if (next !== undefined) return { ...state, dice, toThrow, current: next, lastThrow: thrown };
    return { ...state, dice, toThrow, phase: 'bid', current: state.starter, lastThrow: thrown };
  }
  // Variant 2 re-throw done: the next player answers the bid.
  return { ...state, dice, phase: 'bid', current: nextActive(state.players, request.player), lastThrow: thrown };
}

function applyBid(state: BluffState, position: unknown, face: unknown, quantity: unknown, star: unknown): BluffState | InvalidAction {
  if (state.phase !== 'bid' || state.rethrow !== null) return invalid('game/not_bidding', notNowMessage(state, 'bid'));
  const track = trackOf(state.options);
  const problem = bidProblem(track, state.bid, position, face);
  if (problem !== null) return problem;
  const pos = position as number;
  const field = track[pos - 1] as Field;
  if ((quantity !== undefined && quantity !== field.quantity) || (star !== undefined && star !== field.star)) {
    return invalid('game/bad_bid', `Field ${pos} is ${fieldLabel(field)}: a bid there has quantity ${field.quantity} and star ${field.star}; got quantity ${show(quantity)} and star ${show(star)}.`);
  }
  const bid: BluffBid = { position: pos, face: face as number, quantity: (track[pos - 1] as Field).quantity, bidder: state.current };
  const hidden = cupSlots(state, state.current).filter((s) => !state.shown[s]);
  const bids = [...state.bids, bid];
  if (state.options.showAndReroll && hidden.length >= 2) return { ...state, bid, bids, phase: 'show', lastThrow: null };
  return { ...state, bid, bids, current: nextActive(state.players, state.current), lastThrow: null };
}

function applyShow(state: BluffState, slots: unknown): BluffState | InvalidAction {
  if (state.phase !== 'show') return invalid('game/not_showing', 'Dice may only be shown by the bidder right after their bid, with show-and-re-throw on.');
  const hidden = cupSlots(state, state.current).filter((s) => !state.shown[s]);
  if (!Array.isArray(slots) || slots.length === 0) return invalid('game/bad_die_index', `Name the dice to show by slot (${hidden.join(', ')}).`);
  const bad = slots.find((s) => !hidden.includes(s as number));
  if (bad !== undefined) return invalid('game/bad_die_index', `Slot ${show(bad)} is not one of ${playerName(state, state.current)}'s hidden dice (${hidden.join(', ')}).`);
  if (new Set(slots).size >= hidden.length) return invalid('game/show_all', 'At least one die must stay hidden under the cup.');
  const shown = state.shown.map((s, i) => s || (slots as number[]).includes(i));
  // The dice still hidden go back into the tower.
  const dice = state.dice.map((d, i) => (hidden.includes(i) && !shown[i] ? null : d));
  return { ...state, shown, dice, phase: 'reroll' };
}

function applyRethrow(state: BluffState, slots: unknown): BluffState | InvalidAction {
  const last = state.lastThrow;
  if (last === null || state.rethrow !== null) return invalid('game/no_rethrow', 'Only the latest throw can be declared stacked, before anyone bids or challenges.');
  if (!Array.isArray(slots) || slots.length === 0) return invalid('game/bad_die_index', `Name the stacked dice by slot (${last.slots.join(', ')}).`);
  const bad = slots.find((s) => !last.slots.includes(s as number));
  if (bad !== undefined) return invalid('game/bad_die_index', `Slot ${show(bad)} was not in the latest throw (${last.slots.join(', ')}).`);
  const again = state.options.stackedDice === 'rethrowAll' ? [...last.slots] : last.slots.filter((s) => (slots as number[]).includes(s));
  const dice = state.dice.map((d, i) => (again.includes(i) ? null : d));
  return { ...state, dice, rethrow: { seat: last.seat, slots: again }, lastThrow: null };
}

function applyChallenge(state: BluffState): BluffState | InvalidAction {
  if (state.phase !== 'bid' || state.rethrow !== null) return invalid('game/not_bidding', notNowMessage(state, 'challenge'));
  const bid = state.bid;
  if (bid === null) return invalid('game/no_bid', 'There is no bid to challenge yet; open the bidding.');
  const cups = state.players.map((_, seat) => cupSlots(state, seat).map((s) => state.dice[s] as number));
  const count = countFor(cups.flat(), bid.face);
  const starts = state.players.map((p) => p.start);
  const before = state.players.map((p) => p.dice);
  const effect = settleChallenge(before, starts, bid.bidder, state.current, bid.quantity, count, state.options);
  const players = state.players.map((p, i) => ({ ...p, dice: effect.dice[i] ?? 0 }));
  const lastChallenge: ChallengeRecord = {
    round: state.round,
    bid,
    challenger: state.current,
    cups,
    count,
    outcome: effect.outcome,
    change: players.map((p, i) => p.dice - (before[i] ?? 0)),
    toCentre: effect.toCentre,
  };
  const settled: BluffState = { ...state, players, centre: state.centre + effect.toCentre, lastChallenge };
  const alive = activeSeats(settled);
  if (alive.length <= 1) {
    return { ...settled, phase: 'over', over: true, current: alive[0] ?? bid.bidder, bid: null, toThrow: [], lastThrow: null, dice: state.dice.map(() => null), shown: state.shown.map(() => false) };
  }
  const o = state.options.nextRoundStarter;
  const base = o === 'challengeWinner' ? effect.winner : o === 'challengeLoser' ? effect.loser : nextActive(state.players, state.starter);
  return startRound(settled, selfOrNext(players, base), state.round + 1);
}

function notNowMessage(state: BluffState, verb: string): string {
  if (state.rethrow !== null || state.phase === 'throw' || state.phase === 'reroll') return `Cannot ${verb} while dice are still to be thrown.`;
  if (state.phase === 'show') return `Cannot ${verb} now: ${playerName(state, state.current)} first shows dice or keeps them hidden.`;
  return `Cannot ${verb} now.`;
}

// ---------------------------------------------------------------------------
// Views and board

/** The state as `viewer` sees it: other players' dice hidden unless shown face up. */
function playerView(state: BluffState, viewer: number | null): BluffState {
  return { ...state, dice: maskDice(state.dice, (slot) => state.shown[slot] === true || (viewer !== null && ownerOf(state, slot) === viewer)) };
}

const faceLabel = (d: number | null): string => (d === null ? '?' : d === STAR ? '★' : String(d));

const dieOrDice = (n: number): string => (n === 1 ? 'die' : 'dice');

function board(state: BluffState): TableBoard {
  const o = state.options;
  const track = trackOf(o);
  const name = playerName(state, state.current);
  const bid = state.bid;
  const inPlay = state.players.reduce((a, p) => a + p.dice, 0);
  let status: string;
  if (state.over) status = `Game over: ${name} wins`;
  else if (state.rethrow !== null) status = `${playerName(state, state.rethrow.seat)}: re-throw ${state.rethrow.slots.length} stacked ${dieOrDice(state.rethrow.slots.length)} (secret)`;
  else if (state.phase === 'throw') status = `${name}: throw your ${state.players[state.current]?.dice ?? 0} ${dieOrDice(state.players[state.current]?.dice ?? 0)} (secret)`;
  else if (state.phase === 'show') status = `${name}: show some dice and re-throw the rest, or keep them hidden`;
  else if (state.phase === 'reroll') status = `${name}: re-throw your hidden dice (secret)`;
  else if (bid === null) status = `${name}: open the bidding`;
  else status = `${name}: raise ${bidLabel(bid.quantity, bid.face)} or challenge`;
  const G = 'bluff';
  let say: BoardText;
  if (state.over) say = winnersSay([name]);
  else if (state.rethrow !== null) say = gameSay(G, 'rethrowStacked', { name: playerName(state, state.rethrow.seat), count: state.rethrow.slots.length });
  else if (state.phase === 'throw') say = gameSay(G, 'throwSecret', { name, count: state.players[state.current]?.dice ?? 0 });
  else if (state.phase === 'show') say = gameSay(G, 'showOrHide', { name });
  else if (state.phase === 'reroll') say = gameSay(G, 'rethrowHidden', { name });
  else if (bid === null) say = gameSay(G, 'open', { name });
  else say = gameSay(G, 'raiseOrChallenge', { name, bid: bidSay(bid.quantity, bid.face) });
  const lc = state.lastChallenge;
  const panels: BoardPanel[] = [
    {
      id: 'bid',
      label: 'Current bid',
      items: [
        bid ? { id: 'bid', label: 'Bid', value: bidLabel(bid.quantity, bid.face), valueSay: bidSay(bid.quantity, bid.face), state: 'active' } : { id: 'bid', label: 'Bid', value: null },
        { id: 'bidder', label: 'Bidder', value: bid ? playerName(state, bid.bidder) : null },
        { id: 'round', label: 'Round', value: state.round },
      ],
    },
    { id: 'bids', label: 'Bids this round', items: state.bids.map((b) => ({ id: 'seat', label: playerName(state, b.bidder), params: { name: playerName(state, b.bidder) }, value: bidLabel(b.quantity, b.face), valueSay: bidSay(b.quantity, b.face) })),
    },
    {
      id: 'board',
      label: 'Bidding board',
      // The bidding die's field is active; fields at or below it are no longer open (same field only with a higher face).
      items: [
        { id: 'field', label: '0', params: { field: '0' }, value: bid ? null : 'bidding die', ...(bid ? {} : { valueSay: gameValue(G, 'biddingDie') }), state: bid ? 'closed' : 'active' },
        ...track.map((f, i) => ({
          id: 'field',
          label: fieldLabel(f),
          params: { field: fieldLabel(f) },
          value: bid?.position === i + 1 ? faceLabel(bid.face) : null,
          state: bid === null || i + 1 > bid.position ? ('open' as const) : bid.position === i + 1 ? ('active' as const) : ('closed' as const),
        })),
      ],
    },
    { id: 'centre', label: 'Dice', items: [
        { id: 'inPlay', label: 'In play', value: inPlay },
        { id: 'inCentre', label: 'In the centre', value: state.centre },
      ],
    },
  ];
  if (lc !== null) {
    panels.push({
      id: 'challenge',
      label: `Last challenge (round ${lc.round})`,
      params: { round: lc.round },
      items: [
        {
          id: 'bid',
          label: 'Bid',
          value: `${bidLabel(lc.bid.quantity, lc.bid.face)} by ${playerName(state, lc.bid.bidder)}`,
          valueSay: { key: 'bluff.bidBy', params: { bid: bidSay(lc.bid.quantity, lc.bid.face), name: playerName(state, lc.bid.bidder) } },
        },
        { id: 'challenger', label: 'Challenger', value: playerName(state, lc.challenger) },
        { id: 'counted', label: 'Counted', value: lc.count, state: 'highlight' },
        ...lc.cups.map((cup, seat) => ({ id: 'seat', label: playerName(state, seat), params: { name: playerName(state, seat) }, value: `${cup.map(faceLabel).join(' ')}${lc.change[seat] ? ` (${(lc.change[seat] ?? 0) > 0 ? '+' : ''}${lc.change[seat]})` : ''}` })),
      ],
    });
  }
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.rethrow?.seat ?? state.current,
    dice: state.dice,
    held: state.shown,
    columns: [
      { id: 'dice', label: 'Dice' },
      { id: 'cup', label: 'Cup' },
    ],
    players: state.players.map((p, seat) => ({
      name: p.name,
      values: { dice: p.dice, cup: cupSlots(state, seat).map((s) => faceLabel(state.dice[s] ?? null)).join(' ') },
      out: p.dice === 0,
    })),
    panels,
  };
}

// ---------------------------------------------------------------------------
// Bot

/** Chance a hidden die backs a bid on this face: face or star (2 in 6), star alone (1 in 6). */
const matchChance = (face: number): number => (face === STAR ? 1 / 6 : 1 / 3);

/**
 * A simple bidder working only from its own view: it expects its own and the
 * shown dice plus a third (a sixth for stars) of the hidden ones; it
 * challenges a bid above that, else makes the lowest raise it believes.
 */
function bot(state: BluffState, random: () => number): BluffAction | null {
  if (state.over || state.rethrow !== null || state.phase === 'throw' || state.phase === 'reroll') return null;
  const me = state.current;
  const view = playerView(state, me);
  const known = view.dice.filter((d): d is number => d !== null);
  const hidden = state.players.reduce((a, p) => a + p.dice, 0) - known.length;
  const expected = [0, 1, 2, 3, 4, 5, 6].map((face) => countFor(known, face) + hidden * matchChance(face));
  const expect = (face: number): number => expected[face] ?? 0;
  const mine = cupSlots(view, me).filter((s) => !view.shown[s]);
  if (view.phase === 'show') {
    const bid = view.bid as BluffBid;
    const keep = mine.filter((s) => countFor([view.dice[s] as number], bid.face) > 0);
    if (keep.length > 0 && keep.length < mine.length && random() < 0.5) return { type: 'show', dice: keep };
    return { type: 'keepHidden' };
  }
  const track = trackOf(view.options);
  const bid = view.bid;
  // A little daring so that games differ: believe up to half a die more, now and then.
  const slack = random() < 0.3 ? 0.5 : 0;
  if (bid !== null && bid.quantity > expect(bid.face) + slack) return { type: 'challenge' };
  const believable = raises(track, bid).filter((r) => (track[r.position - 1] as Field).quantity <= expect(r.face) + slack);
  const lowest = believable[0]?.position;
  // The lowest believable field, with the face most likely there.
  const open = believable.filter((r) => r.position === lowest);
  if (open.length > 0) {
    const best = open.reduce((a, b) => (expect(b.face) > expect(a.face) || (expect(b.face) === expect(a.face) && random() < 0.5) ? b : a));
    return { type: 'bid', position: best.position, face: best.face };
  }
  if (bid !== null) return { type: 'challenge' };
  return { type: 'bid', position: 1, face: 1 + Math.floor(random() * 5) };
}

// ---------------------------------------------------------------------------
// The game

export const bluff: GameDef<BluffState, BluffAction, BluffOptions> = {
  id: 'bluff',
  name: 'Bluff',
  minPlayers: 2,
  maxPlayers: 6,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    "Richard Borg's Liar's dice for 2-6 players. Everyone throws their dice (6 each, 5 with six players) secretly under a cup; the star (a 6 on ordinary dice) is wild. In turn, players raise the bid on the bidding board (at least N dice show a face, counting stars; or at least N stars on a star field) or the next player challenges. Then all cups are revealed: whoever was wrong loses as many dice as the count missed by; on an exact count the challenger gives one die to the bidder. A player without dice is out; the last player with dice wins.",
  dice: { count: 6, colours: [], sizes: [], note: 'Secret throws, one cup at a time (6 dice, 5 with six players). Bluff dice have a star instead of the 6: read the star as 6. The red bidding die stays on the board and is never thrown.' },
  secretThrows: true,
  optionSpecs: OPTION_SPECS,
  board,
  playerView,
  bot,
  // The operator, who watches the tower, declares a throw stacked: its owner has seen the dice and could
  // otherwise throw a poor hand again as often as they liked.
  operatorActions: ['rethrow'],

  setup(players, options) {
    const opts = resolveOptions<BluffOptions>('Bluff', OPTION_SPECS, options);
    checkPlayers('Bluff', players, bluff.minPlayers, bluff.maxPlayers);
    const start = startingDice(opts, players.length);
    const slots = start * players.length;
    const state: BluffState = {
      game: 'bluff',
      options: opts,
      players: players.map((name) => ({ name, dice: start, start })),
      cupSize: start,
      dice: Array<number | null>(slots).fill(null),
      shown: Array<boolean>(slots).fill(false),
      phase: 'throw',
      current: 0,
      toThrow: [],
      starter: 0,
      bid: null,
      bids: [],
      lastThrow: null,
      rethrow: null,
      centre: 0,
      round: 1,
      lastChallenge: null,
      over: false,
    };
    // The lots for the starter are drawn at the table: seat 0 opens.
    return startRound(state, 0, 1);
  },

  diceRequest(state): DiceRequest | null {
    if (state.over) return null;
    if (state.rethrow !== null) return { count: state.rethrow.slots.length, slots: state.rethrow.slots, player: state.rethrow.seat, secret: true };
    if (state.phase === 'throw') {
      const slots = cupSlots(state, state.current);
      return { count: slots.length, slots, player: state.current, secret: true };
    }
    if (state.phase === 'reroll') {
      const slots = cupSlots(state, state.current).filter((s) => !state.shown[s]);
      return { count: slots.length, slots, player: state.current, secret: true };
    }
    return null;
  },

  apply(state, action) {
    if (state.over) return invalid('game/over', 'The game is over; no more actions are accepted.');
    const a = action as { type?: unknown; values?: unknown; position?: unknown; face?: unknown; quantity?: unknown; star?: unknown; dice?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'bid':
        return applyBid(state, a.position, a.face, a.quantity, a.star);
      case 'challenge':
        return applyChallenge(state);
      case 'show':
        return applyShow(state, a.dice);
      case 'keepHidden':
        if (state.phase !== 'show') return invalid('game/not_showing', 'There is no show-and-re-throw decision open now.');
        return { ...state, phase: 'bid', current: nextActive(state.players, state.current) };
      case 'rethrow':
        return applyRethrow(state, a.dice);
      default:
        return invalid('game/unknown_action', `Bluff has no action ${show(a?.type)}; use roll, bid, challenge, show, keepHidden or rethrow.`);
    }
  },

  legalActions(state) {
    if (state.over || state.rethrow !== null) return [];
    const actions: BluffAction[] = [];
    if (state.phase === 'show') {
      const hidden = cupSlots(state, state.current).filter((s) => !state.shown[s]);
      actions.push({ type: 'keepHidden' }, ...hidden.map((s): BluffAction => ({ type: 'show', dice: [s] })));
    }
    if (state.phase === 'bid') {
      const track = trackOf(state.options);
      for (const r of raises(track, state.bid)) {
        const field = track[r.position - 1] as Field;
        actions.push({ type: 'bid', position: r.position, face: r.face, quantity: field.quantity, star: field.star });
      }
      if (state.bid !== null) actions.push({ type: 'challenge' });
    }
    if (state.lastThrow !== null) actions.push({ type: 'rethrow', dice: state.lastThrow.slots });
    return actions;
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    return { winners: activeSeats(state), scores: state.players.map((p) => p.dice) };
  },
};
