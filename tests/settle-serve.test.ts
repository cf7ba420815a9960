import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cv from '../src/hardware/opencv.js';
import { SeededRandom } from '../src/hardware/index.js';
import { renderTray, throwDice, type SimDie, type TrayGeometry } from '../src/hardware/simulator/index.js';

const BIN = fileURLToPath(new URL('../bin/dice-tower.js', import.meta.url));
const TOKEN = 'operator-test-token';
const TRAY: TrayGeometry = { width: 640, height: 480, dieSize: 48 };

/** A video file of dice tumbling for `moving` frames, then lying still for `still` frames. */
function video(rest: readonly SimDie[], moving: number, still: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dice-video-')), 'tray.avi');
  const writer = new cv.VideoWriter(file, cv.VideoWriter.fourcc('MJPG'), 10, new cv.Size(TRAY.width, TRAY.height), true);
  const rng = new SeededRandom(3);
  for (let k = moving; k > -still; k--) {
    const dice = k > 0 ? rest.map((d, i) => ({ ...d, x: Math.max(40, d.x - k * (15 + 5 * i)), angle: (d.angle + k * 23) % 90, value: rng.int(1, 6) })) : rest;
    writer.write(cv.imdecode(renderTray(dice, TRAY, { noiseSeed: 100 + k })));
  }
  writer.release();
  return file;
}

async function serveOn(camera: string, extra: string[]): Promise<{ proc: ChildProcess; url: string }> {
  const env = { ...process.env, DICE_TOWER_DATA: mkdtempSync(join(tmpdir(), 'dice-tower-data-')), DICE_TOWER_TOKEN: TOKEN };
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--camera', camera, ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  proc.stdout?.on('data', (c) => (out += String(c)));
  proc.stderr?.on('data', (c) => (out += String(c)));
  await expect.poll(() => out, { timeout: 60_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
  return { proc, url: /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0] ?? '' };
}

const post = (url: string, body?: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('serve with a live camera waits for the dice to settle', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
  });

  it('reads the dice once they lie still, not while they tumble', { timeout: 120_000 }, async () => {
    const rest = throwDice(new SeededRandom(8), 5, ['red', 'white', 'blue', 'green', 'yellow'], TRAY);
    const server = await serveOn(video(rest, 6, 20), ['--still-ms', '300']);
    child = server.proc;
    const game = (await (await post(`${server.url}/api/games`, { game: 'dice-poker', players: ['Ann'] })).json()) as { id: string };
    const rolled = (await (await post(`${server.url}/api/games/${game.id}/roll`)).json()) as { board: { dice: number[] } };
    expect([...rolled.board.dice].sort()).toEqual(rest.map((d) => d.value).sort());
  });

  it('reports a jam when the tray never comes to rest', { timeout: 120_000 }, async () => {
    const rest = throwDice(new SeededRandom(9), 5, ['red'], TRAY);
    const server = await serveOn(video(rest, 60, 0), ['--still-ms', '300', '--settle-timeout-ms', '1000']);
    child = server.proc;
    const game = (await (await post(`${server.url}/api/games`, { game: 'dice-poker', players: ['Ann'] })).json()) as { id: string };
    const response = await post(`${server.url}/api/games/${game.id}/roll`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toContain('did not come to rest within 1000 ms');
  });
});
