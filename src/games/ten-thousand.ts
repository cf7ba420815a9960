/**
 * 10 000 (`ten-thousand`, Finnish "Kymppitonni"): throw six dice, set aside
 * scoring dice, then bank the turn total or push on with the rest; a throw
 * with nothing to set aside loses the turn. Rules: shared/rules/ten-thousand.md;
 * every option below is one row of that spec's "Ambiguities and chosen defaults".
 *
 * Pure module: plain JSON state, dice values arrive in `roll` actions.
 */
import { invalid } from './types.js';
import type { BoardText, DiceRequest, GameDef, GameResult, InvalidAction, OptionSpec, RollAction, TableBoard } from './types.js';
import { checkPlayers, resolveOptions } from './setup-checks.js';
import { checkIndices, checkRoll, faceCounts, fillSlots, gameOver, highest, isDieValue, show, sum } from './push-luck-common.js';
import { gameSay, gameValue, valueSay, winnersSay } from './board-text.js';

export const DICE_COUNT = 6;
const ALL_SLOTS = [0, 1, 2, 3, 4, 5] as const;

// ---------------------------------------------------------------------------
// Options

export interface TenThousandOptions {
  /**
   * Dice beyond three of a kind (ambiguity 1). `'double'`: each extra die
   * doubles the triple (the Finnish file); `'multiply'`: ×2/×3/×4 of the
   * triple for 4/5/6 dice; `'add'`: only the triple is a combination, extra
   * dice count as singles (the Greed reading, 1-1-1-1 = 1100).
   */
  readonly nOfAKind: 'double' | 'multiply' | 'add';
  /** Straight 1-6 (ambiguity 2); 0 = straights do not count. */
  readonly straightValue: number;
  /** Three pairs (ambiguity 3); 0 = three pairs do not count (the spec's `null`). */
  readonly threePairsValue: number;
  /** Four of a kind plus a pair also counts as three pairs (ambiguity 4). */
  readonly fourPlusPairIsThreePairs: boolean;
  /** A throw showing four or more 2s ends the turn, its points lost (ambiguity 5). */
  readonly fourTwosEndTurn: boolean;
  /** Turn total needed to bank for the first time (ambiguity 6). */
  readonly entryThreshold: number;
  /** Least turn total that may be banked (ambiguity 7). */
  readonly bankMinimum: number;
  /** Points lost on every bust (ambiguity 8). */
  readonly bustPenalty: number;
  /** Extra points lost on a third bust in a row (ambiguity 8). */
  readonly threeBustPenalty: number;
  /** A bust on the first throw of a turn resets the whole score to 0 (ambiguity 9). */
  readonly firstThrowBustResetsScore: boolean;
  /** House rule "break" (ambiguity 10). */
  readonly breakRule: boolean;
  /** A banked turn must be above this to hold the break. */
  readonly breakThreshold: number;
  /** Paid to the break holder when another player reaches the target. */
  readonly breakBonus: number;
  /** Six dice set aside may be thrown again in the same turn (ambiguity 11). */
  readonly hotDice: boolean;
  /** Score that triggers the last round (ambiguity 12). */
  readonly target: number;
}

export const DEFAULT_OPTIONS: TenThousandOptions = {
  nOfAKind: 'double',
  straightValue: 1000,
  threePairsValue: 2000,
  fourPlusPairIsThreePairs: false,
  fourTwosEndTurn: false,
  entryThreshold: 0,
  bankMinimum: 0,
  bustPenalty: 0,
  threeBustPenalty: 0,
  firstThrowBustResetsScore: false,
  breakRule: false,
  breakThreshold: 2000,
  breakBonus: 1000,
  hotDice: true,
  target: 10000,
};

