/**
 * The data directory holds secret throws and the operator's token: the store
 * makes it 0700 and its database files and frames 0600, tightens those an
 * older version left readable by all, and `writeFileAtomic` creates a secret's
 * file with its mode from the start.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type NewEvent } from '../../src/storage/index.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-modes-'));
  dirs.push(dir);
  return dir;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;
const created: NewEvent = { gameId: 'g1', type: 'game/created', at: 1, payload: { game: 'dice-poker', players: ['Ann'], bots: [], options: {} } };

/** A store with one game and one frame, closed with its WAL still there (as after a crash). */
function storeWithAFrame(dataDir: string): void {
  const store = openStore(dataDir);
  store.appendEvent(created);
  store.saveFrame('g1', 1, new Uint8Array([0xff, 0xd8, 0xff]));
}

describe('file modes of the data directory', () => {
  it('makes a new data directory 0700, its database, -wal, -shm and frames 0600', () => {
    const dataDir = join(tempDir(), 'data');
    const store = openStore(dataDir);
    store.appendEvent(created);
    store.saveFrame('g1', 1, new Uint8Array([0xff, 0xd8, 0xff]));
    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of ['dice-tower.db', 'dice-tower.db-wal', 'dice-tower.db-shm', 'frames/g1/1.jpg']) expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    for (const dir of ['frames', 'frames/g1']) expect([dir, modeOf(join(dataDir, dir))]).toEqual([dir, 0o700]);
    store.close();
  });

  it('tightens a data directory an older version left readable by all, and still opens it', () => {
    const dataDir = join(tempDir(), 'data');
    storeWithAFrame(dataDir);
    for (const path of ['', 'frames', 'frames/g1']) chmodSync(join(dataDir, path), 0o755);
    for (const file of ['dice-tower.db', 'dice-tower.db-wal', 'dice-tower.db-shm', 'frames/g1/1.jpg']) chmodSync(join(dataDir, file), 0o644);
    const store = openStore(dataDir);
    expect(store.loadGames().map((g) => g.id)).toEqual(['g1']);
    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of ['dice-tower.db', 'dice-tower.db-wal', 'dice-tower.db-shm', 'frames/g1/1.jpg']) expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    for (const dir of ['frames', 'frames/g1']) expect([dir, modeOf(join(dataDir, dir))]).toEqual([dir, 0o700]);
    store.close();
  });
});

describe('writeFileAtomic with a mode', () => {
  it('replaces a file that was readable by all with one readable by its owner only, leaving no temporary file', () => {
    const dir = tempDir();
    const file = join(dir, 'secret');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    writeFileAtomic(file, Buffer.from('new'), { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['secret']);
  });

  it('makes the directories it needs with dirMode', () => {
    const dir = tempDir();
    writeFileAtomic(join(dir, 'a', 'b', 'secret'), Buffer.from('x'), { mode: 0o600, dirMode: 0o700 });
    expect(modeOf(join(dir, 'a'))).toBe(0o700);
    expect(modeOf(join(dir, 'a', 'b'))).toBe(0o700);
    expect(modeOf(join(dir, 'a', 'b', 'secret'))).toBe(0o600);
  });
});
