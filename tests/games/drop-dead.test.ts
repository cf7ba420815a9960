import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction } from '../../src/games/types.js';
import { DEAD_FACE_CHOICES, DEFAULT_OPTIONS, OPTION_SPECS, dropDead, expectedTurnScore, parseDeadFaces, scoreThrow } from '../../src/games/drop-dead.js';
import type { DropDeadAction, DropDeadOptions, DropDeadState } from '../../src/games/drop-dead.js';
import { checkContract, playBotGame, replay, seededRandom } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: DropDeadState, action: DropDeadAction): DropDeadState {
  const next = dropDead.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: DropDeadState, action: unknown): InvalidAction {
  const next = dropDead.apply(state, action as DropDeadAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): DropDeadAction => ({ type: 'roll', values });
const setup = (n = 2, options: Partial<DropDeadOptions> = {}) => dropDead.setup(['Ann', 'Bob', 'Cid'].slice(0, n), options);
const live = (s: DropDeadState) => s.dead.filter((d) => !d).length;

/** Plays the given throws in order. */
const throws = (s: DropDeadState, ...rolls: number[][]) => rolls.reduce((st, r) => step(st, roll(...r)), s);

// ---------------------------------------------------------------------------
// Examples to test (spec table)

describe('spec examples', () => {
  it('1 [D] 5 live, 1-3-4-6-6: +20, throw 5 dice again', () => {
    const s = step(setup(), roll(1, 3, 4, 6, 6));
    expect(s.turnScore).toBe(20);
    expect(dropDead.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false });
  });

  it('2 [D] 5 live, 2-3-5-6-1: scores 0; the 2 and the 5 die, 3 live', () => {
    const s = step(setup(), roll(2, 3, 5, 6, 1));
    expect(s.turnScore).toBe(0);
    expect(s.dead).toEqual([true, false, true, false, false]);
    expect(dropDead.diceRequest(s)?.slots).toEqual([1, 3, 4]);
    expect(scoreThrow([2, 3, 5, 6, 1])).toEqual({ points: 0, dead: [true, false, true, false, false] });
  });

  it('3 [D] 3 live, 5-5-2: scores 0, all dead, the turn ends', () => {
    let s = step(setup(), roll(2, 3, 5, 6, 1));
    expect(live(s)).toBe(3);
    s = step(s, roll(5, 5, 2));
    expect(s.current).toBe(1);
    expect(s.players[0]!.turns).toEqual([0]);
    expect(s.last).toBe('Ann dropped dead with 0');
  });

  it('4 [D] the turn 1-3-4-6-6, 2-3-5-6-1, 4-4-6, 2-1-1, 5-5 scores 34', () => {
    let s = throws(setup(), [1, 3, 4, 6, 6], [2, 3, 5, 6, 1], [4, 4, 6]);
    expect(s.turnScore).toBe(34);
    s = step(s, roll(2, 1, 1));
    expect(live(s)).toBe(2);
    s = step(s, roll(5, 5));
    expect(s.players[0]!.total).toBe(34);
    expect(s.current).toBe(1);
  });

  it('5 [D] 1 live, 3: +3, throw again', () => {
    let s = throws(setup(), [2, 2, 5, 5, 4]);
    expect(s.turnScore).toBe(0);
    s = step(s, roll(3));
    expect(s.turnScore).toBe(3);
    expect(dropDead.diceRequest(s)).toEqual({ count: 1, slots: [4], player: 0, secret: false });
  });

  it('anchor: the expected turn score with 5 dice is 837242/52117, and a million simulated turns agree', () => {
    expect(expectedTurnScore(1)).toBeCloseTo(7, 10);
    expect(expectedTurnScore(2)).toBeCloseTo(11.2, 10);
    expect(expectedTurnScore(3)).toBeCloseTo(1302 / 95, 10);
    expect(expectedTurnScore(4)).toBeCloseTo(3752 / 247, 10);
    expect(expectedTurnScore(5)).toBeCloseTo(837242 / 52117, 10);
    const random = seededRandom(12345);
    let total = 0;
    const turns = 1_000_000;
    for (let t = 0; t < turns; t++) {
      let n = 5;
      while (n > 0) {
        const values = Array.from({ length: n }, () => 1 + Math.floor(random() * 6));
        const { points, dead } = scoreThrow(values);
        total += points;
        n -= dead.filter(Boolean).length;
      }
    }
    expect(Math.abs(total / turns - 837242 / 52117)).toBeLessThan(0.05);
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('rounds sets how many turns each player takes', () => {
    let s = throws(setup(1), [5, 5, 5, 5, 5]);
    expect(s.over).toBe(true);
    s = throws(setup(1, { rounds: 2 }), [5, 5, 5, 5, 5]);
    expect(s).toMatchObject({ over: false, round: 2, current: 0 });
    s = throws(s, [1, 1, 1, 1, 1], [2, 2, 2, 2, 2]);
    expect(s.over).toBe(true);
    expect(s.players[0]!.turns).toEqual([0, 5]);
  });

  it("deadFaces '5' lets 2s score (Stuck in the Mud)", () => {
    const s = step(setup(2, { deadFaces: '5' }), roll(2, 2, 3, 4, 6));
    expect(s.turnScore).toBe(17);
    expect(step(setup(), roll(2, 2, 3, 4, 6)).turnScore).toBe(0);
    expect(parseDeadFaces('5')).toEqual([5]);
    expect(expectedTurnScore(4, [5])).toBeGreaterThan(expectedTurnScore(4));
    expect(DEAD_FACE_CHOICES[0]).toBe('2,5');
    expect(DEAD_FACE_CHOICES).toHaveLength(21);
  });

  it('diceCount sets the dice a turn starts with', () => {
    const s = setup(2, { diceCount: 4 });
    expect(dropDead.diceRequest(s)?.count).toBe(4);
    expect(refuse(s, roll(1, 1, 1, 1, 1)).code).toBe('game/wrong_dice_count');
    expect(step(s, roll(1, 3, 4, 6)).turnScore).toBe(14);
  });

  it('endTie rollOff: tied leaders take extra turns until one scores most', () => {
    let s = setup(3, { endTie: 'rollOff' });
    s = throws(s, [1, 1, 1, 1, 1], [5, 5, 5, 5, 5]); // Ann 5
    s = throws(s, [2, 2, 2, 2, 2]); // Bob 0
    s = throws(s, [1, 1, 1, 1, 1], [5, 5, 5, 5, 5]); // Cid 5
    expect(s.over).toBe(false);
    expect(s.rollOff).toEqual([0, 2]);
    expect(s.current).toBe(0);
    const b = dropDead.board(s);
    if (b.kind !== 'table') throw new Error('expected a table board');
    expect(b.players.map((p) => p.out)).toEqual([false, true, false]);
    s = throws(s, [3, 3, 3, 3, 3], [5, 5, 5, 5, 5]); // Ann 15
    expect(s.current).toBe(2);
    s = throws(s, [3, 3, 3, 3, 3], [5, 5, 5, 5, 5]); // Cid 15: tied again
    expect(s.rollOff).toEqual([0, 2]);
    expect(s.over).toBe(false);
    s = throws(s, [2, 2, 2, 2, 2]); // Ann 0
    s = throws(s, [6, 6, 6, 6, 6], [2, 2, 2, 2, 2]); // Cid 30
    expect(s.over).toBe(true);
    expect(dropDead.result(s)).toEqual({ winners: [2], scores: [5, 0, 5] });
    expect(dropDead.board(s).status).toBe('Game over: Cid wins');
    // By default the same totals share the win.
    let d = setup(3);
    d = throws(d, [1, 1, 1, 1, 1], [5, 5, 5, 5, 5], [2, 2, 2, 2, 2], [1, 1, 1, 1, 1], [5, 5, 5, 5, 5]);
    expect(dropDead.result(d)).toEqual({ winners: [0, 2], scores: [5, 0, 5] });
    expect(dropDead.board(d).status).toBe('Game over: Ann and Cid share the win');
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('always asks for the live dice and offers no other action', () => {
    const s = setup();
    expect(dropDead.legalActions(s)).toEqual([]);
    expect(dropDead.bot(s, () => 0.5)).toBeNull();
    expect(dropDead.board(s).status).toBe('Ann: throw 5 dice, turn score 0');
  });

  it('refuses wrong counts, bad values, unknown actions and moves after the end', () => {
    let s = setup(1);
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: 'x' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 3, 4, 4.5)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'stop' }).code).toBe('game/unknown_action');
    expect(refuse(s, 42).code).toBe('game/unknown_action');
    s = step(s, roll(2, 3, 5, 6, 1));
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/wrong_dice_count');
    s = throws(s, [2, 2, 2]);
    expect(s.over).toBe(true);
    expect(dropDead.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1)).code).toBe('game/over');
    expect(dropDead.result(s)).toEqual({ winners: [0], scores: [0] });
  });

  it('keeps dead dice on the board as set aside', () => {
    const s = step(setup(), roll(2, 3, 5, 6, 1));
    const b = dropDead.board(dropDead.playerView(s, null));
    expect(b.held).toEqual([true, false, true, false, false]);
    expect(b.dice).toEqual([2, 3, 5, 6, 1]);
    expect(b.status).toBe('Ann: throw 3 dice, turn score 0');
  });
});

