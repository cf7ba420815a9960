import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/index.js';
import type { InvalidAction } from '../../src/games/index.js';
import {
  FOUR_TWO_ONE_ORDERS,
  FOUR_TWO_ONE_DEFAULT_OPTIONS,
  fourTwoOneCategory,
  fourTwoOneValue,
  fourTwoOne,
  fourTwoOneRank,
  fourTwoOneThrower,
} from '../../src/games/four-two-one.js';
import type { FourTwoOneAction, FourTwoOneOptions, FourTwoOneState } from '../../src/games/four-two-one.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: FourTwoOneState, action: FourTwoOneAction): FourTwoOneState {
  const next = fourTwoOne.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: FourTwoOneState, action: unknown): InvalidAction {
  const next = fourTwoOne.apply(state, action as FourTwoOneAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): FourTwoOneAction => ({ type: 'roll', values });
const stop: FourTwoOneAction = { type: 'stop' };
const hold = (...dice: number[]): FourTwoOneAction => ({ type: 'hold', dice });

/** Applies throws in order. */
const rolls = (s: FourTwoOneState, ...throws: number[][]): FourTwoOneState => throws.reduce((st, t) => step(st, roll(...t)), s);

const PLAYERS = ['ann', 'bo', 'cy'];

/** Ann, Bo and Cy; Ann wins the throw-off and the charge starts with her. */
function charge(options: Partial<FourTwoOneOptions> = {}): FourTwoOneState {
  return rolls(fourTwoOne.setup(PLAYERS, options), [4, 2, 1], [2, 2, 1], [3, 2, 2]);
}

/** A charge state with `pot` counters left in the pot (scenario fixture, counters moved to Ann). */
const withPot = (s: FourTwoOneState, pot: number): FourTwoOneState => ({
  ...s,
  pot,
  players: s.players.map((p, i) => (i === 0 ? { ...p, counters: p.counters + s.pot - pot } : p)),
});

/**
 * The discharge, Ann leading: the pot holds 1 and Cy takes it. With
 * `startingCounters` n, Ann and Bo hold n, Cy n + 1.
 */
function discharge(options: Partial<FourTwoOneOptions> = {}): FourTwoOneState {
  const s = rolls(charge({ potSize: 1, ...options }), [6, 5, 3], [6, 5, 2], [5, 3, 1]);
  expect(s.phase).toBe('discharge');
  return s;
}

const counters = (s: FourTwoOneState): number[] => s.players.map((p) => p.counters);

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] ranking: 4-2-1 > 1-1-6 > 1-1-2 > 6-6-6 > 1-1-1 > 6-5-4 > 3-2-1 > 6-6-5 > 2-2-1', () => {
    const order = [[4, 2, 1], [1, 1, 6], [1, 1, 2], [6, 6, 6], [1, 1, 1], [6, 5, 4], [3, 2, 1], [6, 6, 5], [2, 2, 1]];
    const ranks = order.map((d) => fourTwoOneRank(d));
    for (let i = 1; i < ranks.length; i++) expect(ranks[i - 1]).toBeGreaterThan(ranks[i]!);
    expect(order.map(fourTwoOneCategory)).toEqual(['421', '11x', '11x', 'triple', 'triple', 'ladder', 'ladder', 'other', 'other']);
    expect(fourTwoOneRank([1, 2, 4])).toBe(fourTwoOneRank([4, 2, 1]));
  });
  it('#2 [S] phase 1, pot 11, highest 4-2-1: the lowest takes 10, pot 1', () => {
    const s = rolls(charge(), [4, 2, 1], [6, 6, 5], [2, 2, 1]);
    expect(s.pot).toBe(1);
    expect(counters(s)).toEqual([3, 3, 13]);
    // The taker throws last next round.
    expect(s.order).toEqual([0, 1, 2]);
  });
  it('#3 [S] highest 1-1-5: the lowest takes 5', () => {
    const s = rolls(charge(), [1, 5, 1], [6, 6, 5], [2, 2, 1]);
    expect(counters(s)).toEqual([3, 3, 8]);
    expect(s.pot).toBe(6);
  });
  it('#4 [S] highest 5-5-5: the lowest takes 3', () => {
    const s = rolls(charge(), [2, 2, 1], [5, 5, 5], [6, 6, 5]);
    expect(counters(s)).toEqual([6, 3, 3]);
    expect(s.order).toEqual([1, 2, 0]);
  });
  it('#5 [S] highest 3-4-5: the lowest takes 2', () => {
    const s = rolls(charge(), [3, 4, 5], [2, 2, 1], [6, 6, 5]);
    expect(counters(s)).toEqual([3, 5, 3]);
  });
  it('#6 [S] highest 6-6-5: the lowest takes 1', () => {
    const s = rolls(charge(), [6, 6, 5], [2, 2, 1], [6, 4, 3]);
    expect(counters(s)).toEqual([3, 4, 3]);
    expect(s.pot).toBe(10);
  });
  it('#7 [D] pot 2, highest 6-6-6: the lowest takes 2 and phase 2 begins', () => {
    const s = rolls(withPot(charge(), 2), [6, 6, 6], [2, 2, 1], [6, 4, 3]);
    expect(s.pot).toBe(0);
    expect(s.players[1]!.counters).toBe(5);
    expect(s.phase).toBe('discharge');
    expect(fourTwoOneThrower(s)).toBe(0); // the original starter
  });
  it('#8 [S] phase 2: the leader stops after 1 throw, so every other player gets exactly 1', () => {
    let s = step(step(discharge(), roll(6, 6, 5)), stop);
    expect(s.limit).toBe(1);
    expect(fourTwoOneThrower(s)).toBe(1);
    s = step(s, roll(3, 2, 2));
    // No decision after the only throw: the turn passes at once.
    expect(fourTwoOneThrower(s)).toBe(2);
    expect(fourTwoOne.legalActions(s)).toEqual([]);
    expect(refuse(s, stop).code).toBe('game/not_deciding');
  });
  it('#9 [S] phase 2: the leader used 3 throws, so others may use 1, 2 or 3', () => {
    let s = rolls(discharge(), [6, 6, 5], [6, 6, 3], [6, 5, 3]);
    expect(s.limit).toBe(3);
    s = step(s, roll(2, 2, 1));
    expect(fourTwoOne.legalActions(s)).toContainEqual(stop);
    s = step(s, stop); // Bo: 1 throw
    s = rolls(s, [3, 3, 1], [3, 3, 1]);
    expect(fourTwoOne.legalActions(s)).toContainEqual(stop); // Cy after 2
    s = step(s, roll(5, 5, 5)); // Cy's third throw ends the round
    expect(counters(s)).toEqual([3, 3, 1]);
  });
  it('#10 [S] phase 2: highest 1-1-4 by A with 6 counters: A puts 4 into the pot, keeps 2', () => {
    let t = step(step(discharge({ startingCounters: 6 }), roll(1, 4, 1)), stop);
    t = rolls(t, [3, 2, 2], [5, 3, 2]);
    expect(counters(t)).toEqual([2, 6, 7]);
    expect(t.pot).toBe(4);
    expect(t.order[0]).toBe(1); // next round from A's left
  });
  it('#11 [S] phase 2: highest 4-2-1 by A (6 counters), lowest B: A gives 5 to B, keeps 1', () => {
    let s = step(step(discharge({ startingCounters: 6 }), roll(4, 2, 1)), stop);
    s = rolls(s, [2, 2, 1], [6, 6, 5]);
    expect(counters(s)).toEqual([1, 11, 7]);
    expect(s.pot).toBe(0);
    expect(s.order[0]).toBe(1);
  });
  it('#12 [S] phase 2: A and B both 6-5-4: one die each, the higher pays 2 into the pot', () => {
    let s = step(step(discharge(), roll(6, 5, 4)), stop);
    s = rolls(s, [4, 5, 6], [2, 2, 1]);
    expect(s.rollOff).toEqual({ kind: 'high', contenders: [0, 1], values: [null, null] });
    expect(fourTwoOne.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    s = rolls(s, [3], [3]); // still tied: again
    expect(s.rollOff?.values).toEqual([null, null]);
    s = rolls(s, [2], [5]);
    expect(counters(s)).toEqual([3, 1, 4]);
    expect(s.pot).toBe(2);
  });
  it('#13 [D] phase 2: highest 5-5-5 by A, who has 2 counters: A pays 2 and wins', () => {
    let s = step(step(discharge({ startingCounters: 2 }), roll(5, 5, 5)), stop);
    s = rolls(s, [2, 2, 1], [6, 6, 5]);
    expect(s.phase).toBe('over');
    expect(fourTwoOne.result(s)).toEqual({ winners: [0], scores: [0, 2, 3] });
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/over');
    expect(fourTwoOne.diceRequest(s)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('counterValue by category', () => {
    expect([[4, 2, 1], [1, 1, 6], [2, 2, 2], [2, 3, 4], [6, 6, 5]].map(fourTwoOneValue)).toEqual([null, 6, 3, 2, 1]);
  });
  it('lowestBy pipSum makes 1-1-2 (pips 4) lower than 2-2-1 (pips 5)', () => {
    const byRank = rolls(charge(), [1, 1, 6], [1, 1, 2], [2, 2, 1]);
    expect(counters(byRank)).toEqual([3, 3, 9]);
    const byPips = rolls(charge({ lowestBy: 'pipSum' }), [1, 1, 6], [1, 1, 2], [2, 2, 1]);
    expect(counters(byPips)).toEqual([3, 9, 3]);
  });
  it('startingCounters and potSize set the counters', () => {
    const s = fourTwoOne.setup(PLAYERS, { startingCounters: 0, potSize: 21 });
    expect(counters(s)).toEqual([0, 0, 0]);
    expect(s.pot).toBe(21);
    // Starting at 0, whoever the charge never reached has nothing left: they win at once.
    const t = rolls(fourTwoOne.setup(PLAYERS, { startingCounters: 0, potSize: 1 }), [4, 2, 1], [2, 2, 1], [2, 2, 1], [6, 6, 5], [5, 3, 1], [6, 5, 2]);
    expect(fourTwoOne.result(t)).toEqual({ winners: [0, 2], scores: [0, 1, 0] });
  });
  it('categoryOrder can put triples above 4-2-1', () => {
    expect(fourTwoOneRank([1, 1, 1])).toBeLessThan(fourTwoOneRank([4, 2, 1]));
    expect(fourTwoOneRank([1, 1, 1], 'triple,421,11x,ladder,other')).toBeGreaterThan(fourTwoOneRank([4, 2, 1], 'triple,421,11x,ladder,other'));
    expect(FOUR_TWO_ONE_ORDERS).toHaveLength(120);
    const s = rolls(charge({ categoryOrder: 'triple,421,11x,ladder,other' }), [4, 2, 1], [2, 2, 2], [2, 2, 1]);
    expect(counters(s)).toEqual([3, 3, 6]); // the highest was 2-2-2: 3 counters, not 10
  });
  it('lowTieBreak: a one-die roll-off by default, every tied player takes with allTake', () => {
    let s = rolls(charge(), [6, 6, 6], [2, 2, 1], [1, 2, 2]);
    expect(s.rollOff).toEqual({ kind: 'low', contenders: [1, 2], values: [null, null] });
    s = rolls(s, [4], [2]);
    expect(counters(s)).toEqual([3, 3, 6]);
    const all = rolls(charge({ lowTieBreak: 'allTake' }), [6, 6, 6], [2, 2, 1], [1, 2, 2]);
    expect(counters(all)).toEqual([3, 6, 6]);
    expect(all.pot).toBe(5);
  });
  it('keptDiceFrozen keeps dice set aside before the 2nd throw out of the 3rd', () => {
    let s = step(step(discharge(), roll(1, 5, 3)), hold(0));
    s = step(s, roll(6, 2));
    expect(fourTwoOne.legalActions(s)).toContainEqual({ type: 'release', dice: [0] });
    expect(step(s, { type: 'release', dice: [0] }).held).toEqual([false, false, false]);
    let f = step(step(discharge({ keptDiceFrozen: true }), roll(1, 5, 3)), hold(0));
    expect(step(f, { type: 'release', dice: [0] }).held).toEqual([false, false, false]); // not yet thrown with it aside
    f = step(f, roll(6, 2));
    expect(refuse(f, { type: 'release', dice: [0] }).code).toBe('game/die_frozen');
    expect(fourTwoOne.legalActions(f)).not.toContainEqual({ type: 'release', dice: [0] });
  });
  it('phase2Starter: the original starter or the first thrower of the last charge round', () => {
    const play = (o: Partial<FourTwoOneOptions>) =>
      rolls(charge({ potSize: 2, ...o }), [6, 6, 5], [2, 2, 1], [5, 3, 1], /* Bo took 1; Cy starts */ [6, 6, 5], [5, 3, 1], [3, 2, 2]);
    expect(fourTwoOneThrower(play({}))).toBe(0);
    expect(fourTwoOneThrower(play({ phase2Starter: 'lastRoundStarter' }))).toBe(2);
  });
  it('maxThrows limits the leader', () => {
    let s = rolls(discharge({ maxThrows: 2 }), [6, 6, 5], [6, 3, 2]);
    expect(fourTwoOneThrower(s)).toBe(1);
    expect(s.limit).toBe(2);
    s = rolls(discharge(), [6, 6, 5], [6, 3, 2]);
    expect(fourTwoOneThrower(s)).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('throw-off: everyone throws three dice, the tied re-throw', () => {
    let s = fourTwoOne.setup(PLAYERS);
    expect(fourTwoOne.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    s = rolls(s, [6, 5, 4], [2, 2, 1], [4, 5, 6]);
    expect(s.rollOff).toEqual({ kind: 'starter', contenders: [0, 2], values: [null, null] });
    s = rolls(s, [6, 6, 5], [1, 1, 2]);
    expect(s.starter).toBe(2);
    expect(s.phase).toBe('charge');
    expect(s.order).toEqual([2, 0, 1]);
    expect(fourTwoOne.board(s).status).toBe('cy: throw once (the lowest throw takes from the pot)');
  });

  it('in the discharge, held dice are not thrown and at least one die is', () => {
    let s = step(discharge(), roll(1, 5, 3));
    expect(fourTwoOne.legalActions(s)).toEqual([stop, hold(0), hold(1), hold(2)]);
    s = step(step(s, hold(0)), hold(2));
    expect(fourTwoOne.diceRequest(s)).toEqual({ count: 1, slots: [1], player: 0, secret: false });
    expect(refuse(s, hold(1)).code).toBe('game/must_throw_one');
    expect(fourTwoOne.legalActions(s)).toEqual([stop, { type: 'release', dice: [0] }, { type: 'release', dice: [2] }]);
    s = step(s, roll(4));
    expect(s.dice).toEqual([1, 4, 3]);
  });

  it('refuses bad rolls and actions with their codes', () => {
    let s = fourTwoOne.setup(PLAYERS);
    expect(refuse(s, roll(1, 2)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: 'abc' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 9)).code).toBe('game/bad_die_value');
    expect(refuse(s, stop).code).toBe('game/not_deciding');
    expect(refuse(s, hold(0)).code).toBe('game/not_deciding');
    expect(refuse(s, { type: 'bid' }).code).toBe('game/unknown_action');
    expect(refuse(s, 42).code).toBe('game/unknown_action');
    s = step(discharge(), roll(1, 5, 3));
    expect(refuse(s, hold(3)).code).toBe('game/bad_die_index');
    expect(refuse(s, hold()).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'hold', dice: ['0'] }).code).toBe('game/bad_die_index');
    s = step(s, hold(0));
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    const tie = rolls(charge(), [6, 6, 6], [2, 2, 1], [1, 2, 2]);
    expect(refuse(tie, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
  });

  it('draws counters, the pot and the roll-off on the board', () => {
    const s = rolls(charge(), [6, 6, 6], [2, 2, 1], [1, 2, 2]);
    const b = fourTwoOne.board(fourTwoOne.playerView(s, null));
    if (b.kind !== 'table') throw new Error('421 draws a table');
    expect(b.status).toBe('bo: throw one die to break the tie for lowest');
    expect(b.current).toBe(1);
    expect(b.players.map((p) => p.values.counters)).toEqual([3, 3, 3]);
    expect(b.players.map((p) => p.values.throw)).toEqual(['6-6-6', '2-2-1', '2-2-1']);
    expect(b.panels[0]!.items[0]).toMatchObject({ label: 'Counters in the pot', value: 11 });
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts with the throw-off and the defaults', () => {
    const s = fourTwoOne.setup(PLAYERS);
    expect(s.options).toEqual(FOUR_TWO_ONE_DEFAULT_OPTIONS);
    expect(s.phase).toBe('starter');
    expect(counters(s)).toEqual([3, 3, 3]);
    expect(s.pot).toBe(11);
  });
  it.each([
    [{ lowestBy: 'pips' }, 'lowestBy'],
    [{ startingCounters: -1 }, 'startingCounters'],
    [{ potSize: 0 }, 'potSize'],
    [{ categoryOrder: '421,11x,triple,other,other' }, 'categoryOrder'],
    [{ lowTieBreak: 'none' }, 'lowTieBreak'],
    [{ keptDiceFrozen: 1 }, 'keptDiceFrozen'],
    [{ phase2Starter: 'anyone' }, 'phase2Starter'],
    [{ maxThrows: 0 }, 'maxThrows'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => fourTwoOne.setup(PLAYERS, options as Partial<FourTwoOneOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
  it('takes 3 to 10 players', () => {
    expect(() => fourTwoOne.setup(['ann', 'bo'])).toThrow(/3 to 10/);
    expect(fourTwoOne.setup(Array.from({ length: 10 }, (_, i) => `p${i}`)).players).toHaveLength(10);
  });
});

// ---------------------------------------------------------------------------
// Whole games

/** A cheap check for per-state invariants (expect() is slow over thousands of states). */
function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Counters are conserved; others never throw more often than the leader; the discharge pot never shrinks. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as FourTwoOneState;
  const total = s.players.length * s.options.startingCounters + s.options.potSize;
  must(s.pot + s.players.reduce((n, p) => n + p.counters, 0) === total, 'counters are conserved');
  must(s.players.every((p) => p.counters >= 0), 'no negative counters');
  if (s.phase === 'discharge' && s.turn > 0 && s.limit !== null) must(s.throwsTaken <= s.limit, 'others throw no more than the leader');
  if (previous === null) return;
  const prev = previous as FourTwoOneState;
  if (prev.phase === 'discharge') must(s.pot >= prev.pot, 'the pot only refills in the discharge');
}

describe('whole games', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(fourTwoOne, 300, {}, invariants);
  });
  it('bot games with non-default options keep the contract', () => {
    checkContract(fourTwoOne, 100, { lowestBy: 'pipSum', lowTieBreak: 'allTake', keptDiceFrozen: true, phase2Starter: 'lastRoundStarter', maxThrows: 4, startingCounters: 0, potSize: 21 }, invariants);
  });
  it('a state survives JSON and a hand-made action list replays', () => {
    const actions: FourTwoOneAction[] = [roll(4, 2, 1), roll(2, 2, 1), roll(3, 2, 2), roll(6, 5, 3), roll(6, 5, 2), roll(5, 3, 1), roll(5, 5, 5), stop, roll(2, 2, 1), roll(6, 6, 5)];
    const final = replay(fourTwoOne, PLAYERS, { potSize: 1, startingCounters: 2 }, actions) as FourTwoOneState;
    expect(JSON.parse(JSON.stringify(final))).toEqual(final);
    expect(fourTwoOne.result(final)).toEqual({ winners: [0], scores: [0, 2, 3] });
    const game = playBotGame(fourTwoOne, ['a', 'b', 'c', 'd'], 11);
    expect(replay(fourTwoOne, ['a', 'b', 'c', 'd'], {}, game.actions)).toEqual(game.final);
  });
});
