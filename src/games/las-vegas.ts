/**
 * Las Vegas (`las-vegas`): dice placement on six casinos for banknotes, with
 * every module of the Boulevard expansion. Rules: shared/rules/las-vegas.md.
 * Every option below is a module switch of its section 3 or a row of its
 * "Ambiguities and chosen defaults" (section 9). Components and scoring rules
 * that need no state are in las-vegas-rules.ts.
 *
 * Modes (`mode`): 'standard' (2-8 players, section 2 and 3), 'solo' (1
 * player, section 4) and 'secretColours' (2-4 players, section 5).
 *
 * Pure module: plain JSON state; the bill deck and the cards are shuffled
 * from the `deckSeed` option (never Math.random), and dice values arrive in
 * `roll` actions. Every dice request names the physical dice (`dice`: colour
 * and size); a roll may carry the dice as read (`dice`), which must match.
 *
 * Choices the rules give a player that this engine makes for them: the
 * slot machine's bill choice (each winner takes the highest bill left),
 * «Tie Winner»'s casino (the tie that pays most), «Swap Bill»'s bill (the
 * lowest won this round). Fixed at the spec's default, not options: LV-10
 * (the placeholder bonus deck, BONUS_DECK), LV-15 (one «Re-roll» use), LV-22
 * (a bill won this round). A player a chaser gives a die back to may play a
 * card on their next turn, not at once.
 *
 * Dice slots, standard mode: every throw is one seat's dice. Slots 0-7 are
 * the thrower's eight dice (slot 0 the big die with `bigDice`, slot 7 and for
 * 2-5 players slot 6 purple chasers with `chaserDice`); slots 8 and up are
 * white neutral dice (the thrower's own, or the 3-player spare dice thrown
 * before the round). Solo and secret colours: a turn's slot is the colour's
 * index in ALL_COLOURS (one die per colour); a set-up throw's slot i is die i.
 */
import { GameSetupError, invalid } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RequestedDie, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { isDieValue, show } from './dice.js';
import { boardSay, gameSay, gameValue, valueSay, winnersSay } from './board-text.js';
import {
  ACTION_CARDS,
  ALL_COLOURS,
  BONUS_DECK,
  CARD_NAMES,
  CASINO_COUNT,
  CHASER_COLOUR,
  EXTRA_COLOURS,
  NEUTRAL_COLOUR,
  OWN_DICE,
  PLAYER_COLOURS,
  RECONSTRUCTED_CARDS,
  REMINDER_PIP_VALUE,
  SLOT_MACHINE,
  billValue,
  billsInUse,
  byValueDesc,
  cardsPerPlayer,
  dealCasinos,
  isColourful,
  moneyOf,
  raiseReminder,
  replaceColourful,
  roundSeed,
  scoreCasino,
  scoreSecretPlacement,
  scoreSlotMachine,
  shuffle,
  slotGroups,
  type ActionCard,
  type Casino,
  type CasinoScore,
  type PlacedDie,
} from './las-vegas-rules.js';

export * from './las-vegas-rules.js';

/** White dice in the base box: the fifth colour, neutral in the variant (the expansion adds 2 more, spec 3.4). */
export const WHITE_DICE = 8;
/** First slot of the white dice in a throw. */
export const FIRST_WHITE_SLOT = OWN_DICE;
/** With `bigDice`, own die 0 is the player's big die (it replaces one normal die, spec 3.5). */
export const BIG_DIE_SLOT = 0;
/** Minimum per casino by player count with `minimumStakeByPlayers` (spec 3.1, LV-31; 7 and 8 derived). */
export const MINIMUM_BY_PLAYERS: Readonly<Record<number, number>> = { 2: 30000, 3: 40000, 4: 50000, 5: 60000, 6: 70000, 7: 80000, 8: 90000 };
/** Rounds of the secret-colours variant (spec 5). */
export const SECRET_COLOURS_ROUNDS = 2;
/** Bills per casino in the secret-colours variant (spec 5). */
export const SECRET_BILLS_PER_CASINO = 3;
/** The solo player's colour; the opponents' dice thrown before the round are purple (and grey, LV-30). */
export const SOLO_COLOUR = 'red';
const SOLO_PREPLACED = ['purple', 'grey'] as const;

// ---------------------------------------------------------------------------
// Options

export type LasVegasMode = 'standard' | 'solo' | 'secretColours';

export interface LasVegasOptions {
  /** Standard game (2-8), solo (spec 4, 1 player) or the secret-colours variant (spec 5, 2-4). */
  readonly mode: LasVegasMode;
  /** LV-1: bills nobody wins at a casino go to the bottom of the deck or out of the game. */
  readonly unclaimedBills: 'bottomOfDeck' | 'discard';
  /** LV-2: shuffle the remaining deck before every round after the first. */
  readonly reshuffleEachRound: boolean;
  /** LV-3: a tie for most money is shared, or broken by the number of bills. */
  readonly finalTie: 'shared' | 'mostBills';
  /** LV-4: each casino is dealt bills until it holds at least this much. */
  readonly casinoMinimum: number;
  /** LV-5: rounds per game (standard mode). */
  readonly rounds: number;
  /** Spec 2.5 / 3.4: white neutral dice. */
  readonly neutralDice: boolean;
  /** LV-6, per player count. */
  readonly neutralPerPlayer2: number;
  readonly neutralPerPlayer3: number;
  readonly neutralPerPlayer4: number;
  readonly neutralPerPlayer5: number;
  /** Spec 3.3: yellow, grey and purple player dice for 6-8 players (and a 5th player beside neutral white). */
  readonly extraPlayerDice: boolean;
  /** Spec 3.5: each player's die 0 is a big die that counts as two dice at scoring (2-7 players). */
  readonly bigDice: boolean;
  /** Spec 3.6: purple chasers (2-7 players). */
  readonly chaserDice: boolean;
  /** LV-9. */
  readonly chaserTargets: 'anyDie' | 'opponentsOnly';
  /** Spec 3.1: the minimum per casino by player count. */
  readonly minimumStakeByPlayers: boolean;
  /** LV-31, one option per player count. */
  readonly minimumByPlayers2: number;
  readonly minimumByPlayers3: number;
  readonly minimumByPlayers4: number;
  readonly minimumByPlayers5: number;
  readonly minimumByPlayers6: number;
  readonly minimumByPlayers7: number;
  readonly minimumByPlayers8: number;
  /** Spec 3.2: five $100,000 bills in the deck. */
  readonly hundredThousandBills: boolean;
  /** Spec 3.7: six colourful cards in the deck, replaced by bills before scoring. */
  readonly colourfulBills: boolean;
  /** LV-7: what a colourful card counts towards a casino's minimum at round set-up. */
  readonly colourfulBillSetupValue: number;
  /** Spec 3.8: the slot machine, a seventh casino. */
  readonly slotMachine: boolean;
  /** LV-12: a big die's pips counted twice in the slot machine's total. */
  readonly bigDieSlotSum: 'double' | 'single';
  /** LV-13: slot machine ties below first place broken like the first place. */
  readonly slotTieBreakAllRanks: boolean;
  /** Spec 3.9: bonus cards and the reminder die. */
  readonly bonusCards: boolean;
  /** Spec 3.10: action cards. */
  readonly actionCards: boolean;
  /** LV-14. */
  readonly twoCasinosDuration: 'untilNextTurn' | 'restOfRound';
  /** LV-16: leave out «Skip» and «Turn-Dice», whose effects are reconstructed. */
  readonly excludeReconstructedCards: boolean;
  /** LV-18. */
  readonly earlyPayoutTiming: 'startOfNextTurn' | 'immediately';
  /** LV-23. */
  readonly middleBillReturn: 'top' | 'bottom';
  /** LV-32. */
  readonly tieWinnerScope: 'oneCasino' | 'allCasinos';
  /** LV-8. */
  readonly soloCasinoMinimum: number;
  /** LV-26. */
  readonly soloRounds: number;
  /** LV-27. */
  readonly soloWin: 'moreThanAllOthersCombined' | 'mostOfAnyColour';
  /** LV-28 (variant 2): how many dice of your own colour. */
  readonly soloOwnDice: number;
  /** LV-30 (variant 1): opponent colours thrown onto the casinos before the round. */
  readonly soloPreplacedColours: number;
  /** LV-19. */
  readonly unownedColourBills: 'discard' | 'bottomOfDeck';
  /** LV-21. */
  readonly secretColoursRound2Starter: 'left' | 'youngest';
  /** Seed of the shuffles (bills and cards): the order is part of the set-up, so the engine stays pure. */
  readonly deckSeed: number;
}

export const DEFAULT_OPTIONS: LasVegasOptions = {
  mode: 'standard',
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
  hundredThousandBills: false,
  colourfulBills: false,
  colourfulBillSetupValue: 100000,
  slotMachine: false,
  bigDieSlotSum: 'double',
  slotTieBreakAllRanks: true,
  bonusCards: false,
  actionCards: false,
  twoCasinosDuration: 'untilNextTurn',
  excludeReconstructedCards: false,
  earlyPayoutTiming: 'startOfNextTurn',
  middleBillReturn: 'top',
  tieWinnerScope: 'oneCasino',
  soloCasinoMinimum: 100000,
  soloRounds: 1,
  soloWin: 'moreThanAllOthersCombined',
  soloOwnDice: 8,
  soloPreplacedColours: 1,
  unownedColourBills: 'discard',
  secretColoursRound2Starter: 'left',
  deckSeed: 0,
};

const D = DEFAULT_OPTIONS;

/**
 * "Every module" for 2-5 players: each expansion switch of the standard game on,
 * except the extra player dice that only 6-8 players need. Tests and benchmarks share it.
 */
export const ALL_MODULES = {
  minimumStakeByPlayers: true,
  hundredThousandBills: true,
  neutralDice: true,
  bigDice: true,
  chaserDice: true,
  colourfulBills: true,
  slotMachine: true,
  bonusCards: true,
  actionCards: true,
} as const satisfies Partial<LasVegasOptions>;

/** Module switches of the standard game (spec 3): refused in solo and secret colours. */
const STANDARD_SWITCHES = [
  'minimumStakeByPlayers',
  'hundredThousandBills',
  'extraPlayerDice',
  'neutralDice',
  'bigDice',
  'chaserDice',
  'colourfulBills',
  'slotMachine',
  'bonusCards',
  'actionCards',
] as const;

