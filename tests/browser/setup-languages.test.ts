/**
 * The setup page in Finnish and in Greek (issue #47) in a real browser against the real app: the simulated camera
 * (its preview, a fixed exposure its "driver" refuses, the colours of dice), the scripted board answering as stock
 * StandardFirmata (connected from the page, a refusal first, a test tip, disconnected), and a test roll judged, show
 * none of the English words of the texts whose translation differs; what the server says (notes and refusals, by
 * their codes) is in the page's language. The expected words are read from the language files, not written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { translate, type Param } from '../../src/api/public/i18n-core.js';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import type { TowerLink } from '../../src/setup/tower-link.js';
import { TestRolls } from '../../src/setup/test-rolls.js';
import { Table } from '../../src/table.js';
import { FakeFirmataBoard } from '../hardware/fake-firmata-board.js';
import { FAKE_PORT, fakeBoardLink } from '../hardware/fake-board-link.js';
import { englishOn, englishPhrases, texts } from './english-left.js';

const TOKEN = 'setup-languages-operator-token';
const MISSING_PORT = '/dev/ttyACM9';
let dir = '';
let board: FakeFirmataBoard;
let link: TowerLink;
let app: FastifyInstance;
let base = '';
let browser: Browser;
const pageErrors: string[] = [];

/** What a page in `lang` shows for `key`. */
const words = (lang: string, key: string, params: Record<string, Param> = {}) => translate(texts(lang), texts('en'), lang, key, params);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-languages-'));
  board = new FakeFirmataBoard({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
  const sim = createSimulator({ seed: 6, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  // The hold leaves the fake tray (30 ms of travel) time to report it left its seat even on a loaded machine.
  ({ link } = fakeBoardLink(table, sim.tower, board, { tipAngle: 140, restAngle: 30, holdMs: 400, returnTimeoutMs: 800, reconnect: false, buttonDebounceMs: 20 }, { light: 200 }));
  app = buildApp(
    {
      table, version: 'test', operatorToken: TOKEN, testRolls: new TestRolls(table, { dataDir: dir }),
      setupHardware: {
        ...NO_SETUP_HARDWARE, link, camera: sim.camera, cameraSource: '/dev/video0', dataDir: dir,
        // A "driver" that takes no fixed setting: the page says so.
        adjust: async () => ({ exposure: false, whiteBalance: false }),
        listCameras: () => [{ path: '/dev/video0', index: 0, name: 'HD Webcam C270' }],
        listPorts: async () => [{ path: FAKE_PORT, vendorId: '2341', productId: '0043', manufacturer: 'Arduino LLC' }, { path: '/dev/ttyS0' }],
      },
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  board?.dispose();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 50 });
const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

describe('the setup page in another language', () => {
  it('finds the English it looks for (the check can fail)', () => {
    // Texts of the setup page in English, among them the server's notes worded by code, are among the phrases looked for.
    for (const lang of ['fi', 'el']) {
      expect(englishPhrases(lang)).toEqual(expect.arrayContaining(['Read right', 'Re-rolls', 'It shows', 'looks like an', 'The camera was not sure', 'a die lies cocked', 'Simulated tower', 'Tower board']));
    }
  });

  it.each([
    ['fi', 'fi-FI'],
    ['el', 'el-GR'],
  ])('%s: devices, a refusal, the board connected and tipped, the camera refused a setting, a test roll judged', async (lang, locale) => {
    const english = englishPhrases(lang);
    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 1600 }, locale })).newPage();
    page.on('pageerror', (err) => pageErrors.push(`${lang}: ${err.message}`));
    await page.goto(`${base}/setup.html?token=${TOKEN}`);
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
    await poll(() => page.getByTestId('serial-port').allTextContents()).toEqual([
      words(lang, 'setup.devices.portArduino', { port: `${FAKE_PORT} (2341:0043 Arduino LLC)`, arduino: 'Arduino' }),
      words(lang, 'setup.devices.portOther', { port: `/dev/ttyS0 (${words(lang, 'setup.devices.noUsbId')})` }),
    ]);
    expect(await page.getByTestId('firmware').textContent()).toBe(words(lang, 'setup.codes.setup.board_none'));
    expect(await page.getByTestId('tower-status').textContent()).toBe(words(lang, 'setup.tower.ready', { kind: { key: 'setup.tower.kinds.simulated' } }));
    await poll(async () => Number((await page.getByTestId('preview').getAttribute('data-frames')) ?? 0)).toBeGreaterThanOrEqual(2);

    // A port with no board: the refusal in the page's words, the device's own error as it gave it.
    await page.evaluate((port) => (document.getElementById('connect-port') as HTMLSelectElement).append(new Option(port, port)), MISSING_PORT);
    await page.getByTestId('connect-port').selectOption(MISSING_PORT);
    await page.getByTestId('connect').click();
    const error = `Error: No such file or directory, cannot open ${MISSING_PORT}`;
    await poll(() => page.locator('#toast-message').textContent()).toBe(words(lang, 'setup.codes.setup.connect_failed', { port: MISSING_PORT, error }));
    expect(await englishOn(page, english)).toEqual([]);

    // The board: its firmware's note and the tower's state in words, a test tip.
    await page.getByTestId('connect-port').selectOption(FAKE_PORT);
    await page.getByTestId('connect').click();
    await poll(() => page.getByTestId('firmware').textContent()).toContain(words(lang, 'setup.codes.firmware.standard_firmata'));
    await poll(() => page.getByTestId('tower-status').textContent()).toBe(words(lang, 'setup.tower.ready', { kind: { key: 'setup.tower.kinds.firmata' } }));
    await poll(() => page.getByTestId('tray-sensor').textContent()).toBe(words(lang, 'setup.tower.sensorIn'));
    await page.getByTestId('test-tip').click();
    await poll(() => page.getByTestId('tip-result').textContent()).toBe(words(lang, 'setup.tower.tipped'));

    // The fixed exposure the "driver" did not take; the dice colours in words.
    await page.getByTestId('exposure-auto').uncheck();
    await poll(() => page.getByTestId('camera-refused').textContent()).toBe(sentence(words(lang, 'setup.codes.camera.exposure_refused', { value: 150 })));
    expect(await page.getByTestId('dice-colour').locator('option[value="white"]').textContent()).toBe(words(lang, 'common.diceLooks.white'));

    // A test roll of three dice: the tray tips (the simulated camera sees no new dice: refused, in words by the reader's codes).
    await page.getByTestId('test-count').fill('3');
    await page.getByTestId('test-roll').click();
    await poll(() => page.getByTestId('judge').isVisible()).toBe(true);
    expect(await page.getByTestId('test-problems').textContent()).not.toBe('');
    await poll(() => page.locator('#toast').isHidden()).toBe(true);
    expect(await englishOn(page, english)).toEqual([]);
    await page.getByTestId('confirm').click();
    await poll(() => page.getByTestId('tally-rolls').textContent()).not.toBe('0');
    expect(await page.locator('#tally dt').allTextContents()).toEqual(['rolls', 'dice', 'right', 'unreadable', 'wrong', 'rerolls'].map((k) => words(lang, `setup.testRolls.tally.${k}`)));

    // Disconnected: the note again.
    await page.getByTestId('disconnect').click();
    await poll(() => page.getByTestId('firmware').textContent()).toBe(words(lang, 'setup.codes.setup.board_none'));
    expect(await englishOn(page, english)).toEqual([]);
    await page.close();
  }, 120_000);
});
