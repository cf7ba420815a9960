/** The store's batch append (an imported game: all or nothing) and its sessions (one row per server run). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, openStore, type GameStore, type NewEvent } from '../../src/storage/index.js';

let dir: string;
let store: GameStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-batch-'));
  store = openStore(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const created = (gameId: string): NewEvent => ({ gameId, type: 'game/created', at: 1, payload: { game: 'dice-poker', players: ['Ann'], bots: [], options: {} } });
const action = (gameId: string): NewEvent => ({ gameId, type: 'game/action', at: 2, payload: { action: { type: 'hold', dice: [0] } } });
const correction = (gameId: string): NewEvent => ({ gameId, type: 'game/correction', at: 3, payload: { roll: 1, from: [1], values: [2], by: 'Kim', reason: 'misread' } });

describe('batch append', () => {
  it('writes every event in order, corrections included, and the chain holds', () => {
    const written = store.appendEvents([created('g1'), action('g1'), correction('g1')]);
    expect(written.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(store.loadGame('g1')?.steps.map((s) => s.type)).toEqual(['game/action', 'game/correction']);
    expect(store.checkRecord()).toMatchObject({ ok: true, events: 3 });
  });

  it('writes nothing when one event is refused', () => {
    store.appendEvent(created('g0'));
    expect(() => store.appendEvents([created('g1'), action('g1'), created('g0')])).toThrow(/already on record/);
    expect(store.loadGames().map((g) => g.id)).toEqual(['g0']);
    expect(() => store.appendEvents([created('g2'), { ...action('g2'), at: -1 }])).toThrow(/not ms since the epoch/);
    expect(store.checkRecord()).toMatchObject({ ok: true, events: 1 });
  });
});

describe('sessions', () => {
  it('records each server run and lists them oldest first', () => {
    expect(store.sessions()).toEqual([]);
    expect(store.startSession(1000, '0.1.0')).toBe(1);
    expect(store.startSession(2000, '0.2.0')).toBe(2);
    store.close();
    store = openStore(dir);
    expect(store.sessions()).toEqual([{ id: 1, startedAt: 1000, version: '0.1.0' }, { id: 2, startedAt: 2000, version: '0.2.0' }]);
  });

  it('upgrades a version-1 database, keeping its events', () => {
    store.appendEvent(created('old'));
    store.close();
    // Back to schema 1: what a data directory of the previous release looks like.
    const db = new Database(join(dir, 'dice-tower.db'));
    db.exec('DROP TABLE sessions; DROP TABLE chain_facts; ALTER TABLE events DROP COLUMN frame_sha256; DELETE FROM schema_migrations WHERE version >= 2;');
    db.close();
    store = openStore(dir);
    expect(store.schemaVersion()).toBe(MIGRATIONS.length);
    expect(store.loadGames().map((g) => g.id)).toEqual(['old']);
    expect(store.startSession(5, 'x')).toBe(1);
  });
});
