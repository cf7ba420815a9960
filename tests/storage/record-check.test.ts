/**
 * The record check (src/storage/record-check.ts) on real data directories,
 * tampered with behind the store's back: the database (a die changed after a
 * WAL checkpoint, the chain recomputed, an event deleted, a lost -wal file),
 * the frames (edited, swapped, deleted, extra, beyond the log) and the head
 * file (ahead, behind, missing). Each must be named: the kind, the event and
 * the file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MIGRATIONS, openStore, type NewEvent } from '../../src/storage/index.js';
import { GENESIS_HASH, HEAD_FILE, eventHash, formatHead, readHeadFile } from '../../src/storage/chain.js';
import { PROBLEM_FILE, keepProblem, readKeptFindings, verifyDataDir } from '../../src/storage/record-check.js';
import type { RollRecord } from '../../src/table.js';

let dir: string;
let data: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-record-'));
  data = join(dir, 'data');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const created = (gameId: string): NewEvent => ({ gameId, type: 'game/created', at: 1, payload: { game: 'yatzy', players: ['ann', 'bo'], bots: [], options: {} } });
function roll(gameId: string, seq: number, values: number[], frame: string | null): NewEvent {
  const record: RollRecord = { seq, request: { count: values.length, slots: values.map((_, i) => i), player: 0, secret: false }, values, source: frame ? 'tower' : 'manual', reading: null, attempts: 1, at: 10 + seq };
  return { gameId, type: 'game/roll', at: 10 + seq, payload: { roll: record, frame } };
}
/** Distinct bytes per frame, so a swap changes both. */
const jpeg = (gameId: string, n: number) => Buffer.from(`frame ${gameId} ${n} `.repeat(50));

/**
 * The log used throughout: 1 created g1, 2-4 rolls 1-3 of g1 (with frames),
 * 5 created g2, 6 roll 1 of g2 (with a frame).
 */
function fill(): void {
  const store = openStore(data);
  store.appendEvent(created('g1'));
  const dice = [[2, 4, 3, 3, 2], [1, 1, 5, 6, 2], [3, 3, 3, 4, 4]];
  dice.forEach((values, i) => store.appendEvent(roll('g1', i + 1, values, store.saveFrame('g1', i + 1, jpeg('g1', i + 1)))));
  store.appendEvent(created('g2'));
  store.appendEvent(roll('g2', 1, [6, 5, 4, 3, 2], store.saveFrame('g2', 1, jpeg('g2', 1))));
  store.close();
}

/** Changes the database behind the store (closed, so the WAL is checkpointed into the main file first). */
function tamper(sql: string): void {
  const db = new Database(join(data, 'dice-tower.db'));
  db.exec('DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;');
  db.exec(sql);
  db.close();
}

/** The data directory as a naive backup copies it: the .db without its -wal, the head file and the frames. */
function copyWithoutWal(): string {
  const copy = join(dir, 'copy');
  mkdirSync(copy);
  for (const name of ['dice-tower.db', HEAD_FILE]) copyFileSync(join(data, name), join(copy, name));
  cpSync(join(data, 'frames'), join(copy, 'frames'), { recursive: true });
  return copy;
}

