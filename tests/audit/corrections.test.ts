/**
 * Corrections, export and import on a table with a store; the no-roll check
 * in the roll loop.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Camera, Frame, Tower } from '../../src/hardware/index.js';
import type { DiceReader, DiceReading } from '../../src/vision/index.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import type { GameExport } from '../../src/audit/game-export.js';

const frame: Frame = { image: Buffer.from('jpeg'), width: 100, height: 100, capturedAt: 0 };
const camera: Camera = { capture: async () => frame };
const tower: Tower = { kind: 'test', roll: async () => undefined };
const reading = (values: number[], shift = 0): DiceReading => ({
  dice: values.map((value, i) => ({ value, colour: 'red', center: { x: 10 + i * 20 + shift, y: 50 }, box: [], size: 8, confidence: 1 })),
  valid: true,
  problems: [],
  width: 100,
  height: 100,
  ms: 1,
});
function scripted(readings: DiceReading[]): DiceReader {
  let i = 0;
  return { read: async () => readings[i++] ?? Promise.reject(new Error('no more readings')) };
}

let dirs: string[] = [];
let stores: GameStore[] = [];
const newStore = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-audit-'));
  dirs.push(dir);
  const store = openStore(dir);
  stores.push(store);
  return { dir, store };
};
let clock = 1_000_000;
const now = () => (clock += 1000);

beforeEach(() => {
  dirs = [];
  stores = [];
});
afterEach(() => {
  for (const s of stores) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tableOn = (store: GameStore | undefined, reader: DiceReader = scripted([])) => new Table({ tower, camera, reader, store, now });
const card = (state: unknown) => (state as { players: Array<{ card: Record<string, number | null> }> }).players[0]!.card;
const open = (state: unknown) => (state as { open: unknown }).open;

describe('corrections', () => {
  it('re-derives the game with the corrected values, keeps the reading, and records who, when and why', async () => {
    const { store } = newStore();
    const table = tableOn(store, scripted([reading([1, 2, 3, 4, 6])]));
    const game = table.create('dice-poker', ['Ann', 'Bob']);
    await table.roll(game.id);
    table.act(game.id, { type: 'score', category: 'chance' } as { type: string });
    expect(card(table.get(game.id).state).chance).toBe(16);

    const fixed = table.correct(game.id, 1, [1, 2, 3, 4, 5], 'Kim', 'the last die is a five, the camera saw six');
    expect(card(fixed.state).chance).toBe(15);
    expect(fixed.rolls[0]?.values).toEqual([1, 2, 3, 4, 6]);
    expect(fixed.rolls[0]?.reading?.dice.map((d) => d.value)).toEqual([1, 2, 3, 4, 6]);
    expect(fixed.corrections).toEqual([{ roll: 1, from: [1, 2, 3, 4, 6], values: [1, 2, 3, 4, 5], by: 'Kim', reason: 'the last die is a five, the camera saw six', at: expect.any(Number) }]);
    expect(fixed.version).toBe(game.version + 3);

    // On record: a restart derives the same state.
    const again = tableOn(store);
    expect(again.get(game.id).state).toEqual(fixed.state);
    expect(again.get(game.id).corrections).toEqual(fixed.corrections);
    expect(again.get(game.id).version).toBe(fixed.version);
    expect(store.checkRecord().ok).toBe(true);
  });

  it('refuses a correction that makes a later move illegal, naming it, and changes nothing', async () => {
    const table = tableOn(undefined);
    const game = table.create('shut-the-box', ['Ann', 'Bob']);
    await table.roll(game.id, [3, 4]);
    table.act(game.id, { type: 'close', boxes: [7] } as { type: string });
    const before = table.get(game.id);
    expect(() => table.correct(game.id, 1, [2, 2], 'Kim', 'misread')).toThrow(/would make the later move 'close 7' illegal/);
    expect(table.get(game.id)).toBe(before);
    // The same sum is fine: the later move stays legal.
    expect(table.correct(game.id, 1, [4, 3], 'Kim', 'dice swapped').corrections).toHaveLength(1);
    expect(open(table.get(game.id).state)).toEqual(open(before.state));
  });

  it.each([
    [2, [1, 2, 3, 4, 5], /no roll 2/, 404],
    [1, [1, 2, 3], /had 5 dice; the correction gives 3/, 400],
    [1, [1, 2, 3, 4, 5], /already has the values/, 400],
  ])('refuses correcting roll %i to %j', async (seq, values, message, status) => {
    const table = tableOn(undefined);
    const game = table.create('dice-poker', ['Ann']);
    await table.roll(game.id, [1, 2, 3, 4, 5]);
    expect(() => table.correct(game.id, seq, values, 'Kim', 'x')).toThrow(message);
    try {
      table.correct(game.id, seq, values, 'Kim', 'x');
    } catch (err) {
      expect((err as { statusCode: number }).statusCode).toBe(status);
    }
  });
});

describe('export and import', () => {
  async function playedGame() {
    const { store } = newStore();
    const table = tableOn(store, scripted([reading([6, 6, 2, 3, 1]), reading([5, 4, 6], 5)]));
    const game = table.create('dice-poker', ['Ann', 'Bob'], { maxThrows: 2 });
    await table.roll(game.id);
    table.act(game.id, { type: 'hold', dice: [0, 1] } as { type: string });
    await table.roll(game.id);
    table.correct(game.id, 2, [6, 4, 6], 'Kim', 'a six read as five');
    table.act(game.id, { type: 'score', category: 'sixes' } as { type: string });
    return { table, id: game.id, exp: table.exportGame(game.id) };
  }

  it('replays an exported game elsewhere to the same state, readings and corrections included', async () => {
    const { table, id, exp } = await playedGame();
    expect(exp.events.map((e) => e.type)).toEqual(['game/created', 'game/roll', 'game/action', 'game/roll', 'game/correction', 'game/action']);
    const elsewhere = newStore();
    const other = tableOn(elsewhere.store);
    const imported = other.importGame(JSON.parse(JSON.stringify(exp)) as GameExport);
    const original = table.get(id);
    expect(imported.state).toEqual(original.state);
    expect(imported.version).toBe(original.version);
    expect(imported.rolls).toEqual(original.rolls);
    expect(imported.corrections).toEqual(original.corrections);
    expect(card(imported.state).sixes).toBe(24); // 6 6 held, then 6 4 6 (5 corrected to 6)
    // It is on record there: a restart has it too, marked as imported.
    const restarted = tableOn(elsewhere.store);
    expect(restarted.get(id).state).toEqual(original.state);
    expect(elsewhere.store.loadGame(id)?.created.payload.imported?.head).toBe(exp.head);
    // Twice is refused.
    expect(() => other.importGame(exp)).toThrow(/already here/);
  });

  it.each([
    ['a changed die', (e: GameExport) => ((e.events[1]!.payload as unknown as { roll: { values: number[] } }).roll.values[0] = 1), /event 2 \(game\/roll\) does not match its hash/],
    ['a removed event', (e: GameExport) => (e.events as unknown[]).splice(2, 1), /event 3 is numbered 4/],
    ['a cut tail', (e: GameExport) => (e.events as unknown[]).pop(), /head hash does not match/],
    ['a changed time', (e: GameExport) => ((e.events[3] as { at: number }).at += 1), /event 4 .* does not match its hash/],
  ])('refuses an export with %s and imports nothing', async (_what, tamper, message) => {
    const { exp } = await playedGame();
    const copy = JSON.parse(JSON.stringify(exp)) as GameExport;
    tamper(copy);
    const elsewhere = newStore();
    const other = tableOn(elsewhere.store);
    expect(() => other.importGame(copy)).toThrow(message);
    expect(other.list()).toEqual([]);
    expect(elsewhere.store.loadGames()).toEqual([]);
  });

  it('refuses a well-chained export whose moves the rules refuse', async () => {
    const { exp } = await playedGame();
    const { buildExport } = await import('../../src/audit/game-export.js');
    const events = exp.events.map((e) => ({ type: e.type, at: e.at, payload: e.payload }));
    (events[2]!.payload as unknown as { action: { dice: number[] } }).action.dice = [9];
    const forged = buildExport(exp.gameId, events, 0);
    const other = tableOn(newStore().store);
    expect(() => other.importGame(forged)).toThrow(/Event 3 of the export is refused by the rules/);
  });

  it('needs a record to export', () => {
    const table = tableOn(undefined);
    const game = table.create('dice-poker', ['Ann']);
    expect(() => table.exportGame(game.id)).toThrow(/no record/);
  });
});

describe('no-roll check in the roll loop', () => {
  it('refuses a throw whose dice lie as in the previous frame, says why, and rolls again', async () => {
    const table = tableOn(undefined, scripted([reading([1, 2, 3, 4, 5]), reading([1, 2, 3, 4, 5]), reading([6, 2, 3, 4, 5], 30)]));
    const messages: string[] = [];
    table.subscribe((e) => e.type === 'tower' && messages.push(e.status.message));
    const game = table.create('dice-poker', ['Ann', 'Bob'], { maxThrows: 3 });
    await table.roll(game.id);
    const second = await table.roll(game.id);
    expect(second.rolls[1]).toMatchObject({ attempts: 2, values: [6, 2, 3, 4, 5] });
    expect(messages).toContain('The dice did not tumble (same dice in the same places as the last frame) — rolling again');
  });
});
