/**
 * Las Vegas (`las-vegas`): dice placement on six casinos for banknotes.
 * Rules: shared/rules/las-vegas.md, base game (section 2) with the
 * neutral-dice variant (2.5) and the Boulevard modules `minimumStakeByPlayers`
 * (3.1), `extraPlayerDice` (3.3), `bigDice` (3.5), `chaserDice` (3.6). Every option below is a row
 * of that spec's "Ambiguities and chosen defaults" or one of its module
 * switches (off by default); the other modules (3.2, 3.7-3.10), solo and
 * secret colours are not implemented yet.
 *
 * Pure module: plain JSON state; the bill deck is shuffled from the
 * `deckSeed` option (never Math.random), and dice values arrive in `roll`
 * actions.
 *
 * Dice slots (what `diceRequest(...).slots` name): every throw is one seat's
 * dice. Slots 0-7 are the thrower's eight dice in their own colour (die 0 to
 * die 7); slots 8 and up are white neutral dice: the thrower's own white dice
 * in a turn (8 .. 8 + whitePerPlayer - 1), or the spare white dice in the
 * 3-player pre-round throw (8 .. 8 + spareWhite - 1). `slotColour` names the
 * colour of a slot, `slotSize` its size. With `bigDice`, slot 0 is the
 * player's big die (own colour, big size; it counts as two dice at scoring).
 * With `chaserDice`, slot 7 (and slot 6 with fewer than 6 players) is a
 * purple chaser: placed with the others, it never stays on a casino but
 * removes one die there (phase 'chase', action `chase`).
 */
