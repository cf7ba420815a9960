/**
 * Coloured dice at the table (Las Vegas): the tower gets the dice the game
 * asks for; a reading is applied only when every die's colour and size is
 * sure and the dice are the ones asked for; the operator may type them in.
 * The camera and reader are fakes returning chosen readings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Camera, Frame, HopperDie, Tower } from '../src/hardware/index.js';
import type { DiceReader, DiceReading, DieReading } from '../src/vision/index.js';
import { Table } from '../src/table.js';
import { matchReading, orderByRequest } from '../src/dice-match.js';
import { openStore } from '../src/storage/index.js';
import type { LasVegasState } from '../src/games/las-vegas.js';

const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };
const camera: Camera = { capture: async () => frame };

type Seen = { value: number | null; colour: string; colourConfident?: boolean; sizeClass?: 'normal' | 'big' | null };

/** Each scripted throw lands somewhere else: the table refuses one whose dice lie as in the previous frame (they did not tumble). */
let throws = 0;

function reading(dice: Seen[]): DiceReading {
  const y = 10 * throws++;
  return {
    dice: dice.map((d, i): DieReading => ({ ...d, center: { x: i * 10, y }, box: [], size: 8, confidence: 1 })),
    valid: true,
    problems: [],
    width: 10,
    height: 10,
    ms: 1,
  };
}

const sure = (value: number, colour: string, sizeClass: 'normal' | 'big' = 'normal'): Seen => ({ value, colour, colourConfident: true, sizeClass });

/** A tower that records what it was asked to throw, and a reader handing out the given readings. */
function rig(readings: DiceReading[]): { tower: Tower & { thrown: Array<readonly HopperDie[] | undefined> }; reader: DiceReader } {
  const tower = {
    kind: 'test',
    thrown: [] as Array<readonly HopperDie[] | undefined>,
    async roll(_count: number, dice?: readonly HopperDie[]) {
      tower.thrown.push(dice);
    },
  };
  let calls = 0;
  const reader: DiceReader = {
    async read() {
      const next = readings[calls++];
      if (!next) throw new Error('no more scripted readings');
      return next;
    },
  };
  return { tower, reader };
}

describe('matching read dice to the request', () => {
  const asked = [
    { colour: 'red', size: 'big' as const },
    { colour: 'red', size: 'normal' as const },
    { colour: 'purple', size: 'normal' as const },
  ];
  it('orders the dice as asked, whatever order the camera found them in', () => {
    const m = matchReading(asked, [sure(4, 'purple'), sure(2, 'red'), sure(6, 'red', 'big')]);
    expect(m).toEqual({ ok: true, dice: [{ value: 6, colour: 'red', size: 'big' }, { value: 2, colour: 'red', size: 'normal' }, { value: 4, colour: 'purple', size: 'normal' }] });
  });
  it('refuses an uncertain colour, an unknown size, a missing value, and dice that are not the ones asked for', () => {
    const m1 = matchReading(asked, [sure(4, 'purple'), { ...sure(2, 'red'), colourConfident: false }, sure(6, 'red', 'big')]);
    expect(m1).toEqual({ ok: false, problems: ["die 2's colour is uncertain (looks red)"] });
    const m2 = matchReading(asked, [sure(4, 'purple'), { value: 2, colour: 'red', colourConfident: true }, { ...sure(6, 'red'), sizeClass: null }]);
    expect(m2.ok === false && m2.problems).toEqual(["die 2's size cannot be told", "die 3's size cannot be told"]);
    const m3 = matchReading(asked, [sure(4, 'blue'), sure(2, 'red'), sure(6, 'red', 'big')]);
    expect(m3.ok === false && m3.problems[0]).toBe('the dice are not the ones asked for: asked for 1 big red, 1 red, 1 purple, got 1 blue, 1 red, 1 big red');
    expect(matchReading(asked, [sure(4, 'purple')]).ok).toBe(false);
    expect(matchReading(asked, [{ ...sure(4, 'purple'), value: null }, sure(2, 'red'), sure(6, 'red', 'big')]).ok).toBe(false);
  });
  it('orders typed-in dice the same way (no confidence needed)', () => {
    expect(orderByRequest(asked, [{ value: 1, colour: 'purple', size: 'normal' }, { value: 3, colour: 'red', size: 'big' }, { value: 5, colour: 'red', size: 'normal' }])).toMatchObject({
      ok: true,
      dice: [{ value: 3 }, { value: 5 }, { value: 1 }],
    });
  });
});

