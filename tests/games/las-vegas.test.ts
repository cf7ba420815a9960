import { describe, it, expect } from 'vitest';
import { GameSetupError } from '../../src/games/types.js';
import {
  BILL_COUNT,
  BILL_VALUES,
  CASINO_COUNT,
  DEFAULT_OPTIONS,
  OPTION_SPECS,
  TOTAL_MONEY,
  bankMoney,
  billValue,
  casinoMinimum,
  casinoCounts,
  chasersPerPlayer,
  slotSize,
  dealCasinos,
  lasVegas,
  lasVegasBoard,
  money,
  scoreCasino,
  initialDeck,
  shuffle,
  slotColour,
  type Casino,
  type LasVegasAction,
  type LasVegasOptions,
  type LasVegasState,
  type PlacedDie,
} from '../../src/games/las-vegas.js';
import { checkContract, playBotGame, replay } from './harness.js';
import { checkInvariants } from './las-vegas-invariants.js';
import { refuse, roll, step } from './las-vegas-moves.js';

// ---------------------------------------------------------------------------
// Helpers

const place = (value: number): LasVegasAction => ({ type: 'place', value });
const names = (n: number): string[] => ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy'].slice(0, n);
const values = (ids: readonly number[]): number[] => ids.map(billValue);
const placedValues = (s: LasVegasState): number[] => lasVegas.legalActions(s).map((a) => (a.type === 'place' ? a.value : 0));

/** Bill ids with these values, each id used once (ids of equal value are interchangeable). */
function billIds(...wanted: number[]): number[] {
  const used = new Set<number>();
  return wanted.map((v) => {
    const id = BILL_VALUES.findIndex((b, i) => b === v && !used.has(i));
    if (id < 0) throw new Error(`no bill of ${v} left`);
    used.add(id);
    return id;
  });
}

/** `n` dice of a seat's colour (or neutral white when `seat` is null) from slot `from`. */
const dice = (colour: string, seat: number | null, n: number, from = 0): PlacedDie[] =>
  Array.from({ length: n }, (_, i) => ({ colour, seat, slot: from + i }));

/**
 * A scenario fixture: the round's last die is Ann's own die 7, every other
 * die already lies on the casinos given (casino number → bills and dice), all
 * other bills are in the deck in id order. The fixture does not place the
 * other dice of each seat: only the flow after the last placement matters.
 */
function lastDie(players: number, casinos: Record<number, Casino>, options: Partial<LasVegasOptions> = {}): LasVegasState {
  const s = lasVegas.setup(names(players), options);
  const table: Casino[] = Array.from({ length: CASINO_COUNT }, (_, i) => casinos[i + 1] ?? { bills: [], dice: [] });
  const onTable = new Set(table.flatMap((c) => c.bills));
  return {
    ...s,
    casinos: table,
    deck: BILL_VALUES.map((_, id) => id).filter((id) => !onTable.has(id)),
    players: s.players.map((p, i) => ({ ...p, hand: i === 0 ? [7] : [] })),
    current: 0,
    phase: 'throw',
  };
}

// ---------------------------------------------------------------------------
// Spec "Examples to test" (base game)

describe('spec examples: base scoring', () => {
  it('#1 A 4, B 4, C 1 with $60k, $30k: A and B cancel, C takes $60k, $30k goes under the deck', () => {
    expect(scoreCasino({ A: 4, B: 4, C: 1 }, [60000, 30000], (b) => b)).toEqual({ awards: [{ colour: 'C', bill: 60000 }], unclaimed: [30000] });
    const [b60, b30] = billIds(60000, 30000) as [number, number];
    let s = lastDie(3, { 2: { bills: [b60, b30], dice: [...dice('red', 0, 4), ...dice('green', 1, 4), ...dice('blue', 2, 1)] } }, { rounds: 1 });
    s = step(step(s, roll(6)), place(6));
    expect(s.phase).toBe('over');
    expect(s.players.map((p) => p.bills)).toEqual([[], [], [b60]]);
    expect(s.deck[s.deck.length - 1]).toBe(b30);
    expect(s.lastPayouts.filter((p) => p.casino === 2)).toEqual([
      { round: 1, casino: 2, bill: b60, colour: 'blue', seat: 2 },
      { round: 1, casino: 2, bill: b30, colour: null, seat: null },
    ]);
    expect(lasVegas.result(s)).toEqual({ winners: [2], scores: [0, 0, 60000] });
  });
  it('#2 A 3, B 2, C 2, D 1 with $90k, $50k, $20k: B and C cancel; A $90k, D $50k; $20k unclaimed', () => {
    expect(scoreCasino({ A: 3, B: 2, C: 2, D: 1 }, [20000, 90000, 50000], (b) => b)).toEqual({
      awards: [
        { colour: 'A', bill: 90000 },
        { colour: 'D', bill: 50000 },
      ],
      unclaimed: [20000],
    });
  });
  it('#3 A 2, B 2, C 2 with $70k: nobody wins', () => {
    expect(scoreCasino({ A: 2, B: 2, C: 2 }, [70000], (b) => b)).toEqual({ awards: [], unclaimed: [70000] });
  });
  it('#4 A 1 with $40k, $20k: A takes $40k only (one bill per colour)', () => {
    expect(scoreCasino({ A: 1 }, [20000, 40000], (b) => b)).toEqual({ awards: [{ colour: 'A', bill: 40000 }], unclaimed: [20000] });
  });
  it('#5 white 3, A 2 with $80k, $30k: white takes $80k under the deck, A takes $30k', () => {
    expect(scoreCasino({ white: 3, A: 2 }, [80000, 30000], (b) => b).awards).toEqual([
      { colour: 'white', bill: 80000 },
      { colour: 'A', bill: 30000 },
    ]);
    const [b80, b30] = billIds(80000, 30000) as [number, number];
    let s = lastDie(2, { 4: { bills: [b80, b30], dice: [...dice('white', 1, 3, 8), ...dice('red', 0, 2)] } }, { rounds: 1, neutralDice: true });
    s = step(step(s, roll(6)), place(6));
    expect(s.players[0]!.bills).toEqual([b30]);
    expect(s.players[1]!.bills).toEqual([]);
    expect(s.deck[s.deck.length - 1]).toBe(b80);
    expect(s.lastPayouts).toContainEqual({ round: 1, casino: 4, bill: b80, colour: 'white', seat: null });
  });
});

