import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import {
  DEFAULT_OPTIONS,
  OPTION_SPECS,
  STAR,
  bidProblem,
  bidTrack,
  bluff,
  countFor,
  cupSlots,
  positionOf,
  settleChallenge,
  startingDice,
} from '../../src/games/bluff.js';
import type { BluffAction, BluffOptions, BluffState } from '../../src/games/bluff.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: BluffState, action: BluffAction): BluffState {
  const next = bluff.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: BluffState, action: unknown): InvalidAction {
  const next = bluff.apply(state, action as BluffAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): BluffAction => ({ type: 'roll', values });
const TRACK = bidTrack('ravensburger', 20);
/** The bid action for `quantity` dice showing `face` (6 = star) on the default board. */
function bid(quantity: number, face: number, track = TRACK): BluffAction {
  const position = positionOf(track, quantity, face === STAR);
  if (position === null) throw new Error(`no field ${quantity}${face === STAR ? '★' : ''}`);
  return { type: 'bid', position, face };
}

/** The spec's counting cups: A = [1,1,★,3,5], B = [★,2,2,4,4], C = [5,5,★,1,3]. */
const CUPS = [
  [1, 1, 6, 3, 5],
  [6, 2, 2, 4, 4],
  [5, 5, 6, 1, 3],
];

/** Three players with five dice each, every cup thrown as in the spec; A opens. */
function dealt(options: Partial<BluffOptions> = {}): BluffState {
  let s = bluff.setup(['A', 'B', 'C'], { dicePerPlayer: '5', ...options });
  for (const cup of CUPS) s = step(s, roll(...cup));
  return s;
}

/** A bids, B challenges. */
const aBidsBChallenges = (s: BluffState, quantity: number, face: number): BluffState => step(step(s, bid(quantity, face)), { type: 'challenge' });
const diceOf = (s: BluffState): number[] => s.players.map((p) => p.dice);
const table = (s: BluffState): TableBoard => bluff.board(s) as TableBoard;

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples: counting (A = [1,1,★,3,5], B = [★,2,2,4,4], C = [5,5,★,1,3])', () => {
  it('counts faces with stars as jokers, stars alone for a star bid', () => {
    const all = CUPS.flat();
    expect([1, 2, 3, 4, 5].map((f) => countFor(all, f))).toEqual([6, 5, 5, 5, 6]);
    expect(countFor(all, STAR)).toBe(3);
  });
  it('#1 (6, ones) counts 6: exact, the challenger gives 1 die, to the centre when the bidder is full', () => {
    const s = aBidsBChallenges(dealt(), 6, 1);
    expect(s.lastChallenge).toMatchObject({ count: 6, outcome: 'exact', challenger: 1 });
    expect(diceOf(s)).toEqual([5, 4, 5]);
    expect(s.centre).toBe(1);
    // A bidder below their starting number receives the die.
    const effect = settleChallenge([4, 5, 5], [5, 5, 5], 0, 1, 6, 6);
    expect(effect).toMatchObject({ outcome: 'exact', dice: [5, 4, 5], toCentre: 0 });
  });
  it('#2 (4, fours) counts 5: the challenger loses 1', () => {
    const s = aBidsBChallenges(dealt(), 4, 4);
    expect(s.lastChallenge).toMatchObject({ count: 5, outcome: 'over' });
    expect(diceOf(s)).toEqual([5, 4, 5]);
    expect(s.centre).toBe(1);
  });
  it('#3 (9, fives) counts 6: the bidder loses 3', () => {
    const s = aBidsBChallenges(dealt(), 9, 5);
    expect(s.lastChallenge).toMatchObject({ count: 6, outcome: 'under', change: [-3, 0, 0] });
    expect(diceOf(s)).toEqual([2, 5, 5]);
    expect(s.centre).toBe(3);
  });
  it('#4 ★3 counts 3: exact, as example 1', () => {
    const s = aBidsBChallenges(dealt(), 3, STAR);
    expect(s.lastChallenge).toMatchObject({ count: 3, outcome: 'exact' });
    expect(diceOf(s)).toEqual([5, 4, 5]);
    expect(s.centre).toBe(1);
  });
  it('#5 ★4 counts 3: the bidder loses 1', () => {
    const s = aBidsBChallenges(dealt(), 4, STAR);
    expect(s.lastChallenge).toMatchObject({ count: 3, outcome: 'under' });
    expect(diceOf(s)).toEqual([4, 5, 5]);
  });
  it("#6 (6, ones) with exactRule 'allOthersLoseOne': every player except the bidder loses 1", () => {
    const s = aBidsBChallenges(dealt({ exactRule: 'allOthersLoseOne' }), 6, 1);
    expect(diceOf(s)).toEqual([5, 4, 4]);
    expect(s.centre).toBe(2);
  });
});

