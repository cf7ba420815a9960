/** The private player page shows its own secret die and nothing of the others'. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import { createSimulator, type Simulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { secretDuel } from '../api/secret-duel.js';

let browser: Browser;
let app: FastifyInstance;
let sim: Simulator;
let base = '';

beforeAll(async () => {
  sim = createSimulator({ seed: 5, colours: ['white'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), games: { 'secret-duel': secretDuel } });
  app = buildApp({ table, version: 'test' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('private player page', () => {
  it("shows the seat's own secret die live, and the other seat's page shows none", async () => {
    const id = (await (await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'secret-duel', players: ['Ann', 'Bob'] }) })).json()).id;
    const seats = (await (await fetch(`${base}/api/games/${id}/seats`)).json()) as Array<{ path: string }>;
    const ann = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const bob = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await ann.goto(`${base}${seats[0]?.path}`);
    await bob.goto(`${base}${seats[1]?.path}`);
    await expect.poll(() => ann.getByTestId('player-name').textContent()).toBe('Ann');

    await fetch(`${base}/api/games/${id}/roll`, { method: 'POST' });
    const value = String(sim.truth()[0]?.value);
    // Ann's page updates by itself and shows her die; Bob's shows only hidden faces.
    await expect.poll(() => ann.locator('[data-testid=own-dice] svg').first().getAttribute('data-value')).toBe(value);
    await expect.poll(() => bob.getByTestId('status').textContent()).toMatch(/Seat 2/);
    const bobValues = await bob.locator('[data-testid=own-dice] svg').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')));
    expect(bobValues).toEqual(['', '']);
    // The compact phone layout: nothing wider than the phone.
    expect(await ann.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await ann.screenshot({ path: '/tmp/player-page.png' });
  });

  it('shows a QR code of each private page on the scoreboard', async () => {
    const id = (await (await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'secret-duel', players: ['Ann', 'Bob'] }) })).json()).id;
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${base}/?game=${id}`);
    for (const seat of [0, 1]) {
      const qr = page.getByTestId(`seat-qr-${seat}`);
      await expect.poll(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    }
    expect(await page.getByTestId('seat-links').textContent()).toContain('Bob');
    // Once Bob opens his page, his code comes down; Ann's stays until she opens hers.
    const seats = (await (await fetch(`${base}/api/games/${id}/seats`)).json()) as Array<{ path: string }>;
    const bob = await browser.newPage();
    await bob.goto(`${base}${seats[1]?.path}`);
    await expect.poll(() => page.getByTestId('seat-qr-1').count()).toBe(0);
    expect(await page.getByTestId('seat-qr-0').count()).toBe(1);
  });

  it('says so when the link is wrong', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/player.html?game=nope&seat=0&token=x`);
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/no game with id 'nope'/);
  });
});

describe('operator link', () => {
  it('keeps the token from the link, hides it from the address bar, and acts with it', async () => {
    const s = createSimulator({ seed: 6, colours: ['white'] });
    const guarded = buildApp({ table: new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader() }), version: 'test', operatorToken: 'sesame' });
    await guarded.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(guarded.server.address() as { port: number }).port}`;
    try {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.goto(`${url}/?token=sesame`);
      await expect.poll(() => page.url()).toBe(`${url}/`);
      await page.getByTestId('player-name-0').fill('Kim');
      const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/games');
      await page.getByTestId('start-game').click();
      expect((await created).status()).toBe(201);

      // Another browser without the token is a viewer: its actions are refused.
      const viewer = await browser.newContext();
      const view = await viewer.newPage();
      await view.goto(`${url}/`);
      const refused = view.waitForResponse((r) => r.request().method() === 'POST');
      await view.getByTestId('roll-button').click();
      expect((await refused).status()).toBe(401);
      await viewer.close();
    } finally {
      await guarded.close();
    }
  });
});
