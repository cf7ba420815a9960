import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction } from '../../src/games/types.js';
import {
  DEFAULT_OPTIONS,
  OPTION_SPECS,
  bestScore,
  canBank,
  canScore,
  ofAKindPoints,
  scoreSet,
  scoringSets,
  tenThousand,
} from '../../src/games/ten-thousand.js';
import type { TenThousandAction, TenThousandOptions, TenThousandState } from '../../src/games/ten-thousand.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: TenThousandState, action: TenThousandAction): TenThousandState {
  const next = tenThousand.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: TenThousandState, action: unknown): InvalidAction {
  const next = tenThousand.apply(state, action as TenThousandAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): TenThousandAction => ({ type: 'roll', values });
const keep = (...dice: number[]): TenThousandAction => ({ type: 'keep', dice });
const bank: TenThousandAction = { type: 'bank' };
const setup = (n = 2, options: Partial<TenThousandOptions> = {}) => tenThousand.setup(['Ann', 'Bob', 'Cid', 'Dee'].slice(0, n), options);

/** A state whose players hold the given scores (scenario fixture). */
function withScores(scores: number[], options: Partial<TenThousandOptions> = {}): TenThousandState {
  const s = setup(scores.length, options);
  return { ...s, players: s.players.map((p, i) => ({ ...p, score: scores[i] ?? 0, onBoard: (scores[i] ?? 0) > 0 })) };
}

/** Plays one whole turn for the current player: throw, keep, and bank. */
const bankTurn = (s: TenThousandState, values: number[], kept: number[]): TenThousandState => step(step(step(s, roll(...values)), keep(...kept)), bank);

const GREED = { ...DEFAULT_OPTIONS, nOfAKind: 'add' as const, straightValue: 0, threePairsValue: 0 };

// ---------------------------------------------------------------------------
// Examples to test (spec table)

describe('spec examples', () => {
  it('1 [P] a single 5 scores 50', () => expect(scoreSet([5])).toBe(50));
  it('2 [P] a single 1 scores 100', () => expect(scoreSet([1])).toBe(100));
  it('3 [P] 5-5-5 scores 500', () => expect(scoreSet([5, 5, 5])).toBe(500));
  it('4 [P] 1-1-1 scores 1000', () => expect(scoreSet([1, 1, 1])).toBe(1000));
  it('5 [P] three 2s/3s/4s/6s score 200/300/400/600', () => {
    expect([2, 3, 4, 6].map((f) => scoreSet([f, f, f]))).toEqual([200, 300, 400, 600]);
  });
  it('6 [P] four/five/six 5s score 1000/2000/4000', () => {
    expect([4, 5, 6].map((n) => scoreSet(Array<number>(n).fill(5)))).toEqual([1000, 2000, 4000]);
  });
  it('7 [P] four/five/six 1s score 2000/4000/8000', () => {
    expect([4, 5, 6].map((n) => scoreSet(Array<number>(n).fill(1)))).toEqual([2000, 4000, 8000]);
    expect(scoreSet([2, 2, 2, 2])).toBe(400);
    expect(scoreSet([6, 6, 6, 6, 6])).toBe(2400);
  });
  it('8 [P] the straight 1-2-3-4-5-6 scores 1000', () => expect(scoreSet([1, 2, 3, 4, 5, 6])).toBe(1000));
  it('9 [P] three pairs 2-2-4-4-5-5 score 2000', () => expect(scoreSet([2, 2, 4, 4, 5, 5])).toBe(2000));
  it('10 [P] 3-3-3-3-5-5 scores 700, or 2000 with fourPlusPairIsThreePairs', () => {
    expect(scoreSet([3, 3, 3, 3, 5, 5])).toBe(700);
    expect(scoreSet([3, 3, 3, 3, 5, 5], { ...DEFAULT_OPTIONS, fourPlusPairIsThreePairs: true })).toBe(2000);
  });
  it('11 [P] 2-2-2-2 with fourTwosEndTurn ends the turn and loses its points', () => {
    let s = step(step(setup(2, { fourTwosEndTurn: true }), roll(1, 1, 1, 3, 4, 6)), keep(0, 1, 2));
    expect(s.turnTotal).toBe(1000);
    s = step(s, roll(2, 2, 2));
    expect(s.phase).toBe('keep'); // three 2s are only a triple
    s = withScores([500, 0], { fourTwosEndTurn: true });
    s = step(s, roll(2, 2, 2, 2, 1, 5));
    expect(s.current).toBe(1);
    expect(s.players[0]!.score).toBe(500); // no minus
    expect(s.turnTotal).toBe(0);
    // By default four 2s are four of a kind (400).
    const d = step(setup(), roll(2, 2, 2, 2, 1, 5));
    expect(d.phase).toBe('keep');
    expect(bestScore([2, 2, 2, 2, 1, 5])).toBe(550);
  });
  it('12 [D] throw 1-1-2-3-4-6: the only set-asides are {1} 100 and {1,1} 200', () => {
    expect(scoringSets([1, 1, 2, 3, 4, 6])).toEqual([
      { dice: [0], points: 100 },
      { dice: [0, 1], points: 200 },
    ]);
    const s = step(setup(), roll(1, 1, 2, 3, 4, 6));
    expect(tenThousand.legalActions(s)).toEqual([keep(0), keep(0, 1)]);
    expect(refuse(s, keep(0, 2)).code).toBe('game/not_scoring');
  });
  it('13 [D] throw 2-3-4-6-6-2 is a bust: the turn total is lost', () => {
    let s = step(step(withScores([300, 0]), roll(1, 2, 3, 4, 6, 6)), keep(0));
    expect(s.turnTotal).toBe(100);
    s = step(s, roll(2, 3, 4, 6, 6));
    expect(s.current).toBe(1);
    expect(s.players[0]!.score).toBe(300);
    expect(s.last).toBe('Ann bust on 2-3-4-6-6');
    expect(bestScore([2, 3, 4, 6, 6, 2])).toBe(0);
    const first = step(setup(), roll(2, 3, 4, 6, 6, 2));
    expect(first.current).toBe(1);
  });
  it('14 [D] 1-5-2-3-4-4 keep 1,5; then 1-1-1-5: all six set aside, hot dice, turn total 1200', () => {
    let s = step(setup(), roll(1, 5, 2, 3, 4, 4));
    s = step(s, keep(0, 1));
    expect(s.turnTotal).toBe(150);
    expect(tenThousand.diceRequest(s)).toEqual({ count: 4, slots: [2, 3, 4, 5], player: 0, secret: false });
    s = step(s, roll(1, 1, 1, 5));
    s = step(s, keep(2, 3, 4, 5));
    expect(s.turnTotal).toBe(1200);
    expect(s.held.every(Boolean)).toBe(true);
    expect(tenThousand.diceRequest(s)).toEqual({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: 0, secret: false });
    expect(tenThousand.legalActions(s)).toEqual([bank]);
    s = step(s, roll(5, 2, 3, 4, 6, 6));
    expect(s.held).toEqual([false, false, false, false, false, false]);
    s = step(step(s, keep(0)), bank);
    expect(s.players[0]!.score).toBe(1250);
  });
  it('15 [D] A reaches 10 050 while B and C have not played this round: they play, then the highest wins', () => {
    let s = withScores([9050, 9000, 9900]);
    s = bankTurn(s, [1, 1, 1, 2, 3, 4], [0, 1, 2]);
    expect(s.players[0]!.score).toBe(10050);
    expect(s.endTriggeredBy).toBe(0);
    expect(s.over).toBe(false);
    expect(tenThousand.result(s)).toBeNull();
    s = bankTurn(s, [5, 2, 3, 4, 6, 6], [0]); // B: 9050
    expect(s.over).toBe(false);
    s = bankTurn(s, [6, 6, 6, 2, 3, 4], [0, 1, 2]); // C: 10 500
    expect(s.over).toBe(true);
    expect(tenThousand.result(s)).toEqual({ winners: [2], scores: [10050, 9050, 10500] });
    expect(tenThousand.board(s).status).toBe('Game over: Cid wins with 10500');
  });
});

// ---------------------------------------------------------------------------
// Scoring details and the Greed cross-check profile

describe('scoring', () => {
  it('reads a set the best way and refuses sets with a dead die', () => {
    expect(scoreSet([1, 1])).toBe(200);
    expect(scoreSet([1, 1, 1, 5])).toBe(1050);
    expect(scoreSet([1, 5, 5, 1, 1, 1])).toBe(2100); // four 1s + two 5s beats three pairs
    expect(scoreSet([2, 2, 3])).toBeNull();
    expect(scoreSet([])).toBeNull();
    expect(() => scoreSet([7])).toThrow(RangeError);
  });

  it('nOfAKind: multiply gives ×2/×3/×4 of the triple, add only the triple', () => {
    const mul = { ...DEFAULT_OPTIONS, nOfAKind: 'multiply' as const };
    expect([4, 5, 6].map((n) => scoreSet(Array<number>(n).fill(5), mul))).toEqual([1000, 1500, 2000]);
    expect(ofAKindPoints(1, 6, 'multiply')).toBe(4000);
    expect(ofAKindPoints(1, 6, 'double')).toBe(8000);
    expect(scoreSet([2, 2, 2, 2], GREED)).toBeNull();
  });

  it('canScore agrees with bestScore on every throw of up to six dice', () => {
    const rulesets = [DEFAULT_OPTIONS, GREED, { ...DEFAULT_OPTIONS, fourPlusPairIsThreePairs: true }];
    const bad: string[] = [];
    // The answer depends only on the faces, so every sorted throw is enough.
    const throwsOf = (n: number, from: number): number[][] => (n === 0 ? [[]] : [1, 2, 3, 4, 5, 6].filter((f) => f >= from).flatMap((f) => throwsOf(n - 1, f).map((t) => [f, ...t])));
    for (let n = 1; n <= 6; n++) {
      for (const dice of throwsOf(n, 1)) {
        for (const r of rulesets) if (canScore(dice, r) !== bestScore(dice, r) > 0) bad.push(dice.join(','));
      }
    }
    expect(bad).toEqual([]);
  });

  it('straightValue and threePairsValue set the values; 0 turns them off', () => {
    expect(scoreSet([1, 2, 3, 4, 5, 6], { ...DEFAULT_OPTIONS, straightValue: 2000 })).toBe(2000);
    expect(scoreSet([1, 2, 3, 4, 5, 6], { ...DEFAULT_OPTIONS, straightValue: 0 })).toBeNull();
    expect(scoreSet([2, 2, 4, 4, 6, 6], { ...DEFAULT_OPTIONS, threePairsValue: 750 })).toBe(750);
    expect(scoreSet([2, 2, 4, 4, 6, 6], { ...DEFAULT_OPTIONS, threePairsValue: 0 })).toBeNull();
    expect(bestScore([2, 2, 4, 4, 6, 6], { ...DEFAULT_OPTIONS, threePairsValue: 0 })).toBe(0);
  });

  it.each([
    [[], 0],
    [[5], 50],
    [[1], 100],
    [[1, 5, 5, 1], 300],
    [[2, 3, 4, 6], 0],
    [[1, 1, 1], 1000],
    [[2, 2, 2], 200],
    [[3, 3, 3], 300],
    [[4, 4, 4], 400],
    [[5, 5, 5], 500],
    [[6, 6, 6], 600],
    [[2, 5, 2, 2, 3], 250],
    [[5, 5, 5, 5], 550],
    [[1, 1, 1, 1], 1100],
    [[1, 1, 1, 1, 1], 1200],
    [[1, 1, 1, 5, 1], 1150],
  ])('Greed profile (Ruby Koans): %j scores %i', (dice, points) => {
    expect(bestScore(dice, GREED)).toBe(points);
  });
});

// ---------------------------------------------------------------------------
// Options in play

describe('options', () => {
  it('entryThreshold keeps a player off the board until one turn reaches it', () => {
    let s = step(step(setup(2, { entryThreshold: 500 }), roll(1, 2, 3, 4, 6, 6)), keep(0));
    expect(canBank(s)).toBe(false);
    expect(tenThousand.legalActions(s)).toEqual([]);
    expect(refuse(s, bank).code).toBe('game/below_threshold');
    expect(tenThousand.board(s).status).toBe('Ann: throw 5 dice (100 cannot be banked yet)');
    s = step(step(s, roll(5, 5, 5, 3, 4)), keep(1, 2, 3));
    expect(s.turnTotal).toBe(600);
    s = step(s, bank);
    expect(s.players[0]).toMatchObject({ score: 600, onBoard: true });
    // Once on the board, any total may be banked.
    s = bankTurn(s, [5, 5, 5, 2, 3, 4], [0, 1, 2]);
    s = step(step(s, roll(5, 2, 3, 4, 6, 6)), keep(0));
    expect(canBank(s)).toBe(true);
    expect(canBank(step(step(setup(), roll(5, 2, 3, 4, 6, 6)), keep(0)))).toBe(true);
  });

  it('bankMinimum refuses small banks every turn', () => {
    const s = step(step(withScores([1000, 0], { bankMinimum: 300 }), roll(1, 2, 3, 4, 6, 6)), keep(0));
    expect(refuse(s, bank).code).toBe('game/below_threshold');
  });

  it('bustPenalty and threeBustPenalty take points on busts', () => {
    let s = withScores([1000, 1000], { bustPenalty: 50, threeBustPenalty: 500 });
    for (let i = 0; i < 3; i++) {
      s = step(s, roll(2, 3, 4, 6, 6, 2)); // Ann busts
      s = step(s, roll(2, 3, 4, 6, 6, 2)); // Bob busts
    }
    expect(s.players[0]!.score).toBe(1000 - 150 - 500);
    expect(s.players[0]!.bustStreak).toBe(0);
    let d = withScores([1000, 1000]);
    d = step(d, roll(2, 3, 4, 6, 6, 2));
    expect(d.players[0]!.score).toBe(1000);
    expect(d.players[0]!.bustStreak).toBe(1);
  });

  it('firstThrowBustResetsScore resets the score on a first-throw bust only', () => {
    let s = withScores([3000, 3000], { firstThrowBustResetsScore: true });
    s = step(step(step(s, roll(1, 2, 3, 4, 6, 6)), keep(0)), roll(2, 3, 4, 6, 6));
    expect(s.players[0]!.score).toBe(3000); // a later throw busting is an ordinary bust
    s = step(s, roll(2, 3, 4, 6, 6, 2));
    expect(s.players[1]!.score).toBe(0);
    const d = step(withScores([3000, 3000]), roll(2, 3, 4, 6, 6, 2));
    expect(d.players[0]!.score).toBe(3000);
  });

  it('breakRule pays the largest turn above 2000 when another player reaches the target', () => {
    const opts = { breakRule: true, target: 5000 };
    let s = withScores([0, 3000], opts);
    s = bankTurn(s, [1, 1, 1, 1, 2, 3], [0, 1, 2, 3]); // Ann banks 2000: not above the threshold
    expect(s.breakHolder).toBeNull();
    s = bankTurn(s, [5, 2, 3, 4, 6, 6], [0]); // Bob 3050
    s = bankTurn(s, [6, 6, 6, 6, 6, 2], [0, 1, 2, 3, 4]); // Ann 2400 → 4400: takes the break
    expect(s).toMatchObject({ breakHolder: 0, breakBest: 2400 });
    s = bankTurn(s, [1, 1, 1, 1, 2, 3], [0, 1, 2, 3]); // Bob 2000 → 5050: Ann is paid
    expect(s.players.map((p) => p.score)).toEqual([5400, 5050]);
    expect(s.breakPaid).toBe(true);
    expect(s.over).toBe(true);
    expect(tenThousand.board(s).panels.map((p) => p.id)).toContain('break');
    // The holder reaching the target herself is not paid.
    let h = withScores([3000, 0], opts);
    h = bankTurn(h, [6, 6, 6, 6, 6, 2], [0, 1, 2, 3, 4]);
    expect(h).toMatchObject({ breakHolder: 0, breakPaid: false, endTriggeredBy: 0 });
    expect(h.players[0]!.score).toBe(5400);
    // Off by default: no holder, no bonus.
    let d = withScores([0, 3000], { target: 5000 });
    d = bankTurn(d, [3, 3, 3, 3, 3, 2], [0, 1, 2, 3, 4]);
    expect(d.breakHolder).toBeNull();
    expect(tenThousand.board(d).panels.map((p) => p.id)).not.toContain('break');
  });

  it('breakThreshold and breakBonus change the break; an equal turn cancels it', () => {
    const opts = { breakRule: true, breakThreshold: 500, breakBonus: 300, target: 5000 };
    let s = withScores([0, 4500], opts);
    s = bankTurn(s, [6, 6, 6, 2, 3, 4], [0, 1, 2]); // Ann 600 > 500: holds
    expect(s.breakHolder).toBe(0);
    s = bankTurn(s, [6, 6, 6, 2, 3, 4], [0, 1, 2]); // Bob equals: cancelled, and reaches 5100
    expect(s.breakHolder).toBeNull();
    expect(s.breakBest).toBe(600);
    s = withScores([0, 4500], opts);
    s = bankTurn(s, [6, 6, 6, 2, 3, 4], [0, 1, 2]);
    s = bankTurn(s, [5, 5, 5, 2, 3, 4], [0, 1, 2]); // Bob 5000: Ann paid 300
    expect(s.players[0]!.score).toBe(900);
  });

  it('hotDice: false ends the turn once all six are set aside, banking them', () => {
    let s = step(setup(2, { hotDice: false }), roll(1, 2, 3, 4, 5, 6));
    s = step(s, keep(0, 1, 2, 3, 4, 5));
    expect(s.current).toBe(1);
    expect(s.players[0]!.score).toBe(1000);
    let d = step(step(setup(2, { hotDice: false, entryThreshold: 1500 }), roll(1, 2, 3, 4, 5, 6)), keep(0, 1, 2, 3, 4, 5));
    expect(d.current).toBe(1);
    expect(d.players[0]!.score).toBe(0);
    d = step(step(setup(), roll(1, 2, 3, 4, 5, 6)), keep(0, 1, 2, 3, 4, 5));
    expect(d.current).toBe(0);
    expect(tenThousand.diceRequest(d)?.count).toBe(6);
  });

  it('target changes when the last round starts', () => {
    let s = bankTurn(setup(2, { target: 500 }), [5, 5, 5, 2, 3, 4], [0, 1, 2]);
    expect(s.endTriggeredBy).toBe(0);
    s = bankTurn(s, [5, 2, 3, 4, 6, 6], [0]);
    expect(s.over).toBe(true);
    expect(bankTurn(setup(), [5, 5, 5, 2, 3, 4], [0, 1, 2]).endTriggeredBy).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('asks for six dice, then waits for a keep, then offers bank and a throw of the rest', () => {
    let s = setup();
    expect(tenThousand.diceRequest(s)).toEqual({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: 0, secret: false });
    expect(tenThousand.legalActions(s)).toEqual([]);
    s = step(s, roll(1, 2, 3, 4, 6, 6));
    expect(tenThousand.diceRequest(s)).toBeNull();
    s = step(s, keep(0));
    expect(tenThousand.legalActions(s)).toEqual([bank]);
    expect(tenThousand.diceRequest(s)?.slots).toEqual([1, 2, 3, 4, 5]);
    expect(tenThousand.board(s).status).toBe('Ann: bank 100 or throw 5 dice');
    s = step(s, bank);
    expect(s).toMatchObject({ current: 1, phase: 'throw', turnTotal: 0, throws: 0, last: 'Ann banked 100' });
    expect(s.dice).toEqual([null, null, null, null, null, null]);
    expect(tenThousand.diceRequest(s)?.player).toBe(1);
  });

  it('refuses wrong counts, bad values, out-of-phase moves and bad keeps with their codes', () => {
    let s = setup();
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [1, 2, 3, 4, 5, '6'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, keep(0)).code).toBe('game/no_throw_yet');
    expect(refuse(s, bank).code).toBe('game/no_throw_yet');
    expect(refuse(s, null).code).toBe('game/unknown_action');
    expect(refuse(s, { type: 'pass' }).code).toBe('game/unknown_action');
    s = step(s, roll(1, 5, 2, 3, 4, 4));
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/must_keep');
    expect(refuse(s, bank).code).toBe('game/must_keep');
    expect(refuse(s, keep()).code).toBe('game/bad_die_index');
    expect(refuse(s, keep(6)).code).toBe('game/bad_die_index');
    expect(refuse(s, keep(0, 0)).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'keep', dice: 'all' }).code).toBe('game/bad_die_index');
    expect(refuse(s, keep(2)).code).toBe('game/not_scoring');
    s = step(s, keep(0));
    expect(refuse(s, keep(1)).code).toBe('game/already_kept');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/wrong_dice_count');
    s = step(s, roll(5, 2, 3, 4, 4));
    expect(refuse(s, keep(0)).code).toBe('game/die_set_aside');
  });

  it('refuses everything once the game is over', () => {
    let s = withScores([9900, 0]);
    s = bankTurn(s, [5, 5, 5, 2, 3, 4], [0, 1, 2]);
    s = bankTurn(s, [5, 2, 3, 4, 6, 6], [0]);
    expect(s.over).toBe(true);
    expect(tenThousand.diceRequest(s)).toBeNull();
    expect(tenThousand.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/over');
    expect(tenThousand.board(s).current).toBeNull();
  });

  it('shares the win on a tie', () => {
    let s = withScores([9900, 9900]);
    s = bankTurn(s, [5, 5, 5, 2, 3, 4], [0, 1, 2]);
    s = bankTurn(s, [5, 5, 5, 2, 3, 4], [0, 1, 2]);
    expect(tenThousand.result(s)).toEqual({ winners: [0, 1], scores: [10400, 10400] });
    expect(tenThousand.board(s).status).toBe('Game over: Ann and Bob share the win with 10400');
  });

  it('never lists roll, and every listed action is accepted', () => {
    const s = step(setup(), roll(1, 1, 5, 5, 5, 3));
    const actions = tenThousand.legalActions(s);
    expect(actions.length).toBeGreaterThan(5);
    for (const a of actions) {
      expect(a.type).toBe('keep');
      expect(isInvalid(tenThousand.apply(s, a))).toBe(false);
    }
  });

  it('shows the turn on the board', () => {
    const b = tenThousand.board(tenThousand.playerView(step(setup(), roll(1, 5, 2, 3, 4, 4)), null));
    if (b.kind !== 'table') throw new Error('expected a table board');
    expect(b.status).toBe('Ann: set aside scoring dice (turn total 0)');
    expect(b.dice).toEqual([1, 5, 2, 3, 4, 4]);
    expect(b.players[0]!.values).toEqual({ score: 0, turn: 0, busts: 0 });
    expect(tenThousand.board(setup()).status).toBe('Ann: throw six dice');
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts everyone at 0 with the defaults', () => {
    const s = setup(3);
    expect(s.options).toEqual(DEFAULT_OPTIONS);
    expect(Object.keys(s.options).sort()).toEqual(OPTION_SPECS.map((o) => o.name).sort());
    expect(s.players.map((p) => p.score)).toEqual([0, 0, 0]);
  });

  it.each([
    [{ nOfAKind: 'triple' }, 'nOfAKind'],
    [{ straightValue: -1 }, 'straightValue'],
    [{ threePairsValue: null }, 'threePairsValue'],
    [{ hotDice: 'yes' }, 'hotDice'],
    [{ target: 0 }, 'target'],
    [{ targetScore: 5000 }, 'targetScore'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => tenThousand.setup(['a', 'b'], options as Partial<TenThousandOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('needs at least two players', () => {
    expect(() => tenThousand.setup(['a'])).toThrow(GameSetupError);
    expect(() => tenThousand.setup(['a', 'a'])).toThrow(/"a"/);
  });
});

// ---------------------------------------------------------------------------
// Contract and invariants

type S = TenThousandState;

/** Scores move only at turn ends, by the banked total or the rule's penalties. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as S;
  if (s.turnTotal < 0 || s.held.length !== 6 || s.dice.length !== 6) throw new Error('bad turn shape');
  if (s.endTriggeredBy !== null && !s.players.some((p) => p.score >= s.options.target)) throw new Error('end without the target');
  if (previous === null) return;
  const p = previous as S;
  if (p.endTriggeredBy !== null && s.endTriggeredBy !== p.endTriggeredBy) throw new Error('end trigger moved');
  // Within a turn the total only grows and set-aside dice stay set aside (until hot dice).
  if (s.current === p.current && s.round === p.round && s.phase !== 'throw' && s.throws > 0) {
    if (s.turnTotal < p.turnTotal) throw new Error('turn total fell');
    if (p.held.every(Boolean) === false && p.held.some((h, i) => h && !s.held[i])) throw new Error('a die came back');
    if (s.players.some((x, i) => x.score !== p.players[i]!.score)) throw new Error('score moved mid-turn');
  }
  const o = s.options;
  const noPenalties = o.bustPenalty === 0 && o.threeBustPenalty === 0 && !o.firstThrowBustResetsScore;
  if (noPenalties && !o.breakRule) {
    const gained = s.players.reduce((a, x) => a + x.score, 0) - p.players.reduce((a, x) => a + x.score, 0);
    // A bank adds the turn total; without hot dice a keep of the last dice banks itself.
    const ok = gained === 0 || (p.phase === 'decide' && gained === p.turnTotal) || (p.phase === 'keep' && !o.hotDice && gained > p.turnTotal);
    if (!ok) throw new Error(`scores gained ${gained}, turn had ${p.turnTotal}`);
    if (gained < 0) throw new Error('a score fell without penalties');
  }
}

describe('contract', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(tenThousand, 300, {}, invariants);
  });

  it('keeps the contract with house rules on', () => {
    checkContract(
      tenThousand,
      60,
      { nOfAKind: 'multiply', entryThreshold: 500, bankMinimum: 300, bustPenalty: 50, threeBustPenalty: 500, firstThrowBustResetsScore: true, breakRule: true, hotDice: false, fourTwosEndTurn: true, target: 3000 },
      invariants,
    );
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: TenThousandAction[] = [roll(1, 5, 2, 3, 4, 4), keep(0, 1), roll(1, 1, 1, 5), keep(2, 3, 4, 5), roll(5, 2, 3, 4, 6, 6), keep(0), bank, roll(2, 3, 4, 6, 6, 2)];
    const s = replay(tenThousand, ['Ann', 'Bob'], {}, actions) as S;
    expect(s.players.map((p) => p.score)).toEqual([1250, 0]);
    expect(s.current).toBe(0);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    const game = playBotGame(tenThousand, ['Ann', 'Bob', 'Cid'], 7);
    expect(replay(tenThousand, ['Ann', 'Bob', 'Cid'], {}, game.actions)).toEqual(game.final);
  });
});
