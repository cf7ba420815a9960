import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { BIG_SIX_DEFAULT_OPTIONS, bigSix, throwEffect } from '../../src/games/big-six.js';
import type { BigSixAction, BigSixOptions, BigSixState } from '../../src/games/big-six.js';
import { checkContract, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: BigSixState, action: BigSixAction): BigSixState {
  const next = bigSix.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: BigSixState, action: unknown): InvalidAction {
  const next = bigSix.apply(state, action as BigSixAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (v: number): BigSixAction => ({ type: 'roll', values: [v] });
const game = (options: Partial<BigSixOptions> = {}, n = 2): BigSixState => bigSix.setup(['Ann', 'Bob', 'Cid', 'Dee'].slice(0, n), options);

/** Scenario fixture: Ann (seat 0, to throw) holds `counters`; the board holds `fields` (1..6). */
function at(counters: number, fields: Partial<Record<1 | 2 | 3 | 4 | 5 | 6, number>>, options: Partial<BigSixOptions> = {}): BigSixState {
  const s = game(options);
  return {
    ...s,
    players: s.players.map((p, i) => (i === 0 ? { ...p, counters } : p)),
    fields: s.fields.map((c, i) => fields[(i + 1) as 1 | 2 | 3 | 4 | 5 | 6] ?? c),
  };
}

function table(s: BigSixState): TableBoard {
  const b = bigSix.board(s);
  if (b.kind !== 'table') throw new Error('Big Six draws a table board');
  return b;
}

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] field 5 empty, player has 5, throws 5: counter placed, player 4, field 5 occupied', () => {
    const s = step(at(5, {}), roll(5));
    expect(s.players[0]!.counters).toBe(4);
    expect(s.fields[4]).toBe(1);
    expect(s.current).toBe(1);
  });

  it('#2 [S] field 5 holds a counter, player has 4, throws 5: player takes it back (5), field 5 empty', () => {
    const s = step(at(4, { 5: 1 }), roll(5));
    expect(s.players[0]!.counters).toBe(5);
    expect(s.fields[4]).toBe(0);
  });

  it('#3 [S] field 6 holds 3, player has 2, throws 6: field 6 holds 4, player 1', () => {
    const s = step(at(2, { 6: 3 }), roll(6));
    expect(s.fields[5]).toBe(4);
    expect(s.players[0]!.counters).toBe(1);
    expect(s.over).toBe(false);
  });

  it('#4 [D] player has 1, field 3 empty, throws 3: player has 0 and wins at once', () => {
    const s = step(at(1, {}), roll(3));
    expect(s.players[0]!.counters).toBe(0);
    expect(s.over).toBe(true);
    expect(bigSix.result(s)).toEqual({ winners: [0], scores: [0, 5] });
    expect(table(s).status).toBe('Game over: Ann wins');
  });

  it('#5 [D] player has 1, field 3 occupied, throws 3: player has 2, field 3 empty, play passes left', () => {
    const s = step(at(1, { 3: 1 }), roll(3));
    expect(s.players[0]!.counters).toBe(2);
    expect(s.fields[2]).toBe(0);
    expect(s.current).toBe(1);
    expect(s.over).toBe(false);
  });

  it('#6 [D] player has 1, throws 6: player has 0 and wins', () => {
    const s = step(at(1, { 6: 7 }), roll(6));
    expect(s.fields[5]).toBe(8);
    expect(bigSix.result(s)?.winners).toEqual([0]);
  });

  it('throwEffect: a 6 always places, a 1-5 places on an empty field and takes from a full one', () => {
    expect(throwEffect([0, 0, 0, 0, 0, 9], 6)).toBe('placed');
    expect(throwEffect([0, 1, 0, 0, 0, 0], 2)).toBe('took');
    expect(throwEffect([0, 1, 0, 0, 0, 0], 3)).toBe('placed');
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('asks one die from the current player, then passes left', () => {
    let s = game({}, 3);
    expect(bigSix.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    expect(bigSix.legalActions(s)).toEqual([]);
    s = step(step(s, roll(2)), roll(4));
    expect(bigSix.diceRequest(s)?.player).toBe(2);
    s = step(s, roll(2));
    expect(s.current).toBe(0);
    expect(s.players.map((p) => p.counters)).toEqual([4, 4, 6]);
    expect(s.fields).toEqual([0, 0, 0, 1, 0, 0]);
    const b = table(s);
    expect(b.panels[0]!.items[3]).toMatchObject({ label: 'Field 4', value: 1, state: 'closed' });
    expect(b.panels[1]!.items[0]!.value).toBe('Cid threw 2: took the counter back');
    expect(b.status).toBe('Ann: throw the die');
  });

  it('refuses bad throws, choices that are not open, unknown actions and moves after the end', () => {
    const s = game();
    expect(refuse(s, { type: 'roll', values: [] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [2, 3] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [0] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: ['6'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'place' }).code).toBe('game/nothing_to_place');
    expect(refuse(s, { type: 'decline' }).code).toBe('game/nothing_to_place');
    expect(refuse(s, { type: 'shut' }).code).toBe('game/unknown_action');
    expect(refuse(s, undefined).code).toBe('game/unknown_action');
    const over = step(at(1, {}), roll(6));
    expect(refuse(over, roll(3)).code).toBe('game/over');
    expect(bigSix.diceRequest(over)).toBeNull();
    expect(bigSix.legalActions(over)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('placeIsOptional: a throw onto an empty field waits for place or decline; declining changes nothing', () => {
    let s = step(game({ placeIsOptional: true }), roll(3));
    expect(s.pending).toBe(3);
    expect(bigSix.diceRequest(s)).toBeNull();
    expect(bigSix.legalActions(s)).toEqual([{ type: 'place' }, { type: 'decline' }]);
    expect(refuse(s, roll(2)).code).toBe('game/no_throw_now');
    expect(table(s).status).toBe('Ann: put a counter on field 3, or decline');
    const declined = step(s, { type: 'decline' });
    expect(declined.players[0]!.counters).toBe(5);
    expect(declined.fields[2]).toBe(0);
    expect(declined.current).toBe(1);
    s = step(s, { type: 'place' });
    expect(s.players[0]!.counters).toBe(4);
    expect(s.fields[2]).toBe(1);
    // A 6 and a take stay automatic.
    expect(step(s, roll(6)).pending).toBeNull();
    expect(step(s, roll(3)).players[1]!.counters).toBe(6);
    // By default the counter goes down at once.
    expect(step(game(), roll(3)).pending).toBeNull();
  });

  it('countersPerPlayer sets the starting supply', () => {
    expect(game({ countersPerPlayer: 2 }).players.map((p) => p.counters)).toEqual([2, 2]);
    const s = step(step(step(game({ countersPerPlayer: 2 }), roll(6)), roll(1)), roll(6));
    expect(bigSix.result(s)).toEqual({ winners: [0], scores: [0, 1] });
  });

  it('firstPlayer names the seat that throws first', () => {
    const s = game({ firstPlayer: 2 }, 3);
    expect(s.current).toBe(2);
    expect(bigSix.diceRequest(s)?.player).toBe(2);
    expect(step(s, roll(1)).current).toBe(0);
    expect(() => game({ firstPlayer: 3 }, 3)).toThrow(GameSetupError);
    expect(() => game({ firstPlayer: 3 }, 3)).toThrow(/firstPlayer/);
  });

  it('setup validates options and players', () => {
    expect(game().options).toEqual(BIG_SIX_DEFAULT_OPTIONS);
    expect(() => bigSix.setup(['Ann'])).toThrow(GameSetupError);
    expect(() => game({ countersPerPlayer: 0 })).toThrow(/countersPerPlayer/);
    expect(() => game({ placeIsOptional: 'yes' } as unknown as Partial<BigSixOptions>)).toThrow(/placeIsOptional/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Counters are conserved, fields 1-5 hold 0 or 1, field 6 never shrinks, supplies never go negative. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as BigSixState;
  const p = previous as BigSixState | null;
  const total = s.players.reduce((a, pl) => a + pl.counters, 0) + s.fields.reduce((a, c) => a + c, 0);
  check(total === s.options.countersPerPlayer * s.players.length, 'counters conserved');
  check(s.fields.slice(0, 5).every((c) => c === 0 || c === 1), 'fields 1-5 hold 0 or 1');
  check(s.players.every((pl) => pl.counters >= 0), 'no negative supply');
  if (p) check(s.fields[5]! >= p.fields[5]!, 'field 6 never shrinks');
  if (p) s.players.forEach((pl, i) => check(i === p.current || pl.counters === p.players[i]!.counters, 'only the thrower changes'));
  if (s.over) check(s.players[s.current]!.counters === 0, 'the winner has no counters');
}

describe('whole games', () => {
  it('keeps the contract and the invariants over 300 bot games', () => {
    checkContract(bigSix, 300, {}, invariants);
  });

  it('keeps the contract with every option changed', () => {
    checkContract(bigSix, 100, { placeIsOptional: true, countersPerPlayer: 3, firstPlayer: 1 }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: BigSixAction[] = [roll(4), { type: 'place' }, roll(4), roll(6), roll(2)];
    expect(isInvalid(bigSix.apply(game(), { type: 'place' }))).toBe(true);
    const s = replay(bigSix, ['Ann', 'Bob'], { placeIsOptional: true }, actions) as BigSixState;
    expect(s.players.map((p) => p.counters)).toEqual([3, 6]);
    expect(s.fields).toEqual([0, 0, 0, 0, 0, 1]);
    expect(s.pending).toBe(2);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(bigSix.playerView(s, 1)).toBe(s);
  });
});
