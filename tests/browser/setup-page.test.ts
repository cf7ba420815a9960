/**
 * The setup page in a real browser (Debian's Chromium through playwright-core)
 * against the real app with the simulated tower and camera: the devices found
 * (listed by stand-ins for /dev/video* and the serial ports), the live preview
 * updating, and ten test rolls confirmed or corrected with one click per die,
 * the tally on the page, on /api/health and in accuracy.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { ACCURACY_FILE, judge, TestRolls, type AccuracyTally } from '../../src/setup/test-rolls.js';

const SCREENSHOT = '/tmp/setup-page.png';
const TOKEN = 'setup-page-operator-token';
let app: FastifyInstance;
let base = '';
let dir = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-page-'));
  const sim = createSimulator({ seed: 8, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp(
    {
      table, version: 'test', operatorToken: TOKEN, testRolls: new TestRolls(table, { dataDir: dir }),
      setupHardware: {
        ...NO_SETUP_HARDWARE, camera: sim.camera, cameraSource: 'sim',
        listCameras: () => [{ path: '/dev/video0', index: 0, name: 'HD Webcam C270' }],
        listPorts: async () => [{ path: '/dev/ttyACM0', vendorId: '2341', productId: '0043', manufacturer: 'Arduino LLC' }, { path: '/dev/ttyS0' }],
      },
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1400 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

describe('the setup page', () => {
  it('asks for the operator link without a token', async () => {
    const p = await browser.newPage();
    await p.goto(`${base}/setup.html`);
    await poll(() => p.getByTestId('no-token').isVisible()).toBe(true);
    await p.close();
  });

  it('is linked from the scoreboard for the operator alone', async () => {
    const guest = await browser.newPage();
    await guest.goto(`${base}/`);
    // The other pages are in the top bar's menu.
    await guest.getByTestId('pages-menu').click();
    await poll(() => guest.getByTestId('history-link').isVisible()).toBe(true);
    expect(await guest.getByTestId('setup-link').isVisible()).toBe(false);
    await guest.close();
    const operator = await browser.newPage();
    await operator.goto(`${base}/?token=${TOKEN}`);
    await operator.getByTestId('pages-menu').click();
    await poll(() => operator.getByTestId('setup-link').isVisible()).toBe(true);
    await operator.getByTestId('setup-link').click();
    await poll(() => operator.getByTestId('camera-panel').isVisible()).toBe(true);
    expect(operator.url()).toBe(`${base}/setup.html`);
    expect(await operator.getByTestId('no-token').isVisible()).toBe(false);
    await operator.close();
  });

  it('lists the devices and the board, updates the preview, and keeps the tally of ten judged test rolls', async () => {
    await page.goto(`${base}/setup.html?token=${TOKEN}`);
    await poll(() => page.getByTestId('camera-device').allTextContents()).toEqual(['/dev/video0 — HD Webcam C270 (--camera 0)']);
    expect(await page.getByTestId('serial-port').allTextContents()).toEqual([
      '/dev/ttyACM0 (2341:0043 Arduino LLC) — looks like an Arduino',
      '/dev/ttyS0 (no USB id) — not an Arduino',
    ]);
    expect(await page.getByTestId('firmware').textContent()).toMatch(/No tower board/);
    expect(page.url()).toBe(`${base}/setup.html`);
    // The preview: several frames, one after the other.
    await poll(async () => Number((await page.getByTestId('preview').getAttribute('data-frames')) ?? 0)).toBeGreaterThanOrEqual(3);

    await page.getByTestId('test-count').fill('4');
    let expected = { rolls: 0, dice: 0, right: 0, unreadable: 0, wrong: 0 };
    for (let n = 0; n < 10; n++) {
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/setup/test-rolls') && r.request().method() === 'POST');
      await page.getByTestId('test-roll').click();
      const roll = (await (await answer).json()) as { reading: { dice: Array<{ value: number | null }> } };
      await poll(() => page.getByTestId('judge').isVisible()).toBe(true);
      await poll(() => page.getByTestId('test-overlay').locator('[data-testid="die-outline"]').count()).toBe(roll.reading.dice.length);
      const read = roll.reading.dice.map((d) => d.value);
      const truth = read.map((v) => v ?? 2);
      // Dice the camera could not read get their value; every other roll, the first die is corrected with one click.
      for (const [i, v] of read.entries()) if (v === null) await page.getByTestId(`test-die-${i}-2`).click();
      if (n % 2 === 1 && read.length > 0) {
        truth[0] = ((truth[0] ?? 1) % 6) + 1;
        await page.getByTestId(`test-die-0-${truth[0]}`).click();
        await poll(() => page.getByTestId('test-die-0').getAttribute('data-truth')).toBe(String(truth[0]));
      }
      if (n === 9) await page.screenshot({ path: SCREENSHOT });
      const sent = page.waitForRequest((r) => r.url().endsWith('/verdict'));
      await page.getByTestId('confirm').click();
      expect((await sent).postDataJSON()).toEqual({ values: truth });
      const outcome = judge(read, truth, 4);
      expected = { rolls: n + 1, dice: expected.dice + 4, right: expected.right + outcome.right, unreadable: expected.unreadable + outcome.unreadable, wrong: expected.wrong + outcome.wrong };
      await poll(() => page.getByTestId('tally-rolls').textContent()).toBe(String(n + 1));
    }
    expect(expected.wrong).toBeGreaterThanOrEqual(5);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { accuracy: AccuracyTally };
    expect(health.accuracy).toMatchObject(expected);
    expect(JSON.parse(readFileSync(join(dir, ACCURACY_FILE), 'utf8'))).toEqual(health.accuracy);
    expect(await page.getByTestId('tally-wrong').textContent()).toBe(String(expected.wrong));
    expect(await page.getByTestId('tally-right').textContent()).toBe(`${expected.right} (${Math.round((1000 * expected.right) / 40) / 10} %)`);
    expect(await page.getByTestId('tally-unreadable').textContent()).toBe(String(expected.unreadable));
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
