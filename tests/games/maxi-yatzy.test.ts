import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid, type InvalidAction, type ScorecardBoard } from '../../src/games/index.js';
import {
  MAXI_CATEGORIES,
  MAXI_DEFAULT_OPTIONS,
  maxiChoices,
  maxiScore,
  maxiThrowLimit,
  maxiTotals,
  maxiYatzy,
  type MaxiCategory,
  type MaxiYatzyAction,
  type MaxiYatzyOptions,
  type MaxiYatzyState,
} from '../../src/games/maxi-yatzy.js';
import { emptyCardOf } from '../../src/games/yatzy-family-common.js';
import { checkContract, replay } from './harness.js';

function step(state: MaxiYatzyState, action: MaxiYatzyAction): MaxiYatzyState {
  const next = maxiYatzy.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: MaxiYatzyState, action: unknown): InvalidAction {
  const next = maxiYatzy.apply(state, action as MaxiYatzyAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): MaxiYatzyAction => ({ type: 'roll', values });
const score = (category: MaxiCategory): MaxiYatzyAction => ({ type: 'score', category });
const cardWith = (rows: Partial<Record<MaxiCategory, number>>) => ({ ...emptyCardOf(MAXI_CATEGORIES), ...rows });
const scoreable = (s: MaxiYatzyState): MaxiCategory[] => maxiYatzy.legalActions(s).flatMap((a) => (a.type === 'score' ? [a.category] : []));
const D = [2, 3, 3, 4, 5, 6];

/** Throws `times` times, then fills the first open row. */
function turn(s: MaxiYatzyState, times = 1, dice: number[] = D): MaxiYatzyState {
  for (let i = 0; i < times; i++) s = step(s, roll(...dice));
  return step(s, score(scoreable(s)[0]!));
}

describe('spec examples', () => {
  it('#1 1-2-3-4-5-6 scores 21 / 15 / 20 as Full / Small / Large Straight', () => {
    expect(maxiScore([1, 2, 3, 4, 5, 6], 'fullStraight')).toBe(21);
    expect(maxiScore([1, 2, 3, 4, 5, 6], 'smallStraight')).toBe(15);
    expect(maxiScore([1, 2, 3, 4, 5, 6], 'largeStraight')).toBe(20);
  });
  it('#2 2-2-2-5-5-5 scores 21 / 19 / 15 as Villa / Full House / 3 of a Kind', () => {
    expect(maxiScore([2, 2, 2, 5, 5, 5], 'villa')).toBe(21);
    expect(maxiScore([2, 2, 2, 5, 5, 5], 'fullHouse')).toBe(19);
    expect(maxiScore([2, 2, 2, 5, 5, 5], 'threeOfAKind')).toBe(15);
  });
  it('#3 4-4-4-4-6-6 scores 28 / 20 as Tower / 2 Pairs', () => {
    expect(maxiScore([4, 4, 4, 4, 6, 6], 'tower')).toBe(28);
    expect(maxiScore([4, 4, 4, 4, 6, 6], 'twoPairs')).toBe(20);
  });
  it('#4 3-3-4-4-6-6 scores 26 as 3 Pairs', () => {
    expect(maxiScore([3, 3, 4, 4, 6, 6], 'threePairs')).toBe(26);
  });
  it('#5 6-6-6-6-6-6 scores 100 / 30 as Maxi Yatzy / 5 of a Kind', () => {
    const s = step(maxiYatzy.setup(['ann']), roll(6, 6, 6, 6, 6, 6));
    expect(maxiChoices(s)).toContainEqual({ category: 'maxiYatzy', points: 100 });
    expect(maxiChoices(s)).toContainEqual({ category: 'fiveOfAKind', points: 30 });
  });
  it('#6 6-6-6-6-6-1 scores 30 / 0 as 5 of a Kind / Full House', () => {
    expect(maxiScore([6, 6, 6, 6, 6, 1], 'fiveOfAKind')).toBe(30);
    expect(maxiScore([6, 6, 6, 6, 6, 1], 'fullHouse')).toBe(0);
  });
  it('#7 a turn that uses 1 throw leaves up to 5 throws for the next', () => {
    let s = turn(maxiYatzy.setup(['ann']), 1);
    expect(s.savedThrows).toEqual([2]);
    expect(maxiThrowLimit(s)).toBe(5);
    for (let i = 0; i < 5; i++) {
      expect(maxiYatzy.diceRequest(s)?.count).toBe(6);
      s = step(s, roll(...D));
    }
    expect(maxiYatzy.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(...D)).code).toBe('game/no_throws_left');
    s = step(s, score('chance'));
    expect(s.savedThrows).toEqual([0]);
  });
  it('#8 an upper total of 84 earns 100; 83 earns nothing', () => {
    const card = cardWith({ ones: 4, twos: 8, threes: 12, fours: 16, fives: 20, sixes: 24 });
    expect(maxiTotals(card)).toEqual({ upperTotal: 84, upperBonus: 100, lowerTotal: 0, total: 184 });
    expect(maxiTotals({ ...card, ones: 3 })).toMatchObject({ upperTotal: 83, upperBonus: 0, total: 83 });
  });
});

