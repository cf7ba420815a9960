import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { ACES_IN_THE_POT_DEFAULT_OPTIONS, acesInThePot, payments, survivalChance } from '../../src/games/aces-in-the-pot.js';
import type { AcesInThePotAction, AcesInThePotOptions, AcesInThePotState } from '../../src/games/aces-in-the-pot.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

type S = AcesInThePotState;

function step(state: S, action: AcesInThePotAction): S {
  const next = acesInThePot.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: S, action: unknown): InvalidAction {
  const next = acesInThePot.apply(state, action as AcesInThePotAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (a: number, b: number): AcesInThePotAction => ({ type: 'roll', values: [a, b] });
const game = (options: Partial<AcesInThePotOptions> = {}, n = 3): S => acesInThePot.setup(['Ann', 'Bob', 'Cid', 'Dee'].slice(0, n), options);

/** Scenario fixture: players hold `counters`, the pot holds the rest; Ann (seat 0) throws next. */
function at(counters: number[], options: Partial<AcesInThePotOptions> = {}): S {
  const s = game(options, counters.length);
  const held = counters.reduce((a, b) => a + b, 0);
  return {
    ...s,
    players: s.players.map((p, i) => ({ ...p, counters: counters[i] ?? 0 })),
    pot: s.options.countersPerPlayer * counters.length - held,
    endgame: held === 1,
  };
}

const counters = (s: S): number[] => s.players.map((p) => p.counters);

function table(s: S): TableBoard {
  const b = acesInThePot.board(s);
  if (b.kind !== 'table') throw new Error('Aces in the Pot draws a table board');
  return b;
}

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [D] player has 2, throws 1-4: 1 counter to the pot, player has 1', () => {
    const s = step(game(), roll(1, 4));
    expect(counters(s)).toEqual([1, 2, 2]);
    expect(s.pot).toBe(1);
    expect(s.current).toBe(1);
  });

  it('#2 [D] player has 2, throws 6-6: 2 counters to the left neighbour, player has 0 and is still in', () => {
    const s = step(game(), roll(6, 6));
    expect(counters(s)).toEqual([0, 4, 2]);
    expect(s.pot).toBe(0);
    expect(table(s).players[0]!.out).toBe(false);
  });

  it('#3 [D] player has 2, throws 1-6: 1 to the pot, 1 to the left, player has 0', () => {
    const s = step(game(), roll(1, 6));
    expect(counters(s)).toEqual([0, 3, 2]);
    expect(s.pot).toBe(1);
    expect(table(s).panels[1]!.items[0]!.value).toBe('Ann: 1 to the pot, 1 to the left');
  });

  it('#4 [D] player has 1, throws 1-6: the single counter goes to the pot (default); the 6 is unpaid', () => {
    const s = step(at([1, 2, 2]), roll(6, 1));
    expect(counters(s)).toEqual([0, 2, 2]);
    expect(s.pot).toBe(2);
    expect(payments([1, 6], 1, 5)).toEqual({ toPot: 1, toLeft: 0 });
  });

  it('#5 [D] a player with 0 counters has their turn skipped', () => {
    const s = step(at([2, 0, 2]), roll(3, 2));
    expect(s.current).toBe(2);
    expect(acesInThePot.diceRequest(s)?.player).toBe(2);
    // A 6 from the right gives them a counter and their turns back.
    const t = step(at([2, 0, 2]), roll(6, 3));
    expect(counters(t)).toEqual([1, 1, 2]);
    expect(t.current).toBe(1);
  });

  it('#6 [D] endgame: the holder throws 2-3, 4-5, 1-1 (aces ignored), no 6 in three throws: wins the pot', () => {
    let s = at([1, 0, 0]);
    expect(s.endgame).toBe(true);
    s = step(step(s, roll(2, 3)), roll(4, 5));
    expect(s.survived).toBe(2);
    expect(table(s).status).toBe('Ann: last counter; throw 3 of 3 without a 6');
    s = step(s, roll(1, 1));
    expect(s.over).toBe(true);
    expect(s.pot).toBe(5);
    expect(counters(s)).toEqual([1, 0, 0]);
    expect(acesInThePot.result(s)).toEqual({ winners: [0], scores: [1, 0, 0] });
    expect(table(s).status).toBe('Game over: Ann wins');
  });

  it("#7 [D] endgame: the holder's 2nd throw is 3-6: counter and dice pass left, the neighbour starts a fresh attempt", () => {
    let s = step(at([1, 0, 0]), roll(2, 2));
    s = step(s, roll(3, 6));
    expect(counters(s)).toEqual([0, 1, 0]);
    expect(s.current).toBe(1);
    expect(s.survived).toBe(0);
    expect(acesInThePot.diceRequest(s)?.player).toBe(1);
    s = step(step(s, roll(1, 2)), roll(3, 4));
    expect(s.over).toBe(false);
    expect(step(s, roll(5, 5)).over).toBe(true);
  });

  it('anchor: a holder survives three throws with chance (25/36)^3 = 15625/46656', () => {
    expect(survivalChance(3)).toBeCloseTo(15625 / 46656, 12);
    expect(survivalChance(3)).toBeCloseTo(0.3349, 4);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('starts the endgame the moment exactly one counter is left outside the pot', () => {
    const s = step(at([1, 1, 0]), roll(1, 3));
    expect(s.endgame).toBe(true);
    expect(s.current).toBe(1);
    expect(counters(s)).toEqual([0, 1, 0]);
    expect(s.pot).toBe(5);
  });

  it('never lets the pot take the last counter: 1-1 from the holder of the last two pays one and starts the endgame', () => {
    const s = step(at([2, 0, 0]), roll(1, 1));
    expect(counters(s)).toEqual([1, 0, 0]);
    expect(s.pot).toBe(5);
    expect(s.endgame).toBe(true);
    expect(s.current).toBe(0);
    expect(payments([1, 1], 2, 2)).toEqual({ toPot: 1, toLeft: 0 });
  });

  it('refuses bad throws, unknown actions and moves after the end', () => {
    const s = game();
    expect(refuse(s, { type: 'roll', values: [1, 2, 3] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [1, 0] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'pass' }).code).toBe('game/unknown_action');
    expect(refuse(s, []).code).toBe('game/unknown_action');
    expect(acesInThePot.legalActions(s)).toEqual([]);
    const over = step(at([1, 0, 0], { endgameThrows: 1 }), roll(2, 2));
    expect(refuse(over, roll(2, 2)).code).toBe('game/over');
    expect(acesInThePot.diceRequest(over)).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('oneCounterAceSix neighbourFirst: a 1-6 with one counter passes it left instead', () => {
    const s = step(at([1, 2, 2], { oneCounterAceSix: 'neighbourFirst' }), roll(6, 1));
    expect(counters(s)).toEqual([0, 3, 2]);
    expect(s.pot).toBe(1);
    expect(payments([1, 6], 1, 5, 'neighbourFirst')).toEqual({ toPot: 0, toLeft: 1 });
  });

  it('potsToWin 2: winning a pot deals fresh counters and the next seat starts the next pot', () => {
    let s = step(step(step(at([1, 0, 0], { potsToWin: 2 }), roll(2, 2)), roll(2, 2)), roll(2, 2));
    expect(s.over).toBe(false);
    expect(s.players.map((p) => p.pots)).toEqual([1, 0, 0]);
    expect(counters(s)).toEqual([2, 2, 2]);
    expect(s.pot).toBe(0);
    expect(s.current).toBe(1);
    expect(table(s).panels[0]!.items).toContainEqual(expect.objectContaining({ label: 'Pots to win', value: 2 }));
    s = { ...s, players: s.players.map((p, i) => ({ ...p, counters: i === 0 ? 1 : 0 })), pot: 5, endgame: true, current: 0, survived: 2 };
    s = step(s, roll(3, 3));
    expect(acesInThePot.result(s)).toEqual({ winners: [0], scores: [2, 0, 0] });
  });

  it('countersPerPlayer sets the starting counters', () => {
    expect(counters(game({ countersPerPlayer: 3 }))).toEqual([3, 3, 3]);
  });

  it('endgameThrows 1: one throw without a 6 wins the pot', () => {
    expect(step(at([1, 0, 0], { endgameThrows: 1 }), roll(2, 2)).over).toBe(true);
    expect(step(at([1, 0, 0]), roll(2, 2)).over).toBe(false);
  });

  it('setup validates options and players', () => {
    expect(game().options).toEqual(ACES_IN_THE_POT_DEFAULT_OPTIONS);
    expect(() => acesInThePot.setup(['Ann'])).toThrow(GameSetupError);
    expect(() => game({ potsToWin: 0 })).toThrow(/potsToWin/);
    expect(() => game({ oneCounterAceSix: 'left' } as unknown as Partial<AcesInThePotOptions>)).toThrow(/oneCounterAceSix/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Counters are conserved (players + pot); the endgame runs exactly while one counter is held; the thrower holds counters. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as S;
  const p = previous as S | null;
  const held = s.players.reduce((a, pl) => a + pl.counters, 0);
  check(held + s.pot === s.options.countersPerPlayer * s.players.length, 'counters conserved');
  check(s.players.every((pl) => pl.counters >= 0), 'no negative counters');
  check(s.endgame === (held === 1) || (s.over && held === 1), 'endgame exactly when one counter is held');
  if (!s.over) check(s.players[s.current]!.counters > 0, 'the thrower holds a counter');
  if (s.endgame && !s.over) check(s.survived < s.options.endgameThrows, 'the attempt is not yet won');
  if (p) check(s.players.every((pl, i) => pl.pots >= p.players[i]!.pots), 'pots won never drop');
}

describe('whole games', () => {
  it('keeps the contract and the invariants over 300 bot games', () => {
    checkContract(acesInThePot, 300, {}, invariants);
  });

  it('keeps the contract with every option changed', () => {
    checkContract(acesInThePot, 100, { oneCounterAceSix: 'neighbourFirst', potsToWin: 2, countersPerPlayer: 3, endgameThrows: 2 }, invariants);
  });

  it('plays to the end with the full table of 10 players', () => {
    const players = Array.from({ length: 10 }, (_, i) => `P${i + 1}`);
    for (const seed of [1, 2, 3]) expect(playBotGame(acesInThePot, players, seed, {}, invariants).result.winners).toHaveLength(1);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: AcesInThePotAction[] = [roll(1, 1), roll(6, 2), roll(1, 3), roll(6, 4), roll(2, 2), roll(3, 3)];
    // Ann pays 2; Bob passes 1 to Ann; Ann pays it: Bob holds the last counter, throws a 6 and passes it back; Ann survives twice.
    const s = replay(acesInThePot, ['Ann', 'Bob'], {}, actions) as S;
    expect(s.pot).toBe(3);
    expect(counters(s)).toEqual([1, 0]);
    expect(s.endgame).toBe(true);
    expect(s.survived).toBe(2);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(acesInThePot.playerView(s, null)).toBe(s);
  });
});