/** The options as the catalog shows them; the defaults are DEFAULT_OPTIONS. */
export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'mode', type: 'choice', default: D.mode, choices: ['standard', 'solo', 'secretColours'], description: "'standard' (2-8 players, the module switches below), 'solo' (1 player: your colour against the seven others, spec 4) or 'secretColours' (2-4 players, two secret colours each, bills paid at once, two rounds; spec 5)." },
  { name: 'unclaimedBills', type: 'choice', default: D.unclaimedBills, choices: ['bottomOfDeck', 'discard'], description: "Bills nobody wins at a casino: 'bottomOfDeck' (face down under the deck) or 'discard' (out of the game). Spec LV-1." },
  { name: 'reshuffleEachRound', type: 'boolean', default: D.reshuffleEachRound, description: 'Shuffle the deck before each new round (default: the deck carries on). Spec LV-2.' },
  { name: 'finalTie', type: 'choice', default: D.finalTie, choices: ['shared', 'mostBills'], description: "A tie for most money: 'shared' win, or 'mostBills' (more bills wins; still tied, shared). Spec LV-3." },
  { name: 'casinoMinimum', type: 'integer', default: D.casinoMinimum, min: 10000, max: 500000, description: 'Each casino is dealt bills until it holds at least this much. Spec LV-4.' },
  { name: 'rounds', type: 'integer', default: D.rounds, min: 1, max: 10, description: 'Rounds per standard game. Spec LV-5.' },
  { name: 'neutralDice', type: 'boolean', default: D.neutralDice, description: 'Neutral white dice (2-4 players, 5 with extraPlayerDice): each player throws white dice with their own; white wins bills for nobody. Spec 2.5, 3.4.' },
  { name: 'neutralPerPlayer2', type: 'integer', default: D.neutralPerPlayer2, min: 1, max: 4, description: 'White dice per player with 2 players. Spec LV-6 (neutralPerPlayer[2]).' },
  { name: 'neutralPerPlayer3', type: 'integer', default: D.neutralPerPlayer3, min: 1, max: 2, description: 'White dice per player with 3 players; the start player throws the rest of the 8 before each round. Spec LV-6 (neutralPerPlayer[3]).' },
  { name: 'neutralPerPlayer4', type: 'integer', default: D.neutralPerPlayer4, min: 1, max: 2, description: 'White dice per player with 4 players. Spec LV-6 (neutralPerPlayer[4]).' },
  { name: 'neutralPerPlayer5', type: 'integer', default: D.neutralPerPlayer5, min: 1, max: 2, description: "White dice per player with 5 players (the expansion's 10 white dice; needs extraPlayerDice). Spec LV-6 (neutralPerPlayer[5])." },
  { name: 'extraPlayerDice', type: 'boolean', default: D.extraPlayerDice, description: 'Expansion: yellow, grey and purple dice for a 6th, 7th and 8th player (required for 6-8 players, and for 5 players with neutral dice). Spec 3.3.' },
  { name: 'bigDice', type: 'boolean', default: D.bigDice, description: "Expansion big dice (2-7 players): each player's die 0 is big and counts as two dice of their colour at scoring, ties included. Spec 3.5." },
  { name: 'chaserDice', type: 'boolean', default: D.chaserDice, description: "Expansion chasers (2-7 players): each player swaps own die 7 (and die 6 with fewer than 6 players) for a purple chaser; a placed chaser removes itself and one die of the placer's choice from that casino, which goes back to its owner. Spec 3.6." },
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
  { name: 'hundredThousandBills', type: 'boolean', default: D.hundredThousandBills, description: 'Expansion: five $100,000 bills shuffled into the deck (59 bills). Spec 3.2.' },
  { name: 'colourfulBills', type: 'boolean', default: D.colourfulBills, description: 'Expansion: six colourful cards in the deck; one dealt to a casino counts colourfulBillSetupValue towards its minimum and is replaced by the top bill when all dice are placed, before scoring. Spec 3.7.' },
  { name: 'colourfulBillSetupValue', type: 'integer', default: D.colourfulBillSetupValue, min: 10000, max: 500000, description: 'What a colourful card counts towards a casino minimum at set-up (missing in the source). Spec LV-7.' },
  { name: 'slotMachine', type: 'boolean', default: D.slotMachine, description: 'Expansion slot machine (casino 7): dice of any value not already on it; most dice wins, ties broken by the higher total, then the higher die; unclaimed bills go under the deck. Spec 3.8.' },
  { name: 'bigDieSlotSum', type: 'choice', default: D.bigDieSlotSum, choices: ['double', 'single'], description: "A big die's pips in the slot machine's total: counted 'double' or 'single'. Spec LV-12." },
  { name: 'slotTieBreakAllRanks', type: 'boolean', default: D.slotTieBreakAllRanks, description: 'Slot machine: ties below first place are broken by total and highest die too (off: they cancel as on a casino). Spec LV-13.' },
  { name: 'bonusCards', type: 'boolean', default: D.bonusCards, description: 'Expansion bonus cards (2-7 players): secret cards naming bill values; winning such a bill in a round raises your reminder die, worth $50,000 a pip at the end. Placeholder card list (LV-10). Spec 3.9.' },
  { name: 'actionCards', type: 'boolean', default: D.actionCards, description: 'Expansion action cards: secret one-use cards dealt each round (Tie Winner, Re-roll, 2-Casinos, Skip, Turn-Dice, Take Back, Double-Trouble, Early Payout, Middle Bill, Swap Bill). Spec 3.10.' },
  { name: 'twoCasinosDuration', type: 'choice', default: D.twoCasinosDuration, choices: ['untilNextTurn', 'restOfRound'], description: '«2-Casinos» binds opponents until the card player\'s next turn, or for the rest of the round. Spec LV-14.' },
  { name: 'excludeReconstructedCards', type: 'boolean', default: D.excludeReconstructedCards, description: 'Leave «Skip» and «Turn-Dice» (effects reconstructed) out of the action deck (8 cards). Spec LV-16.' },
  { name: 'earlyPayoutTiming', type: 'choice', default: D.earlyPayoutTiming, choices: ['startOfNextTurn', 'immediately'], description: '«Early Payout» scores the casino at the start of the player\'s next turn, or at once. Spec LV-18.' },
  { name: 'middleBillReturn', type: 'choice', default: D.middleBillReturn, choices: ['top', 'bottom'], description: '«Middle Bill»: the two other bills go back on top of the deck or under it. Spec LV-23.' },
  { name: 'tieWinnerScope', type: 'choice', default: D.tieWinnerScope, choices: ['oneCasino', 'allCasinos'], description: '«Tie Winner» wins the tie in one casino (the one paying most) or in every casino. Spec LV-32.' },
  { name: 'soloCasinoMinimum', type: 'integer', default: D.soloCasinoMinimum, min: 10000, max: 500000, description: 'Solo: each casino is dealt at least this much (missing in the source). Spec LV-8.' },
  { name: 'soloRounds', type: 'integer', default: D.soloRounds, min: 1, max: 4, description: 'Solo: rounds played. Spec LV-26.' },
  { name: 'soloWin', type: 'choice', default: D.soloWin, choices: ['moreThanAllOthersCombined', 'mostOfAnyColour'], description: 'Solo: you win with more money than all other colours together, or more than each. Spec LV-27.' },
  { name: 'soloOwnDice', type: 'integer', default: D.soloOwnDice, min: 1, max: 8, description: 'Solo variant 2: dice of your own colour (group 2 gets the larger half). Spec LV-28.' },
  { name: 'soloPreplacedColours', type: 'integer', default: D.soloPreplacedColours, min: 1, max: 2, description: 'Solo variant 1: opponent colours thrown onto the casinos before the round (purple, then grey). Spec LV-30.' },
  { name: 'unownedColourBills', type: 'choice', default: D.unownedColourBills, choices: ['discard', 'bottomOfDeck'], description: 'Secret colours: bills won by colours nobody holds. Spec LV-19.' },
  { name: 'secretColoursRound2Starter', type: 'choice', default: D.secretColoursRound2Starter, choices: ['left', 'youngest'], description: 'Secret colours: round 2 starts left of round 1\'s starter, or with the youngest (seat 1) again. Spec LV-21.' },
  { name: 'deckSeed', type: 'integer', default: D.deckSeed, min: 0, max: 2147483647, description: 'Seed of the bill and card shuffles (the table picks one per game).' },
];

// ---------------------------------------------------------------------------
// State and actions

export interface LasVegasPlayer {
  readonly name: string;
  /** Own colour (standard and solo); '' in secret colours. */
  readonly colour: string;
  /** Slots of the dice still in hand this round (own 0-7, white 8 and up); standard mode. */
  readonly hand: readonly number[];
  /** Ids of the bills won, in the order won. */
  readonly bills: readonly number[];
  /** Action cards held (null: hidden from this viewer). */
  readonly cards: readonly (ActionCard | null)[];
  /** Bonus cards of this round by the bill value they name (null: hidden). */
  readonly bonus: readonly (number | null)[];
  /** Reminder die, 1-6 (bonus cards); 0 without them. */
  readonly reminder: number;
  /** Secret colours this player plays for (null: hidden). */
  readonly secretColours: readonly (string | null)[];
  /** Bills won this round (bonus cards, «Swap Bill»). */
  readonly wonThisRound: readonly number[];
  /** Turns taken this round («Tie Winner» only on the first). */
  readonly turns: number;
  /** Cards in play this round that act at scoring, and «Skip» (immune to 2-Casinos). */
  readonly tieWinner: boolean;
  readonly swapBill: boolean;
  readonly skipped: boolean;
}

/** One bill paid out at a scoring. `seat` null: white, an unowned colour or nobody won it. */
export interface Payout {
  readonly round: number;
  readonly casino: number;
  readonly bill: number;
  readonly colour: string | null;
  readonly seat: number | null;
}

export type LasVegasPhase = 'spareThrow' | 'throw' | 'reroll' | 'place' | 'chase' | 'over';

/** Chasers just placed that still remove a die each (phase 'chase'). */
export interface PendingChase {
  /** Casino number 1-6, or 7 for the slot machine. */
  readonly casino: number;
  readonly left: number;
}

/** What happened in the current turn (standard mode). */
export interface TurnState {
  /** Casinos placed on this turn, in order (normal placements and «Double-Trouble»). */
  readonly placements: readonly number[];
  /** The turn's normal placement is made. */
  readonly mainDone: boolean;
  /** «2-Casinos» binds this turn: two placements on different casinos. */
  readonly mustTwo: boolean;
  /** «Turn-Dice» played after the first placement (the second may go to the first casino again). */
  readonly turnedAfterFirst: boolean;
}

export interface LasVegasState {
  readonly game: 'las-vegas';
  readonly options: LasVegasOptions;
  readonly mode: LasVegasMode;
  readonly players: readonly LasVegasPlayer[];
  /** Casinos 1-6 at indices 0-5, the slot machine at index 6. */
  readonly casinos: readonly Casino[];
  /** Bill ids face down, top first; null in player views (the order is secret). */
  readonly deck: readonly (number | null)[];
  /** Bills and colourful cards out of the game. */
  readonly discard: readonly number[];
  readonly whitePerPlayer: number;
  readonly spareWhite: number;
  /** Current round, 1-based. */
  readonly round: number;
  readonly startPlayer: number;
  /** Seat to act (the last to act once over). */
  readonly current: number;
  readonly phase: LasVegasPhase;
  /** The last throw by slot; null where no die was thrown. */
  readonly thrown: readonly (number | null)[];
  /** The bills paid at the last scoring. */
  readonly lastPayouts: readonly Payout[];
  /**
   * Dice out for the rest of the round: spent chasers (on the Summary card),
   * spare white dice a chaser removed, and in secret colours the dice lying on the bills they won.
   */
  readonly setAside: readonly PlacedDie[];
  readonly chase: PendingChase | null;
  readonly turn: TurnState;
  /** Seats whose «2-Casinos» binds their opponents now. */
  readonly twoCasinos: readonly number[];
  /** «Early Payout» casinos waiting to be scored at their player's next turn. */
  readonly earlyPayouts: ReadonlyArray<{ readonly seat: number; readonly casino: number }>;
  /** Slots of a «Re-roll» waiting for their dice (phase 'reroll'). */
  readonly rerollSlots: readonly number[];
  /** Solo / secret colours: dice per colour (ALL_COLOURS order) still to throw in the current group. */
  readonly pool: readonly number[];
  /** Solo: the groups still to come. */
  readonly groups: ReadonlyArray<readonly number[]>;
  /** Solo / secret colours: bills won by colour (solo: the opponents'; secret: this round's, until revealed). */
  readonly colourBills: Readonly<Record<string, readonly number[]>>;
}

/** Dice as the camera read them, in the order of the request (the table sends them with the values). */
export interface ReadDie {
  readonly value: number;
  readonly colour: string;
  readonly size: 'normal' | 'big';
}

export type LasVegasAction =
  | { readonly type: 'roll'; readonly values: readonly number[]; readonly dice?: readonly ReadDie[] }
  /**
   * Put every thrown die showing `value` on casino `value`, or on the slot
   * machine (`slotMachine`). `earlyPayout`: play «Early Payout» on that casino.
   */
  | { readonly type: 'place'; readonly value: number; readonly slotMachine?: boolean; readonly earlyPayout?: boolean }
  /** A placed chaser removes this die (`seat` null: a spare white die). */
  | { readonly type: 'chase'; readonly seat: number | null; readonly slot: number }
  /** Plays an action card (spec 3.10); the fields each card needs are below. */
  | {
      readonly type: 'playCard';
      readonly card: ActionCard;
      /** «Re-roll»: the thrown slots to throw again; «Take Back»: own placed slots to take back. */
      readonly slots?: readonly number[];
      /** «Turn-Dice»: the die and the face it is turned to. */
      readonly slot?: number;
      readonly to?: number;
      /** «Double-Trouble»: the value of the double; «Middle Bill» and «Double-Trouble»: the casino (7: slot machine). */
      readonly value?: number;
      readonly casino?: number;
    };

// ---------------------------------------------------------------------------
// Small helpers

function player(state: LasVegasState, seat: number): LasVegasPlayer {
  const p = state.players[seat];
  if (p === undefined) throw new RangeError(`State has no player ${seat}`);
  return p;
}

