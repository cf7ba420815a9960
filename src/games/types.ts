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
}

/** Thrown by `setup` when players or options are unusable. */
export class GameSetupError extends Error {
  readonly code = 'game/bad_setup';
  constructor(message: string) {
    super(message);
    this.name = 'GameSetupError';
  }
}
