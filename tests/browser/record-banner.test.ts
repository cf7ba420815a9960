/**
 * The red banner of issue #45 in headless Chromium: when the record check at
 * start failed, every page (scoreboard, history, overlay, player page) shows
 * "The record was changed outside dice-tower at event N" with what is wrong;
 * when it held, none does. The test waits for the mark record-banner.js
 * sets once it has decided (<html data-record-checked>), not for a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import type { RecordHealth } from '../../src/storage/record-check.js';

const PAGES = ['/', '/history.html', '/overlay.html', '/player.html'];
let browser: Browser;
const apps: FastifyInstance[] = [];

/** An app whose start-up record check said `record`; its base URL. */
async function serving(record: RecordHealth): Promise<string> {
  const sim = createSimulator({ seed: 2, colours: ['red'], rollMs: 0 });
  const app = buildApp({ table: new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() }), version: 'test', record });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const app of apps) await app.close();
});

describe('the record banner', () => {
  it('is on every page when the record was changed, naming the event and the problem', async () => {
    const base = await serving({ ok: false, firstBad: 4, kind: 'frame_changed', file: 'frames/g1/2.jpg', message: 'The frame frames/g1/2.jpg is not the one event 4 (roll 2 of game g1) recorded.' });
    const page = await browser.newPage();
    for (const path of PAGES) {
      await page.goto(`${base}${path}`);
      const banner = page.locator('#record-banner');
      await banner.waitFor({ timeout: 10_000 });
      expect(await page.locator('html').getAttribute('data-record-checked')).toBe('bad');
      expect(await banner.textContent()).toBe('The record was changed outside dice-tower at event 4. The frame frames/g1/2.jpg is not the one event 4 (roll 2 of game g1) recorded.');
      expect(await banner.getAttribute('role')).toBe('alert');
    }
    await page.close();
  }, 60_000);

  it('is on no page when the record holds', async () => {
    const base = await serving({ ok: true, firstBad: null, kind: null, file: null, message: 'ok: 0 events chained' });
    const page = await browser.newPage();
    for (const path of PAGES) {
      await page.goto(`${base}${path}`);
      // record-banner.js marks the page once it has read /api/health and decided: no sleeping and hoping.
      await page.locator('html[data-record-checked]').waitFor({ state: 'attached', timeout: 10_000 });
      expect(await page.locator('html').getAttribute('data-record-checked')).toBe('ok');
      expect(await page.locator('#record-banner').count()).toBe(0);
    }
    await page.close();
  }, 60_000);

  it('marks the page unknown, and shows no banner, when /api/health does not answer', async () => {
    const base = await serving({ ok: false, firstBad: 1, kind: 'chain', file: null, message: 'never shown' });
    const page = await browser.newPage();
    await page.route('**/api/health', (route) => route.fulfill({ status: 503, body: '{}' }));
    await page.goto(`${base}/history.html`);
    await page.locator('html[data-record-checked]').waitFor({ state: 'attached', timeout: 10_000 });
    expect(await page.locator('html').getAttribute('data-record-checked')).toBe('unknown');
    expect(await page.locator('#record-banner').count()).toBe(0);
    await page.close();
  }, 60_000);
});
