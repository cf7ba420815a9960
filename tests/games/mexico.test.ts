import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { MEXICO_DEFAULT_OPTIONS, isMexico, lowestSeats, mexico, throwKey, throwText } from '../../src/games/mexico.js';
import type { MexicoAction, MexicoOptions, MexicoState } from '../../src/games/mexico.js';
import { checkContract, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: MexicoState, action: MexicoAction): MexicoState {
  const next = mexico.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: MexicoState, action: unknown): InvalidAction {
  const next = mexico.apply(state, action as MexicoAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (a: number, b: number): MexicoAction => ({ type: 'roll', values: [a, b] });
const stop: MexicoAction = { type: 'stop' };

/** Each throw in turn, each followed by a stop (one throw per player). */
const throwAndStop = (s: MexicoState, ...throws: Array<[number, number]>): MexicoState => throws.reduce((st, [a, b]) => step(step(st, roll(a, b)), stop), s);

const game = (n: number, options: Partial<MexicoOptions> = {}): MexicoState =>
  mexico.setup(['A', 'B', 'C', 'D', 'E', 'F'].slice(0, n), options);

/** A game whose players start with the given lives (scenario fixture). */
const withLives = (lives: number[], options: Partial<MexicoOptions> = {}): MexicoState => {
  const s = game(lives.length, options);
  return { ...s, players: s.players.map((p, i) => ({ ...p, lives: lives[i] ?? 0 })) };
};

/** The board, which for Mexico is always a table. */
function table(s: MexicoState): TableBoard {
  const b = mexico.board(s);
  if (b.kind !== 'table') throw new Error('Mexico draws a table board');
  return b;
}

const lives = (s: MexicoState): number[] => s.players.map((p) => p.lives);

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] A 5-4, B 2-2, C 6-1, D 4-4: A is lowest and loses 1 life (6 -> 5)', () => {
    const s = throwAndStop(game(4), [5, 4], [2, 2], [6, 1], [4, 4]);
    expect(lives(s)).toEqual([5, 6, 6, 6]);
    expect(s.lastRound).toEqual({ results: [[5, 4], [2, 2], [6, 1], [4, 4]], losers: [0], livesLost: 1 });
    expect(s.round).toBe(2);
  });

  it('#2 [D] A 5-4, B 2-1, C 6-1: a Mexico was thrown, so A loses 2 lives', () => {
    const s = throwAndStop(game(3), [5, 4], [2, 1], [6, 1]);
    expect(lives(s)).toEqual([4, 6, 6]);
    expect(s.lastRound?.livesLost).toBe(2);
  });

  it('#3 [D] A 3-1, B 3-1, C 1-1: A and B tie lowest and both lose 1 (1-1 is a pair)', () => {
    const s = throwAndStop(game(3), [3, 1], [1, 3], [1, 1]);
    expect(lives(s)).toEqual([5, 5, 6]);
    expect(s.lastRound?.losers).toEqual([0, 1]);
  });

  it('#4 [D] A throws 6-6, re-throws 3-2 and stops: the last throw, 3-2, is the result', () => {
    let s = step(step(game(2), roll(6, 6)), roll(3, 2));
    expect(s.players[0]!.last).toEqual([3, 2]);
    s = step(s, stop);
    expect(s.current).toBe(1);
    s = throwAndStop(s, [4, 1]);
    expect(s.lastRound?.results[0]).toEqual([3, 2]);
    expect(lives(s)).toEqual([5, 6]);
  });

  it('#5 [D] ranking: 2-1 > 6-6 > 1-1 > 6-5 > 6-1 > 5-4 > 3-2 > 3-1', () => {
    const order: Array<[number, number]> = [[2, 1], [6, 6], [1, 1], [6, 5], [6, 1], [5, 4], [3, 2], [3, 1]];
    const keys = order.map(throwKey);
    for (let i = 1; i < keys.length; i++) expect(keys[i - 1]!).toBeGreaterThan(keys[i]!);
    expect(throwKey([1, 2])).toBe(throwKey([2, 1]));
    expect(throwKey([4, 5])).toBe(throwKey([5, 4]));
    expect(isMexico([1, 2])).toBe(true);
    expect(throwText([1, 2])).toBe('2-1 Mexico');
    expect(throwText([4, 6])).toBe('6-4');
    expect(lowestSeats([[3, 1], [1, 1], null])).toEqual([0]);
  });

  it('#6 [D] two players left on 1 life both throw 4-2: both go out together, no winner', () => {
    const s = throwAndStop(withLives([1, 1, 0]), [4, 2], [2, 4]);
    expect(s.over).toBe(true);
    expect(mexico.result(s)).toEqual({ winners: [], scores: [0, 0, 0] });
    expect(table(s).status).toMatch(/no winner/);
  });

  it('#7 [D] A on 1 life is lowest in a Mexico round: loses 2, held at 0, out', () => {
    const s = throwAndStop(withLives([1, 3, 3]), [3, 1], [2, 1], [5, 5]);
    expect(lives(s)).toEqual([0, 3, 3]);
    expect(s.over).toBe(false);
    expect(table(s).players[0]!.out).toBe(true);
    // A is out: B starts the next round (left of A) and A never throws again.
    expect(s.current).toBe(1);
    const t = throwAndStop(s, [6, 5], [4, 3]);
    expect(t.lastRound?.results).toEqual([null, [6, 5], [4, 3]]);
    expect(lives(t)).toEqual([0, 3, 2]);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('offers throw and stop after a throw, and ends the turn by itself after the third throw', () => {
    let s = game(2);
    expect(mexico.diceRequest(s)).toEqual({ count: 2, slots: [0, 1], player: 0, secret: false });
    expect(mexico.legalActions(s)).toEqual([]);
    s = step(s, roll(3, 1));
    expect(mexico.legalActions(s)).toEqual([stop]);
    expect(mexico.diceRequest(s)).not.toBeNull();
    s = step(step(s, roll(4, 1)), roll(5, 1));
    expect(s.current).toBe(1);
    expect(s.players[0]).toMatchObject({ last: [5, 1], throws: 3, done: true });
    expect(mexico.diceRequest(s)?.player).toBe(1);
  });

  it('refuses bad throws, a stop before throwing, unknown actions and moves after the end', () => {
    const s = game(2);
    expect(refuse(s, { type: 'roll', values: [3] }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: [3, 7] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [3, 2.5] }).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, stop).code).toBe('game/no_throw_yet');
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/unknown_action');
    expect(refuse(s, null).code).toBe('game/unknown_action');
    expect(refuse(s, 'roll').code).toBe('game/unknown_action');
    const over = throwAndStop(withLives([1, 1]), [4, 2], [5, 2]);
    expect(over.over).toBe(true);
    expect(mexico.result(over)).toEqual({ winners: [1], scores: [0, 1] });
    expect(refuse(over, roll(1, 2)).code).toBe('game/over');
    expect(mexico.diceRequest(over)).toBeNull();
    expect(mexico.legalActions(over)).toEqual([]);
    expect(table(over)).toMatchObject({ current: null, status: 'Game over: B wins' });
  });

  it('shows lives, results and the round on the board', () => {
    const s = step(throwAndStop(game(3), [5, 4]), roll(2, 1));
    const b = table(s);
    expect(b.kind).toBe('table');
    expect(b.status).toBe('B: 2-1 Mexico; throw again (2 left) or stop');
    expect(b.players[0]!.values).toEqual({ lives: 6, result: '5-4', throws: 1 });
    expect(b.dice).toEqual([2, 1]);
    const round = b.panels.find((p) => p.id === 'round')!;
    expect(round.items).toContainEqual(expect.objectContaining({ label: 'Mexico thrown', value: 'yes', state: 'highlight' }));
    expect(round.items).toContainEqual(expect.objectContaining({ label: 'Lowest loses', value: '2 lives' }));
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('throwCapFromLeader: after a leader who stopped at one throw, the next turn ends after one throw', () => {
    const capped = step(throwAndStop(game(3, { throwCapFromLeader: true }), [6, 6]), roll(3, 1));
    expect(capped.current).toBe(2);
    expect(capped.players[1]!.done).toBe(true);
    const free = step(throwAndStop(game(3), [6, 6]), roll(3, 1));
    expect(free.current).toBe(1);
    expect(mexico.diceRequest(free)).not.toBeNull();
  });

  it('nextRoundStarter: left of the previous starter (default), the loser, or the same seat', () => {
    const round = (o: Partial<MexicoOptions>) => throwAndStop(game(3, o), [6, 6], [6, 5], [3, 1]);
    expect(round({}).starter).toBe(1);
    expect(round({ nextRoundStarter: 'loser' }).starter).toBe(2);
    expect(round({ nextRoundStarter: 'sameSeat' }).starter).toBe(0);
    expect(round({ nextRoundStarter: 'loser' }).current).toBe(2);
  });

  it('mexicoCounts finalOnly: a 2-1 that was re-thrown does not double the penalty', () => {
    const play = (o: Partial<MexicoOptions>) => throwAndStop(step(game(2, o), roll(2, 1)), [5, 4], [3, 1]);
    expect(lives(play({}))).toEqual([6, 4]);
    expect(lives(play({ mexicoCounts: 'finalOnly' }))).toEqual([6, 5]);
    // A final 2-1 counts under both readings.
    expect(lives(throwAndStop(game(2, { mexicoCounts: 'finalOnly' }), [1, 2], [3, 1]))).toEqual([6, 4]);
  });

  it('lives and mexicoPenalty set the starting lives and the Mexico penalty', () => {
    const s = throwAndStop(game(2, { lives: 3, mexicoPenalty: 3 }), [2, 1], [6, 5]);
    expect(lives(game(2, { lives: 3 }))).toEqual([3, 3]);
    expect(s.over).toBe(true);
    expect(mexico.result(s)).toEqual({ winners: [0], scores: [3, 0] });
  });

  it('maxThrows: with 1 throw the turn ends at once', () => {
    const s = step(game(2, { maxThrows: 1 }), roll(5, 2));
    expect(s.current).toBe(1);
    expect(step(game(2), roll(5, 2)).current).toBe(0);
  });

  it('setup validates options and players', () => {
    expect(game(2).options).toEqual(MEXICO_DEFAULT_OPTIONS);
    expect(() => mexico.setup(['A'])).toThrow(GameSetupError);
    expect(() => mexico.setup(['A', 'B'], { nextRoundStarter: 'winner' } as unknown as Partial<MexicoOptions>)).toThrow(/nextRoundStarter/);
    expect(() => mexico.setup(['A', 'B'], { lives: 0 })).toThrow(/lives/);
    expect(() => mexico.setup(['A', 'B'], { maxThrow: 2 } as unknown as Partial<MexicoOptions>)).toThrow(/maxThrow/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

type S = MexicoState;

/** Fails with a message (cheaper than expect() on every state of 300 games). */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Lives never rise and stay in 0..lives; players who are out never throw; throws stay within the limit. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as S;
  const p = previous as S | null;
  s.players.forEach((pl, i) => {
    check(pl.lives >= 0 && pl.lives <= s.options.lives, 'lives in range');
    if (p) check(pl.lives <= p.players[i]!.lives, 'lives never rise');
    check(pl.throws <= s.options.maxThrows, 'throws within the limit');
    if (pl.lives === 0 && !s.over) check(pl.throws === 0 && pl.last === null, 'a player who is out does not throw');
  });
  if (p && !p.over) check(p.players[p.current]!.lives > 0, 'the current player is in');
  const req = mexico.diceRequest(s);
  if (req) check(s.players[req.player]!.lives > 0, 'the thrower is in');
}

describe('whole games', () => {
  it('keeps the contract and the invariants over 300 bot games', () => {
    checkContract(mexico, 300, {}, invariants);
  });

  it('keeps the contract with every option changed', () => {
    checkContract(
      mexico,
      100,
      { throwCapFromLeader: true, nextRoundStarter: 'loser', mexicoCounts: 'finalOnly', lives: 2, mexicoPenalty: 3, maxThrows: 2 },
      invariants,
    );
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: MexicoAction[] = [roll(6, 6), roll(3, 2), stop, roll(4, 1), stop, roll(2, 1), stop];
    const s = replay(mexico, ['A', 'B', 'C'], {}, actions) as S;
    expect(lives(s)).toEqual([4, 6, 6]);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(mexico.playerView(s, null)).toBe(s);
  });
});
