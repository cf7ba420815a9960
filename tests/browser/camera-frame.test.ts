/**
 * The camera frame on the big screen is large enough to check a die from 3 m
 * (#46): when a roll is shown, at 1920×1080 and 1280×720, the frame is at least
 * a third of the screen wide, in every kind of board the scoreboard draws —
 * a scorecard (Yatzy), the generic table (Shut the Box), a bluffing game
 * (Bluffi's open throw-off; Bluff's throws are all secret, so the big screen
 * shows no frame for them at all) and Just roll. Las Vegas has its own check in
 * las-vegas-board.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serveApp, type ServedApp } from './served-app.js';

const TOKEN = 'browser-camera-frame-token-0123';
const SIZES = [
  [1920, 1080],
  [1280, 720],
] as const;
let served: ServedApp;
const pageErrors: string[] = [];

beforeAll(async () => {
  served = await serveApp(TOKEN, 5);
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });

async function openGame(id: string, width: number, height: number): Promise<Page> {
  const page = await (await served.browser.newContext({ viewport: { width, height } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${served.base}/?game=${id}&token=${TOKEN}`);
  return page;
}

/** The width of the shown frame's image, once the roll `seq` is drawn in it and loaded. */
async function frameWidth(page: Page, seq: number): Promise<number> {
  const img = page.getByTestId('camera-frame');
  await poll(() => img.evaluate((el) => `${(el as HTMLImageElement).dataset.seq}:${(el as HTMLImageElement).dataset.loaded}`)).toBe(`${seq}:true`);
  return img.evaluate((el) => el.getBoundingClientRect().width);
}

describe('the camera frame when a roll is shown', () => {
  const games: Array<[string, string, Record<string, unknown>]> = [
    ['Yatzy', 'yatzy', {}],
    ['Shut the Box', 'shut-the-box', {}],
    ['Bluffi (its open throw-off)', 'bluffi', {}],
    ['Just roll', 'just-roll', { count: 5 }],
  ];
  for (const [name, game, options] of games) {
    it(`is at least a third of the screen wide in ${name}`, async () => {
      const { table } = served;
      const id = table.create(game, ['Ann', 'Bob', 'Cy'].slice(0, game === 'just-roll' ? 1 : 2), options).id;
      const request = table.definition(table.get(id)).diceRequest(table.get(id).state);
      expect(request?.secret ?? false).toBe(false);
      await table.roll(id);
      for (const [width, height] of SIZES) {
        const page = await openGame(id, width, height);
        expect(await frameWidth(page, 1)).toBeGreaterThanOrEqual(width / 3);
        await page.close();
      }
      expect(pageErrors).toEqual([]);
    }, 120_000);
  }

  it('is not shown for a secret Bluff throw (the room must not see the cup)', async () => {
    const { table } = served;
    const id = table.create('bluff', ['Ann', 'Bob']).id;
    expect(table.definition(table.get(id)).diceRequest(table.get(id).state)?.secret).toBe(true);
    await table.roll(id);
    const [width, height] = SIZES[1];
    const page = await openGame(id, width, height);
    await poll(() => page.getByTestId('bluff-cups').isVisible()).toBe(true);
    expect(await page.locator('#frame').isVisible()).toBe(false);
    expect(await page.getByTestId('camera-frame').getAttribute('src')).toBeNull();
    await page.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
