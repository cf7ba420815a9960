/**
 * The failed-authentication limit through the real `dice-tower serve`
 * process behind a trusted proxy (`--trust-proxy`): parallel loops of random
 * tokens get 10 answers, then 429 with Retry-After, counted per client as
 * X-Forwarded-For names it; the operator behind the same proxy goes on. A bad
 * `--trust-proxy` stops the start naming the problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli.js';

const BIN = fileURLToPath(new URL('../../bin/dice-tower.js', import.meta.url));
const TOKEN = 'operator-token-of-the-limit-test';
let child: ChildProcess | undefined;
let url = '';
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-limits-'));

beforeAll(async () => {
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--trust-proxy', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DICE_TOWER_DATA: dir, DICE_TOWER_TOKEN: TOKEN },
  });
  let out = '';
  const started = /scoreboard on (http:\/\/127\.0\.0\.1:\d+)\//;
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 30 s:\n${out}`)), 30_000);
    const seen = (chunk: unknown) => {
      out += String(chunk);
      const match = started.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child?.stdout?.on('data', seen);
    child?.stderr?.on('data', seen);
    child?.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
  });
}, 40_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const changeToken = (token: string, client: string) =>
  fetch(`${url}/api/operator/token`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client } });

describe('dice-tower serve --trust-proxy', () => {
  it('answers 10 wrong tokens of a client, then 429 with Retry-After; another client behind the proxy is not affected', async () => {
    // 4 parallel loops of random tokens, as an attacker would: the delays grow, the count is shared.
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, loop) => {
        for (let i = 0; i < 5; i++) statuses.push((await changeToken(`random-guess-${loop}-${i}-xxxxxxxx`, '203.0.113.50')).status);
      }),
    );
    expect(statuses.filter((s) => s === 403)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const limited = await changeToken(TOKEN, '203.0.113.50');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The operator, behind the same proxy, goes on.
    const games = await fetch(`${url}/api/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.51', 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'dice-poker', players: ['Ann'] }),
    });
    expect(games.status).toBe(201);
  }, 30_000);

  it('refuses a --trust-proxy that names no address', async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      expect(await main(['serve', '--trust-proxy', 'everyone'])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toMatch(/trust-proxy: 'everyone' is not an address, a subnet/);
  });
});