describe('table rolls with coloured dice (Las Vegas)', () => {
  const options = { chaserDice: true, bigDice: true };
  const ann = (values: number[]): Seen[] => [sure(values[0]!, 'red', 'big'), ...values.slice(1, 6).map((v) => sure(v, 'red')), sure(values[6]!, 'purple'), sure(values[7]!, 'purple')];

  it('asks the tower for the player\'s own, big and purple dice, and hands the game each die by colour', async () => {
    const read = ann([6, 1, 1, 1, 1, 1, 5, 4]).reverse();
    const { tower, reader } = rig([reading(read)]);
    const table = new Table({ tower, camera, reader });
    const game = table.create('las-vegas', ['Ann', 'Bob'], options);
    const after = await table.roll(game.id);
    expect(tower.thrown[0]!.map((d) => `${d.size} ${d.colour}`)).toEqual(['big red', ...Array<string>(5).fill('normal red'), 'normal purple', 'normal purple']);
    // Read in reverse order, the dice still land in their slots: big die 6, the two (interchangeable) chasers 5 and 4.
    const thrown = (after.state as LasVegasState).thrown;
    expect(thrown.slice(0, 6)).toEqual([6, 1, 1, 1, 1, 1]);
    expect(thrown.slice(6, 8).sort()).toEqual([4, 5]);
    expect(after.rolls[0]).toMatchObject({ source: 'tower', attempts: 1, dice: expect.arrayContaining([{ value: 6, colour: 'red', size: 'big' }]) });
    expect(after.actions[0]).toMatchObject({ type: 'roll', dice: expect.any(Array) });
  });

  it('re-rolls when a colour is unsure, a size unknown or the dice not the ones asked for, then applies a sure reading', async () => {
    const unsure = ann([1, 2, 3, 4, 5, 6, 1, 2]).map((d, i) => (i === 3 ? { ...d, colourConfident: false } : d));
    const noSize = ann([1, 2, 3, 4, 5, 6, 1, 2]).map((d, i) => (i === 0 ? { ...d, sizeClass: null } : d));
    const wrong = ann([1, 2, 3, 4, 5, 6, 1, 2]).map((d, i) => (i === 7 ? { ...d, colour: 'blue' } : d));
    const { tower, reader } = rig([reading(unsure), reading(noSize), reading(wrong), reading(ann([2, 2, 2, 2, 2, 2, 2, 2]))]);
    const table = new Table({ tower, camera, reader, maxAttempts: 4 });
    const messages: string[] = [];
    table.subscribe((e) => e.type === 'tower' && messages.push(e.status.message));
    const game = table.create('las-vegas', ['Ann', 'Bob'], options);
    const after = await table.roll(game.id);
    expect(tower.thrown).toHaveLength(4);
    expect(after.rolls[0]!.attempts).toBe(4);
    expect(messages).toContain("die 4's colour is uncertain (looks red) — rolling again");
    expect(messages).toContain("die 1's size cannot be told — rolling again");
    expect(messages.some((m) => m.startsWith('the dice are not the ones asked for'))).toBe(true);
  });

  it('after the attempts asks the operator, leaves the game as it was; typed-in dice with colours are then applied', async () => {
    const unsure = reading(ann([1, 2, 3, 4, 5, 6, 1, 2]).map((d) => ({ ...d, colourConfident: false })));
    const { tower, reader } = rig([unsure, unsure]);
    const table = new Table({ tower, camera, reader, maxAttempts: 2 });
    const game = table.create('las-vegas', ['Ann', 'Bob'], options);
    await expect(table.roll(game.id)).rejects.toMatchObject({ code: 'vision/no_valid_reading', statusCode: 503, message: expect.stringContaining('type the dice in with their colours') });
    expect(table.get(game.id)).toEqual(game);
    const typed = [
      { value: 3, colour: 'purple', size: 'normal' as const },
      { value: 5, colour: 'red', size: 'big' as const },
      ...[1, 1, 2, 2, 3].map((value) => ({ value, colour: 'red', size: 'normal' as const })),
      { value: 4, colour: 'purple', size: 'normal' as const },
    ];
    await expect(table.roll(game.id, undefined, typed.slice(1))).rejects.toMatchObject({ code: 'game/wrong_dice', statusCode: 400 });
    await expect(table.roll(game.id, undefined, typed.map((d, i) => (i === 0 ? { ...d, colour: 'red' } : d)))).rejects.toMatchObject({ code: 'game/wrong_dice' });
    const after = await table.roll(game.id, undefined, typed);
    expect((after.state as LasVegasState).thrown.slice(0, 8)).toEqual([5, 1, 1, 2, 2, 3, 3, 4]);
    expect(after.rolls[0]).toMatchObject({ source: 'manual', dice: expect.any(Array) });
  });

  it('refuses coloured dice for a game that does not ask for them', async () => {
    const { tower, reader } = rig([]);
    const table = new Table({ tower, camera, reader });
    const game = table.create('dice-poker', ['Ann']);
    await expect(table.roll(game.id, undefined, [{ value: 1, colour: 'red', size: 'normal' }])).rejects.toMatchObject({ code: 'table/no_dice_colours', statusCode: 400 });
  });

  it('a game played with coloured dice is restored from the store by replaying them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lv-store-'));
    try {
      const store = openStore(join(dir, 'data'));
      const { tower, reader } = rig([reading(ann([6, 1, 1, 1, 1, 1, 5, 4]))]);
      const table = new Table({ tower, camera, reader, store });
      const game = table.create('las-vegas', ['Ann', 'Bob'], options);
      await table.roll(game.id);
      const placed = table.act(game.id, { type: 'place', value: 1 } as { type: string });
      table.close();
      const again = new Table({ tower, camera, reader, store });
      expect(again.restoreProblems).toEqual([]);
      expect(again.get(game.id).state).toEqual(placed.state);
      again.close();
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