describe('spec examples: turns', () => {
  it('#6 Carla throws own 1, 1, white 1, own 5, white 6: the three 1s, the own 5 or the white 6', () => {
    let s = lasVegas.setup(names(3), { neutralDice: true });
    s = step(s, roll(2, 3)); // the two spare white dice
    s = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, hand: [0, 1, 2, 8, 9] } : p)) };
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 5, slots: [0, 1, 2, 8, 9], player: 0, secret: false });
    s = step(s, roll(1, 1, 5, 1, 6));
    expect(placedValues(s)).toEqual([1, 5, 6]);
    const ones = step(s, place(1));
    expect(ones.casinos[0]!.dice).toEqual([
      { colour: 'red', seat: 0, slot: 0 },
      { colour: 'red', seat: 0, slot: 1 },
      { colour: 'white', seat: 0, slot: 8 },
    ]);
    expect(ones.players[0]!.hand).toEqual([2, 9]);
    expect(step(s, place(5)).casinos[4]!.dice).toEqual([...s.casinos[4]!.dice, { colour: 'red', seat: 0, slot: 2 }]);
    // A value shown only by a white die may be chosen.
    const six = step(s, place(6));
    expect(six.casinos[5]!.dice).toEqual([{ colour: 'white', seat: 0, slot: 9 }]);
    expect(six.players[0]!.hand).toEqual([0, 1, 2, 8]);
  });
  it('#7 A throws 2,2,5,6,6,6: options 2, 5, 6; choosing 6 places all three 6s', () => {
    let s = lasVegas.setup(names(2));
    s = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, hand: [0, 1, 2, 3, 4, 5] } : p)) };
    s = step(s, roll(2, 2, 5, 6, 6, 6));
    expect(placedValues(s)).toEqual([2, 5, 6]);
    s = step(s, place(6));
    expect(s.casinos[5]!.dice).toEqual(dice('red', 0, 3, 3));
    expect(s.players[0]!.hand).toEqual([0, 1, 2]);
    expect(s.current).toBe(1);
  });
});

// ---------------------------------------------------------------------------
// Set-up and round flow

describe('set-up', () => {
  it('deals each casino in order until it holds at least $50,000, from a shuffled 54-bill deck', () => {
    const s = lasVegas.setup(names(4));
    expect(BILL_COUNT).toBe(54);
    expect(TOTAL_MONEY).toBe(2_500_000);
    s.casinos.forEach((c) => {
      const total = values(c.bills).reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThanOrEqual(50000);
      expect(values(c.bills)).toEqual([...values(c.bills)].sort((a, b) => b - a));
    });
    const dealtInOrder = dealCasinos(initialDeck(0), 50000);
    expect(s.casinos).toEqual(dealtInOrder.casinos);
    expect(s.deck).toEqual(dealtInOrder.deck);
    expect(bankMoney(s)).toBe(TOTAL_MONEY);
  });
  it('dealCasinos stops at the minimum and moves on to the next casino', () => {
    const deck = billIds(20000, 20000, 10000, 90000, 40000, 10000, 50000, 30000, 30000, 60000, 70000, 80000);
    const { casinos, deck: rest } = dealCasinos(deck, 50000);
    expect(casinos.map((c) => values(c.bills))).toEqual([[20000, 20000, 10000], [90000], [40000, 10000], [50000], [30000, 30000], [60000]]);
    expect(values(rest)).toEqual([70000, 80000]);
  });
  it('gives each player 8 dice in their colour (red, green, blue, black, white) and seat 0 starts', () => {
    const s = lasVegas.setup(names(5));
    expect(s.players.map((p) => p.colour)).toEqual(['red', 'green', 'blue', 'black', 'white']);
    expect(s.players.every((p) => p.hand.length === 8)).toBe(true);
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 8, slots: [0, 1, 2, 3, 4, 5, 6, 7], player: 0, secret: false });
    expect(s.startPlayer).toBe(0);
    expect(slotColour(s, 3)).toBe('red');
  });
  it('refuses bad player lists and options', () => {
    expect(() => lasVegas.setup(['Ann'])).toThrow(GameSetupError);
    expect(() => lasVegas.setup(names(9))).toThrow(/1 to 8 players/);
    expect(() => lasVegas.setup(['Ann'])).toThrow(/mode 'solo'/);
    expect(() => lasVegas.setup(names(6))).toThrow(/extraPlayerDice/);
    expect(() => lasVegas.setup(names(5), { neutralDice: true })).toThrow(/extraPlayerDice/);
    expect(() => lasVegas.setup(names(6), { neutralDice: true, extraPlayerDice: true })).toThrow(/2 to 5 players/);
    expect(() => lasVegas.setup(names(4), { extraPlayerDice: true })).toThrow(/6 to 8 players/);
    expect(() => lasVegas.setup(names(2), { rounds: 0 })).toThrow(GameSetupError);
    expect(() => lasVegas.setup(names(2), { unclaimedBills: 'burn' } as unknown as Partial<LasVegasOptions>)).toThrow(GameSetupError);
    expect(() => lasVegas.setup(names(2), { slotMachines: true } as unknown as Partial<LasVegasOptions>)).toThrow(/Unknown/);
  });
  it('exposes every option with its spec default', () => {
    const s = lasVegas.setup(names(2));
    expect(Object.keys(s.options).sort()).toEqual(OPTION_SPECS.map((o) => o.name).sort());
    expect(s.options).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({ unclaimedBills: 'bottomOfDeck', reshuffleEachRound: false, finalTie: 'shared', casinoMinimum: 50000, rounds: 4, neutralDice: false });
  });
});

