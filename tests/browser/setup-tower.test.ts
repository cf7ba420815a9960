/**
 * The setup page's tower panel in a real browser (Debian's Chromium through
 * playwright-core) with a scripted board answering as stock StandardFirmata
 * 2.5, driven by the real FirmataTower: the board connected on the port chosen
 * on the page (the board factory injected: no serial port can be faked for
 * SerialPort), the firmware, its version and the note on it, the tray's
 * angles, the tray sensor and the button shown live, a test tip that tips the
 * tray and brings it back, and the board disconnected again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import type { TowerLink } from '../../src/setup/tower-link.js';
import { Table } from '../../src/table.js';
import { FakeFirmataBoard } from '../hardware/fake-firmata-board.js';
import { FAKE_PORT, fakeBoardLink } from '../hardware/fake-board-link.js';

const TOKEN = 'setup-tower-operator-token';
const SETTINGS = { tipAngle: 140, restAngle: 30, light: 200 };
let board: FakeFirmataBoard;
let link: TowerLink;
let app: FastifyInstance;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  board = new FakeFirmataBoard({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
  // The table starts with the simulator and drives the board once it is connected (no game here).
  const sim = createSimulator({ seed: 4, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  ({ link } = fakeBoardLink(table, sim.tower, board, { tipAngle: SETTINGS.tipAngle, restAngle: SETTINGS.restAngle, holdMs: 150, returnTimeoutMs: 400, reconnect: false, buttonDebounceMs: 20 }, { light: SETTINGS.light }));
  app = buildApp(
    {
      table, version: 'test', operatorToken: TOKEN,
      setupHardware: {
        ...NO_SETUP_HARDWARE, link,
        listPorts: async () => [{ path: FAKE_PORT, vendorId: '2341', productId: '0043', manufacturer: 'Arduino LLC' }],
      },
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  board?.dispose();
  await app?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 10_000, interval: 50 });

describe('the tower panel of the setup page', () => {
  it('shows the board, its tray sensor and button live, and tips the tray on demand', async () => {
    await page.goto(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/setup.html?token=${TOKEN}`);
    await poll(() => page.getByTestId('firmware').textContent()).toMatch(/^No tower board/);
    expect(await page.getByTestId('board-live').isHidden()).toBe(true);
    expect(await page.getByTestId('connect-port').locator('option').allTextContents()).toEqual(['the Arduino found by USB id', `${FAKE_PORT} (Arduino)`]);
    expect(await page.getByTestId('tower-status').textContent()).toBe('Simulated tower: ready.');
    // The connect controls, before a board is connected.
    if (process.env.SCREENSHOTS) await page.getByTestId('tower-panel').screenshot({ path: 'docs/screenshots/setup-connect.png' });
    // A port with no board: the refusal is named in words.
    await page.evaluate(() => {
      const select = document.getElementById('connect-port') as HTMLSelectElement;
      select.append(new Option('/dev/ttyACM9', '/dev/ttyACM9'));
    });
    await page.getByTestId('connect-port').selectOption('/dev/ttyACM9');
    await page.getByTestId('connect').click();
    await poll(() => page.locator('#toast-message').textContent()).toBe('No board could be connected on /dev/ttyACM9: Error: No such file or directory, cannot open /dev/ttyACM9');
    await page.getByTestId('connect-port').selectOption(FAKE_PORT);
    await page.getByTestId('connect').click();
    await poll(() => page.getByTestId('firmware').textContent()).toMatch(
      /^Firmware StandardFirmata\.ino 2\.5 \(host-driven\) on \/dev\/ttyFAKE0\. Stock StandardFirmata: it works, with fewer safety features/,
    );
    expect(await page.getByTestId('serial-port').allTextContents()).toEqual(['/dev/ttyFAKE0 (2341:0043 Arduino LLC) — looks like an Arduino']);
    expect(await page.getByTestId('tower-status').textContent()).toBe('Tower board: ready.');
    expect(await page.getByTestId('tray-angles').textContent()).toBe('Tray: tips to 140°, rests at 30°; light 200 of 255.');
    await poll(() => page.getByTestId('tray-sensor').textContent()).toBe('Tray sensor: the tray is in its seat.');
    expect(await page.getByTestId('button-state').textContent()).toBe('Button: not pressed since the start.');

    board.setInput(TOWER_PINS.TRAY_SENSOR, 1);
    await poll(() => page.getByTestId('tray-sensor').textContent()).toBe('Tray sensor: the tray is out of its seat.');
    board.setInput(TOWER_PINS.TRAY_SENSOR, 0);
    board.setInput(TOWER_PINS.BUTTON, 1);
    board.setInput(TOWER_PINS.BUTTON, 0);
    await poll(() => page.getByTestId('button-state').textContent()).toMatch(/^Button: last pressed at /);
    board.setInput(TOWER_PINS.BUTTON, 1);

    const tips = board.tips;
    await page.getByTestId('test-tip').click();
    await poll(() => page.getByTestId('tip-result').textContent()).toBe('The tray tipped and came back.');
    expect(board.tips).toBe(tips + 1);
    expect(board.servoWrites().map((w) => w.value)).toEqual([30, 140, 30]);

    // New angles from the page: the next tip uses them.
    await page.getByTestId('tip-angle').fill('125');
    await page.getByTestId('save-angles').click();
    await poll(() => page.getByTestId('tray-angles').textContent()).toBe('Tray: tips to 125°, rests at 30°; light 200 of 255.');
    await page.getByTestId('test-tip').click();
    await poll(() => board.tips).toBe(tips + 2);
    await poll(() => board.servoWrites().map((w) => w.value)).toEqual([30, 140, 30, 30, 125, 30]);
    await poll(() => page.getByTestId('tip-result').textContent()).toBe('The tray tipped and came back.');
    if (process.env.SCREENSHOTS) {
      // The refusal's toast gone (it stays a few seconds), so that it covers nothing.
      await poll(() => page.locator('#toast').isHidden()).toBe(true);
      await page.getByTestId('tower-panel').screenshot({ path: 'docs/screenshots/setup-tower.png' });
    }

    // Disconnected: the table rolls with the simulator again, and the port is free.
    await page.getByTestId('disconnect').click();
    await poll(() => page.getByTestId('firmware').textContent()).toMatch(/^No tower board/);
    expect(await page.getByTestId('tower-status').textContent()).toBe('Simulated tower: ready.');
    expect(await page.getByTestId('board-live').isHidden()).toBe(true);
    expect(await page.getByTestId('connect').isVisible()).toBe(true);
    expect(board.openPort).toBeNull();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
