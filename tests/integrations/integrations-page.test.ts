/**
 * The integrations page in headless Chromium (Debian's, as tests/browser)
 * against the app with its integrations: the operator makes a key (its token
 * shown once, and it works), adds a webhook, sees the live events, revokes
 * the key; a screen without the operator token is told what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, OPERATOR } from './helpers.js';

let f: AppFixture;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  f = await appFixture();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await f?.close();
  expect(pageErrors).toEqual([]);
});

describe('the integrations page', () => {
  it('makes and revokes a key, adds a webhook, and shows events as they come', async () => {
    const context = await browser.newContext();
    await context.addInitScript((token) => localStorage.setItem('dice-tower-operator-token', token), OPERATOR);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    await page.goto(`${f.url}/integrations.html`);
    await page.getByTestId('key-name').fill('Stream deck');
    await page.getByTestId('key-add').click();
    const token = (await page.getByTestId('key-token').textContent()) ?? '';
    expect(token).toMatch(/^dtk_/);
    expect((await call(f.url, 'GET', '/api/events/log', token)).status).toBe(200);

    await page.getByTestId('hook-url').fill('http://127.0.0.1:9/nowhere');
    await page.getByTestId('hook-types').fill('roll.settled, game.ended');
    await page.getByTestId('hook-add').click();
    expect(await page.getByTestId('hook-secret').textContent()).toMatch(/^whsec_/);
    await expect.poll(() => page.getByTestId('hooks').textContent()).toContain('roll.settled, game.ended');

    // A roll shows in the live tail.
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR, { values: [6, 6, 1, 2, 3] });
    await expect.poll(() => page.getByTestId('events').textContent(), { timeout: 10_000 }).toContain('roll.settled 6 6 1 2 3');

    page.on('dialog', (d) => void d.accept());
    await page.locator('tr', { hasText: 'Stream deck' }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'Stream deck' }).textContent()).toContain('revoked');
    expect((await call(f.url, 'GET', '/api/events/log', token)).status).toBe(403);
    await context.close();
  }, 60_000);

  it('tells a screen without the operator token to open the operator link', async () => {
    const page = await browser.newPage();
    await page.goto(`${f.url}/integrations.html`);
    expect(await page.getByTestId('no-token').isVisible()).toBe(true);
    await page.close();
  });
});