describe('turns and rounds', () => {
  it('skips players who hold no dice; the round ends when every die is placed', () => {
    let s = lasVegas.setup(names(3));
    s = { ...s, players: s.players.map((p, i) => ({ ...p, hand: i === 1 ? [] : [0, 1] })) };
    s = step(step(s, roll(3, 4)), place(3));
    expect(s.current).toBe(2);
    s = step(step(s, roll(4, 5)), place(4));
    expect(s.current).toBe(0);
    s = step(step(s, roll(2)), place(2)); // Ann is out of dice
    expect(s.current).toBe(2);
    s = step(step(s, roll(5)), place(5));
    // All placed: scored, round 2 set up, start player passes left.
    expect(s.round).toBe(2);
    expect(s.startPlayer).toBe(1);
    expect(s.current).toBe(1);
    expect(s.players.every((p) => p.hand.length === 8)).toBe(true);
    expect(s.casinos.every((c) => c.dice.length === 0)).toBe(true);
    // Ann alone on casinos 2 and 3, Cat alone on 4 and 5: each takes the top bill there.
    const dealt = lasVegas.setup(names(3)).casinos.map((c) => c.bills[0]);
    expect(s.players.map((p) => p.bills)).toEqual([[dealt[1], dealt[2]], [], [dealt[3], dealt[4]]]);
  });
  it('a player holding dice throws all of them, and only those', () => {
    let s = lasVegas.setup(names(2));
    s = step(step(s, roll(1, 1, 2, 2, 3, 3, 4, 5)), place(3));
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 8, player: 1 });
    s = step(step(s, roll(6, 6, 6, 6, 6, 6, 6, 1)), place(1));
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 6, slots: [0, 1, 2, 3, 6, 7], player: 0, secret: false });
  });
  it('plays four rounds and the player with most money wins', () => {
    const game = playBotGame(lasVegas, names(4), 7);
    const final = game.final as LasVegasState;
    expect(final.round).toBe(4);
    expect(final.phase).toBe('over');
    const scores = money(final);
    expect(game.result.scores).toEqual(scores);
    expect(game.result.winners).toEqual(scores.flatMap((m, i) => (m === Math.max(...scores) ? [i] : [])));
    const starters = (game.states as LasVegasState[]).filter((s, i, all) => i === 0 || s.round !== all[i - 1]!.round).map((s) => s.startPlayer);
    expect(starters).toEqual([0, 1, 2, 3]);
  });
  it('the board tells whose turn it is and shows the casinos', () => {
    let s = lasVegas.setup(names(2));
    expect(lasVegas.board(s).status).toBe('Ann (red): throw your 8 dice');
    s = step(s, roll(1, 1, 2, 2, 3, 3, 4, 5));
    const b = lasVegas.board(s);
    expect(b.status).toBe('Ann (red): place the dice of one value (1, 2, 3, 4, 5)');
    expect(b.dice).toEqual([1, 1, 2, 2, 3, 3, 4, 5]);
    expect(b.panels.map((p) => p.id)).toEqual(['round', 'casino1', 'casino2', 'casino3', 'casino4', 'casino5', 'casino6', 'billsWon', 'lastPayouts']);
    s = step(s, place(2));
    expect(lasVegas.board(s).panels[2]!.items).toContainEqual({ id: 'colour', label: 'red', params: { colour: { key: 'common.diceLooks.red', params: {} } }, value: 2 });
  });
  it('the board gives each thrown die its colour and size, and each player\'s bills won', () => {
    let s = lasVegas.setup(names(2), { bigDice: true, chaserDice: true, neutralDice: true });
    s = step(s, roll(6, 1, 1, 2, 2, 3, 4, 5, 6, 6, 5, 5));
    const look = lasVegas.board(s).diceLook!;
    expect(look.map((d) => (d ? `${d.size === 'big' ? 'big ' : ''}${d.colour}` : null))).toEqual(s.thrown.map((_, slot) => `${slotSize(s, slot) === 'big' ? 'big ' : ''}${slotColour(s, slot)}`));
    expect(look[0]).toEqual({ colour: 'red', size: 'big' });
    expect(look.slice(6, 8).map((d) => d?.colour)).toEqual(['purple', 'purple']);
    expect(look.slice(8).every((d) => d?.colour === 'white')).toBe(true);
    // A die not thrown has no look.
    s = step(s, place(1));
    expect(lasVegas.board(s).diceLook!.every((d) => d === null)).toBe(true);
    const over = playBotGame(lasVegas, names(2), 3).final as LasVegasState;
    const won = lasVegas.board(over).panels.find((p) => p.id === 'billsWon')!.items;
    expect(won.map((i) => i.label)).toEqual(['Ann', 'Bob']);
    over.players.forEach((p, i) => expect(won[i]!.value).toBe(values(p.bills).map((v) => `$${v.toLocaleString('en-US')}`).join(', ')));
  });
  it('the board carries its numbers apart from the labels: bills by casino, money and bills by seat, payouts, an early payout waiting', () => {
    const s = lasVegas.setup(names(2), { colourfulBills: true, deckSeed: 4 });
    const data = lasVegasBoard({ ...s, earlyPayouts: [{ seat: 0, casino: 2 }] }).lasVegas;
    expect(data.casinos.map((c) => c.bills.map((b) => b.value))).toEqual(s.casinos.map((c) => values(c.bills)));
    expect(data.casinos.map((c) => c.earlyPayout)).toEqual([false, true, false, false, false, false]);
    expect(data.colourMoney).toBeNull();
    const over = playBotGame(lasVegas, names(3), 8).final as LasVegasState;
    const end = lasVegasBoard(over).lasVegas;
    expect(end.players.map((p) => p.money)).toEqual(money(over));
    expect(end.players.map((p) => p.bills.map((b) => b.value))).toEqual(over.players.map((p) => values(p.bills)));
    expect(end.payouts.map((p) => [p.casino, p.seat, p.bill.value])).toEqual(over.lastPayouts.filter((p) => p.colour !== null).map((p) => [p.casino, p.seat, billValue(p.bill)]));
    expect(end.payouts.length).toBeGreaterThan(0);
  });
  it('solo and secret colours give the money each colour won, to play against', () => {
    for (const [players, mode] of [[1, 'solo'], [3, 'secretColours']] as const) {
      // Checked in every state of a bot game (secret colours hands the colours' bills out at the end).
      let shown = 0;
      playBotGame(lasVegas, names(players), 5, { mode }, (state) => {
        const s = state as LasVegasState;
        const rows = lasVegasBoard(lasVegas.playerView(s, null)).lasVegas.colourMoney!;
        expect(rows.map((r) => r.colour)).toEqual(Object.keys(s.colourBills));
        expect(rows.map((r) => r.money)).toEqual(Object.values(s.colourBills).map((ids) => values(ids).reduce((a, b) => a + b, 0)));
        shown = Math.max(shown, ...rows.map((r) => r.money));
      });
      expect(shown).toBeGreaterThan(0);
    }
  });
});

