import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { MIGRATIONS, StoreError, openStore, type GameStore, type NewEvent } from '../../src/storage/index.js';
import type { RollRecord, TableGame } from '../../src/table.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(import.meta.dirname, 'fixtures');

let dir: string;
let store: GameStore | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-store-'));
});
afterEach(() => {
  store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

function open(options?: Parameters<typeof openStore>[1]): GameStore {
  store?.close();
  store = openStore(join(dir, 'data'), options);
  return store;
}

const created = (gameId: string, at = 1): NewEvent => ({ gameId, type: 'game/created', at, payload: { game: 'yatzy', players: ['ann', 'bo'], bots: [1], options: { rounds: 3 } } });
const action = (gameId: string, type: string, at = 2): NewEvent => ({ gameId, type: 'game/action', at, payload: { action: { type } } });
function roll(gameId: string, seq: number, values: number[], frame: string | null = null): NewEvent {
  const record: RollRecord = { seq, request: { count: values.length, slots: values.map((_, i) => i), player: 0, secret: false }, values, source: 'manual', reading: null, attempts: 0, at: 10 + seq };
  return { gameId, type: 'game/roll', at: 10 + seq, payload: { roll: record, frame } };
}

/** Runs a fixture script under tsx; as the `nobody` user when we are root (root writes to read-only directories). */
function runFixture(script: string, args: string[], opts: { unprivileged?: boolean } = {}) {
  const asNobody = opts.unprivileged && process.getuid?.() === 0;
  return spawnSync(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
    cwd: ROOT, encoding: 'utf8', timeout: 30_000, ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
  });
}

describe('schema migrations', () => {
  it('run once, and reopening changes nothing', () => {
    open();
    expect(store!.schemaVersion()).toBe(MIGRATIONS.length);
    store!.appendEvent(created('g1'));
    open();
    open();
    expect(store!.schemaVersion()).toBe(MIGRATIONS.length);
    expect(store!.loadGames()).toHaveLength(1);
    store!.close();
    const db = new Database(join(dir, 'data', 'dice-tower.db'), { readonly: true });
    expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('a new step runs once on an existing database; a failing step leaves it at the version before', () => {
    open().appendEvent(created('g1'));
    const next = [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY) STRICT' }];
    expect(open({ migrations: next }).schemaVersion()).toBe(next.length);
    expect(open({ migrations: next }).schemaVersion()).toBe(next.length);
    const broken = [...next, { version: next.length + 1, name: 'broken', sql: 'CREATE TABLE ok2 (x INTEGER); CREATE TABLE notes (y)' }];
    store!.close();
    store = null;
    expect(() => openStore(join(dir, 'data'), { migrations: broken })).toThrow(expect.objectContaining({ code: 'store/migration_failed' }));
    const back = open({ migrations: next });
    expect(back.schemaVersion()).toBe(next.length);
    expect(back.loadGames()).toHaveLength(1);
  });

  it('refuses a database from a newer version', () => {
    open({ migrations: [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'future', sql: 'SELECT 1' }] }).close();
    store = null;
    expect(() => openStore(join(dir, 'data'))).toThrow(expect.objectContaining({ code: 'store/schema_too_new' }));
  });
});

describe('event log', () => {
  it('gives each game its events back in order, with global seqs', () => {
    const s = open();
    s.appendEvent(created('g1', 100));
    s.appendEvent(created('g2', 101));
    s.appendEvent(roll('g1', 1, [3, 4]));
    s.appendEvent(action('g2', 'pass'));
    const tableAction: TableGame['actions'][number] = { type: 'hold' };
    s.appendEvent({ gameId: 'g1', type: 'game/action', at: 3, payload: { action: tableAction } });
    s.appendEvent(roll('g1', 2, [6, 6]));
    const games = open().loadGames();
    expect(games.map((g) => g.id)).toEqual(['g1', 'g2']);
    const [g1, g2] = games;
    expect(g1?.created.payload).toEqual({ game: 'yatzy', players: ['ann', 'bo'], bots: [1], options: { rounds: 3 } });
    expect(g1?.created.at).toBe(100);
    expect(g1?.steps.map((e) => [e.seq, e.type])).toEqual([[3, 'game/roll'], [5, 'game/action'], [6, 'game/roll']]);
    expect(g1?.steps[2]?.payload).toMatchObject({ roll: { seq: 2, values: [6, 6] }, frame: null });
    expect(g2?.steps.map((e) => e.payload)).toEqual([{ action: { type: 'pass' } }]);
    expect(store!.loadGame('g2')).toEqual(g2);
    expect(store!.loadGame('nope')).toBeNull();
  });

  it('refuses events that would not replay: unknown game, second creation, not plain JSON', () => {
    const s = open();
    expect(() => s.appendEvent(action('ghost', 'hold'))).toThrow(expect.objectContaining({ code: 'store/unknown_game' }));
    s.appendEvent(created('g1'));
    expect(() => s.appendEvent(created('g1'))).toThrow(expect.objectContaining({ code: 'store/duplicate_game' }));
    const bad = (payload: unknown) => s.appendEvent({ gameId: 'g1', type: 'game/action', at: 1, payload: { action: { type: 'x', v: payload } } });
    expect(() => bad(Number.NaN)).toThrow(expect.objectContaining({ code: 'store/bad_event', message: expect.stringContaining('$.action.v') }));
    expect(() => bad(new Date())).toThrow(StoreError);
    expect(() => bad([1, undefined])).toThrow(StoreError);
    expect(() => s.appendEvent({ ...created('../etc'), gameId: '../etc' })).toThrow(expect.objectContaining({ code: 'store/bad_event' }));
    expect(s.checkRecord()).toMatchObject({ ok: true, events: 1 });
  });

  it('refuses UPDATE and DELETE of events through SQL (triggers)', () => {
    open().appendEvent(created('g1'));
    store!.close();
    const db = new Database(join(dir, 'data', 'dice-tower.db'));
    expect(() => db.prepare("UPDATE events SET payload = '{}'").run()).toThrow(/append-only: UPDATE refused/);
    expect(() => db.prepare('DELETE FROM events').run()).toThrow(/append-only: DELETE refused/);
    db.close();
    expect(open().checkRecord()).toMatchObject({ ok: true, events: 1 });
  });
});

describe('hash chain', () => {
  function tamper(sql: string): void {
    store?.close();
    store = null;
    const db = new Database(join(dir, 'data', 'dice-tower.db'));
    db.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    db.exec(sql);
    db.close();
  }
  function fill(): void {
    const s = open();
    s.appendEvent(created('g1'));
    s.appendEvent(roll('g1', 1, [1, 2]));
    s.appendEvent(action('g1', 'hold'));
    s.appendEvent(roll('g1', 2, [5, 5]));
  }

  it('verifies an untouched log', () => {
    fill();
    expect(open().checkRecord()).toMatchObject({ ok: true, events: 4, end: { seq: 4, hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });

  it('shows a payload changed behind the store, with its seq', () => {
    fill();
    tamper(`UPDATE events SET payload = replace(payload, '[1,2]', '[6,6]') WHERE seq = 2`);
    expect(open().checkRecord()).toMatchObject({ ok: false, problem: { kind: 'chain', seq: 2, message: expect.stringContaining('hash does not match') } });
  });

  it('shows a row deleted from the middle, and a rewritten hash', () => {
    fill();
    tamper('DELETE FROM events WHERE seq = 3');
    expect(open().checkRecord()).toMatchObject({ ok: false, problem: { kind: 'chain', seq: 4, message: expect.stringContaining('missing') } });
    rmSync(join(dir, 'data'), { recursive: true });
    fill();
    // Recomputing one row's hash is not enough: the next row's prev_hash gives it away.
    tamper(`UPDATE events SET at = 999, hash = '${'a'.repeat(64)}' WHERE seq = 2`);
    expect(open().checkRecord()).toMatchObject({ ok: false, problem: { kind: 'chain', seq: 2 } });
  });
});

describe('frames', () => {
  it('are written atomically, read back, and leave no temp file', () => {
    const s = open();
    const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]);
    const path = s.saveFrame('g1', 1, jpeg);
    expect(path).toBe('frames/g1/1.jpg');
    expect(s.readFrame(path)).toEqual(jpeg);
    // A roll made again (after a crash) gets the new frame; the old one is put aside, never destroyed (it may be a lost roll's).
    s.saveFrame('g1', 1, Buffer.from('second'));
    expect(s.readFrame(path).toString()).toBe('second');
    const names = readdirSync(join(dir, 'data', 'frames', 'g1')).sort();
    expect(names).toEqual(['1.jpg', expect.stringMatching(/^1\.replaced-[0-9TZ-]+\.jpg$/)]);
    expect(readFileSync(join(dir, 'data', 'frames', 'g1', names[1] as string))).toEqual(jpeg);
  });

  it('refuse paths outside the frames directory, and say when a frame is missing', () => {
    const s = open();
    for (const path of ['../dice-tower.db', 'frames/../dice-tower.db', '/etc/passwd', 'frames/g1/../../x.jpg', 'frames/g1/1.png']) {
      expect(() => s.readFrame(path), path).toThrow(expect.objectContaining({ code: 'store/bad_path' }));
    }
    expect(() => s.readFrame('frames/g1/7.jpg')).toThrow(expect.objectContaining({ code: 'store/frame_not_found' }));
    expect(() => s.saveFrame('../x', 1, Buffer.from('x'))).toThrow(expect.objectContaining({ code: 'store/bad_event' }));
  });

  it('temp files left by a crash are swept at open', () => {
    open().saveFrame('g1', 1, Buffer.from('x'));
    writeFileSync(join(dir, 'data', 'frames', 'g1', '.2.jpg.123.abcd.tmp'), 'half');
    open();
    expect(readdirSync(join(dir, 'data', 'frames', 'g1'))).toEqual(['1.jpg']);
  });
});

/** Whether another user can reach the project: every folder above it searchable by others (a clone under /root is not). */
function othersCanReach(path: string): boolean {
  for (let p = path; p !== dirname(p); p = dirname(p)) if ((statSync(p).mode & 0o001) === 0) return false;
  return true;
}
/** As root, the read-only cases run the probe as `nobody`, who must be able to load the project. */
const canRunUnprivileged = process.getuid?.() !== 0 || othersCanReach(ROOT);

describe('failures', () => {
  it('a closed store says so', () => {
    const s = open();
    s.close();
    expect(() => s.appendEvent(created('g1'))).toThrow(expect.objectContaining({ code: 'store/closed' }));
  });

  describe.skipIf(!canRunUnprivileged)('read-only data directory', () => {
    beforeEach(() => {
      // The unprivileged child must reach the temp dir.
      chmodSync(dir, 0o777);
    });

    it('opening fails with StoreError naming the directory', () => {
      const parent = join(dir, 'ro');
      mkdirSync(parent);
      chmodSync(parent, 0o555);
      const target = join(parent, 'data');
      const out = runFixture('readonly-probe.ts', ['open', target], { unprivileged: true });
      expect(out.stderr).toBe('');
      expect(JSON.parse(out.stdout)).toMatchObject({ thrown: true, isStoreError: true, code: 'store/open_failed', path: target, message: expect.stringContaining(target) });
    });

    it('saving a frame fails with StoreError naming the file, and leaves no temp file', () => {
      const target = join(dir, 'data');
      const out = runFixture('readonly-probe.ts', ['frame', target], { unprivileged: true });
      const result = JSON.parse(out.stdout);
      expect(result).toMatchObject({ thrown: true, isStoreError: true, code: 'store/write_failed', path: join(target, 'frames', 'g1', '1.jpg') });
      expect(result.message).toContain(join(target, 'frames', 'g1', '1.jpg'));
      expect(existsSync(join(target, 'frames', 'g1'))).toBe(false);
    });

    it('appending to a read-only database fails with store/write_failed naming it, and writes nothing', () => {
      const target = join(dir, 'data');
      const out = runFixture('readonly-probe.ts', ['append', target], { unprivileged: true });
      expect(JSON.parse(out.stdout)).toMatchObject({ thrown: true, code: 'store/write_failed', path: join(target, 'dice-tower.db'), message: expect.stringContaining(join(target, 'dice-tower.db')) });
      chmodSync(join(target, 'dice-tower.db'), 0o644);
      expect(open().loadGames()).toEqual([]);
    });
  });
});

describe('crash', () => {
  it('a writer killed with SIGKILL mid-loop leaves a verifiable log of whole events', async () => {
    const data = join(dir, 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, 'crash-writer.ts'), data], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let lastSeen = 0;
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    await new Promise<void>((done, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        const seqs = d.toString().trim().split('\n').map(Number);
        lastSeen = Math.max(lastSeen, ...seqs);
        if (lastSeen >= 150) {
          child.kill('SIGKILL');
          done();
        }
      });
      child.on('exit', () => fail(new Error(`writer exited early: ${stderr}`)));
    });
    expect(await exited).toBe('SIGKILL');

    const s = open();
    // A kill between a frame and its event, or between the head file and the commit, is no tampering.
    const check = s.checkRecord();
    expect(check).toMatchObject({ ok: true, problem: null });
    // Every event the child saw committed is there (and maybe one it had not printed yet).
    expect(check.events).toBeGreaterThanOrEqual(lastSeen);
    const games = s.loadGames();
    expect(games.map((g) => g.id)).toEqual(['g-a', 'g-b', 'g-c']);
    for (const game of games) {
      game.steps.forEach((step, i) => {
        expect(step.type).toBe('game/roll');
        if (step.type !== 'game/roll') return;
        expect(step.payload.roll.seq).toBe(i + 1);
        expect(step.payload.roll.values).toHaveLength(5);
        expect(s.readFrame(step.payload.frame ?? '')).toHaveLength(64 * 1024);
      });
      const names = readdirSync(join(data, 'frames', game.id));
      expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }
  });
});