const D = DEFAULT_OPTIONS;

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'nOfAKind', type: 'choice', default: D.nOfAKind, choices: ['double', 'multiply', 'add'], description: "Dice beyond three of a kind: 'double' each extra die doubles the triple; 'multiply' ×2/×3/×4 of the triple; 'add' only the triple combines and extra 1s and 5s score as singles (Greed)." },
  { name: 'straightValue', type: 'integer', default: D.straightValue, min: 0, description: 'Points of the straight 1-2-3-4-5-6; 0 means straights do not count.' },
  { name: 'threePairsValue', type: 'integer', default: D.threePairsValue, min: 0, description: 'Points of three pairs; 0 means three pairs do not count.' },
  { name: 'fourPlusPairIsThreePairs', type: 'boolean', default: D.fourPlusPairIsThreePairs, description: 'Four of a kind plus a pair (3-3-3-3-5-5) may score as three pairs.' },
  { name: 'fourTwosEndTurn', type: 'boolean', default: D.fourTwosEndTurn, description: 'A throw showing four or more 2s ends the turn and loses its points (no minus).' },
  { name: 'entryThreshold', type: 'integer', default: D.entryThreshold, min: 0, description: 'Turn total a player needs to bank for the first time.' },
  { name: 'bankMinimum', type: 'integer', default: D.bankMinimum, min: 0, description: 'Least turn total that may be banked.' },
  { name: 'bustPenalty', type: 'integer', default: D.bustPenalty, min: 0, description: 'Points lost on every bust.' },
  { name: 'threeBustPenalty', type: 'integer', default: D.threeBustPenalty, min: 0, description: 'Extra points lost on the third bust in a row.' },
  { name: 'firstThrowBustResetsScore', type: 'boolean', default: D.firstThrowBustResetsScore, description: 'A bust on the first throw of a turn resets the whole score to 0.' },
  { name: 'breakRule', type: 'boolean', default: D.breakRule, description: 'The largest banked turn above the break threshold holds the break, paid when another player reaches the target.' },
  { name: 'breakThreshold', type: 'integer', default: D.breakThreshold, min: 0, description: 'A banked turn must be above this to hold the break.' },
  { name: 'breakBonus', type: 'integer', default: D.breakBonus, min: 0, description: 'Points for the break holder when another player reaches the target.' },
  { name: 'hotDice', type: 'boolean', default: D.hotDice, description: 'With all six dice set aside, the player may throw all six again.' },
  { name: 'target', type: 'integer', default: D.target, min: 50, description: 'Score that triggers the last round.' },
];

/** The options that decide what a set of dice scores. */
export type ScoringRules = Pick<TenThousandOptions, 'nOfAKind' | 'straightValue' | 'threePairsValue' | 'fourPlusPairIsThreePairs'>;

// ---------------------------------------------------------------------------
// Scoring helpers

/** Points of `n` (3..6) dice of one face under the n-of-a-kind rule. */
export function ofAKindPoints(face: number, n: number, rule: TenThousandOptions['nOfAKind'] = D.nOfAKind): number {
  const triple = face === 1 ? 1000 : face * 100;
  if (rule === 'double') return triple * 2 ** (n - 3);
  if (rule === 'multiply') return triple * (n - 2);
  return n === 3 ? triple : 0; // 'add': only the triple combines (callers never ask for more)
}

/** Best points of `k` dice all showing `face` when every one must score, or null. */
function faceReading(face: number, k: number, rules: ScoringRules): number | null {
  const single = face === 1 ? 100 : face === 5 ? 50 : null;
  let best: number | null = single === null ? (k === 0 ? 0 : null) : k * single;
  const most = rules.nOfAKind === 'add' ? Math.min(k, 3) : k;
  for (let n = 3; n <= most; n++) {
    // Dice beyond the combination score only as singles.
    if (n < k && single === null) continue;
    const points = ofAKindPoints(face, n, rules.nOfAKind) + (k - n) * (single ?? 0);
    if (best === null || points > best) best = points;
  }
  return best;
}

/**
 * Best points of the dice in `counts` when every die must score, or null.
 * Apart from the six-dice combinations every combination is one face, so the
 * best reading is the best reading of each face added up.
 */