import { GameSetupError, invalid } from './types.js';
import type { DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { isDieValue, show } from './dice.js';

// ---------------------------------------------------------------------------
// Components

/** Casinos 1-6; casino n takes the dice showing n. */
export const CASINO_COUNT = 6;
/** Dice per player colour. */
export const OWN_DICE = 8;
/** White dice in the base box: the fifth colour, neutral in the variant (the expansion adds 2 more, spec 3.4). */
export const WHITE_DICE = 8;
/** First slot of the white dice in a throw. */
export const FIRST_WHITE_SLOT = OWN_DICE;
/** With `bigDice`, own die 0 is the player's big die (it replaces one normal die, spec 3.5). */
export const BIG_DIE_SLOT = 0;
/** Colour of the chasers (`chaserDice`, spec 3.6); they take the last own slots, 7 (and 6). */
export const CHASER_COLOUR = 'purple';
/** Player colours in seat order; white is left out when it is neutral. */
export const PLAYER_COLOURS = ['red', 'green', 'blue', 'black', 'white'] as const;
/** The expansion's player colours (`extraPlayerDice`, spec 3.3): yellow 6th, grey 7th, purple 8th. */
export const EXTRA_COLOURS = ['yellow', 'grey', 'purple'] as const;
export const NEUTRAL_COLOUR = 'white';

/** Minimum per casino by player count with `minimumStakeByPlayers` (spec 3.1, LV-31; 7 and 8 derived). */
export const MINIMUM_BY_PLAYERS: Readonly<Record<number, number>> = { 2: 30000, 3: 40000, 4: 50000, 5: 60000, 6: 70000, 7: 80000, 8: 90000 };

/** The 54 base bills ($2,500,000): [value, how many]. Source: spec 1 (yucata, thoun/lasvegas). */
const BILL_DISTRIBUTION: ReadonlyArray<readonly [number, number]> = [
  [10000, 6],
  [20000, 8],
  [30000, 8],
  [40000, 6],
  [50000, 6],
  [60000, 5],
  [70000, 5],
  [80000, 5],
  [90000, 5],
];

/**
 * Value of every bill by id. Bills are handled by id so each physical bill
 * can be followed (and claimed once); the $100,000 bills and colourful cards
 * of the expansion would get ids 54 and up.
 */
export const BILL_VALUES: readonly number[] = BILL_DISTRIBUTION.flatMap(([value, n]) => Array<number>(n).fill(value));
export const BILL_COUNT = BILL_VALUES.length;
export const TOTAL_MONEY = BILL_VALUES.reduce((a, b) => a + b, 0);

export function billValue(id: number): number {
  const v = BILL_VALUES[id];
  if (v === undefined) throw new RangeError(`No bill with id ${id}`);
  return v;
}

const moneyOf = (ids: readonly number[]): number => ids.reduce((a, id) => a + billValue(id), 0);

// ---------------------------------------------------------------------------
// Options

export interface LasVegasOptions {
  /** LV-1: bills nobody wins at a casino go to the bottom of the deck or out of the game. */
  readonly unclaimedBills: 'bottomOfDeck' | 'discard';
  /** LV-2: shuffle the remaining deck before every round after the first. */
  readonly reshuffleEachRound: boolean;
  /** LV-3: a tie for most money is shared, or broken by the number of bills. */
  readonly finalTie: 'shared' | 'mostBills';
  /** LV-4: each casino is dealt bills until it holds at least this much. */
  readonly casinoMinimum: number;
  /** LV-5: rounds per game. */
  readonly rounds: number;
  /** Spec 2.5 / 3.4: white neutral dice (2-4 players here; 5 needs the expansion's extra dice). */
  readonly neutralDice: boolean;
  /** LV-6 for 2 players: white dice each player throws with their own. */
  readonly neutralPerPlayer2: number;
  /** LV-6 for 3 players (the rest of the 8 white dice are thrown before the round). */
  readonly neutralPerPlayer3: number;
  /** LV-6 for 4 players. */
  readonly neutralPerPlayer4: number;
  /** LV-6 for 5 players (the expansion's 10 white dice; needs `extraPlayerDice`). */
  readonly neutralPerPlayer5: number;
  /** Spec 3.3: yellow, grey and purple player dice for 6-8 players (and a 5th player beside neutral white). */
  readonly extraPlayerDice: boolean;
  /** Spec 3.5: each player's die 0 is a big die that counts as two dice at scoring (2-7 players). */
  readonly bigDice: boolean;
  /** Spec 3.6: purple chasers replace own dice 7 (and 6 with fewer than 6 players); a placed chaser removes one die there (2-7 players). */
  readonly chaserDice: boolean;
  /** LV-9: which dice a chaser may remove: any die, or only dice other players placed. */
  readonly chaserTargets: 'anyDie' | 'opponentsOnly';
  /** Spec 3.1: the minimum per casino depends on the player count (`minimumByPlayersN`) instead of `casinoMinimum`. */
  readonly minimumStakeByPlayers: boolean;
  /** LV-31, one option per player count (the spec's `minimumByPlayers` record). */
  readonly minimumByPlayers2: number;
  readonly minimumByPlayers3: number;
  readonly minimumByPlayers4: number;
  readonly minimumByPlayers5: number;
  readonly minimumByPlayers6: number;
  readonly minimumByPlayers7: number;
  readonly minimumByPlayers8: number;
  /** Seed of the bill shuffle: the deck order is part of the set-up, so the engine stays pure. */
  readonly deckSeed: number;
}

export const DEFAULT_OPTIONS: LasVegasOptions = {
  unclaimedBills: 'bottomOfDeck',
  reshuffleEachRound: false,
  finalTie: 'shared',
  casinoMinimum: 50000,
  rounds: 4,
  neutralDice: false,
  neutralPerPlayer2: 4,
  neutralPerPlayer3: 2,
  neutralPerPlayer4: 2,
  neutralPerPlayer5: 2,
  extraPlayerDice: false,
  bigDice: false,
  chaserDice: false,
  chaserTargets: 'anyDie',
  minimumStakeByPlayers: false,
  minimumByPlayers2: 30000,
  minimumByPlayers3: 40000,
  minimumByPlayers4: 50000,
  minimumByPlayers5: 60000,
  minimumByPlayers6: 70000,
  minimumByPlayers7: 80000,
  minimumByPlayers8: 90000,
  deckSeed: 0,
};

const D = DEFAULT_OPTIONS;

/** The options as the catalog shows them; the defaults are DEFAULT_OPTIONS. */
export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'unclaimedBills', type: 'choice', default: D.unclaimedBills, choices: ['bottomOfDeck', 'discard'], description: "Bills nobody wins at a casino: 'bottomOfDeck' (face down under the deck) or 'discard' (out of the game). Spec LV-1." },
  { name: 'reshuffleEachRound', type: 'boolean', default: D.reshuffleEachRound, description: 'Shuffle the deck before each new round (default: the deck carries on). Spec LV-2.' },
  { name: 'finalTie', type: 'choice', default: D.finalTie, choices: ['shared', 'mostBills'], description: "A tie for most money: 'shared' win, or 'mostBills' (more bills wins; still tied, shared). Spec LV-3." },
  { name: 'casinoMinimum', type: 'integer', default: D.casinoMinimum, min: 10000, max: 500000, description: 'Each casino is dealt bills until it holds at least this much. Spec LV-4.' },
  { name: 'rounds', type: 'integer', default: D.rounds, min: 1, max: 10, description: 'Rounds per game. Spec LV-5.' },
  { name: 'neutralDice', type: 'boolean', default: D.neutralDice, description: 'Neutral white dice (2-4 players): each player throws white dice with their own; white wins bills for nobody. Spec 2.5.' },
  { name: 'neutralPerPlayer2', type: 'integer', default: D.neutralPerPlayer2, min: 1, max: 4, description: 'White dice per player with 2 players. Spec LV-6 (neutralPerPlayer[2]).' },
  { name: 'neutralPerPlayer3', type: 'integer', default: D.neutralPerPlayer3, min: 1, max: 2, description: 'White dice per player with 3 players; the start player throws the rest of the 8 before each round. Spec LV-6 (neutralPerPlayer[3]).' },
  { name: 'neutralPerPlayer4', type: 'integer', default: D.neutralPerPlayer4, min: 1, max: 2, description: 'White dice per player with 4 players. Spec LV-6 (neutralPerPlayer[4]).' },
  { name: 'neutralPerPlayer5', type: 'integer', default: D.neutralPerPlayer5, min: 1, max: 2, description: "White dice per player with 5 players (the expansion's 10 white dice; needs extraPlayerDice). Spec LV-6 (neutralPerPlayer[5])." },
  { name: 'extraPlayerDice', type: 'boolean', default: D.extraPlayerDice, description: 'Expansion: yellow, grey and purple dice for a 6th, 7th and 8th player (required for 6-8 players, and for 5 players with neutral dice). Spec 3.3.' },
  { name: 'bigDice', type: 'boolean', default: D.bigDice, description: 'Expansion big dice (2-7 players): each player\'s die 0 is big and counts as two dice of their colour at scoring, ties included. Spec 3.5.' },
  { name: 'chaserDice', type: 'boolean', default: D.chaserDice, description: 'Expansion chasers (2-7 players): each player swaps own die 7 (and die 6 with fewer than 6 players) for a purple chaser; a placed chaser removes itself and one die of the placer\'s choice from that casino, which goes back to its owner. Spec 3.6.' },
  { name: 'chaserTargets', type: 'choice', default: D.chaserTargets, choices: ['anyDie', 'opponentsOnly'], description: "Dice a chaser may remove: 'anyDie' there (own ones and those just placed included), or 'opponentsOnly' (dice other players placed). Spec LV-9." },
  { name: 'minimumStakeByPlayers', type: 'boolean', default: D.minimumStakeByPlayers, description: 'Expansion Summary card: the minimum per casino depends on the player count (minimumByPlayers2-8) instead of casinoMinimum. Spec 3.1.' },
  ...[2, 3, 4, 5, 6, 7, 8].map(
    (n): OptionSpec => ({
      name: `minimumByPlayers${n}`,
      type: 'integer',
      default: MINIMUM_BY_PLAYERS[n] as number,
      min: 10000,
      max: 500000,
      description: `Minimum per casino with ${n} players when minimumStakeByPlayers is on. Spec LV-31${n >= 7 ? ' (derived)' : ''}.`,
    }),
  ),
  { name: 'deckSeed', type: 'integer', default: D.deckSeed, min: 0, max: 2147483647, description: 'Seed of the bill shuffle (the table picks one per game).' },
];

