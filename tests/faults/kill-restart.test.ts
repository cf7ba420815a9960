/**
 * The server killed with SIGKILL at seeded random moments during 100
 * simulated tower rolls, and started again each time on the same data
 * directory: the real `dice-tower serve` (simulated tower, real reader, the
 * SQLite store), driven over HTTP like the scoreboard does.
 *
 * The kill plan picks, with a fixed seed, which requests are followed by a
 * kill and when: a random share of a typical request's time after it was
 * sent (so kills land while the dice are rendered, read, written, or between
 * requests), or the moment the scoreboard feed announces the change (it is
 * recorded, and its HTTP answer may not have left yet). After
 * each restart the client reads every game back: a roll or decision it had
 * an answer for must be there (nothing lost), the one in flight is there at
 * most once, and nothing else moved. At the end every game's state as the
 * restarted server shows it equals the replay of its stored log, the log's
 * hash chain holds, and its rolls are exactly the ones the client saw made,
 * each once, in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { findGame, isInvalid } from '../../src/games/index.js';
import { SeededRandom } from '../../src/hardware/index.js';
import { openStore } from '../../src/storage/index.js';
import { liveGames } from '../../src/api/public/view-patch.js';

const ROLLS = 100;
/** Kills during the run. */
const KILLS = Number(process.env.KILLS ?? 10);
const SEED = 8;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WHEN_TOLD = fileURLToPath(new URL('./serve-when-told.ts', import.meta.url));
const TOKEN = 'kill-test-operator';
const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-kill-'));

interface View {
  id: string;
  game: string;
  version: number;
  rollCount: number;
  request: { count: number } | null;
  result: unknown;
  actions: Array<{ type: string }>;
  lastRoll: { seq: number; values: number[] } | null;
  state: unknown;
}

let server: { proc: ChildProcess; url: string } | null = null;
/** The next server, modules loaded, waiting to be told to start. */
let spare: { proc: ChildProcess; out: { text: string } } | null = null;
afterAll(() => {
  server?.proc.kill('SIGKILL');
  spare?.proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Spawns `serve` (through serve-when-told.ts) with its modules loading; it starts when told. */
function warm(seed: number): { proc: ChildProcess; out: { text: string } } {
  const proc = spawn(process.execPath, ['--import', 'tsx', WHEN_TOLD, 'serve', '--port', '0', '--host', '127.0.0.1', '--roll-ms', '0', '--seed', String(seed)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DICE_TOWER_DATA: dataDir, DICE_TOWER_TOKEN: TOKEN },
  });
  const out = { text: '' };
  proc.stdout?.on('data', (chunk) => (out.text += String(chunk)));
  proc.stderr?.on('data', (chunk) => (out.text += String(chunk)));
  return { proc, out };
}

/** Starts the warm spare on the data directory and warms the next one; resolves once it serves. */
async function start(seed: number): Promise<{ proc: ChildProcess; url: string }> {
  const { proc, out } = spare ?? warm(seed);
  spare = null;
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = pattern.exec(out.text);
        if (found) {
          clearInterval(timer);
          resolve(found[1] ?? found[0]);
        }
      }, 10);
      proc.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`the server exited (${code}) before it was up:\n${out.text}`));
      });
    });
  await waitFor(/^loaded$/m);
  proc.stdin?.write('go\n');
  const url = await waitFor(/scoreboard on (http:\/\/127\.0\.0\.1:\d+)/);
  // Nothing but the start-up line: a warning would mean the log could not be replayed.
  expect(out.text).not.toMatch(/warning/);
  spare = warm(seed + 1);
  return { proc, url };
}

async function kill(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; view: View }> {
  if (!server) throw new Error('no server');
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, view: (await res.json()) as View };
}

