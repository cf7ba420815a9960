/**
 * The scoreboard on a 390-px phone (#46: "the scoreboard must work on a
 * phone", narrow.css): one column the page scrolls, board first and the play
 * column under it, nothing wider than the screen, the camera frame as wide as
 * the phone, and the host's buttons (Undo, End game) not covered by
 * anything — for a scorecard game, the generic table and the Las Vegas board
 * (its coloured dice typed in: this reader has no calibrated die size to tell
 * big dice by, so no frame is shown for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { serveApp, type ServedApp } from './served-app.js';

const TOKEN = 'browser-phone-scoreboard-token-01';
let served: ServedApp;
const pageErrors: string[] = [];

beforeAll(async () => {
  served = await serveApp(TOKEN, 9);
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });

async function phonePage(id: string): Promise<Page> {
  const context = await served.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${served.base}/?game=${id}&token=${TOKEN}`);
  await poll(() => page.evaluate(() => document.body.dataset.gameId ?? '')).toBe(id);
  return page;
}

/** Whether the middle of the element, scrolled into view, is the element itself (or inside it), not something drawn over it. */
async function uncovered(button: Locator): Promise<boolean> {
  await button.scrollIntoViewIfNeeded();
  return button.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && el.contains(top);
  });
}

describe('the scoreboard on a 390-px phone', () => {
  const games: Array<[string, readonly string[], Record<string, unknown>, string]> = [
    ['yatzy', ['Ann', 'Bob'], {}, 'scorecard'],
    ['shut-the-box', ['Ann', 'Bob'], {}, 'table-board'],
    ['las-vegas', ['Ann', 'Bob', 'Cat'], { deckSeed: 3 }, 'lv-board'],
  ];
  for (const [game, players, options, board] of games) {
    it(`${game}: one column, nothing wider than the phone, a frame as wide as it and the host's buttons free`, async () => {
      const { table } = served;
      const id = table.create(game, players, options).id;
      const coloured = table.definition(table.get(id)).diceRequest(table.get(id).state)?.dice;
      if (coloured) await table.roll(id, undefined, coloured.map((d) => ({ ...d, value: 2 })));
      else await table.roll(id);
      const page = await phonePage(id);
      if (!coloured) await poll(() => page.locator('[data-testid="camera-frame"][data-loaded="true"]').count()).toBe(1);
      await poll(() => page.getByTestId(board).isVisible()).toBe(true);
      const layout = await page.evaluate((boardId) => {
        const rect = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          boardBottom: rect(`[data-testid="${boardId}"]`).bottom,
          playTop: rect('.play-col').top,
          frame: rect('#frame').width,
        };
      }, board);
      expect(layout.scrollWidth).toBeLessThanOrEqual(390);
      expect(layout.playTop).toBeGreaterThanOrEqual(layout.boardBottom);
      if (!coloured) expect(layout.frame).toBeGreaterThanOrEqual(390 * 0.9);
      for (const testId of ['undo-button', 'end-game-button']) expect(await uncovered(page.getByTestId(testId)), testId).toBe(true);
      await page.close();
      expect(pageErrors).toEqual([]);
    }, 120_000);
  }
});
