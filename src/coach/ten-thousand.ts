/**
 * The 10 000 coach: play that maximises the expected points a turn adds to
 * the player's score (banked points, minus any bust penalty), the standard
 * one-turn criterion of the Farkle family.
 *
 * A turn is (dice left to throw, turn total); every set-aside adds points,
 * so the table is solved by backward induction from a high turn total down.
 * Above `TURN_CAP` points the solve banks at once (a lower bound; reaching it
 * is rarer than 1 in 10^5 turns and moves the optimum by less than 10^-6 points).
 *
 * What the criterion leaves out, on purpose:
 * - the entry threshold and bank minimum count (a turn that cannot bank
 *   scores 0), so a player not yet on the board gets its own table;
 * - the bust penalty counts, and the three-bust extra when this bust would be
 *   the third in a row (a table per streak), but not the streak's effect on
 *   later turns;
 * - `firstThrowBustResetsScore` and the break rule depend on the scores: the
 *   first throw has no decision, so play is the same; the optimum counts a
 *   first-throw bust as an ordinary one and ignores the break bonus;
 * - the last round (someone reached the target) is a race, not a sum: those
 *   states are `outside`.
 * Two-player win probability is not solved here: it needs a table over both
 * scores (about 200 × 200 turn starts in steps of 50, each turn re-solved
 * inside a value iteration because a bust returns to the same scores).
 */
import { canScore, scoreSet, scoringSets, tenThousand, type TenThousandAction, type TenThousandOptions, type TenThousandState } from '../games/ten-thousand.js';
import type { GameCoach, Policy, RankedDecision, SolvedTables, SolveProgress } from './types.js';
import { otherOptions, pickOptions, rankDecisions } from './rank.js';

export const DICE = 6;
/** Turn totals from here up are banked at once by the solve. */
export const TURN_CAP = 40_000;

/** The points every score is a multiple of, so the table can step by it. */
function pointStep(o: TenThousandOptions): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return [o.straightValue, o.threePairsValue].filter((v) => v > 0).reduce(gcd, 50);
}

interface Keep {
  /** Dice set aside. */
  readonly used: number;
  readonly points: number;
}

interface Outcome {
  readonly chance: number;
  /** `bust`: nothing scores; `twos`: four 2s end the turn without a bust; else the set-asides open. */
  readonly kind: 'bust' | 'twos' | 'keep';
  readonly keeps: readonly Keep[];
}

/** Every throw of `n` dice (as a sorted multiset) with its chance and what may be set aside. */
function outcomes(n: number, o: TenThousandOptions): Outcome[] {
  const out: Outcome[] = [];
  const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
  const walk = (from: number, dice: number[]): void => {
    if (dice.length === n) {
      const counts = [1, 2, 3, 4, 5, 6].map((f) => dice.filter((d) => d === f).length);
      const chance = fact(n) / counts.reduce((p, c) => p * fact(c), 1) / 6 ** n;
      if (o.fourTwosEndTurn && (counts[1] ?? 0) >= 4) out.push({ chance, kind: 'twos', keeps: [] });
      else if (!canScore(dice, o)) out.push({ chance, kind: 'bust', keeps: [] });
      else {
        // Only the best points for each number of dice set aside can be optimal.
        const best = new Map<number, number>();
        for (const s of scoringSets(dice, o)) best.set(s.dice.length, Math.max(best.get(s.dice.length) ?? 0, s.points));
        out.push({ chance, kind: 'keep', keeps: [...best].map(([used, points]) => ({ used, points })) });
      }
      return;
    }
    for (let f = from; f <= 6; f++) walk(f, [...dice, f]);
  };
  walk(1, []);
  return out;
}

/** The situations that need their own table: bank threshold × bust value. */
interface Variant {
  readonly need: number;
  readonly bust: number;
}

function variants(o: TenThousandOptions): Variant[] {
  const needs = [...new Set([o.bankMinimum, Math.max(o.bankMinimum, o.entryThreshold)])];
  const busts = [...new Set([-o.bustPenalty, -(o.bustPenalty + o.threeBustPenalty)])];
  return needs.flatMap((need) => busts.map((bust) => ({ need, bust })));
}

