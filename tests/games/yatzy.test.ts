import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid, type InvalidAction, type ScorecardBoard } from '../../src/games/index.js';
import {
  YATZY_CATEGORIES,
  YATZY_DEFAULT_OPTIONS,
  yatzy,
  yatzyChoices,
  yatzyScore,
  yatzyTotals,
  type YatzyAction,
  type YatzyCategory,
  type YatzyOptions,
  type YatzyState,
} from '../../src/games/yatzy.js';
import { emptyCardOf } from '../../src/games/yatzy-family-common.js';
import { checkContract, playBotGame, replay } from './harness.js';

function step(state: YatzyState, action: YatzyAction): YatzyState {
  const next = yatzy.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: YatzyState, action: unknown): InvalidAction {
  const next = yatzy.apply(state, action as YatzyAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): YatzyAction => ({ type: 'roll', values });
const score = (category: YatzyCategory): YatzyAction => ({ type: 'score', category });
const cardWith = (rows: Partial<Record<YatzyCategory, number>>) => ({ ...emptyCardOf(YATZY_CATEGORIES), ...rows });
const scoreable = (s: YatzyState): YatzyCategory[] => yatzy.legalActions(s).flatMap((a) => (a.type === 'score' ? [a.category] : []));

/** Fills every row of every player with the same throw, in card order. */
function playOut(s: YatzyState, dice: number[] = [2, 2, 3, 3, 3]): YatzyState {
  while (!s.over) {
    s = step(s, roll(...dice));
    s = step(s, score(scoreable(s)[0]!));
  }
  return s;
}

describe('spec examples', () => {
  it('#1 1-5-5-6-6 scores 22 as Two Pairs', () => {
    expect(yatzyScore([1, 5, 5, 6, 6], 'twoPairs')).toBe(22);
  });
  it('#2 5-5-5-5-1 scores 0 as Two Pairs (pairs must differ)', () => {
    expect(yatzyScore([5, 5, 5, 5, 1], 'twoPairs')).toBe(0);
  });
  it('#3 5-5-5-5-1 scores 0 as Full House', () => {
    expect(yatzyScore([5, 5, 5, 5, 1], 'fullHouse')).toBe(0);
  });
  it('#4 5-5-5-5-5 scores 0 as Full House (five of a kind is not a full house)', () => {
    expect(yatzyScore([5, 5, 5, 5, 5], 'fullHouse')).toBe(0);
  });
  it('#5 3-3-3-4-4 scores 8 as One Pair (the highest pair)', () => {
    expect(yatzyScore([3, 3, 3, 4, 4], 'onePair')).toBe(8);
  });
  it('#6 6-6-6-6-2 scores 18 as Three of a Kind and 24 as Four of a Kind', () => {
    expect(yatzyScore([6, 6, 6, 6, 2], 'threeOfAKind')).toBe(18);
    expect(yatzyScore([6, 6, 6, 6, 2], 'fourOfAKind')).toBe(24);
  });
  it('#7 1-2-3-4-5 scores 15 as Small Straight, 2-3-4-5-6 scores 20 as Large Straight', () => {
    expect(yatzyScore([3, 1, 5, 2, 4], 'smallStraight')).toBe(15);
    expect(yatzyScore([6, 2, 4, 3, 5], 'largeStraight')).toBe(20);
  });
  it('#8 2-3-4-5-6 scores 0 as Small Straight', () => {
    expect(yatzyScore([2, 3, 4, 5, 6], 'smallStraight')).toBe(0);
  });
  it('#9 6-6-6-5-5 scores 28 as Full House', () => {
    expect(yatzyScore([6, 6, 6, 5, 5], 'fullHouse')).toBe(28);
  });
  it('#10 4-4-4-4-4 scores 50 as Yatzy and 20 as Fours', () => {
    let s = step(yatzy.setup(['ann']), roll(4, 4, 4, 4, 4));
    expect(yatzyChoices(s)).toContainEqual({ category: 'yatzy', points: 50 });
    expect(yatzyChoices(s)).toContainEqual({ category: 'fours', points: 20 });
    s = step(s, score('yatzy'));
    expect(s.players[0]!.card.yatzy).toBe(50);
  });
  it('#11 an upper total of 63 earns the 50 bonus, 62 earns nothing', () => {
    const card = cardWith({ ones: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 18 });
    expect(yatzyTotals(card)).toEqual({ upperTotal: 63, upperBonus: 50, lowerTotal: 0, total: 113 });
    expect(yatzyTotals({ ...card, ones: 2 })).toEqual({ upperTotal: 62, upperBonus: 0, lowerTotal: 0, total: 62 });
  });
  it('#12 the maximum card totals 374', () => {
    let s = yatzy.setup(['ann']);
    const best: Array<[YatzyCategory, number[]]> = [
      ['ones', [1, 1, 1, 1, 1]],
      ['twos', [2, 2, 2, 2, 2]],
      ['threes', [3, 3, 3, 3, 3]],
      ['fours', [4, 4, 4, 4, 4]],
      ['fives', [5, 5, 5, 5, 5]],
      ['sixes', [6, 6, 6, 6, 6]],
      ['onePair', [6, 6, 5, 4, 3]],
      ['twoPairs', [6, 6, 5, 5, 4]],
      ['threeOfAKind', [6, 6, 6, 5, 4]],
      ['fourOfAKind', [6, 6, 6, 6, 5]],
      ['smallStraight', [1, 2, 3, 4, 5]],
      ['largeStraight', [2, 3, 4, 5, 6]],
      ['fullHouse', [6, 6, 6, 5, 5]],
      ['chance', [6, 6, 6, 6, 6]],
      ['yatzy', [1, 1, 1, 1, 1]],
    ];
    for (const [row, dice] of best) s = step(step(s, roll(...dice)), score(row));
    expect(s.over).toBe(true);
    expect(yatzy.result(s)).toEqual({ winners: [0], scores: [374] });
  });
});

describe('scoring details', () => {
  it('scores the upper rows, chance and misses', () => {
    expect(yatzyScore([1, 1, 2, 6, 6], 'ones')).toBe(2);
    expect(yatzyScore([1, 1, 2, 6, 6], 'sixes')).toBe(12);
    expect(yatzyScore([1, 1, 2, 6, 6], 'fives')).toBe(0);
    expect(yatzyScore([1, 1, 2, 6, 6], 'chance')).toBe(16);
    expect(yatzyScore([1, 2, 3, 4, 6], 'onePair')).toBe(0);
    expect(yatzyScore([1, 1, 2, 3, 4], 'threeOfAKind')).toBe(0);
    expect(yatzyScore([1, 1, 1, 3, 4], 'fourOfAKind')).toBe(0);
    expect(yatzyScore([1, 1, 1, 1, 4], 'yatzy')).toBe(0);
    expect(yatzyScore([5, 5, 5, 5, 5], 'onePair')).toBe(10);
    expect(yatzyScore([5, 5, 5, 5, 5], 'fourOfAKind')).toBe(20);
    expect(() => yatzyScore([1, 2, 3], 'chance')).toThrow(RangeError);
  });
});

describe('options', () => {
  it('upperBonusThreshold and upperBonus change the bonus', () => {
    const card = cardWith({ ones: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 15 });
    expect(yatzyTotals(card).upperBonus).toBe(0);
    const opts: YatzyOptions = { ...YATZY_DEFAULT_OPTIONS, upperBonusThreshold: 60, upperBonus: 35 };
    expect(yatzyTotals(card, opts)).toMatchObject({ upperTotal: 60, upperBonus: 35, total: 95 });
  });

  it('forcedOrder allows only the first empty row', () => {
    let s = step(yatzy.setup(['ann'], { forcedOrder: true }), roll(6, 6, 6, 6, 6));
    expect(scoreable(s)).toEqual(['ones']);
    expect(refuse(s, score('yatzy')).code).toBe('game/category_not_open');
    s = step(s, score('ones'));
    expect(s.players[0]!.card.ones).toBe(0);
    s = step(s, roll(6, 6, 6, 6, 6));
    expect(scoreable(s)).toEqual(['twos']);
    const free = step(yatzy.setup(['ann']), roll(6, 6, 6, 6, 6));
    expect(scoreable(free)).toEqual(YATZY_CATEGORIES);
  });

  it('maxThrows changes the throws per turn', () => {
    let s = step(yatzy.setup(['ann'], { maxThrows: 1 }), roll(1, 1, 2, 3, 4));
    expect(yatzy.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1, 1, 2, 3, 4)).code).toBe('game/no_throws_left');
    let d = yatzy.setup(['ann']);
    for (let i = 0; i < 3; i++) d = step(d, roll(1, 1, 2, 3, 4));
    expect(refuse(d, roll(1, 1, 2, 3, 4)).code).toBe('game/no_throws_left');
    s = yatzy.setup(['ann'], { maxThrows: 4 });
    for (let i = 0; i < 4; i++) s = step(s, roll(1, 1, 2, 3, 4));
    expect(yatzy.diceRequest(s)).toBeNull();
  });

  it("endTie 'noWinner' leaves a tie without a winner; the default shares it", () => {
    const shared = playOut(yatzy.setup(['ann', 'bo']));
    expect(yatzy.result(shared)!.winners).toEqual([0, 1]);
    const none = playOut(yatzy.setup(['ann', 'bo'], { endTie: 'noWinner' }));
    const r = yatzy.result(none)!;
    expect(r.winners).toEqual([]);
    expect(r.scores[0]).toBe(r.scores[1]);
  });
});

