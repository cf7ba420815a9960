/**
 * Las Vegas components and scoring rules that need no game state: bills and
 * the deck, dealing, scoring a casino and the slot machine, action and bonus
 * cards. Rules: shared/rules/las-vegas.md (section numbers below are its).
 * The state machine is in las-vegas.ts.
 */

// ---------------------------------------------------------------------------
// Dice and colours

/** Casinos 1-6; casino n takes the dice showing n. */
export const CASINO_COUNT = 6;
/** The slot machine's number as a placement target (`slotMachine`, spec 3.8): the seventh casino. */
export const SLOT_MACHINE = 7;
/** Dice per player colour. */
export const OWN_DICE = 8;
/** Player colours in seat order; white is left out when it is neutral. */
export const PLAYER_COLOURS = ['red', 'green', 'blue', 'black', 'white'] as const;
/** The expansion's player colours (`extraPlayerDice`, spec 3.3): yellow 6th, grey 7th, purple 8th. */
export const EXTRA_COLOURS = ['yellow', 'grey', 'purple'] as const;
/** The eight colours of the solo game and the secret-colours variant (8 dice each, spec 4 and 5), in slot order. */
export const ALL_COLOURS = [...PLAYER_COLOURS, ...EXTRA_COLOURS] as const;
export const NEUTRAL_COLOUR = 'white';
/** Colour of the chasers (`chaserDice`, spec 3.6). */
export const CHASER_COLOUR = 'purple';

// ---------------------------------------------------------------------------
// Bills

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
 * Value of every base bill by id (ids 0-53). Bills are handled by id so each
 * physical bill can be followed and claimed once. The expansion's five
 * $100,000 bills are ids 54-58 and its six colourful cards ids 59-64.
 */
export const BILL_VALUES: readonly number[] = BILL_DISTRIBUTION.flatMap(([value, n]) => Array<number>(n).fill(value));
export const BILL_COUNT = BILL_VALUES.length;
export const TOTAL_MONEY = BILL_VALUES.reduce((a, b) => a + b, 0);
/** First id of the five $100,000 bills (`hundredThousandBills`, spec 3.2). */
export const FIRST_HUNDRED_THOUSAND = BILL_COUNT;
/** First id of the six colourful cards (`colourfulBills`, spec 3.7): worth nothing, replaced before scoring. */
export const FIRST_COLOURFUL = BILL_COUNT + 5;
const ALL_BILL_VALUES: readonly number[] = [...BILL_VALUES, ...Array<number>(5).fill(100000), ...Array<number>(6).fill(0)];

export const isColourful = (id: number): boolean => id >= FIRST_COLOURFUL && id < FIRST_COLOURFUL + 6;

/** Money of a bill (a colourful card is worth nothing: it never stays to be won). */
export function billValue(id: number): number {
  const v = ALL_BILL_VALUES[id];
  if (v === undefined) throw new RangeError(`No bill with id ${id}`);
  return v;
}

export const moneyOf = (ids: readonly number[]): number => ids.reduce((a, id) => a + billValue(id), 0);

/** Bill ids in a game: the base 54, the $100,000 bills and the colourful cards as the options say. */
export function billsInUse(withHundredThousand: boolean, withColourful: boolean): number[] {
  const ids = BILL_VALUES.map((_, id) => id);
  if (withHundredThousand) for (let i = 0; i < 5; i++) ids.push(FIRST_HUNDRED_THOUSAND + i);
  if (withColourful) for (let i = 0; i < 6; i++) ids.push(FIRST_COLOURFUL + i);
  return ids;
}

/** Bills highest value first (lower id first among equal values, so the order is fixed). */
export const byValueDesc = (ids: readonly number[]): number[] => [...ids].sort((a, b) => billValue(b) - billValue(a) || a - b);

// ---------------------------------------------------------------------------
// Shuffles

/** mulberry32: the shuffles' generator, so a seed gives one order everywhere. */
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

/** The seed of a shuffle before `round` (round 1 is the game's first); `salt` tells decks apart. */
export const roundSeed = (seed: number, round: number, salt = 0): number => (seed ^ Math.imul(round, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b)) >>> 0;

// ---------------------------------------------------------------------------
// Dealing

/** A casino (or the slot machine) as dealt: bills and the dice on it. */
export interface Casino {
  /** Bill ids lying at the casino, highest value first (colourful cards last). */
  readonly bills: readonly number[];
  readonly dice: readonly PlacedDie[];
}

