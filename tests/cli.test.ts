import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli.js';
import { parseColours } from '../src/server.js';

const BIN = fileURLToPath(new URL('../bin/dice-tower.js', import.meta.url));
/** Every server started here keeps its games in a fresh data directory. */
const TOKEN = 'operator-test-token';
const childEnv = (data = mkdtempSync(join(tmpdir(), 'dice-tower-data-'))) => ({ ...process.env, DICE_TOWER_DATA: data, DICE_TOWER_TOKEN: TOKEN });
const asOperator = { authorization: `Bearer ${TOKEN}` };
// `main` run in this process keeps its data away from the project too.
process.env.DICE_TOWER_DATA = mkdtempSync(join(tmpdir(), 'dice-tower-data-'));

/** Starts `dice-tower serve` and waits for its start-up line; returns the child, its output so far and its URL. */
async function startServer(args: string[], env: NodeJS.ProcessEnv) {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const log = { out: '' };
  proc.stdout?.on('data', (chunk) => (log.out += String(chunk)));
  proc.stderr?.on('data', (chunk) => (log.out += String(chunk)));
  await expect.poll(() => log.out, { timeout: 30_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
  return { proc, log, url: /http:\/\/127\.0\.0\.1:\d+/.exec(log.out)?.[0] ?? '' };
}

describe('dice-tower command', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    vi.restoreAllMocks();
  });

  it('serves the scoreboard and the API from the bin entry, on the port it announces', async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--seed', '3', '--roll-ms', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let out = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (out += String(chunk)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', tower: { kind: 'simulated' } });
    const page = await fetch(`${url}/`);
    expect(await page.text()).toMatch(/<title[^>]*>Dice Tower — Scoreboard<\/title>/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Viewers are read-only: an action without the operator token is refused.
    const anonymous = await fetch(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"game":"dice-poker","players":["Ann"]}' });
    expect(anonymous.status).toBe(401);
    // Nothing went wrong after the start-up line, and the server is still up.
    expect(out).not.toMatch(/dice-tower:|error/i);
    expect(child.exitCode).toBeNull();
  });

  it('comes back after being killed with every game as it was (SIGKILL mid-game)', async () => {
    const env = childEnv();
    const first = await startServer(['--roll-ms', '0'], env);
    child = first.proc;
    const post = (url: string, body?: unknown) =>
      fetch(url, { method: 'POST', headers: { ...asOperator, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then((r) => r.json());
    const game = (await post(`${first.url}/api/games`, { game: 'dice-poker', players: ['Ann', 'Bob'] })) as { id: string };
    await post(`${first.url}/api/games/${game.id}/roll`);
    await post(`${first.url}/api/games/${game.id}/hold`, { dice: [0] });
    const before = (await (await fetch(`${first.url}/api/games/${game.id}`)).json()) as { state: unknown; version: number; rollCount: number };
    const exited = new Promise((resolve) => first.proc.once('exit', resolve));
    first.proc.kill('SIGKILL');
    await exited;

    const second = await startServer([], env);
    child = second.proc;
    expect(second.log.out).toMatch(/1 game restored/);
    const after = (await (await fetch(`${second.url}/api/games/${game.id}`)).json()) as typeof before;
    expect(after.state).toEqual(before.state);
    expect(after.version).toBe(before.version);
    expect(after.rollCount).toBe(1);
  });

  it('comes back after being killed mid-roll: the roll is neither lost nor applied twice, it is asked for again', async () => {
    const env = childEnv();
    const first = await startServer(['--roll-ms', '4000', '--seed', '5'], env);
    child = first.proc;
    const post = (url: string, body?: unknown) =>
      fetch(url, { method: 'POST', headers: { ...asOperator, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const game = (await (await post(`${first.url}/api/games`, { game: 'dice-poker', players: ['Ann', 'Bob'] })).json()) as { id: string };
    await post(`${first.url}/api/games/${game.id}/roll`, { values: [1, 2, 3, 4, 5] });
    await post(`${first.url}/api/games/${game.id}/rolls/1/correction`, { values: [2, 2, 3, 4, 5], reason: 'misread', by: 'Kim' });
    const before = (await (await fetch(`${first.url}/api/games/${game.id}`)).json()) as { state: unknown; version: number };
    // A tower roll that takes 4 s: killed while the dice are in the air.
    void post(`${first.url}/api/games/${game.id}/roll`).catch(() => undefined);
    await expect.poll(async () => ((await (await fetch(`${first.url}/api/health`)).json()) as { tower: { state: string } }).tower.state, { timeout: 10_000 }).toBe('rolling');
    const exited = new Promise((resolve) => first.proc.once('exit', resolve));
    first.proc.kill('SIGKILL');
    await exited;

    const second = await startServer(['--roll-ms', '0'], env);
    child = second.proc;
    const after = (await (await fetch(`${second.url}/api/games/${game.id}`)).json()) as { state: unknown; version: number; rollCount: number; request: { count: number } | null; lastRoll: { corrections: unknown[] } };
    // Nothing of the cut roll was applied; the correction survived; the game waits for that roll again.
    expect(after).toMatchObject({ version: before.version, rollCount: 1, request: { count: 5 } });
    expect(after.state).toEqual(before.state);
    expect(after.lastRoll.corrections).toHaveLength(1);
    const again = (await (await post(`${second.url}/api/games/${game.id}/roll`)).json()) as { rollCount: number; version: number };
    expect(again).toMatchObject({ rollCount: 2, version: before.version + 1 });
    // Two server runs on record: two sessions in the history.
    const history = (await (await fetch(`${second.url}/api/history`)).json()) as { sessions: unknown[]; games: Array<{ id: string; session: number }> };
    expect(history.sessions).toHaveLength(2);
    expect(history.games).toEqual([expect.objectContaining({ id: game.id, session: 1, rollCount: 2, correctionCount: 1 })]);
  });

  it('stops cleanly on SIGTERM', async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let out = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (out += String(chunk)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/scoreboard on/);
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('reads dice thrown by hand from a real camera source (a folder of frames stands in for the webcam)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'dice-tower-cam-'));
    const fixture = fileURLToPath(new URL('../fixtures/vision/sim-005', import.meta.url));
    copyFileSync(`${fixture}.jpg`, join(folder, 'frame.jpg'));
    const expected = (JSON.parse(readFileSync(`${fixture}.json`, 'utf8')) as { dice: Array<{ value: number }> }).dice.map((d) => d.value);
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--camera', folder], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    let out = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (out += String(chunk)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/dice thrown by hand/);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
    const health = (await (await fetch(`${url}/api/health`)).json()) as { tower: { kind: string } };
    expect(health.tower.kind).toBe('by hand');
    const game = (await (await fetch(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json', ...asOperator }, body: JSON.stringify({ game: 'dice-poker', players: ['Ann'] }) })).json()) as { id: string };
    const rolled = (await (await fetch(`${url}/api/games/${game.id}/roll`, { method: 'POST', headers: asOperator })).json()) as { board: { dice: number[] } };
    expect([...rolled.board.dice].sort()).toEqual([...expected].sort());
  });

  it.each([
    [['serve', '--port', 'abc'], /port must be a whole number from 0 to 65535, got 'abc'/],
    [['serve', '--colours', 'red,pink'], /unknown die colour 'pink'/],
    [['serve', '--speed', '3'], /Unknown option '--speed'/],
    [['serve', '--camera', '/dev/video97', '--port', '0'], /video97 does not exist/],
    [['serve', '--serial', 'auto', '--port', '0'], /needs a real camera/],
    [['serve', '--serial', '/dev/ttyNOPE', '--camera', fileURLToPath(new URL('../fixtures/vision', import.meta.url)), '--port', '0'], /ttyNOPE/],
    [['serve', '--light', '300'], /light must be a whole number from 0 to 255/],
    [['serve', '--agree-frames', '0'], /agree-frames must be a whole number from 1 to 10, got '0'/],
    [['serve', '--still-ms', '9000', '--port', '0'], /settle config: timeoutMs \(8000\) must be at least stillMs \+ agreeFrames frame intervals \(9300\)/],
    [['serve', '--exposure', '0'], /exposure must be a whole number from 1 to 100000, got '0'/],
    [['serve', '--white-balance', '20000'], /white-balance must be a whole number from 1000 to 15000, got '20000'/],
    [['serve', '--camera', fileURLToPath(new URL('../fixtures/vision', import.meta.url)), '--exposure', '100', '--port', '0'], /--exposure and --white-balance set a camera device; a folder of images has neither/],
    [['calibrate', '--image', fileURLToPath(new URL('../fixtures/las-vegas/lv-red.jpg', import.meta.url)), '--white-balance', '4000'], /--exposure and --white-balance set the camera: use them with --camera/],
    [['roll-all'], /unknown command 'roll-all'/],
  ])('refuses %j with a message naming the problem', async (argv, message) => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await main(argv)).toBe(1);
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toMatch(message);
  });

  it('parses a list of die colours', () => {
    expect(parseColours('red, blue,ivory')).toEqual(['red', 'blue', 'ivory']);
    expect(() => parseColours('')).toThrow(/unknown die colour/);
  });
});
