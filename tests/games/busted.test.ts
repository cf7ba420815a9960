import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { BUSTED_DEFAULT_OPTIONS, FIELDS, busted, fillBoard, throwAgainValue, throwOutcome } from '../../src/games/busted.js';
import type { BustedAction, BustedOptions, BustedState } from '../../src/games/busted.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: BustedState, action: BustedAction): BustedState {
  const next = busted.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: BustedState, action: unknown): InvalidAction {
  const next = busted.apply(state, action as BustedAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (a: number, b: number): BustedAction => ({ type: 'roll', values: [a, b] });
const stop: BustedAction = { type: 'stop' };
const game = (options: Partial<BustedOptions> = {}, n = 3): BustedState => busted.setup(['Ann', 'Bob', 'Cid', 'Dee'].slice(0, n), options);

type Fields = Partial<Record<3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11, number>>;
const fieldsOf = (f: Fields): number[] => FIELDS.map((n) => f[n] ?? 0);

/** Scenario fixture: Ann (seat 0, to throw) holds `counters`; the board holds `fields`. */
function at(counters: number, fields: Fields, options: Partial<BustedOptions> = {}): BustedState {
  const s = game(options);
  return { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, counters } : p)), fields: fieldsOf(fields) };
}

const ann = (s: BustedState): number => s.players[0]!.counters;