describe('refusals', () => {
  const s0 = lasVegas.setup(names(2));
  it('refuses a throw of the wrong size or with bad values', () => {
    expect(refuse(s0, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s0, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s0, roll(1, 2, 3, 4, 5, 6, 1, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s0, { type: 'roll', values: [1, 2, 3, 4, 5, 6, 1, '2'] }).code).toBe('game/bad_die_value');
    expect(refuse(s0, roll(1, 2, 3, 4, 5, 6, 1, 2.5)).code).toBe('game/bad_die_value');
  });
  it('refuses placing before throwing, throwing twice, and values not thrown', () => {
    expect(refuse(s0, place(1)).code).toBe('game/no_throw_yet');
    const s = step(s0, roll(1, 1, 1, 1, 2, 2, 2, 2));
    expect(refuse(s, roll(1, 1, 1, 1, 2, 2, 2, 2)).code).toBe('game/must_place');
    expect(refuse(s, place(3)).code).toBe('game/value_not_thrown');
    expect(refuse(s, place(0)).code).toBe('game/bad_value');
    expect(refuse(s, { type: 'place', value: '1' }).code).toBe('game/bad_value');
    expect(lasVegas.diceRequest(s)).toBeNull();
    expect(lasVegas.legalActions(s0)).toEqual([]);
  });
  it('refuses unknown actions and anything after the game is over', () => {
    expect(refuse(s0, { type: 'pass' }).code).toBe('game/unknown_action');
    expect(refuse(s0, null).code).toBe('game/unknown_action');
    expect(refuse(s0, 'roll').code).toBe('game/unknown_action');
    const over = playBotGame(lasVegas, names(2), 3).final as LasVegasState;
    expect(refuse(over, roll(1)).code).toBe('game/over');
    expect(lasVegas.diceRequest(over)).toBeNull();
    expect(lasVegas.legalActions(over)).toEqual([]);
    expect(lasVegas.board(over).status).toMatch(/^Game over: /);
  });
});

// ---------------------------------------------------------------------------
// Options: each changes behaviour against the default

describe('options', () => {
  it("unclaimedBills 'discard' puts bills nobody wins out of the game (LV-1)", () => {
    const [b60, b30] = billIds(60000, 30000) as [number, number];
    const casinos = { 2: { bills: [b60, b30], dice: [...dice('red', 0, 4), ...dice('green', 1, 4), ...dice('blue', 2, 1)] } };
    const kept = step(step(lastDie(3, casinos, { rounds: 1 }), roll(6)), place(6));
    const gone = step(step(lastDie(3, casinos, { rounds: 1, unclaimedBills: 'discard' }), roll(6)), place(6));
    expect(kept.discard).toEqual([]);
    expect(kept.deck).toContain(b30);
    expect(gone.discard).toEqual([b30]);
    expect(gone.deck).not.toContain(b30);
    expect(bankMoney(gone) + money(gone).reduce((a, b) => a + b, 0)).toBe(TOTAL_MONEY);
  });
  it('reshuffleEachRound shuffles the deck before round 2 (LV-2)', () => {
    const deckOrder = billIds(10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000, 90000, 10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000, 90000);
    const atEnd = (options: Partial<LasVegasOptions>): LasVegasState => {
      const s = lastDie(2, {}, { rounds: 2, ...options });
      return step(step({ ...s, deck: deckOrder }, roll(1)), place(1));
    };
    const carriedOn = atEnd({});
    expect(carriedOn.casinos).toEqual(dealCasinos(deckOrder, 50000).casinos);
    const reshuffled = atEnd({ reshuffleEachRound: true });
    expect(reshuffled.round).toBe(2);
    expect(reshuffled.casinos).not.toEqual(carriedOn.casinos);
    const all = (s: LasVegasState) => [...s.deck, ...s.casinos.flatMap((c) => c.bills)].sort((a, b) => Number(a) - Number(b));
    expect(all(reshuffled)).toEqual(all(carriedOn));
  });
  it("finalTie 'mostBills' breaks a tie for most money by the number of bills (LV-3)", () => {
    const [b60, b30a, b30b] = billIds(60000, 30000, 30000) as [number, number, number];
    const casinos = {
      1: { bills: [b60], dice: dice('red', 0, 1) },
      2: { bills: [b30a], dice: dice('green', 1, 1) },
      3: { bills: [b30b], dice: dice('green', 1, 1, 1) },
    };
    const shared = step(step(lastDie(2, casinos, { rounds: 1 }), roll(6)), place(6));
    expect(lasVegas.result(shared)).toEqual({ winners: [0, 1], scores: [60000, 60000] });
    expect(lasVegas.board(shared).status).toBe('Game over: Ann and Bob share the win with $60,000');
    const broken = step(step(lastDie(2, casinos, { rounds: 1, finalTie: 'mostBills' }), roll(6)), place(6));
    expect(lasVegas.result(broken)).toEqual({ winners: [1], scores: [60000, 60000] });
  });
  it('casinoMinimum sets how much each casino is dealt (LV-4)', () => {
    const low = lasVegas.setup(names(2));
    const high = lasVegas.setup(names(2), { casinoMinimum: 150000 });
    for (const c of high.casinos) expect(values(c.bills).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(150000);
    expect(high.deck.length).toBeLessThan(low.deck.length);
  });
  it('rounds sets the length of the game (LV-5)', () => {
    const two = playBotGame(lasVegas, names(3), 11, { rounds: 2 }).final as LasVegasState;
    expect(two.round).toBe(2);
    expect(two.phase).toBe('over');
    // One round with one die each way is the shortest game.
    const s = step(step(lastDie(2, {}, { rounds: 1 }), roll(1)), place(1));
    expect(s.phase).toBe('over');
    expect(step(step(lastDie(2, {}), roll(1)), place(1)).phase).toBe('throw');
  });
  it('neutralDice: players take red, green, blue, black and throw white dice with their own (spec 2.5)', () => {
    const plain = lasVegas.setup(names(2));
    const s = lasVegas.setup(names(4), { neutralDice: true });
    expect(s.players.map((p) => p.colour)).toEqual(['red', 'green', 'blue', 'black']);
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 10, slots: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], player: 0, secret: false });
    expect(slotColour(s, 8)).toBe('white');
    expect(lasVegas.diceRequest(plain)?.count).toBe(8);
    expect(lasVegas.dice.count).toBe(16);
  });
  it('neutralDice with 3 players: the start player throws the 2 spare white dice onto the casinos before each round', () => {
    let s = lasVegas.setup(names(3), { neutralDice: true });
    expect(s.phase).toBe('spareThrow');
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 2, slots: [8, 9], player: 0, secret: false });
    expect(lasVegas.board(s).status).toBe('Ann (red): throw the 2 spare white dice onto the casinos');
    s = step(s, roll(3, 5));
    expect(s.casinos[2]!.dice).toEqual([{ colour: 'white', seat: null, slot: 8 }]);
    expect(s.casinos[4]!.dice).toEqual([{ colour: 'white', seat: null, slot: 9 }]);
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 10, slots: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], player: 0, secret: false });
    // Next round Bob starts with the spare throw.
    s = { ...s, players: s.players.map((p, i) => ({ ...p, hand: i === 0 ? [0] : [] })) };
    s = step(step(s, roll(1)), place(1));
    expect(s.round).toBe(2);
    expect(s.phase).toBe('spareThrow');
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 2, player: 1 });
  });
  it('neutralPerPlayer2, neutralPerPlayer3 and neutralPerPlayer4 set the white dice per player (LV-6)', () => {
    const count = (n: number, o: Partial<LasVegasOptions>) => lasVegas.setup(names(n), { neutralDice: true, ...o });
    expect(lasVegas.diceRequest(count(2, {}))?.count).toBe(12);
    expect(lasVegas.diceRequest(count(2, { neutralPerPlayer2: 2 }))?.count).toBe(10);
    expect(lasVegas.diceRequest(count(4, {}))?.count).toBe(10);
    expect(lasVegas.diceRequest(count(4, { neutralPerPlayer4: 1 }))?.count).toBe(9);
    const three = count(3, { neutralPerPlayer3: 1 });
    expect(three.whitePerPlayer).toBe(1);
    expect(lasVegas.diceRequest(three)).toMatchObject({ count: 5, slots: [8, 9, 10, 11, 12], player: 0, secret: false });
    expect(count(3, {}).spareWhite).toBe(2);
  });
  it('deckSeed picks the deck order; the same seed gives the same game', () => {
    const a = lasVegas.setup(names(2), { deckSeed: 1 });
    expect(lasVegas.setup(names(2), { deckSeed: 1 })).toEqual(a);
    expect(lasVegas.setup(names(2), { deckSeed: 2 }).deck).not.toEqual(a.deck);
    expect(lasVegas.setup(names(2)).deck).not.toEqual(a.deck);
    // The shuffle is a pure permutation of the 54 bills.
    expect([...initialDeck(99)].sort((x, y) => x - y)).toEqual(BILL_VALUES.map((_, id) => id));
    expect(shuffle(['a', 'b', 'c', 'd'], 5)).toEqual(shuffle(['a', 'b', 'c', 'd'], 5));
  });
});