function bestReading(counts: readonly number[], rules: ScoringRules): number | null {
  let byFace: number | null = 0;
  for (let face = 1; face <= 6 && byFace !== null; face++) {
    const r = faceReading(face, counts[face] ?? 0, rules);
    byFace = r === null ? null : byFace + r;
  }
  let best = byFace;
  const consider = (points: number) => {
    if (best === null || points > best) best = points;
  };
  if (sum(counts) === 6) {
    const shape = counts.slice(1).filter((c) => c > 0).sort();
    if (rules.straightValue > 0 && shape.length === 6) consider(rules.straightValue);
    const threePairs = shape.length === 3 && shape.every((c) => c === 2);
    const fourAndPair = rules.fourPlusPairIsThreePairs && shape.length === 2 && shape[0] === 2 && shape[1] === 4;
    if (rules.threePairsValue > 0 && (threePairs || fourAndPair)) consider(rules.threePairsValue);
  }
  return best;
}

function assertDice(dice: readonly number[]): void {
  // Callers hand over real dice; anything else is a bug, not a player's mistake.
  if (dice.length > DICE_COUNT || !dice.every(isDieValue)) throw new RangeError(`Expected up to 6 dice with values 1..6, got [${dice.join(', ')}]`);
}

/**
 * Points of dice set aside together from one throw, read the best way, or
 * null when some die scores nothing (such a set cannot be set aside).
 */
export function scoreSet(dice: readonly number[], rules: ScoringRules = D): number | null {
  assertDice(dice);
  if (dice.length === 0) return null;
  return bestReading(faceCounts(dice), rules);
}

/** Every distinct way to set aside dice from a throw, with its points (slot indices into `dice`, lowest first). */
export function scoringSets(dice: readonly number[], rules: ScoringRules = D): Array<{ dice: number[]; points: number }> {
  assertDice(dice);
  const counts = faceCounts(dice);
  const out: Array<{ dice: number[]; points: number }> = [];
  // Walk every sub-multiset of the faces (how many of each face to take), not every slot subset.
  const take = [0, 0, 0, 0, 0, 0, 0];
  const walk = (face: number): void => {
    if (face > 6) {
      if (sum(take) === 0) return;
      const points = bestReading(take, rules);
      if (points === null) return;
      const left = [...take];
      const idx = dice.flatMap((v, i) => ((left[v] ?? 0) > 0 ? ((left[v] = (left[v] ?? 0) - 1), [i]) : []));
      out.push({ dice: idx, points });
      return;
    }
    for (let k = 0; k <= (counts[face] ?? 0); k++) {
      take[face] = k;
      walk(face + 1);
    }
    take[face] = 0;
  };
  walk(1);
  // Fewest dice first, then by slots, so lists read naturally.
  const bySlots = (a: readonly number[], b: readonly number[]): number => {
    const i = a.findIndex((x, j) => x !== b[j]);
    return i < 0 ? 0 : (a[i] as number) - (b[i] as number);
  };
  return out.sort((a, b) => a.dice.length - b.dice.length || bySlots(a.dice, b.dice));
}

/** Whether any die of a throw can be set aside (false = a bust); the quick form of `bestScore(dice) > 0`. */
export function canScore(dice: readonly number[], rules: ScoringRules = D): boolean {
  assertDice(dice);
  const counts = faceCounts(dice);
  if ((counts[1] ?? 0) > 0 || (counts[5] ?? 0) > 0 || counts.some((c) => c >= 3)) return true;
  // Only the six-dice combinations remain.
  return dice.length === 6 && scoreSet(dice, rules) !== null;
}

/** The most a throw can score (0 = a bust). */
export function bestScore(dice: readonly number[], rules: ScoringRules = D): number {
  return scoringSets(dice, rules).reduce((m, s) => Math.max(m, s.points), 0);
}

// ---------------------------------------------------------------------------
// State and actions

export interface TenThousandPlayer {
  readonly name: string;
  readonly score: number;
  /** Has banked at least once (the entry threshold no longer applies). */
  readonly onBoard: boolean;
  /** Busts in a row, for the three-bust penalty. */
  readonly bustStreak: number;
}