/** Recomputes every hash from the first event, as a careful forger would after changing one. */
function rehash(): void {
  const db = new Database(join(data, 'dice-tower.db'));
  db.exec('DROP TRIGGER IF EXISTS events_no_update;');
  let prev = GENESIS_HASH;
  for (const r of db.prepare('SELECT * FROM events ORDER BY seq').all() as Array<{ seq: number; game_id: string; type: string; at: number; payload: string; frame_sha256: string | null }>) {
    const hash = eventHash(prev, { seq: r.seq, gameId: r.game_id, type: r.type, at: r.at, payload: JSON.parse(r.payload), frameSha256: r.frame_sha256 });
    db.prepare('UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, hash, r.seq);
    prev = hash;
  }
  db.close();
}

const frame = (path: string) => join(data, path);

describe('an untouched record', () => {
  it('is ok, with its counts, and the head file matches the log', () => {
    fill();
    const report = verifyDataDir(data);
    expect(report).toMatchObject({ ok: true, problem: null, events: 6, frames: 4, beforeFrameHashes: { events: 0, frames: 0 }, notes: [], unverifiedGames: [] });
    expect(readHeadFile(data)).toMatchObject({ seq: 6, hash: report.end.hash, prev: { seq: 5 } });
    // The store's own connection finds the same.
    const store = openStore(data);
    expect(store.checkRecord()).toMatchObject({ ok: true, events: 6, frames: 4 });
    store.close();
  });

  it('puts each frame in its event hash: a roll whose frame is not on disk is refused', () => {
    const store = openStore(data);
    store.appendEvent(created('g1'));
    expect(() => store.appendEvent(roll('g1', 1, [1, 2], 'frames/g1/1.jpg'))).toThrow(expect.objectContaining({ code: 'store/frame_not_found' }));
    store.close();
  });
});

describe('the database changed', () => {
  it('a die changed after a WAL checkpoint: names the event, and the games from it on', () => {
    fill();
    tamper(`UPDATE events SET payload = replace(payload, '[2,4,3,3,2]', '[6,6,6,6,6]') WHERE seq = 2`);
    const report = verifyDataDir(data);
    expect(report.problem).toMatchObject({ kind: 'chain', seq: 2, gameId: 'g1', message: expect.stringContaining('Event 2 (game/roll of game g1)') });
    expect([...report.unverifiedGames].sort()).toEqual(['g1', 'g2']);
  });

  it('a die changed and the whole chain recomputed: the head file does not meet it', () => {
    fill();
    tamper(`UPDATE events SET payload = replace(payload, '[6,5,4,3,2]', '[6,6,6,6,6]') WHERE seq = 6`);
    rehash();
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_mismatch', seq: 6, message: expect.stringContaining('recomputed') });
  });

  it('an event deleted from the middle, and one from the end', () => {
    fill();
    copyFileSync(join(data, 'dice-tower.db'), join(dir, 'whole.db'));
    tamper('DELETE FROM events WHERE seq = 3');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'chain', seq: 4, message: expect.stringContaining('missing') });
    copyFileSync(join(dir, 'whole.db'), join(data, 'dice-tower.db'));
    tamper('DELETE FROM events WHERE seq = 6');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_ahead', seq: 6, message: expect.stringContaining('1 event is missing') });
  });

  it('a lost -wal file (only the .db copied): the rolls in it are reported lost, never silently gone', () => {
    fill();
    const store = openStore(data);
    // Written to the -wal file, not yet checkpointed into the .db while the store is open.
    store.appendEvent(roll('g2', 2, [1, 1, 1, 1, 1], store.saveFrame('g2', 2, jpeg('g2', 2))));
    store.appendEvent(roll('g2', 3, [2, 2, 2, 2, 2], store.saveFrame('g2', 3, jpeg('g2', 3))));
    const copy = copyWithoutWal();
    store.close();
    const report = verifyDataDir(copy);
    expect(report.events).toBe(6);
    expect(report.problem).toMatchObject({ kind: 'head_ahead', seq: 7, message: expect.stringMatching(/ends at event 6.*reached event 8.*rolls lost/) });
  });
});

