/**
 * One walk with both: the setup page in a real browser (Debian's Chromium
 * through playwright-core) over a video-file camera (as
 * tests/browser/setup-calibrate.test.ts makes one) AND a scripted board
 * answering as stock StandardFirmata 2.5, driven by the real FirmataTower, in
 * place of the simulator: the board is connected from the page (its factory
 * injected: no serial port can be faked for SerialPort), ten test rolls go
 * through the tower (each tips the board's tray and brings it back) and the
 * camera reads them through the settling reader `serve` uses; the operator
 * confirms or corrects each, and the tally is right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cv from '../../src/hardware/opencv.js';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { createHandTower, openVideoCamera, type VideoCamera } from '../../src/hardware/index.js';
import { feltBackground, renderTray, type SimDie, type TrayGeometry } from '../../src/hardware/simulator/index.js';
import { paintRim } from '../../src/hardware/simulator/floors.js';
import { checkedCamera, DEFAULT_SETTLE_CONFIG, settlingPipeline } from '../../src/vision/index.js';
import { calibratedConfig } from '../../src/vision/calibrate.js';
import { calibrateInto, calibratedReader } from '../../src/vision/calibrate-steps.js';
import { TestRolls } from '../../src/setup/test-rolls.js';
import type { TowerLink } from '../../src/setup/tower-link.js';
import { Table } from '../../src/table.js';
import { FakeFirmataBoard } from '../hardware/fake-firmata-board.js';
import { FAKE_PORT, fakeBoardLink } from '../hardware/fake-board-link.js';
import { launchChromium } from './chromium.js';
import { judgeTestRolls } from './judge-test-rolls.js';

const TOKEN = 'setup-tower-camera-operator-token';
const TRAY: TrayGeometry = { width: 640, height: 480, dieSize: 48 };
const DICE_FRAMES = 1200;
const DICE: SimDie[] = [
  { value: 2, colour: 'red', x: 230, y: 190, size: TRAY.dieSize, angle: 15 },
  { value: 4, colour: 'red', x: 350, y: 230, size: TRAY.dieSize, angle: 40 },
  { value: 6, colour: 'red', x: 270, y: 330, size: TRAY.dieSize, angle: 70 },
  { value: 5, colour: 'red', x: 430, y: 290, size: TRAY.dieSize, angle: 0 },
];

let dir = '';
let board: FakeFirmataBoard;
let link: TowerLink;
let video: VideoCamera;
let app: FastifyInstance;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-tower-camera-'));
  // The tray in its rim, empty (the calibration's shot) and with the dice lying still (the video: identical frames).
  const floor = paintRim(new cv.Mat(Buffer.from(feltBackground(TRAY)), TRAY.height, TRAY.width, cv.CV_8UC3)).getData();
  const empty = cv.imdecode(renderTray([], TRAY, { noiseSeed: 1, floor }));
  const dice = cv.imdecode(renderTray(DICE, TRAY, { noiseSeed: 2, floor }));
  const file = join(dir, 'tray.avi');
  const writer = new cv.VideoWriter(file, cv.VideoWriter.fourcc('MJPG'), 10, new cv.Size(TRAY.width, TRAY.height), true);
  for (let i = 0; i < DICE_FRAMES; i++) writer.write(dice);
  writer.release();
  calibrateInto(dir, empty, { red: dice });

  // Wired as `serve` wires a camera without a board: dice thrown by hand, read once the tray is still.
  video = await openVideoCamera({ source: file, width: TRAY.width, height: TRAY.height });
  const { camera, reader } = settlingPipeline(checkedCamera(video), calibratedReader(dir, calibratedConfig), DEFAULT_SETTLE_CONFIG);
  const hand = createHandTower();
  const table = new Table({ tower: hand, camera, reader });
  board = new FakeFirmataBoard({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
  ({ link } = fakeBoardLink(table, hand, board, { tipAngle: 140, restAngle: 30, holdMs: 150, returnTimeoutMs: 400, reconnect: false }));
  app = buildApp(
    {
      table, version: 'test', operatorToken: TOKEN, testRolls: new TestRolls(table, { dataDir: dir }),
      setupHardware: { ...NO_SETUP_HARDWARE, cameraSource: file, link, listPorts: async () => [{ path: FAKE_PORT, vendorId: '2341', productId: '0043', manufacturer: 'Arduino LLC' }] },
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1600 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  board?.dispose();
  await app?.close();
  await video?.close();
  rmSync(dir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 50 });

describe('the setup page with a real camera and a tower board', () => {
  it('connects the board, rolls ten test rolls through its tray, reads them with the camera, and keeps the tally right', async () => {
    await page.goto(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/setup.html?token=${TOKEN}`);
    await poll(() => page.getByTestId('tower-status').textContent()).toBe('Dice thrown by hand: ready.');
    await page.getByTestId('connect-port').selectOption(FAKE_PORT);
    await page.getByTestId('connect').click();
    await poll(() => page.getByTestId('tower-status').textContent()).toBe('Tower board: ready.');
    expect(await page.getByTestId('firmware').textContent()).toContain(`on ${FAKE_PORT}.`);

    let tips = board.tips;
    const expected = await judgeTestRolls(page, {
      rolls: 10, values: DICE.map((d) => d.value), correctedDie: 0,
      // The tower threw them: the board's tray tipped once a cycle and came back to rest.
      afterRoll: (roll) => {
        expect(board.tips).toBe(tips + roll.attempts);
        expect(board.servoWrites().slice(-2).map((w) => w.value)).toEqual([140, 30]);
        tips = board.tips;
      },
    });
    // Every third roll corrected (one die each): three wrong of forty.
    expect(expected).toEqual({ rolls: 10, dice: 40, right: 37, unreadable: 0, wrong: 3 });
    expect(await page.getByTestId('tally-right').textContent()).toBe('37 (92.5 %)');
    expect(await page.getByTestId('tally-wrong').textContent()).toBe('3');
    expect(await page.getByTestId('tally-unreadable').textContent()).toBe('0');
    const health = (await (await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/health`)).json()) as { accuracy: unknown };
    expect(health.accuracy).toMatchObject(expected);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