const setPlayer = (state: LasVegasState, seat: number, change: Partial<LasVegasPlayer>): LasVegasState => ({
  ...state,
  players: state.players.map((p, i) => (i === seat ? { ...p, ...change } : p)),
});

/** The deck of a full state; a player view (deck face down) cannot be played on. */
function faceUp(deck: readonly (number | null)[]): number[] {
  if (deck.some((b) => b === null)) throw new Error('The deck is hidden in this state: play on the full state, not a player view.');
  return deck as number[];
}

const casinoCountOf = (options: LasVegasOptions): number => (options.mode === 'standard' && options.slotMachine ? CASINO_COUNT + 1 : CASINO_COUNT);
const casinoName = (casino: number): string => (casino === SLOT_MACHINE ? 'the slot machine' : `casino ${casino}`);

/** Is this die a player's big die (`bigDice`, spec 3.5)? */
export const isBigDie = (die: PlacedDie, bigDice: boolean): boolean => die.big === true || (bigDice && die.seat !== null && die.slot === BIG_DIE_SLOT);

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
export const slotSize = (state: LasVegasState, slot: number): 'big' | 'normal' => (state.mode === 'standard' && state.options.bigDice && slot === BIG_DIE_SLOT ? 'big' : 'normal');

/** Chasers per player: 2 with fewer than 6 players, 1 with 6 or 7 (spec 3.6), 0 without the module. */
export const chasersPerPlayer = (options: LasVegasOptions, players: number): number => (options.chaserDice ? (players < 6 ? 2 : 1) : 0);

/** Is `slot` a chaser of a player (own slots 7, and 6 with 2 chasers)? */
export function isChaserSlot(state: LasVegasState, slot: number): boolean {
  if (state.mode !== 'standard') return false;
  const n = chasersPerPlayer(state.options, state.players.length);
  return slot < FIRST_WHITE_SLOT && slot >= OWN_DICE - n;
}

/** Colour of a slot in the current throw. */
export function slotColour(state: LasVegasState, slot: number): string {
  if (state.mode !== 'standard') return ALL_COLOURS[slot] ?? '';
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
  if (!options.neutralDice || options.mode !== 'standard') return 0;
  if (players === 2) return options.neutralPerPlayer2;
  if (players === 3) return options.neutralPerPlayer3;
  if (players === 4) return options.neutralPerPlayer4;
  return options.neutralPerPlayer5;
}

/** The money each casino is dealt up to: `casinoMinimum`, or by player count with `minimumStakeByPlayers` (spec 3.1). */
export function casinoMinimum(options: LasVegasOptions, players: number): number {
  if (options.mode === 'solo') return options.soloCasinoMinimum;
  if (!options.minimumStakeByPlayers) return options.casinoMinimum;
  const byCount = (options as unknown as Record<string, number>)[`minimumByPlayers${players}`];
  return byCount ?? options.casinoMinimum;
}

/** Player colours in seat order: white is neutral with `neutralDice`, the expansion adds yellow, grey, purple. */
export function playerColours(options: LasVegasOptions): string[] {
  if (options.mode === 'solo') return [SOLO_COLOUR];
  if (options.mode === 'secretColours') return [];
  const base: string[] = options.neutralDice ? PLAYER_COLOURS.filter((c) => c !== NEUTRAL_COLOUR) : [...PLAYER_COLOURS];
  return options.extraPlayerDice ? [...base, ...EXTRA_COLOURS] : base;
}

/** Why these options cannot be played by `players` players (spec 3.11, 4, 5), or null. */
export function rangeProblem(o: LasVegasOptions, players: number): string | null {
  if (o.mode !== 'standard') {
    const on = STANDARD_SWITCHES.filter((s) => o[s]);
    if (on.length > 0) return `The ${o.mode === 'solo' ? 'solo game' : 'secret-colours variant'} has its own rules: turn off ${on.join(', ')} (standard-mode modules).`;
    if (o.mode === 'solo' && players !== 1) return `The solo game is for 1 player; got ${players}.`;
    if (o.mode === 'secretColours' && (players < 2 || players > 4)) return `The secret-colours variant takes 2 to 4 players; got ${players}.`;
    return null;
  }
  if (players < 2) return `Las Vegas takes 2 players or more (mode 'solo' for 1); got ${players}.`;
  if (players > 8) return `Las Vegas takes at most 8 players; got ${players}.`;
  if (players > 5 && !o.extraPlayerDice) return `${players} players need the expansion's extra dice (option extraPlayerDice).`;
  if (o.neutralDice && players > 5) return `Neutral dice take 2 to 5 players; got ${players}.`;
  if (o.neutralDice && players === 5 && !o.extraPlayerDice) return "Neutral dice with 5 players need the expansion's extra dice (option extraPlayerDice): white is neutral, so the 5th player takes yellow.";
  if (o.chaserDice && players > 7) return `Chasers take 2 to 7 players (purple is the 8th player's colour); got ${players}.`;
  if (o.bigDice && players > 7) return `Big dice take 2 to 7 players (there are 7 big dice); got ${players}.`;
  if (o.bonusCards && players > 7) return `Bonus cards take 2 to 7 players (the reminder dice need an unused colour); got ${players}.`;
  if (o.extraPlayerDice && players < 6 && !(players === 5 && o.neutralDice)) return `The extra player dice are for 6 to 8 players (or 5 with neutral dice); got ${players}.`;
  return null;
}

/** The seat counts these options can be played with (every count in between works). */
export function playerRange(options: Partial<LasVegasOptions> = {}): { min: number; max: number } {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const ok = [1, 2, 3, 4, 5, 6, 7, 8].filter((n) => rangeProblem(o, n) === null);
  return { min: ok[0] ?? 0, max: ok[ok.length - 1] ?? 0 };
}

/** Is white the neutral colour in this game (its bills go under the deck)? */
const whiteIsNeutral = (state: LasVegasState): boolean => state.whitePerPlayer > 0 || state.spareWhite > 0;

const fullHand = (whites: number): number[] => Array.from({ length: OWN_DICE + whites }, (_, i) => i);

/** Every value shown in the last throw. */
export function thrownValues(state: LasVegasState): number[] {
  const values = new Set<number>();
  for (const v of state.thrown) if (v !== null) values.add(v);
  return [...values].sort((a, b) => a - b);
}

/** Bills each seat holds, by money (reminder pips not included). */
export const billMoney = (state: LasVegasState): number[] => state.players.map((p) => moneyOf(p.bills));

/** Money of each seat: bills, plus $50,000 a reminder pip once the game is over (spec 3.9). */
export const money = (state: LasVegasState): number[] =>
  state.players.map((p) => moneyOf(p.bills) + (state.phase === 'over' && state.options.bonusCards ? p.reminder * REMINDER_PIP_VALUE : 0));

/** The bills not with a player: deck, casinos, discards and colours' winnings. */
export function bankMoney(state: LasVegasState): number {
  const colours = Object.values(state.colourBills).reduce((a, ids) => a + moneyOf(ids), 0);
  return moneyOf(faceUp(state.deck)) + moneyOf(state.discard) + state.casinos.reduce((a, c) => a + moneyOf(c.bills), 0) + colours;
}

/** Every bill id in use in this game. */
export const billsOfGame = (options: LasVegasOptions): number[] =>
  options.mode === 'standard' ? billsInUse(options.hundredThousandBills, options.colourfulBills) : billsInUse(true, false);

/** The shuffled deck a game starts with. */
export const initialDeck = (deckSeed: number, options: LasVegasOptions = DEFAULT_OPTIONS): number[] => shuffle(billsOfGame(options), roundSeed(deckSeed, 1));

const roundsOf = (state: LasVegasState): number => (state.mode === 'solo' ? state.options.soloRounds : state.mode === 'secretColours' ? SECRET_COLOURS_ROUNDS : state.options.rounds);

const emptyThrow = (state: Pick<LasVegasState, 'whitePerPlayer' | 'spareWhite' | 'mode'>): (number | null)[] =>
  Array<number | null>(state.mode === 'standard' ? OWN_DICE + Math.max(state.whitePerPlayer, state.spareWhite) : ALL_COLOURS.length).fill(null);

const freshTurn: TurnState = { placements: [], mainDone: false, mustTwo: false, turnedAfterFirst: false };

/** $1,234,000: thousands separated by hand, so the board does not depend on the locale. */
const dollars = (n: number): string => `$${String(n).replace(/\B(?=(\d{3})+$)/g, ',')}`;
const billLabel = (id: number): string => (isColourful(id) ? 'colourful card' : dollars(billValue(id)));

// ---------------------------------------------------------------------------
// Rounds

/** Colours thrown onto the casinos before the round (solo: whole colours; secret colours: 2 of each). */
function setupThrowColours(state: LasVegasState): string[] {
  if (state.mode === 'solo') return SOLO_PREPLACED.slice(0, state.options.soloPreplacedColours).flatMap((c) => Array<string>(OWN_DICE).fill(c));
  if (state.mode === 'secretColours') return ALL_COLOURS.flatMap((c) => [c, c]);
  return [];
}

/** Solo: the two groups of dice per colour (spec 4; your own split with the larger half second, LV-28). */
function soloGroups(options: LasVegasOptions): [number[], number[]] {
  const pre = SOLO_PREPLACED.slice(0, options.soloPreplacedColours) as readonly string[];
  const first: number[] = [];
  const second: number[] = [];
  for (const colour of ALL_COLOURS) {
    const n = pre.includes(colour) ? 0 : colour === SOLO_COLOUR ? options.soloOwnDice : OWN_DICE;
    first.push(Math.floor(n / 2));
    second.push(n - Math.floor(n / 2));
  }
  return [first, second];
}

/** Sets up a round: bills dealt, hands full, cards dealt, the start player to act. */
function startRound(state: LasVegasState, round: number, startPlayer: number): LasVegasState {
  const o = state.options;
  let deck = round > 1 && o.reshuffleEachRound ? shuffle(faceUp(state.deck), roundSeed(o.deckSeed, round)) : faceUp(state.deck);
  let casinos: Casino[];
  if (state.mode === 'secretColours') {
    // Exactly three bills per casino, whatever their value (spec 5).
    casinos = [];
    for (let c = 0; c < CASINO_COUNT; c++) {
      casinos.push({ bills: byValueDesc(deck.slice(0, SECRET_BILLS_PER_CASINO)), dice: [] });
      deck = deck.slice(SECRET_BILLS_PER_CASINO);
    }
  } else {
    const dealt = dealCasinos(deck, casinoMinimum(o, state.players.length), casinoCountOf(o), o.colourfulBillSetupValue);
    casinos = dealt.casinos;
    deck = dealt.deck;
  }
  const n = state.players.length;
  const actionDeck = o.actionCards ? shuffle(ACTION_CARDS.filter((c) => !o.excludeReconstructedCards || !RECONSTRUCTED_CARDS.includes(c)), roundSeed(o.deckSeed, round, 1)) : [];
  const bonusDeck = o.bonusCards ? shuffle(BONUS_DECK, roundSeed(o.deckSeed, round, 2)) : [];
  const colourCards = state.mode === 'secretColours' ? shuffle([...ALL_COLOURS], roundSeed(o.deckSeed, round, 3)) : [];
  const per = cardsPerPlayer(n);
  const players = state.players.map((p, i) => ({
    ...p,
    hand: state.mode === 'standard' ? fullHand(state.whitePerPlayer) : [],
    cards: actionDeck.slice(i * per, (i + 1) * per),
    bonus: bonusDeck.slice(i * per, (i + 1) * per),
    secretColours: colourCards.slice(i * 2, i * 2 + 2),
    wonThisRound: [],
    turns: 0,
    tieWinner: false,
    swapBill: false,
    skipped: false,
  }));
  const [first, second] = state.mode === 'solo' ? soloGroups(o) : [[], []];
  const pool = state.mode === 'solo' ? first : state.mode === 'secretColours' ? ALL_COLOURS.map(() => OWN_DICE - 2) : [];
  const pre = state.mode !== 'standard' || state.spareWhite > 0;
  return {
    ...state,
    casinos,
    deck,
    players,
    round,
    startPlayer,
    current: startPlayer,
    phase: pre ? 'spareThrow' : 'throw',
    thrown: emptyThrow(state),
    setAside: [],
    chase: null,
    turn: freshTurn,
    twoCasinos: [],
    earlyPayouts: [],
    rerollSlots: [],
    pool,
    groups: state.mode === 'solo' ? [second] : [],
  };
}

