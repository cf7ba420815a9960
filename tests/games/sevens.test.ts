import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction } from '../../src/games/types.js';
import { DEFAULT_OPTIONS, OPTION_SPECS, removeSevens, sevens, throwCap } from '../../src/games/sevens.js';
import type { SevensAction, SevensOptions, SevensState } from '../../src/games/sevens.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: SevensState, action: SevensAction): SevensState {
  const next = sevens.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: SevensState, action: unknown): InvalidAction {
  const next = sevens.apply(state, action as SevensAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): SevensAction => ({ type: 'roll', values });
const stop: SevensAction = { type: 'stop' };
const NAMES = ['Ann', 'Bob', 'Cid', 'Dee'];

/** A game past the starter throws, Ann (seat 0) starting: she throws a 6, the others a 1. */
function started(n = 2, options: Partial<SevensOptions> = {}): SevensState {
  let s = sevens.setup(NAMES.slice(0, n), options);
  for (let i = 0; i < n; i++) s = step(s, roll(i === 0 ? 6 : 1));
  return s;
}

const throws = (s: SevensState, ...rolls: number[][]) => rolls.reduce((st, r) => step(st, roll(...r)), s);
const PAIRS: Partial<SevensOptions> = { sevenCombos: 'pairsOnly' };

/** Remaining sum after removing sevens. */
const left = (dice: number[], options: Partial<SevensOptions> = {}) => removeSevens(dice, { ...DEFAULT_OPTIONS, ...options }).remaining;

// ---------------------------------------------------------------------------
// Examples to test (spec table)

describe('spec examples', () => {
  it('1 [P] dice-play: 5,2,1,1,1,2 → 5; the four dice left throw 6,1,6,6 → 12; the first player stopped at 2, so others get 2', () => {
    expect(removeSevens([5, 2, 1, 1, 1, 2])).toEqual({ removed: [0, 1], groups: [[5, 2]], remaining: 5 });
    let s = step(started(2), roll(5, 2, 1, 1, 1, 2));
    expect(s.turnScore).toBe(5);
    expect(sevens.diceRequest(s)?.count).toBe(4);
    s = step(s, roll(6, 1, 6, 6));
    expect(s.turnScore).toBe(12);
    s = step(s, stop);
    expect(s.players[0]!.total).toBe(12);
    expect(s.leaderThrows).toBe(2);
    expect(s.current).toBe(1);
    expect(throwCap(s)).toBe(2);
    s = throws(s, [1, 1, 2, 2, 3, 3], [4, 4, 4]);
    expect(s.players[1]!.total).toBe(12); // the second throw was Bob's last
    expect(s.round).toBe(2);
  });

  it('2 [P] dicegamedepot: 6,2,1,1,1,2 → remove 6+1 → 6; re-throw 6,1,6,6 → 12', () => {
    expect(removeSevens([6, 2, 1, 1, 1, 2]).groups).toEqual([[6, 1]]);
    const s = throws(started(), [6, 2, 1, 1, 1, 2]);
    expect(s.turnScore).toBe(6);
    expect(step(s, roll(6, 1, 6, 6)).turnScore).toBe(12);
  });

  it('3 [P] gamerules, pairs: 1,2,4,6,3,3 → 5; re-throw 1,1 → 2; re-throw 6,6 → 12 (final)', () => {
    let s = throws(started(2, PAIRS), [1, 2, 4, 6, 3, 3]);
    expect(s.turnScore).toBe(5);
    expect(removeSevens([1, 2, 4, 6, 3, 3], { ...DEFAULT_OPTIONS, ...PAIRS }).groups).toEqual([[1, 6], [4, 3]]);
    s = step(s, roll(1, 1));
    expect(s.turnScore).toBe(2);
    s = step(s, roll(6, 6));
    expect(s.players[0]!.total).toBe(12); // the third throw ends the turn
    expect(s.current).toBe(1);
  });

  it('4 [P] mathsweek: 2,5,6,1,2,3 → 5; re-throw 4,5 → 9; re-throw 4,3 → 0', () => {
    let s = throws(started(), [2, 5, 6, 1, 2, 3]);
    expect(s.turnScore).toBe(5);
    s = step(s, roll(4, 5));
    expect(s.turnScore).toBe(9);
    s = step(s, roll(4, 3));
    expect(s.players[0]!.turns).toEqual([0]);
  });

  it('5 [D] 1,2,3,4,5,6 all removable → 0 (with maximalCount; the default bestForPlayer removes 1+2+4 and keeps 14)', () => {
    // The spec's example reads as maximal removal; its own default rule
    // (highest remaining sum among removals that leave no seven) gives 14.
    expect(left([1, 2, 3, 4, 5, 6], { removal: 'maximalCount' })).toBe(0);
    expect(left([1, 2, 3, 4, 5, 6], PAIRS)).toBe(0);
    expect(removeSevens([1, 2, 3, 4, 5, 6])).toEqual({ removed: [0, 1, 3], groups: [[1, 2, 4]], remaining: 14 });
    const s = throws(started(2, { removal: 'maximalCount' }), [1, 2, 3, 4, 5, 6]);
    expect(s.players[0]!.turns).toEqual([0]); // nothing left to throw: the turn ends
  });

  it('6 [D] 1,1,1,4,6,2: bestForPlayer removes 1+1+1+4 → 8; maximalCount removes 1+6 and 1+2+4 → 1', () => {
    expect(removeSevens([1, 1, 1, 4, 6, 2]).groups).toEqual([[1, 1, 1, 4]]);
    expect(left([1, 1, 1, 4, 6, 2])).toBe(8);
    const m = removeSevens([1, 1, 1, 4, 6, 2], { ...DEFAULT_OPTIONS, removal: 'maximalCount' });
    expect(m.remaining).toBe(1);
    expect(m.groups.map((g) => [...g].sort()).sort()).toEqual([[1, 2, 4], [1, 6]]);
  });

  it('7 [D] pairs: 5,1,1,6,6,6 → two 6-1 pairs removed → 11', () => {
    expect(left([5, 1, 1, 6, 6, 6], PAIRS)).toBe(11);
  });

  it('8 [D] any, bestForPlayer: 5,1,1,6,6,6 → remove 5+1+1 → 18', () => {
    expect(removeSevens([5, 1, 1, 6, 6, 6])).toEqual({ removed: [0, 1, 2], groups: [[5, 1, 1]], remaining: 18 });
    expect(left([5, 1, 1, 6, 6, 6], { removal: 'maximalCount' })).toBe(11);
  });
});

// ---------------------------------------------------------------------------
// Removal details

describe('removing sevens', () => {
  it('removes nothing when no group adds to 7', () => {
    expect(removeSevens([6, 6, 6, 6, 6, 6])).toEqual({ removed: [], groups: [], remaining: 36 });
    expect(removeSevens([])).toEqual({ removed: [], groups: [], remaining: 0 });
    expect(() => removeSevens([0, 7])).toThrow(RangeError);
  });

  it('never leaves a group adding to 7, and removes only sevens', () => {
    const bad: string[] = [];
    for (let code = 0; code < 6 ** 5; code++) {
      const dice = [0, 1, 2, 3, 4].map((k) => 1 + (Math.floor(code / 6 ** k) % 6));
      for (const removal of ['bestForPlayer', 'maximalCount'] as const) {
        const r = removeSevens(dice, { sevenCombos: 'anySubset', removal });
        const rest = dice.filter((_, i) => !r.removed.includes(i));
        for (let m = 1; m < 1 << rest.length; m++) {
          if (rest.reduce((a, v, i) => a + ((m >> i) & 1 ? v : 0), 0) === 7) bad.push(`${dice.join(',')} ${removal}`);
        }
        if (r.groups.some((g) => g.reduce((a, b) => a + b, 0) !== 7) || r.remaining !== rest.reduce((a, b) => a + b, 0)) bad.push(`${dice.join(',')} groups`);
      }
    }
    expect(bad).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('throwCapFromLeader: false lets everyone throw maxThrows times', () => {
    let s = step(throws(started(2), [6, 6, 6, 6, 6, 6]), stop);
    expect(throwCap(s)).toBe(1);
    s = step(s, roll(3, 3, 3, 3, 3, 3));
    expect(s).toMatchObject({ round: 2, current: 1, throws: 0 }); // Bob's single throw ended his turn and the round
    let free = step(throws(started(2, { throwCapFromLeader: false }), [6, 6, 6, 6, 6, 6]), stop);
    expect(throwCap(free)).toBe(3);
    free = step(free, roll(3, 3, 3, 3, 3, 3));
    expect(free).toMatchObject({ round: 1, current: 1, throws: 1 });
  });

  it('maxThrows sets the first player’s limit', () => {
    const s = throws(started(2, { maxThrows: 1 }), [6, 6, 6, 6, 6, 6]);
    expect(s.current).toBe(1);
    expect(s.players[0]!.total).toBe(36);
    let five = started(2, { maxThrows: 5 });
    five = throws(five, [6, 6, 6, 6, 6, 5], [6, 6, 6, 6, 6, 5], [6, 6, 6, 6, 6, 5], [6, 6, 6, 6, 6, 5]);
    expect(five.current).toBe(0);
    expect(five.throws).toBe(4);
  });

  it('rounds sets the game length; the next round starts left of the last first player', () => {
    let s = started(2, { rounds: 2 });
    s = step(throws(s, [6, 6, 6, 6, 6, 6]), stop);
    s = throws(s, [5, 5, 5, 5, 5, 5]);
    expect(s).toMatchObject({ round: 2, leader: 1, current: 1, leaderThrows: null });
    s = step(throws(s, [4, 4, 4, 4, 4, 4]), stop);
    s = throws(s, [6, 6, 6, 6, 6, 6]);
    expect(s.over).toBe(true);
    expect(sevens.result(s)).toEqual({ winners: [0], scores: [72, 54] });
    const one = throws(step(throws(started(2, { rounds: 1 }), [6, 6, 6, 6, 6, 6]), stop), [5, 5, 5, 5, 5, 5]);
    expect(one.over).toBe(true);
  });

  it('targetScore ends the game at the end of the round it is reached in', () => {
    let s = started(2, { targetScore: 30 });
    s = step(throws(s, [6, 6, 6, 6, 6, 6]), stop); // Ann 36
    expect(s.over).toBe(false);
    s = throws(s, [1, 1, 1, 1, 1, 1]); // Bob finishes the round
    expect(s.over).toBe(true);
    expect(sevens.board(s).status).toBe('Game over: Ann wins with 36');
    let d = started(2, { targetScore: 100 });
    for (let r = 0; r < 11; r++) d = throws(step(throws(d, [1, 1, 1, 1, 1, 1]), stop), [1, 1, 1, 1, 1, 1]);
    expect(d.over).toBe(false); // rounds are ignored while a target is set
    expect(d.round).toBe(12);
  });
});

// ---------------------------------------------------------------------------
// Flow and refusals

describe('turn flow', () => {
  it('chooses the first player with one die each; ties throw again', () => {
    let s = sevens.setup(['Ann', 'Bob', 'Cid']);
    expect(sevens.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    expect(sevens.board(s).status).toBe('Ann: throw one die to choose the first player');
    expect(refuse(s, stop).code).toBe('game/no_turn_yet');
    s = throws(s, [5], [2], [5]);
    expect(s.phase).toBe('starter');
    expect(s.starterCandidates).toEqual([0, 2]);
    expect(sevens.diceRequest(s)?.player).toBe(0);
    s = throws(s, [3], [4]);
    expect(s).toMatchObject({ phase: 'play', leader: 2, current: 2, last: 'Cid starts with a 4' });
    expect(sevens.diceRequest(s)).toEqual({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: 2, secret: false });
    expect(throwCap(s)).toBe(3);
    // The round goes round the table from the starter.
    s = throws(step(throws(s, [6, 6, 6, 6, 6, 6]), stop), [6, 6, 6, 6, 6, 6]);
    expect(s.current).toBe(1);
  });

  it('offers stop only after a throw, and removes sevens from the slots thrown', () => {
    let s = started();
    expect(sevens.legalActions(s)).toEqual([]);
    expect(refuse(s, stop).code).toBe('game/no_throw_yet');
    s = step(s, roll(6, 1, 3, 3, 3, 3));
    expect(sevens.legalActions(s)).toEqual([stop]);
    expect(s.removed).toEqual([true, true, false, false, false, false]);
    s = step(s, roll(3, 4, 2, 2));
    expect(s.removed).toEqual([true, true, true, true, false, false]);
    expect(s.turnScore).toBe(4);
    expect(s.dice).toEqual([6, 1, 3, 4, 2, 2]);
    const b = sevens.board(s);
    expect(b.status).toBe('Ann: stop at 4 or throw 2 dice again (1 left)');
    expect(b.panels.find((p) => p.id === 'sevens')?.items[0]).toMatchObject({ label: '3+4', value: 7, state: 'closed' });
  });

  it('refuses wrong counts, bad values, unknown actions and moves after the end', () => {
    let s = started();
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 9)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/unknown_action');
    expect(refuse(s, undefined).code).toBe('game/unknown_action');
    s = started(2, { rounds: 1, maxThrows: 1 });
    s = throws(s, [6, 6, 6, 6, 6, 6], [6, 6, 6, 6, 6, 6]);
    expect(s.over).toBe(true);
    expect(sevens.result(s)).toEqual({ winners: [0, 1], scores: [36, 36] });
    expect(sevens.diceRequest(s)).toBeNull();
    expect(sevens.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/over');
    expect(sevens.board(s).status).toBe('Game over: Ann and Bob share the win with 36');
  });
});

describe('setup', () => {
  it('starts with the defaults and a starter throw', () => {
    const s = sevens.setup(['a', 'b']);
    expect(s.options).toEqual(DEFAULT_OPTIONS);
    expect(Object.keys(s.options).sort()).toEqual(OPTION_SPECS.map((o) => o.name).sort());
    expect(s.phase).toBe('starter');
  });

  it.each([
    [{ sevenCombos: 'triples' }, 'sevenCombos'],
    [{ removal: 'greedy' }, 'removal'],
    [{ rounds: 0 }, 'rounds'],
    [{ targetScore: null }, 'targetScore'],
    [{ throwCapFromLeader: 1 }, 'throwCapFromLeader'],
    [{ maxThrows: 0 }, 'maxThrows'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => sevens.setup(['a', 'b'], options as unknown as Partial<SevensOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('needs two players', () => {
    expect(() => sevens.setup(['a'])).toThrow(GameSetupError);
  });
});

// ---------------------------------------------------------------------------
// Contract and invariants

type S = SevensState;

function invariants(state: unknown, previous: unknown | null): void {
  const s = state as S;
  for (const p of s.players) {
    if (p.total !== p.turns.reduce((a, b) => a + b, 0) || p.turns.some((t) => t < 0 || t > 36)) throw new Error(`${p.name}: bad turns`);
  }
  const liveSum = s.dice.reduce<number>((a, d, i) => a + (d !== null && !s.removed[i] ? d : 0), 0);
  if (s.phase === 'play' && s.throws > 0 && s.turnScore !== liveSum) throw new Error('turn score is not the dice left');
  if (s.throws > throwCap(s)) throw new Error('too many throws');
  if (previous === null) return;
  const p = previous as S;
  if (s.phase === 'play' && s.current === p.current && s.throws > 0 && p.removed.some((r, i) => r && !s.removed[i])) throw new Error('a removed die came back');
  // Every player gets the same number of turns by the end.
  if (s.over && new Set(s.players.map((x) => x.turns.length)).size !== 1) throw new Error('uneven turns');
}

describe('contract', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(sevens, 300, {}, invariants);
  });

  it('keeps the contract with other options', () => {
    checkContract(sevens, 100, { sevenCombos: 'pairsOnly', removal: 'maximalCount', targetScore: 60, throwCapFromLeader: false, maxThrows: 4 }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions = [roll(6), roll(1), roll(5, 2, 1, 1, 1, 2), roll(6, 1, 6, 6), stop, roll(1, 1, 2, 2, 3, 3)];
    const s = replay(sevens, ['Ann', 'Bob'], {}, actions) as S;
    expect(s.players[0]!.total).toBe(12);
    expect(s.turnScore).toBe(5);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    const game = playBotGame(sevens, ['Ann', 'Bob', 'Cid'], 5);
    expect(replay(sevens, ['Ann', 'Bob', 'Cid'], {}, game.actions)).toEqual(game.final);
  });
});