describe('scoring details', () => {
  it('scores from the best dice and misses with 0', () => {
    expect(maxiScore([1, 1, 2, 2, 6, 6], 'onePair')).toBe(12);
    expect(maxiScore([1, 1, 2, 2, 6, 6], 'twoPairs')).toBe(16);
    expect(maxiScore([1, 1, 2, 2, 6, 5], 'threePairs')).toBe(0);
    expect(maxiScore([4, 4, 4, 4, 6, 6], 'threePairs')).toBe(0);
    expect(maxiScore([2, 2, 2, 6, 6, 6], 'threeOfAKind')).toBe(18);
    expect(maxiScore([3, 3, 3, 6, 6, 1], 'fullHouse')).toBe(21);
    expect(maxiScore([2, 2, 2, 3, 3, 3], 'tower')).toBe(0);
    expect(maxiScore([4, 4, 4, 4, 6, 6], 'villa')).toBe(0);
    expect(maxiScore([1, 2, 3, 4, 6, 6], 'smallStraight')).toBe(0);
    expect(maxiScore([1, 2, 3, 4, 5, 5], 'fullStraight')).toBe(0);
    expect(maxiScore([1, 1, 1, 1, 1, 2], 'maxiYatzy')).toBe(0);
    expect(maxiScore([1, 1, 1, 1, 1, 2], 'chance')).toBe(7);
    expect(maxiScore([5, 5, 5, 1, 2, 5], 'fives')).toBe(20);
    expect(() => maxiScore([1, 2, 3, 4, 5], 'chance')).toThrow(RangeError);
  });
});

describe('options', () => {
  it('upperBonusThreshold and upperBonus change the bonus (the 75 → 50 tradition)', () => {
    const card = cardWith({ ones: 3, twos: 6, threes: 12, fours: 16, fives: 20, sixes: 18 });
    expect(maxiTotals(card).upperBonus).toBe(0);
    expect(maxiTotals(card, { ...MAXI_DEFAULT_OPTIONS, upperBonusThreshold: 75, upperBonus: 50 })).toMatchObject({ upperTotal: 75, upperBonus: 50, total: 125 });
  });

  it('saveUnusedThrows off gives every turn the same throws', () => {
    let s = turn(maxiYatzy.setup(['ann'], { saveUnusedThrows: false }), 1);
    expect(s.savedThrows).toEqual([0]);
    expect(maxiThrowLimit(s)).toBe(3);
    for (let i = 0; i < 3; i++) s = step(s, roll(...D));
    expect(refuse(s, roll(...D)).code).toBe('game/no_throws_left');
  });

  it('throwsPerTurn changes the throws per turn, and the saving follows it', () => {
    let s = maxiYatzy.setup(['ann'], { throwsPerTurn: 2 });
    s = step(step(s, roll(...D)), roll(...D));
    expect(maxiYatzy.diceRequest(s)).toBeNull();
    s = turn(step(s, score('chance')), 1);
    expect(s.savedThrows).toEqual([1]);
    expect(maxiThrowLimit(s)).toBe(3);
  });
});

describe('turn flow and refusals', () => {
  it('saves throws per player, and spends them', () => {
    let s = maxiYatzy.setup(['ann', 'bo']);
    s = turn(s, 1); // ann saves 2
    s = turn(s, 3); // bo saves 0
    expect(s.savedThrows).toEqual([2, 0]);
    s = turn(s, 4); // ann: 5 allowed, 1 left over
    expect(s.savedThrows).toEqual([1, 0]);
    expect(maxiThrowLimit(s)).toBe(3);
  });

  it('throws six dice, then only those not kept', () => {
    let s = maxiYatzy.setup(['ann']);
    expect(maxiYatzy.diceRequest(s)).toEqual({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: 0, secret: false });
    s = step(s, roll(6, 6, 6, 1, 2, 3));
    s = step(s, { type: 'hold', dice: [0, 1, 2] });
    expect(maxiYatzy.diceRequest(s)?.slots).toEqual([3, 4, 5]);
    s = step(s, roll(6, 6, 2));
    expect(s.dice).toEqual([6, 6, 6, 6, 6, 2]);
    expect(maxiChoices(s)).toContainEqual({ category: 'fiveOfAKind', points: 30 });
  });

  it('refuses bad throws, rows and actions with their codes', () => {
    let s = maxiYatzy.setup(['ann']);
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, score('chance')).code).toBe('game/no_throw_yet');
    s = step(s, roll(...D));
    expect(refuse(s, { type: 'hold', dice: [6] }).code).toBe('game/bad_die_index');
    expect(refuse(s, score('yatzy' as MaxiCategory)).code).toBe('game/unknown_category');
    expect(refuse(s, { type: 'stand' }).code).toBe('game/unknown_action');
    s = step(step(s, score('chance')), roll(...D));
    expect(refuse(s, score('chance')).code).toBe('game/category_filled');
  });

  it('ends after 20 rounds, shares a tie, then refuses everything', () => {
    let s = maxiYatzy.setup(['ann', 'bo']);
    while (!s.over) s = turn(s, 1);
    expect(s.round).toBe(20);
    const r = maxiYatzy.result(s)!;
    expect(r.winners).toEqual([0, 1]);
    expect(r.scores[0]).toBe(r.scores[1]);
    expect(maxiYatzy.diceRequest(s)).toBeNull();
    expect(maxiYatzy.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(...D)).code).toBe('game/over');
  });

  it('draws a scorecard board with the saved throws', () => {
    const s = step(turn(maxiYatzy.setup(['ann']), 1), roll(1, 2, 3, 4, 5, 6));
    const b = maxiYatzy.board(maxiYatzy.playerView(s, null)) as ScorecardBoard;
    expect(b.kind).toBe('scorecard');
    expect(b.rows.filter((r) => r.kind === 'score')).toHaveLength(20);
    expect(b.choices).toContainEqual({ row: 'fullStraight', points: 21 });
    expect(b.panels.find((p) => p.id === 'savedThrows')?.items[0]).toMatchObject({ label: 'ann', value: 2 });
    expect(b.panels.find((p) => p.id === 'turn')?.items[1]).toMatchObject({ label: 'Throw', value: '1 of 5' });
  });
});