/** Which table a player uses now. */
function variantOf(o: TenThousandOptions, onBoard: boolean, bustStreak: number): number {
  const list = variants(o);
  const need = onBoard ? o.bankMinimum : Math.max(o.bankMinimum, o.entryThreshold);
  const bust = -(o.bustPenalty + (bustStreak === 2 ? o.threeBustPenalty : 0));
  return Math.max(0, list.findIndex((v) => v.need === need && v.bust === bust));
}

/** The solved values: `decide[v][n][t / step]`, the best of banking and throwing `n` dice with turn total t. */
class TurnTable {
  readonly step: number;
  readonly slots: number;
  readonly variants: Variant[];
  private readonly throws: Outcome[][];

  constructor(
    readonly options: TenThousandOptions,
    readonly decide: Float64Array,
  ) {
    this.step = pointStep(options);
    this.slots = Math.floor(TURN_CAP / this.step);
    this.variants = variants(options);
    this.throws = Array.from({ length: DICE + 1 }, (_, n) => (n === 0 ? [] : outcomes(n, options)));
  }

  static size(o: TenThousandOptions): number {
    return variants(o).length * DICE * (Math.floor(TURN_CAP / pointStep(o)) + 1);
  }

  private index(v: number, n: number, t: number): number {
    return (v * DICE + (n - 1)) * (this.slots + 1) + t / this.step;
  }

  canBank(v: number, t: number): boolean {
    return t >= (this.variants[v]?.need ?? 0);
  }

  /** Best of banking and throwing on, `n` dice free (0 = hot dice). */
  decideValue(v: number, n: number, t: number): number {
    if (n === 0 && !this.options.hotDice) return this.canBank(v, t) ? t : 0;
    if (t >= TURN_CAP) return t;
    return this.decide[this.index(v, n === 0 ? DICE : n, t)] ?? 0;
  }

  /** Value of setting aside `used` dice for `points` out of `n` free. */
  keepValue(v: number, n: number, t: number, keep: Keep): number {
    return this.decideValue(v, n - keep.used, t + keep.points);
  }

  /** Value of throwing `n` dice (0 = hot dice: six) with turn total t. */
  throwValue(v: number, n: number, t: number): number {
    const dice = n === 0 ? DICE : n;
    const bust = this.variants[v]?.bust ?? 0;
    let value = 0;
    for (const out of this.throws[dice] ?? []) {
      if (out.kind === 'bust') value += out.chance * bust;
      else if (out.kind === 'keep') value += out.chance * Math.max(...out.keeps.map((k) => this.keepValue(v, dice, t, k)));
    }
    return value;
  }

  /** Fills the table, highest turn totals first. */
  solve(progress?: SolveProgress): void {
    for (let slot = this.slots; slot >= 0; slot--) {
      if (slot % 100 === 0) progress?.(this.slots - slot, this.slots);
      const t = slot * this.step;
      for (let v = 0; v < this.variants.length; v++) {
        for (let n = 1; n <= DICE; n++) {
          const again = this.throwValue(v, n, t);
          this.decide[this.index(v, n, t)] = this.canBank(v, t) ? Math.max(t, again) : again;
        }
      }
    }
  }
}

const MAX_SLOTS = 8000;

// ---------------------------------------------------------------------------
// The policy


/** The options that change a turn's play or value (the target and the break do not). */
const TURN_OPTIONS = [
  'nOfAKind',
  'straightValue',
  'threePairsValue',
  'fourPlusPairIsThreePairs',
  'fourTwosEndTurn',
  'entryThreshold',
  'bankMinimum',
  'bustPenalty',
  'threeBustPenalty',
  'hotDice',
] as const;

const FREE = [0, 1, 2, 3, 4, 5] as const;