export interface TenThousandState {
  readonly game: 'ten-thousand';
  readonly options: TenThousandOptions;
  readonly players: readonly TenThousandPlayer[];
  readonly current: number;
  /** Round number, 1-based. */
  readonly round: number;
  /** `throw`: the turn waits for its first throw; `keep`: set aside from the throw; `decide`: bank or throw on. */
  readonly phase: 'throw' | 'keep' | 'decide';
  /** The six dice (null = not thrown this turn). */
  readonly dice: readonly (number | null)[];
  /** Dice set aside this turn (after hot dice: since the re-throw). */
  readonly held: readonly boolean[];
  /** Points collected this turn, not yet banked. */
  readonly turnTotal: number;
  /** Throws made this turn. */
  readonly throws: number;
  /** Seat that first reached the target (the round is then finished), or null. */
  readonly endTriggeredBy: number | null;
  /** Break rule: current holder, the record banked turn, and whether the bonus was paid. */
  readonly breakHolder: number | null;
  readonly breakBest: number;
  readonly breakPaid: boolean;
  /** What ended the previous turn, for the scoreboard. */
  readonly last: string | null;
  readonly over: boolean;
}

export type TenThousandAction =
  | RollAction
  /** Set aside scoring dice (slot indices 0..5) from the latest throw. */
  | { readonly type: 'keep'; readonly dice: readonly number[] }
  /** Stop and add the turn total to the score. */
  | { readonly type: 'bank' };

// ---------------------------------------------------------------------------
// Turn flow

const fresh = <T>(v: T): T[] => Array<T>(DICE_COUNT).fill(v);

/** Slots the next throw fills: the dice not set aside, or all six on hot dice. */
function throwSlots(state: TenThousandState): number[] {
  if (state.phase === 'throw') return [...ALL_SLOTS];
  const free = ALL_SLOTS.filter((i) => !state.held[i]);
  return free.length === 0 ? [...ALL_SLOTS] : free;
}

/** Whether the current player may bank the turn total now. */
export function canBank(state: TenThousandState): boolean {
  if (state.over || state.phase !== 'decide') return false;
  const p = state.players[state.current];
  if (p === undefined) return false;
  if (state.turnTotal < state.options.bankMinimum) return false;
  return p.onBoard || state.turnTotal >= state.options.entryThreshold;
}

/** Passes the turn on; the game ends after the last seat of the round in which someone reached the target. */
function endTurn(state: TenThousandState, players: readonly TenThousandPlayer[], last: string, extra: Partial<TenThousandState> = {}): TenThousandState {
  const base = { ...state, ...extra, players };
  const lastSeat = state.current === players.length - 1;
  const over = lastSeat && base.endTriggeredBy !== null;
  return {
    ...base,
    current: over ? state.current : lastSeat ? 0 : state.current + 1,
    round: lastSeat && !over ? state.round + 1 : state.round,
    phase: 'throw',
    dice: fresh<number | null>(null),
    held: fresh(false),
    turnTotal: 0,
    throws: 0,
    last,
    over,
  };
}

function withPlayer(state: TenThousandState, seat: number, change: (p: TenThousandPlayer) => TenThousandPlayer): TenThousandPlayer[] {
  return state.players.map((p, i) => (i === seat ? change(p) : p));
}

function bust(state: TenThousandState, values: readonly number[]): TenThousandState {
  const o = state.options;
  const thrown = values.join('-');
  const players = withPlayer(state, state.current, (p) => {
    const streak = p.bustStreak + 1;
    let score = p.score - o.bustPenalty - (streak === 3 ? o.threeBustPenalty : 0);
    if (o.firstThrowBustResetsScore && state.throws === 0) score = 0;
    return { ...p, score, bustStreak: streak === 3 ? 0 : streak };
  });
  const name = state.players[state.current]?.name ?? '';
  return endTurn(state, players, `${name} bust on ${thrown}`);
}