describe('frames changed', () => {
  it('a frame edited: names the file and its event', () => {
    fill();
    writeFileSync(frame('frames/g1/2.jpg'), 'a different picture');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_changed', seq: 3, gameId: 'g1', file: 'frames/g1/2.jpg' });
  });

  it('two frames swapped: the first of them is named', () => {
    fill();
    renameSync(frame('frames/g1/3.jpg'), frame('frames/g1/x'));
    renameSync(frame('frames/g1/1.jpg'), frame('frames/g1/3.jpg'));
    renameSync(frame('frames/g1/x'), frame('frames/g1/1.jpg'));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_changed', seq: 2, file: 'frames/g1/1.jpg', message: expect.stringContaining('changed or swapped') });
  });

  it('a frame deleted', () => {
    fill();
    rmSync(frame('frames/g2/1.jpg'));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_missing', seq: 6, gameId: 'g2', file: 'frames/g2/1.jpg' });
  });

  it('frames beyond the log: rolls of a game the log does not have, or past its last roll', () => {
    fill();
    writeFileSync(frame('frames/g1/6.jpg'), jpeg('g1', 6));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_beyond_log', file: 'frames/g1/6.jpg', message: expect.stringContaining('rolls 4-6 were lost') });
    rmSync(frame('frames/g1/6.jpg'));
    mkdirSync(frame('frames/g7'));
    writeFileSync(frame('frames/g7/1.jpg'), jpeg('g7', 1));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_beyond_log', gameId: 'g7', file: 'frames/g7/1.jpg' });
  });

  it('an extra frame for a roll that had none, or a file that is no frame', () => {
    fill();
    const store = openStore(data);
    store.appendEvent(roll('g2', 2, [1, 2, 3, 4, 5], null));
    store.close();
    writeFileSync(frame('frames/g2/2.jpg'), jpeg('g2', 2));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_extra', seq: 7, file: 'frames/g2/2.jpg', message: expect.stringContaining('has no frame') });
    rmSync(frame('frames/g2/2.jpg'));
    writeFileSync(frame('frames/g1/notes.txt'), 'hello');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_extra', file: 'frames/g1/notes.txt' });
  });

  it('the frame of a roll under way at a stop is accepted, and a roll made without a frame puts it aside (noted)', () => {
    fill();
    writeFileSync(frame('frames/g1/4.jpg'), jpeg('g1', 4));
    const report = verifyDataDir(data);
    expect(report.ok).toBe(true);
    expect(report.notes).toEqual([expect.stringContaining('frames/g1/4.jpg: the frame of a roll under way')]);
    const store = openStore(data);
    store.appendEvent(roll('g1', 4, [1, 2, 3, 4, 5], null));
    store.close();
    expect(verifyDataDir(data)).toMatchObject({ ok: true, notes: [expect.stringMatching(/^frames\/g1\/4\.replaced-.*\.jpg: a frame put aside when roll 4 of game g1 was made again/)] });
  });
});

