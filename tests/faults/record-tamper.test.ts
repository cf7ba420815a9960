/**
 * Issue #45, "tampering is seen by one stderr line, then served as truth",
 * through the real `dice-tower` command: games played on the simulated tower,
 * the server stopped, a die changed in the database behind its back (after
 * the WAL was checkpointed), then `dice-tower verify` and a new `serve` on
 * that data directory. verify must name the event and exit 1; the server must
 * say so in /api/health, mark the touched game unverified and refuse to export
 * it, while an untouched game still exports, with the log's head in it.
 *
 * Then the finding must outlive writes: a die changed and the whole chain
 * recomputed (only the head file sees it), one game created after the start
 * that found it, and two restarts: still reported, the game still unverified
 * and its export still refused, until record-problem.json is removed by hand.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson, eventHash, GENESIS_HASH } from '../../src/storage/index.js';

const BIN = fileURLToPath(new URL('../../bin/dice-tower.js', import.meta.url));
const TOKEN = 'record-tamper-operator-token';
const data = mkdtempSync(join(tmpdir(), 'dice-tower-tamper-'));
const rehashed = mkdtempSync(join(tmpdir(), 'dice-tower-tamper-rehashed-'));
const env = { ...process.env, DICE_TOWER_TOKEN: TOKEN };
let running: ChildProcess | null = null;

afterAll(() => {
  running?.kill('SIGKILL');
  rmSync(data, { recursive: true, force: true });
  rmSync(rehashed, { recursive: true, force: true });
});

/** `dice-tower serve` on the data directory; resolves with its URL and everything it printed so far. */
async function serve(dir: string = data): Promise<{ url: string; output: () => string }> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--seed', '5', '--roll-ms', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'], env });
  running = proc;
  let text = '';
  proc.stdout?.on('data', (chunk) => (text += String(chunk)));
  proc.stderr?.on('data', (chunk) => (text += String(chunk)));
  await expect.poll(() => text, { timeout: 60_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
  return { url: /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0] ?? '', output: () => text };
}

async function stop(): Promise<void> {
  const proc = running;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((done) => proc.once('exit', done));
  proc.kill('SIGTERM');
  await exited;
  running = null;
}