describe('setup', () => {
  it('starts with empty cards, no saved throws and the defaults', () => {
    const s = maxiYatzy.setup(['ann', 'bo']);
    expect(s.options).toEqual(MAXI_DEFAULT_OPTIONS);
    expect(s).toMatchObject({ game: 'maxi-yatzy', current: 0, round: 1, throwsTaken: 0, over: false, savedThrows: [0, 0] });
    expect(s.dice).toHaveLength(6);
    expect(Object.keys(s.options).sort()).toEqual(maxiYatzy.optionSpecs.map((o) => o.name).sort());
  });

  it.each([
    [{ upperBonusThreshold: 'x' }, 'upperBonusThreshold'],
    [{ upperBonus: -5 }, 'upperBonus'],
    [{ saveUnusedThrows: 1 }, 'saveUnusedThrows'],
    [{ throwsPerTurn: 0 }, 'throwsPerTurn'],
    [{ maxThrows: 3 }, 'maxThrows'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => maxiYatzy.setup(['ann'], options as Partial<MaxiYatzyOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
});

describe('contract and invariants', () => {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(what);
  };
  const filled = (x: MaxiYatzyState) => x.players.reduce((n, q) => n + MAXI_CATEGORIES.filter((c) => q.card[c] !== null).length, 0);
  const invariants = (state: unknown, previous: unknown) => {
    const s = state as MaxiYatzyState;
    const p = previous as MaxiYatzyState | null;
    s.players.forEach((player, i) => {
      const t = maxiTotals(player.card, s.options);
      check(t.total === t.upperTotal + t.upperBonus + t.lowerTotal, 'total is the sum of its parts');
      if (p) for (const c of MAXI_CATEGORIES) if (p.players[i]!.card[c] !== null) check(player.card[c] === p.players[i]!.card[c], `row ${c} changed`);
    });
    check(s.savedThrows.every((n) => n >= 0 && (s.options.saveUnusedThrows || n === 0)), 'saved throws are never negative');
    if (p) {
      check(filled(s) - filled(p) <= 1, 'at most one row filled per step');
      // A filled row banks exactly the throws its turn left unused.
      if (filled(s) > filled(p) && s.options.saveUnusedThrows) check(s.savedThrows[p.current] === maxiThrowLimit(p) - p.throwsTaken, 'unused throws saved');
    }
    check(s.throwsTaken <= maxiThrowLimit(s), 'throws within the limit');
    if (s.over) check(filled(s) === s.players.length * 20, 'every card is full at the end');
  };

  it('keeps the contract over 300 bot games', () => {
    checkContract(maxiYatzy, 300, {}, invariants);
  });

  it('keeps the contract with non-default options', () => {
    checkContract(maxiYatzy, 60, { saveUnusedThrows: false, throwsPerTurn: 2, upperBonusThreshold: 75, upperBonus: 50 }, invariants);
  });

  it('round-trips through JSON and replays a hand-made action list', () => {
    const actions: MaxiYatzyAction[] = [roll(6, 6, 1, 2, 3, 4), { type: 'hold', dice: [0, 1] }, roll(6, 6, 2, 2), score('tower'), roll(1, 2, 3, 4, 5, 6), score('fullStraight')];
    const s = replay(maxiYatzy, ['ann', 'bo'], {}, actions) as MaxiYatzyState;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.players[0]!.card.tower).toBe(28);
    expect(s.players[1]!.card.fullStraight).toBe(21);
    expect(s).toMatchObject({ current: 0, round: 2, savedThrows: [1, 2] });
    expect(actions.reduce((st, a) => step(st, a), maxiYatzy.setup(['ann', 'bo']))).toEqual(s);
  });
});