/** The seat that takes a paid colour or white (null: white or nobody, the bill goes under the deck). */
function seatOfColour(state: LasVegasState, colour: string): number | null {
  if (whiteIsNeutral(state) && colour === NEUTRAL_COLOUR) return null;
  const seat = state.players.findIndex((p) => p.colour === colour);
  return seat < 0 ? null : seat;
}

/**
 * Scores one casino (1-7) now and pays its bills (spec 2.3, 3.8): colourful
 * cards are replaced first; white's bills go under the deck; unclaimed bills
 * go under the deck or out (LV-1). The dice stay (the caller clears them).
 */
function payCasino(state: LasVegasState, casino: number, tieWinners: readonly string[]): LasVegasState {
  const at = state.casinos[casino - 1] as Casino;
  const replaced = replaceColourful(at.bills, faceUp(state.deck));
  let deck = replaced.deck;
  let discard = [...state.discard, ...replaced.discarded];
  const score: CasinoScore<number> =
    casino === SLOT_MACHINE
      ? scoreSlotMachine(slotGroups(at.dice.map((d) => ({ ...d, big: isBigDie(d, state.options.bigDice) })), state.options.bigDieSlotSum === 'double'), replaced.bills, billValue, state.options.slotTieBreakAllRanks, tieWinners)
      : scoreCasino(casinoCounts(at, state.options.bigDice), replaced.bills, billValue, tieWinners);
  let players = state.players;
  const payouts: Payout[] = [];
  for (const { colour, bill } of score.awards) {
    const seat = seatOfColour(state, colour);
    if (seat === null) deck = [...deck, bill];
    else players = players.map((p, i) => (i === seat ? { ...p, bills: [...p.bills, bill], wonThisRound: [...p.wonThisRound, bill] } : p));
    payouts.push({ round: state.round, casino, bill, colour, seat });
  }
  // Bills nobody wins at the slot machine always go under the deck (spec 3.8); elsewhere LV-1 decides.
  for (const bill of score.unclaimed) {
    if (state.options.unclaimedBills === 'discard' && casino !== SLOT_MACHINE) discard = [...discard, bill];
    else deck = [...deck, bill];
    payouts.push({ round: state.round, casino, bill, colour: null, seat: null });
  }
  const casinos = state.casinos.map((c, i) => (i === casino - 1 ? { ...c, bills: [] } : c));
  return { ...state, casinos, deck, discard, players, lastPayouts: [...state.lastPayouts, ...payouts] };
}

/** The casinos where `seat` would win a tie with «Tie Winner», by the money it would then take there (most first). */
function tieWinnerChoices(state: LasVegasState, seat: number): Array<{ casino: number; gain: number }> {
  const colour = player(state, seat).colour;
  const out: Array<{ casino: number; gain: number }> = [];
  state.casinos.forEach((c, i) => {
    const casino = i + 1;
    const replaced = c.bills.filter((b) => !isColourful(b));
    const won = (winners: string[]): number => {
      const s =
        casino === SLOT_MACHINE
          ? scoreSlotMachine(slotGroups(c.dice.map((d) => ({ ...d, big: isBigDie(d, state.options.bigDice) })), state.options.bigDieSlotSum === 'double'), replaced, billValue, state.options.slotTieBreakAllRanks, winners)
          : scoreCasino(casinoCounts(c, state.options.bigDice), replaced, billValue, winners);
      return s.awards.filter((a) => a.colour === colour).reduce((a, x) => a + billValue(x.bill), 0);
    };
    const gain = won([colour]) - won([]);
    if (gain > 0) out.push({ casino, gain });
  });
  return out.sort((a, b) => b.gain - a.gain || a.casino - b.casino);
}

/**
 * Ends a standard round: colourful cards replaced (spec 3.7), casinos 1-6
 * then the slot machine scored («Tie Winner» applied where it pays most),
 * «Swap Bill» (on the lowest bill won this round), bonus cards raise the
 * reminder dice, and the next round or the end.
 */
function scoreRound(state: LasVegasState): LasVegasState {
  // Every colourful card on the table is replaced before any casino is scored (spec 3.7).
  let deck = faceUp(state.deck);
  let discard = [...state.discard];
  const replaced = state.casinos.map((c) => {
    const r = replaceColourful(c.bills, deck);
    deck = r.deck;
    discard = [...discard, ...r.discarded];
    return { ...c, bills: r.bills };
  });
  let s: LasVegasState = { ...state, casinos: replaced, deck, discard, lastPayouts: [], earlyPayouts: [] };
  const winners: string[][] = s.casinos.map(() => []);
  s.players.forEach((p, seat) => {
    if (!p.tieWinner) return;
    const choices = tieWinnerChoices(s, seat);
    const chosen = s.options.tieWinnerScope === 'allCasinos' ? choices : choices.slice(0, 1);
    for (const { casino } of chosen) winners[casino - 1]?.push(p.colour);
  });
  for (let casino = 1; casino <= s.casinos.length; casino++) s = payCasino(s, casino, winners[casino - 1] ?? []);
  // «Swap Bill» (spec A10): the lowest bill won this round goes under the deck, the top bill comes instead.
  s.players.forEach((p, seat) => {
    if (!p.swapBill || p.wonThisRound.length === 0) return;
    const give = [...p.wonThisRound].sort((a, b) => billValue(a) - billValue(b))[0] as number;
    let deck = [...faceUp(s.deck), give];
    const discard = [...s.discard];
    let take = deck.shift();
    while (take !== undefined && isColourful(take)) {
      discard.push(take);
      take = deck.shift();
    }
    if (take === undefined) return;
    deck = deck.filter((b) => b !== take);
    const bills = [...p.bills.filter((b) => b !== give), take];
    const won = [...p.wonThisRound.filter((b) => b !== give), take];
    s = setPlayer({ ...s, deck, discard }, seat, { bills, wonThisRound: won });
  });
  if (s.options.bonusCards) {
    s = { ...s, players: s.players.map((p) => ({ ...p, reminder: raiseReminder(p.reminder, p.bonus as number[], p.wonThisRound.map(billValue)) })) };
  }
  const scored: LasVegasState = {
    ...s,
    players: s.players.map((p) => ({ ...p, hand: fullHand(s.whitePerPlayer) })),
    casinos: s.casinos.map(() => ({ bills: [], dice: [] })),
  };
  if (s.round >= roundsOf(s)) return { ...scored, phase: 'over', thrown: emptyThrow(s), setAside: [], chase: null, turn: freshTurn, twoCasinos: [], rerollSlots: [] };
  return startRound(scored, s.round + 1, (s.startPlayer + 1) % s.players.length);
}

/** The next seat after `from`, clockwise, that still holds dice, or null. */
function nextWithDice(state: LasVegasState, from: number): number | null {
  const n = state.players.length;
  for (let k = 1; k <= n; k++) {
    const seat = (from + k) % n;
    if (player(state, seat).hand.length > 0) return seat;
  }
  return null;
}

/**
 * Ends the current standard turn. Passing each seat on the way to the next
 * player with dice starts that seat's "next turn": its «Early Payout»
 * casinos are scored and its «2-Casinos» (LV-14 'untilNextTurn') ends.
 */
function endTurn(state: LasVegasState): LasVegasState {
  let s = setPlayer({ ...state, chase: null, thrown: emptyThrow(state), rerollSlots: [], turn: freshTurn }, state.current, { turns: player(state, state.current).turns + 1 });
  const next = nextWithDice(s, s.current);
  if (next === null) return scoreRound(s);
  const n = s.players.length;
  for (let k = 1; k <= n; k++) {
    const seat = (state.current + k) % n;
    s = startOfTurn(s, seat);
    if (seat === next) break;
  }
  return { ...s, current: next, phase: 'throw' };
}

function startOfTurn(state: LasVegasState, seat: number): LasVegasState {
  let s = state;
  if (s.options.twoCasinosDuration === 'untilNextTurn') s = { ...s, twoCasinos: s.twoCasinos.filter((b) => b !== seat) };
  for (const e of s.earlyPayouts.filter((x) => x.seat === seat)) s = { ...payCasino(s, e.casino, []), earlyPayouts: s.earlyPayouts.filter((x) => x !== e) };
  return s;
}

// ---------------------------------------------------------------------------
// Standard turns

/** Does «2-Casinos» bind `seat` now (someone else's card, and no «Skip» played by the seat this round)? */
const boundByTwoCasinos = (state: LasVegasState, seat: number): boolean => !player(state, seat).skipped && state.twoCasinos.some((b) => b !== seat);

/** The casinos (1-7) a value may go to now: its casino, and the slot machine if no die there shows it. */
function targetsFor(state: LasVegasState, value: number): number[] {
  const out = [value];
  if (state.options.slotMachine && !(state.casinos[SLOT_MACHINE - 1] as Casino).dice.some((d) => d.value === value)) out.push(SLOT_MACHINE);
  return out;
}

/** Why a placement to `casino` is refused by «2-Casinos» this turn, or null. */
function twoCasinosProblem(state: LasVegasState, casino: number): string | null {
  const t = state.turn;
  if (!t.mustTwo || !t.placements.includes(casino)) return null;
  if (t.turnedAfterFirst && t.placements.length === 1) return null;
  // A double turned onto a casino can leave only dice of that casino's number: the rule cannot be kept, so it lapses.
  const elsewhere = thrownValues(state).some((v) => targetsFor(state, v).some((c) => !t.placements.includes(c)));
  if (!elsewhere) return null;
  return `«2-Casinos» binds this turn: the second placement must go to another casino than ${casinoName(casino)}.`;
}

/**
 * Puts the dice in `slots` on `casino` (1-7), faces `faces`. Chasers among
 * them are spent and each removes a die there (spec 3.6).
 */
function putDice(state: LasVegasState, slots: readonly number[], casino: number, faces: readonly number[]): LasVegasState {
  const dice: PlacedDie[] = slots.map((slot, i) => ({
    colour: slotColour(state, slot),
    seat: state.current,
    slot,
    ...(casino === SLOT_MACHINE ? { value: faces[i] as number } : {}),
    ...(slotSize(state, slot) === 'big' ? { big: true } : {}),
  }));
  const chasers = dice.filter((d) => isChaserSlot(state, d.slot));
  const placed = dice.filter((d) => !isChaserSlot(state, d.slot));
  const casinos = state.casinos.map((c, i) => (i === casino - 1 ? { ...c, dice: [...c.dice, ...placed] } : c));
  const thrown = state.thrown.map((v, slot) => (slots.includes(slot) ? null : v));
  const s = setPlayer({ ...state, casinos, thrown, setAside: [...state.setAside, ...chasers], chase: { casino, left: chasers.length } }, state.current, {
    hand: player(state, state.current).hand.filter((x) => !slots.includes(x)),
  });
  return { ...s, turn: { ...s.turn, placements: [...s.turn.placements, casino] } };
}

/** After a placement: chasers choose their dice, then the turn goes on (a second placement) or ends. */
function afterPlacement(state: LasVegasState): LasVegasState {
  if (state.chase !== null && state.chase.left > 0 && chaseTargets(state).length > 0) return { ...state, phase: 'chase' };
  let s: LasVegasState = { ...state, chase: null };
  if (s.options.earlyPayoutTiming === 'immediately') {
    for (const e of s.earlyPayouts.filter((x) => x.seat === s.current)) s = { ...payCasino(s, e.casino, []), earlyPayouts: s.earlyPayouts.filter((x) => x !== e) };
  }
  const left = s.thrown.some((v) => v !== null);
  if (left && !s.turn.mainDone) return { ...s, phase: 'place' };
  if (left && s.turn.mustTwo && s.turn.placements.length < 2) return { ...s, phase: 'place' };
  return endTurn(s);
}