describe('turn flow and refusals', () => {
  it('asks for five dice, then only the dice not kept', () => {
    let s = yatzy.setup(['ann', 'bo']);
    expect(yatzy.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false });
    expect(yatzy.legalActions(s)).toEqual([]);
    s = step(s, roll(6, 6, 2, 3, 4));
    s = step(s, { type: 'hold', dice: [0, 1] });
    expect(yatzy.diceRequest(s)).toEqual({ count: 3, slots: [2, 3, 4], player: 0, secret: false });
    s = step(s, roll(6, 6, 1));
    expect(s.dice).toEqual([6, 6, 6, 6, 1]);
    s = step(s, { type: 'release', dice: [1] });
    expect(yatzy.diceRequest(s)?.slots).toEqual([1, 2, 3, 4]);
  });

  it('refuses bad throws, indices, rows and actions with their codes', () => {
    let s = yatzy.setup(['ann']);
    expect(refuse(s, roll(1, 2, 3, 4)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [1, 2, 3, 4, '5'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, score('chance')).code).toBe('game/no_throw_yet');
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/no_throw_yet');
    s = step(s, roll(1, 2, 3, 4, 5));
    expect(refuse(s, { type: 'hold', dice: [5] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'hold', dice: [] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'release', dice: 'x' }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'score', category: 'poker' }).code).toBe('game/unknown_category');
    expect(refuse(s, { type: 'pass' }).code).toBe('game/unknown_action');
    expect(refuse(s, null).code).toBe('game/unknown_action');
    s = step(s, { type: 'hold', dice: [0, 1, 2, 3, 4] });
    expect(yatzy.diceRequest(s)).toBeNull();
    expect(refuse(s, roll()).code).toBe('game/all_dice_held');
    s = step(s, score('smallStraight'));
    s = step(s, roll(1, 2, 3, 4, 5));
    expect(refuse(s, score('smallStraight')).code).toBe('game/category_filled');
    expect(scoreable(s)).not.toContain('smallStraight');
  });

  it('passes the turn after scoring, clears holds, and refuses moves once over', () => {
    let s = yatzy.setup(['ann', 'bo']);
    s = step(s, roll(1, 1, 1, 2, 3));
    s = step(s, { type: 'hold', dice: [0] });
    s = step(s, score('ones'));
    expect(s).toMatchObject({ current: 1, throwsTaken: 0, round: 1 });
    expect(s.held).toEqual([false, false, false, false, false]);
    expect(s.dice).toEqual([null, null, null, null, null]);
    expect(yatzy.diceRequest(s)?.player).toBe(1);
    s = step(step(s, roll(1, 1, 1, 2, 3)), score('ones'));
    expect(s).toMatchObject({ current: 0, round: 2 });
    s = playOut(s);
    expect(yatzy.diceRequest(s)).toBeNull();
    expect(yatzy.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/over');
    expect(s.round).toBe(15);
  });

  it('lists holds, releases and every open row, never roll', () => {
    let s = step(yatzy.setup(['ann']), roll(3, 3, 2, 5, 1));
    s = step(s, { type: 'hold', dice: [0] });
    const actions = yatzy.legalActions(s);
    expect(actions.some((a) => a.type === 'roll')).toBe(false);
    expect(actions).toContainEqual({ type: 'release', dice: [0] });
    expect(actions).toContainEqual({ type: 'hold', dice: [4] });
    for (const a of actions) expect(isInvalid(yatzy.apply(s, a))).toBe(false);
  });

  it('draws a scorecard board with choices and totals', () => {
    let s = step(yatzy.setup(['ann', 'bo']), roll(6, 6, 6, 5, 5));
    const b = yatzy.board(yatzy.playerView(s, null)) as ScorecardBoard;
    expect(b.kind).toBe('scorecard');
    expect(b.status).toBe('ann: keep dice and throw again, or score a row');
    expect(b.current).toBe(0);
    expect(b.choices).toContainEqual({ row: 'fullHouse', points: 28 });
    expect(b.rows.map((r) => r.id)).toContain('upperBonus');
    s = step(s, score('fullHouse'));
    const after = yatzy.board(s) as ScorecardBoard;
    expect(after.players[0]!.cells).toMatchObject({ fullHouse: 28, total: 28, lowerTotal: 28, upperBonus: 0 });
    expect(after.status).toBe('bo: throw the dice');
    expect(after.choices).toEqual([]);
  });
});

