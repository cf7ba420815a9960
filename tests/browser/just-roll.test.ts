/**
 * "Just roll" on the scoreboard in a real browser (Debian's Chromium through
 * playwright-core) with the simulated tower and the OpenCV reader: chosen in
 * the picker with its number of dice, thrown by the tower, each throw shown
 * big with its frame, the sums and the per-face tally on the board, the
 * number of dice changed between throws, the session ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import type { JustRollState } from '../../src/games/just-roll.js';

const SCREENSHOT = '/tmp/just-roll.png';
let app: FastifyInstance;
let table: Table;
let base = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sim = createSimulator({ seed: 21, colours: ['white'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test' }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });
const state = (id: string) => table.get(id).state as JustRollState;
/** An item of a board panel as the page shows it. */
const shown = (panel: string, label: string) =>
  page.evaluate(
    ([panelId, itemLabel]) => {
      const items = document.querySelectorAll<HTMLElement>(`[data-testid="panel-${panelId}"] .item`);
      const item = Array.from(items).find((el) => el.querySelector('.item-label')?.textContent === itemLabel);
      return item?.querySelector('.item-value')?.textContent ?? null;
    },
    [panel, label],
  );

describe('Just roll on the scoreboard', () => {
  it('is chosen with its number of dice, thrown by the tower, shown with its frame, sums and tally; dice change; the session ends', async () => {
    await page.goto(base);
    const picker = page.getByTestId('game-picker');
    await poll(() => picker.locator('option[value="just-roll"]').count()).toBe(1);
    await picker.selectOption('just-roll');
    await page.getByTestId('player-name-0').fill('Ann');
    await page.getByTestId('option-count').fill('7');
    await page.getByTestId('start-game').click();
    await poll(() => page.evaluate(() => document.body.dataset.gameId ?? '')).not.toBe('');
    const id = await page.evaluate(() => document.body.dataset.gameId ?? '');
    expect(table.get(id).game).toBe('just-roll');
    await poll(() => page.getByTestId('roll-button').textContent()).toBe('Roll 7 dice');

    // Three tower throws from the page: each shown big, with its frame and its sum.
    for (let n = 1; n <= 3; n++) {
      await page.getByTestId('roll-button').click();
      await poll(() => state(id).throws).toBe(n);
      const values = state(id).dice ?? [];
      await poll(() => page.getByTestId('dice').locator('button.die').evaluateAll((ds) => ds.map((d) => Number((d as HTMLElement).dataset.value)))).toEqual(values);
      await poll(() => shown('throw', 'Sum')).toBe(String(values.reduce((a, b) => a + b, 0)));
      await poll(() => page.getByTestId('camera-frame').getAttribute('src')).toContain(`/api/games/${id}/rolls/${n}/frame.jpg`);
    }
    const s = state(id);
    for (let face = 1; face <= 6; face++) await poll(() => shown('tally', String(face))).toBe(String(s.tally[face - 1]));
    expect(s.tally.reduce((a, b) => a + b, 0)).toBe(21);
    expect(await shown('throw', 'Last sums')).toBe(s.recentSums.join(' '));
    expect(table.get(id).rolls.every((r) => r.source === 'tower')).toBe(true);
    await page.screenshot({ path: SCREENSHOT });

    // Fewer dice for the next throw: the "dice" drop-down.
    await page.getByTestId('action-select-dice').selectOption({ label: '2' });
    await page.getByTestId('action-send-dice').click();
    await poll(() => page.getByTestId('roll-button').textContent()).toBe('Roll 2 dice');
    await page.getByTestId('roll-button').click();
    await poll(() => state(id).throws).toBe(4);
    expect(state(id).dice).toHaveLength(2);

    // End the session: the game is over, nobody wins.
    await page.locator('[data-testid^="action-"][data-type="end"]').click();
    await poll(() => state(id).over).toBe(true);
    await poll(() => page.getByTestId('game-over').isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
