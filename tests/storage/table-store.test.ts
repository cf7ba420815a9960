/**
 * The table on a store: every game event is recorded before it shows, a new
 * table on the same data directory comes back with the same games, and a
 * failed write leaves the game exactly as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Tower } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { openStore, StoreError, type GameStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';

let dir: string;
let store: GameStore | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-table-store-'));
});

afterEach(() => {
  store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

const sim = () => createSimulator({ seed: 4, colours: ['white'] });

describe('table on a store', () => {
  it('comes back after a restart with every game as it was, frames included', async () => {
    store = openStore(dir);
    const s = sim();
    const table = new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader(), store });
    const poker = table.create('dice-poker', ['Ann', 'Bob'], { maxThrows: 2 });
    await table.roll(poker.id);
    table.act(poker.id, { type: 'hold', dice: [0, 1] } as { type: string });
    await table.roll(poker.id, [6, 6, 6]);
    table.act(poker.id, { type: 'score', category: 'chance' } as { type: string });
    const mexico = table.create('mexico', ['Cy', 'Di']);
    await table.roll(mexico.id, [2, 1]);
    const before = table.list();
    const frame = table.frame(poker.id, 1);
    table.close();
    store.close();

    store = openStore(dir);
    const again = new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader(), store });
    expect(again.restoreProblems).toEqual([]);
    for (const game of before) {
      const restored = again.get(game.id);
      expect(restored.state).toEqual(game.state);
      expect(restored.rolls).toEqual(game.rolls);
      expect(restored.actions).toEqual(game.actions);
      expect(restored.version).toBe(game.version);
    }
    expect(again.frame(poker.id, 1).equals(frame)).toBe(true);
    expect(store.checkRecord()).toMatchObject({ ok: true, events: 7 });
    again.close();
  });

  it('asks again for a roll that was under way when the process died', async () => {
    store = openStore(dir);
    const s = sim();
    const stuck: Tower = { kind: 'stuck', roll: () => new Promise<void>(() => {}) };
    const table = new Table({ tower: stuck, camera: s.camera, reader: createDiceReader(), store });
    const game = table.create('dice-poker', ['Ann']);
    void table.roll(game.id); // the process "dies" with the dice in the air
    store.close();

    store = openStore(dir);
    const again = new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader(), store });
    const restored = again.get(game.id);
    expect(restored.rolls).toEqual([]);
    expect(again.definition(restored).diceRequest(restored.state)).toMatchObject({ count: 5 });
    await again.roll(game.id);
    expect(again.get(game.id).rolls).toHaveLength(1);
    again.close();
  });

  it('pauses a game whose event cannot be written, with memory unchanged', async () => {
    store = openStore(dir);
    const s = sim();
    const table = new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader(), store });
    const game = table.create('dice-poker', ['Ann']);
    const appendEvent = store.appendEvent.bind(store);
    store.appendEvent = () => {
      throw new StoreError('store/write_failed', 'disk full while writing /data/dice-tower.db', '/data/dice-tower.db');
    };
    await expect(table.roll(game.id, [1, 2, 3, 4, 5])).rejects.toMatchObject({ statusCode: 503, message: expect.stringMatching(/could not be recorded.*disk full.*paused/) });
    expect(table.get(game.id)).toEqual(game);
    store.appendEvent = appendEvent;
    await table.roll(game.id, [1, 2, 3, 4, 5]);
    expect(table.get(game.id).rolls).toHaveLength(1);
    table.close();
  });
});
