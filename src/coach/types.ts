/**
 * The coach's contract. A coach knows one game's optimal play: it solves the
 * game for a set of options (a pure computation, tables of values), then
 * ranks the decisions open in any state of that game.
 *
 * A decision is what a player commits to between two throws: "keep 6 6 and
 * throw the rest", "score 25 in Chance", "close 7 and 2", "stop". In the game
 * it may take several actions (hold, release, then the throw), so the coach
 * names each decision by a `key` and says which actions carry it out from
 * the state at hand; an empty list means "throw the dice now" (the table's
 * tower throw, as a bot's `null`).
 */

/** What the values measure, from the point of view of the player to move. */
export type CoachMeasure =
  /** Expected final score of the player's own card (one-player optimum). */
  | 'expectedScore'
  /** Expected points the current turn adds to the player's score (one-turn optimum: 10 000). */
  | 'expectedTurnScore'
  /** Expected penalty left at the end (lower is better; Shut the Box remainder). */
  | 'expectedPenalty'
  /** Probability of reaching the goal (shutting the box). */
  | 'probability'
  /** Probability that the player to move wins (two-player games). */
  | 'winProbability';

/** One open decision with its value under optimal play from here on. */
export interface RankedDecision<Action> {
  /** Stable name of the decision within its state, e.g. `keep:6,6`, `score:chance`, `close:2,7`, `stop`, `throw`. */
  readonly key: string;
  /** Words for a person, English: "Keep 6 6, throw three dice", "Score 25 in Chance". */
  readonly label: string;
  /** The game actions that carry the decision out from this state, in order; empty: throw the dice now. */
  readonly actions: readonly Action[];
  /** Expected score, penalty or probability after taking it and playing optimally on. */
  readonly value: number;
  /** How much worse than the best decision, ≥ 0 (for penalties too: best − this, turned so that 0 is best). */
  readonly loss: number;
}

/** A solved game for one set of options. Every method is pure and fast once built (hints answer in ≤ 5 ms). */
export interface Policy<State, Action> {
  readonly measure: CoachMeasure;
  /** Value of the start of the game under optimal play (expected score, probability...). */
  readonly optimum: number;
  /**
   * The decisions open now to the player to move, best first, with loss 0 for
   * the best. Empty when the state waits only for dice (the first throw of a
   * turn with nothing to choose), when the game is over, or when the state is
   * outside what was solved (say why through `outside`).
   */
  decisions(state: State): RankedDecision<Action>[];
  /**
   * The key of the decision that `action`, played in `state`, commits, or
   * null when the action commits nothing yet (a hold before the throw) or
   * there was nothing to decide. Post-game analysis walks the log with this:
   * the decision is ranked in the `state` where it was committed.
   */
  committed(state: State, action: Action): string | null;
  /** Why this state cannot be coached (a multi-player position in a one-player solve, say), or null. */
  outside(state: State): string | null;
}

/** Progress of a long solve, for a progress line. */
export type SolveProgress = (done: number, total: number) => void;

/** A coach for one game. */
export interface GameCoach<State, Action, Options> {
  /** The game id in `src/games` (`yatzy`, `shut-the-box`...). */
  readonly game: string;
  readonly measure: CoachMeasure;
  /** Null when these options can be solved; otherwise why not, in words. */
  unsupported(options: Options): string | null;
  /** The part of the options the tables depend on (cache key); absent: all of them. */
  tableKey?(options: Options): unknown;
  /**
   * The version of the tables' layout and values, in the cache key: raise it
   * whenever the solver changes what it computes, so no cached table of an
   * earlier solver is ever served (absent: 1).
   */
  readonly tablesVersion?: number;
  /**
   * Solves the game for these options. Pure and synchronous (run it in a
   * worker thread for the big tables); `progress` is called now and then.
   * The tables it returns are plain typed arrays so they can be cached on disk
   * and handed between threads: `restore(options, tables)` rebuilds the policy.
   */
  solve(options: Options, progress?: SolveProgress): SolvedTables;
  restore(options: Options, tables: SolvedTables): Policy<State, Action>;
}

/** The solver's output: named typed arrays plus small JSON facts (state count, seconds). */
export interface SolvedTables {
  readonly arrays: Readonly<Record<string, Float64Array | Float32Array | Uint8Array | Int32Array>>;
  readonly facts: Readonly<Record<string, number | string>>;
}