function table(s: BustedState): TableBoard {
  const b = busted.board(s);
  if (b.kind !== 'table') throw new Error('Busted draws a table board');
  return b;
}

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] field 6 empty, player has 30, throws 4+2: 6 counters on field 6, player 24, turn ends', () => {
    const s = step(at(30, {}), roll(4, 2));
    expect(s.fields).toEqual(fieldsOf({ 6: 6 }));
    expect(ann(s)).toBe(24);
    expect(s.current).toBe(1);
    expect(s.phase).toBe('throw');
  });

  it('#2 [D] field 6 holds 6, player has 24, throws 5+1: takes 6 (30), field 6 empty, may throw again or stop', () => {
    const s = step(at(24, { 6: 6 }), roll(5, 1));
    expect(ann(s)).toBe(30);
    expect(s.fields).toEqual(fieldsOf({}));
    expect(s.current).toBe(0);
    expect(s.phase).toBe('choice');
    expect(busted.legalActions(s)).toEqual([stop]);
    expect(busted.diceRequest(s)).toEqual({ count: 2, slots: [0, 1], player: 0, secret: false });
    expect(table(s).status).toBe('Ann: throw again or stop');
  });

  it('#3 [S] field 7 holds 7, player has 30, throws 3+4: field 7 holds 14, player 23, turn ends', () => {
    const s = step(at(30, { 7: 7 }), roll(3, 4));
    expect(s.fields).toEqual(fieldsOf({ 7: 14 }));
    expect(ann(s)).toBe(23);
    expect(s.current).toBe(1);
  });

  it('#4 [S][D] fields 4:4, 7:14, 9:9, player has 10, throws 12 then a forced 3+5: takes 27 (37), then puts 8 on field 8 (29)', () => {
    let s = step(at(10, { 4: 4, 7: 14, 9: 9 }), roll(6, 6));
    expect(ann(s)).toBe(37);
    expect(s.fields).toEqual(fieldsOf({}));
    expect(s.phase).toBe('forced');
    expect(busted.legalActions(s)).toEqual([]);
    expect(refuse(s, stop).code).toBe('game/forced_throw');
    expect(table(s).status).toBe('Ann: forced throw after a 12');
    s = step(s, roll(3, 5));
    expect(ann(s)).toBe(29);
    expect(s.fields).toEqual(fieldsOf({ 8: 8 }));
    expect(s.current).toBe(1);
  });

  it('#5 [D] board empty, player has 20, throws 1+1 then a forced 6+6: fills 3-6 (18), field 7 gets the last 2, player is out', () => {
    let s = step(at(20, {}), roll(1, 1));
    expect(ann(s)).toBe(20);
    s = step(s, roll(6, 6));
    expect(s.fields).toEqual(fieldsOf({ 3: 3, 4: 4, 5: 5, 6: 6, 7: 2 }));
    expect(ann(s)).toBe(0);
    expect(table(s).players[0]!.out).toBe(true);
    expect(s.current).toBe(1);
    expect(fillBoard(20, true)).toEqual([3, 4, 5, 6, 2, 0, 0, 0, 0]);
    expect(fillBoard(100, true).reduce((a, b) => a + b, 0)).toBe(63);
  });

  it('#6 [S] field 9 empty, player has 5, throws 4+5: puts all 5 on field 9 and is out', () => {
    const s = step(at(5, {}), roll(4, 5));
    expect(s.fields).toEqual(fieldsOf({ 9: 5 }));
    expect(ann(s)).toBe(0);
    // Ann never throws again: after Bob and Cid, Bob comes round.
    const t = step(step(s, roll(1, 2)), roll(1, 3));
    expect(t.current).toBe(1);
  });

  it('#7 [D] field 10 holds 10, player has 3, throws 5+5 and stops: player has 13, turn ends', () => {
    const s = step(step(at(3, { 10: 10 }), roll(5, 5)), stop);
    expect(ann(s)).toBe(13);
    expect(s.current).toBe(1);
    expect(s.phase).toBe('throw');
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('after a take the next throw follows the same rules, and the turn ends on a placement', () => {
    let s = step(at(30, { 6: 6, 8: 8 }), roll(3, 3));
    s = step(s, roll(4, 4));
    expect(ann(s)).toBe(44);
    s = step(s, roll(5, 5));
    expect(ann(s)).toBe(34);
    expect(s.fields).toEqual(fieldsOf({ 10: 10 }));
    expect(s.current).toBe(1);
  });

  it('ends when one player is left, who wins and takes the board', () => {
    let s = at(5, { 9: 4 });
    s = { ...s, players: s.players.map((p, i) => (i === 2 ? { ...p, counters: 0 } : p)) };
    s = step(s, roll(5, 6));
    expect(s.over).toBe(true);
    expect(s.fields).toEqual(fieldsOf({}));
    expect(busted.result(s)).toEqual({ winners: [1], scores: [0, 39, 0] });
    expect(table(s)).toMatchObject({ status: 'Game over: Bob wins', current: null });
    expect(table(s).players.map((p) => p.out)).toEqual([true, false, true]);
    expect(refuse(s, roll(1, 2)).code).toBe('game/over');
    expect(busted.diceRequest(s)).toBeNull();
  });

  it('refuses bad throws, a stop when there is no choice and unknown actions', () => {
    const s = game();
    expect(refuse(s, { type: 'roll', values: [3] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [3, -1] }).code).toBe('game/bad_die_value');
    expect(refuse(s, stop).code).toBe('game/no_choice_now');
    expect(refuse(s, { type: 'take' }).code).toBe('game/unknown_action');
    expect(refuse(s, {}).code).toBe('game/unknown_action');
  });

  it('throwOutcome and the bot: throw again while the board is rich, stop when it is bare', () => {
    expect(throwOutcome(fieldsOf({ 5: 5 }), 10, 5, false)).toEqual({ fields: fieldsOf({}), delta: 5, event: 'took', next: 'choice' });
    expect(throwOutcome(fieldsOf({ 5: 5 }), 10, 5, true).event).toBe('placed');
    expect(throwAgainValue(fieldsOf({}), 30)).toBeLessThan(0);
    expect(throwAgainValue(fieldsOf({ 3: 3, 4: 4, 5: 5, 6: 6, 8: 8, 9: 9, 10: 10, 11: 11 }), 30)).toBeGreaterThan(0);
    const bare = step(at(30, { 6: 6 }), roll(3, 3));
    expect(busted.bot(bare, () => 0)).toEqual(stop);
    const rich = step(at(30, { 6: 6, 5: 5, 8: 8, 9: 9, 4: 4 }), roll(3, 3));
    expect(busted.bot(rich, () => 0)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('countersPerPlayer sets the starting supply', () => {
    expect(game({ countersPerPlayer: 25 }).players.map((p) => p.counters)).toEqual([25, 25, 25]);
    expect(ann(step(game({ countersPerPlayer: 4 }), roll(3, 3)))).toBe(0);
  });

  it('turnEndsAfterSeven off: after a 7 the player may throw again or stop', () => {
    const off = step(at(30, {}, { turnEndsAfterSeven: false }), roll(3, 4));
    expect(off.phase).toBe('choice');
    expect(off.current).toBe(0);
    expect(busted.legalActions(off)).toEqual([stop]);
    expect(step(off, stop).current).toBe(1);
    const on = step(at(30, {}), roll(3, 4));
    expect(on.current).toBe(1);
    // A player whose 7 empties their supply is out either way.
    expect(step(at(5, {}, { turnEndsAfterSeven: false }), roll(3, 4)).current).toBe(1);
  });

  it('fillIncludesSeven off: a second 2 or 12 skips field 7', () => {
    const s = step(step(at(20, {}, { fillIncludesSeven: false }), roll(6, 6)), roll(1, 1));
    expect(s.fields).toEqual(fieldsOf({ 3: 3, 4: 4, 5: 5, 6: 6, 8: 2 }));
    expect(fillBoard(100, false).reduce((a, b) => a + b, 0)).toBe(56);
  });

  it('setup validates options and players', () => {
    expect(game().options).toEqual(BUSTED_DEFAULT_OPTIONS);
    expect(() => busted.setup(['Ann', 'Bob'])).toThrow(GameSetupError);
    expect(busted.setup(Array.from({ length: 10 }, (_, i) => `P${i}`)).players).toHaveLength(10);
    expect(() => game({ countersPerPlayer: 0 })).toThrow(/countersPerPlayer/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Counters are conserved; players at 0 are out and never act again; an unswept field 3-6 or 8-11 holds at most its number. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as BustedState;
  const p = previous as BustedState | null;
  const total = s.players.reduce((a, pl) => a + pl.counters, 0) + s.fields.reduce((a, c) => a + c, 0);
  check(total === s.options.countersPerPlayer * s.players.length, 'counters conserved');
  check(s.players.every((pl) => pl.counters >= 0), 'no negative supply');
  s.fields.forEach((c, i) => check(FIELDS[i] === 7 || c <= FIELDS[i]!, 'fields other than 7 hold at most their number'));
  if (!s.over) check(s.players[s.current]!.counters > 0, 'the current player has counters');
  if (p) s.players.forEach((pl, i) => check(p.players[i]!.counters > 0 || pl.counters === 0 || s.over, 'a player who is out stays out'));
}

describe('whole games', () => {
  it('keeps the contract and the invariants over 300 bot games', () => {
    checkContract(busted, 300, {}, invariants);
  });

  it('keeps the contract with every option changed', () => {
    checkContract(busted, 100, { countersPerPlayer: 12, turnEndsAfterSeven: false, fillIncludesSeven: false }, invariants);
  });

  it('plays to the end with the full table of 10 players', () => {
    const players = Array.from({ length: 10 }, (_, i) => `P${i + 1}`);
    for (const seed of [1, 2, 3]) expect(playBotGame(busted, players, seed, {}, invariants).result.winners).toHaveLength(1);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: BustedAction[] = [roll(2, 4), roll(3, 3), stop, roll(6, 6), roll(2, 2)];
    const s = replay(busted, ['Ann', 'Bob', 'Cid'], {}, actions) as BustedState;
    // Ann puts 6; Bob takes them and stops; Cid sweeps nothing, then puts 4.
    expect(s.players.map((p) => p.counters)).toEqual([24, 36, 26]);
    expect(s.fields).toEqual(fieldsOf({ 4: 4 }));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(busted.playerView(s, 0)).toBe(s);
  });
});