function applyRoll(state: TenThousandState, values: unknown): TenThousandState | InvalidAction {
  const request = tenThousand.diceRequest(state);
  if (request === null) return invalid('game/must_keep', 'Set aside scoring dice from this throw before throwing again.');
  const checked = checkRoll(request, values);
  if (!Array.isArray(checked)) return checked;
  const hot = state.phase === 'decide' && state.held.every(Boolean);
  const held = state.phase === 'throw' || hot ? fresh(false) : state.held;
  const dice = fillSlots(state.phase === 'throw' ? fresh<number | null>(null) : state.dice, request.slots, checked);
  if (state.options.fourTwosEndTurn && checked.filter((v) => v === 2).length >= 4) {
    const name = state.players[state.current]?.name ?? '';
    // "No minus": the turn's points go, the score stays, and it is no bust.
    return endTurn(state, withPlayer(state, state.current, (p) => ({ ...p, bustStreak: 0 })), `${name} threw four 2s: turn over`);
  }
  if (!canScore(checked, state.options)) return bust(state, checked);
  return { ...state, dice, held, phase: 'keep', throws: state.throws + 1 };
}

function applyKeep(state: TenThousandState, indices: unknown): TenThousandState | InvalidAction {
  if (state.phase === 'throw') return invalid('game/no_throw_yet', 'Throw the dice before setting any aside.');
  if (state.phase === 'decide') return invalid('game/already_kept', 'Dice were already set aside from this throw; bank or throw again.');
  const idx = checkIndices(indices, DICE_COUNT, 'set aside');
  if (!Array.isArray(idx)) return idx;
  const taken = idx.find((i) => state.held[i]);
  if (taken !== undefined) return invalid('game/die_set_aside', `Die ${taken} was set aside from an earlier throw; only dice of this throw may be set aside.`);
  const values = idx.map((i) => state.dice[i] as number);
  const points = scoreSet(values, state.options);
  if (points === null) return invalid('game/not_scoring', `The dice ${values.join('-')} do not all score; set aside only scoring dice.`);
  const held = state.held.map((h, i) => h || idx.includes(i));
  const next: TenThousandState = { ...state, held, phase: 'decide', turnTotal: state.turnTotal + points };
  // Without hot dice, six dice set aside end the turn: bank when allowed, else nothing scores.
  if (!state.options.hotDice && held.every(Boolean)) return canBank(next) ? bank(next) : endTurn(next, next.players, `${currentName(next)} set aside all six, short of the bank threshold`);
  return next;
}

const currentName = (state: TenThousandState): string => state.players[state.current]?.name ?? '';

function bank(state: TenThousandState): TenThousandState {
  const o = state.options;
  const seat = state.current;
  const banked = state.turnTotal;
  let players = withPlayer(state, seat, (p) => ({ ...p, score: p.score + banked, onBoard: true, bustStreak: 0 }));
  let { breakHolder, breakBest, breakPaid, endTriggeredBy } = state;
  if (o.breakRule && banked > o.breakThreshold) {
    if (banked > breakBest) {
      breakHolder = seat;
      breakBest = banked;
    } else if (banked === breakBest && breakHolder !== seat) {
      breakHolder = null; // an equal total cancels the break
    }
  }
  const reached = (players[seat]?.score ?? 0) >= o.target;
  if (reached && endTriggeredBy === null) endTriggeredBy = seat;
  if (o.breakRule && reached && !breakPaid && breakHolder !== null && breakHolder !== seat) {
    const holder = breakHolder;
    players = players.map((p, i) => (i === holder ? { ...p, score: p.score + o.breakBonus } : p));
    breakPaid = true;
  }
  return endTurn(state, players, `${currentName(state)} banked ${banked}`, { breakHolder, breakBest, breakPaid, endTriggeredBy });
}

// ---------------------------------------------------------------------------
// Board and bot

