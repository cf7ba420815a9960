import { describe, it, expect } from 'vitest';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_OPTIONS,
  GAMES,
  GameSetupError,
  dicePoker,
  emptyCard,
  findGame,
  isInvalid,
  scoreCategory,
  scoreChoices,
  totals,
  upperBonusFor,
} from '../../src/games/index.js';
import type {
  Card,
  Category,
  DicePokerAction,
  DicePokerOptions,
  DicePokerState,
  InvalidAction,
} from '../../src/games/index.js';

// ---------------------------------------------------------------------------
// Helpers

/** Applies an action that must be legal. */
function step(state: DicePokerState, action: DicePokerAction): DicePokerState {
  const next = dicePoker.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

/** Applies an action that must be refused, and returns the refusal. */
function refuse(state: DicePokerState, action: unknown): InvalidAction {
  const next = dicePoker.apply(state, action as DicePokerAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): DicePokerAction => ({ type: 'roll', values });
const score = (category: Category): DicePokerAction => ({ type: 'score', category });

/** A card with the given rows filled and the rest empty. */
const cardWith = (rows: Partial<Record<Category, number>>): Card => ({ ...emptyCard(), ...rows });

/** A one-player game whose scorecard starts with the given rows filled (scenario fixture). */
function withCard(rows: Partial<Record<Category, number>>, options: Partial<DicePokerOptions> = {}): DicePokerState {
  const s = dicePoker.setup(['ann'], options);
  return { ...s, players: [{ ...s.players[0]!, card: cardWith(rows) }] };
}

/** Category ids of the legal score actions. */
const scoreable = (s: DicePokerState): Category[] =>
  dicePoker.legalActions(s).flatMap((a) => (a.type === 'score' ? [a.category] : []));

/** Tiny deterministic PRNG (mulberry32) so the full-game test is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 5-5-3-2-1 scores 16 as Pair', () => {
    expect(scoreCategory([5, 5, 3, 2, 1], 'pair')).toBe(16);
  });
  it('#2 2-2-5-5-1 scores 15 as Two Pairs', () => {
    expect(scoreCategory([2, 2, 5, 5, 1], 'twoPairs')).toBe(15);
  });
  it('#3 5-5-5-2-5 scores 22 as Three of a Kind (the rule, not the source typo 21)', () => {
    expect(scoreCategory([5, 5, 5, 2, 5], 'threeOfAKind')).toBe(22);
  });
  it('#4 1-1-1-1-3 scores 7 as Four of a Kind', () => {
    expect(scoreCategory([1, 1, 1, 1, 3], 'fourOfAKind')).toBe(7);
  });
  it('#5 2-2-2-3-3 scores 25 as Full House', () => {
    expect(scoreCategory([2, 2, 2, 3, 3], 'fullHouse')).toBe(25);
  });
  it('#6 2-3-4-5-5 scores 30 as Small Straight', () => {
    expect(scoreCategory([2, 3, 4, 5, 5], 'smallStraight')).toBe(30);
  });
  it('#7 2-3-4-5-6 scores 40 as Large Straight', () => {
    expect(scoreCategory([2, 3, 4, 5, 6], 'largeStraight')).toBe(40);
  });
  it('#8 3-3-3-3-3 scores 50 as Poker', () => {
    expect(scoreCategory([3, 3, 3, 3, 3], 'poker')).toBe(50);
  });
  it('#9 2-3-5-6-6 scores 22 as Chance', () => {
    expect(scoreCategory([2, 3, 5, 6, 6], 'chance')).toBe(22);
  });
  it('#10 a single 1 scores 1 as Aces', () => {
    expect(scoreCategory([1, 2, 3, 5, 6], 'aces')).toBe(1);
  });
  it('#11 4-4-4-4-2 scores 0 as Two Pairs (pairs must differ)', () => {
    expect(scoreCategory([4, 4, 4, 4, 2], 'twoPairs')).toBe(0);
  });
  it('#12 6-6-6-6-6 with Poker empty scores 0 as Full House', () => {
    let s = withCard({});
    s = step(s, roll(6, 6, 6, 6, 6));
    expect(scoreChoices(s.players[0]!.card, [6, 6, 6, 6, 6], s.options)).toContainEqual({ category: 'fullHouse', points: 0 });
    s = step(s, score('fullHouse'));
    expect(s.players[0]!.card.fullHouse).toBe(0);
    expect(s.players[0]!.pokerBonus).toBe(0);
  });
  it('#13 1-2-3-4-6 scores 0 as Large Straight and 30 as Small Straight', () => {
    expect(scoreCategory([1, 2, 3, 4, 6], 'largeStraight')).toBe(0);
    expect(scoreCategory([1, 2, 3, 4, 6], 'smallStraight')).toBe(30);
  });
  it("#14 an upper total of exactly 63 earns 35 with '>=' and nothing with '>'", () => {
    const card = cardWith({ aces: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 18 });
    const player = { name: 'ann', card, pokerBonus: 0 };
    expect(totals(player, DEFAULT_OPTIONS)).toEqual({ upper: 63, upperBonus: 35, lower: 0, pokerBonus: 0, total: 98 });
    const strict = dicePoker.setup(['ann'], { upperBonusComparison: '>' }).options;
    expect(totals(player, strict)).toEqual({ upper: 63, upperBonus: 0, lower: 0, pokerBonus: 0, total: 63 });
    expect(upperBonusFor({ ...card, sixes: 24 }, strict)).toBe(35);
  });
  it('#15 4-4-4-4-4 with Poker = 50 and Fours empty: +100 and Fours = 20 is forced', () => {
    let s = step(withCard({ poker: 50 }), roll(4, 4, 4, 4, 4));
    expect(scoreable(s)).toEqual(['fours']);
    expect(refuse(s, score('chance')).code).toBe('game/joker_forces');
    s = step(s, score('fours'));
    expect(s.players[0]!.card.fours).toBe(20);
    expect(totals(s.players[0]!, s.options)).toMatchObject({ pokerBonus: 100, total: 170 });
  });
  it('#16 4-4-4-4-4 with Poker = 50, Fours filled, Large Straight empty: +100 and 40 as Joker', () => {
    let s = step(withCard({ poker: 50, fours: 8 }), roll(4, 4, 4, 4, 4));
    const allowed = scoreable(s);
    expect(allowed).toContain('largeStraight');
    expect(allowed.every((c) => !['aces', 'twos', 'threes', 'fives', 'sixes'].includes(c))).toBe(true);
    expect(refuse(s, score('aces')).code).toBe('game/joker_forces');
    s = step(s, score('largeStraight'));
    expect(s.players[0]!.card.largeStraight).toBe(40);
    expect(s.players[0]!.pokerBonus).toBe(100);
  });
  it('#17 4-4-4-4-4 with Poker = 0: no bonus, no Joker; Four of a Kind 20', () => {
    let s = step(withCard({ poker: 0 }), roll(4, 4, 4, 4, 4));
    // Every empty row is open, the upper ones included: no forced placement.
    expect(scoreable(s)).toEqual(CATEGORIES.filter((c) => c !== 'poker'));
    s = step(s, score('fourOfAKind'));
    expect(s.players[0]!.card.fourOfAKind).toBe(20);
    expect(s.players[0]!.pokerBonus).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Scoring details and the Joker rule

describe('scoring', () => {
  it('lists 15 rows in scorecard order with English labels', () => {
    expect(CATEGORIES).toEqual([
      'aces', 'twos', 'threes', 'fours', 'fives', 'sixes',
      'pair', 'twoPairs', 'threeOfAKind', 'fourOfAKind', 'fullHouse', 'smallStraight', 'largeStraight', 'poker', 'chance',
    ]);
    expect(CATEGORIES.map((c) => CATEGORY_LABELS[c])).toContain('Three of a Kind');
  });

  it('scores misses as 0', () => {
    expect(scoreCategory([1, 2, 3, 4, 6], 'pair')).toBe(0);
    expect(scoreCategory([1, 1, 2, 3, 4], 'threeOfAKind')).toBe(0);
    expect(scoreCategory([1, 1, 1, 3, 4], 'fullHouse')).toBe(0);
    expect(scoreCategory([1, 2, 4, 5, 6], 'smallStraight')).toBe(0);
    expect(scoreCategory([1, 1, 1, 1, 2], 'poker')).toBe(0);
    expect(scoreCategory([2, 3, 4, 5, 6], 'sixes')).toBe(6);
  });

  it('counts a full house as Two Pairs', () => {
    expect(scoreCategory([2, 2, 2, 3, 3], 'twoPairs')).toBe(12);
  });

  it('throws on a malformed throw (a programmer error)', () => {
    expect(() => scoreCategory([1, 2, 3], 'chance')).toThrow(RangeError);
    expect(() => scoreCategory([1, 2, 3, 4, 7], 'chance')).toThrow(RangeError);
  });

  it('twoPairsAllowFourOfAKind lets four (or five) of a kind count as Two Pairs', () => {
    const rules = { ...DEFAULT_OPTIONS, twoPairsAllowFourOfAKind: true };
    expect(scoreCategory([4, 4, 4, 4, 2], 'twoPairs', rules)).toBe(18);
    expect(scoreCategory([4, 4, 4, 4, 4], 'twoPairs', rules)).toBe(20);
    expect(scoreCategory([4, 4, 4, 4, 4], 'twoPairs')).toBe(0);
  });

  it('fullHouseAllowsFiveOfAKind lets five of a kind score 25 as Full House', () => {
    const rules = { ...DEFAULT_OPTIONS, fullHouseAllowsFiveOfAKind: true };
    expect(scoreCategory([6, 6, 6, 6, 6], 'fullHouse', rules)).toBe(25);
    expect(scoreCategory([6, 6, 6, 6, 6], 'fullHouse')).toBe(0);
  });

  it('Joker with fixed values scores 25/30/40 and the sum on the sum rows (Two Pairs included)', () => {
    const card = cardWith({ poker: 50, fours: 12 });
    const choices = scoreChoices(card, [4, 4, 4, 4, 4], DEFAULT_OPTIONS);
    expect(choices).toEqual([
      { category: 'pair', points: 20 },
      { category: 'twoPairs', points: 20 },
      { category: 'threeOfAKind', points: 20 },
      { category: 'fourOfAKind', points: 20 },
      { category: 'fullHouse', points: 25 },
      { category: 'smallStraight', points: 30 },
      { category: 'largeStraight', points: 40 },
      { category: 'chance', points: 20 },
    ]);
  });

  it('jokerFixedValues: false keeps the placement but scores lower rows by their normal rule', () => {
    const opts = { ...DEFAULT_OPTIONS, jokerFixedValues: false };
    const choices = scoreChoices(cardWith({ poker: 50, fours: 12 }), [4, 4, 4, 4, 4], opts);
    expect(choices.map((c) => c.category)).not.toContain('aces');
    expect(choices).toContainEqual({ category: 'largeStraight', points: 0 });
    expect(choices).toContainEqual({ category: 'fullHouse', points: 0 });
    expect(choices).toContainEqual({ category: 'twoPairs', points: 0 });
    expect(choices).toContainEqual({ category: 'chance', points: 20 });
  });

  it('Joker with the lower side full forces 0 in an empty upper row', () => {
    const lowerFull = Object.fromEntries(
      ['pair', 'twoPairs', 'threeOfAKind', 'fourOfAKind', 'fullHouse', 'smallStraight', 'largeStraight', 'chance'].map((c) => [c, 10]),
    );
    let s = step(withCard({ ...lowerFull, poker: 50, fours: 16, aces: 2 }), roll(4, 4, 4, 4, 4));
    expect(scoreable(s)).toEqual(['twos', 'threes', 'fives', 'sixes']);
    s = step(s, score('sixes'));
    expect(s.players[0]!.card.sixes).toBe(0);
    expect(s.players[0]!.pokerBonus).toBe(100);
  });

  it('jokerWhenPokerScratched: true forces the Joker placement over a 0 in Poker, still without the bonus', () => {
    let s = step(withCard({ poker: 0 }, { jokerWhenPokerScratched: true }), roll(4, 4, 4, 4, 4));
    expect(scoreable(s)).toEqual(['fours']);
    s = step(s, score('fours'));
    expect(s.players[0]!.pokerBonus).toBe(0);
  });

  it('pokerBonus sets the extra-Poker bonus, and it adds up on every extra Poker', () => {
    let s = step(withCard({ poker: 50 }, { pokerBonus: 75 }), roll(2, 2, 2, 2, 2));
    s = step(s, score('twos'));
    s = step(s, roll(3, 3, 3, 3, 3));
    s = step(s, score('threes'));
    expect(s.players[0]!.pokerBonus).toBe(150);
    expect(totals(s.players[0]!, s.options)).toEqual({ upper: 25, upperBonus: 0, lower: 50, pokerBonus: 150, total: 225 });
  });

  it('upperBonusThreshold and upperBonus change the bonus', () => {
    const card = cardWith({ sixes: 30, fives: 25 });
    expect(upperBonusFor(card)).toBe(0);
    expect(upperBonusFor(card, { ...DEFAULT_OPTIONS, upperBonusThreshold: 55 })).toBe(35);
    expect(upperBonusFor(card, { ...DEFAULT_OPTIONS, upperBonusThreshold: 55, upperBonus: 50 })).toBe(50);
  });
});

// ---------------------------------------------------------------------------
// Turn flow

describe('turn flow', () => {
  it('asks for all five dice on throw 1, then only the unheld ones', () => {
    let s = dicePoker.setup(['ann', 'bo']);
    expect(dicePoker.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false });
    expect(dicePoker.legalActions(s)).toEqual([]); // waiting for the tower
    s = step(s, roll(6, 2, 6, 3, 1));
    s = step(s, { type: 'hold', dice: [0, 2] });
    expect(dicePoker.diceRequest(s)).toEqual({ count: 3, slots: [1, 3, 4], player: 0, secret: false });
    s = step(s, roll(6, 5, 4));
    expect(s.dice).toEqual([6, 6, 6, 5, 4]);
    expect(s.throwsTaken).toBe(2);
  });

  it('release puts a held die back into the next throw', () => {
    let s = step(dicePoker.setup(['ann']), roll(1, 2, 3, 4, 5));
    s = step(s, { type: 'hold', dice: [0, 1, 2] });
    s = step(s, { type: 'release', dice: [1] });
    expect(s.held).toEqual([true, false, true, false, false]);
    expect(dicePoker.diceRequest(s)?.slots).toEqual([1, 3, 4]);
  });

  it('allows holds only between throws', () => {
    let s = dicePoker.setup(['ann']);
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/no_throw_yet');
    s = step(s, roll(1, 2, 3, 4, 5));
    s = step(s, roll(1, 2, 3, 4, 5));
    s = step(s, roll(1, 2, 3, 4, 5));
    expect(refuse(s, { type: 'hold', dice: [0] }).code).toBe('game/no_throws_left');
    expect(dicePoker.legalActions(s).every((a) => a.type === 'score')).toBe(true);
  });

  it('refuses a fourth throw', () => {
    let s = dicePoker.setup(['ann']);
    for (let i = 0; i < 3; i++) s = step(s, roll(1, 1, 2, 3, 4));
    expect(dicePoker.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1, 1, 2, 3, 4)).code).toBe('game/no_throws_left');
  });

  it('maxThrows changes the throws per turn', () => {
    let one = step(dicePoker.setup(['ann'], { maxThrows: 1 }), roll(1, 1, 2, 3, 4));
    expect(dicePoker.diceRequest(one)).toBeNull();
    expect(refuse(one, { type: 'hold', dice: [0] }).code).toBe('game/no_throws_left');
    one = step(one, score('chance'));
    expect(dicePoker.diceRequest(one)?.count).toBe(5);
    let four = dicePoker.setup(['ann'], { maxThrows: 4 });
    for (let i = 0; i < 4; i++) four = step(four, roll(1, 1, 2, 3, 4));
    expect(refuse(four, roll(1, 1, 2, 3, 4)).code).toBe('game/no_throws_left');
  });

  it('with all five dice held asks for no roll, and the player scores', () => {
    let s = step(dicePoker.setup(['ann']), roll(5, 5, 5, 5, 5));
    s = step(s, { type: 'hold', dice: [0, 1, 2, 3, 4] });
    expect(dicePoker.diceRequest(s)).toBeNull();
    expect(refuse(s, roll()).code).toBe('game/all_dice_held');
    s = step(s, score('poker'));
    expect(s.players[0]!.card.poker).toBe(50);
  });

  it('refuses wrong value counts, bad values and bad indices with their codes', () => {
    let s = dicePoker.setup(['ann']);
    expect(refuse(s, roll(1, 2, 3, 4)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 3, 4, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 3, 4, 2.5)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [1, 2, 3, 4, '5'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, score('chance')).code).toBe('game/no_throw_yet');
    s = step(s, roll(1, 2, 3, 4, 5));
    s = step(s, { type: 'hold', dice: [0, 1] });
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'hold', dice: [5] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'release', dice: [-1] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'hold', dice: [] }).code).toBe('game/bad_die_index');
    expect(refuse(s, { type: 'score', category: 'yahtzee' }).code).toBe('game/unknown_category');
    expect(refuse(s, { type: 'pass' }).code).toBe('game/unknown_action');
    const msg = refuse(s, roll(9, 9, 9)).message;
    expect(msg).toMatch(/9/);
  });

  it('refuses a filled row and passes the turn after scoring', () => {
    let s = dicePoker.setup(['ann', 'bo']);
    s = step(step(s, roll(1, 2, 3, 4, 5)), score('largeStraight'));
    expect(s.current).toBe(1);
    expect(s.throwsTaken).toBe(0);
    expect(s.dice).toEqual([null, null, null, null, null]);
    expect(dicePoker.diceRequest(s)?.player).toBe(1);
    s = step(step(s, roll(1, 2, 3, 4, 5)), score('largeStraight'));
    expect(s.current).toBe(0);
    expect(s.round).toBe(2);
    s = step(s, roll(2, 3, 4, 5, 6));
    expect(refuse(s, score('largeStraight')).code).toBe('game/category_filled');
    expect(scoreable(s)).not.toContain('largeStraight');
  });

  it('clears holds at the start of a turn', () => {
    let s = step(dicePoker.setup(['ann', 'bo']), roll(1, 1, 1, 2, 3));
    s = step(s, { type: 'hold', dice: [0, 1, 2] });
    s = step(s, score('aces'));
    expect(s.held).toEqual([false, false, false, false, false]);
    expect(dicePoker.diceRequest(s)?.count).toBe(5);
  });

  it('lists single-die hold/release and legal scores, never roll', () => {
    let s = step(dicePoker.setup(['ann']), roll(3, 3, 2, 5, 1));
    s = step(s, { type: 'hold', dice: [0] });
    const actions = dicePoker.legalActions(s);
    expect(actions.some((a) => a.type === 'roll')).toBe(false);
    expect(actions).toContainEqual({ type: 'release', dice: [0] });
    expect(actions).toContainEqual({ type: 'hold', dice: [4] });
    expect(scoreable(s)).toEqual(CATEGORIES);
    for (const a of actions) expect(isInvalid(dicePoker.apply(s, a))).toBe(false);
  });

  it('plays a seeded two-player game to the end', () => {
    const rand = mulberry32(20240607);
    const d6 = () => 1 + Math.floor(rand() * 6);
    const start = dicePoker.setup(['ann', 'bo']);
    const log: DicePokerAction[] = [];
    let s = start;
    const play = (a: DicePokerAction) => {
      log.push(a);
      s = step(s, a);
    };
    let guard = 0;
    while (!s.over && guard++ < 1000) {
      const req = dicePoker.diceRequest(s);
      expect(dicePoker.result(s)).toBeNull();
      // Throw until the tower has nothing more to roll; hold a die now and then.
      if (req !== null && (s.throwsTaken === 0 || rand() < 0.6)) {
        play(roll(...req.slots.map(() => d6())));
        if (s.throwsTaken < s.options.maxThrows && rand() < 0.5) play({ type: 'hold', dice: [Math.floor(rand() * 5)] });
        continue;
      }
      const first = dicePoker.legalActions(s).find((a) => a.type === 'score');
      expect(first).toBeDefined();
      play(first!);
    }
    expect(s.over).toBe(true);
    expect(s.round).toBe(15);
    expect(dicePoker.diceRequest(s)).toBeNull();
    expect(dicePoker.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/over');
    for (const p of s.players) expect(CATEGORIES.every((c) => p.card[c] !== null)).toBe(true);

    const result = dicePoker.result(s)!;
    s.players.forEach((p, i) => {
      const t = totals(p, s.options);
      expect(t.total).toBe(t.upper + t.upperBonus + t.lower + t.pokerBonus);
      expect(t.upper).toBe(CATEGORIES.slice(0, 6).reduce((sum, c) => sum + (p.card[c] ?? 0), 0));
      expect(t.lower).toBe(CATEGORIES.slice(6).reduce((sum, c) => sum + (p.card[c] ?? 0), 0));
      expect(result.scores[i]).toBe(t.total);
    });
    const best = Math.max(...result.scores);
    expect(result.winners).toEqual(result.scores.flatMap((x, i) => (x === best ? [i] : [])));

    // A match is its setup plus its action log: replaying gives the same state.
    const replayed = log.reduce((st, a) => step(st, a), dicePoker.setup(['ann', 'bo']));
    expect(replayed).toEqual(s);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('shares the win on a tie', () => {
    let s = dicePoker.setup(['ann', 'bo']);
    for (const c of CATEGORIES) {
      for (let p = 0; p < 2; p++) s = step(step(s, roll(2, 2, 3, 3, 3)), score(c));
    }
    expect(s.over).toBe(true);
    const r = dicePoker.result(s)!;
    expect(r.winners).toEqual([0, 1]);
    expect(r.scores[0]).toBe(r.scores[1]);
  });

  it('keeps the state plain JSON mid-turn and does not mutate its input', () => {
    const s0 = step(dicePoker.setup(['ann']), roll(6, 6, 1, 2, 3));
    const s = step(s0, { type: 'hold', dice: [0, 1] });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(JSON.stringify(s)).not.toContain('undefined');
    expect(s0.held).toEqual([false, false, false, false, false]);
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts with empty cards and the defaults', () => {
    const s = dicePoker.setup(['ann', 'bo']);
    expect(s.options).toEqual(DEFAULT_OPTIONS);
    expect(s.players.map((p) => p.name)).toEqual(['ann', 'bo']);
    expect(s.players[0]!.card).toEqual(emptyCard());
    expect(s).toMatchObject({ game: 'dice-poker', current: 0, round: 1, throwsTaken: 0, over: false });
    expect(dicePoker.setup(['ann'], { turns: undefined }).options.turns).toBe(15);
  });

  it.each([
    [{ turns: 13 }, 'turns'],
    [{ upperBonusThreshold: -1 }, 'upperBonusThreshold'],
    [{ upperBonusComparison: '=>' }, 'upperBonusComparison'],
    [{ upperBonus: 'x' }, 'upperBonus'],
    [{ twoPairsAllowFourOfAKind: 'yes' }, 'twoPairsAllowFourOfAKind'],
    [{ fullHouseAllowsFiveOfAKind: 1 }, 'fullHouseAllowsFiveOfAKind'],
    [{ jokerFixedValues: null }, 'jokerFixedValues'],
    [{ jokerWhenPokerScratched: 0 }, 'jokerWhenPokerScratched'],
    [{ pokerBonus: 1.5 }, 'pokerBonus'],
    [{ maxThrows: 0 }, 'maxThrows'],
    [{ maxThrow: 2 }, 'maxThrow'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => dicePoker.setup(['ann'], options as Partial<DicePokerOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });

  it('rejects bad player lists', () => {
    expect(() => dicePoker.setup([])).toThrow(GameSetupError);
    expect(() => dicePoker.setup(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toThrow(/1 to 6 players/);
    expect(() => dicePoker.setup(['ann', ' '])).toThrow(/Player 2/);
    expect(() => dicePoker.setup(['ann', 'ann'])).toThrow(/"ann"/);
    expect(dicePoker.setup(['a', 'b', 'c', 'd', 'e', 'f']).players).toHaveLength(6);
  });
});

describe('registry', () => {
  it('finds dice-poker by id', () => {
    expect(GAMES['dice-poker']).toBe(dicePoker);
    expect(findGame('dice-poker')).toBe(dicePoker);
    expect(findGame('toString')).toBeNull();
    expect(findGame('go-fish')).toBeNull();
    expect(findGame('yatzy')?.id).toBe('yatzy');
    expect(dicePoker).toMatchObject({ id: 'dice-poker', name: 'Dice Poker', minPlayers: 1, maxPlayers: 6 });
  });
});