describe('setup', () => {
  it('starts at 0 with the defaults', () => {
    const s = setup(2);
    expect(s.options).toEqual(DEFAULT_OPTIONS);
    expect(Object.keys(s.options).sort()).toEqual(OPTION_SPECS.map((o) => o.name).sort());
    expect(s.players.map((p) => p.total)).toEqual([0, 0]);
  });

  it.each([
    [{ rounds: 0 }, 'rounds'],
    [{ deadFaces: [2, 5] }, 'deadFaces'],
    [{ deadFaces: '2,3,5' }, 'deadFaces'],
    [{ diceCount: 11 }, 'diceCount'],
    [{ endTie: 'coin' }, 'endTie'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => dropDead.setup(['a'], options as unknown as Partial<DropDeadOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('rejects bad player lists', () => {
    expect(() => dropDead.setup([])).toThrow(GameSetupError);
    expect(() => dropDead.setup(['a', 'a'])).toThrow(GameSetupError);
  });
});

// ---------------------------------------------------------------------------
// Contract and invariants

type S = DropDeadState;

function invariants(state: unknown, previous: unknown | null): void {
  const s = state as S;
  // Totals are the sums of their turns, and the turns are never negative.
  for (const p of s.players) {
    if (p.total !== p.turns.reduce((a, b) => a + b, 0) || p.turns.some((t) => t < 0)) throw new Error(`${p.name}: total is not the sum of turns`);
  }
  if (previous === null) return;
  const p = previous as S;
  const sameTurn = s.current === p.current && s.round === p.round && s.throws > 0;
  if (sameTurn) {
    // Live dice never increase within a turn, and the turn score only grows.
    if (p.dead.some((d, i) => d && !s.dead[i])) throw new Error('a dead die came back');
    if (s.turnScore < p.turnScore) throw new Error('turn score fell');
    const thrown = p.dead.flatMap((d, i) => (d ? [] : [s.dice[i] as number]));
    const faces = parseDeadFaces(s.options.deadFaces);
    const expected = thrown.some((v) => faces.includes(v)) ? 0 : thrown.reduce((a, b) => a + b, 0);
    if (s.turnScore - p.turnScore !== expected) throw new Error('a throw scored the wrong amount');
  }
  s.players.forEach((x, i) => {
    if (x.total < p.players[i]!.total) throw new Error('a total fell');
  });
}

describe('contract', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(dropDead, 300, {}, invariants);
  });

  it('keeps the contract with other options', () => {
    checkContract(dropDead, 100, { rounds: 3, deadFaces: '5', diceCount: 4, endTie: 'rollOff' }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions = [roll(1, 3, 4, 6, 6), roll(2, 3, 5, 6, 1), roll(4, 4, 6), roll(2, 1, 1), roll(5, 5), roll(5, 5, 5, 5, 1), roll(6)];
    const s = replay(dropDead, ['Ann', 'Bob'], {}, actions) as S;
    expect(s.players[0]!.total).toBe(34);
    expect(s.turnScore).toBe(6);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    const game = playBotGame(dropDead, ['Ann', 'Bob'], 99, { rounds: 2 });
    expect(replay(dropDead, ['Ann', 'Bob'], { rounds: 2 }, game.actions)).toEqual(game.final);
  });
});