function board(state: TenThousandState): TableBoard {
  const o = state.options;
  const name = currentName(state);
  const free = throwSlots(state).length;
  let status: string;
  if (state.over) {
    const r = tenThousand.result(state);
    const winners = (r?.winners ?? []).map((w) => state.players[w]?.name).join(' and ');
    status = `Game over: ${winners} ${r && r.winners.length > 1 ? 'share the win' : 'wins'} with ${Math.max(...(r?.scores ?? [0]))}`;
  } else if (state.phase === 'throw') status = `${name}: throw six dice`;
  else if (state.phase === 'keep') status = `${name}: set aside scoring dice (turn total ${state.turnTotal})`;
  else if (canBank(state)) status = `${name}: bank ${state.turnTotal} or throw ${free} dice`;
  else status = `${name}: throw ${free} dice (${state.turnTotal} cannot be banked yet)`;
  let say: BoardText;
  if (state.over) {
    const r = tenThousand.result(state);
    const names = (r?.winners ?? []).map((w) => state.players[w]?.name ?? '');
    say = winnersSay(names, Math.max(...(r?.scores ?? [0])));
  } else if (state.phase === 'throw') say = gameSay('ten-thousand', 'throwSix', { name });
  else if (state.phase === 'keep') say = gameSay('ten-thousand', 'setAside', { name, score: state.turnTotal });
  else if (canBank(state)) say = gameSay('ten-thousand', 'bankOrThrow', { name, score: state.turnTotal, count: free });
  else say = gameSay('ten-thousand', 'throwNoBank', { name, score: state.turnTotal, count: free });
  const panels: TableBoard['panels'][number][] = [
    {
      id: 'turn',
      label: 'Turn',
      items: [
        { id: 'round', label: 'Round', value: state.round },
        { id: 'turnTotal', label: 'Turn total', value: state.turnTotal, state: 'highlight' },
        { id: 'throws', label: 'Throws', value: state.throws },
        { id: 'lastTurn', label: 'Last turn', value: state.last },
      ],
    },
    {
      id: 'target',
      label: 'Target',
      items: [
        { id: 'target', label: 'Target', value: o.target },
        {
          id: 'lastRound',
          label: 'Last round',
          value: state.endTriggeredBy === null ? 'not yet' : `${state.players[state.endTriggeredBy]?.name ?? ''} reached the target`,
          valueSay: state.endTriggeredBy === null ? gameValue('ten-thousand', 'notYet') : gameValue('ten-thousand', 'reached', { name: state.players[state.endTriggeredBy]?.name ?? '' }),
        },
      ],
    },
  ];
  if (o.breakRule) {
    panels.push({
      id: 'break',
      label: 'Break',
      items: [
        { id: 'holder', label: 'Holder', value: state.breakHolder === null ? null : (state.players[state.breakHolder]?.name ?? null), state: 'active' },
        { id: 'recordTurn', label: 'Record turn', value: state.breakBest },
        { id: 'paid', label: 'Paid', value: state.breakPaid ? 'yes' : 'no', valueSay: valueSay(state.breakPaid ? 'yes' : 'no') },
      ],
    });
  }
  return {
    kind: 'table',
    status,
    say,
    current: state.over ? null : state.current,
    dice: state.dice,
    held: state.held,
    columns: [
      { id: 'score', label: 'Score' },
      { id: 'turn', label: 'This turn' },
      { id: 'busts', label: 'Busts in a row' },
    ],
    players: state.players.map((p, i) => ({
      name: p.name,
      values: { score: p.score, turn: i === state.current && !state.over ? state.turnTotal : null, busts: p.bustStreak },
      out: false,
    })),
    panels,
  };
}

/**
 * A greedy player: sets aside the best-scoring dice (fewest dice on a tie);
 * banks once the turn total is worth it for the dice left, unless it would
 * still lose in the last round.
 */
function bot(state: TenThousandState, random: () => number): TenThousandAction | null {
  if (state.phase === 'throw') return null;
  if (state.phase === 'keep') {
    const slots = ALL_SLOTS.filter((i) => !state.held[i]);
    const sets = scoringSets(slots.map((i) => state.dice[i] as number), state.options);
    const best = sets.reduce((a, b) => (b.points > a.points || (b.points === a.points && (b.dice.length < a.dice.length || (b.dice.length === a.dice.length && random() < 0.5))) ? b : a));
    return { type: 'keep', dice: best.dice.map((i) => slots[i] as number) };
  }
  if (!canBank(state)) return null;
  const left = state.held.filter((h) => !h).length;
  if (left === 0) return null; // hot dice: six fresh dice are worth throwing
  const me = state.players[state.current]?.score ?? 0;
  if (state.endTriggeredBy !== null) {
    const leader = Math.max(...state.players.filter((_, i) => i !== state.current).map((p) => p.score));
    if (me + state.turnTotal <= leader) return null;
  }
  const enough = left >= 4 ? 1000 : left === 3 ? 400 : 300;
  return state.turnTotal >= enough ? { type: 'bank' } : null;
}

