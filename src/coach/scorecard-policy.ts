/**
 * The coach of a five-dice scorecard game (Yatzy, Dice Poker, Cameroon) on
 * top of `scorecard-solver.ts`: the game tells how its options become a
 * `ScorecardModel` and how to read its state; this file solves, restores and
 * ranks the decisions open at the table.
 *
 * Values are expected final totals of the current player's card: its points
 * so far (as the game module counts them, bonuses included) plus the
 * expected points still to come. In a multi-player game each card is played
 * as solitaire, the standard criterion.
 */
import { rankDecisions } from './rank.js';
import type { GameCoach, Policy, RankedDecision, SolvedTables } from './types.js';
import {
  DICE,
  layoutOf,
  scoreFinal,
  solveScorecard,
  throwPasses,
  turnScratch,
  type ScorecardModel,
  type StateLayout,
} from './scorecard-solver.js';

/** What the scorecard games' states have in common. */
export interface ScorecardStateLike<C extends string> {
  readonly game: string;
  readonly players: readonly { readonly name: string; readonly card: Readonly<Record<C, number | null>> }[];
  readonly current: number;
  readonly throwsTaken: number;
  readonly dice: readonly (number | null)[];
  readonly held: readonly boolean[];
  readonly over: boolean;
}

export type ScorecardActionLike<C extends string> =
  | { readonly type: 'roll'; readonly values: readonly number[] }
  | { readonly type: 'hold'; readonly dice: readonly number[] }
  | { readonly type: 'release'; readonly dice: readonly number[] }
  | { readonly type: 'score'; readonly category: C };

/** A game, as the scorecard coach needs to know it. */
export interface ScorecardGame<C extends string, S extends ScorecardStateLike<C> & { readonly options: O }, O> {
  readonly id: string;
  readonly name: string;
  /** Rows in the model's order (the card's order). */
  readonly categories: readonly C[];
  readonly labels: Readonly<Record<C, string>>;
  /** Why these options cannot be solved, or null. */
  unsupported(options: O): string | null;
  /** The solver's view of the rules; points come from the game module's scoring. */
  model(options: O): ScorecardModel;
  /** The options that change play, to tell whether a state's options match the solve. */
  playKey(options: O): string;
  /** The rows the current player may fill with the dice on the table, with their points (the game's own choices). */
  choices(state: S): readonly { readonly category: C; readonly points: number }[];
  /** The current player's total as the game counts it now. */
  totalNow(state: S): number;
  /** The current player's total right after filling `category` with these dice. */
  totalAfter(state: S, category: C, points: number): number;
}

/** A card as the solver sees it: filled rows, upper total (uncapped), five-row flag. */
function cardState<C extends string>(categories: readonly C[], model: ScorecardModel, card: Readonly<Record<C, number | null>>) {
  let mask = 0;
  let upper = 0;
  categories.forEach((c, row) => {
    const v = card[c];
    if (v === null || v === undefined) return;
    mask |= 1 << row;
    if (model.upper[row]) upper += v;
  });
  const five = model.joker ? card[categories[model.joker.fiveRow] as C] : null;
  const flag = model.joker && five !== null && five !== undefined && five > 0 ? 1 : 0;
  return { mask, upper: model.threshold > 0 ? Math.min(upper, model.threshold) : 0, flag };
}

function cardIndex<C extends string>(categories: readonly C[], model: ScorecardModel, layout: StateLayout, card: Readonly<Record<C, number | null>>): number {
  const { mask, upper, flag } = cardState(categories, model, card);
  return layout.index(mask, upper, flag);
}

const countWords = (n: number): string => (n === 1 ? '1 die' : `${n} dice`);

/** Key and label of keeping these dice values (sorted) and throwing the rest. */
export function keepKey(values: readonly number[]): string {
  return values.length === 0 ? 'keep:none' : `keep:${[...values].sort((a, b) => a - b).join(',')}`;
}

function keepLabel(values: readonly number[]): string {
  const thrown = countWords(5 - values.length);
  return values.length === 0 ? `Keep nothing, throw ${thrown}` : `Keep ${[...values].sort((a, b) => a - b).join(' ')}, throw ${thrown}`;
}

/**
 * The hold/release actions that leave exactly the dice of `keep` (a face
 * multiset, by dice index choice) held, touching as few dice as it can.
 */
function holdActions<C extends string>(dice: readonly number[], held: readonly boolean[], keep: readonly number[]): ScorecardActionLike<C>[] {
  const want = [0, 0, 0, 0, 0, 0, 0];
  for (const v of keep) want[v] = (want[v] ?? 0) + 1;
  const chosen = dice.map(() => false);
  // Dice already held first, so a keep that is already set needs no action.
  for (const pass of [true, false]) {
    dice.forEach((v, i) => {
      if (held[i] === pass && !chosen[i] && (want[v] ?? 0) > 0) {
        chosen[i] = true;
        want[v] = (want[v] ?? 0) - 1;
      }
    });
  }
  const release = dice.flatMap((_, i) => (held[i] && !chosen[i] ? [i] : []));
  const hold = dice.flatMap((_, i) => (!held[i] && chosen[i] ? [i] : []));
  const actions: ScorecardActionLike<C>[] = [];
  if (release.length > 0) actions.push({ type: 'release', dice: release });
  if (hold.length > 0) actions.push({ type: 'hold', dice: hold });
  return actions;
}

