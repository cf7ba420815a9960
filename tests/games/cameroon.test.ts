import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid, type InvalidAction, type ScorecardBoard } from '../../src/games/index.js';
import {
  CAMEROON_CATEGORIES,
  CAMEROON_DEFAULT_OPTIONS,
  cameroon,
  cameroonChoices,
  cameroonScore,
  cameroonTotals,
  type CameroonAction,
  type CameroonCategory,
  type CameroonOptions,
  type CameroonState,
} from '../../src/games/cameroon.js';
import { checkContract, replay } from './harness.js';

function step(state: CameroonState, action: CameroonAction): CameroonState {
  const next = cameroon.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: CameroonState, action: unknown): InvalidAction {
  const next = cameroon.apply(state, action as CameroonAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): CameroonAction => ({ type: 'roll', values });
const score = (category: CameroonCategory): CameroonAction => ({ type: 'score', category });
const french: CameroonOptions = { ...CAMEROON_DEFAULT_OPTIONS, cameroonValues: 'french' };
const scoreable = (s: CameroonState): CameroonCategory[] => cameroon.legalActions(s).flatMap((a) => (a.type === 'score' ? [a.category] : []));

/** Fills every row of every player with the same throw, in card order. */
function playOut(s: CameroonState, dice: number[]): CameroonState {
  while (!s.over) {
    s = step(s, roll(...dice));
    s = step(s, score(scoreable(s)[0]!));
  }
  return s;
}

describe('spec examples', () => {
  it('#1 1-2-3-4-5 scores 21 as Little Cameroon', () => {
    expect(cameroonScore([1, 2, 3, 4, 5], 'littleCameroon')).toBe(21);
  });
  it('#2 2-3-4-5-6 scores 30 as Big Cameroon and 0 as Little Cameroon', () => {
    expect(cameroonScore([2, 3, 4, 5, 6], 'bigCameroon')).toBe(30);
    expect(cameroonScore([2, 3, 4, 5, 6], 'littleCameroon')).toBe(0);
  });
  it('#3 6-6-6-2-2 scores 22 as Full House', () => {
    expect(cameroonScore([6, 6, 6, 2, 2], 'fullHouse')).toBe(22);
  });
  it('#4 3-3-3-3-3 scores 50 as Cameroon, 0 as Full House and 15 as Threes', () => {
    const s = step(cameroon.setup(['ann']), roll(3, 3, 3, 3, 3));
    const choices = cameroonChoices(s);
    expect(choices).toContainEqual({ category: 'cameroon', points: 50 });
    expect(choices).toContainEqual({ category: 'fullHouse', points: 0 });
    expect(choices).toContainEqual({ category: 'threes', points: 15 });
  });
  it('#5 with French values 1-2-3-4-5 scores 15 as Little Cameroon', () => {
    expect(cameroonScore([1, 2, 3, 4, 5], 'littleCameroon', french)).toBe(15);
    let s = step(cameroon.setup(['ann'], { cameroonValues: 'french' }), roll(5, 4, 3, 2, 1));
    s = step(s, score('littleCameroon'));
    expect(s.players[0]!.card.littleCameroon).toBe(15);
  });
});

describe('scoring details', () => {
  it('scores the upper rows and misses', () => {
    expect(cameroonScore([1, 1, 2, 6, 6], 'ones')).toBe(2);
    expect(cameroonScore([1, 1, 2, 6, 6], 'sixes')).toBe(12);
    expect(cameroonScore([1, 1, 2, 6, 6], 'fours')).toBe(0);
    expect(cameroonScore([1, 1, 1, 1, 6], 'fullHouse')).toBe(0);
    expect(cameroonScore([1, 1, 1, 1, 6], 'cameroon')).toBe(0);
    expect(cameroonScore([1, 2, 3, 4, 6], 'littleCameroon')).toBe(0);
    expect(() => cameroonScore([1, 2, 3, 4], 'ones')).toThrow(RangeError);
  });

  it('the maximum card totals 105 + 28 + 21 + 30 + 50 = 234', () => {
    let s = cameroon.setup(['ann']);
    const best: Array<[CameroonCategory, number[]]> = [
      ['ones', [1, 1, 1, 1, 1]],
      ['twos', [2, 2, 2, 2, 2]],
      ['threes', [3, 3, 3, 3, 3]],
      ['fours', [4, 4, 4, 4, 4]],
      ['fives', [5, 5, 5, 5, 5]],
      ['sixes', [6, 6, 6, 6, 6]],
      ['fullHouse', [6, 6, 6, 5, 5]],
      ['littleCameroon', [1, 2, 3, 4, 5]],
      ['bigCameroon', [2, 3, 4, 5, 6]],
      ['cameroon', [2, 2, 2, 2, 2]],
    ];
    for (const [row, dice] of best) s = step(step(s, roll(...dice)), score(row));
    expect(s.over).toBe(true);
    expect(s.round).toBe(10);
    expect(cameroon.result(s)).toEqual({ winners: [0], scores: [234] });
    expect(cameroonTotals(s.players[0]!.card)).toEqual({ upperTotal: 105, lowerTotal: 129, total: 234 });
  });
});

describe('options', () => {
  it('cameroonValues french changes all three fixed values', () => {
    expect(cameroonScore([2, 3, 4, 5, 6], 'bigCameroon', french)).toBe(20);
    expect(cameroonScore([4, 4, 4, 4, 4], 'cameroon', french)).toBe(30);
    expect(cameroonScore([4, 4, 4, 4, 4], 'cameroon')).toBe(50);
  });

  it('fullHouseAllowsFiveOfAKind scores five of a kind as a Full House', () => {
    expect(cameroonScore([3, 3, 3, 3, 3], 'fullHouse')).toBe(0);
    expect(cameroonScore([3, 3, 3, 3, 3], 'fullHouse', { ...CAMEROON_DEFAULT_OPTIONS, fullHouseAllowsFiveOfAKind: true })).toBe(15);
    const s = step(cameroon.setup(['ann'], { fullHouseAllowsFiveOfAKind: true }), roll(3, 3, 3, 3, 3));
    expect(cameroonChoices(s)).toContainEqual({ category: 'fullHouse', points: 15 });
  });
});

describe('turn flow and refusals', () => {
  it('throws five dice, then only those not kept, at most three times', () => {
    let s = cameroon.setup(['ann', 'bo']);
    expect(cameroon.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false });
    s = step(s, roll(1, 2, 3, 6, 6));
    s = step(s, { type: 'hold', dice: [0, 1, 2] });
    expect(cameroon.diceRequest(s)?.slots).toEqual([3, 4]);
    s = step(s, roll(4, 4));
    s = step(s, roll(4, 5));
    expect(s.dice).toEqual([1, 2, 3, 4, 5]);
    expect(cameroon.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1, 1)).code).toBe('game/no_throws_left');
    expect(refuse(s, { type: 'release', dice: [0] }).code).toBe('game/no_throws_left');
    expect(cameroon.legalActions(s).every((a) => a.type === 'score')).toBe(true);
    s = step(s, score('littleCameroon'));
    expect(s).toMatchObject({ current: 1, throwsTaken: 0 });
    expect(s.held).toEqual([false, false, false, false, false]);
  });

  it('refuses bad throws, rows and actions with their codes', () => {
    let s = cameroon.setup(['ann']);
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 9)).code).toBe('game/bad_die_value');
    expect(refuse(s, score('ones')).code).toBe('game/no_throw_yet');
    s = step(s, roll(1, 2, 3, 4, 5));
    expect(refuse(s, score('chance' as CameroonCategory)).code).toBe('game/unknown_category');
    expect(refuse(s, { type: 'hold', dice: [7] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'stand' }).code).toBe('game/unknown_action');
    s = step(step(s, score('ones')), roll(1, 2, 3, 4, 5));
    expect(refuse(s, score('ones')).code).toBe('game/category_filled');
    s = playOut(s, [6, 6, 6, 2, 2]);
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/over');
    expect(cameroon.legalActions(s)).toEqual([]);
  });

  it('shares the win on a tie', () => {
    const s = playOut(cameroon.setup(['ann', 'bo']), [6, 6, 6, 2, 2]);
    const r = cameroon.result(s)!;
    expect(r.winners).toEqual([0, 1]);
    expect(r.scores[0]).toBe(r.scores[1]);
  });

  it('draws a scorecard board', () => {
    const s = step(cameroon.setup(['ann']), roll(2, 3, 4, 5, 6));
    const b = cameroon.board(cameroon.playerView(s, null)) as ScorecardBoard;
    expect(b.kind).toBe('scorecard');
    expect(b.rows.filter((r) => r.kind === 'score').map((r) => r.id)).toEqual(CAMEROON_CATEGORIES);
    expect(b.choices).toContainEqual({ row: 'bigCameroon', points: 30 });
    expect(b.status).toBe('ann: keep dice and throw again, or score a row');
  });
});