// ---------------------------------------------------------------------------
// State and actions

/** A die lying on a casino. `seat` null: a spare white die thrown before the round. */
export interface PlacedDie {
  readonly colour: string;
  readonly seat: number | null;
  readonly slot: number;
}

export interface Casino {
  /** Bill ids lying at the casino, highest value first. */
  readonly bills: readonly number[];
  readonly dice: readonly PlacedDie[];
}

export interface LasVegasPlayer {
  readonly name: string;
  readonly colour: string;
  /** Slots of the dice still in hand this round (own 0-7, white 8 and up). */
  readonly hand: readonly number[];
  /** Ids of the bills won, in the order won. */
  readonly bills: readonly number[];
}

/** One bill paid out at a round's scoring. `seat` null: white or nobody won it. */
export interface Payout {
  readonly round: number;
  readonly casino: number;
  readonly bill: number;
  readonly colour: string | null;
  readonly seat: number | null;
}

export type LasVegasPhase = 'spareThrow' | 'throw' | 'place' | 'chase' | 'over';

/** Chasers just placed that still remove a die each (phase 'chase'). */
export interface PendingChase {
  /** Casino number 1-6. */
  readonly casino: number;
  readonly left: number;
}

export interface LasVegasState {
  readonly game: 'las-vegas';
  readonly options: LasVegasOptions;
  readonly players: readonly LasVegasPlayer[];
  /** Casinos 1-6 at indices 0-5. */
  readonly casinos: readonly Casino[];
  /** Bill ids face down, top first; null in player views (the order is secret). */
  readonly deck: readonly (number | null)[];
  /** Bills out of the game (`unclaimedBills: 'discard'`). */
  readonly discard: readonly number[];
  /** White dice each player throws with their own (0 without neutral dice). */
  readonly whitePerPlayer: number;
  /** White dice the start player throws before each round (3 players with neutral dice). */
  readonly spareWhite: number;
  /** Current round, 1-based. */
  readonly round: number;
  readonly startPlayer: number;
  /** Seat to act (the last to act once over). */
  readonly current: number;
  readonly phase: LasVegasPhase;
  /** The last throw by slot; null where no die was thrown. */
  readonly thrown: readonly (number | null)[];
  /** The bills paid at the last scoring, casinos 1 to 6. */
  readonly lastPayouts: readonly Payout[];
  /**
   * Dice out for the rest of the round: spent chasers (on the Summary card,
   * spec 3.6) and spare white dice a chaser removed (they have no owner to go back to).
   */
  readonly setAside: readonly PlacedDie[];
  /** Chasers still to remove a die, or null. */
  readonly chase: PendingChase | null;
}

export type LasVegasAction =
  | RollAction
  /** Put every thrown die showing `value` on casino `value`. */
  | { readonly type: 'place'; readonly value: number }
  /** A placed chaser removes this die (`seat` null: a spare white die) from the casino it went to. */
  | { readonly type: 'chase'; readonly seat: number | null; readonly slot: number };

// ---------------------------------------------------------------------------
// Pure helpers

