import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid, type InvalidAction, type TableBoard } from '../../src/games/index.js';
import {
  HAND_ORDER_STRAIGHT_HIGH,
  POKER_DICE_DEFAULT_OPTIONS,
  comparePokerHands,
  describePokerHand,
  pokerDice,
  pokerHand,
  type PokerDiceAction,
  type PokerDiceOptions,
  type PokerDiceState,
} from '../../src/games/poker-dice.js';
import { checkContract, replay } from './harness.js';

function step(state: PokerDiceState, action: PokerDiceAction): PokerDiceState {
  const next = pokerDice.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: PokerDiceState, action: unknown): InvalidAction {
  const next = pokerDice.apply(state, action as PokerDiceAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): PokerDiceAction => ({ type: 'roll', values });
const stand: PokerDiceAction = { type: 'stand' };
const opts = (o: Partial<PokerDiceOptions>): PokerDiceOptions => ({ ...POKER_DICE_DEFAULT_OPTIONS, ...o });

/** A game past the start throws: seat 0 (ann) opens round 1. */
function started(players: string[] = ['ann', 'bo'], options: Partial<PokerDiceOptions> = {}): PokerDiceState {
  let s = pokerDice.setup(players, options);
  s = step(s, roll(6));
  for (let i = 1; i < players.length; i++) s = step(s, roll(2));
  return s;
}

/** Each seat of the hand in turn throws once and stands. */
function playHand(s: PokerDiceState, ...hands: number[][]): PokerDiceState {
  for (const h of hands) {
    s = step(s, roll(...h));
    if (s.throwsTaken > 0) s = step(s, stand);
  }
  return s;
}

describe('spec examples', () => {
  it('#1 3-3-3-3-3 beats 6-6-6-6-2 (five of a kind)', () => {
    expect(comparePokerHands([3, 3, 3, 3, 3], [6, 6, 6, 6, 2])).toBeGreaterThan(0);
    expect(pokerHand([3, 3, 3, 3, 3]).kind).toBe('five');
  });
  it('#2 2-2-2-5-5 beats 1-2-3-4-5 (full house above straight)', () => {
    expect(comparePokerHands([2, 2, 2, 5, 5], [1, 2, 3, 4, 5])).toBeGreaterThan(0);
  });
  it('#3 2-3-4-5-6 beats 1-2-3-4-5 (high straight)', () => {
    expect(comparePokerHands([2, 3, 4, 5, 6], [1, 2, 3, 4, 5])).toBeGreaterThan(0);
  });
  it('#4 1-1-4-4-2 beats 6-6-5-5-3 with aceHigh; loses with aceHigh = false', () => {
    expect(comparePokerHands([1, 1, 4, 4, 2], [6, 6, 5, 5, 3])).toBeGreaterThan(0);
    expect(comparePokerHands([1, 1, 4, 4, 2], [6, 6, 5, 5, 3], opts({ aceHigh: false }))).toBeLessThan(0);
  });
  it('#5 4-4-6-3-2 beats 4-4-6-3-1 with aceHigh = false; loses with aceHigh (kicker ace)', () => {
    expect(comparePokerHands([4, 4, 6, 3, 2], [4, 4, 6, 3, 1], opts({ aceHigh: false }))).toBeGreaterThan(0);
    expect(comparePokerHands([4, 4, 6, 3, 2], [4, 4, 6, 3, 1])).toBeLessThan(0);
  });
  it('#6 5-5-2-3-6 against 5-5-2-3-6 ties, and the tied players replay', () => {
    expect(comparePokerHands([5, 5, 2, 3, 6], [5, 5, 2, 3, 6])).toBe(0);
    let s = started(['ann', 'bo', 'cy']);
    s = playHand(s, [5, 5, 2, 3, 6], [6, 5, 3, 2, 5], [1, 2, 2, 3, 4]);
    expect(s.replay).toBe(true);
    expect(s.round).toBe(1);
    expect(s.order).toEqual([0, 1]);
    expect(s.players.map((p) => p.wins)).toEqual([0, 0, 0]);
    expect(pokerDice.diceRequest(s)?.player).toBe(0);
    s = playHand(s, [2, 2, 3, 4, 6], [3, 3, 3, 4, 6]);
    expect(s.players.map((p) => p.wins)).toEqual([0, 1, 0]);
    expect(s).toMatchObject({ replay: false, round: 2, leader: 1, order: [1, 2, 0] });
  });
});

describe('hand ranking', () => {
  it('classifies every hand kind', () => {
    expect(pokerHand([2, 2, 2, 2, 5]).kind).toBe('four');
    expect(pokerHand([2, 2, 2, 5, 5]).kind).toBe('fullHouse');
    expect(pokerHand([6, 5, 4, 3, 2]).kind).toBe('straight');
    expect(pokerHand([2, 2, 2, 5, 6]).kind).toBe('three');
    expect(pokerHand([2, 2, 5, 5, 6]).kind).toBe('twoPairs');
    expect(pokerHand([2, 2, 4, 5, 6]).kind).toBe('pair');
    expect(pokerHand([1, 2, 3, 4, 6]).kind).toBe('bust');
    expect(() => pokerHand([1, 2, 3])).toThrow(RangeError);
  });

  it('compares the main group, then the rest', () => {
    expect(comparePokerHands([3, 3, 3, 2, 2], [2, 2, 2, 6, 6])).toBeGreaterThan(0);
    expect(comparePokerHands([4, 4, 4, 4, 2], [4, 4, 4, 4, 3])).toBeLessThan(0);
    expect(comparePokerHands([1, 2, 3, 4, 6], [2, 3, 4, 5, 5])).toBeLessThan(0);
    expect(comparePokerHands([1, 3, 4, 5, 6], [1, 2, 4, 5, 6])).toBeGreaterThan(0);
    expect(describePokerHand([5, 2, 5, 2, 2])).toBe('Full house 2-2-2-5-5');
    expect(describePokerHand([1, 4, 4, 6, 3])).toBe('One pair 4-4-1-6-3');
  });
});

describe('options', () => {
  it('handOrder can put the straight above the full house', () => {
    expect(comparePokerHands([1, 2, 3, 4, 5], [2, 2, 2, 5, 5])).toBeLessThan(0);
    expect(comparePokerHands([1, 2, 3, 4, 5], [2, 2, 2, 5, 5], opts({ handOrder: HAND_ORDER_STRAIGHT_HIGH }))).toBeGreaterThan(0);
  });

  it('highStraightBeatsLow = false makes the two straights tie', () => {
    expect(comparePokerHands([2, 3, 4, 5, 6], [1, 2, 3, 4, 5], opts({ highStraightBeatsLow: false }))).toBe(0);
  });

  it('throwCapFromLeader limits later players to the first player\'s throws; off, they get maxThrows', () => {
    let s = started();
    s = step(step(s, roll(2, 2, 3, 4, 6)), stand);
    expect(s.cap).toBe(1);
    expect(pokerDice.diceRequest(s)?.player).toBe(1);
    s = step(s, roll(1, 2, 3, 4, 6));
    // One throw was the cap: bo's hand stands and the round is settled.
    expect(s.round).toBe(2);
    expect(s.players.map((p) => p.wins)).toEqual([1, 0]);

    let free = started(['ann', 'bo'], { throwCapFromLeader: false });
    free = step(step(free, roll(2, 2, 3, 4, 6)), stand);
    free = step(free, roll(1, 2, 3, 4, 6));
    expect(free.round).toBe(1);
    expect(free.throwsTaken).toBe(1);
    expect(pokerDice.diceRequest(free)?.count).toBe(5);
  });

  it('maxThrows changes the throws per hand; the last throw ends the hand', () => {
    let s = started(['ann', 'bo'], { maxThrows: 1 });
    s = step(s, roll(2, 2, 3, 4, 6));
    expect(s.turn).toBe(1);
    let d = started();
    d = step(d, roll(2, 2, 3, 4, 6));
    d = step(d, roll(2, 2, 3, 4, 6));
    expect(d.turn).toBe(0);
    d = step(d, roll(2, 2, 3, 4, 6));
    expect(d.turn).toBe(1);
    expect(d.hands[0]).toEqual([2, 2, 3, 4, 6]);
  });

  it('roundsToWin sets the game length', () => {
    let s = started(['ann', 'bo'], { roundsToWin: 1 });
    s = playHand(s, [3, 3, 3, 3, 3], [2, 2, 4, 5, 6]);
    expect(pokerDice.result(s)).toEqual({ winners: [0], scores: [1, 0] });
    let d = started();
    d = playHand(d, [3, 3, 3, 3, 3], [2, 2, 4, 5, 6]);
    expect(pokerDice.result(d)).toBeNull();
  });

  it("tieRule 'shared' scores the round for every tied player", () => {
    let s = started(['ann', 'bo'], { tieRule: 'shared', roundsToWin: 1 });
    s = playHand(s, [5, 5, 2, 3, 6], [5, 5, 2, 3, 6]);
    expect(pokerDice.result(s)).toEqual({ winners: [0, 1], scores: [1, 1] });
  });
});

describe('turn flow and refusals', () => {
  it('throws one die each to choose the first player, again on a tie for highest', () => {
    let s = pokerDice.setup(['ann', 'bo', 'cy']);
    expect(pokerDice.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    expect(pokerDice.legalActions(s)).toEqual([]);
    expect(refuse(s, stand).code).toBe('game/no_throw_yet');
    expect(refuse(s, roll(1, 2)).code).toBe('game/wrong_dice_count');
    s = step(step(step(s, roll(5)), roll(3)), roll(5));
    expect(s).toMatchObject({ phase: 'start', order: [0, 2], turn: 0 });
    expect(pokerDice.diceRequest(s)?.player).toBe(0);
    s = step(step(s, roll(2)), roll(4));
    expect(s).toMatchObject({ phase: 'hand', leader: 2, order: [2, 0, 1], round: 1 });
    expect(pokerDice.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 2, secret: false });
  });

  it('keeps dice between throws and rolls only the rest', () => {
    let s = started();
    s = step(s, roll(6, 6, 1, 2, 3));
    s = step(s, { type: 'hold', dice: [0, 1] });
    expect(pokerDice.diceRequest(s)).toEqual({ count: 3, slots: [2, 3, 4], player: 0, secret: false });
    s = step(s, roll(6, 4, 4));
    expect(s.dice).toEqual([6, 6, 6, 4, 4]);
    s = step(s, { type: 'release', dice: [1] });
    expect(s.held).toEqual([true, false, false, false, false]);
    const actions = pokerDice.legalActions(s);
    expect(actions).toContainEqual(stand);
    expect(actions).toContainEqual({ type: 'release', dice: [0] });
    expect(actions.some((a) => a.type === 'roll')).toBe(false);
  });

  it('refuses bad values, indices and actions with their codes', () => {
    let s = started();
    expect(refuse(s, roll(1, 2, 3, 4)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: 'x' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 3, 4, 2.5)).code).toBe('game/bad_die_value');
    expect(refuse(s, stand).code).toBe('game/no_throw_yet');
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/no_throw_yet');
    s = step(s, roll(1, 2, 3, 4, 6));
    expect(refuse(s, { type: 'hold', dice: [5] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'hold', dice: [] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'bid' }).code).toBe('game/unknown_action');
    expect(refuse(s, undefined).code).toBe('game/unknown_action');
    s = step(s, { type: 'hold', dice: [0, 1, 2, 3, 4] });
    expect(pokerDice.diceRequest(s)).toBeNull();
    expect(refuse(s, roll()).code).toBe('game/all_dice_held');
    expect(pokerDice.legalActions(s)).toContainEqual(stand);
  });

  it('ends when someone reaches the round wins, then refuses everything', () => {
    let s = started();
    // The opener alternates and always throws the five fours: ann wins rounds 1, 3 and 5.
    for (let r = 0; r < 4; r++) s = playHand(s, [4, 4, 4, 4, 4], [2, 3, 3, 5, 6]);
    expect(pokerDice.result(s)).toBeNull();
    s = playHand(s, [4, 4, 4, 4, 4], [2, 3, 3, 5, 6]);
    expect(s.phase).toBe('over');
    expect(pokerDice.result(s)).toEqual({ winners: [0], scores: [3, 2] });
    expect(refuse(s, roll(1)).code).toBe('game/over');
  });

  it('a winning hand takes the round and the next round opens to the left', () => {
    let s = started(['ann', 'bo', 'cy']);
    s = playHand(s, [2, 2, 3, 4, 6], [1, 1, 3, 4, 6], [6, 6, 3, 4, 2]);
    expect(s.players.map((p) => p.wins)).toEqual([0, 1, 0]);
    expect(s).toMatchObject({ round: 2, leader: 1, order: [1, 2, 0] });
    expect(s.lastHand?.best).toEqual([1]);
    let done = started(['ann', 'bo'], { roundsToWin: 1 });
    done = playHand(done, [4, 4, 4, 4, 4], [2, 3, 3, 5, 6]);
    expect(pokerDice.diceRequest(done)).toBeNull();
    expect(pokerDice.legalActions(done)).toEqual([]);
    expect(refuse(done, roll(1, 2, 3, 4, 5)).code).toBe('game/over');
  });

  it('draws a table board', () => {
    let s = pokerDice.setup(['ann', 'bo']);
    let b = pokerDice.board(pokerDice.playerView(s, null)) as TableBoard;
    expect(b.kind).toBe('table');
    expect(b.status).toBe('ann: throw one die to choose who starts');
    expect(b.panels.map((p) => p.id)).toContain('start');
    s = step(step(s, roll(6)), roll(2));
    s = step(s, roll(5, 5, 5, 2, 2));
    b = pokerDice.board(s) as TableBoard;
    expect(b.status).toBe('ann: keep dice and throw again, or stand');
    s = step(s, stand);
    b = pokerDice.board(s) as TableBoard;
    expect(b.status).toBe('bo: throw for your hand (at most 1 throw)');
    expect(b.players[0]!.values).toEqual({ wins: 0, hand: 'Full house 5-5-5-2-2' });
    expect(b.current).toBe(1);
  });
});

