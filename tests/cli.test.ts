import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli.js';
import { parseColours } from '../src/server.js';

const BIN = fileURLToPath(new URL('../bin/dice-tower.js', import.meta.url));

describe('dice-tower command', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    vi.restoreAllMocks();
  });

  it('serves the scoreboard and the API from the bin entry, on the port it announces', async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--seed', '3', '--roll-ms', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (out += String(chunk)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', tower: { kind: 'simulated' } });
    const page = await fetch(`${url}/`);
    expect(await page.text()).toContain('<title>');
    // Nothing went wrong after the start-up line, and the server is still up.
    expect(out).not.toMatch(/dice-tower:|error/i);
    expect(child.exitCode).toBeNull();
  });

  it('stops cleanly on SIGTERM', async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--camera', folder], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (out += String(chunk)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/dice thrown by hand/);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
    const health = (await (await fetch(`${url}/api/health`)).json()) as { tower: { kind: string } };
    expect(health.tower.kind).toBe('by hand');
    const game = (await (await fetch(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'dice-poker', players: ['Ann'] }) })).json()) as { id: string };
    const rolled = (await (await fetch(`${url}/api/games/${game.id}/roll`, { method: 'POST' })).json()) as { board: { dice: number[] } };
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