describe('spec examples: loss by difference', () => {
  it('#7 8 fives with 10 fives-or-stars: the challenger loses 2', () => {
    expect(settleChallenge([6, 6], [6, 6], 0, 1, 8, 10)).toMatchObject({ outcome: 'over', dice: [6, 4], toCentre: 2, winner: 0, loser: 1 });
  });
  it('#8 9 fives with 7: the bidder loses 2', () => {
    expect(settleChallenge([6, 6], [6, 6], 0, 1, 9, 7)).toMatchObject({ outcome: 'under', dice: [4, 6], toCentre: 2, winner: 1, loser: 0 });
  });
  it('#9 8 fives with 8: the exact rule applies', () => {
    expect(settleChallenge([5, 6], [6, 6], 0, 1, 8, 8)).toMatchObject({ outcome: 'exact', dice: [6, 5], toCentre: 0, winner: 0 });
    expect(settleChallenge([6, 6, 6], [6, 6, 6], 0, 1, 8, 8, { exactRule: 'allOthersLoseOne', protectLastDie: false })).toMatchObject({ dice: [6, 5, 5], toCentre: 2 });
  });
  it('#10 10 threes with 14, challenger holding 1 die: loses it and is out', () => {
    expect(settleChallenge([6, 1], [6, 6], 0, 1, 10, 14)).toMatchObject({ outcome: 'over', dice: [6, 0], toCentre: 1 });
    // Through play: B (one die) challenges and loses, the game ends with A the winner.
    let s = bluff.setup(['A', 'B'], { dicePerPlayer: '5' });
    s = { ...s, players: [s.players[0]!, { ...s.players[1]!, dice: 1 }], centre: 4 };
    s = step(step(s, roll(3, 3, 3, 6, 6)), roll(3));
    s = aBidsBChallenges(s, 4, 3);
    expect(s.over).toBe(true);
    expect(bluff.result(s)).toEqual({ winners: [0], scores: [5, 0] });
    expect(refuse(s, { type: 'challenge' }).code).toBe('game/over');
  });
});

describe('spec examples: bid order', () => {
  const at = (q: number, face: number) => ({ position: positionOf(TRACK, q, face === STAR)!, face });
  const legal = (cur: { position: number; face: number } | null, next: { position: number; face: number }) => bidProblem(TRACK, cur, next.position, next.face);
  it('#11 (5, threes) → (5, fours): same field, higher face', () => {
    expect(legal(at(5, 3), at(5, 4))).toBeNull();
  });
  it('#12 (5, fours) → (5, twos): refused', () => {
    expect(legal(at(5, 4), at(5, 2))?.code).toBe('game/bid_too_low');
  });
  it('#13 (5, fives) → (6, ones): moved forward', () => {
    expect(legal(at(5, 5), at(6, 1))).toBeNull();
  });
  it('#14 (7, any) → ★4: position 10 → 11', () => {
    expect(at(7, 1).position).toBe(10);
    expect(at(4, STAR).position).toBe(11);
    for (let f = 1; f <= 5; f++) expect(legal(at(7, f), at(4, STAR))).toBeNull();
  });
  it('#15 ★4 → (8, ones): position 11 → 12', () => {
    expect(at(8, 1).position).toBe(12);
    expect(legal(at(4, STAR), at(8, 1))).toBeNull();
  });
  it('#16 (8, ones) → ★4: backwards, refused', () => {
    expect(legal(at(8, 1), at(4, STAR))?.code).toBe('game/bid_too_low');
  });
  it('#17 ★4 → ★4: refused', () => {
    expect(legal(at(4, STAR), at(4, STAR))?.code).toBe('game/bid_too_low');
  });
  it('#18 from the zero field, (1, ones) is the lowest opening bid', () => {
    expect(at(1, 1).position).toBe(1);
    expect(legal(null, at(1, 1))).toBeNull();
    const s = dealt();
    expect(bluff.legalActions(s)[0]).toEqual({ type: 'bid', position: 1, face: 1, quantity: 1, star: false });
  });
  it('#19 (3, fives) → (3, star): a star only on a star field', () => {
    const three = at(3, 5);
    expect(legal(three, { position: three.position, face: STAR })?.code).toBe('game/star_field');
    // And no number on a star field either.
    expect(legal(null, { position: at(1, STAR).position, face: 5 })?.code).toBe('game/star_field');
    const s = step(dealt(), bid(3, 5));
    expect(refuse(s, { type: 'bid', position: three.position, face: STAR }).code).toBe('game/star_field');
  });
});