async function call(url: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

function verify(dir: string = data): { status: number | null; stdout: string } {
  const out = spawnSync(process.execPath, [BIN, 'verify', '--data', dir], { encoding: 'utf8', env, timeout: 60_000 });
  return { status: out.status, stdout: out.stdout + out.stderr };
}

/** Two games created and rolled once each (events: created, roll for each); their ids. */
async function twoGamesRolledOnce(url: string): Promise<string[]> {
  const ids: string[] = [];
  for (const players of [['ann', 'bo'], ['cy', 'di']]) {
    const created = await call(url, 'POST', '/api/games', { game: 'yatzy', players });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect((await call(url, 'POST', `/api/games/${id}/roll`)).status).toBe(200);
    ids.push(id);
  }
  return ids;
}

describe('a record changed outside dice-tower', () => {
  it('is named by verify (exit 1) and by the restarted server, which marks the game and will not export it', async () => {
    // Two games played on the simulated tower: events 1-2 are game A (created, roll), 3-4 game B.
    let server = await serve();
    expect((await call(server.url, 'GET', '/api/health')).json.record).toMatchObject({ ok: true, firstBad: null, message: expect.stringMatching(/^ok: 0 events/) });
    const ids = await twoGamesRolledOnce(server.url);
    const [a, b] = ids as [string, string];
    await stop();
    expect(verify()).toEqual({ status: 0, stdout: expect.stringMatching(/^ok: 4 events chained, 2 frames match their events, head at event 4/) });

    // The server is stopped, so its WAL is checkpointed: change game B's roll to five sixes in the .db itself.
    const db = new Database(join(data, 'dice-tower.db'));
    const row = db.prepare("SELECT seq, payload FROM events WHERE game_id = ? AND type = 'game/roll'").get(b) as { seq: number; payload: string };
    expect(row.seq).toBe(4);
    const payload = JSON.parse(row.payload) as { roll: { values: number[] } };
    payload.roll.values = payload.roll.values.map(() => 6);
    db.exec('DROP TRIGGER events_no_update');
    db.prepare('UPDATE events SET payload = ? WHERE seq = 4').run(canonicalJson(payload));
    db.close();

    const checked = verify();
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain('changed outside dice-tower at event 4');
    expect(checked.stdout).toContain(`Event 4 (game/roll of game ${b}) does not chain`);

    server = await serve();
    expect(server.output()).toMatch(/warning: the record in .* was changed outside dice-tower: Event 4/);
    const health = await call(server.url, 'GET', '/api/health');
    expect(health.json.record).toEqual({ ok: false, firstBad: 4, kind: 'chain', file: null, message: expect.stringContaining('Event 4') });
    expect((await call(server.url, 'GET', `/api/games/${b}`)).json.unverified).toBe(true);
    expect((await call(server.url, 'GET', `/api/games/${a}`)).json).not.toHaveProperty('unverified');
    const history = (await call(server.url, 'GET', '/api/history')).json.games as Array<{ id: string; unverified?: boolean }>;
    expect(history.find((g) => g.id === b)?.unverified).toBe(true);
    // Never chained afresh into an export: refused, naming why.
    const refused = await call(server.url, 'GET', `/api/games/${b}/export`);
    expect(refused).toMatchObject({ status: 409, json: { code: 'record/unverified' } });
    const fine = await call(server.url, 'GET', `/api/games/${a}/export`);
    expect(fine.status).toBe(200);
    expect(fine.json.logHead).toMatchObject({ seq: 4, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Every page loads the banner that shows the health's record problem.
    for (const page of ['/', '/history.html', '/player.html', '/overlay.html']) {
      expect(await (await fetch(`${server.url}${page}`)).text()).toContain('src="record-banner.js"');
    }
    await stop();
  }, 180_000);
});

describe('a finding outlives the writes after it', () => {
  it('a die changed and the chain recomputed: still reported, the game unverified and not exported, after a write and two restarts', async () => {
    let server = await serve(rehashed);
    const ids = await twoGamesRolledOnce(server.url);
    const b = ids[1] as string;
    await stop();

    // Game B's roll changed to five sixes, and every hash recomputed from the first event: the chain holds, only the head file disagrees.
    const db = new Database(join(rehashed, 'dice-tower.db'));
    db.exec('DROP TRIGGER events_no_update');
    const rows = db.prepare('SELECT * FROM events ORDER BY seq').all() as Array<{ seq: number; game_id: string; type: string; at: number; payload: string; frame_sha256: string | null }>;
    let prev = GENESIS_HASH;
    for (const r of rows) {
      const payload = JSON.parse(r.payload) as { roll?: { values: number[] } };
      if (r.game_id === b && payload.roll) payload.roll.values = payload.roll.values.map(() => 6);
      const hash = eventHash(prev, { seq: r.seq, gameId: r.game_id, type: r.type, at: r.at, payload, frameSha256: r.frame_sha256 });
      db.prepare('UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?').run(canonicalJson(payload), prev, hash, r.seq);
      prev = hash;
    }
    db.close();

    server = await serve(rehashed);
    expect((await call(server.url, 'GET', '/api/health')).json.record).toMatchObject({ ok: false, firstBad: 4, kind: 'head_mismatch' });
    // One write after the start that found it: the head file moves to the log's new end.
    expect((await call(server.url, 'POST', '/api/games', { game: 'yatzy', players: ['ed', 'flo'] })).status).toBe(201);
    await stop();
    expect(existsSync(join(rehashed, 'record-problem.json'))).toBe(true);

    for (let restart = 1; restart <= 2; restart++) {
      server = await serve(rehashed);
      expect(server.output()).toMatch(/warning: the record in .* was changed outside dice-tower: Found .* kept in record-problem\.json: Event 4 does not have the hash/);
      const record = (await call(server.url, 'GET', '/api/health')).json.record as { message: string };
      expect(record).toMatchObject({ ok: false, firstBad: 4, kind: 'head_mismatch' });
      expect(record.message).toMatch(/remove record-problem\.json .*once you have dealt with it/);
      expect((await call(server.url, 'GET', `/api/games/${b}`)).json.unverified).toBe(true);
      expect(await call(server.url, 'GET', `/api/games/${b}/export`)).toMatchObject({ status: 409, json: { code: 'record/unverified' } });
      await stop();
      const checked = verify(rehashed);
      expect(checked.status).toBe(1);
      expect(checked.stdout).toMatch(/at event 4: Found .* kept in record-problem\.json/);
    }

    // Dealt with by hand: the file removed, the record as it now stands checks again.
    rmSync(join(rehashed, 'record-problem.json'));
    expect(verify(rehashed).status).toBe(0);
  }, 240_000);
});