// ---------------------------------------------------------------------------
// Expansion modules

describe('module extraPlayerDice (spec 3.3)', () => {
  it('off by default: 6 players are refused; on: yellow, grey and purple take seats 6, 7 and 8', () => {
    expect(DEFAULT_OPTIONS.extraPlayerDice).toBe(false);
    expect(() => lasVegas.setup(names(6))).toThrow(GameSetupError);
    const eight = lasVegas.setup(names(8), { extraPlayerDice: true });
    expect(eight.players.map((p) => p.colour)).toEqual(['red', 'green', 'blue', 'black', 'white', 'yellow', 'grey', 'purple']);
    expect(eight.players.every((p) => p.hand.length === 8)).toBe(true);
    expect(lasVegas.setup(names(7), { extraPlayerDice: true }).players.map((p) => p.colour).slice(5)).toEqual(['yellow', 'grey']);
    expect(lasVegas.dice.colours).toEqual(expect.arrayContaining(['yellow', 'grey', 'purple']));
  });
  it('the 8th player plays purple like any colour: their dice count and win bills', () => {
    const [b90] = billIds(90000) as [number];
    let s = lastDie(8, { 3: { bills: [b90], dice: [...dice('purple', 7, 2), ...dice('yellow', 5, 1)] } }, { extraPlayerDice: true, rounds: 1 });
    s = step(step(s, roll(6)), place(6));
    expect(s.players[7]!.bills).toEqual([b90]);
    expect(lasVegas.result(s)!.scores[7]).toBe(90000);
  });
  it('with neutral dice, 5 players: white is neutral, the 5th player takes yellow, 2 white dice each (10 in all)', () => {
    const s = lasVegas.setup(names(5), { neutralDice: true, extraPlayerDice: true });
    expect(s.players.map((p) => p.colour)).toEqual(['red', 'green', 'blue', 'black', 'yellow']);
    expect(s.whitePerPlayer).toBe(2);
    expect(s.spareWhite).toBe(0);
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 10, slots: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], player: 0, secret: false });
    expect(lasVegas.diceRequest(lasVegas.setup(names(5), { neutralDice: true, extraPlayerDice: true, neutralPerPlayer5: 1 }))?.count).toBe(9);
  });
});

