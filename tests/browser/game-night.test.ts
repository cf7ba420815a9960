/**
 * A game night without friction (#46) in headless Chromium against the real
 * app (simulated tower, a store, an operator token): the host takes a move
 * back with the Z key and is told why a roll cannot be, ends a game (gone
 * from the picker, kept in the history), and starts a rematch from the
 * finished game's screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import type { GameView } from '../../src/api/views.js';

const TOKEN = 'browser-game-night-token-0123';
const auth = { authorization: `Bearer ${TOKEN}` };
let app: FastifyInstance;
let table: Table;
let store: GameStore;
let dir: string;
let base = '';
let browser: Browser;
let operator: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-game-night-'));
  store = openStore(dir);
  store.startSession(Date.now(), 'test');
  const sim = createSimulator({ seed: 8, colours: ['red'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchChromium();
  operator = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const first = await operator.newPage();
  await first.goto(`${base}/?token=${TOKEN}`);
  // Kept by the time the page has loaded (before the translations arrive), so the pages below are the operator's.
  expect(await first.evaluate(() => localStorage.getItem('dice-tower-operator-token'))).toBe(TOKEN);
  await first.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

async function operatorPage(path: string): Promise<Page> {
  const page = await operator.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${base}${path}`);
  return page;
}

async function call(path: string, body?: unknown): Promise<{ status: number; body: GameView & Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as GameView & Record<string, unknown> };
}

const view = async (id: string) => (await (await fetch(`${base}/api/games/${id}`)).json()) as GameView;

describe('scoreboard: a game night without friction', () => {
  it('takes the last move back with Z, and says why a roll cannot be', async () => {
    const id = (await call('/api/games', { game: 'shut-the-box', players: ['Ann', 'Ben'] })).body.id;
    await call(`/api/games/${id}/roll`, { values: [6, 3] });
    await call(`/api/games/${id}/actions`, { type: 'close', boxes: [9] });
    const page = await operatorPage(`/?game=${id}`);
    await poll(() => page.getByTestId('undo-button').isVisible()).toBe(true);
    const version = (await view(id)).version;
    await page.keyboard.press('z');
    await poll(async () => (await view(id)).version).toBe(version + 1);
    expect((await view(id)).actions.some((a) => a.type === 'close')).toBe(true);
    await poll(() => page.getByTestId('undo-note').textContent()).toBe("Took back Ann's close 9.");
    await page.getByTestId('undo-button').click();
    await poll(() => page.getByTestId('toast').textContent()).toMatch(/roll 1 \(6 3\): a roll is never taken back/);
    expect(await page.getByTestId('toast').textContent()).toContain('undo/after_roll');
    await page.close();
  }, 60_000);

  it('ends a game: gone from the picker, kept in the history as ended', async () => {
    const keep = (await call('/api/games', { game: 'shut-the-box', players: ['Cy', 'Di'] })).body.id;
    const id = (await call('/api/games', { game: 'shut-the-box', players: ['Eve', 'Fay'] })).body.id;
    const page = await operatorPage(`/?game=${id}`);
    await poll(() => page.getByTestId('end-game-button').isVisible()).toBe(true);
    await page.getByTestId('end-game-button').click();
    await poll(async () => (await view(id)).ended?.reason).toBe('ended by the operator');
    // The page unpins the ended game and shows the latest one in play.
    await poll(() => page.evaluate(() => document.body.dataset.gameId)).not.toBe(id);
    // The picker lists the games in play (it is hidden when one game is left).
    if (await page.getByTestId('game-select').isVisible()) {
      const options = await page.getByTestId('game-select').locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
      expect(options).not.toContain(id);
      expect(options).toContain(keep);
    } else {
      expect(await page.evaluate(() => document.body.dataset.gameId)).toBe(keep);
    }
    const history = (await (await fetch(`${base}/api/history`)).json()) as { games: Array<{ id: string; ended: boolean }> };
    expect(history.games.find((g) => g.id === id)?.ended).toBe(true);
    await page.goto(`${base}/history.html`);
    await poll(() => page.getByTestId(`history-game-${id}`).textContent()).toContain('ended without a result');
    await page.close();
  }, 60_000);

  it('starts a rematch from the finished game: same players, the next seat first', async () => {
    const id = (await call('/api/games', { game: 'dice-poker', players: ['Gus', 'Hal'], options: { maxThrows: 1 } })).body.id;
    while (!(await view(id)).result) {
      await call(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 6] });
      const open = (await view(id)).actions.find((a) => a.type === 'score');
      if (open) await call(`/api/games/${id}/actions`, open);
    }
    const page = await operatorPage(`/?game=${id}`);
    await poll(() => page.getByTestId('rematch-button').isVisible()).toBe(true);
    expect(await page.getByTestId('undo-button').isVisible()).toBe(false);
    await page.getByTestId('rematch-button').click();
    await poll(() => page.evaluate(() => document.body.dataset.gameId)).not.toBe(id);
    const rematch = await view((await page.evaluate(() => document.body.dataset.gameId)) as string);
    expect(rematch).toMatchObject({ game: 'dice-poker', players: ['Hal', 'Gus'] });
    expect(table.get(rematch.id).options).toEqual({ maxThrows: 1 });
    expect(rematch.result).toBeNull();
    expect(new URL(page.url()).searchParams.get('game')).toBe(rematch.id);
    await page.close();
  }, 60_000);
});

// Gus and Hal played the dice-poker game and its rematch above.
describe('players across games', () => {
  it('offers recent names in the new-game form, and shows a player page with games, wins and best scores', async () => {
    const page = await operatorPage('/');
    await page.getByTestId('new-game-button').click();
    await poll(() => page.locator('#recent-players option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).toContain('Gus');
    expect(await page.getByTestId('player-name-0').getAttribute('list')).toBe('recent-players');
    await page.goto(`${base}/players.html`);
    await page.getByTestId('player-Gus').click();
    await poll(() => page.getByTestId('player-name').textContent()).toBe('Gus');
    expect(await page.getByTestId('player-summary').textContent()).toMatch(/^\d+ games? played, 1 finished, [01] won\./);
    expect(await page.getByTestId('player-game-dice-poker').locator('td').allTextContents()).toEqual(['2', '1', expect.stringMatching(/^[01]$/), expect.stringMatching(/^\d+$/)]);
    await page.close();
  }, 60_000);
});

describe('the table feed', () => {
  it('says what happened in words, and marks the bot seats', async () => {
    const res = await call('/api/games', { game: 'yatzy', players: ['Ann', 'Robo'], bots: [1] });
    const id = res.body.id;
    await call(`/api/games/${id}/roll`, { values: [6, 6, 6, 5, 2] });
    await call(`/api/games/${id}/actions`, { type: 'score', category: 'chance' });
    const page = await operatorPage(`/?game=${id}`);
    await poll(() => page.getByTestId('table-feed').textContent()).toContain('Ann scored 25 in Chance with 6 6 6 5 2');
    expect(await page.getByTestId('bot-mark-1').getAttribute('title')).toBe('Played by the computer (simple bot)');
    expect(await page.getByTestId('bot-mark-0').count()).toBe(0);
    // The bot plays on its own; its lines carry the mark too.
    await poll(() => page.locator('[data-testid="table-feed"] .bot-mark').count()).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/game-night-feed.png' });
    await page.close();
  }, 60_000);
});
