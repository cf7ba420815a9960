/**
 * Bot games go on by themselves after a restart (issue #45, finding 5): the
 * real `dice-tower serve` (simulated tower, real reader, SQLite store) runs a
 * game whose every seat is a bot, is stopped with SIGKILL, started again on
 * the same data directory, stopped with SIGTERM, started again; after each
 * start the game's roll count must keep growing with nobody touching it. At
 * the end the log holds every roll once, in order, and its chain holds.
 *
 * No timing is asserted: the server is polled with a generous deadline until
 * the game has moved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSimulator } from '../../src/hardware/index.js';
import { openStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WHEN_TOLD = fileURLToPath(new URL('./serve-when-told.ts', import.meta.url));
const TOKEN = 'bots-resume-operator-token-0123456789';
/** How long a started server may take to move a bot game on (module loading on a busy machine included). */
const DEADLINE_MS = 60_000;
const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-bots-'));

interface View {
  id: string;
  version: number;
  rollCount: number;
  result: unknown;
}

let running: { proc: ChildProcess; url: string } | null = null;
afterAll(() => {
  running?.proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `serve` on the data directory (the bots' default pace: nothing here sets the bot delay) and resolves once it listens. */
async function start(seed: number): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', WHEN_TOLD, 'serve', '--port', '0', '--host', '127.0.0.1', '--roll-ms', '0', '--seed', String(seed)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DICE_TOWER_DATA: dataDir, DICE_TOWER_TOKEN: TOKEN },
  });
  let out = '';
  proc.stdout?.on('data', (chunk) => (out += String(chunk)));
  proc.stderr?.on('data', (chunk) => (out += String(chunk)));
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = pattern.exec(out);
        if (found) {
          clearInterval(timer);
          resolve(found[1] ?? found[0]);
        }
      }, 20);
      proc.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`the server exited (${code}) before it was up:\n${out}`));
      });
    });
  await waitFor(/^loaded$/m);
  proc.stdin?.write('go\n');
  const url = await waitFor(/scoreboard on (http:\/\/127\.0\.0\.1:\d+)/);
  running = { proc, url };
  return running;
}

async function stop(proc: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill(signal);
  await exited;
  running = null;
}

async function call(url: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; view: View }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, view: (await res.json()) as View };
}

/** Polls the game until `done` holds (it returns the view that satisfied it), failing with the last view after the deadline. */
async function until(url: string, id: string, what: string, done: (v: View) => boolean): Promise<View> {
  const deadline = Date.now() + DEADLINE_MS;
  let last: View | null = null;
  while (Date.now() < deadline) {
    last = (await call(url, 'GET', `/api/games/${id}`)).view;
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const at = last && { version: last.version, rollCount: last.rollCount, result: last.result };
  throw new Error(`${what} within ${DEADLINE_MS / 1000} s; the game stayed at ${JSON.stringify(at)}`);
}

describe('bot games after a restart', () => {
  it('go on by themselves after SIGKILL and after SIGTERM, and the log holds each roll once', async () => {
    let server = await start(1);
    const created = await call(server.url, 'POST', '/api/games', { game: 'dice-poker', players: ['Ann', 'Bob', 'Cy'], bots: [0, 1, 2] });
    expect(created.status).toBe(201);
    const id = created.view.id;
    await until(server.url, id, 'the bots did not roll twice', (v) => v.rollCount >= 2);

    for (const [signal, seed] of [['SIGKILL', 2], ['SIGTERM', 3]] as const) {
      await stop(server.proc, signal);
      server = await start(seed);
      const back = (await call(server.url, 'GET', `/api/games/${id}`)).view;
      expect(back.result, 'the game must still be under way for this test to mean anything').toBeNull();
      await until(server.url, id, `the bots did not move on after ${signal} and a restart`, (v) => v.rollCount > back.rollCount || v.result !== null);
    }
    await stop(server.proc, 'SIGTERM');

    const store = openStore(dataDir);
    try {
      expect(store.checkRecord()).toMatchObject({ ok: true });
      const [game] = store.loadGames();
      const rolls = game?.steps.flatMap((s) => (s.type === 'game/roll' ? [s.payload.roll.seq] : [])) ?? [];
      // Each roll once, in order: nothing applied twice across the restarts.
      expect(rolls).toEqual(rolls.map((_, i) => i + 1));
      expect(rolls.length).toBeGreaterThanOrEqual(4);
    } finally {
      store.close();
    }
  }, 240_000);
});

describe('which restored games wake their bots (in process)', () => {
  it('a bot game wakes; an imported one nobody played on here stays as its import left it', () => {
    const dirs = [mkdtempSync(join(tmpdir(), 'dice-tower-bots-a-')), mkdtempSync(join(tmpdir(), 'dice-tower-bots-b-'))] as const;
    const stores = dirs.map((dir) => openStore(dir));
    const tableOn = (n: 0 | 1) => {
      const sim = createSimulator({ seed: 2, colours: ['red'] });
      return new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store: stores[n], botDelayMs: 60_000 });
    };
    try {
      const live = tableOn(0);
      const id = live.create('dice-poker', ['Ann', 'Bob'], {}, [0, 1]).id;
      const exp = live.exportGame(id);
      live.close();
      const importer = tableOn(1);
      importer.importGame(exp);
      importer.close();

      // A pending bot move is a timer: one for the restored bot game, none for the imported one.
      vi.useFakeTimers();
      const restored = tableOn(0);
      expect(vi.getTimerCount()).toBe(1);
      restored.close();
      expect(vi.getTimerCount()).toBe(0);
      const reimported = tableOn(1);
      expect(reimported.list().map((g) => g.id)).toEqual([id]);
      expect(vi.getTimerCount()).toBe(0);
      reimported.close();
    } finally {
      vi.useRealTimers();
      for (const store of stores) store.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