/**
 * A die lying on a casino. `seat` null: a die nobody owns (a spare white die
 * thrown before the round, or any die in the solo and secret-colours modes).
 * `value`: the face it shows, kept on the slot machine where faces differ.
 */
export interface PlacedDie {
  readonly colour: string;
  readonly seat: number | null;
  readonly slot: number;
  readonly value?: number;
  /** A big die (`bigDice`): counts as two at scoring. */
  readonly big?: boolean;
}

/**
 * Deals each casino in order bills from the top of the deck until it holds at
 * least `minimum` (spec 2.1 step 3); a colourful card counts as
 * `colourfulValue` (spec 3.7, LV-7). A casino gets what is left when the deck runs out.
 */
export function dealCasinos(deck: readonly number[], minimum: number, count = CASINO_COUNT, colourfulValue = 0): { casinos: Casino[]; deck: number[] } {
  const rest = [...deck];
  const casinos: Casino[] = [];
  const worth = (ids: number[]): number => ids.reduce((a, id) => a + (isColourful(id) ? colourfulValue : billValue(id)), 0);
  for (let c = 0; c < count; c++) {
    const bills: number[] = [];
    while (worth(bills) < minimum && rest.length > 0) bills.push(rest.shift() as number);
    casinos.push({ bills: byValueDesc(bills), dice: [] });
  }
  return { casinos, deck: rest };
}

/**
 * Replaces every colourful card among `bills` by the deck's top bill (a
 * colourful card drawn is discarded and replaced in turn, spec 3.7).
 * Returns the new bills, the deck and the discarded cards.
 */
export function replaceColourful(bills: readonly number[], deck: readonly number[]): { bills: number[]; deck: number[]; discarded: number[] } {
  const rest = [...deck];
  const discarded: number[] = [];
  const out: number[] = [];
  for (const bill of bills) {
    if (!isColourful(bill)) {
      out.push(bill);
      continue;
    }
    discarded.push(bill);
    let drawn = rest.shift();
    while (drawn !== undefined && isColourful(drawn)) {
      discarded.push(drawn);
      drawn = rest.shift();
    }
    if (drawn !== undefined) out.push(drawn);
  }
  return { bills: byValueDesc(out), deck: rest, discarded };
}

// ---------------------------------------------------------------------------
// Scoring

/** One casino's result: which colour takes which bill, and the bills nobody takes. */
export interface CasinoScore<B> {
  readonly awards: ReadonlyArray<{ readonly colour: string; readonly bill: B }>;
  readonly unclaimed: readonly B[];
}

/**
 * Scores one casino (spec 2.3): colours whose count equals another colour's
 * are out, at any level; the rest, most dice first, take the bills, highest
 * first, one bill each. `tieWinners` (action «Tie Winner», spec A1) count as
 * untied at their count; the others of their tie are still out.
 */
export function scoreCasino<B>(counts: Readonly<Record<string, number>>, bills: readonly B[], value: (bill: B) => number, tieWinners: readonly string[] = []): CasinoScore<B> {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  // A tie winner's rivals stay tied with it (spec A1): only the winner itself is exempt.
  const tiedWith = (colour: string, n: number): boolean => entries.some(([c, m]) => c !== colour && m === n);
  const untied = entries.filter(([colour, n]) => tieWinners.includes(colour) || !tiedWith(colour, n)).sort((a, b) => b[1] - a[1]);
  const sorted = [...bills].sort((a, b) => value(b) - value(a));
  const awards = untied.slice(0, sorted.length).map(([colour], i) => ({ colour, bill: sorted[i] as B }));
  return { awards, unclaimed: sorted.slice(awards.length) };
}

/** A colour's dice on the slot machine, as its tie-break sees them (spec 3.8). */
export interface SlotGroup {
  readonly colour: string;
  /** Dice, a big die counting two. */
  readonly count: number;
  /** Sum of the pips (a big die's pips counted twice with `bigDieSlotSum: 'double'`, LV-12). */
  readonly total: number;
  readonly highest: number;
}

/** Groups the slot machine's dice by colour for its scoring. */
export function slotGroups(dice: readonly PlacedDie[], bigSumDouble = true): SlotGroup[] {
  const groups = new Map<string, { count: number; total: number; highest: number }>();
  for (const d of dice) {
    const g = groups.get(d.colour) ?? { count: 0, total: 0, highest: 0 };
    const weight = d.big === true ? 2 : 1;
    const face = d.value ?? 0;
    groups.set(d.colour, { count: g.count + weight, total: g.total + face * (bigSumDouble ? weight : 1), highest: Math.max(g.highest, face) });
  }
  return [...groups].map(([colour, g]) => ({ colour, ...g }));
}