describe('module bigDice (spec 3.5)', () => {
  // Slot 0 is the big die: the normal dice of these fixtures start at slot 1.
  const big = (colour: string, seat: number): PlacedDie => ({ colour, seat, slot: 0 });
  it('#8 A: big + 2 normal (= 4), B: 4 normal: a tie, both cancel (without big dice B wins)', () => {
    const casino: Casino = { bills: [], dice: [big('red', 0), ...dice('red', 0, 2, 1), ...dice('green', 1, 4, 1)] };
    expect(casinoCounts(casino, true)).toEqual({ red: 4, green: 4 });
    expect(scoreCasino(casinoCounts(casino, true), [70000], (b) => b)).toEqual({ awards: [], unclaimed: [70000] });
    const [b70] = billIds(70000) as [number];
    const play = (options: Partial<LasVegasOptions>) => step(step(lastDie(2, { 2: { ...casino, bills: [b70] } }, { rounds: 1, ...options }), roll(6)), place(6));
    const withBig = play({ bigDice: true });
    expect(withBig.players.map((p) => p.bills)).toEqual([[], []]);
    expect(withBig.lastPayouts.filter((p) => p.casino === 2)).toEqual([{ round: 1, casino: 2, bill: b70, colour: null, seat: null }]);
    expect(play({}).players.map((p) => p.bills)).toEqual([[], [b70]]);
  });
  it('#9 A: big only (= 2), B: 1: A first, B second (without big dice they tie and cancel)', () => {
    const [b60, b20] = billIds(60000, 20000) as [number, number];
    const casino: Casino = { bills: [b60, b20], dice: [big('red', 0), ...dice('green', 1, 1, 1)] };
    expect(casinoCounts(casino, true)).toEqual({ red: 2, green: 1 });
    expect(casinoCounts(casino)).toEqual({ red: 1, green: 1 });
    const play = (options: Partial<LasVegasOptions>) => step(step(lastDie(2, { 4: casino }, { rounds: 1, ...options }), roll(6)), place(6));
    expect(play({ bigDice: true }).players.map((p) => p.bills)).toEqual([[b60], [b20]]);
    expect(play({}).players.map((p) => p.bills)).toEqual([[], []]);
  });
  it('slot 0 is the big die: thrown and placed with the others, shown by slotSize; 2-7 players only', () => {
    expect(DEFAULT_OPTIONS.bigDice).toBe(false);
    let s = lasVegas.setup(names(2), { bigDice: true });
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 8, slots: [0, 1, 2, 3, 4, 5, 6, 7], player: 0, secret: false });
    expect(lasVegas.diceRequest(s)?.dice?.map((d) => `${d.size} ${d.colour}`)).toEqual(['big red', ...Array<string>(7).fill('normal red')]);
    expect(slotSize(s, 0)).toBe('big');
    expect(slotSize(s, 1)).toBe('normal');
    expect(slotSize(lasVegas.setup(names(2)), 0)).toBe('normal');
    expect(lasVegas.dice.sizes).toEqual(['normal', 'big']);
    s = step(step(s, roll(3, 3, 1, 1, 1, 2, 4, 5)), place(3));
    expect(s.casinos[2]!.dice).toEqual([{ ...big('red', 0), big: true }, { colour: 'red', seat: 0, slot: 1 }]);
    expect(lasVegas.board(s).panels[3]!.items).toContainEqual({ id: 'colour', label: 'red', params: { colour: { key: 'common.diceLooks.red', params: {} } }, value: 3 });
    expect(lasVegas.setup(names(7), { bigDice: true, extraPlayerDice: true }).players).toHaveLength(7);
    expect(() => lasVegas.setup(names(8), { bigDice: true, extraPlayerDice: true })).toThrow(/2 to 7 players/);
  });
});