describe('the head file', () => {
  it('ahead of the log', () => {
    fill();
    const head = readHeadFile(data) as { seq: number; hash: string };
    writeFileSync(join(data, HEAD_FILE), formatHead({ seq: 9, hash: 'b'.repeat(64), prev: { seq: 8, hash: 'c'.repeat(64) } }));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_ahead', seq: 7, message: expect.stringContaining('3 events are missing (7-9') });
    // A pending head one write ahead is a write that never committed (a stop mid-write): noted, not a problem.
    writeFileSync(join(data, HEAD_FILE), formatHead({ seq: 7, hash: 'b'.repeat(64), prev: head, pending: true }));
    expect(verifyDataDir(data)).toMatchObject({ ok: true, notes: [expect.stringContaining('never completed')] });
    // The same head once confirmed (the write committed): that write was lost.
    writeFileSync(join(data, HEAD_FILE), formatHead({ seq: 7, hash: 'b'.repeat(64), prev: head }));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_ahead', seq: 7 });
  });

  it('behind the log (an older head put back, or events added outside dice-tower)', () => {
    fill();
    const older = readFileSync(join(data, HEAD_FILE));
    const store = openStore(data);
    store.appendEvent(created('g3'));
    store.close();
    writeFileSync(join(data, HEAD_FILE), older);
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_behind', seq: 7, message: expect.stringContaining('event 7 was added outside dice-tower') });
    expect(verifyDataDir(data).unverifiedGames).toEqual(['g3']);
  });

  it('missing or garbled, once the log has had one', () => {
    fill();
    writeFileSync(join(data, HEAD_FILE), 'not json');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_unreadable' });
    rmSync(join(data, HEAD_FILE));
    const report = verifyDataDir(data);
    expect(report.problem).toMatchObject({ kind: 'head_missing', seq: null });
    expect([...report.unverifiedGames].sort()).toEqual(['g1', 'g2']);
    // Opening the store does not quietly make a new one.
    openStore(data).close();
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_missing' });
  });
});

describe('a log from before frame hashes and head files', () => {
  /** A schema-2 data directory as the previous release wrote it: no frame hashes, no head file. */
  function oldLog(): void {
    mkdirSync(join(data, 'frames', 'old'), { recursive: true });
    const db = new Database(join(data, 'dice-tower.db'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
    for (const m of MIGRATIONS.slice(0, 2)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
    }
    writeFileSync(join(data, 'frames', 'old', '1.jpg'), jpeg('old', 1));
    let prev = GENESIS_HASH;
    [created('old'), roll('old', 1, [1, 2, 3, 4, 5], 'frames/old/1.jpg')].forEach((e, i) => {
      const hash = eventHash(prev, { seq: i + 1, gameId: e.gameId, type: e.type, at: e.at, payload: e.payload });
      db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)').run(i + 1, e.gameId, e.type, e.at, JSON.stringify(e.payload), prev, hash);
      prev = hash;
    });
    db.close();
  }

  it('still verifies (saying what predates the frame hashes), opens without rewriting history, and hashes new frames', () => {
    oldLog();
    expect(verifyDataDir(data)).toMatchObject({ ok: true, events: 2, notes: [expect.stringContaining('predates head files')] });
    const store = openStore(data);
    expect(store.checkRecord()).toMatchObject({ ok: true, events: 2 });
    store.appendEvent(roll('old', 2, [6, 6, 1, 1, 2], store.saveFrame('old', 2, jpeg('old', 2))));
    store.close();
    const report = verifyDataDir(data);
    expect(report).toMatchObject({ ok: true, events: 3, frames: 1, beforeFrameHashes: { events: 2, frames: 1 }, notes: [] });
    // The old frame is checked to exist; the new one against its hash.
    writeFileSync(frame('frames/old/2.jpg'), 'swapped');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_changed', seq: 3 });
    rmSync(frame('frames/old/1.jpg'));
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_missing', seq: 2 });
  });

  it('a frame hash taken off a new event (and the chain recomputed) is named', () => {
    fill();
    tamper('UPDATE events SET frame_sha256 = NULL WHERE seq = 4');
    rehash();
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'frame_unhashed', seq: 4, file: 'frames/g1/3.jpg' });
  });
});