describe('setup', () => {
  it('starts with empty cards and the defaults', () => {
    const s = cameroon.setup(['ann']);
    expect(s.options).toEqual(CAMEROON_DEFAULT_OPTIONS);
    expect(s).toMatchObject({ game: 'cameroon', current: 0, round: 1, throwsTaken: 0, over: false });
    expect(Object.keys(s.options).sort()).toEqual(cameroon.optionSpecs.map((o) => o.name).sort());
  });

  it.each([
    [{ cameroonValues: { little: 21, big: 30, five: 50 } }, 'cameroonValues'],
    [{ cameroonValues: 'german' }, 'cameroonValues'],
    [{ fullHouseAllowsFiveOfAKind: 'no' }, 'fullHouseAllowsFiveOfAKind'],
    [{ maxThrows: 2 }, 'maxThrows'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => cameroon.setup(['ann'], options as unknown as Partial<CameroonOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
});

describe('contract and invariants', () => {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(what);
  };
  const filled = (x: CameroonState) => x.players.reduce((n, q) => n + CAMEROON_CATEGORIES.filter((c) => q.card[c] !== null).length, 0);
  const invariants = (state: unknown, previous: unknown) => {
    const s = state as CameroonState;
    const p = previous as CameroonState | null;
    s.players.forEach((player, i) => {
      const t = cameroonTotals(player.card);
      check(t.total === t.upperTotal + t.lowerTotal, 'total is the sum of its parts');
      if (p) for (const c of CAMEROON_CATEGORIES) if (p.players[i]!.card[c] !== null) check(player.card[c] === p.players[i]!.card[c], `row ${c} changed`);
    });
    if (p) check(filled(s) - filled(p) <= 1, 'at most one row filled per step');
    check(s.throwsTaken <= 3 && s.round <= 10, 'three throws a turn, ten rounds');
    if (s.over) check(filled(s) === s.players.length * 10, 'every card is full at the end');
  };

  it('keeps the contract over 300 bot games', () => {
    checkContract(cameroon, 300, {}, invariants);
  });

  it('keeps the contract with non-default options', () => {
    checkContract(cameroon, 60, { cameroonValues: 'french', fullHouseAllowsFiveOfAKind: true }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: CameroonAction[] = [roll(6, 6, 1, 2, 3), { type: 'hold', dice: [0, 1] }, roll(6, 2, 2), score('fullHouse'), roll(3, 3, 3, 3, 3), score('cameroon')];
    const s = replay(cameroon, ['ann', 'bo'], {}, actions) as CameroonState;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.players[0]!.card.fullHouse).toBe(22);
    expect(s.players[1]!.card.cameroon).toBe(50);
    expect(s).toMatchObject({ current: 0, round: 2 });
    expect(actions.reduce((st, a) => step(st, a), cameroon.setup(['ann', 'bo']))).toEqual(s);
  });
});