/** Builds the GameCoach of a scorecard game. */
export function scorecardCoach<C extends string, S extends ScorecardStateLike<C> & { readonly options: O }, O, A>(
  game: ScorecardGame<C, S, O>,
): GameCoach<S, A, O> {
  const restore = (options: O, tables: SolvedTables): Policy<S, A> => {
    const model = game.model(options);
    const layout = layoutOf(model);
    const values = tables.arrays.values;
    if (!(values instanceof Float64Array) || values.length !== layout.states) {
      throw new RangeError(`${game.name} tables do not fit these options: expected ${layout.states} values`);
    }
    // The empty card's turn-start value, read from the table itself (facts may not travel with it).
    const optimum = (values[layout.index(0, 0, 0)] as number) + model.emptyTotal;
    const key = game.playKey(options);
    const scratch = turnScratch(model);

    const outside = (state: S): string | null => {
      if (state.game !== game.id) return `This is not a ${game.name} game.`;
      if (game.playKey(state.options) !== key) return `The coach solved ${game.name} for other options than this game's.`;
      if (model.forcedOrder) {
        const card = state.players[state.current]?.card;
        const filled = game.categories.map((c) => card !== undefined && card[c] !== null);
        if (filled.some((f, i) => f && i > 0 && !filled[i - 1])) return 'This card was not filled in card order, which these rules require.';
      }
      return null;
    };

    const decisions = (state: S): RankedDecision<A>[] => {
      const player = state.players[state.current];
      if (state.over || state.throwsTaken === 0 || player === undefined || outside(state) !== null) return [];
      const dice = state.dice.filter((d): d is number => d !== null);
      if (dice.length !== 5) return [];
      const out: { key: string; label: string; actions: readonly A[]; value: number }[] = [];
      for (const c of game.choices(state)) {
        const after = { ...player.card, [c.category]: c.points };
        const value = game.totalAfter(state, c.category, c.points) + (values[cardIndex(game.categories, model, layout, after)] as number);
        const action = { type: 'score', category: c.category } as const;
        out.push({ key: `score:${c.category}`, label: `Score ${c.points} in ${game.labels[c.category]}`, actions: [action as A], value });
      }
      const left = model.throws - state.throwsTaken;
      if (left > 0) {
        const { mask, upper, flag } = cardState(game.categories, model, player.card);
        scoreFinal(model, layout, values, mask, upper, flag, scratch);
        throwPasses(scratch, left);
        const keep = scratch.keep[left] as Float64Array;
        const now = game.totalNow(state);
        const seen = new Set<number>();
        // Every distinct sub-multiset but all five (keeping all five is scoring now).
        for (let subset = 0; subset < 31; subset++) {
          const kept = dice.filter((_, i) => subset & (1 << i));
          const k = DICE.indexOf(kept);
          if (seen.has(k)) continue;
          seen.add(k);
          const actions = holdActions<C>(dice, state.held, kept) as unknown as A[];
          out.push({ key: keepKey(kept), label: keepLabel(kept), actions, value: now + (keep[k] as number) });
        }
      }
      return rankDecisions(out);
    };

    const committed = (state: S, action: A): string | null => {
      const a = action as ScorecardActionLike<C>;
      // A forced row (the only one open, or forced order) decides nothing: it would flatter the mean loss.
      if (a.type === 'score') return decisions(state).length > 1 ? `score:${a.category}` : null;
      if (a.type !== 'roll' || state.throwsTaken < 1 || state.throwsTaken >= model.throws || state.held.every(Boolean)) return null;
      const kept = state.dice.flatMap((d, i) => (state.held[i] && d !== null ? [d] : []));
      return keepKey(kept);
    };

    return { measure: 'expectedScore', optimum, decisions, committed, outside };
  };

  return {
    game: game.id,
    measure: 'expectedScore',
    tableKey: (options) => game.playKey(options),
    unsupported: (options) => game.unsupported(options),
    solve(options, progress) {
      const reason = game.unsupported(options);
      if (reason !== null) throw new RangeError(reason);
      const model = game.model(options);
      const solved = solveScorecard(model, progress);
      const start = solved.values[0] as number;
      return {
        arrays: { values: solved.values },
        facts: {
          // The empty card's own total (a bonus at threshold 0) plus the expected points to come.
          optimum: start + model.emptyTotal,
          states: solved.reachable,
          computed: solved.computed,
          seconds: Math.round(solved.seconds * 100) / 100,
          bytes: solved.values.byteLength,
        },
      };
    },
    restore,
  };
}