function readRoll(state: LasVegasState, request: DiceRequest, values: unknown, dice: unknown): number[] | InvalidAction {
  if (!Array.isArray(values) || values.length !== request.count) {
    const got = Array.isArray(values) ? values.length : 'no list of';
    return invalid('game/wrong_dice_count', `This throw needs ${request.count} dice values (slots ${request.slots.join(', ')}); got ${got} values.`);
  }
  const bad = values.find((v) => !isDieValue(v));
  if (bad !== undefined) return invalid('game/bad_die_value', `Die values must be whole numbers 1 to 6; got ${show(bad)}.`);
  if (dice !== undefined) {
    // The dice as read must be the dice asked for, in the request's order (the table matches them).
    const want = request.dice ?? [];
    if (!Array.isArray(dice) || dice.length !== want.length) return invalid('game/wrong_dice', `This throw needs the ${want.length} dice it asked for; got ${Array.isArray(dice) ? dice.length : 'no list of'} dice.`);
    for (let i = 0; i < want.length; i++) {
      const d = dice[i] as Partial<ReadDie> | null;
      const w = want[i] as RequestedDie;
      if (d?.colour !== w.colour || d.size !== w.size || d.value !== values[i]) {
        return invalid('game/wrong_dice', `Die ${i + 1} of this throw must be a ${w.size === 'big' ? 'big ' : ''}${w.colour} die showing ${show(values[i])}; got ${show(dice[i])}.`);
      }
    }
  }
  return values as number[];
}

function applyRoll(state: LasVegasState, values: unknown, dice: unknown): LasVegasState | InvalidAction {
  if (state.phase === 'chase') return invalid('game/must_chase', `${player(state, state.current).name} must first choose the die the chaser removes.`);
  if (state.phase === 'place') return invalid('game/must_place', `${currentName(state)} has thrown already; place the dice of one value (${thrownValues(state).join(', ')}).`);
  const request = lasVegas.diceRequest(state) as DiceRequest;
  const checked = readRoll(state, request, values, dice);
  if (!Array.isArray(checked)) return checked;
  if (state.phase === 'spareThrow') {
    // Dice thrown before the round each go to the casino of their face and score nothing by themselves (spec 2.5, 4, 5).
    const colours = request.dice ?? [];
    const casinos = state.casinos.map((c) => ({ ...c, dice: [...c.dice] }));
    request.slots.forEach((slot, i) => {
      const colour = colours[i]?.colour ?? NEUTRAL_COLOUR;
      // Solo and secret colours: a die's slot is its colour's index, as in their turns.
      casinos[(checked[i] as number) - 1]?.dice.push({ colour, seat: null, slot: state.mode === 'standard' ? slot : ALL_COLOURS.indexOf(colour as (typeof ALL_COLOURS)[number]) });
    });
    return { ...state, casinos, phase: 'throw' };
  }
  const thrown = state.phase === 'reroll' ? [...state.thrown] : emptyThrow(state);
  request.slots.forEach((slot, i) => (thrown[slot] = checked[i] as number));
  const s: LasVegasState = { ...state, thrown, phase: 'place', rerollSlots: [] };
  if (state.mode !== 'standard') return s;
  const distinct = new Set(thrown.filter((v) => v !== null)).size;
  return { ...s, turn: { ...s.turn, mustTwo: boundByTwoCasinos(s, s.current) && distinct > 1 } };
}

function applyPlace(state: LasVegasState, a: { value?: unknown; slotMachine?: unknown; earlyPayout?: unknown }): LasVegasState | InvalidAction {
  if (state.phase === 'chase') return invalid('game/must_chase', `${currentName(state)} must first choose the die the chaser removes.`);
  if (state.phase !== 'place') return invalid('game/no_throw_yet', `${currentName(state)} must throw before placing dice.`);
  const value = a.value;
  if (!isDieValue(value)) return invalid('game/bad_value', `Name the value to place as a whole number 1 to 6; got ${show(value)}.`);
  const values = thrownValues(state);
  if (!values.includes(value)) return invalid('game/value_not_thrown', `No die of this throw shows ${value}; place one of ${values.join(', ')}.`);
  if (a.slotMachine !== undefined && typeof a.slotMachine !== 'boolean') return invalid('game/bad_place', `slotMachine must be true or false; got ${show(a.slotMachine)}.`);
  if (a.slotMachine === true && !(state.mode === 'standard' && state.options.slotMachine)) return invalid('game/no_slot_machine', 'This game is played without the slot machine (option slotMachine).');
  const casino = a.slotMachine === true ? SLOT_MACHINE : value;
  if (state.mode !== 'standard') return placeColours(state, value);
  if (casino === SLOT_MACHINE && !targetsFor(state, value).includes(SLOT_MACHINE)) return invalid('game/slot_value_taken', `The slot machine already has dice showing ${value}; nobody may place ${value}s there this round.`);
  const problem = twoCasinosProblem(state, casino);
  if (problem) return invalid('game/two_casinos', problem);
  let s = state;
  if (a.earlyPayout !== undefined && a.earlyPayout !== false) {
    if (a.earlyPayout !== true) return invalid('game/bad_card', `earlyPayout must be true or false; got ${show(a.earlyPayout)}.`);
    const spent = spendCard(s, 'earlyPayout');
    if (!('players' in spent)) return spent;
    s = { ...spent, earlyPayouts: [...spent.earlyPayouts, { seat: s.current, casino }] };
  }
  const slots = s.thrown.flatMap((v, slot) => (v === value ? [slot] : []));
  const placed = putDice(s, slots, casino as number, slots.map(() => value));
  return afterPlacement({ ...placed, turn: { ...placed.turn, mainDone: true } });
}

function applyChase(state: LasVegasState, seat: unknown, slot: unknown): LasVegasState | InvalidAction {
  if (state.phase !== 'chase' || state.chase === null) return invalid('game/no_chaser', 'No chaser is waiting to remove a die now.');
  const { casino, left } = state.chase;
  const target = chaseTargets(state).find((d) => d.seat === seat && d.slot === slot);
  if (target === undefined) {
    return invalid('game/bad_chase_target', `The chaser on ${casinoName(casino)} cannot remove die ${show(slot)} of seat ${show(seat)}; name a ${state.options.chaserTargets === 'anyDie' ? '' : "other player's "}die lying there.`);
  }
  const casinos = state.casinos.map((c, i) => (i === casino - 1 ? { ...c, dice: c.dice.filter((d) => d !== target) } : c));
  // The die goes back to its owner, who throws it again this round (a player out of dice re-enters).
  const players = state.players.map((p, i) => (i === target.seat ? { ...p, hand: [...p.hand, target.slot].sort((x, y) => x - y) } : p));
  const setAside = target.seat === null ? [...state.setAside, target] : state.setAside;
  return afterPlacement({ ...state, casinos, players, setAside, chase: { casino, left: left - 1 } });
}

/** The state with `card` gone from the current player's hand, or why it cannot be played. */
function spendCard(state: LasVegasState, card: ActionCard): LasVegasState | InvalidAction {
  if (!state.options.actionCards) return invalid('game/no_action_cards', 'This game is played without action cards (option actionCards).');
  const me = player(state, state.current);
  const i = me.cards.indexOf(card);
  if (i < 0) return invalid('game/card_not_held', `${me.name} holds no «${CARD_NAMES[card] ?? show(card)}» card.`);
  return setPlayer(state, state.current, { cards: me.cards.filter((_, k) => k !== i) });
}

type CardAction = Extract<LasVegasAction, { type: 'playCard' }>;

/** Plays an action card (spec 3.10) with its timing rules. */
function applyCard(state: LasVegasState, a: Partial<CardAction>): LasVegasState | InvalidAction {
  if (state.mode !== 'standard') return invalid('game/no_action_cards', 'Action cards belong to the standard game.');
  const card = a.card as ActionCard;
  if (!ACTION_CARDS.includes(card)) return invalid('game/bad_card', `There is no action card ${show(a.card)}; cards: ${ACTION_CARDS.join(', ')}.`);
  if (card === 'earlyPayout') return invalid('game/early_payout_with_place', 'Play «Early Payout» with the placement it scores: place with earlyPayout: true.');
  const before = state.phase === 'throw';
  const afterThrow = state.phase === 'place';
  if (!before && !afterThrow) return invalid('game/not_now', `No action card can be played now (${state.phase === 'chase' ? 'a chaser is waiting' : 'a throw is under way'}).`);
  const whenBefore: readonly ActionCard[] = ['skip', 'takeBack', 'tieWinner'];
  const whenAfter: readonly ActionCard[] = ['reroll', 'turnDie', 'doubleTrouble'];
  if (whenBefore.includes(card) && !before) return invalid('game/not_now', `«${CARD_NAMES[card]}» is played before throwing.`);
  if (whenAfter.includes(card) && !afterThrow) return invalid('game/not_now', `«${CARD_NAMES[card]}» is played after throwing.`);
  if (card === 'tieWinner' && player(state, state.current).turns > 0) return invalid('game/not_first_turn', '«Tie Winner» may only be played on your first turn of the round.');
  const spent = spendCard(state, card);
  if (!('players' in spent)) return spent;
  const s = spent;
  const seat = s.current;
  switch (card) {
    case 'tieWinner':
      return setPlayer(s, seat, { tieWinner: true });
    case 'swapBill':
      return setPlayer(s, seat, { swapBill: true });
    case 'twoCasinos':
      return { ...s, twoCasinos: [...s.twoCasinos.filter((b) => b !== seat), seat] };
    case 'skip':
      // Reconstructed (spec A4): the turn passes with nothing thrown; the player keeps their dice.
      return endTurn(setPlayer(s, seat, { skipped: true }));
    case 'takeBack': {
      const slots = a.slots;
      const own = s.casinos.flatMap((c) => c.dice.filter((d) => d.seat === seat && d.slot < FIRST_WHITE_SLOT)).map((d) => d.slot);
      if (!Array.isArray(slots) || slots.length === 0 || slots.some((x) => !own.includes(x)) || new Set(slots).size !== slots.length) {
        return invalid('game/bad_take_back', `Name the slots of your own dice on the casinos to take back (${own.join(', ') || 'none placed'}); got ${show(slots)}.`);
      }
      const casinos = s.casinos.map((c) => ({ ...c, dice: c.dice.filter((d) => !(d.seat === seat && slots.includes(d.slot))) }));
      return setPlayer({ ...s, casinos }, seat, { hand: [...player(s, seat).hand, ...slots].sort((x, y) => x - y) });
    }
    case 'middleBill': {
      const casino = a.casino;
      if (typeof casino !== 'number' || !Number.isInteger(casino) || casino < 1 || casino > s.casinos.length) return invalid('game/bad_casino', `Name the casino (1-${s.casinos.length}) for the middle bill; got ${show(casino)}.`);
      // Every colourful card on the table is replaced first, then three bills drawn (colourful ones replaced).
      let deck = faceUp(s.deck);
      let discard = [...s.discard];
      const casinos = s.casinos.map((c) => {
        const r = replaceColourful(c.bills, deck);
        deck = r.deck;
        discard = [...discard, ...r.discarded];
        return { ...c, bills: r.bills };
      });
      const drawn = replaceColourful(deck.slice(0, 3), deck.slice(3));
      discard = [...discard, ...drawn.discarded];
      deck = drawn.deck;
      const three = [...drawn.bills].sort((x, y) => billValue(x) - billValue(y) || x - y);
      const middle = three.length === 3 ? three[1] : three[three.length - 1];
      const rest = three.filter((b) => b !== middle);
      deck = s.options.middleBillReturn === 'top' ? [...rest, ...deck] : [...deck, ...rest];
      const withMiddle = casinos.map((c, i) => (i === casino - 1 && middle !== undefined ? { ...c, bills: byValueDesc([...c.bills, middle]) } : c));
      return { ...s, casinos: withMiddle, deck, discard };
    }
    case 'reroll': {
      const slots = a.slots;
      const thrownSlots = s.thrown.flatMap((v, slot) => (v !== null ? [slot] : []));
      if (s.turn.placements.length > 0) return invalid('game/not_now', '«Re-roll» is played right after throwing, before placing.');
      if (!Array.isArray(slots) || slots.length === 0 || slots.some((x) => !thrownSlots.includes(x)) || new Set(slots).size !== slots.length) {
        return invalid('game/bad_reroll', `Name the thrown dice to throw again (slots ${thrownSlots.join(', ')}); got ${show(slots)}.`);
      }
      return { ...s, phase: 'reroll', rerollSlots: [...slots].sort((x, y) => x - y) };
    }
    case 'turnDie': {
      const { slot, to } = a;
      if (typeof slot !== 'number' || s.thrown[slot] === null || s.thrown[slot] === undefined || !isDieValue(to)) {
        return invalid('game/bad_turn_die', `Name a thrown die (slot) and the face 1-6 to turn it to; got slot ${show(slot)}, face ${show(to)}.`);
      }
      const thrown = s.thrown.map((v, i) => (i === slot ? to : v));
      return { ...s, thrown, turn: { ...s.turn, turnedAfterFirst: s.turn.turnedAfterFirst || s.turn.placements.length > 0 } };
    }
    case 'doubleTrouble': {
      const value = a.value;
      const casino = a.casino;
      const double = firstDouble(s);
      if (double === null) return invalid('game/no_double', '«Double-Trouble» needs a double in the throw (a value shown by exactly two dice).');
      if (value !== double) return invalid('game/bad_double', `The double of this throw is ${double}s (further doubles are ignored); got ${show(value)}.`);
      if (typeof casino !== 'number' || !Number.isInteger(casino) || casino < 1 || casino > s.casinos.length) return invalid('game/bad_casino', `Name the casino (1-${s.casinos.length}) for the double; got ${show(casino)}.`);
      if (casino === SLOT_MACHINE && (s.casinos[SLOT_MACHINE - 1] as Casino).dice.some((d) => d.value === double)) return invalid('game/slot_value_taken', `The slot machine already has dice showing ${double}.`);
      const problem = twoCasinosProblem(s, casino);
      if (problem) return invalid('game/two_casinos', problem);
      const slots = s.thrown.flatMap((v, i) => (v === double ? [i] : []));
      // Turned to the casino's number (on the slot machine they keep their face).
      const face = casino === SLOT_MACHINE ? double : casino;
      return afterPlacement(putDice(s, slots, casino, slots.map(() => face)));
    }
    default:
      return invalid('game/bad_card', `Unknown card ${show(card)}.`);
  }
}

