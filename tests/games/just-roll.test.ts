/** Just roll: free rolls of 1-30 dice, taking turns, with sums and a per-face tally. */
import { describe, expect, it } from 'vitest';
import { isInvalid, justRoll, type TableBoard } from '../../src/games/index.js';
import type { JustRollState } from '../../src/games/just-roll.js';
import { checkContract } from './harness.js';

const play = (state: JustRollState, action: Parameters<typeof justRoll.apply>[1]): JustRollState => {
  const next = justRoll.apply(state, action);
  if (isInvalid(next)) throw new Error(next.message);
  return next;
};
const tableBoard = (s: JustRollState) => justRoll.board(s) as TableBoard;
const panel = (s: JustRollState, id: string) => Object.fromEntries(tableBoard(s).panels.find((p) => p.id === id)?.items.map((i) => [i.label, i.value]) ?? []);

describe('just-roll', () => {
  it('asks for the chosen number of dice, from the first seat, in turns', () => {
    let s = justRoll.setup(['Ann', 'Bo'], { count: 3 });
    expect(justRoll.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    s = play(s, { type: 'roll', values: [1, 2, 3] });
    expect(justRoll.diceRequest(s)?.player).toBe(1);
    s = play(s, { type: 'roll', values: [6, 6, 6] });
    expect(justRoll.diceRequest(s)?.player).toBe(0);
    expect(tableBoard(s).players.map((p) => p.values)).toEqual([{ throws: 1, pips: 6 }, { throws: 1, pips: 18 }]);
  });

  it('keeps the sum, the last sums and a per-face tally on its board', () => {
    let s = justRoll.setup(['Ann']);
    expect(panel(s, 'throw').Sum).toBeNull();
    s = play(s, { type: 'roll', values: [1, 1, 2, 5, 6] });
    s = play(s, { type: 'roll', values: [6, 6, 6, 6, 6] });
    expect(tableBoard(s).dice).toEqual([6, 6, 6, 6, 6]);
    expect(panel(s, 'throw')).toMatchObject({ Sum: 30, Throws: 2, Dice: 5, 'Last sums': '15 30' });
    expect(panel(s, 'tally')).toEqual({ 1: 2, 2: 1, 3: 0, 4: 0, 5: 1, 6: 6 });
  });

  it('changes the number of dice between throws, 1 to 30, and refuses others', () => {
    let s = justRoll.setup(['Ann']);
    s = play(s, { type: 'dice', count: 30 });
    expect(justRoll.diceRequest(s)?.count).toBe(30);
    expect(tableBoard(s).dice).toHaveLength(30);
    for (const count of [0, 31, 2.5]) expect(justRoll.apply(s, { type: 'dice', count })).toMatchObject({ invalid: true, code: 'game/bad_dice' });
    expect(justRoll.apply(s, { type: 'dice', count: 30 })).toMatchObject({ code: 'game/bad_dice', message: 'The next throw already has 30 dice.' });
    expect(justRoll.apply(s, { type: 'roll', values: [1, 2] })).toMatchObject({ code: 'game/bad_roll', message: 'This throw needs 30 dice values from 1 to 6.' });
    expect(() => justRoll.setup(['Ann'], { count: 31 })).toThrow(/count must be a whole number from 1 up to 30/);
  });

  it('asks for coloured dice when colours are named, one per die', () => {
    let s = justRoll.setup(['Ann'], { count: 2 });
    s = play(s, { type: 'dice', count: 2, colours: ['red', 'blue'] });
    expect(justRoll.diceRequest(s)?.dice).toEqual([{ colour: 'red', size: 'normal' }, { colour: 'blue', size: 'normal' }]);
    expect(tableBoard(s).status).toBe('Throw 2 dice (red, blue).');
    expect(justRoll.apply(s, { type: 'dice', count: 3, colours: ['red'] })).toMatchObject({ message: 'Name one colour per die: 3 dice, 1 colours.' });
    expect(justRoll.apply(s, { type: 'dice', count: 1, colours: ['Red!'] })).toMatchObject({ code: 'game/bad_dice' });
    // Back to any dice.
    s = play(s, { type: 'dice', count: 2, colours: [] });
    expect(justRoll.diceRequest(s)?.dice).toBeUndefined();
  });

  it('ends when the operator says so, after a throw; nobody wins, the scores are the pips', () => {
    let s = justRoll.setup(['Ann', 'Bo'], { count: 1 });
    expect(justRoll.legalActions(s).some((a) => a.type === 'end')).toBe(false);
    expect(justRoll.apply(s, { type: 'end' })).toMatchObject({ code: 'game/nothing_thrown' });
    s = play(s, { type: 'roll', values: [4] });
    s = play(s, { type: 'end' });
    expect(justRoll.result(s)).toEqual({ winners: [], scores: [4, 0] });
    expect(justRoll.diceRequest(s)).toBeNull();
    expect(justRoll.legalActions(s)).toEqual([]);
    expect(justRoll.apply(s, { type: 'roll', values: [1] })).toMatchObject({ code: 'game/over' });
  });

  it('keeps the contract over bot sessions', () => {
    checkContract(justRoll, 200);
  });
});