describe('module chaserDice (spec 3.6, LV-9)', () => {
  const chase = (seat: number | null, slot: number): LasVegasAction => ({ type: 'chase', seat, slot });
  /** Ann (red) holds own dice 0, 1 and her chaser 7; casino 5 holds Bob's 3 green dice; Bob holds nothing. */
  const ten = (options: Partial<LasVegasOptions> = {}): LasVegasState => {
    const s = lastDie(2, { 5: { bills: billIds(50000), dice: dice('green', 1, 3) } }, { chaserDice: true, ...options });
    return { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, hand: [0, 1, 7] } : p)) };
  };
  it('#10 casino 5 holds B 3; A places own 5, own 5 and a chaser 5: A removes one of B\'s dice, A 2 and B 2 remain, the chaser is spent', () => {
    let s = step(ten(), roll(5, 5, 5));
    expect(slotColour(s, 7)).toBe('purple');
    s = step(s, place(5));
    expect(s.phase).toBe('chase');
    expect(s.current).toBe(0);
    expect(lasVegas.diceRequest(s)).toBeNull();
    expect(lasVegas.legalActions(s)).toEqual([chase(1, 0), chase(1, 1), chase(1, 2), chase(0, 0), chase(0, 1)]);
    expect(lasVegas.board(s).status).toBe('Ann (red): choose a die for the chaser to remove from casino 5');
    s = step(s, chase(1, 2));
    expect(casinoCounts(s.casinos[4]!)).toEqual({ green: 2, red: 2 });
    expect(s.setAside).toEqual([{ colour: 'purple', seat: 0, slot: 7 }]);
    expect(s.players[1]!.hand).toEqual([2]);
    expect(lasVegas.board(s).panels[0]!.items).toContainEqual({ id: 'chasersSpent', label: 'Chasers spent', value: 1 });
  });
  it('#11 a lone chaser placed on an empty casino has no effect and is spent', () => {
    let s = lastDie(2, {}, { chaserDice: true, rounds: 2 });
    s = step(step(s, roll(3)), place(3));
    // Nothing to remove: the turn ends at once, here with the round (every die placed).
    expect(s.round).toBe(2);
    expect(s.lastPayouts.every((p) => p.casino !== 3 || p.colour === null)).toBe(true);
    const mid = step({ ...lastDie(2, {}, { chaserDice: true }), players: lastDie(2, {}, { chaserDice: true }).players.map((p) => ({ ...p, hand: [7, 1] })) }, roll(3, 4));
    const after = step(mid, place(3));
    expect(after.phase).toBe('throw');
    expect(after.current).toBe(1);
    expect(after.casinos[2]!.dice).toEqual([]);
    expect(after.setAside).toEqual([{ colour: 'purple', seat: 0, slot: 7 }]);
  });
  it('#12 B had no dice; A\'s chaser removes B\'s die: B re-enters and throws it on the next turn', () => {
    let s = step(step(ten(), roll(5, 5, 5)), place(5));
    expect(s.players[1]!.hand).toEqual([]);
    s = step(s, chase(1, 0));
    expect(s.phase).toBe('throw');
    expect(s.current).toBe(1);
    expect(lasVegas.diceRequest(s)).toMatchObject({ count: 1, slots: [0], player: 1, secret: false });
    s = step(step(s, roll(2)), place(2));
    // Ann has no dice left and Bob placed his last one: the round is scored, next round everyone has their chasers back.
    expect(s.round).toBe(2);
    expect(s.setAside).toEqual([]);
    expect(s.players.every((p) => p.hand.length === 8)).toBe(true);
  });
  it('two chasers each remove a die, own dice just placed included; without targets the rest are simply spent', () => {
    let s = lastDie(2, {}, { chaserDice: true });
    s = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, hand: [0, 6, 7] } : p)) };
    s = step(step(s, roll(2, 2, 2)), place(2));
    expect(lasVegas.legalActions(s)).toEqual([chase(0, 0)]);
    s = step(s, chase(0, 0));
    expect(s.casinos[1]!.dice).toEqual([]);
    expect(s.setAside.map((d) => d.slot)).toEqual([6, 7]);
    expect(s.players[0]!.hand).toEqual([0]);
    expect(s.phase).toBe('throw');
    expect(s.current).toBe(0);
  });
  it("off by default: the same throw puts Ann's die 7 on the casino as a red die", () => {
    const plain = ten({ chaserDice: false });
    const s = step(step({ ...plain, players: plain.players.map((p, i) => (i === 1 ? { ...p, hand: [3] } : p)) }, roll(5, 5, 5)), place(5));
    expect(casinoCounts(s.casinos[4]!)).toEqual({ green: 3, red: 3 });
    expect(s.casinos[4]!.dice).toContainEqual({ colour: 'red', seat: 0, slot: 7 });
    expect(s.setAside).toEqual([]);
  });
  it("chaserTargets 'opponentsOnly': only dice other players placed may be removed", () => {
    const s = step(step(ten({ chaserTargets: 'opponentsOnly' }), roll(5, 5, 5)), place(5));
    expect(lasVegas.legalActions(s)).toEqual([chase(1, 0), chase(1, 1), chase(1, 2)]);
    expect(refuse(s, chase(0, 0)).code).toBe('game/bad_chase_target');
    // With only own dice there, the chaser has nothing to remove.
    let own = lastDie(2, {}, { chaserDice: true, chaserTargets: 'opponentsOnly' });
    own = { ...own, players: own.players.map((p, i) => (i === 0 ? { ...p, hand: [0, 7] } : { ...p, hand: [0] })) };
    own = step(step(own, roll(4, 4)), place(4));
    expect(own.phase).toBe('throw');
    expect(own.casinos[3]!.dice).toEqual([{ colour: 'red', seat: 0, slot: 0 }]);
  });
  it('two chasers each with 2-5 players, one with 6-7; 8 players refused; refusals while a chaser waits', () => {
    expect(chasersPerPlayer({ ...DEFAULT_OPTIONS, chaserDice: true }, 5)).toBe(2);
    expect(chasersPerPlayer({ ...DEFAULT_OPTIONS, chaserDice: true }, 6)).toBe(1);
    const seven = lasVegas.setup(names(7), { chaserDice: true, extraPlayerDice: true });
    expect([slotColour(seven, 6), slotColour(seven, 7)]).toEqual(['red', 'purple']);
    const two = lasVegas.setup(names(2), { chaserDice: true });
    expect([slotColour(two, 5), slotColour(two, 6), slotColour(two, 7)]).toEqual(['red', 'purple', 'purple']);
    expect(() => lasVegas.setup(names(8), { chaserDice: true, extraPlayerDice: true })).toThrow(/2 to 7 players/);
    const s = step(step(ten(), roll(5, 5, 5)), place(5));
    expect(refuse(s, roll(1)).code).toBe('game/must_chase');
    expect(refuse(s, place(5)).code).toBe('game/must_chase');
    expect(refuse(s, chase(1, 7)).code).toBe('game/bad_chase_target');
    expect(refuse(s, { type: 'chase' }).code).toBe('game/bad_chase_target');
    expect(refuse(two, chase(1, 0)).code).toBe('game/no_chaser');
  });
});

