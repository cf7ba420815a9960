/**
 * The coach in headless Chromium: a strong bot chosen in the new-game form,
 * the operator turning the coach on for a seat and seeing the ranked
 * decisions, and the history page's analysis of the finished game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SeededRandom, type Frame } from '../../src/hardware/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { CoachLibrary } from '../../src/coach/library.js';
import { shutTheBoxCoach } from '../../src/coach/shut-the-box.js';
import type { AnyCoach } from '../../src/coach/index.js';
import type { GameView } from '../../src/api/views.js';

const TOKEN = 'browser-coach-operator-token-0123';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const SCREENSHOT_HINTS = '/tmp/coach-hints.png';
const SCREENSHOT_ANALYSIS = '/tmp/coach-analysis.png';
let app: FastifyInstance;
let table: Table;
let store: GameStore;
let dir: string;
let base = '';
let browser: Browser;
let operator: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-coach-browser-'));
  store = openStore(dir);
  store.startSession(Date.now(), 'test');
  // Dice from a seeded source: the tower "throws" as many as asked and the reader sees them.
  const random = new SeededRandom(21);
  let count = 0;
  const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };
  const coach = new CoachLibrary({ coaches: { 'shut-the-box': shutTheBoxCoach as unknown as AnyCoach }, cacheDir: null, inWorker: false });
  table = new Table({
    tower: { kind: 'test', roll: async (n: number) => void (count = n) },
    camera: { capture: async () => frame },
    reader: {
      read: async () => ({
        dice: Array.from({ length: count }, (_, i) => ({ value: 1 + Math.floor(random.next() * 6), colour: 'red', center: { x: i, y: 0 }, box: [], size: 8, confidence: 1 })),
        valid: true, problems: [], width: 10, height: 10, ms: 1,
      }),
    },
    store,
    botDelayMs: 0,
    coach,
  });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchChromium();
  operator = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const first = await operator.newPage();
  await first.goto(`${base}/?token=${TOKEN}`);
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
const view = async (id: string) => (await (await fetch(`${base}/api/games/${id}`)).json()) as GameView;
const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

async function operatorPage(path: string): Promise<Page> {
  const page = await operator.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(`${base}${path}`);
  return page;
}

describe('the coach on the pages', () => {
  let gameId = '';

  it('offers a strong bot for a solved game in the new-game form', async () => {
    const page = await operatorPage('/');
    await page.getByTestId('game-picker').selectOption('shut-the-box');
    await page.getByTestId('player-name-0').fill('Ann');
    await page.getByTestId('add-player').click();
    await page.getByTestId('player-name-1').fill('Robo');
    await page.getByTestId('player-bot-1').check();
    await expect(page.getByTestId('player-bot-level-1').isVisible()).resolves.toBe(true);
    await page.getByTestId('player-bot-level-1').selectOption('strong');
    await page.getByTestId('start-game').click();
    await poll(() => table.list().length).toBe(1);
    const game = table.list()[0]!;
    gameId = game.id;
    expect(game.bots).toEqual([1]);
    expect(game.botLevels).toEqual({ 1: 'strong' });
    // A game the coach has not solved offers the simple bot only.
    await page.getByTestId('new-game-button').click();
    await page.getByTestId('game-picker').selectOption('bluff');
    await expect(page.getByTestId('player-bot-level-1').isVisible()).resolves.toBe(false);
    await page.close();
  });

  it('shows the seat to move its decisions, best first, once the operator turns its coach on', async () => {
    const page = await operatorPage(`/?game=${gameId}`);
    await poll(() => page.getByTestId('coach').isVisible()).toBe(true);
    await expect(page.getByTestId('coach-hints').count()).resolves.toBe(1);
    await expect(page.getByTestId('coach-hint').count()).resolves.toBe(0);
    expect((await post(`/api/games/${gameId}/roll`, { values: [3, 4] })).status).toBe(200);
    await page.getByTestId('coach-seat-0').check();
    await poll(() => page.getByTestId('coach-hint').count()).toBeGreaterThan(1);
    const hint = (await (await fetch(`${base}/api/games/${gameId}/hint`, { headers: auth })).json()) as { decisions: Array<{ label: string }> };
    const shown = await page.getByTestId('coach-hint').allTextContents();
    expect(shown[0]).toContain(hint.decisions[0]!.label);
    expect(shown[0]).toContain('best');
    await page.screenshot({ path: SCREENSHOT_HINTS });
    // Off again: the ranked list goes.
    await page.getByTestId('coach-seat-0').uncheck();
    await poll(() => page.getByTestId('coach-hint').count()).toBe(0);
    await page.close();
  });

  it('reviews the finished game on the history page, costliest mistake first', async () => {
    // Ann plays the worst close each time; the strong bot plays itself.
    for (let guard = 0; guard < 300; guard++) {
      const game = await view(gameId);
      if (game.result) break;
      if (game.board.current === 1) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const hint = (await (await fetch(`${base}/api/games/${gameId}/hint`, { headers: auth })).json()) as { decisions: Array<{ key: string; actions: unknown[] }> };
      const last = hint.decisions.at(-1);
      for (const action of last?.actions ?? []) expect((await post(`/api/games/${gameId}/actions`, action)).status).toBe(200);
      if (!last || last.actions.length === 0 || last.key.startsWith('dice:')) expect((await post(`/api/games/${gameId}/roll`, null)).status).toBe(200);
    }
    await poll(async () => Boolean((await view(gameId)).result)).toBe(true);
    const page = await operatorPage(`/history.html?game=${gameId}`);
    await poll(() => page.getByTestId('analysis-players').isVisible()).toBe(true);
    const rows = await page.locator('[data-testid=analysis-players] tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Ann');
    expect(rows[1]).toContain('Robo');
    const analysis = (await (await fetch(`${base}/api/games/${gameId}/analysis`)).json()) as { players: Array<{ totalLoss: number }>; decisions: Array<{ loss: number; chosen: { label: string } }> };
    expect(analysis.players[1]!.totalLoss).toBe(0);
    expect(analysis.players[0]!.totalLoss).toBeGreaterThan(0);
    const mistakes = await page.getByTestId('analysis-mistake').allTextContents();
    expect(mistakes.length).toBeGreaterThan(0);
    expect(mistakes[0]).toContain(analysis.decisions[0]!.chosen.label);
    await page.screenshot({ path: SCREENSHOT_ANALYSIS, fullPage: true });
    await page.close();
  });
});
