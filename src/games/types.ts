/**
 * The contract every game module fulfils. A game is pure: its state is plain
 * JSON-serialisable data, moves never touch clocks, randomness or I/O, and
 * the dice come in from outside as values.
 */

/** What the game needs the tower to roll next. */
export interface DiceRequest {
  /** How many dice go into the tower. */
  readonly count: number;
  /** Which dice slots of the game's dice the rolled values fill, in order. */
  readonly slots: readonly number[];
  /** Index of the player whose roll it is. */
  readonly player: number;
  /** True when only the rolling player may see the result (hidden-cup games). */
  readonly secret: boolean;
  /**
   * The physical dice that go into the tower (length `count`) when their colour
   * or size matters (Las Vegas). The table then hands the game each die's
   * value with its read colour and size, and refuses a throw whose dice do not
   * match these or whose colour or size the camera is unsure of.
   */
  readonly dice?: readonly RequestedDie[];
}

/** A die the game needs thrown, by colour name and size. */
export interface RequestedDie {
  readonly colour: string;
  readonly size: 'normal' | 'big';
}

/** A rule refusing an action: a player's mistake, not a bug. */
export interface InvalidAction {
  readonly invalid: true;
  /** Namespaced code, e.g. `game/not_your_turn`, `game/category_filled`. */
  readonly code: string;
  /** Sentence for a person, naming the problem. */
  readonly message: string;
}

export const invalid = (code: string, message: string): InvalidAction => ({ invalid: true, code, message });

export function isInvalid(x: unknown): x is InvalidAction {
  return typeof x === 'object' && x !== null && (x as { invalid?: unknown }).invalid === true;
}

/** Final standing once a game is over. */
export interface GameResult {
  /** Indices of the winning players (several on a shared win). */
  readonly winners: readonly number[];
  /** Final score per player, by player index. */
  readonly scores: readonly number[];
}

/** The actions common to dice games; each game accepts the subset it uses. */
export type RollAction = { readonly type: 'roll'; readonly values: readonly number[] };

export interface GameDef<State, Action extends { type: string }, Options> {
  readonly id: string;
  readonly name: string;
  readonly minPlayers: number;
  readonly maxPlayers: number;
  readonly defaultOptions: Options;
  /**
   * The seat counts these options can be played with, when they depend on the
   * options (Las Vegas: solo 1, secret colours 2-4, 6-8 only with extra dice).
   * Absent: minPlayers to maxPlayers whatever the options.
   */
  playerRange?(options: Partial<Options>): { readonly min: number; readonly max: number };
  /** Creates the start state. Throws GameSetupError on bad players or options. */
  setup(players: readonly string[], options?: Partial<Options>): State;
  /** The roll the state waits for, or null when it waits for a decision or is over. */
  diceRequest(state: State): DiceRequest | null;
  /** Applies one action; returns the new state or why the action is refused. */
  apply(state: State, action: Action): State | InvalidAction;
  /** Every legal non-roll action in this state (bots, UI hints, property tests). */
  legalActions(state: State): Action[];
  /** The result once the game is over, else null. */
  result(state: State): GameResult | null;

  /** One paragraph of rules for the catalog. */
  readonly summary: string;
  readonly dice: DiceNeed;
  /** True when some throws are secret: players then need their private pages. */
  readonly secretThrows?: boolean;
  /** True when the lowest score wins (Shut the Box's penalty points, 421's counters): standings and best scores go lowest first. */
  readonly lowScoreWins?: boolean;
  /**
   * True when players hold secret cards (Las Vegas): the actions offered to a
   * viewer are the legal actions of their own view, so the room never sees a
   * hand; a seat plays its cards from its private page.
   */
  readonly secretHands?: boolean;
  /** Every option with its type and default; `setup` validates against these. */
  readonly optionSpecs: readonly OptionSpec[];
  /** The scoreboard's picture of the state. Never shows secret dice the viewer may not see (pass a `playerView` state). */
  board(state: State): Board;
  /**
   * The state as `viewer` (a seat) may see it, or as the public sees it
   * (`null`): secret dice of others are null. Games without secrets return the state.
   */
  playerView(state: State, viewer: number | null): State;
  /**
   * A simple player for empty seats and tests: the action it takes now, or
   * null to throw the dice `diceRequest` names. Called only when the game is
   * not over; `random` gives numbers in [0, 1).
   */
  bot(state: State, random: () => number): Action | null;
  /**
   * The seat that makes `action` when that is not the seat to act (Bluff: the
   * owner of a throw declared stacked; Bluffi: anyone calling "Bluffi!"), or
   * null for the seat to act. Absent: always the seat to act. A seat's private
   * page may send only the actions this names it for.
   */
  actor?(state: State, action: Action): number | null;
  /**
   * Action types only the operator makes, never a seat from its own page: a
   * judgement about the physical throw (Bluff: a throw that landed stacked),
   * which a player who has seen their secret dice must not be able to make.
   */
  operatorActions?: readonly string[];
}