describe('SIGKILL at random moments during 100 rolls', () => {
  it(`loses no roll, applies none twice, and every game replays from its log (${KILLS} kills)`, async () => {
    const rng = new SeededRandom(SEED);
    server = await start(1);
    const views = new Map<string, View>();
    const newGame = async (game: string) => {
      const { status, view } = await call('POST', '/api/games', { game, players: ['Ann', 'Bob'] });
      expect(status).toBe(201);
      views.set(view.id, view);
    };
    for (const game of ['dice-poker', 'mexico', 'shut-the-box']) await newGame(game);

    /** Every roll the client knows was made: by game, its values in order (seq = index + 1). */
    const made = new Map<string, number[][]>([...views.keys()].map((id) => [id, []]));
    const total = () => [...made.values()].reduce((n, rolls) => n + rolls.length, 0);
    // The kill plan: which requests (counted from 0) are followed by a kill, and when: a share (0-130 %) of a
    // typical request's time after it is sent, or ('recorded') as soon as the feed announces the change.
    // Every roll is a request, so request numbers below ROLLS are always reached.
    const plan = new Map<number, number | 'recorded'>();
    while (plan.size < KILLS) plan.set(rng.int(3, ROLLS - 1), rng.next() < 0.5 ? 'recorded' : rng.next() * 1.3);
    /** The change whose announcement on the feed kills the server. */
    let killOn: { id: string; version: number; proc: ChildProcess } | null = null;
    const listen = (url: string) => {
      const feed = new WebSocket(`${url.replace('http', 'ws')}/ws`);
      const live = liveGames();
      feed.on('message', (data) => {
        const { game, resync } = live.take(JSON.parse(String(data)) as { type: string });
        if (resync) feed.send(JSON.stringify({ type: 'resync', game: resync }));
        if (killOn && game?.id === killOn.id && game.version === killOn.version) killOn.proc.kill('SIGKILL');
      });
      feed.on('error', () => {}); // it dies with its server
      return new Promise((resolve) => feed.once('open', resolve));
    };
    await listen(server.url);
    const recent: number[] = [];
    const typicalMs = () => (recent.length === 0 ? 200 : [...recent].sort((a, b) => a - b)[Math.floor(recent.length / 2)] as number);
    let request = 0;
    let kills = 0;
    let landedInFlight = 0;
    let killedMidRequest = 0;
    let restartMs = 0;
    const testStarted = performance.now();
    let turn = 0;

    while (total() < ROLLS) {
      const active = [...views.values()].filter((v) => !v.result);
      const view = active[turn++ % active.length] as View;
      const isRoll = view.request !== null;
      const action = isRoll ? null : view.actions[rng.int(0, view.actions.length - 1)];
      const when = plan.get(request++);
      const killAfter = when === undefined ? undefined : when === 'recorded' ? 0 : Math.round(when * typicalMs());
      const victim = server.proc;
      killOn = when === 'recorded' ? { id: view.id, version: view.version + 1, proc: victim } : null;
      const timer = typeof when === 'number' ? setTimeout(() => void kill(victim), killAfter) : null;
      let answer: { status: number; view: View } | null = null;
      const sent = performance.now();
      try {
        answer = isRoll ? await call('POST', `/api/games/${view.id}/roll`) : await call('POST', `/api/games/${view.id}/actions`, action);
        if (isRoll) recent.push(performance.now() - sent);
        if (recent.length > 20) recent.shift();
      } catch {
        // The server died under this request: its answer never came.
        killedMidRequest++;
      }
      if (killAfter !== undefined) {
        // The kill happens whether the answer came or not (then it lands between requests).
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, killAfter - (performance.now() - sent))));
        if (timer) clearTimeout(timer);
        killOn = null;
        await kill(victim);
        kills++;
        const restarting = performance.now();
        server = await start(100 + kills);
        await listen(server.url);
        restartMs += performance.now() - restarting;
        // Every game is back as the client last saw it, but the one in flight may have moved one step (at most once).
        for (const known of views.values()) {
          const { status, view: back } = await call('GET', `/api/games/${known.id}`);
          expect(status).toBe(200);
          const inFlight = known.id === view.id;
          const expected = inFlight && answer?.status === 200 ? answer.view : known;
          if (inFlight && !answer && back.version === known.version + 1) {
            landedInFlight++;
            if (isRoll) {
              expect(back.rollCount).toBe(known.rollCount + 1);
              made.get(known.id)?.push(back.lastRoll!.values);
            }
          } else {
            expect({ version: back.version, rollCount: back.rollCount, state: back.state }).toEqual({ version: expected.version, rollCount: expected.rollCount, state: expected.state });
          }
          views.set(known.id, back);
        }
        if (answer?.status === 200 && isRoll) made.get(view.id)?.push(answer.view.lastRoll!.values);
        continue;
      }
      if (!answer) throw new Error('the server stopped answering without being killed');
      // A reading the camera could not make (re-rolled three times) leaves the game as it was: roll again.
      if (answer.status === 503) continue;
      expect(answer.status, JSON.stringify(answer.view)).toBe(200);
      views.set(view.id, answer.view);
      if (isRoll) made.get(view.id)?.push(answer.view.lastRoll!.values);
      if (answer.view.result && [...views.values()].every((v) => v.result)) {
        const next = ['dice-poker', 'mexico', 'shut-the-box'][turn % 3] as string;
        await newGame(next);
        made.set([...views.keys()].at(-1) as string, []);
      }
    }
    expect(kills).toBe(KILLS);

    // One more kill, then the server as it comes back is what the replay must match.
    await kill(server.proc);
    server = await start(999);
    const restored = new Map<string, View>();
    for (const id of views.keys()) restored.set(id, (await call('GET', `/api/games/${id}`)).view);
    const stopped = new Promise((resolve) => server!.proc.once('exit', resolve));
    server.proc.kill('SIGTERM');
    await stopped;

    const store = openStore(dataDir);
    try {
      expect(store.checkRecord()).toMatchObject({ ok: true });
      // Frames and head file too: what the kills left (a frame without its roll, a pending head) is no tampering.
      expect(store.checkRecord()).toMatchObject({ ok: true, problem: null });
      const stored = store.loadGames();
      expect(stored.map((g) => g.id).sort()).toEqual([...views.keys()].sort());
      for (const game of stored) {
        const def = findGame(game.created.payload.game);
        if (!def) throw new Error(`unknown game ${game.created.payload.game}`);
        let state: unknown = def.setup(game.created.payload.players, game.created.payload.options);
        for (const step of game.steps) {
          // As the table replays it: a roll with its values (and coloured dice, when the game asked for them).
          const roll = step.type === 'game/roll' ? step.payload.roll : null;
          const action: { type: string } = roll ? ({ type: 'roll', values: roll.values, ...(roll.dice ? { dice: roll.dice } : {}) } as { type: string }) : (step as { payload: { action: { type: string } } }).payload.action;
          const next = def.apply(state, action);
          if (isInvalid(next)) throw new Error(`game ${game.id}: stored step ${step.seq} is refused on replay: ${next.message}`);
          state = next;
        }
        const view = restored.get(game.id) as View;
        expect(view.state).toEqual(def.playerView(state, null));
        expect(view.version).toBe(1 + game.steps.length);
        // The rolls on record are the ones made, each once, in order.
        const rolls = game.steps.flatMap((s) => (s.type === 'game/roll' ? [s.payload.roll] : []));
        expect(rolls.map((r) => r.seq)).toEqual(rolls.map((_, i) => i + 1));
        expect(rolls.map((r) => r.values)).toEqual(made.get(game.id));
      }
      expect(total()).toBeGreaterThanOrEqual(ROLLS);
      console.log(
        `kill test: ${total()} rolls in ${stored.length} games, ${kills} kills (${killedMidRequest} mid-request, ${landedInFlight} of those after the change was recorded); ` +
          `${Math.round((performance.now() - testStarted) / 1000)} s in all, ${Math.round(restartMs / 1000)} s of it restarting`,
      );
    } finally {
      store.close();
    }
  }, 300_000);
});