/** The lowest value shown by exactly two thrown dice (a triple is not a double, LV-17), or null. */
export function firstDouble(state: LasVegasState): number | null {
  for (let v = 1; v <= 6; v++) if (state.thrown.filter((x) => x === v).length === 2) return v;
  return null;
}

// ---------------------------------------------------------------------------
// Solo and secret colours

/** Places the thrown dice of `value` (any colours) on casino `value`, then scores (secret colours) and moves on. */
function placeColours(state: LasVegasState, value: number): LasVegasState {
  const colours = state.thrown.flatMap((v, slot) => (v === value ? [slot] : []));
  const dice = colours.map((slot) => ({ colour: ALL_COLOURS[slot] as string, seat: null, slot }));
  const pool = state.pool.map((n, i) => (colours.includes(i) ? n - 1 : n));
  let casinos = state.casinos.map((c, i) => (i === value - 1 ? { ...c, dice: [...c.dice, ...dice] } : c));
  let s: LasVegasState = { ...state, casinos, pool, thrown: emptyThrow(state) };
  if (s.mode === 'secretColours') {
    // Scored at once (spec 5): the winning colours' dice leave onto their bills.
    const at = casinos[value - 1] as Casino;
    const awards = scoreSecretPlacement(casinoCounts(at), at.bills);
    if (awards.length > 0) {
      const won = awards.map((x) => x.colour);
      const colourBills = { ...s.colourBills };
      for (const { colour, bill } of awards) colourBills[colour] = [...(colourBills[colour] ?? []), bill];
      casinos = casinos.map((c, i) => (i === value - 1 ? { bills: c.bills.filter((b) => !awards.some((x) => x.bill === b)), dice: c.dice.filter((d) => !won.includes(d.colour)) } : c));
      const leaving = at.dice.filter((d) => won.includes(d.colour));
      s = { ...s, casinos, colourBills, setAside: [...s.setAside, ...leaving], lastPayouts: awards.map((x) => ({ round: s.round, casino: value, bill: x.bill, colour: x.colour, seat: null })) };
    }
  }
  if (s.pool.some((n) => n > 0)) return s.mode === 'secretColours' ? { ...s, current: (s.current + 1) % s.players.length, phase: 'throw' } : { ...s, phase: 'throw' };
  if (s.groups.length > 0) return { ...s, pool: s.groups[0] as number[], groups: s.groups.slice(1), phase: 'throw' };
  return s.mode === 'solo' ? endSoloRound(s) : endSecretRound(s);
}

function endSoloRound(state: LasVegasState): LasVegasState {
  let deck = faceUp(state.deck);
  let discard = [...state.discard];
  let own = [...player(state, 0).bills];
  const colourBills: Record<string, number[]> = Object.fromEntries(Object.entries(state.colourBills).map(([c, ids]) => [c, [...ids]]));
  const payouts: Payout[] = [];
  state.casinos.forEach((c, i) => {
    const { awards, unclaimed } = scoreCasino(casinoCounts(c), c.bills, billValue);
    for (const { colour, bill } of awards) {
      if (colour === SOLO_COLOUR) own = [...own, bill];
      else colourBills[colour] = [...(colourBills[colour] ?? []), bill];
      payouts.push({ round: state.round, casino: i + 1, bill, colour, seat: colour === SOLO_COLOUR ? 0 : null });
    }
    for (const bill of unclaimed) {
      if (state.options.unclaimedBills === 'discard') discard = [...discard, bill];
      else deck = [...deck, bill];
    }
  });
  const s: LasVegasState = { ...setPlayer(state, 0, { bills: own }), deck, discard, colourBills, lastPayouts: payouts, casinos: state.casinos.map(() => ({ bills: [], dice: [] })) };
  if (s.round >= roundsOf(s)) return { ...s, phase: 'over', thrown: emptyThrow(s), pool: [], groups: [] };
  return startRound(s, s.round + 1, 0);
}

/** Secret colours, round end (spec 5): cards revealed, each player takes the bills under their colours; bills not won are discarded. */
function endSecretRound(state: LasVegasState): LasVegasState {
  let deck = faceUp(state.deck);
  let discard = [...state.discard, ...state.casinos.flatMap((c) => c.bills)];
  const payouts: Payout[] = [];
  const players = state.players.map((p, seat) => {
    const mine = (p.secretColours as string[]).flatMap((c) => state.colourBills[c] ?? []);
    for (const c of p.secretColours as string[]) for (const bill of state.colourBills[c] ?? []) payouts.push({ round: state.round, casino: 0, bill, colour: c, seat });
    return { ...p, bills: [...p.bills, ...mine] };
  });
  const owned = state.players.flatMap((p) => p.secretColours as string[]);
  for (const [colour, ids] of Object.entries(state.colourBills)) {
    if (owned.includes(colour)) continue;
    if (state.options.unownedColourBills === 'discard') discard = [...discard, ...ids];
    else deck = [...deck, ...ids];
  }
  const s: LasVegasState = { ...state, players, deck, discard, colourBills: {}, lastPayouts: payouts, setAside: [], casinos: state.casinos.map(() => ({ bills: [], dice: [] })) };
  if (s.round >= roundsOf(s)) return { ...s, phase: 'over', thrown: emptyThrow(s), pool: [] };
  const starter = s.options.secretColoursRound2Starter === 'left' ? (s.startPlayer + 1) % s.players.length : 0;
  return startRound(s, s.round + 1, starter);
}

// ---------------------------------------------------------------------------
// Legal actions and the bot

function standardLegal(state: LasVegasState): LasVegasAction[] {
  if (state.phase === 'chase') return chaseTargets(state).map((d) => ({ type: 'chase' as const, seat: d.seat, slot: d.slot }));
  const me = state.players[state.current];
  const cards = (me?.cards ?? []).filter((c): c is ActionCard => c !== null);
  const out: LasVegasAction[] = [];
  const has = (c: ActionCard): boolean => state.options.actionCards && cards.includes(c);
  if (state.phase === 'throw') {
    if (has('skip')) out.push({ type: 'playCard', card: 'skip' });
    if (has('tieWinner') && me?.turns === 0) out.push({ type: 'playCard', card: 'tieWinner' });
    if (has('twoCasinos')) out.push({ type: 'playCard', card: 'twoCasinos' });
    if (has('swapBill')) out.push({ type: 'playCard', card: 'swapBill' });
    if (has('middleBill')) for (let c = 1; c <= state.casinos.length; c++) out.push({ type: 'playCard', card: 'middleBill', casino: c });
    if (has('takeBack')) {
      state.casinos.forEach((c) => {
        const slots = c.dice.filter((d) => d.seat === state.current && d.slot < FIRST_WHITE_SLOT).map((d) => d.slot);
        if (slots.length > 0) out.push({ type: 'playCard', card: 'takeBack', slots });
      });
    }
    return out;
  }
  if (state.phase !== 'place') return out;
  for (const value of thrownValues(state)) {
    for (const casino of targetsFor(state, value)) {
      if (twoCasinosProblem(state, casino)) continue;
      const target = casino === SLOT_MACHINE ? { slotMachine: true } : {};
      out.push({ type: 'place', value, ...target });
      if (has('earlyPayout')) out.push({ type: 'place', value, ...target, earlyPayout: true });
    }
  }
  if (has('reroll') && state.turn.placements.length === 0) {
    const thrownSlots = state.thrown.flatMap((v, slot) => (v !== null ? [slot] : []));
    out.push({ type: 'playCard', card: 'reroll', slots: thrownSlots });
    for (const value of thrownValues(state)) out.push({ type: 'playCard', card: 'reroll', slots: state.thrown.flatMap((v, slot) => (v === value ? [slot] : [])) });
  }
  if (has('turnDie')) {
    state.thrown.forEach((v, slot) => {
      if (v === null) return;
      for (let to = 1; to <= 6; to++) if (to !== v) out.push({ type: 'playCard', card: 'turnDie', slot, to });
    });
  }
  const double = firstDouble(state);
  if (has('doubleTrouble') && double !== null) {
    for (let c = 1; c <= state.casinos.length; c++) {
      if (twoCasinosProblem(state, c)) continue;
      if (c === SLOT_MACHINE && (state.casinos[SLOT_MACHINE - 1] as Casino).dice.some((d) => d.value === double)) continue;
      out.push({ type: 'playCard', card: 'doubleTrouble', value: double, casino: c });
    }
  }
  return out;
}

/** What the current player would take at `casino` with `adding` dice there, as the casinos stand (colourful cards at half their set-up value). */
function takeAt(state: LasVegasState, casino: number, adding: readonly PlacedDie[], colours: readonly string[]): number {
  const c = state.casinos[casino - 1] as Casino;
  const bills: number[] = [];
  let colourful = 0;
  for (const b of c.bills) if (isColourful(b)) colourful++;
  else bills.push(b);
  let score: CasinoScore<number>;
  if (casino === SLOT_MACHINE) {
    const dice = [...c.dice, ...adding].map((d) => ({ ...d, big: isBigDie(d, state.options.bigDice) }));
    score = scoreSlotMachine(slotGroups(dice), bills, billValue);
  } else {
    // Counted here rather than through casinoCounts: the bot asks this for every option of every turn.
    const counts: Record<string, number> = {};
    for (const d of c.dice) counts[d.colour] = (counts[d.colour] ?? 0) + (isBigDie(d, state.options.bigDice) ? 2 : 1);
    for (const d of adding) counts[d.colour] = (counts[d.colour] ?? 0) + (isBigDie(d, state.options.bigDice) ? 2 : 1);
    score = scoreCasino(counts, bills, billValue);
  }
  let total = 0;
  let wins = 0;
  for (const a of score.awards) {
    if (!colours.includes(a.colour)) continue;
    total += billValue(a.bill);
    wins++;
  }
  return wins > 0 ? total + (colourful * state.options.colourfulBillSetupValue * 0.5) / wins : total;
}

/** The gain of putting the dice in `slots` on `casino` for the current player (`before`: what each casino pays it now, filled as needed). */
function gainOf(state: LasVegasState, slots: readonly number[], casino: number, face: number, before: Map<number, number> = new Map()): number {
  const me = player(state, state.current);
  const adding = slots.filter((s) => !isChaserSlot(state, s)).map((slot) => ({ colour: slotColour(state, slot), seat: state.current, slot, value: face, ...(slotSize(state, slot) === 'big' ? { big: true } : {}) }));
  let now = before.get(casino);
  if (now === undefined) {
    now = takeAt(state, casino, [], [me.colour]);
    before.set(casino, now);
  }
  return takeAt(state, casino, adding, [me.colour]) - now;
}