describe('module minimumStakeByPlayers (spec 3.1, LV-31)', () => {
  const dealtAtLeast = (s: LasVegasState, min: number): boolean => s.casinos.every((c) => values(c.bills).reduce((a, b) => a + b, 0) >= min);
  it('off: every casino is dealt up to casinoMinimum; on: up to $30,000 with 2 players ... $90,000 with 8', () => {
    const plain = lasVegas.setup(names(2));
    const two = lasVegas.setup(names(2), { minimumStakeByPlayers: true });
    expect(two.casinos).toEqual(dealCasinos(initialDeck(0), 30000).casinos);
    expect(plain.casinos).toEqual(dealCasinos(initialDeck(0), 50000).casinos);
    expect(two.casinos).not.toEqual(plain.casinos);
    const eight = lasVegas.setup(names(8), { minimumStakeByPlayers: true, extraPlayerDice: true });
    expect(eight.casinos).toEqual(dealCasinos(initialDeck(0), 90000).casinos);
    expect(dealtAtLeast(eight, 90000)).toBe(true);
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => casinoMinimum({ ...DEFAULT_OPTIONS, minimumStakeByPlayers: true }, n))).toEqual([30000, 40000, 50000, 60000, 70000, 80000, 90000]);
    expect(casinoMinimum(DEFAULT_OPTIONS, 8)).toBe(50000);
  });
  it('minimumByPlayersN changes the value for that player count only', () => {
    const o = { ...DEFAULT_OPTIONS, minimumStakeByPlayers: true, minimumByPlayers3: 100000 };
    expect(casinoMinimum(o, 3)).toBe(100000);
    expect(casinoMinimum(o, 4)).toBe(50000);
    expect(dealtAtLeast(lasVegas.setup(names(3), { minimumStakeByPlayers: true, minimumByPlayers3: 100000 }), 100000)).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Invariants over bot games

describe('contract', () => {
  it('300 bot games keep the contract, conserve money, bills and dice', () => {
    // The harness seats what playerRange allows for the options: 2-5 here, 6-8 only with extraPlayerDice.
    checkContract(lasVegas, 300, {}, checkInvariants);
  });
  it('with neutral dice, discarded unclaimed bills, reshuffles, a high minimum and 3 rounds', () => {
    checkContract(lasVegas, 150, { neutralDice: true, unclaimedBills: 'discard', reshuffleEachRound: true, finalTie: 'mostBills', casinoMinimum: 90000, rounds: 3, deckSeed: 4242 }, checkInvariants);
  });
  it('with chasers (both target rules), big dice and neutral dice', () => {
    let chases = 0;
    const counting = (state: unknown, previous: unknown | null): void => {
      checkInvariants(state, previous);
      if ((previous as LasVegasState | null)?.phase === 'chase') chases++;
    };
    checkContract(lasVegas, 40, { chaserDice: true, bigDice: true, neutralDice: true }, counting);
    checkContract(lasVegas, 30, { chaserDice: true, chaserTargets: 'opponentsOnly', rounds: 2 }, counting);
    expect(chases).toBeGreaterThan(100);
  });
  it('with big dice, and 5 players with neutral and extra dice', () => {
    checkContract(lasVegas, 30, { bigDice: true, minimumStakeByPlayers: true }, checkInvariants);
    checkContract(lasVegas, 15, { neutralDice: true, extraPlayerDice: true, bigDice: true }, checkInvariants);
  });
  it('6, 7 and 8 players with the extra dice and minimum by player count', () => {
    checkContract(lasVegas, 20, { extraPlayerDice: true, minimumStakeByPlayers: true, bigDice: true }, checkInvariants);
    // The harness seats at most 6, so 7 and 8 players are played here, with a replay each.
    for (const n of [7, 8]) {
      for (let seed = 1; seed <= 8; seed++) {
        const options = { extraPlayerDice: true, minimumStakeByPlayers: seed % 2 === 0, bigDice: n === 7, chaserDice: n === 7 };
        const game = playBotGame(lasVegas, names(n), seed, options, checkInvariants);
        expect(game.result.scores).toHaveLength(n);
        if (seed <= 3) expect(replay(lasVegas, names(n), options, game.actions)).toEqual(game.final);
      }
    }
  });
  it('a long game with a $500,000 minimum runs the deck dry without getting stuck', () => {
    checkContract(lasVegas, 30, { casinoMinimum: 500000, rounds: 10, unclaimedBills: 'discard' }, checkInvariants);
  });
});

describe('serialisation and replay', () => {
  const actions: LasVegasAction[] = [roll(1, 1, 1, 1, 1, 1, 1, 1), place(1), roll(2, 2, 2, 2, 2, 2, 2, 2), place(2)];
  it('a hand-made action list replays to the same state: a one-round game of two placements', () => {
    let s = lasVegas.setup(names(2), { rounds: 1 });
    const start = s;
    for (const a of actions) s = step(s, a);
    expect(replay(lasVegas, names(2), { rounds: 1 }, actions)).toEqual(s);
    expect(s.phase).toBe('over');
    expect(s.players.map((p) => p.bills)).toEqual([[start.casinos[0]!.bills[0]], [start.casinos[1]!.bills[0]]]);
  });
  it('every state survives a JSON round trip', () => {
    let s = lasVegas.setup(names(3), { neutralDice: true });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    s = step(step(step(s, roll(6, 6)), roll(1, 2, 3, 4, 5, 6, 1, 2, 3, 4)), place(1));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    // Public and seat views hide the face-down deck and its seed, nothing else.
    const view = lasVegas.playerView(s, 1);
    expect(view.deck.every((b) => b === null)).toBe(true);
    expect(view.deck.length).toBe(s.deck.length);
    expect({ ...view, deck: s.deck, options: s.options }).toEqual(s);
    expect(lasVegas.board(lasVegas.playerView(s, null)).panels[0]!.items).toContainEqual({ id: 'billsInDeck', label: 'Bills in deck', value: s.deck.length });
  });
});