describe('setup', () => {
  it('starts with the start throws and the defaults', () => {
    const s = pokerDice.setup(['ann', 'bo']);
    expect(s.options).toEqual(POKER_DICE_DEFAULT_OPTIONS);
    expect(s).toMatchObject({ game: 'poker-dice', phase: 'start', round: 1, order: [0, 1] });
    expect(Object.keys(s.options).sort()).toEqual(pokerDice.optionSpecs.map((o) => o.name).sort());
  });

  it.each([
    [{ aceHigh: 'yes' }, 'aceHigh'],
    [{ handOrder: 'five,four' }, 'handOrder'],
    [{ highStraightBeatsLow: 0 }, 'highStraightBeatsLow'],
    [{ throwCapFromLeader: null }, 'throwCapFromLeader'],
    [{ maxThrows: 0 }, 'maxThrows'],
    [{ roundsToWin: 0 }, 'roundsToWin'],
    [{ tieRule: 'split' }, 'tieRule'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => pokerDice.setup(['ann', 'bo'], options as Partial<PokerDiceOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('needs two players', () => {
    expect(() => pokerDice.setup(['ann'])).toThrow(/2 to 10 players/);
  });
});

describe('contract and invariants', () => {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(what);
  };
  const totalWins = (s: PokerDiceState) => s.players.reduce((n, p) => n + p.wins, 0);
  const invariants = (state: unknown, previous: unknown) => {
    const s = state as PokerDiceState;
    const p = previous as PokerDiceState | null;
    check(s.players.every((q) => q.wins >= 0 && q.wins <= s.options.roundsToWin), 'wins within 0..roundsToWin');
    if (p) {
      // Round wins never drop, and a settled hand adds one (or one per tied player when shared).
      check(s.players.every((q, i) => q.wins >= p.players[i]!.wins), 'wins never drop');
      const added = totalWins(s) - totalWins(p);
      check(added === 0 || s.round === p.round + 1 || s.phase === 'over', 'wins only change when a round ends');
      if (s.options.tieRule === 'replay') check(added <= 1, 'one round win per round');
      check(s.round >= p.round, 'rounds only advance');
    }
    if (s.phase === 'hand') {
      const seat = s.order[s.turn]!;
      check(s.throwsTaken <= s.options.maxThrows, 'throws within maxThrows');
      if (s.turn > 0 && s.options.throwCapFromLeader) check(s.throwsTaken <= (s.cap ?? 0), 'throws within the leader cap');
      check(s.hands[seat] === null, 'the seat throwing has no final hand yet');
    }
    if (s.phase === 'over') check(s.players.some((q) => q.wins >= s.options.roundsToWin), 'someone reached roundsToWin');
  };

  it('keeps the contract over 300 bot games', () => {
    checkContract(pokerDice, 300, {}, invariants);
  });

  it('keeps the contract with non-default options', () => {
    checkContract(pokerDice, 100, { aceHigh: false, handOrder: HAND_ORDER_STRAIGHT_HIGH, throwCapFromLeader: false, maxThrows: 4, roundsToWin: 2, tieRule: 'shared' }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: PokerDiceAction[] = [roll(3), roll(4), roll(2, 2, 5, 6, 1), { type: 'hold', dice: [0, 1] }, roll(2, 3, 4), stand, roll(6, 6, 1, 3, 4), roll(6, 6, 1, 3, 5)];
    const s = replay(pokerDice, ['ann', 'bo'], {}, actions) as PokerDiceState;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    // bo opened (4 beats 3) with three twos in two throws; ann's pair of sixes used the same two throws.
    expect(s.players.map((p) => p.wins)).toEqual([0, 1]);
    expect(s).toMatchObject({ round: 2, leader: 0, phase: 'hand' });
    expect(actions.reduce((st, a) => step(st, a), pokerDice.setup(['ann', 'bo']))).toEqual(s);
  });
});
