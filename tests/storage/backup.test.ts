/**
 * `dice-tower backup` while the real server runs (its recent rolls still in
 * the WAL, where a copy of the .db alone would lose them), then `restore`
 * into a fresh data directory: the games, their rolls and frames come back.
 * And the refusals, each naming the problem: a backup into a directory that
 * is not empty, a restore over a game log without --force, a restore from a
 * directory that is not a backup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { openStore } from '../../src/storage/index.js';

const BIN = fileURLToPath(new URL('../../bin/dice-tower.js', import.meta.url));
const TOKEN = 'backup-test-operator-token';
const root = mkdtempSync(join(tmpdir(), 'dice-tower-backup-'));
const live = join(root, 'live');
let server: ChildProcess | null = null;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Runs the CLI in this process; returns its exit code and what it printed. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await main(argv), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

async function startServer(): Promise<string> {
  const { DICE_TOWER_TOKEN: _inherited, ...env } = process.env;
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--roll-ms', '0', '--seed', '6', '--data', live], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, DICE_TOWER_TOKEN: TOKEN },
  });
  let text = '';
  server.stdout?.on('data', (chunk) => (text += String(chunk)));
  server.stderr?.on('data', (chunk) => (text += String(chunk)));
  await expect.poll(() => text, { timeout: 30_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+/);
  return /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0] ?? '';
}

async function post(url: string, body?: unknown): Promise<{ id: string; rollCount: number }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as { id: string; rollCount: number };
}

describe('backup and restore', () => {
  const backup = join(root, 'backup');
  let gameId = '';

  it('backs up a data directory while the server writes to it, and restores it whole into a fresh one', async () => {
    const url = await startServer();
    gameId = (await post(`${url}/api/games`, { game: 'dice-poker', players: ['Ann', 'Bob'] })).id;
    await post(`${url}/api/games/${gameId}/roll`);
    await post(`${url}/api/games/${gameId}/hold`, { dice: [0, 1] });
    await post(`${url}/api/games/${gameId}/roll`);
    // The rolls are in the WAL: the main file alone does not hold the game (what a naive copy would keep).
    expect(statSync(join(live, 'dice-tower.db-wal')).size).toBeGreaterThan(0);
    const naive = join(root, 'naive');
    mkdirSync(naive);
    copyFileSync(join(live, 'dice-tower.db'), join(naive, 'dice-tower.db'));
    const naiveStore = openStore(naive);
    expect(naiveStore.loadGame(gameId)).toBeNull();
    naiveStore.close();

    const made = await cli('backup', backup, '--data', live);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/backed up .*: 1 game, \d+ events, \d+ other files/);
    // One consistent database file (no -wal or -shm to go with it) and the frames of both rolls.
    expect(readdirSync(backup).filter((name) => name.startsWith('dice-tower.db'))).toEqual(['dice-tower.db']);
    expect(readdirSync(join(backup, 'frames', gameId)).sort()).toEqual(['1.jpg', '2.jpg']);
    expect(statSync(backup).mode & 0o777).toBe(0o700);
    // The server goes on after the backup.
    await post(`${url}/api/games/${gameId}/roll`);

    const fresh = join(root, 'fresh');
    const restored = await cli('restore', backup, '--data', fresh);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    // The restored record holds together: chain, frames and the head file copied with it (taken before the log, never ahead of it).
    const verified = await cli('verify', '--data', fresh);
    expect(verified.out + verified.err).toMatch(/^ok/);
    expect(verified.code).toBe(0);
    const store = openStore(fresh);
    try {
      expect(store.checkRecord().ok).toBe(true);
      const game = store.loadGame(gameId);
      const rolls = game?.steps.filter((step) => step.type === 'game/roll') ?? [];
      expect(rolls).toHaveLength(2);
      for (const roll of rolls) {
        const frame = (roll.payload as { frame: string | null }).frame;
        expect(frame).toMatch(/^frames\//);
        expect(store.readFrame(frame as string).equals(readFileSync(join(live, frame as string)))).toBe(true);
      }
    } finally {
      store.close();
    }
  }, 90_000);

  it('restores a data directory copied by hand with its -wal (the server idle), the rolls in the WAL included', async () => {
    const byHand = join(root, 'by-hand');
    mkdirSync(byHand);
    copyFileSync(join(live, 'dice-tower.db'), join(byHand, 'dice-tower.db'));
    copyFileSync(join(live, 'dice-tower.db-wal'), join(byHand, 'dice-tower.db-wal'));
    const into = join(root, 'from-hand');
    const restored = await cli('restore', byHand, '--data', into);
    expect(restored.err).toBe('');
    expect(readdirSync(into).filter((name) => name.startsWith('dice-tower.db'))).toEqual(['dice-tower.db']);
    const store = openStore(into);
    expect(store.loadGame(gameId)?.steps.filter((step) => step.type === 'game/roll')).toHaveLength(3);
    store.close();
    // The backup read is left as it was: nothing written beside its database.
    expect(readdirSync(byHand).sort()).toEqual(['dice-tower.db', 'dice-tower.db-wal']);
  });

  it('refuses to back up into a directory that is not empty, or a data directory without a game log', async () => {
    const made = await cli('backup', backup, '--data', live);
    expect(made.code).toBe(1);
    expect(made.err).toMatch(/backup is not empty \(it holds .*dice-tower\.db.*\): name a new or empty directory/);
    const empty = await cli('backup', join(root, 'backup-of-nothing'), '--data', join(root, 'no-data-here'));
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/there is no game log in .*no-data-here \(no dice-tower\.db\): nothing to back up/);
  });

  it('refuses to back up a log that has lost rolls its chain head vouches for, naming the event', async () => {
    const lost = join(root, 'lost-rolls');
    const store = openStore(lost);
    store.appendEvent({ gameId: 'g1', type: 'game/created', at: 1, payload: { game: 'yatzy', players: ['ann', 'bo'], bots: [], options: {} } });
    store.appendEvent({ gameId: 'g1', type: 'game/action', at: 2, payload: { action: { type: 'hold', dice: [0] } } });
    store.close();
    // A head one confirmed write further than the log goes: that write was lost (a -wal lost, or the .db copied alone).
    const head = JSON.parse(readFileSync(join(lost, 'chain-head.json'), 'utf8')) as { seq: number; hash: string };
    writeFileSync(join(lost, 'chain-head.json'), `${JSON.stringify({ seq: head.seq + 1, hash: 'a'.repeat(64), prev: { seq: head.seq, hash: head.hash } })}\n`);
    const refused = await cli('backup', join(root, 'lost-backup'), '--data', lost);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/does not hold event 3 as its chain head records it \(rolls lost or changed\): run dice-tower verify/);
  });

  it('copies the frames the copied log names, and not one saved for a roll it does not hold', async () => {
    const rolling = join(root, 'rolling');
    const store = openStore(rolling);
    store.appendEvent({ gameId: 'g1', type: 'game/created', at: 1, payload: { game: 'yatzy', players: ['ann', 'bo'], bots: [], options: {} } });
    for (const seq of [1, 2]) {
      const frame = store.saveFrame('g1', seq, Buffer.from(`frame ${seq} `.repeat(40)));
      const roll = { seq, request: { count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false }, values: [1, 2, 3, 4, 5], source: 'tower' as const, reading: null, attempts: 1, at: 10 + seq };
      store.appendEvent({ gameId: 'g1', type: 'game/roll', at: 10 + seq, payload: { roll, frame } });
    }
    // Roll 3 is under way (or was saved while the snapshot was taken): its frame is on disk, its event not in the log.
    store.saveFrame('g1', 3, Buffer.from('frame 3 '.repeat(40)));
    store.close();
    const copy = join(root, 'rolling-backup');
    expect(await cli('backup', copy, '--data', rolling)).toMatchObject({ code: 0 });
    expect(readdirSync(join(copy, 'frames', 'g1')).sort()).toEqual(['1.jpg', '2.jpg']);
    expect(await cli('verify', '--data', copy)).toMatchObject({ code: 0 });
  });

  it('keeps a finding of the record check, and the frames the store put aside, in the backup', async () => {
    const flagged = join(root, 'flagged');
    const store = openStore(flagged);
    store.appendEvent({ gameId: 'g1', type: 'game/created', at: 1, payload: { game: 'yatzy', players: ['ann', 'bo'], bots: [], options: {} } });
    // Roll 1 made twice (the first try never recorded): the store puts the first frame aside.
    store.saveFrame('g1', 1, Buffer.from('first try '.repeat(40)));
    const frame = store.saveFrame('g1', 1, Buffer.from('second try '.repeat(40)));
    const roll = { seq: 1, request: { count: 5, slots: [0, 1, 2, 3, 4], player: 0, secret: false }, values: [1, 2, 3, 4, 5], source: 'tower' as const, reading: null, attempts: 1, at: 11 };
    store.appendEvent({ gameId: 'g1', type: 'game/roll', at: 11, payload: { roll, frame } });
    store.close();
    // The frame changed behind the store's back, found by a check (which keeps the finding), then put back as it was.
    const framePath = join(flagged, frame);
    const original = readFileSync(framePath);
    writeFileSync(framePath, Buffer.from('changed '.repeat(40)));
    const checking = openStore(flagged);
    expect(checking.checkRecord().problem).not.toBeNull();
    checking.close();
    writeFileSync(framePath, original);
    const copy = join(root, 'flagged-backup');
    expect(await cli('backup', copy, '--data', flagged)).toMatchObject({ code: 0 });
    const verified = await cli('verify', '--data', copy);
    expect(verified.code).toBe(1);
    expect(verified.out + verified.err).toMatch(/record-problem\.json/);
    expect(readdirSync(join(copy, 'frames', 'g1')).filter((name) => name.includes('.replaced-'))).toHaveLength(1);
  });

  it('refuses to restore over a game log unless --force, then replaces it', async () => {
    const taken = join(root, 'taken');
    const store = openStore(taken);
    store.close();
    writeFileSync(join(taken, 'stale-file'), 'x');
    const refused = await cli('restore', backup, '--data', taken);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/taken already holds a game log \(dice-tower\.db\); restoring would replace it: .* --force/);
    const forced = await cli('restore', backup, '--data', taken, '--force');
    expect(forced.err).toBe('');
    expect(forced.code).toBe(0);
    expect(readdirSync(taken)).not.toContain('stale-file');
    const restored = openStore(taken);
    expect(restored.loadGame(gameId)).not.toBeNull();
    restored.close();
  });

  it('refuses to restore from a directory that is not a backup', async () => {
    const notBackup = join(root, 'not-a-backup');
    mkdirSync(join(notBackup, 'frames'), { recursive: true });
    const refused = await cli('restore', notBackup, '--data', join(root, 'elsewhere'));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/not-a-backup is not a dice-tower backup: it has no dice-tower\.db/);
    writeFileSync(join(notBackup, 'dice-tower.db'), 'not a database at all, only text that is long enough to be read');
    const garbage = await cli('restore', notBackup, '--data', join(root, 'elsewhere'));
    expect(garbage.code).toBe(1);
    expect(garbage.err).toMatch(/not-a-backup\/dice-tower\.db is not a dice-tower game log/);
  });
});

describe('a backup taken while a writer appends as fast as it can', () => {
  it('copies the chain head that goes with its snapshot of the log: every backup verifies', async () => {
    const busy = join(root, 'busy');
    // The crash test's writer: frames and roll events as fast as it can, each write moving the head file.
    const writer = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-writer.ts'), busy], { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((done) => writer.once('exit', done));
    try {
      let written = 0;
      writer.stdout.on('data', (d: Buffer) => (written = Math.max(written, ...d.toString().trim().split('\n').map(Number))));
      await expect.poll(() => written, { timeout: 30_000 }).toBeGreaterThan(20);
      const events: number[] = [];
      for (let i = 0; i < 8; i++) {
        const copy = join(root, `busy-backup-${i}`);
        expect(await cli('backup', copy, '--data', busy)).toMatchObject({ code: 0 });
        const verified = await cli('verify', '--data', copy);
        expect({ i, code: verified.code, err: verified.err }).toEqual({ i, code: 0, err: '' });
        events.push(Number(/(\d+) events?/.exec(verified.out)?.[1]));
      }
      // The backups were taken while the log grew.
      expect(Math.max(...events)).toBeGreaterThan(Math.min(...events));
    } finally {
      writer.kill('SIGKILL');
      await exited;
    }
  }, 120_000);
});
