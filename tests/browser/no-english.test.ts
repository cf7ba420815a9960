/**
 * No English left on a Finnish page (issue #46): the scoreboard and the player's page, opened by a Finnish
 * browser for a scorecard game (Yatzy), Bluff with a phone, Las Vegas with a phone, games without a feed
 * describer of their own (Ten Thousand, Drop Dead) and table boards (Shut the Box, Mexico: their status line,
 * panels, items and columns, board-words.js), show none of the English words of the texts whose Finnish
 * differs. The English is read from the language files (every fixed part of a text with {parameters}), not
 * written here, so a string left unkeyed in a module shows up as its English words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { DiceRequest } from '../../src/games/types.js';
import { serveApp, type ServedApp } from './served-app.js';
import { englishOn as englishLeft, englishPhrases } from './english-left.js';

const TOKEN = 'browser-operator-token-no-english';
const ENGLISH = englishPhrases('fi');
/**
 * The English phrases on a Finnish page. `unkeyed`: the elements that show words not yet keyed (values the game
 * modules write as English sentences, #46), hidden before the page is read.
 */
const englishOn = (page: Page, unkeyed: string[] = []) => englishLeft(page, ENGLISH, unkeyed);

let served: ServedApp;
let finnish: BrowserContext;
const pageErrors: string[] = [];
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

