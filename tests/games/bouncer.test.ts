import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { BOUNCER_DEFAULT_OPTIONS, bouncer, exchange } from '../../src/games/bouncer.js';
import type { BouncerAction, BouncerOptions, BouncerState } from '../../src/games/bouncer.js';
import { checkContract, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: BouncerState, action: BouncerAction): BouncerState {
  const next = bouncer.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: BouncerState, action: unknown): InvalidAction {
  const next = bouncer.apply(state, action as BouncerAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (v: number): BouncerAction => ({ type: 'roll', values: [v] });
const game = (options: Partial<BouncerOptions> = {}, n = 3): BouncerState => bouncer.setup(['Ann', 'Bob', 'Cid', 'Dee'].slice(0, n), options);

/**
 * Scenario fixture: players hold `counters`; the previous seat (left of
 * `current`'s right) threw `p` and it is `current`'s turn.
 */
function at(counters: number[], p: number, current: number, options: Partial<BouncerOptions> = {}): BouncerState {
  const s = game(options, counters.length);
  const n = counters.length;
  return {
    ...s,
    players: s.players.map((pl, i) => ({ ...pl, counters: counters[i] ?? 0 })),
    previous: { seat: (current + n - 1) % n, value: p },
    dice: [p],
    current,
  };
}

const counters = (s: BouncerState): number[] => s.players.map((p) => p.counters);

function table(s: BouncerState): TableBoard {
  const b = bouncer.board(s);
  if (b.kind !== 'table') throw new Error('Bouncer draws a table board');
  return b;
}

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] both have 12, previous threw 3, current throws 5: previous gives 2 (10 and 14)', () => {
    const s = step(at([12, 12, 12], 3, 1), roll(5));
    expect(counters(s)).toEqual([10, 14, 12]);
    expect(s.payment).toEqual({ from: 0, to: 1, owed: 2, paid: 2 });
    expect(s.current).toBe(2);
    expect(exchange(0, 3, 1, 5)).toEqual({ from: 0, to: 1, owed: 2 });
  });

  it('#2 [D] both have 12, previous threw 5, current throws 2: current gives 3 (9 and 15)', () => {
    const s = step(at([12, 12, 12], 5, 1), roll(2));
    expect(counters(s)).toEqual([15, 9, 12]);
    expect(exchange(0, 5, 1, 2)).toEqual({ from: 1, to: 0, owed: 3 });
  });

  it('#3 [S] previous threw 4, current throws 4: nothing happens, the turn passes on', () => {
    const s = step(at([12, 12, 12], 4, 1), roll(4));
    expect(counters(s)).toEqual([12, 12, 12]);
    expect(s.payment).toBeNull();
    expect(s.current).toBe(2);
    expect(s.previous).toEqual({ seat: 1, value: 4 });
    expect(exchange(0, 4, 1, 4)).toBeNull();
  });

  it('#4 [S] current has 3, previous threw 6, current throws 3: pays exactly 3, has 0 and stays in', () => {
    const s = step(at([21, 3, 12], 6, 1), roll(3));
    expect(counters(s)).toEqual([24, 0, 12]);
    expect(s.over).toBe(false);
    expect(table(s).players[1]!.out).toBe(false);
    expect(bouncer.diceRequest(s)?.player).toBe(2);
  });

  it('#5 [S][D] current has 2 (A 20, B 14), B threw 6, current throws 2: pays 2 to B, is bounced; A, with most, wins', () => {
    const s = step(at([20, 14, 2], 6, 2), roll(2));
    expect(counters(s)).toEqual([20, 16, 0]);
    expect(s.payment).toEqual({ from: 2, to: 1, owed: 4, paid: 2 });
    expect(s.over).toBe(true);
    expect(s.bounced).toBe(2);
    expect(bouncer.result(s)).toEqual({ winners: [0], scores: [20, 16, 0] });
    const b = table(s);
    expect(b.players[2]!.out).toBe(true);
    expect(b.status).toBe('Game over: Cid is bounced; Ann wins');
    expect(b.panels[1]!.items[0]).toMatchObject({ label: 'Cid to Bob', value: '2 of 4 owed' });
  });

  it('#6 [D] the opening throw of the game (a 1) exchanges nothing', () => {
    const s = step(game(), roll(1));
    expect(counters(s)).toEqual([12, 12, 12]);
    expect(s.payment).toBeNull();
    expect(s.previous).toEqual({ seat: 0, value: 1 });
    expect(s.current).toBe(1);
  });

  it('#7 [D] a player on 0 counters throws 3 against 4: owes 1, has 0, is bounced and the game ends', () => {
    const s = step(at([24, 0, 12], 4, 1), roll(3));
    expect(s.over).toBe(true);
    expect(s.bounced).toBe(1);
    expect(counters(s)).toEqual([24, 0, 12]);
    expect(bouncer.result(s)?.winners).toEqual([0]);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('passes the die left, comparing each throw with the one just before', () => {
    let s = game();
    expect(bouncer.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    expect(table(s).status).toBe('Ann: make the opening throw');
    s = step(step(step(step(s, roll(2)), roll(6)), roll(1)), roll(3));
    // Bob +4 from Ann; Cid pays Bob 5; Ann takes 2 from Cid.
    expect(counters(s)).toEqual([10, 21, 5]);
    expect(s.current).toBe(1);
    expect(table(s).status).toBe("Bob: throw against Ann's 3");
    expect(bouncer.legalActions(s)).toEqual([]);
  });

  it('refuses bad throws, unknown actions and moves after the end', () => {
    const s = game();
    expect(refuse(s, { type: 'roll', values: [1, 2] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [7] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: null }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'stop' }).code).toBe('game/unknown_action');
    expect(refuse(s, 42).code).toBe('game/unknown_action');
    const over = step(at([24, 0, 12], 4, 1), roll(3));
    expect(refuse(over, roll(3)).code).toBe('game/over');
    expect(bouncer.diceRequest(over)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('endTie: a tie for most counters is a shared win by default, no winner with noWinner', () => {
    const shared = step(at([18, 16, 2], 6, 2), roll(1));
    expect(counters(shared)).toEqual([18, 18, 0]);
    expect(bouncer.result(shared)?.winners).toEqual([0, 1]);
    expect(table(shared).status).toBe('Game over: Cid is bounced; Ann and Bob share the win');
    const none = step(at([18, 16, 2], 6, 2, { endTie: 'noWinner' }), roll(1));
    expect(bouncer.result(none)).toEqual({ winners: [], scores: [18, 18, 0] });
  });

  it('countersPerPlayer sets the starting counters', () => {
    const s = step(step(game({ countersPerPlayer: 2 }), roll(6)), roll(1));
    expect(counters(game({ countersPerPlayer: 2 }))).toEqual([2, 2, 2]);
    expect(s.over).toBe(true);
    expect(counters(s)).toEqual([4, 0, 2]);
    // With the default 12 the same throws leave Bob in.
    expect(step(step(game(), roll(6)), roll(1)).over).toBe(false);
  });

  it('firstPlayer names the seat of the opening throw', () => {
    const s = game({ firstPlayer: 2 });
    expect(bouncer.diceRequest(s)?.player).toBe(2);
    const t = step(step(s, roll(2)), roll(5));
    expect(counters(t)).toEqual([15, 12, 9]);
    expect(() => game({ firstPlayer: 3 })).toThrow(GameSetupError);
  });

  it('setup validates options and players', () => {
    expect(game().options).toEqual(BOUNCER_DEFAULT_OPTIONS);
    expect(() => bouncer.setup(['Ann', 'Bob'])).toThrow(/3 to 6 players/);
    expect(() => game({ endTie: 'split' } as unknown as Partial<BouncerOptions>)).toThrow(/endTie/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Counters are conserved and never negative; only the thrower and the previous thrower change. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as BouncerState;
  const p = previous as BouncerState | null;
  check(s.players.reduce((a, pl) => a + pl.counters, 0) === s.options.countersPerPlayer * s.players.length, 'counters conserved');
  check(s.players.every((pl) => pl.counters >= 0), 'no negative counters');
  if (p) {
    const touched = [p.current, p.previous?.seat];
    s.players.forEach((pl, i) => check(touched.includes(i) || pl.counters === p.players[i]!.counters, 'only the two throwers change'));
  }
  check(s.over === (s.bounced !== null), 'the game ends exactly when someone is bounced');
}

describe('whole games', () => {
  it('keeps the contract and the invariants over 300 bot games', () => {
    checkContract(bouncer, 300, {}, invariants);
  });

  it('keeps the contract with every option changed', () => {
    checkContract(bouncer, 100, { endTie: 'noWinner', countersPerPlayer: 3, firstPlayer: 2 }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const s = replay(bouncer, ['Ann', 'Bob', 'Cid'], { countersPerPlayer: 4 }, [roll(3), roll(4), roll(4), roll(2), roll(3)]) as BouncerState;
    // Ann pays 1 to Bob, 2 to Cid, then her last 1 to Bob: she has 0 and stays in.
    expect(s.over).toBe(false);
    expect(counters(s)).toEqual([0, 6, 6]);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(bouncer.playerView(s, null)).toBe(s);
  });
});
