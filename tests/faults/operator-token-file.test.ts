/**
 * The operator's token as the real `dice-tower serve` process keeps it: a
 * token file that is empty, too short or unreadable (and a too-short
 * DICE_TOWER_TOKEN) stops the start with a message saying what to do,
 * instead of running with authentication off or guessable; a changed token
 * is written atomically (a new file renamed over the old one), 0600; and no
 * token reaches the info-level request log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/dice-tower.js', import.meta.url));
const dirs: string[] = [];
let running: ChildProcess | null = null;
afterEach(() => {
  running?.kill('SIGKILL');
  running = null;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-token-'));
  dirs.push(dir);
  return dir;
}

/** A port free right now, so the test can look for a listener on it afterwards. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `serve` on `dir`; resolves when it is up (its URL) or has exited (its code), with everything it printed. */
function serve(dir: string, env: NodeJS.ProcessEnv, args: string[] = [], port = 0): Promise<{ url: string | null; code: number | null; out: () => string }> {
  const { DICE_TOWER_TOKEN: _inherited, ...base } = process.env;
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--roll-ms', '0', '--seed', '4', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...base, DICE_TOWER_DATA: dir, ...env },
  });
  running = proc;
  let text = '';
  const out = () => text;
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      const up = /scoreboard on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (up) resolve({ url: up[1] as string, code: null, out });
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    proc.once('exit', (code) => resolve({ url: null, code, out }));
  });
}

/** Starts `serve` with the token file as given and expects it to stop at start, with nothing listening, saying `message`. */
async function expectRefusedStart(dir: string, env: NodeJS.ProcessEnv, message: RegExp): Promise<void> {
  const port = await freePort();
  const started = await serve(dir, env, [], port);
  expect(started.url, started.out()).toBeNull();
  expect(started.code).not.toBe(0);
  expect(started.out()).toMatch(message);
  // The message is the CLI's one line, not a stack trace.
  expect(started.out()).not.toMatch(/\n\s+at /);
  await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
}

describe('operator token file', () => {
  it('an empty token file stops the start (it used to turn authentication off)', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'operator-token'), '\n', { mode: 0o600 });
    await expectRefusedStart(dir, {}, /operator token file .*operator-token is empty.*delete it to get a new token.*at least 16 characters/);
  }, 60_000);

  it('a token file shorter than 16 characters stops the start', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'operator-token'), 'a\n', { mode: 0o600 });
    await expectRefusedStart(dir, {}, /operator token in .*operator-token has 1 characters, fewer than the 16 needed: delete it/);
  }, 60_000);

  it('an unreadable token file stops the start', async () => {
    const dir = dataDir();
    // A directory where the file should be: unreadable as a file even for root (who reads a 0000 file).
    mkdirSync(join(dir, 'operator-token'));
    await expectRefusedStart(dir, {}, /cannot read the operator token file .*operator-token.*delete it to get a new token/);
  }, 60_000);

  it('a DICE_TOWER_TOKEN shorter than 16 characters stops the start', async () => {
    await expectRefusedStart(dataDir(), { DICE_TOWER_TOKEN: 'short' }, /DICE_TOWER_TOKEN holds 5 characters; an operator token needs at least 16/);
  }, 60_000);

  it('a token file readable by all is tightened at start; a changed token replaces it whole (renamed into place), 0600, leaving no temporary file', async () => {
    const dir = dataDir();
    const file = join(dir, 'operator-token');
    // Written by hand, the way a person might, with the umask's usual 0644.
    writeFileSync(file, 'a-token-the-operator-wrote\n');
    chmodSync(file, 0o644);
    const before = statSync(file);
    const { url, out } = await serve(dir, {});
    expect(url, out()).not.toBeNull();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const res = await fetch(`${url}/api/operator/token`, {
      method: 'POST',
      headers: { authorization: 'Bearer a-token-the-operator-wrote', 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'the-next-operator-token' }),
    });
    expect(res.status).toBe(200);
    const after = statSync(file);
    expect(readFileSync(file, 'utf8')).toBe('the-next-operator-token\n');
    expect(after.mode & 0o777).toBe(0o600);
    // A new file renamed over the old one, not the old one truncated and rewritten.
    expect(after.ino).not.toBe(before.ino);
    expect(readdirSync(dir).filter((name) => name.includes('operator-token'))).toEqual(['operator-token']);
  }, 60_000);

  it('a token made at first start is kept 0600, in a data directory only its owner can open', async () => {
    const dir = join(dataDir(), 'data');
    const { url, out } = await serve(dir, {});
    expect(url, out()).not.toBeNull();
    // Printed after the start-up line.
    await expect.poll(out).toMatch(/Operator link/);
    expect(statSync(join(dir, 'operator-token')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'operator-token'), 'utf8').trim()).toHaveLength(32);
  }, 60_000);
});

describe('request log', () => {
  it('logs requests at info level with the operator and seat tokens in query strings hidden', async () => {
    const operator = 'operator-token-never-logged';
    const { url, out } = await serve(dataDir(), { DICE_TOWER_TOKEN: operator }, ['--log-level', 'info']);
    expect(url, out()).not.toBeNull();
    const created = await fetch(`${url}/api/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'dice-poker', players: ['Ann', 'Bob'] }),
    });
    const { id } = (await created.json()) as { id: string };
    const links = (await (await fetch(`${url}/api/games/${id}/seats`, { headers: { authorization: `Bearer ${operator}` } })).json()) as Array<{ path: string }>;
    const seatToken = new URL(links[1]?.path ?? '', url ?? '').searchParams.get('token') ?? '';
    expect(seatToken.length).toBeGreaterThan(8);
    expect((await fetch(`${url}/api/games/${id}/seats/0/qr.svg?operator=${operator}`)).status).toBe(200);
    expect((await fetch(`${url}/api/games/${id}/seats/1?token=${seatToken}`)).status).toBe(200);
    // Both requests are in the log (so the check below looks at them), their tokens are not.
    await expect.poll(out).toContain(`/api/games/${id}/seats/1?token=[redacted]`);
    expect(out()).toContain(`/api/games/${id}/seats/0/qr.svg?operator=[redacted]`);
    expect(out()).not.toContain(operator);
    expect(out()).not.toContain(seatToken);
  }, 60_000);
});