/**
 * A greedy player: places the value that raises its winnings most as the
 * casinos stand, with as few dice as possible on a draw; plays its action
 * cards when they plainly help; random among equals.
 */
function bot(state: LasVegasState, random: () => number): LasVegasAction | null {
  if (state.mode !== 'standard') return colourBot(state, random);
  if (state.phase === 'chase') return chaseBot(state, random);
  const me = player(state, state.current);
  const has = (c: ActionCard): boolean => state.options.actionCards && me.cards.includes(c);
  if (state.phase === 'throw') {
    if (has('tieWinner') && me.turns === 0) return { type: 'playCard', card: 'tieWinner' };
    if (has('twoCasinos')) return { type: 'playCard', card: 'twoCasinos' };
    if (has('swapBill')) return { type: 'playCard', card: 'swapBill' };
    if (has('middleBill')) {
      // The middle bill goes where the bot already leads (most of its dice), else to a random casino.
      const lead = state.casinos.map((c, i) => ({ i, n: c.dice.filter((d) => d.seat === state.current).length - c.dice.filter((d) => d.seat !== state.current).length, tie: random() }));
      lead.sort((a, b) => b.n - a.n || a.tie - b.tie);
      return { type: 'playCard', card: 'middleBill', casino: (lead[0]?.i ?? 0) + 1 };
    }
    return null;
  }
  if (state.phase !== 'place') return null;
  const legal = standardLegal(state);
  const before = new Map<number, number>();
  const options = legal
    .filter((a): a is Extract<LasVegasAction, { type: 'place' }> => a.type === 'place' && a.earlyPayout !== true)
    .map((a) => {
      const slots = state.thrown.flatMap((v, slot) => (v === a.value ? [slot] : []));
      return { a, gain: gainOf(state, slots, a.slotMachine === true ? SLOT_MACHINE : a.value, a.value, before), dice: slots.length, tie: random() };
    });
  options.sort((x, y) => y.gain - x.gain || x.dice - y.dice || x.tie - y.tie);
  const best = options[0];
  const double = firstDouble(state);
  if (has('doubleTrouble') && double !== null) {
    const slots = state.thrown.flatMap((v, i) => (v === double ? [i] : []));
    const spots = legal.filter((a): a is CardAction => a.type === 'playCard' && a.card === 'doubleTrouble');
    const scored = spots.map((a) => ({ a, gain: gainOf(state, slots, a.casino as number, a.casino === SLOT_MACHINE ? double : (a.casino as number), before) })).sort((x, y) => y.gain - x.gain);
    if (scored[0] && scored[0].gain > 0 && thrownValues(state).length > 1) return scored[0].a;
  }
  if (has('reroll') && state.turn.placements.length === 0 && (best === undefined || best.gain <= 0)) {
    return { type: 'playCard', card: 'reroll', slots: state.thrown.flatMap((v, slot) => (v !== null ? [slot] : [])) };
  }
  if (best === undefined) {
    // Only «2-Casinos» blocks every placement: turn a die to a fresh casino.
    const slot = state.thrown.findIndex((v) => v !== null);
    const to = [1, 2, 3, 4, 5, 6].find((v) => !state.turn.placements.includes(v)) ?? 1;
    return { type: 'playCard', card: 'turnDie', slot, to };
  }
  if (has('earlyPayout') && best.gain > 0) return { ...best.a, earlyPayout: true };
  return best.a;
}

/** A chaser removes the die that leaves the bot best paid at that casino; other players' dice first on a draw. */
function chaseBot(state: LasVegasState, random: () => number): LasVegasAction {
  const me = player(state, state.current);
  const casinoNo = state.chase?.casino ?? 1;
  const casino = state.casinos[casinoNo - 1] as Casino;
  const options = chaseTargets(state).map((d) => {
    const without = { ...state, casinos: state.casinos.map((c, i) => (i === casinoNo - 1 ? { ...c, dice: casino.dice.filter((x) => x !== d) } : c)) };
    return { d, gain: takeAt(without, casinoNo, [], [me.colour]), own: d.seat === state.current ? 1 : 0, tie: random() };
  });
  options.sort((a, b) => b.gain - a.gain || a.own - b.own || a.tie - b.tie);
  const { d } = options[0] as { d: PlacedDie };
  return { type: 'chase', seat: d.seat, slot: d.slot };
}

/** Solo and secret colours: the value whose placement pays the player's colours most (now or at the end). */
function colourBot(state: LasVegasState, random: () => number): LasVegasAction | null {
  if (state.phase !== 'place') return null;
  const mine = state.mode === 'solo' ? [SOLO_COLOUR] : (player(state, state.current).secretColours.filter((c) => c !== null) as string[]);
  const options = thrownValues(state).map((value) => {
    const adding = state.thrown.flatMap((v, slot) => (v === value ? [{ colour: ALL_COLOURS[slot] as string, seat: null, slot }] : []));
    const c = state.casinos[value - 1] as Casino;
    let gain: number;
    if (state.mode === 'secretColours') {
      const awards = scoreSecretPlacement(casinoCounts({ ...c, dice: [...c.dice, ...adding] }), c.bills);
      gain = awards.reduce((s, a) => s + (mine.includes(a.colour) ? billValue(a.bill) : -billValue(a.bill) / 4), 0);
    } else {
      gain = takeAt(state, value, adding, mine) - takeAt(state, value, [], mine) - (takeAt(state, value, adding, ALL_COLOURS.filter((x) => !mine.includes(x))) - takeAt(state, value, [], ALL_COLOURS.filter((x) => !mine.includes(x)))) / 2;
    }
    return { value, gain, tie: random() };
  });
  options.sort((a, b) => b.gain - a.gain || a.tie - b.tie);
  return { type: 'place', value: (options[0] as { value: number }).value };
}

// ---------------------------------------------------------------------------
// Views and the board

function currentName(state: LasVegasState): string {
  const me = state.players[state.current];
  if (!me) return '';
  return me.colour ? `${me.name} (${me.colour})` : me.name;
}

/** The state as `viewer` may see it: the deck face down, others' cards and colours hidden. */
function playerView(state: LasVegasState, viewer: number | null): LasVegasState {
  const over = state.phase === 'over';
  return {
    ...state,
    options: { ...state.options, deckSeed: 0 },
    deck: state.deck.map(() => null),
    players: state.players.map((p, i) =>
      i === viewer ? p : { ...p, cards: p.cards.map(() => null), bonus: p.bonus.map(() => null), secretColours: over ? p.secretColours : p.secretColours.map(() => null) },
    ),
  };
}

/** A bill as the page draws it: its money, or a colourful card (worth nothing, replaced before scoring). */
export interface BillView {
  readonly value: number;
  readonly colourful: boolean;
}

/**
 * The board's numbers for the page's Las Vegas view: the page draws from these
 * only, never from the panels' display labels, so the labels can be translated.
 */
export interface LasVegasBoardData {
  /** By casino (1-6, the slot machine 7th): its bills, highest first, and whether an early payout waits there. */
  readonly casinos: ReadonlyArray<{ readonly bills: readonly BillView[]; readonly earlyPayout: boolean }>;
  /** By seat: money and the bills won. */
  readonly players: ReadonlyArray<{ readonly money: number; readonly bills: readonly BillView[] }>;
  /** The last scoring: casino (0 for a round's end), the seat paid or null for a colour nobody plays. */
  readonly payouts: ReadonlyArray<{ readonly casino: number; readonly seat: number | null; readonly colour: string; readonly bill: BillView }>;
  /** Solo (the opponent colours) and secret colours (the bills won by colour): money by colour; null in the standard game. */
  readonly colourMoney: ReadonlyArray<{ readonly colour: string; readonly money: number }> | null;
}

export interface LasVegasBoard extends TableBoard {
  readonly lasVegas: LasVegasBoardData;
}

const billView = (id: number): BillView => ({ value: billValue(id), colourful: isColourful(id) });

function boardData(state: LasVegasState, cash: readonly number[]): LasVegasBoardData {
  return {
    casinos: state.casinos.map((c, i) => ({ bills: c.bills.map(billView), earlyPayout: state.earlyPayouts.some((e) => e.casino === i + 1) })),
    players: state.players.map((p, i) => ({ money: cash[i] ?? 0, bills: p.bills.map(billView) })),
    payouts: state.lastPayouts.flatMap((p) => (p.colour === null ? [] : [{ casino: p.casino, seat: p.seat, colour: p.colour, bill: billView(p.bill) }])),
    colourMoney: state.mode === 'standard' ? null : Object.entries(state.colourBills).map(([colour, ids]) => ({ colour, money: moneyOf(ids) })),
  };
}

/** The scoreboard's picture of a Las Vegas state (as `lasVegas.board`), typed with its numbers for the tests. */
const dieOrDice = (n: number): string => (n === 1 ? 'die' : 'dice');