/** mulberry32: the deck shuffle's generator, so a seed gives one deck order everywhere. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher-Yates shuffle of `items` driven by `seed` (pure: same seed, same order). */
export function shuffle<T>(items: readonly T[], seed: number): T[] {
  const random = seeded(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The seed of the shuffle before `round` (round 1 is the game's first shuffle). */
const roundSeed = (seed: number, round: number): number => (seed ^ Math.imul(round, 0x9e3779b1)) >>> 0;

/** The shuffled deck a game starts with. */
export const initialDeck = (deckSeed: number): number[] => shuffle(BILL_VALUES.map((_, id) => id), roundSeed(deckSeed, 1));

/** The deck of a full state; a player view (deck face down) cannot be played on. */
function faceUp(deck: readonly (number | null)[]): number[] {
  if (deck.some((b) => b === null)) throw new Error('The deck is hidden in this state: play on the full state, not a player view.');
  return deck as number[];
}

/** Bills highest value first (lower id first among equal values, so the order is fixed). */
const byValueDesc = (ids: readonly number[]): number[] => [...ids].sort((a, b) => billValue(b) - billValue(a) || a - b);

/**
 * Deals each casino 1 → 6 bills from the top of the deck until it holds at
 * least `minimum` (spec 2.1 step 3). A casino gets what is left when the deck
 * runs out.
 */
export function dealCasinos(deck: readonly number[], minimum: number): { casinos: Casino[]; deck: number[] } {
  const rest = [...deck];
  const casinos: Casino[] = [];
  for (let c = 0; c < CASINO_COUNT; c++) {
    const bills: number[] = [];
    while (moneyOf(bills) < minimum && rest.length > 0) bills.push(rest.shift() as number);
    casinos.push({ bills: byValueDesc(bills), dice: [] });
  }
  return { casinos, deck: rest };
}

/** One casino's result: which colour takes which bill, and the bills nobody takes. */
export interface CasinoScore<B> {
  readonly awards: ReadonlyArray<{ readonly colour: string; readonly bill: B }>;
  readonly unclaimed: readonly B[];
}

/**
 * Scores one casino (spec 2.3): colours whose count equals another colour's
 * are out, at any level; the rest, most dice first, take the bills, highest
 * first, one bill each.
 */
export function scoreCasino<B>(counts: Readonly<Record<string, number>>, bills: readonly B[], value: (bill: B) => number): CasinoScore<B> {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  const untied = entries.filter(([, n]) => entries.filter(([, m]) => m === n).length === 1).sort((a, b) => b[1] - a[1]);
  const sorted = [...bills].sort((a, b) => value(b) - value(a));
  const awards = untied.slice(0, sorted.length).map(([colour], i) => ({ colour, bill: sorted[i] as B }));
  return { awards, unclaimed: sorted.slice(awards.length) };
}

/** Is this die a player's big die (`bigDice`: own slot 0, spec 3.5)? */
export const isBigDie = (die: PlacedDie, bigDice: boolean): boolean => bigDice && die.seat !== null && die.slot === BIG_DIE_SLOT;

/**
 * Dice per colour on a casino, as scoring counts them: with `bigDice` a big
 * die counts as two, in majorities and in ties alike (spec 3.5).
 */
export function casinoCounts(casino: Casino, bigDice = false): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of casino.dice) counts[d.colour] = (counts[d.colour] ?? 0) + (isBigDie(d, bigDice) ? 2 : 1);
  return counts;
}

/** Size of a slot's die: 'big' for own die 0 with `bigDice`, else 'normal'. */
export const slotSize = (state: LasVegasState, slot: number): 'big' | 'normal' => (state.options.bigDice && slot === BIG_DIE_SLOT ? 'big' : 'normal');

/** Chasers per player: 2 with fewer than 6 players, 1 with 6 or 7 (spec 3.6), 0 without the module. */
export const chasersPerPlayer = (options: LasVegasOptions, players: number): number => (options.chaserDice ? (players < 6 ? 2 : 1) : 0);

/** Is `slot` a chaser of a player (own slots 7, and 6 with 2 chasers)? */
export function isChaserSlot(state: LasVegasState, slot: number): boolean {
  const n = chasersPerPlayer(state.options, state.players.length);
  return slot < FIRST_WHITE_SLOT && slot >= OWN_DICE - n;
}

/** Colour of a slot in the current throw: own colour below 8 (purple for chasers), white above. */
export function slotColour(state: LasVegasState, slot: number): string {
  if (slot >= FIRST_WHITE_SLOT) return NEUTRAL_COLOUR;
  if (isChaserSlot(state, slot)) return CHASER_COLOUR;
  return state.players[state.current]?.colour ?? '';
}

/** Dice the pending chaser may remove: non-chaser dice on its casino (LV-9 may exclude the placer's). */
export function chaseTargets(state: LasVegasState): PlacedDie[] {
  if (state.chase === null) return [];
  const casino = state.casinos[state.chase.casino - 1] as Casino;
  return casino.dice.filter((d) => state.options.chaserTargets === 'anyDie' || d.seat !== state.current);
}

/** The white dice each player throws with their own (LV-6), or 0. */
export function whitePerPlayer(options: LasVegasOptions, players: number): number {
  if (!options.neutralDice) return 0;
  if (players === 2) return options.neutralPerPlayer2;
  if (players === 3) return options.neutralPerPlayer3;
  if (players === 4) return options.neutralPerPlayer4;
  return options.neutralPerPlayer5;
}

/** The money each casino is dealt up to: `casinoMinimum`, or by player count with `minimumStakeByPlayers` (spec 3.1). */
export function casinoMinimum(options: LasVegasOptions, players: number): number {
  if (!options.minimumStakeByPlayers) return options.casinoMinimum;
  const byCount = (options as unknown as Record<string, number>)[`minimumByPlayers${players}`];
  return byCount ?? options.casinoMinimum;
}

/** Player colours in seat order: white is neutral with `neutralDice`, the expansion adds yellow, grey, purple. */
export function playerColours(options: LasVegasOptions): string[] {
  const base: string[] = options.neutralDice ? PLAYER_COLOURS.filter((c) => c !== NEUTRAL_COLOUR) : [...PLAYER_COLOURS];
  return options.extraPlayerDice ? [...base, ...EXTRA_COLOURS] : base;
}

/** Why these options cannot be played by `players` players (spec 3.11), or null. */
function rangeProblem(o: LasVegasOptions, players: number): string | null {
  if (players > 5 && !o.extraPlayerDice) return `${players} players need the expansion's extra dice (option extraPlayerDice).`;
  if (o.neutralDice && players > 5) return `Neutral dice take 2 to 5 players; got ${players}.`;
  if (o.neutralDice && players === 5 && !o.extraPlayerDice) return "Neutral dice with 5 players need the expansion's extra dice (option extraPlayerDice): white is neutral, so the 5th player takes yellow.";
  if (o.chaserDice && players > 7) return `Chasers take 2 to 7 players (purple is the 8th player's colour); got ${players}.`;
  if (o.bigDice && players > 7) return `Big dice take 2 to 7 players (there are 7 big dice); got ${players}.`;
  if (o.extraPlayerDice && players < 6 && !(players === 5 && o.neutralDice)) return `The extra player dice are for 6 to 8 players (or 5 with neutral dice); got ${players}.`;
  return null;
}

/** Is white the neutral colour in this game (its bills go under the deck)? */
const whiteIsNeutral = (state: LasVegasState): boolean => state.whitePerPlayer > 0 || state.spareWhite > 0;

const fullHand = (whites: number): number[] => Array.from({ length: OWN_DICE + whites }, (_, i) => i);

/** Every die showing a face in the last throw, by value (values 1-6 that were thrown). */
export function thrownValues(state: LasVegasState): number[] {
  const values = new Set<number>();
  for (const v of state.thrown) if (v !== null) values.add(v);
  return [...values].sort((a, b) => a - b);
}

/** Money of each seat. */
export const money = (state: LasVegasState): number[] => state.players.map((p) => moneyOf(p.bills));

/** The money still with the bank: deck, casinos and discards. */
export function bankMoney(state: LasVegasState): number {
  return moneyOf(faceUp(state.deck)) + moneyOf(state.discard) + state.casinos.reduce((a, c) => a + moneyOf(c.bills), 0);
}

// ---------------------------------------------------------------------------
// The game

const emptyThrow = (state: Pick<LasVegasState, 'whitePerPlayer' | 'spareWhite'>): (number | null)[] =>
  Array<number | null>(OWN_DICE + Math.max(state.whitePerPlayer, state.spareWhite)).fill(null);

function player(state: LasVegasState, seat: number): LasVegasPlayer {
  const p = state.players[seat];
  if (p === undefined) throw new RangeError(`State has no player ${seat}`);
  return p;
}

/** Sets up a round: bills dealt (after a reshuffle when asked), every hand full, the start player to act. */
function startRound(state: LasVegasState, round: number, startPlayer: number): LasVegasState {
  const deck = round > 1 && state.options.reshuffleEachRound ? shuffle(faceUp(state.deck), roundSeed(state.options.deckSeed, round)) : faceUp(state.deck);
  const dealt = dealCasinos(deck, casinoMinimum(state.options, state.players.length));
  return {
    ...state,
    casinos: dealt.casinos,
    deck: dealt.deck,
    players: state.players.map((p) => ({ ...p, hand: fullHand(state.whitePerPlayer) })),
    round,
    startPlayer,
    current: startPlayer,
    phase: state.spareWhite > 0 ? 'spareThrow' : 'throw',
    thrown: emptyThrow(state),
    setAside: [],
    chase: null,
  };
}

/** Scores casinos 1 → 6 and pays the bills (spec 2.3; white's bills go under the deck, spec 2.5). */
function scoreRound(state: LasVegasState): LasVegasState {
  const won: number[][] = state.players.map((p) => [...p.bills]);
  let deck = [...faceUp(state.deck)];
  let discard = [...state.discard];
  const payouts: Payout[] = [];
  state.casinos.forEach((casino, c) => {
    const { awards, unclaimed } = scoreCasino(casinoCounts(casino, state.options.bigDice), casino.bills, billValue);
    for (const { colour, bill } of awards) {
      const seat = whiteIsNeutral(state) && colour === NEUTRAL_COLOUR ? -1 : state.players.findIndex((p) => p.colour === colour);
      if (seat < 0) deck.push(bill);
      else won[seat]?.push(bill);
      payouts.push({ round: state.round, casino: c + 1, bill, colour, seat: seat < 0 ? null : seat });
    }
    for (const bill of unclaimed) {
      if (state.options.unclaimedBills === 'discard') discard = [...discard, bill];
      else deck = [...deck, bill];
      payouts.push({ round: state.round, casino: c + 1, bill, colour: null, seat: null });
    }
  });
  const scored: LasVegasState = {
    ...state,
    // Everyone takes their dice back (spec 2.4), also after the last round.
    players: state.players.map((p, i) => ({ ...p, bills: won[i] ?? [], hand: fullHand(state.whitePerPlayer) })),
    casinos: state.casinos.map(() => ({ bills: [], dice: [] })),
    deck,
    discard,
    lastPayouts: payouts,
  };
  if (state.round >= state.options.rounds) return { ...scored, phase: 'over', thrown: emptyThrow(state), setAside: [], chase: null };
  return startRound(scored, state.round + 1, (state.startPlayer + 1) % state.players.length);
}

/** The next seat after `from`, clockwise, that still holds dice, or null when all dice are placed. */
function nextWithDice(state: LasVegasState, from: number): number | null {
  const n = state.players.length;
  for (let k = 1; k <= n; k++) {
    const seat = (from + k) % n;
    if (player(state, seat).hand.length > 0) return seat;
  }
  return null;
}

function checkThrow(state: LasVegasState, values: unknown): number[] | InvalidAction {
  const request = lasVegas.diceRequest(state) as DiceRequest;
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  return values as number[];
}

function applyRoll(state: LasVegasState, values: unknown): LasVegasState | InvalidAction {
  if (state.phase === 'chase') return invalid('game/must_chase', `${player(state, state.current).name} must first choose the die the chaser removes.`);
  if (state.phase === 'place') {
    return invalid('game/must_place', `${player(state, state.current).name} has thrown already; place the dice of one value (${thrownValues(state).join(', ')}).`);
  }
  const checked = checkThrow(state, values);
  if (!Array.isArray(checked)) return checked;
  const slots = (lasVegas.diceRequest(state) as DiceRequest).slots;
  if (state.phase === 'spareThrow') {
    // The spare white dice each go to the casino of their face (spec 2.5).
    const casinos = state.casinos.map((c) => ({ ...c, dice: [...c.dice] }));
    slots.forEach((slot, i) => casinos[(checked[i] as number) - 1]?.dice.push({ colour: NEUTRAL_COLOUR, seat: null, slot }));
    const thrown = emptyThrow(state);
    slots.forEach((slot, i) => (thrown[slot] = checked[i] as number));
    return { ...state, casinos, thrown, phase: 'throw' };
  }
  const thrown = emptyThrow(state);
  slots.forEach((slot, i) => (thrown[slot] = checked[i] as number));
  return { ...state, thrown, phase: 'place' };
}

function applyPlace(state: LasVegasState, value: unknown): LasVegasState | InvalidAction {
  if (state.phase === 'chase') return invalid('game/must_chase', `${player(state, state.current).name} must first choose the die the chaser removes.`);
  if (state.phase !== 'place') return invalid('game/no_throw_yet', `${player(state, state.current).name} must throw before placing dice.`);
  if (!isDieValue(value)) return invalid('game/bad_value', `Name the value to place as a whole number 1 to 6; got ${show(value)}.`);
  const values = thrownValues(state);
  if (!values.includes(value)) return invalid('game/value_not_thrown', `No die of this throw shows ${value}; place one of ${values.join(', ')}.`);
  const slots = state.thrown.flatMap((v, slot) => (v === value ? [slot] : []));
  const dice = slots.map((slot) => ({ colour: slotColour(state, slot), seat: state.current, slot }));
  // Chasers never stay on a casino: they go to the Summary card and each removes a die there (spec 3.6).
  const chasers = dice.filter((d) => isChaserSlot(state, d.slot));
  const placed = dice.filter((d) => !isChaserSlot(state, d.slot));
  const casinos = state.casinos.map((c, i) => (i === value - 1 ? { ...c, dice: [...c.dice, ...placed] } : c));
  const players = state.players.map((p, i) => (i === state.current ? { ...p, hand: p.hand.filter((s) => !slots.includes(s)) } : p));
  const after: LasVegasState = { ...state, casinos, players, thrown: emptyThrow(state), setAside: [...state.setAside, ...chasers], chase: { casino: value, left: chasers.length } };
  return afterChase(after);
}

/** Waits for the next chaser's target, or (none left, or nothing to remove) ends the turn. */
function afterChase(state: LasVegasState): LasVegasState {
  if (state.chase !== null && state.chase.left > 0 && chaseTargets(state).length > 0) return { ...state, phase: 'chase' };
  const done: LasVegasState = { ...state, chase: null };
  const next = nextWithDice(done, state.current);
  if (next === null) return scoreRound(done);
  return { ...done, current: next, phase: 'throw' };
}

function applyChase(state: LasVegasState, seat: unknown, slot: unknown): LasVegasState | InvalidAction {
  if (state.phase !== 'chase' || state.chase === null) return invalid('game/no_chaser', 'No chaser is waiting to remove a die now.');
  const { casino, left } = state.chase;
  const target = chaseTargets(state).find((d) => d.seat === seat && d.slot === slot);
  if (target === undefined) {
    return invalid('game/bad_chase_target', `The chaser on casino ${casino} cannot remove die ${show(slot)} of seat ${show(seat)}; name a ${state.options.chaserTargets === 'anyDie' ? '' : "other player's "}die lying there.`);
  }
  const casinos = state.casinos.map((c, i) => (i === casino - 1 ? { ...c, dice: c.dice.filter((d) => d !== target) } : c));
  // The die goes back to its owner, who throws it again this round (a player out of dice re-enters).
  const players = state.players.map((p, i) => (i === target.seat ? { ...p, hand: [...p.hand, target.slot].sort((a, b) => a - b) } : p));
  const setAside = target.seat === null ? [...state.setAside, target] : state.setAside;
  return afterChase({ ...state, casinos, players, setAside, chase: { casino, left: left - 1 } });
}

/** What `value` would earn the current player at its casino now, minus what they earn there already. */
function gainOf(state: LasVegasState, value: number): number {
  const me = player(state, state.current);
  const casino = state.casinos[value - 1] as Casino;
  const mine = (c: Casino): number => scoreCasino(casinoCounts(c, state.options.bigDice), c.bills, billValue).awards.filter((a) => a.colour === me.colour).reduce((s, a) => s + billValue(a.bill), 0);
  const adding = state.thrown.flatMap((v, slot) => (v === value && !isChaserSlot(state, slot) ? [{ colour: slotColour(state, slot), seat: state.current, slot }] : []));
  return mine({ ...casino, dice: [...casino.dice, ...adding] }) - mine(casino);
}

/**
 * A greedy player: places the value that raises its winnings most as the
 * casinos stand, using as few dice as possible on a draw; random among equals.
 */
function bot(state: LasVegasState, random: () => number): LasVegasAction | null {
  if (state.phase === 'chase') return chaseBot(state, random);
  if (state.phase !== 'place') return null;
  const options = thrownValues(state).map((value) => ({
    value,
    gain: gainOf(state, value),
    dice: state.thrown.filter((v) => v === value).length,
    tie: random(),
  }));
  options.sort((a, b) => b.gain - a.gain || a.dice - b.dice || a.tie - b.tie);
  return { type: 'place', value: (options[0] as { value: number }).value };
}

/** A chaser removes the die that leaves the bot best paid at that casino; other players' dice first on a draw. */
function chaseBot(state: LasVegasState, random: () => number): LasVegasAction {
  const me = player(state, state.current);
  const casino = state.casinos[(state.chase?.casino ?? 1) - 1] as Casino;
  const mine = (dice: readonly PlacedDie[]): number =>
    scoreCasino(casinoCounts({ ...casino, dice }, state.options.bigDice), casino.bills, billValue)
      .awards.filter((a) => a.colour === me.colour)
      .reduce((s, a) => s + billValue(a.bill), 0);
  const options = chaseTargets(state).map((d) => ({ d, gain: mine(casino.dice.filter((x) => x !== d)), own: d.seat === state.current ? 1 : 0, tie: random() }));
  options.sort((a, b) => b.gain - a.gain || a.own - b.own || a.tie - b.tie);
  const { d } = options[0] as { d: PlacedDie };
  return { type: 'chase', seat: d.seat, slot: d.slot };
}

/** $1,234,000: thousands separated by hand, so the board does not depend on the locale. */
const dollars = (n: number): string => `$${String(n).replace(/\B(?=(\d{3})+$)/g, ',')}`;

function board(state: LasVegasState): TableBoard {
  const cash = money(state);
  const players = state.players.map((p, i) => ({
    name: p.name,
    values: { colour: p.colour, money: dollars(cash[i] ?? 0), bills: p.bills.length, dice: p.hand.length },
    out: false,
  }));
  const me = state.players[state.current];
  const name = me ? `${me.name} (${me.colour})` : '';
  let status: string;
  if (state.phase === 'over') {
    const r = lasVegas.result(state) as GameResult;
    const names = r.winners.map((w) => state.players[w]?.name ?? '').join(' and ');
    status = r.winners.length > 0 ? `Game over: ${names} ${r.winners.length > 1 ? 'share the win' : 'wins'} with ${dollars(Math.max(...cash))}` : 'Game over';
  } else if (state.phase === 'spareThrow') status = `${name}: throw the ${state.spareWhite} spare white dice onto the casinos`;
  else if (state.phase === 'throw') status = `${name}: throw your ${me?.hand.length ?? 0} dice`;
  else if (state.phase === 'chase') status = `${name}: choose a die for the chaser to remove from casino ${state.chase?.casino ?? ''}`;
  else status = `${name}: place the dice of one value (${thrownValues(state).join(', ')})`;
  const casinoPanels = state.casinos.map((c, i) => {
    const counts = casinoCounts(c, state.options.bigDice);
    return {
      id: `casino${i + 1}`,
      label: `Casino ${i + 1}`,
      items: [
        ...c.bills.map((b) => ({ label: 'Bill', value: dollars(billValue(b)) })),
        ...Object.entries(counts).map(([colour, n]) => ({ label: colour, value: n })),
      ],
    };
  });
  const last = state.lastPayouts.filter((p) => p.colour !== null);
  return {
    kind: 'table',
    status,
    current: state.phase === 'over' ? null : state.current,
    dice: state.thrown,
    held: state.thrown.map(() => false),
    columns: [
      { id: 'colour', label: 'Colour' },
      { id: 'money', label: 'Money' },
      { id: 'bills', label: 'Bills' },
      { id: 'dice', label: 'Dice left' },
    ],
    players,
    panels: [
      {
        id: 'round',
        label: 'Round',
        items: [
          { label: 'Round', value: `${state.round} of ${state.options.rounds}` },
          { label: 'Start player', value: state.players[state.startPlayer]?.name ?? '' },
          { label: 'Bills in deck', value: state.deck.length },
          ...(state.options.chaserDice ? [{ label: 'Chasers spent', value: state.setAside.filter((d) => d.colour === CHASER_COLOUR).length }] : []),
        ],
      },
      ...casinoPanels,
      {
        id: 'lastPayouts',
        label: 'Last scoring',
        items: last.map((p) => ({ label: `Casino ${p.casino}: ${p.seat === null ? `${p.colour} (neutral)` : (state.players[p.seat]?.name ?? '')}`, value: dollars(billValue(p.bill)) })),
      },
    ],
  };
}

export const lasVegas: GameDef<LasVegasState, LasVegasAction, LasVegasOptions> = {
  id: 'las-vegas',
  name: 'Las Vegas',
  minPlayers: 2,
  maxPlayers: 8,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    'Dice placement for 2-5 players (up to 8 with the Boulevard extra dice) over four rounds. Six casinos (1-6) each get banknotes worth at least $50,000. In turn, each player throws all the dice they still hold and puts every die of one value on the casino with that number. When all dice are placed, each casino pays its bills, highest first, to the colours with the most dice, one bill each; colours tied on a count are all out. Most money after four rounds wins. Variant: neutral white dice thrown with your own, whose bills nobody gets. Boulevard modules available: extra player dice (yellow, grey, purple for 6-8 players), big dice that count as two, purple chasers that knock a die off the casino they land on, and a minimum stake per casino by player count.',
  dice: {
    count: OWN_DICE + 4,
    colours: [...PLAYER_COLOURS, ...EXTRA_COLOURS],
    sizes: ['normal', 'big'],
    note: "Each throw is one player's dice: their 8 in their colour (slots 0-7; with big dice slot 0 is the big die, with chasers slot 7 and for 2-5 players slot 6 are purple chasers) plus, with neutral dice, white ones (slots 8 and up).",
  },
  optionSpecs: OPTION_SPECS,
  board,
  // No secret dice, but the face-down deck (and the seed that orders it) stays hidden from everyone.
  playerView: (state) => ({ ...state, options: { ...state.options, deckSeed: 0 }, deck: state.deck.map(() => null) }),
  bot,

  setup(players, options) {
    const opts = resolveOptions<LasVegasOptions>('Las Vegas', OPTION_SPECS, options);
    checkPlayers('Las Vegas', players, lasVegas.minPlayers, lasVegas.maxPlayers);
    const problem = rangeProblem(opts, players.length);
    if (problem !== null) throw new GameSetupError(problem);
    // The option ranges keep whites × players within the white dice (8, or 10 with the expansion for 5 players).
    const whites = whitePerPlayer(opts, players.length);
    // Only the 3-player game throws the white dice nobody holds (LV-6).
    const spare = opts.neutralDice && players.length === 3 ? WHITE_DICE - 3 * whites : 0;
    const colours = playerColours(opts);
    const base: LasVegasState = {
      game: 'las-vegas',
      options: opts,
      players: players.map((name, i) => ({ name, colour: colours[i] as string, hand: [], bills: [] })),
      casinos: [],
      deck: initialDeck(opts.deckSeed),
      discard: [],
      whitePerPlayer: whites,
      spareWhite: spare,
      round: 1,
      startPlayer: 0,
      current: 0,
      phase: 'throw',
      thrown: [],
      lastPayouts: [],
      setAside: [],
      chase: null,
    };
    return startRound(base, 1, 0);
  },

  diceRequest(state): DiceRequest | null {
    if (state.phase === 'spareThrow') {
      const slots = Array.from({ length: state.spareWhite }, (_, i) => FIRST_WHITE_SLOT + i);
      return { count: slots.length, slots, player: state.current, secret: false };
    }
    if (state.phase !== 'throw') return null;
    const slots = player(state, state.current).hand;
    return { count: slots.length, slots: [...slots], player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.phase === 'over') return invalid('game/over', 'The game is over; no more actions are accepted.');
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown; value?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'place':
        return applyPlace(state, a.value);
      case 'chase':
        return applyChase(state, (a as { seat?: unknown }).seat, (a as { slot?: unknown }).slot);
      default:
        return invalid('game/unknown_action', `Las Vegas has no action ${show(a?.type)}; use roll, place or chase.`);
    }
  },

  legalActions(state) {
    if (state.phase === 'chase') return chaseTargets(state).map((d) => ({ type: 'chase' as const, seat: d.seat, slot: d.slot }));
    if (state.phase !== 'place') return [];
    return thrownValues(state).map((value) => ({ type: 'place', value }));
  },

  result(state): GameResult | null {
    if (state.phase !== 'over') return null;
    const scores = money(state);
    const best = Math.max(...scores);
    let winners = scores.flatMap((s, i) => (s === best ? [i] : []));
    if (state.options.finalTie === 'mostBills' && winners.length > 1) {
      const bills = winners.map((w) => player(state, w).bills.length);
      const most = Math.max(...bills);
      winners = winners.filter((_, k) => bills[k] === most);
    }
    return { winners, scores };
  },
};