const post = async (path: string, body: unknown) => {
  const reply = await served.post(path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply.body;
};
const create = async (game: string, players: string[], options: Record<string, unknown> = {}) => String((await post('/api/games', { game, players, options })).id);
/** Throws the dice the game waits for (coloured dice as the game asks for them). */
async function roll(id: string, values: number[]) {
  const { request } = (await (await fetch(`${served.base}/api/games/${id}`)).json()) as { request: DiceRequest | null };
  expect(request).not.toBeNull();
  if (request?.dice) return post(`/api/games/${id}/roll`, { dice: request.dice.map((d, i) => ({ ...d, value: values[i % values.length] })) });
  return post(`/api/games/${id}/roll`, { values: request!.slots.map((_, i) => values[i % values.length]) });
}

async function open(path: string): Promise<Page> {
  const page = await finnish.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(`${served.base}${path}`);
  await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fi');
  return page;
}

/** The scoreboard of game `id` as the operator sees it, once `ready` shows. */
async function scoreboard(id: string, ready: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await open(`/?game=${id}&token=${TOKEN}`);
  await poll(() => page.evaluate(() => document.body.dataset.gameId)).toBe(id);
  await ready(page);
  return page;
}

/** The private page of `seat` (the link the scoreboard's code opens). */
async function phone(id: string, seat: number): Promise<Page> {
  const seats = (await (await fetch(`${served.base}/api/games/${id}/seats`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as Array<{ path: string }>;
  const page = await open(seats[seat]!.path);
  await poll(() => page.getByTestId('player-name').textContent()).not.toBe('');
  return page;
}

beforeAll(async () => {
  served = await serveApp(TOKEN, 5);
  finnish = await served.browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'fi-FI' });
}, 60_000);

afterAll(async () => {
  await served?.close();
  expect(pageErrors).toEqual([]);
});

describe('a Finnish page shows no English', () => {
  it('finds the English it looks for (the check can fail)', () => {
    // Texts of the modules keyed for #46, in English, are among the phrases looked for.
    expect(ENGLISH).toEqual(expect.arrayContaining(['Click to hold', 'Cups', 'Slot machine', 'set aside', 'Start a new game']));
    expect(ENGLISH).not.toContain('Yatzy');
  });

  it('Yatzy: the scoreboard with a scored row, the new-game form', async () => {
    const id = await create('yatzy', ['Ann', 'Ben']);
    await roll(id, [6, 6, 6, 5, 2]);
    await post(`/api/games/${id}/actions`, { type: 'score', category: 'chance' });
    await roll(id, [1, 2, 3, 4, 4]);
    const page = await scoreboard(id, (p) => poll(() => p.getByTestId('table-feed').textContent()).toContain('Sattuma'));
    expect(await englishOn(page)).toEqual([]);
    await page.getByTestId('new-game-button').click();
    await page.getByTestId('game-picker').selectOption('yatzy');
    await poll(() => page.getByTestId('start-game').textContent()).not.toBe('');
    expect(await englishOn(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it('Bluff: the big screen and a phone', async () => {
    const id = await create('bluff', ['Ann', 'Ben']);
    await roll(id, [1, 2, 3, 4, 5, 6]);
    await roll(id, [2, 2, 3, 3, 6, 5]);
    const screen = await scoreboard(id, (p) => poll(() => p.getByTestId('bluff-cups').isVisible()).toBe(true));
    const ann = await phone(id, 0);
    await poll(() => ann.getByTestId('bid-picker').isVisible()).toBe(true);
    expect(await englishOn(ann)).toEqual([]);
    expect(await englishOn(screen)).toEqual([]);
    await Promise.all([ann.close(), screen.close()]);
  }, 60_000);

  it('Las Vegas: the board and a phone with cards', async () => {
    const id = await create('las-vegas', ['Ann', 'Bob', 'Cat'], { actionCards: true, bonusCards: true, deckSeed: 3 });
    // Ann throws and places her 6s; Bob, before his first throw, may play his cards from his phone.
    await roll(id, [6, 6, 1, 1, 2, 3, 4, 5]);
    await post(`/api/games/${id}/actions`, { type: 'place', value: 6 });
    const screen = await scoreboard(id, (p) => poll(() => p.getByTestId('lv-casino-1').isVisible()).toBe(true));
    const bob = await phone(id, 1);
    await poll(() => bob.getByTestId('seat-actions').locator('button').count()).toBeGreaterThan(0);
    // Keyed: the board's casinos, players, throw, status line and facts, the cards on the phone. Not yet: the
    // values in the phone's table of the board (colour names, card names).
    expect(await englishOn(bob, ['#table td'])).toEqual([]);
    expect(await englishOn(screen)).toEqual([]);
    await Promise.all([bob.close(), screen.close()]);
  }, 60_000);

  it('Ten Thousand and Drop Dead: games without a feed describer of their own', async () => {
    const tenThousand = await create('ten-thousand', ['Ann', 'Ben']);
    await roll(tenThousand, [1, 5, 2, 3, 4, 6]);
    await post(`/api/games/${tenThousand}/actions`, { type: 'keep', dice: [0, 1] });
    const page = await scoreboard(tenThousand, (p) => poll(() => p.getByTestId('table-feed').textContent()).toContain('otti sivuun 1 5'));
    expect(await englishOn(page)).toEqual([]);
    await page.close();

    const dropDead = await create('drop-dead', ['Ann', 'Ben']);
    await roll(dropDead, [1, 2, 3, 4, 6]);
    const dd = await scoreboard(dropDead, (p) => poll(() => p.getByTestId('table-feed').textContent()).toContain('heitti'));
    expect(await englishOn(dd)).toEqual([]);
    await dd.close();
  }, 60_000);

  it('Shut the Box and Mexico: a table board\'s status line, panels, items and columns in Finnish', async () => {
    const shut = await create('shut-the-box', ['Ann', 'Ben']);
    await roll(shut, [6, 3]);
    const page = await scoreboard(shut, (p) => poll(() => p.getByTestId('status').textContent()).toBe('Sulje 9 tai 3+6'));
    await poll(() => page.getByTestId('panel-boxes').textContent()).toContain('Luukut');
    expect(await page.locator('#table-board th[data-column="total"]').textContent()).toBe('Sakkopisteet');
    expect(await englishOn(page)).toEqual([]);
    await page.close();

    const mexico = await create('mexico', ['Ann', 'Ben']);
    await roll(mexico, [6, 5]);
    const mx = await scoreboard(mexico, (p) => poll(() => p.getByTestId('status').textContent()).toContain('heitä uudelleen'));
    expect(await englishOn(mx)).toEqual([]);
    await mx.close();
  }, 60_000);
});