export function lasVegasBoard(state: LasVegasState): LasVegasBoard {
  const cash = money(state);
  const secret = state.mode === 'secretColours';
  const over = state.phase === 'over';
  const players = state.players.map((p, i) => ({
    name: p.name,
    values: {
      colour: secret ? (p.secretColours.every((c) => c !== null) && p.secretColours.length > 0 ? p.secretColours.join(' + ') : 'secret') : p.colour,
      money: dollars(cash[i] ?? 0),
      bills: p.bills.length,
      dice: state.mode === 'standard' ? p.hand.length : '-',
      ...(state.options.bonusCards ? { reminder: p.reminder } : {}),
      ...(state.options.actionCards ? { cards: p.cards.map((c) => (c === null ? 'hidden' : CARD_NAMES[c])).join(', ') || 'none' } : {}),
    },
    out: false,
  }));
  const name = currentName(state);
  let status: string;
  if (over) {
    const r = lasVegas.result(state) as GameResult;
    const names = r.winners.map((w) => state.players[w]?.name ?? '').join(' and ');
    if (state.mode === 'solo') status = `Game over: ${r.winners.length > 0 ? 'you win' : 'you lose'} with ${dollars(cash[0] ?? 0)} against ${dollars(soloOthers(state))}`;
    else status = r.winners.length > 0 ? `Game over: ${names} ${r.winners.length > 1 ? 'share the win' : 'wins'} with ${dollars(Math.max(...cash))}` : 'Game over';
  } else if (state.phase === 'spareThrow' && state.mode === 'standard') status = `${name}: throw the ${state.spareWhite} spare white ${dieOrDice(state.spareWhite)} onto the casinos`;
  else if (state.phase === 'spareThrow') status = `${name}: throw the ${lasVegas.diceRequest(state)?.count ?? 0} ${(lasVegas.diceRequest(state)?.count ?? 0) === 1 ? 'die that goes' : 'dice that go'} onto the casinos before the round`;
  else if (state.phase === 'throw') status = `${name}: throw your ${lasVegas.diceRequest(state)?.count ?? 0} ${dieOrDice(lasVegas.diceRequest(state)?.count ?? 0)}`;
  else if (state.phase === 'reroll') status = `${name}: re-throw ${state.rerollSlots.length} ${dieOrDice(state.rerollSlots.length)} («Re-roll»)`;
  else if (state.phase === 'chase') status = `${name}: choose a die for the chaser to remove from ${casinoName(state.chase?.casino ?? 1)}`;
  else status = `${name}: place the dice of one value (${thrownValues(state).join(', ')})${state.turn.mustTwo && state.turn.placements.length === 1 ? ' on a second casino («2-Casinos»)' : ''}`;
  const G = 'las-vegas';
  const me = state.players[state.current];
  // The name as a text of its own: the colour in it is a word too ("Bob (green)").
  const who: BoardText | string = me?.colour ? gameValue(G, 'nameColour', { name: me.name, colour: { key: `common.diceLooks.${me.colour}`, params: {} } }) : name;
  let say: BoardText;
  if (over) {
    const r = lasVegas.result(state) as GameResult;
    const names = r.winners.map((w) => state.players[w]?.name ?? '');
    if (state.mode === 'solo') say = gameSay(G, r.winners.length > 0 ? 'soloWin' : 'soloLose', { money: dollars(cash[0] ?? 0), against: dollars(soloOthers(state)) });
    else say = r.winners.length > 0 ? winnersSay(names, dollars(Math.max(...cash))) : boardSay('gameOver');
  } else if (state.phase === 'spareThrow' && state.mode === 'standard') say = gameSay(G, 'spareWhite', { name: who, count: state.spareWhite });
  else if (state.phase === 'spareThrow') say = gameSay(G, 'spareThrow', { name: who, count: lasVegas.diceRequest(state)?.count ?? 0 });
  else if (state.phase === 'throw') say = gameSay(G, 'throwYour', { name: who, count: lasVegas.diceRequest(state)?.count ?? 0 });
  else if (state.phase === 'reroll') say = gameSay(G, 'reroll', { name: who, count: state.rerollSlots.length });
  else if (state.phase === 'chase') {
    const casino = state.chase?.casino ?? 1;
    say = gameSay(G, 'chase', { name: who, casino: casino === SLOT_MACHINE ? gameValue(G, 'theSlotMachine') : gameValue(G, 'casino', { number: casino }) });
  } else say = gameSay(G, state.turn.mustTwo && state.turn.placements.length === 1 ? 'placeSecond' : 'place', { name: who, values: thrownValues(state).join(', ') });
  const colourWord = (colour: string): BoardText => ({ key: `common.diceLooks.${colour}`, params: {} });
  const billSay = (id: number): BoardText => (isColourful(id) ? gameValue(G, 'colourful') : gameValue(G, 'money', { money: dollars(billValue(id)) }));
  const casinoPanels = state.casinos.map((c, i) => {
    const counts = casinoCounts(c, state.options.bigDice);
    const slot = i + 1 === SLOT_MACHINE;
    return {
      id: slot ? 'slotMachine' : `casino${i + 1}`,
      label: slot ? 'Slot machine' : `Casino ${i + 1}`,
      params: { number: i + 1 },
      items: [
        ...c.bills.map((b) => ({ id: 'bill', label: 'Bill', value: billLabel(b), valueSay: billSay(b) })),
        ...Object.entries(counts).map(([colour, n]) => ({
          id: 'colour',
          label: colour,
          params: { colour: colourWord(colour) },
          value: slot ? `${n} (${c.dice.filter((d) => d.colour === colour).map((d) => d.value).join('+')})` : n,
        })),
        ...(state.earlyPayouts.some((e) => e.casino === i + 1) ? [{ id: 'earlyPayout', label: 'Early payout', value: 'pending', valueSay: gameValue(G, 'pending'), state: 'highlight' as const }] : []),
      ],
    };
  });
  const roundItems = [
    { id: 'round', label: 'Round', value: `${state.round} of ${roundsOf(state)}`, valueSay: valueSay('of', { number: state.round, of: roundsOf(state) }) },
    { id: 'turn', label: 'Turn', value: over ? '-' : name, ...(over || typeof who === 'string' ? {} : { valueSay: who }) },
    { id: 'startPlayer', label: 'Start player', value: state.players[state.startPlayer]?.name ?? '' },
    { id: 'billsInDeck', label: 'Bills in deck', value: state.deck.length },
    ...(state.options.chaserDice ? [{ id: 'chasersSpent', label: 'Chasers spent', value: state.setAside.filter((d) => d.colour === CHASER_COLOUR).length }] : []),
    ...(state.twoCasinos.length > 0 ? [{ id: 'twoCasinos', label: '2-Casinos', value: state.twoCasinos.map((s) => state.players[s]?.name ?? '').join(', '), state: 'active' as const }] : []),
    ...(state.mode !== 'standard' ? [{ id: 'diceLeft', label: 'Dice left to throw', value: state.pool.reduce((a, b) => a + b, 0) + state.groups.reduce((a, g) => a + g.reduce((x, y) => x + y, 0), 0) }] : []),
  ];
  const colourPanel =
    state.mode === 'standard'
      ? []
      : [
          {
            id: state.mode === 'solo' ? 'opponentColours' : 'colourBills',
            label: state.mode === 'solo' ? 'Opponent colours' : 'Bills won by colour',
            items: Object.entries(state.colourBills).map(([colour, ids]) => ({ id: 'colour', label: colour, params: { colour: colourWord(colour) }, value: dollars(moneyOf(ids)) })),
          },
        ];
  const last = state.lastPayouts.filter((p) => p.colour !== null);
  return {
    kind: 'table',
    lasVegas: boardData(state, cash),
    status,
    say,
    current: over ? null : state.current,
    dice: state.thrown,
    held: state.thrown.map(() => false),
    diceLook: state.thrown.map((v, slot) => (v === null ? null : { colour: slotColour(state, slot), size: slotSize(state, slot) })),
    columns: [
      { id: 'colour', label: 'Colour' },
      { id: 'money', label: 'Money' },
      { id: 'bills', label: 'Bills' },
      { id: 'dice', label: 'Dice left' },
      ...(state.options.bonusCards ? [{ id: 'reminder', label: 'Reminder die' }] : []),
      ...(state.options.actionCards ? [{ id: 'cards', label: 'Action cards' }] : []),
    ],
    players,
    panels: [
      { id: 'round', label: 'Round', items: roundItems },
      ...casinoPanels,
      ...colourPanel,
      {
        id: 'billsWon',
        label: 'Bills won',
        items: state.players.map((p) => ({ id: 'seat', label: p.name, params: { name: p.name }, value: p.bills.map(billLabel).join(', ') })),
      },
      {
        id: 'lastPayouts',
        label: 'Last scoring',
        items: last.map((p) => ({
          id: 'payout',
          params: {
            place: p.casino === 0 ? gameValue(G, 'round') : p.casino === SLOT_MACHINE ? gameValue(G, 'slotMachine') : gameValue(G, 'casinoTitle', { number: p.casino }),
            payee:
              p.seat === null
                ? whiteIsNeutral(state) && p.colour === NEUTRAL_COLOUR
                  ? gameValue(G, 'neutral', { colour: colourWord(p.colour) })
                  : colourWord(p.colour ?? '')
                : (state.players[p.seat]?.name ?? ''),
          },
          valueSay: billSay(p.bill),
          label: `${p.casino === 0 ? 'Round' : p.casino === SLOT_MACHINE ? 'Slot machine' : `Casino ${p.casino}`}: ${p.seat === null ? `${p.colour}${whiteIsNeutral(state) && p.colour === NEUTRAL_COLOUR ? ' (neutral)' : ''}` : (state.players[p.seat]?.name ?? '')}`,
          value: billLabel(p.bill),
        })),
      },
    ],
  };
}

/** Solo: the money of the other colours together. */
const soloOthers = (state: LasVegasState): number => Object.values(state.colourBills).reduce((a, ids) => a + moneyOf(ids), 0);

// ---------------------------------------------------------------------------
// The game

export const lasVegas: GameDef<LasVegasState, LasVegasAction, LasVegasOptions> = {
  id: 'las-vegas',
  name: 'Las Vegas',
  minPlayers: 1,
  maxPlayers: 8,
  defaultOptions: DEFAULT_OPTIONS,
  playerRange,
  summary:
    'Dice placement for 2-5 players (up to 8 with the Boulevard extra dice) over four rounds. Six casinos (1-6) each get banknotes worth at least $50,000. In turn, each player throws all the dice they still hold and puts every die of one value on the casino with that number. When all dice are placed, each casino pays its bills, highest first, to the colours with the most dice, one bill each; colours tied on a count are all out. Most money after four rounds wins. Variant: neutral white dice thrown with your own, whose bills nobody gets. Boulevard modules, each an option: extra player dice, big dice that count as two, purple chasers that knock a die off, a minimum stake by player count, $100,000 bills, colourful cards, the slot machine (seventh casino, ties broken by pips), secret bonus cards with a reminder die, ten secret action cards; plus the solo game and the 2-4 player secret-colours variant.',
  dice: {
    // 8 own + 4 white in a standard throw; 16 in the set-up throws of secret colours and solo variant 1.
    count: 16,
    colours: [...ALL_COLOURS],
    sizes: ['normal', 'big'],
    note: "Each throw is one player's dice: their 8 in their colour (slots 0-7; with big dice slot 0 is the big die, with chasers slot 7 and for 2-5 players slot 6 are purple chasers) plus, with neutral dice, white ones (slots 8 and up). Solo and secret colours throw one die of each colour, after a set-up throw of 8 or 16 dice (secret colours: 2 of each colour). Every request names the dice (colour, size); the reminder dice of the bonus cards are never thrown.",
  },
  secretThrows: false,
  secretHands: true,
  optionSpecs: OPTION_SPECS,
  board: lasVegasBoard,
  playerView,
  bot,

  setup(players, options) {
    const opts = resolveOptions<LasVegasOptions>('Las Vegas', OPTION_SPECS, options);
    checkPlayers('Las Vegas', players, 1, 8);
    const problem = rangeProblem(opts, players.length);
    if (problem !== null) throw new GameSetupError(problem);
    const whites = whitePerPlayer(opts, players.length);
    // Only the 3-player game throws the white dice nobody holds (LV-6).
    const spare = opts.mode === 'standard' && opts.neutralDice && players.length === 3 ? WHITE_DICE - 3 * whites : 0;
    const colours = playerColours(opts);
    const base: LasVegasState = {
      game: 'las-vegas',
      options: opts,
      mode: opts.mode,
      players: players.map((name, i) => ({
        name,
        colour: colours[i] ?? '',
        hand: [],
        bills: [],
        cards: [],
        bonus: [],
        reminder: opts.bonusCards ? 1 : 0,
        secretColours: [],
        wonThisRound: [],
        turns: 0,
        tieWinner: false,
        swapBill: false,
        skipped: false,
      })),
      casinos: [],
      deck: initialDeck(opts.deckSeed, opts),
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
      turn: freshTurn,
      twoCasinos: [],
      earlyPayouts: [],
      rerollSlots: [],
      pool: [],
      groups: [],
      colourBills: opts.mode === 'solo' ? Object.fromEntries(ALL_COLOURS.filter((c) => c !== SOLO_COLOUR).map((c) => [c, []])) : {},
    };
    return startRound(base, 1, 0);
  },

  diceRequest(state): DiceRequest | null {
    const request = (slots: number[], colours: (slot: number, i: number) => string): DiceRequest => ({
      count: slots.length,
      slots,
      player: state.current,
      secret: false,
      dice: slots.map((slot, i) => ({ colour: colours(slot, i), size: slotSize(state, slot) })),
    });
    if (state.phase === 'spareThrow') {
      if (state.mode !== 'standard') {
        const colours = setupThrowColours(state);
        return request(colours.map((_, i) => i), (_, i) => colours[i] as string);
      }
      return request(Array.from({ length: state.spareWhite }, (_, i) => FIRST_WHITE_SLOT + i), () => NEUTRAL_COLOUR);
    }
    if (state.phase === 'reroll') return request([...state.rerollSlots], (slot) => slotColour(state, slot));
    if (state.phase !== 'throw') return null;
    if (state.mode !== 'standard') return request(state.pool.flatMap((n, i) => (n > 0 ? [i] : [])), (slot) => ALL_COLOURS[slot] as string);
    return request([...player(state, state.current).hand], (slot) => slotColour(state, slot));
  },

  apply(state, action) {
    if (state.phase === 'over') return invalid('game/over', 'The game is over; no more actions are accepted.');
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown; dice?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values, a.dice);
      case 'place':
        return applyPlace(state, a as { value?: unknown });
      case 'chase':
        return applyChase(state, (a as { seat?: unknown }).seat, (a as { slot?: unknown }).slot);
      case 'playCard':
        return applyCard(state, a as Partial<CardAction>);
      default:
        return invalid('game/unknown_action', `Las Vegas has no action ${show(a?.type)}; use roll, place, chase or playCard.`);
    }
  },

  legalActions(state) {
    if (state.phase === 'over') return [];
    if (state.mode === 'standard') return standardLegal(state);
    if (state.phase !== 'place') return [];
    return thrownValues(state).map((value) => ({ type: 'place' as const, value }));
  },

  result(state): GameResult | null {
    if (state.phase !== 'over') return null;
    const scores = money(state);
    if (state.mode === 'solo') {
      const own = scores[0] ?? 0;
      const others = Object.values(state.colourBills).map(moneyOf);
      const win = state.options.soloWin === 'moreThanAllOthersCombined' ? own > soloOthers(state) : others.every((m) => own > m);
      return { winners: win ? [0] : [], scores };
    }
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