function policy(options: TenThousandOptions, solved: SolvedTables): Policy<TenThousandState, TenThousandAction> {
  const decide = solved.arrays.decide;
  if (!(decide instanceof Float64Array) || decide.length !== TurnTable.size(options)) throw new RangeError('10 000 tables do not fit these options');
  const table = new TurnTable(options, decide);

  const outside = (state: TenThousandState): string | null =>
    otherOptions(options, state.options, TURN_OPTIONS) ??
    (state.endTriggeredBy !== null && !state.over ? 'Last round: the coach maximises the points of a turn, not the chance to overtake the leader.' : null);

  const rank = (list: Array<Omit<RankedDecision<TenThousandAction>, 'loss'>>): RankedDecision<TenThousandAction>[] => rankDecisions(list);

  const keepKey = (state: TenThousandState, slots: readonly number[]): string =>
    `keep:${slots
      .map((i) => state.dice[i] as number)
      .sort((a, b) => a - b)
      .join(',')}`;

  const open = (state: TenThousandState): RankedDecision<TenThousandAction>[] => {
    if (state.over || state.phase === 'throw' || outside(state) !== null) return [];
    const me = state.players[state.current];
    if (!me) return [];
    const v = variantOf(options, me.onBoard, me.bustStreak);
    const free = FREE.filter((i) => !state.held[i]).length;
    const t = state.turnTotal;
    if (state.phase === 'keep') {
      return rank(
        tenThousand.legalActions(state).flatMap((a) => {
          if (a.type !== 'keep') return [];
          const points = scoreSet(a.dice.map((i) => state.dice[i] as number), options) ?? 0;
          const left = free - a.dice.length;
          const faces = a.dice.map((i) => state.dice[i] as number).join(' ');
          const label = `Set aside ${faces} (${points}), ${left === 0 ? (options.hotDice ? 'hot dice' : 'all six') : `${left} ${left === 1 ? 'die' : 'dice'} left`}`;
          return [{ key: keepKey(state, a.dice), label, actions: [a], value: table.keepValue(v, free, t, { used: a.dice.length, points }) }];
        }),
      );
    }
    const n = free === 0 ? DICE : free;
    const list: Array<Omit<RankedDecision<TenThousandAction>, 'loss'>> = [
      { key: 'throw', label: `Throw ${n} ${n === 1 ? 'die' : 'dice'} on ${t}`, actions: [], value: table.throwValue(v, free, t) },
    ];
    if (tenThousand.legalActions(state).some((a) => a.type === 'bank')) list.push({ key: 'bank', label: `Bank ${t}`, actions: [{ type: 'bank' }], value: t });
    // Throwing is the only thing to do: the state waits for dice.
    return list.length > 1 ? rank(list) : [];
  };

  return {
    measure: 'expectedTurnScore',
    optimum: table.throwValue(variantOf(options, false, 0), DICE, 0),
    outside,
    decisions: open,
    committed(state, action) {
      const list = open(state);
      if (list.length < 2) return null;
      if (action.type === 'keep' && state.phase === 'keep') return keepKey(state, action.dice);
      if (action.type === 'bank') return 'bank';
      return action.type === 'roll' && state.phase === 'decide' ? 'throw' : null;
    },
  };
}

export const tenThousandCoach: GameCoach<TenThousandState, TenThousandAction, TenThousandOptions> = {
  game: 'ten-thousand',
  measure: 'expectedTurnScore',
  tableKey: (options) => pickOptions(options, TURN_OPTIONS),
  unsupported(options) {
    const step = pointStep(options);
    if (TURN_CAP / step > MAX_SLOTS) return `Scores in steps of ${step} points make the turn table too fine; straight and three-pairs values that are multiples of 10 are fine.`;
    return null;
  },
  solve(options, progress) {
    const started = performance.now();
    const table = new TurnTable(options, new Float64Array(TurnTable.size(options)));
    table.solve(progress);
    const facts: Record<string, number | string> = {
      states: table.decide.length,
      pointStep: table.step,
      turnCap: TURN_CAP,
      expectedTurn: table.throwValue(variantOf(options, true, 0), DICE, 0),
      expectedFirstTurn: table.throwValue(variantOf(options, false, 0), DICE, 0),
    };
    if (options.threeBustPenalty > 0) facts.expectedTurnAfterTwoBusts = table.throwValue(variantOf(options, true, 2), DICE, 0);
    facts.seconds = (performance.now() - started) / 1000;
    return { arrays: { decide: table.decide }, facts };
  },
  restore: policy,
};
