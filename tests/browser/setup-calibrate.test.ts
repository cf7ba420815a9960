/**
 * The setup page walked in a real browser (Debian's Chromium through
 * playwright-core) against `dice-tower serve` itself, with a video file for the
 * camera (as tests/settle-serve.test.ts makes them) and dice thrown by hand
 * (no board): the preview updates; the empty tray's shot calibrates, and its
 * region is drawn and changed by dragging a corner; the red dice are measured;
 * the exposure set on the page is refused by the "driver" (a file has none)
 * and saved; ten test rolls are confirmed or corrected and the tally is right;
 * and after a restart without --camera the server reads the same video with
 * the saved settings, calibration and tally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cv from '../../src/hardware/opencv.js';
import { feltBackground, renderTray, type SimDie, type TrayGeometry } from '../../src/hardware/simulator/index.js';
import { paintRim } from '../../src/hardware/simulator/floors.js';
import type { AccuracyTally } from '../../src/setup/test-rolls.js';
import { judgeTestRolls } from './judge-test-rolls.js';

const BIN = fileURLToPath(new URL('../../bin/dice-tower.js', import.meta.url));
const TOKEN = 'setup-calibrate-operator-token';
const TRAY: TrayGeometry = { width: 640, height: 480, dieSize: 48 };
/** Frames of the empty tray at the video's start, then frames of the dice (enough for the whole walk: the preview takes one a shot). */
const EMPTY_FRAMES = 30;
const DICE_FRAMES = 1200;
const DICE: SimDie[] = [
  { value: 3, colour: 'red', x: 220, y: 200, size: TRAY.dieSize, angle: 10 },
  { value: 5, colour: 'red', x: 340, y: 220, size: TRAY.dieSize, angle: 35 },
  { value: 1, colour: 'red', x: 280, y: 320, size: TRAY.dieSize, angle: 60 },
  { value: 6, colour: 'red', x: 420, y: 300, size: TRAY.dieSize, angle: 5 },
];

let dir = '';
let video = '';
let server: { proc: ChildProcess; url: string } | null = null;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** The tray inside a wooden rim: empty, then with the dice lying still (identical frames: a still tray). */
function writeVideo(file: string): void {
  const { cols, rows } = { cols: TRAY.width, rows: TRAY.height };
  const floor = paintRim(new cv.Mat(Buffer.from(feltBackground(TRAY)), rows, cols, cv.CV_8UC3)).getData();
  const writer = new cv.VideoWriter(file, cv.VideoWriter.fourcc('MJPG'), 10, new cv.Size(cols, rows), true);
  const empty = cv.imdecode(renderTray([], TRAY, { noiseSeed: 1, floor }));
  for (let i = 0; i < EMPTY_FRAMES; i++) writer.write(empty);
  const dice = cv.imdecode(renderTray(DICE, TRAY, { noiseSeed: 2, floor }));
  for (let i = 0; i < DICE_FRAMES; i++) writer.write(dice);
  writer.release();
}

async function startServer(extra: string[]): Promise<{ proc: ChildProcess; url: string }> {
  const env = { ...process.env, DICE_TOWER_TOKEN: TOKEN, DICE_TOWER_CAMERA: '' };
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dir, ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  proc.stdout?.on('data', (c) => (out += String(c)));
  proc.stderr?.on('data', (c) => (out += String(c)));
  await expect.poll(() => out, { timeout: 60_000 }).toMatch(/scoreboard on http:\/\/127\.0\.0\.1:\d+\//);
  return { proc, url: /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0] ?? '' };
}

async function stopServer(): Promise<void> {
  const proc = server?.proc;
  server = null;
  if (!proc || proc.exitCode !== null) return;
  const ended = new Promise((done) => proc.once('exit', done));
  proc.kill('SIGTERM');
  await ended;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-calibrate-'));
  video = join(dir, 'tray.avi');
  writeVideo(video);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1600 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopServer();
  rmSync(dir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 50 });
const frames = async () => Number((await page.getByTestId('preview').getAttribute('data-frames')) ?? 0);
const region = async () => ((await page.getByTestId('tray-region').getAttribute('data-region')) ?? '').split(',').map(Number) as [number, number, number, number];
const savedCalibration = () => JSON.parse(readFileSync(join(dir, 'calibration.json'), 'utf8')) as { tray: { x: number; y: number; width: number; height: number }; palette: Record<string, unknown> };