// ---------------------------------------------------------------------------
// The game

export const tenThousand: GameDef<TenThousandState, TenThousandAction, TenThousandOptions> = {
  id: 'ten-thousand',
  name: '10 000',
  minPlayers: 2,
  maxPlayers: 8,
  defaultOptions: DEFAULT_OPTIONS,
  summary:
    'A push-your-luck game for two or more players. Throw six dice and set aside at least one scoring die or combination from each throw: single 1 = 100, single 5 = 50, three of a kind = 100 × the face (three 1s = 1000), each extra die of that face doubles it, a 1-6 straight = 1000, three pairs = 2000. Then bank the turn total or throw the remaining dice; with all six set aside you may throw all six again. A throw that scores nothing loses the turn total. When someone reaches 10 000 the round is finished, and the highest total wins.',
  dice: { count: DICE_COUNT, colours: [], sizes: [] },
  optionSpecs: OPTION_SPECS,
  board,
  playerView: (state) => state,
  bot,

  setup(players, options) {
    const opts = resolveOptions<TenThousandOptions>('10 000', OPTION_SPECS, options);
    checkPlayers('10 000', players, tenThousand.minPlayers, tenThousand.maxPlayers);
    return {
      game: 'ten-thousand',
      options: opts,
      players: players.map((name) => ({ name, score: 0, onBoard: false, bustStreak: 0 })),
      current: 0,
      round: 1,
      phase: 'throw',
      dice: fresh<number | null>(null),
      held: fresh(false),
      turnTotal: 0,
      throws: 0,
      endTriggeredBy: null,
      breakHolder: null,
      breakBest: 0,
      breakPaid: false,
      last: null,
      over: false,
    };
  },

  diceRequest(state): DiceRequest | null {
    if (state.over || state.phase === 'keep') return null;
    const slots = throwSlots(state);
    return { count: slots.length, slots, player: state.current, secret: false };
  },

  apply(state, action) {
    if (state.over) return gameOver();
    // Actions may come straight off the wire, so check their shape here.
    const a = action as { type?: unknown; values?: unknown; dice?: unknown } | null;
    switch (a?.type) {
      case 'roll':
        return applyRoll(state, a.values);
      case 'keep':
        return applyKeep(state, a.dice);
      case 'bank':
        if (state.phase !== 'decide') {
          return invalid(state.phase === 'throw' ? 'game/no_throw_yet' : 'game/must_keep', 'Set aside scoring dice from this throw before banking.');
        }
        if (!canBank(state)) {
          const o = state.options;
          const need = Math.max(o.bankMinimum, state.players[state.current]?.onBoard ? 0 : o.entryThreshold);
          return invalid('game/below_threshold', `A turn total of ${state.turnTotal} cannot be banked; ${need} is needed.`);
        }
        return bank(state);
      default:
        return invalid('game/unknown_action', `10 000 has no action ${show(a?.type)}; use roll, keep or bank.`);
    }
  },

  legalActions(state) {
    if (state.over) return [];
    if (state.phase === 'keep') {
      const slots = ALL_SLOTS.filter((i) => !state.held[i]);
      return scoringSets(slots.map((i) => state.dice[i] as number), state.options).map((s) => ({ type: 'keep', dice: s.dice.map((i) => slots[i] as number) }));
    }
    return canBank(state) ? [{ type: 'bank' }] : [];
  },

  result(state): GameResult | null {
    if (!state.over) return null;
    const scores = state.players.map((p) => p.score);
    return { winners: highest(scores), scores };
  },
};