describe('a finding is kept until a person removes record-problem.json', () => {
  /** Opens the store, runs the check as the server does at start, and closes it. */
  function startCheck(at: string = data) {
    const store = openStore(at);
    try {
      return store.checkRecord();
    } finally {
      store.close();
    }
  }

  it('a die changed and the chain recomputed: still reported after an append and a restart, the games still unverified', () => {
    fill();
    const before = readHeadFile(data) as { hash: string };
    tamper(`UPDATE events SET payload = replace(payload, '[6,5,4,3,2]', '[6,6,6,6,6]') WHERE seq = 6`);
    rehash();
    const first = startCheck();
    expect(first.problem).toMatchObject({ kind: 'head_mismatch', seq: 6 });
    expect(statSync(join(data, PROBLEM_FILE)).mode & 0o777).toBe(0o600);
    // One more event (a game created), then a restart: the append moved the head file, yet the finding stays.
    const store = openStore(data);
    store.appendEvent(created('g3'));
    store.close();
    for (const report of [startCheck(), verifyDataDir(data)]) {
      expect(report.ok).toBe(false);
      expect(report.problem).toMatchObject({ kind: 'head_mismatch', seq: 6, foundAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      expect(report.problem?.message).toMatch(/^Found \d{4}-.* kept in record-problem\.json: Event 6 does not have the hash .*remove record-problem\.json .*once you have dealt with it/);
      expect([...report.unverifiedGames].sort()).toEqual(['g1', 'g2', 'g3']);
    }
    // The head file the append found disagreeing is kept beside the new one, as it was.
    const aside = readdirSync(data).filter((n) => /^chain-head\.disagreed-.*\.json$/.test(n));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(data, aside[0] as string), 'utf8'))).toMatchObject({ seq: 6, hash: before.hash });
    // Removed by hand once dealt with: the record (as it is now) checks again.
    rmSync(join(data, PROBLEM_FILE));
    expect(verifyDataDir(data)).toMatchObject({ ok: true, problem: null });
  });

  it('an append alone (no check before it) keeps what the head file says, and does not overwrite it', () => {
    fill();
    tamper(`UPDATE events SET payload = replace(payload, '[6,5,4,3,2]', '[6,6,6,6,6]') WHERE seq = 6`);
    rehash();
    const store = openStore(data);
    store.appendEvent(created('g3'));
    store.close();
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'head_mismatch', seq: 6, file: expect.stringMatching(/^chain-head\.disagreed-/), message: expect.stringContaining('When event 7 was about to be written') });
  });

  it('rolls lost (the head ahead): rolling again puts the lost rolls\' frames aside, and the loss stays reported', () => {
    fill();
    const store = openStore(data);
    store.appendEvent(roll('g1', 4, [1, 1, 1, 1, 1], store.saveFrame('g1', 4, jpeg('g1', 4))));
    store.appendEvent(roll('g1', 5, [2, 2, 2, 2, 2], store.saveFrame('g1', 5, jpeg('g1', 5))));
    // A lost -wal file: the .db alone, with the head file and the frames.
    const copy = copyWithoutWal();
    store.close();
    expect(startCheck(copy).problem).toMatchObject({ kind: 'head_ahead', seq: 7, message: expect.stringContaining('2 events are missing') });
    // The game goes on at roll 4, as the log has it.
    const again = openStore(copy);
    again.appendEvent(roll('g1', 4, [3, 3, 3, 3, 3], again.saveFrame('g1', 4, Buffer.from('a new picture'))));
    again.close();
    const g1 = readdirSync(join(copy, 'frames', 'g1'));
    const lost4 = g1.find((n) => /^4\.replaced-.*\.jpg$/.test(n));
    expect(lost4).toBeDefined();
    expect(readFileSync(join(copy, 'frames', 'g1', lost4 as string))).toEqual(jpeg('g1', 4));
    expect(readFileSync(join(copy, 'frames', 'g1', '5.jpg'))).toEqual(jpeg('g1', 5));
    expect(readFileSync(join(copy, 'frames', 'g1', '4.jpg')).toString()).toBe('a new picture');
    for (const report of [startCheck(copy), verifyDataDir(copy)]) {
      expect(report.problem).toMatchObject({ kind: 'head_ahead', seq: 7, message: expect.stringMatching(/kept in record-problem\.json: The log ends at event 6.*reached event 8/) });
      expect(report.unverifiedGames).toContain('g1');
    }
  });

  it('a first run\'s -wal lost before any checkpoint: the head file is not replaced, the loss is reported and stays', () => {
    const store = openStore(data);
    store.appendEvent(created('g1'));
    store.appendEvent(roll('g1', 1, [1, 2, 3, 4, 5], store.saveFrame('g1', 1, jpeg('g1', 1))));
    store.appendEvent(roll('g1', 2, [2, 3, 4, 5, 6], store.saveFrame('g1', 2, jpeg('g1', 2))));
    store.appendEvent(roll('g1', 3, [3, 4, 5, 6, 1], store.saveFrame('g1', 3, jpeg('g1', 3))));
    // Never checkpointed: the schema and all four events are in the -wal file only.
    const copy = copyWithoutWal();
    store.close();
    const head = readFileSync(join(copy, HEAD_FILE), 'utf8');
    expect(JSON.parse(head)).toMatchObject({ seq: 4 });
    const first = startCheck(copy);
    expect(first.events).toBe(0);
    expect(first.problem).toMatchObject({ kind: 'head_ahead', seq: 1, message: expect.stringContaining('4 events are missing') });
    expect(readFileSync(join(copy, HEAD_FILE), 'utf8')).toBe(head);
    const again = openStore(copy);
    again.appendEvent(created('g2'));
    again.close();
    for (const report of [startCheck(copy), verifyDataDir(copy)]) {
      expect(report.problem).toMatchObject({ kind: 'head_ahead', seq: 1, message: expect.stringContaining('4 events are missing') });
      // g2, made after the loss; g1 is the lost game whose frames lie beyond the log.
      expect([...report.unverifiedGames].sort()).toEqual(['g1', 'g2']);
    }
  });

  it('the same, opened without a check: the first append keeps the loss', () => {
    const store = openStore(data);
    store.appendEvent(created('g1'));
    store.appendEvent(created('g2'));
    const copy = join(dir, 'copy');
    mkdirSync(copy);
    for (const name of ['dice-tower.db', HEAD_FILE]) copyFileSync(join(data, name), join(copy, name));
    store.close();
    const again = openStore(copy);
    again.appendEvent(created('g3'));
    again.close();
    expect(verifyDataDir(copy).problem).toMatchObject({ kind: 'head_ahead', seq: 1, message: expect.stringContaining('2 events are missing') });
  });

  it('keeps the earliest finding: a later event\'s problem never replaces it; an earlier one is added before it', () => {
    fill();
    const problem = (seq: number | null, kind: 'chain' | 'head_ahead' = 'chain') => ({ kind, seq, gameId: null, file: null, message: `at ${seq}` });
    expect(keepProblem(data, problem(5))).toBe(true);
    expect(keepProblem(data, problem(6, 'head_ahead'))).toBe(false);
    expect(keepProblem(data, problem(5))).toBe(false);
    expect(readKeptFindings(data)).toEqual([expect.objectContaining({ seq: 5, message: 'at 5' })]);
    expect(keepProblem(data, problem(2))).toBe(true);
    expect(readKeptFindings(data)).toEqual([expect.objectContaining({ seq: 2 }), expect.objectContaining({ seq: 5 })]);
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'chain', seq: 2, message: expect.stringContaining('at 2') });
    // A file garbled by hand is itself reported, never taken for "nothing kept".
    writeFileSync(join(data, PROBLEM_FILE), '{}');
    expect(verifyDataDir(data).problem).toMatchObject({ kind: 'kept_unreadable', file: PROBLEM_FILE });
    expect(existsSync(join(data, PROBLEM_FILE))).toBe(true);
  });
});

describe('while the server writes', () => {
  it('verify reads a consistent record: the head file and the log never seem to disagree', async () => {
    // The crash test's writer: frames and roll events as fast as it can, each write moving the head file.
    const writer = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-writer.ts'), data], { cwd: resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((done) => writer.once('exit', done));
    try {
      let written = 0;
      writer.stdout.on('data', (d: Buffer) => (written = Math.max(written, ...d.toString().trim().split('\n').map(Number))));
      await expect.poll(() => written, { timeout: 30_000 }).toBeGreaterThan(20);
      const seen: number[] = [];
      while (seen.length < 30) {
        const report = verifyDataDir(data);
        expect(report.problem).toBeNull();
        seen.push(report.events);
      }
      // The checks ran while the log grew.
      expect(Math.max(...seen)).toBeGreaterThan(Math.min(...seen));
    } finally {
      writer.kill('SIGKILL');
      await exited;
    }
  }, 60_000);
});
