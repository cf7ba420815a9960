/**
 * The room's sounds (sounds.js) in headless Chromium, without the flag that
 * lifts the autoplay policy: the overlay is muted unless its link says
 * ?sound=on; on the scoreboard the sound toggle's click makes the audio
 * context (a click is what lets Chrome start it), so a first cue with no click
 * (a TV scoreboard, a bot's roll) is not silent for good. Headless Chromium
 * starts contexts running even with no click, so a context left suspended
 * cannot be staged here; the check is that the click made a running one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';

const TOKEN = 'browser-sounds-token-0123456789ab';
let app: FastifyInstance;
let table: Table;
let base = '';
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sim = createSimulator({ seed: 7, colours: ['white'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(DEFAULT_VISION_CONFIG), botDelayMs: 0 });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });
const bodyData = (page: Page, key: string) => page.evaluate((k) => document.body.dataset[k] ?? '', key);
// A string, so the test's own transform leaves the page's import alone; the page's module is the one the scoreboard loaded.
const audioState = (page: Page) => page.evaluate<string>("import('/sounds.js').then((m) => m.audioState())");

async function openPage(path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${base}${path}`);
  return page;
}

describe('sounds', () => {
  it('the overlay is muted by default and plays with ?sound=on', async () => {
    const id = table.create('shut-the-box', ['Ann', 'Bob']).id;
    const muted = await openPage(`/overlay.html?game=${id}`);
    const loud = await openPage(`/overlay.html?game=${id}&sound=on`);
    for (const page of [muted, loud]) await poll(() => bodyData(page, 'gameId')).toBe(id);
    await table.roll(id, [6, 3]);
    await poll(() => bodyData(loud, 'lastSound')).toBe('roll');
    // The muted overlay saw the same roll (its dice are drawn) and stayed quiet.
    await poll(() => muted.locator('#ov-dice .die, #ov-dice svg').count()).toBeGreaterThan(0);
    expect(await bodyData(muted, 'lastSound')).toBe('');
    expect(await bodyData(muted, 'sounds')).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('the toggle\'s click starts the audio before any cue, and its label stays while aria-pressed flips', async () => {
    const id = table.create('shut-the-box', ['Ann', 'Bob']).id;
    const page = await openPage(`/?game=${id}&token=${TOKEN}`);
    await poll(() => bodyData(page, 'gameId')).toBe(id);
    expect(await audioState(page)).toBe('none');
    const toggle = page.getByTestId('sound-toggle');
    const label = await toggle.textContent();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await toggle.textContent()).toBe(label);
    // Turned off: no audio is started.
    expect(await audioState(page)).toBe('none');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await toggle.textContent()).toBe(label);
    await poll(() => audioState(page)).toBe('running');
    await table.roll(id, [5, 4]);
    await poll(() => bodyData(page, 'lastSound')).toBe('roll');
    expect(pageErrors).toEqual([]);
  });
});