/** Thrown by `setup` when players or options are unusable. */
export class GameSetupError extends Error {
  readonly code = 'game/bad_setup';
  constructor(message: string) {
    super(message);
    this.name = 'GameSetupError';
  }
}

// ---------------------------------------------------------------------------
// Describing a game to people: catalog entries, options, boards.

/** One option of a game, from its spec's "Ambiguities and chosen defaults" table. */
export type OptionSpec =
  | { readonly name: string; readonly type: 'integer'; readonly default: number; readonly min?: number; readonly max?: number; readonly description: string }
  | { readonly name: string; readonly type: 'number'; readonly default: number; readonly min?: number; readonly max?: number; readonly description: string }
  | { readonly name: string; readonly type: 'boolean'; readonly default: boolean; readonly description: string }
  | { readonly name: string; readonly type: 'choice'; readonly default: string; readonly choices: readonly string[]; readonly description: string };

/** The dice a game needs in the tower. */
export interface DiceNeed {
  /** Most dice thrown at once. */
  readonly count: number;
  /** Colours the camera must tell apart; empty when colour does not matter. */
  readonly colours: readonly string[];
  /** Sizes the camera must tell apart; empty when size does not matter. */
  readonly sizes: readonly string[];
  /** Anything else about the dice (dice kept outside the tray, star faces...). */
  readonly note?: string;
}

/** A parameter of a board's words: a name or number, a list ("Ann and Ben"), alternatives ("6 and 3 or 9"), or a text of its own. */
export type BoardValue = string | number | readonly BoardValue[] | { readonly anyOf: readonly BoardValue[] } | BoardText;

/** Words for the page to put in its own language: a text key (src/api/public/i18n/*.json) and its parameters. */
export interface BoardText {
  readonly key: string;
  readonly params: Readonly<Record<string, BoardValue>>;
}

/** One thing in a panel: a tile, a count, a name with its value. */
export interface BoardItem {
  /** Stable within its panel (items of a list may share one): the page words the label by `games.<game>.items.<id>`, else `board.items.<id>`. */
  readonly id: string;
  /** The label in English (the API's, the history's). */
  readonly label: string;
  /** The variable parts of the label (a name, a number), for the page's words. */
  readonly params?: Readonly<Record<string, BoardValue>>;
  readonly value?: string | number | null;
  /** The value in words, where it is words rather than a name or number (a bid, "yes"); `value` is its English. */
  readonly valueSay?: BoardText;
  /** How to draw the item: an open or closed tile, the active bid, a highlighted value. */
  readonly state?: 'open' | 'closed' | 'active' | 'highlight';
}

/** A labelled group of things on the scoreboard: tiles, the pot, the bid, counters... */
export interface BoardPanel {
  /** The page words the label by `games.<game>.panels.<id>`, else `board.panels.<id>`. */
  readonly id: string;
  readonly label: string;
  /** The variable parts of the label ("Last hand (round 3)"). */
  readonly params?: Readonly<Record<string, BoardValue>>;
  readonly items: readonly BoardItem[];
}

/** What every board shows besides its game-specific part. */
interface BoardCommon {
  /** One line for the room: whose turn and what they must do ("Ann: throw to beat 5-2"). */
  readonly status: string;
  /** The status as a text key and parameters (`board.status.*` shared, `games.<game>.status.*`), for the page's language. */
  readonly say: BoardText;
  /** Seat whose turn it is, or null (between rounds, game over). */
  readonly current: number | null;
  /** The dice on the table (null = not thrown yet), in slot order; secret dice are null in public views. */
  readonly dice: readonly (number | null)[];
  /** Dice set aside / kept, by slot. */
  readonly held: readonly boolean[];
  /** Each die's colour and size by slot, where the game's dice differ (Las Vegas); null where none is thrown. */
  readonly diceLook?: ReadonlyArray<{ readonly colour: string; readonly size: 'normal' | 'big' } | null>;
  readonly panels: readonly BoardPanel[];
}

/** Yatzy-like games: rows × players. */
export interface ScorecardBoard extends BoardCommon {
  readonly kind: 'scorecard';
  /** Rows in display order; `score` rows are filled by players, the others are computed. */
  readonly rows: ReadonlyArray<{ readonly id: string; readonly label: string; readonly kind: 'score' | 'subtotal' | 'bonus' | 'total' }>;
  readonly players: ReadonlyArray<{ readonly name: string; readonly cells: Readonly<Record<string, number | null>> }>;
  /** Score rows the current player may fill now, with the points each gives. */
  readonly choices: ReadonlyArray<{ readonly row: string; readonly points: number }>;
}

/** Every other game: one line per player with named values (score, lives, counters...). */
export interface TableBoard extends BoardCommon {
  readonly kind: 'table';
  /** The page words a column by `games.<game>.columns.<id>`, else `board.columns.<id>`. */
  readonly columns: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly players: ReadonlyArray<{ readonly name: string; readonly values: Readonly<Record<string, string | number | null>>; readonly out: boolean }>;
}

export type Board = ScorecardBoard | TableBoard;