/**
 * Scores the slot machine (spec 3.8): most dice first; a tie on the count is
 * broken by the higher total, then by the higher single die; colours equal on
 * all three cancel (LV-13). With `allRanks` false, ties on the count below
 * the first place cancel as on a casino. Each colour in turn takes the
 * highest bill left (the choice the rule gives the player is made for them:
 * the most money).
 */
export function scoreSlotMachine<B>(groups: readonly SlotGroup[], bills: readonly B[], value: (bill: B) => number, allRanks = true, tieWinners: readonly string[] = []): CasinoScore<B> {
  const same = (a: SlotGroup, b: SlotGroup): boolean => a.count === b.count && a.total === b.total && a.highest === b.highest;
  const topCount = Math.max(0, ...groups.map((g) => g.count));
  const kept = groups.filter((g) => {
    if (tieWinners.includes(g.colour)) return true;
    const others = groups.filter((o) => o !== g);
    if (others.some((o) => same(o, g))) return false;
    if (!allRanks && g.count < topCount && others.some((o) => o.count === g.count)) return false;
    return true;
  });
  kept.sort((a, b) => b.count - a.count || b.total - a.total || b.highest - a.highest);
  const sorted = [...bills].sort((a, b) => value(b) - value(a));
  const awards = kept.slice(0, sorted.length).map((g, i) => ({ colour: g.colour, bill: sorted[i] as B }));
  return { awards, unclaimed: sorted.slice(awards.length) };
}

/**
 * Secret-colours scoring right after a placement (spec 5, LV-20): the `k`
 * untied colours with the most dice (k at most the bills left) take the `k`
 * lowest bills, the colour with the most dice the highest of those.
 */
export function scoreSecretPlacement(counts: Readonly<Record<string, number>>, bills: readonly number[]): Array<{ colour: string; bill: number }> {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  const untied = entries.filter(([c, n]) => !entries.some(([o, m]) => o !== c && m === n)).sort((a, b) => b[1] - a[1]);
  const k = Math.min(untied.length, bills.length);
  const lowest = byValueDesc(bills).slice(bills.length - k);
  return untied.slice(0, k).map(([colour], i) => ({ colour, bill: lowest[i] as number }));
}

// ---------------------------------------------------------------------------
// Cards

/** The ten action cards (spec 3.10, A1-A10); `skip` and `turnDie` are reconstructed (LV-16). */
export const ACTION_CARDS = ['tieWinner', 'reroll', 'twoCasinos', 'skip', 'turnDie', 'takeBack', 'doubleTrouble', 'earlyPayout', 'middleBill', 'swapBill'] as const;
export type ActionCard = (typeof ACTION_CARDS)[number];
export const RECONSTRUCTED_CARDS: readonly ActionCard[] = ['skip', 'turnDie'];

export const CARD_NAMES: Readonly<Record<ActionCard, string>> = {
  tieWinner: 'Tie Winner',
  reroll: 'Re-roll',
  twoCasinos: '2-Casinos',
  skip: 'Skip',
  turnDie: 'Turn-Dice',
  takeBack: 'Take Back',
  doubleTrouble: 'Double-Trouble',
  earlyPayout: 'Early Payout',
  middleBill: 'Middle Bill',
  swapBill: 'Swap Bill',
};

/**
 * Bonus cards by the bill value they name (spec 3.9, LV-10). The card faces
 * are not in the source: this is the spec's **placeholder deck**, to be
 * replaced with the real card list.
 */
export const BONUS_DECK: readonly number[] = [10000, 10000, 20000, 20000, 30000, 40000, 50000, 60000, 80000, 100000];
/** Money per reminder pip at game end (spec 3.9). */
export const REMINDER_PIP_VALUE = 50000;

/** Cards dealt per player: two with fewer than 6 players, else one (spec 3.9, 3.10). */
export const cardsPerPlayer = (players: number): number => (players < 6 ? 2 : 1);

/** The reminder die after a round (spec 3.9, LV-11): +1 per card naming a value among the bills won, at most 6. */
export function raiseReminder(reminder: number, cards: readonly number[], wonValues: readonly number[]): number {
  const fulfilled = cards.filter((v) => wonValues.includes(v)).length;
  return Math.min(6, reminder + fulfilled);
}