// ---------------------------------------------------------------------------
// The board

describe('bidding board', () => {
  it('Ravensburger: number n at n + ⌊n/2⌋, star k at 3k − 1, 30 fields ending at 20', () => {
    expect(TRACK).toHaveLength(30);
    for (let n = 1; n <= 20; n++) expect(positionOf(TRACK, n, false)).toBe(n + Math.floor(n / 2));
    for (let k = 1; k <= 10; k++) expect(positionOf(TRACK, k, true)).toBe(3 * k - 1);
    expect(TRACK[29]).toEqual({ quantity: 20, star: false });
  });
  it("bidTrack 'starAfterEven' puts each star field after the even number", () => {
    const t = bidTrack('starAfterEven', 20);
    expect(t.slice(0, 6).map((f) => (f.star ? `★${f.quantity}` : String(f.quantity)))).toEqual(['1', '2', '★1', '3', '4', '★2']);
    // ★4 now sits above 8, where the default board has it below.
    expect(bidProblem(t, { position: positionOf(t, 8, false)!, face: 1 }, positionOf(t, 4, true)!, STAR)).toBeNull();
    expect(bidProblem(TRACK, { position: positionOf(TRACK, 8, false)!, face: 1 }, positionOf(TRACK, 4, true)!, STAR)?.code).toBe('game/bid_too_low');
    const s = step(dealt({ bidTrack: 'starAfterEven' }), { type: 'bid', position: 3, face: STAR });
    expect(s.bid).toMatchObject({ quantity: 1, face: STAR });
  });
  it('maxQuantity sets the last field; at the end of the track the next player must challenge (ambiguity 8)', () => {
    const t = bidTrack('ravensburger', 8);
    expect(t).toHaveLength(12);
    let s = dealt({ maxQuantity: 8 });
    expect(refuse(s, { type: 'bid', position: 13, face: 1 }).code).toBe('game/bad_bid');
    s = step(s, { type: 'bid', position: 12, face: 5 });
    expect(bluff.legalActions(s)).toEqual([{ type: 'challenge' }]);
    expect(bluff.bot(s, () => 0.5)).toEqual({ type: 'challenge' });
    const d = step(dealt(), { type: 'bid', position: 12, face: 5 });
    expect(bluff.legalActions(d).length).toBeGreaterThan(1);
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('match the spec table', () => {
    expect(OPTION_SPECS.map((o) => [o.name, o.default])).toEqual([
      ['dicePerPlayer', 'czech'],
      ['exactRule', 'transferOne'],
      ['protectLastDie', false],
      ['showAndReroll', false],
      ['nextRoundStarter', 'challengeWinner'],
      ['bidTrack', 'ravensburger'],
      ['maxQuantity', 20],
      ['stackedDice', 'rethrowAll'],
    ]);
    expect(bluff.setup(['A', 'B']).options).toEqual(DEFAULT_OPTIONS);
  });

  it("dicePerPlayer 'czech' gives 6 each, 5 each with six players; a number fixes it", () => {
    expect(startingDice(DEFAULT_OPTIONS, 5)).toBe(6);
    expect(startingDice(DEFAULT_OPTIONS, 6)).toBe(5);
    expect(bluff.diceRequest(bluff.setup(['A', 'B', 'C']))).toEqual({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: 0, secret: true });
    expect(bluff.diceRequest(bluff.setup(['A', 'B', 'C', 'D', 'E', 'F']))?.count).toBe(5);
    expect(bluff.diceRequest(bluff.setup(['A', 'B', 'C'], { dicePerPlayer: '5' }))?.count).toBe(5);
    const six = bluff.setup(['A', 'B', 'C', 'D', 'E', 'F'], { dicePerPlayer: '6' });
    expect(six.players.every((p) => p.dice === 6)).toBe(true);
  });

  it('protectLastDie keeps the last die of a player who is neither bidder nor challenger', () => {
    const args = [[5, 5, 1], [5, 5, 5], 0, 1, 6, 6] as const;
    expect(settleChallenge(...args, { exactRule: 'allOthersLoseOne', protectLastDie: false })).toMatchObject({ dice: [5, 4, 0], toCentre: 2 });
    expect(settleChallenge(...args, { exactRule: 'allOthersLoseOne', protectLastDie: true })).toMatchObject({ dice: [5, 4, 1], toCentre: 1 });
    // The challenger is not protected.
    expect(settleChallenge([5, 1, 5], [5, 5, 5], 0, 1, 6, 6, { exactRule: 'allOthersLoseOne', protectLastDie: true })).toMatchObject({ dice: [5, 0, 4] });
    // Ignored under the default exact rule.
    expect(settleChallenge(...args, { exactRule: 'transferOne', protectLastDie: true })).toMatchObject({ dice: [5, 4, 1], toCentre: 1 });
  });

  it('nextRoundStarter: the challenge winner by default, else its loser or the next player clockwise', () => {
    // Example 2: A bids, B challenges and loses.
    const starter = (o: Partial<BluffOptions>) => aBidsBChallenges(dealt(o), 4, 4).starter;
    expect(starter({})).toBe(0);
    expect(starter({ nextRoundStarter: 'challengeLoser' })).toBe(1);
    expect(starter({ nextRoundStarter: 'nextClockwise' })).toBe(1);
    // Example 3: the bidder A loses; the winner B opens.
    expect(aBidsBChallenges(dealt(), 9, 5).starter).toBe(1);
    // After an exact count the bidder counts as the winner.
    expect(aBidsBChallenges(dealt(), 6, 1).starter).toBe(0);
    const s = aBidsBChallenges(dealt(), 4, 4);
    expect(s.round).toBe(2);
    expect(bluff.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: true });
  });

  it('a starter who is out passes the opening to the next player with dice', () => {
    let s = bluff.setup(['A', 'B', 'C'], { dicePerPlayer: '5', nextRoundStarter: 'challengeLoser' });
    s = { ...s, players: s.players.map((p, i) => (i === 1 ? { ...p, dice: 1 } : p)), centre: 4 };
    s = step(step(step(s, roll(1, 1, 1, 1, 1)), roll(1)), roll(2, 2, 2, 2, 2));
    s = aBidsBChallenges(s, 2, 1); // 6 ones: B loses 4 (all they have)
    expect(diceOf(s)).toEqual([5, 0, 5]);
    expect(s.starter).toBe(2);
    expect(s.toThrow).toEqual([2, 0]);
  });

  it('showAndReroll: the bidder may show dice and secretly re-throw the rest', () => {
    // Off by default: the next player answers at once.
    expect(step(dealt(), bid(4, 1)).current).toBe(1);
    let s = step(dealt({ showAndReroll: true }), bid(4, 1));
    expect(s.phase).toBe('show');
    expect(s.current).toBe(0);
    expect(bluff.legalActions(s)).toContainEqual({ type: 'keepHidden' });
    expect(refuse(s, { type: 'challenge' }).code).toBe('game/not_bidding');
    expect(refuse(s, { type: 'show', dice: [0, 1, 2, 3, 4] }).code).toBe('game/show_all');
    expect(refuse(s, { type: 'show', dice: [5] }).code).toBe('game/bad_die_index');
    s = step(s, { type: 'show', dice: [0, 1, 2] }); // 1, 1, ★ face up
    expect(bluff.diceRequest(s)).toEqual({ count: 2, slots: [3, 4], player: 0, secret: true });
    s = step(s, roll(1, 4));
    expect(s.phase).toBe('bid');
    expect(s.current).toBe(1);
    const pub = bluff.playerView(s, null);
    expect(pub.dice.slice(0, 5)).toEqual([1, 1, 6, null, null]);
    expect(pub.dice.slice(5).every((d) => d === null)).toBe(true);
    expect(table(pub).players[0]!.values.cup).toBe('1 1 ★ ? ?');
    expect(bluff.board(pub).held.slice(0, 5)).toEqual([true, true, true, false, false]);
    // Next bid by A: only the two still hidden dice may be shown, one at least staying hidden.
    s = step(step(s, bid(5, 1)), { type: 'keepHidden' }); // B
    s = step(step(s, bid(5, 2)), { type: 'keepHidden' }); // C
    s = step(s, bid(6, 1)); // A again
    expect(s.phase).toBe('show');
    expect(refuse(s, { type: 'show', dice: [3, 4] }).code).toBe('game/show_all');
    expect(refuse(s, { type: 'show', dice: [0] }).code).toBe('game/bad_die_index');
    s = step(step(s, { type: 'show', dice: [3] }), roll(6));
    expect(bluff.playerView(s, null).dice.slice(0, 5)).toEqual([1, 1, 6, 1, null]);
    // With one hidden die left there is nothing to show: the next player answers.
    s = step(step(s, bid(7, 1)), { type: 'keepHidden' }); // B
    s = step(step(s, bid(7, 2)), { type: 'keepHidden' }); // C
    s = step(s, bid(8, 1)); // A
    expect(s.phase).toBe('bid');
    expect(s.current).toBe(1);
    expect(refuse(s, { type: 'keepHidden' }).code).toBe('game/not_showing');
  });

  it("stackedDice: 'rethrowAll' re-throws the whole cup, 'liftTopDie' only the named dice", () => {
    const once = (o: Partial<BluffOptions>) => step(step(bluff.setup(['A', 'B'], { dicePerPlayer: '5', ...o }), roll(1, 2, 3, 4, 5)), { type: 'rethrow', dice: [2] });
    const all = once({});
    expect(bluff.diceRequest(all)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: true });
    expect(all.dice.slice(0, 5)).toEqual([null, null, null, null, null]);
    const top = once({ stackedDice: 'liftTopDie' });
    expect(bluff.diceRequest(top)).toEqual({ count: 1, slots: [2], player: 0, secret: true });
    expect(bluff.legalActions(top)).toEqual([]);
    const after = step(top, roll(6));
    expect(after.dice.slice(0, 5)).toEqual([1, 2, 6, 4, 5]);
    expect(bluff.diceRequest(after)?.player).toBe(1);
    // The last cup's throw may be declared stacked until the first bid.
    let s = step(after, roll(2, 2, 2, 2, 2));
    expect(bluff.legalActions(s)).toContainEqual({ type: 'rethrow', dice: [5, 6, 7, 8, 9] });
    expect(refuse(s, { type: 'rethrow', dice: [0] }).code).toBe('game/bad_die_index');
    s = step(s, bid(1, 1));
    expect(refuse(s, { type: 'rethrow', dice: [5] }).code).toBe('game/no_rethrow');
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('throws every cup in secret from the starter, then the starter opens', () => {
    let s = bluff.setup(['A', 'B', 'C'], { dicePerPlayer: '5' });
    expect(bluff.legalActions(s)).toEqual([]);
    expect(bluff.diceRequest(s)).toEqual({ count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: true });
    s = step(s, roll(...CUPS[0]!));
    expect(bluff.diceRequest(s)).toEqual({ count: 5, slots: [5, 6, 7, 8, 9], player: 1, secret: true });
    s = step(step(s, roll(...CUPS[1]!)), roll(...CUPS[2]!));
    expect(bluff.diceRequest(s)).toBeNull();
    expect(s.phase).toBe('bid');
    expect(s.current).toBe(0);
    expect(bluff.board(bluff.playerView(s, null)).status).toBe('A: open the bidding');
    s = step(s, bid(3, 2));
    expect(s.current).toBe(1);
    expect(bluff.board(bluff.playerView(s, null)).status).toBe('B: raise 3 × 2s or challenge');
    expect(bluff.legalActions(s)).toContainEqual({ type: 'challenge' });
    expect(bluff.legalActions(s)).toContainEqual({ type: 'bid', position: 4, face: 3, quantity: 3, star: false });
    expect(bluff.legalActions(s)).not.toContainEqual(expect.objectContaining({ type: 'bid', position: 4, face: 2 }));
    s = step(s, bid(4, 2));
    expect(s.current).toBe(2);
    s = step(s, { type: 'challenge' }); // 5 twos-or-stars against 4: C loses 1
    expect(s.lastChallenge).toMatchObject({ challenger: 2, count: 5, change: [0, 0, -1] });
    expect(s.starter).toBe(1);
    expect(s.toThrow).toEqual([1, 2, 0]);
    expect(bluff.diceRequest(s)).toEqual({ count: 5, slots: [5, 6, 7, 8, 9], player: 1, secret: true });
    s = step(s, roll(1, 1, 1, 1, 1));
    expect(bluff.diceRequest(s)).toEqual({ count: 4, slots: [10, 11, 12, 13], player: 2, secret: true });
  });

  it('refuses bad throws, out-of-phase moves and unknown actions with their codes', () => {
    let s = bluff.setup(['A', 'B'], { dicePerPlayer: '5' });
    expect(refuse(s, roll(1, 2, 3, 4)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 5, 6)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [1, 2, 3, 4, '5'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, bid(1, 1)).code).toBe('game/not_bidding');
    expect(refuse(s, { type: 'challenge' }).code).toBe('game/not_bidding');
    expect(refuse(s, { type: 'rethrow', dice: [0] }).code).toBe('game/no_rethrow');
    expect(refuse(s, { type: 'show', dice: [0] }).code).toBe('game/not_showing');
    expect(refuse(s, { type: 'fold' }).code).toBe('game/unknown_action');
    expect(refuse(s, null).code).toBe('game/unknown_action');
    s = step(step(s, roll(1, 2, 3, 4, 5)), roll(1, 2, 3, 4, 5));
    expect(refuse(s, roll(1, 2, 3, 4, 5)).code).toBe('game/no_throw_now');
    expect(refuse(s, { type: 'challenge' }).code).toBe('game/no_bid');
    expect(refuse(s, { type: 'bid', position: 0, face: 1 }).code).toBe('game/bad_bid');
    expect(refuse(s, { type: 'bid', position: 1, face: 7 }).code).toBe('game/bad_bid');
    expect(refuse(s, { type: 'bid', position: '1', face: 1 }).code).toBe('game/bad_bid');
    expect(refuse(s, { type: 'bid' }).code).toBe('game/bad_bid');
  });

  it('refuses setups with the wrong number of players or bad options', () => {
    expect(() => bluff.setup(['A'])).toThrow(GameSetupError);
    expect(() => bluff.setup(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toThrow(GameSetupError);
    expect(() => bluff.setup(['A', 'B'], { dicePerPlayer: 5 as unknown as '5' })).toThrow(/dicePerPlayer/);
    expect(() => bluff.setup(['A', 'B'], { exactRule: 'nobody' as 'transferOne' })).toThrow(GameSetupError);
    expect(() => bluff.setup(['A', 'B'], { maxQuantity: 1 })).toThrow(/maxQuantity/);
  });

  it('lists only legal actions, never roll', () => {
    const s = step(dealt(), bid(5, 3));
    const actions = bluff.legalActions(s);
    expect(actions.some((a) => a.type === 'roll')).toBe(false);
    for (const a of actions) expect(isInvalid(bluff.apply(s, a))).toBe(false);
    // Fours and fives on the same field, then numbers 6-20 with five faces each and ★3-★10.
    expect(actions.filter((a) => a.type === 'bid')).toHaveLength(2 + 15 * 5 + 8);
  });
});

// ---------------------------------------------------------------------------
// Secrecy

/** Slots of the state's dice that `viewer` may not see (null = the public). */
function hiddenSlots(s: BluffState, viewer: number | null): number[] {
  return s.dice.flatMap((_, slot) => (s.shown[slot] || (viewer !== null && Math.floor(slot / s.cupSize) === viewer) ? [] : [slot]));
}

describe('secret cups', () => {
  it("a player's own view shows their cup; others and the public see none until the challenge", () => {
    let s = dealt();
    expect(bluff.playerView(s, 0).dice.slice(0, 5)).toEqual(CUPS[0]);
    expect(bluff.playerView(s, 0).dice.slice(5).every((d) => d === null)).toBe(true);
    expect(bluff.playerView(s, 1).dice.slice(5, 10)).toEqual(CUPS[1]);
    expect(bluff.playerView(s, null).dice.every((d) => d === null)).toBe(true);
    expect(table(bluff.playerView(s, 1)).players.map((p) => p.values.cup)).toEqual(['? ? ? ? ?', '★ 2 2 4 4', '? ? ? ? ?']);
    s = aBidsBChallenges(s, 4, 4);
    // The reveal belongs to everyone.
    const pub = bluff.playerView(s, null);
    expect(pub.lastChallenge?.cups).toEqual(CUPS);
    const panel = bluff.board(pub).panels.find((p) => p.id === 'challenge');
    expect(panel?.items.find((i) => i.label === 'A')?.value).toBe('1 1 ★ 3 5');
  });

  it('property: over many bot games no view or public board holds a die the viewer may not see', () => {
    let checked = 0;
    const check = (raw: unknown) => {
      const s = raw as BluffState;
      for (const viewer of [null, ...s.players.map((_, i) => i)]) {
        const view = bluff.playerView(s, viewer);
        const hidden = hiddenSlots(s, viewer);
        // Hidden dice are null; everything visible (own cup, shown dice) stays as it is.
        const wrong = s.dice.filter((d, slot) => view.dice[slot] !== (hidden.includes(slot) ? null : d));
        if (wrong.length > 0) throw new Error(`view of ${viewer} leaks or loses dice: ${JSON.stringify(view.dice)}`);
        // The board drawn from the view does not change whatever the hidden dice show.
        const altered: BluffState = { ...s, dice: s.dice.map((d, slot) => (hidden.includes(slot) && d !== null ? (d % 6) + 1 : d)) };
        if (JSON.stringify(bluff.board(bluff.playerView(altered, viewer))) !== JSON.stringify(bluff.board(view))) {
          throw new Error(`the board for ${viewer} depends on hidden dice`);
        }
      }
      checked++;
    };
    for (let seed = 1; seed <= 12; seed++) {
      playBotGame(bluff, ['A', 'B', 'C', 'D'].slice(0, 2 + (seed % 3)), seed, seed % 2 ? { showAndReroll: true, dicePerPlayer: '4' } : { dicePerPlayer: '4' }, check);
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('the bot decides from its own view: hidden dice of others do not change its move', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const game = playBotGame(bluff, ['A', 'B', 'C'], seed);
      for (const raw of game.states) {
        const s = raw as BluffState;
        if (s.over) continue;
        const others = hiddenSlots(s, s.current);
        const altered: BluffState = { ...s, dice: s.dice.map((d, slot) => (others.includes(slot) && d !== null ? (d % 6) + 1 : d)) };
        expect(bluff.bot(altered, () => 0.4)).toEqual(bluff.bot(s, () => 0.4));
      }
    }
  });
});

// ---------------------------------------------------------------------------
// Invariants over bot games

function invariants(raw: unknown, prevRaw: unknown | null): void {
  // Plain checks: expect() on every state of 300 games is slow.
  const s = raw as BluffState;
  const fail = (what: string) => {
    throw new Error(`round ${s.round}: ${what}`);
  };
  const total = s.players.reduce((a, p) => a + p.start, 0);
  if (s.players.reduce((a, p) => a + p.dice, 0) + s.centre !== total) fail('dice held + centre differ from the dice at the start');
  if (s.players.some((p) => p.dice > p.start)) fail('a player holds more dice than at the start');
  if (!s.over && s.players[s.current]!.dice === 0) fail('a player who is out is to act');
  if (s.phase === 'bid' && s.rethrow === null && cupSlots(s, s.current).some((slot) => s.dice[slot] === null)) fail('bidding with an unthrown cup');
  if (prevRaw === null) return;
  const prev = prevRaw as BluffState;
  if (prev.round === s.round && prev.bid && s.bid && s.bid !== prev.bid) {
    if (!(s.bid.position > prev.bid.position || (s.bid.position === prev.bid.position && s.bid.face > prev.bid.face))) fail('a bid did not increase');
  }
  if (prev.players.some((p, i) => p.dice === 0 && s.players[i]!.dice > 0)) fail('a player who was out came back');
}

describe('bot games', () => {
  it('keep the contract and the invariants (300 games)', () => {
    checkContract(bluff, 300, {}, invariants);
  });
  it('keep them with every variant on (100 games)', () => {
    checkContract(
      bluff,
      100,
      { showAndReroll: true, exactRule: 'allOthersLoseOne', protectLastDie: true, bidTrack: 'starAfterEven', nextRoundStarter: 'nextClockwise', dicePerPlayer: '3', maxQuantity: 12, stackedDice: 'liftTopDie' },
      invariants,
    );
  });
});

// ---------------------------------------------------------------------------
// Serialisation and replay

describe('state', () => {
  it('survives a JSON round-trip', () => {
    const s = step(step(dealt({ showAndReroll: true }), bid(4, 1)), { type: 'show', dice: [0, 1] });
    const back = JSON.parse(JSON.stringify(s)) as BluffState;
    expect(back).toEqual(s);
    expect(bluff.diceRequest(back)).toEqual(bluff.diceRequest(s));
  });

  it('replays a hand-made action list', () => {
    const actions: BluffAction[] = [
      ...CUPS.map((c) => roll(...c)),
      bid(3, 1),
      bid(4, 4),
      { type: 'challenge' }, // 5 fours-or-stars: C loses 1
      roll(2, 2, 2, 2, 2),
      roll(3, 3, 3, 3),
      { type: 'rethrow', dice: [10] },
      roll(4, 4, 4, 4),
      roll(1, 1, 1, 1, 1),
      bid(9, 5), // B (the last winner) opens
    ];
    const s = replay(bluff, ['A', 'B', 'C'], { dicePerPlayer: '5' }, actions) as BluffState;
    expect(diceOf(s)).toEqual([5, 5, 4]);
    expect(s.dice).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4, null]);
    expect(s.bid).toMatchObject({ quantity: 9, face: 5, bidder: 1 });
    expect(s.current).toBe(2);
  });
});

describe("the round's bids (the players' bid list)", () => {
  it('builds up over a round in order, with each bidder, and is cleared when a challenge starts the next round', () => {
    let s = dealt();
    expect(s.bids).toEqual([]);
    s = step(s, bid(3, 2));
    s = step(s, bid(2, STAR));
    s = step(s, bid(4, 5));
    expect(s.bids).toEqual([
      { position: positionOf(TRACK, 3, false), face: 2, quantity: 3, bidder: 0 },
      { position: positionOf(TRACK, 2, true), face: STAR, quantity: 2, bidder: 1 },
      { position: positionOf(TRACK, 4, false), face: 5, quantity: 4, bidder: 2 },
    ]);
    expect(s.bids.at(-1)).toEqual(s.bid);
    const items = (bluff.board(s) as TableBoard).panels.find((p) => p.id === 'bids')?.items;
    expect(items).toMatchObject([
      { label: 'A', value: '3 × 2s' },
      { label: 'B', value: '2 × ★' },
      { label: 'C', value: '4 × 5s' },
    ]);
    s = step(s, { type: 'challenge' });
    expect(s.round).toBe(2);
    expect(s.bids).toEqual([]);
  });

  it('open bids say their field (quantity, star) so a page need not read the board; a bid sent back must match its field', () => {
    const s = dealt();
    const bids = bluff.legalActions(s).filter((a): a is Extract<BluffAction, { type: 'bid' }> => a.type === 'bid');
    for (const b of bids) expect({ quantity: b.quantity, star: b.star }).toEqual({ quantity: TRACK[b.position - 1]!.quantity, star: TRACK[b.position - 1]!.star });
    expect(bids.filter((b) => b.star).every((b) => b.face === STAR)).toBe(true);
    const two = positionOf(TRACK, 2, false)!;
    expect(step(s, { type: 'bid', position: two, face: 4, quantity: 2, star: false }).bid).toMatchObject({ quantity: 2, face: 4 });
    const wrong = refuse(s, { type: 'bid', position: two, face: 4, quantity: 3 });
    expect(wrong.code).toBe('game/bad_bid');
    expect(wrong.message).toBe(`Field ${two} is 2: a bid there has quantity 2 and star false; got quantity 3 and star undefined.`);
    expect(refuse(s, { type: 'bid', position: two, face: 4, star: true }).code).toBe('game/bad_bid');
  });
});