describe('setting up a tower on the setup page', () => {
  it('calibrates from the preview, drags the tray region, keeps the camera\'s settings, judges ten test rolls, and keeps it all across a restart', async () => {
    server = await startServer(['--camera', video]);
    await page.goto(`${server.url}/setup.html?token=${TOKEN}`);
    await poll(frames).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('calibration-summary').textContent()).toBe('Not calibrated yet: empty the tray and take its shot.');

    // 1. The empty tray: its region drawn over the preview, inside the rim.
    await page.getByTestId('empty-shot').click();
    await poll(() => page.getByTestId('tray-region').count()).toBe(1);
    const [x, y, width, height] = await region();
    expect(savedCalibration().tray).toEqual({ x, y, width, height });
    expect(x).toBeGreaterThan(90);
    expect(x + width).toBeLessThan(TRAY.width - 70);
    expect(await page.getByTestId('calibration-warning').count()).toBe(0);
    if (process.env.SCREENSHOTS) await page.getByTestId('calibration-panel').screenshot({ path: 'docs/screenshots/setup-calibrate.png' });

    // A corner dragged: the bottom right one, 60 frame pixels left and 40 up.
    const overlay = (await page.getByTestId('calibration-overlay').boundingBox())!;
    const toScreen = (p: { x: number; y: number }) => ({ x: overlay.x + (p.x / TRAY.width) * overlay.width, y: overlay.y + (p.y / TRAY.height) * overlay.height });
    const from = toScreen({ x: x + width, y: y + height });
    const to = toScreen({ x: x + width - 60, y: y + height - 40 });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2);
    await page.mouse.move(to.x, to.y);
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/setup/calibration/tray'));
    await page.mouse.up();
    expect((await sent).status()).toBe(200);
    const dragged = await region();
    // The top left corner stays; the others follow the pointer (to a pixel or two of the screen's scale).
    expect(dragged.slice(0, 2)).toEqual([x, y]);
    expect(Math.abs(dragged[2] - (width - 60))).toBeLessThanOrEqual(2);
    expect(Math.abs(dragged[3] - (height - 40))).toBeLessThanOrEqual(2);
    expect(savedCalibration().tray).toEqual({ x: dragged[0], y: dragged[1], width: dragged[2], height: dragged[3] });

    // 2. The red dice, once the video shows them (each preview takes a frame).
    await poll(frames).toBeGreaterThan(EMPTY_FRAMES + 2);
    await page.getByTestId('dice-colour').selectOption('red');
    expect(await page.getByTestId('dice-instruction').textContent()).toBe('Put in your red dice, flat and apart, then take their shot.');
    await page.getByTestId('dice-shot').click();
    await poll(() => page.getByTestId('calibration-summary').textContent()).toMatch(/colours measured: red\.$/);
    expect(Object.keys(savedCalibration().palette)).toEqual(['red']);
    // Still the dragged region: a dice shot keeps the tray.
    expect(await region()).toEqual(dragged);

    // The exposure fixed on the page: a video file has none, and the page says the "driver" refused it; saved all the same.
    await page.getByTestId('exposure-auto').uncheck();
    await poll(() => page.getByTestId('camera-refused').textContent()).toBe('The camera did not take the fixed exposure 150: it stays automatic.');
    expect(await page.getByTestId('camera-saved').textContent()).toBe(`Saved for the next start: camera ${video}, exposure 150, white balance automatic.`);
    expect(JSON.parse(readFileSync(join(dir, 'camera.json'), 'utf8'))).toEqual({ source: video, exposure: 150, whiteBalance: null });

    // 3. Ten test rolls of the four dice: read with the calibration; every third one corrected with one click.
    const expected = await judgeTestRolls(page, { rolls: 10, values: DICE.map((d) => d.value), correctedDie: 1 });
    expect(expected).toEqual({ rolls: 10, dice: 40, right: 37, unreadable: 0, wrong: 3 });
    expect(await page.getByTestId('tally-right').textContent()).toBe('37 (92.5 %)');
    expect(await page.getByTestId('tally-wrong').textContent()).toBe('3');
    if (process.env.SCREENSHOTS) await page.getByTestId('camera-panel').screenshot({ path: 'docs/screenshots/setup-camera.png' });

    // 4. Restarted with no --camera: the saved camera, its exposure (refused again), the calibration drawn, the tally.
    await stopServer();
    server = await startServer([]);
    // A new port is a new origin: the operator link again.
    await page.goto(`${server.url}/setup.html?token=${TOKEN}`);
    await poll(() => page.getByTestId('camera-source').textContent()).toBe(video);
    await poll(() => page.getByTestId('tray-region').count()).toBe(1);
    expect(await region()).toEqual(dragged);
    expect(await page.getByTestId('exposure-auto').isChecked()).toBe(false);
    expect(await page.getByTestId('exposure-slider').inputValue()).toBe('150');
    expect(await page.getByTestId('camera-refused').textContent()).toBe('The camera did not take the fixed exposure 150: it stays automatic.');
    await poll(frames).toBeGreaterThanOrEqual(2);
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { accuracy: AccuracyTally };
    expect(health.accuracy).toMatchObject(expected);
    expect(await page.getByTestId('tally-rolls').textContent()).toBe('10');
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