describe('setup', () => {
  it('starts with empty cards and the defaults', () => {
    const s = yatzy.setup(['ann', 'bo']);
    expect(s.options).toEqual(YATZY_DEFAULT_OPTIONS);
    expect(s).toMatchObject({ game: 'yatzy', current: 0, round: 1, throwsTaken: 0, over: false });
    expect(Object.keys(s.options).sort()).toEqual(yatzy.optionSpecs.map((o) => o.name).sort());
  });

  it.each([
    [{ upperBonusThreshold: -1 }, 'upperBonusThreshold'],
    [{ upperBonus: 'x' }, 'upperBonus'],
    [{ forcedOrder: 1 }, 'forcedOrder'],
    [{ maxThrows: 0 }, 'maxThrows'],
    [{ endTie: 'none' }, 'endTie'],
    [{ maxThrow: 2 }, 'maxThrow'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => yatzy.setup(['ann'], options as Partial<YatzyOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('rejects bad player lists', () => {
    expect(() => yatzy.setup([])).toThrow(GameSetupError);
    expect(() => yatzy.setup(['ann', 'ann'])).toThrow(/"ann"/);
  });
});

describe('contract and invariants', () => {
  // Plain throws, not expect(): these run on every state of hundreds of games.
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(what);
  };
  const filled = (x: YatzyState) => x.players.reduce((n, q) => n + YATZY_CATEGORIES.filter((c) => q.card[c] !== null).length, 0);
  const invariants = (state: unknown, previous: unknown) => {
    const s = state as YatzyState;
    const p = previous as YatzyState | null;
    s.players.forEach((player, i) => {
      const t = yatzyTotals(player.card, s.options);
      check(t.total === t.upperTotal + t.upperBonus + t.lowerTotal, 'total is the sum of its parts');
      // Rows are filled once and never change.
      if (p) for (const c of YATZY_CATEGORIES) if (p.players[i]!.card[c] !== null) check(player.card[c] === p.players[i]!.card[c], `row ${c} changed`);
    });
    if (p) check(filled(s) - filled(p) <= 1, 'at most one row filled per step');
    check(s.throwsTaken <= s.options.maxThrows, 'no more throws than allowed');
    if (s.over) check(s.players.every((q) => YATZY_CATEGORIES.every((c) => q.card[c] !== null)), 'every card is full at the end');
  };

  it('keeps the contract over 300 bot games', () => {
    checkContract(yatzy, 300, {}, invariants);
  });

  it('keeps the contract with non-default options', () => {
    checkContract(yatzy, 60, { forcedOrder: true, maxThrows: 2, endTie: 'noWinner', upperBonusThreshold: 40 }, invariants);
  });

  it('bot scores stay within 0..374', () => {
    const game = playBotGame(yatzy, ['a', 'b'], 7);
    for (const x of game.result.scores) expect(x).toBeGreaterThanOrEqual(0);
    for (const x of game.result.scores) expect(x).toBeLessThanOrEqual(374);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: YatzyAction[] = [roll(6, 6, 1, 2, 3), { type: 'hold', dice: [0, 1] }, roll(6, 4, 4), score('sixes'), roll(1, 2, 3, 4, 5), score('smallStraight')];
    const s = replay(yatzy, ['ann', 'bo'], {}, actions) as YatzyState;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.players[0]!.card.sixes).toBe(18);
    expect(s.players[1]!.card.smallStraight).toBe(15);
    expect(s).toMatchObject({ current: 0, round: 2 });
    expect(actions.reduce((st, a) => step(st, a), yatzy.setup(['ann', 'bo']))).toEqual(s);
  });
});
