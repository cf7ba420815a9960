/**
 * Four languages on the pages (issue #46) in headless Chromium against the real app: the browser's language
 * is taken, the switch changes it and the choice survives a reload, the history page, the scoreboard and its
 * table feed are in the chosen language, option labels and values are in plain words, and a roll is spoken
 * in it. The expected words are read from the language files, not written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lookup, translate, type Param, type Texts } from '../../src/api/public/i18n-core.js';
import { serveApp, type ServedApp } from './served-app.js';
import { GAMES } from '../../src/games/index.js';

const TOKEN = 'browser-operator-token-languages';
const texts = (lang: string): Texts => JSON.parse(readFileSync(join(import.meta.dirname, '../../src/api/public/i18n', `${lang}.json`), 'utf8'));
const en = texts('en');
/** What a page in `lang` shows for `key`. */
const words = (lang: string, key: string, params: Record<string, Param> = {}) => translate(texts(lang), en, lang, key, params);

let served: ServedApp;
let base = '';
let finnish: BrowserContext;
let gameId = '';
const pageErrors: string[] = [];

const post = async (path: string, body: unknown) => {
  const reply = await served.post(path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply.body;
};

beforeAll(async () => {
  served = await serveApp(TOKEN, 3);
  base = served.base;
  // A Finnish browser (navigator.languages = fi-FI); rolls spoken are caught with their language, not spoken.
  finnish = await served.browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'fi-FI' });
  await finnish.addInitScript(() => {
    (window as unknown as { spoken: string[][] }).spoken = [];
    window.speechSynthesis.speak = (u: SpeechSynthesisUtterance) => void (window as unknown as { spoken: string[][] }).spoken.push([u.lang, u.text]);
  });
  gameId = String((await post('/api/games', { game: 'mexico', players: ['Ann', 'Ben'] })).id);
  await post(`/api/games/${gameId}/roll`, { values: [6, 5] });
  await post(`/api/games/${gameId}/actions`, { type: 'stop' });
}, 60_000);

afterAll(async () => {
  await served?.close();
  expect(pageErrors).toEqual([]);
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

async function open(path: string): Promise<Page> {
  const page = await finnish.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(`${base}${path}`);
  return page;
}

/** Chooses `lang` in the page's switch (which reloads the page) and waits for the page in it. */
async function choose(page: Page, lang: string) {
  await Promise.all([page.waitForEvent('load'), page.getByTestId('language-switch').selectOption(lang)]);
  await poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

describe('languages', () => {
  it('the history page follows the browser (Finnish), then the switch: Czech, Greek, kept across a reload', async () => {
    const page = await open('/history.html');
    await poll(() => page.locator('h1').textContent()).toBe(words('fi', 'history.title'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fi');
    expect(await page.getByTestId('language-switch').inputValue()).toBe('fi');
    expect(words('fi', 'history.title')).not.toBe(words('en', 'history.title'));
    // The game in the list: its name and roll count in Finnish.
    await poll(() => page.getByTestId(`history-game-${gameId}`).textContent()).toContain(`${words('fi', 'games.mexico.name')}: Ann, Ben`);
    expect(await page.getByTestId(`history-game-${gameId}`).textContent()).toContain(words('fi', 'history.rolls', { count: 1 }));

    await choose(page, 'cs');
    await poll(() => page.locator('h1').textContent()).toBe(words('cs', 'history.title'));
    await page.getByTestId(`history-game-${gameId}`).click();
    await poll(() => page.getByTestId('roll-seq').textContent()).toBe(words('cs', 'history.rollOf', { seq: 1, total: 1 }));
    await page.reload();
    await poll(() => page.locator('h1').textContent()).toBe(words('cs', 'history.title'));
    expect(await page.getByTestId('language-switch').inputValue()).toBe('cs');

    await choose(page, 'el');
    await poll(() => page.getByTestId(`history-game-${gameId}`).textContent()).toContain(words('el', 'games.mexico.name'));
    expect(await page.locator('h1').textContent()).toBe(words('el', 'history.title'));
    await page.screenshot({ path: '/tmp/languages-history-el.png' });
    await page.close();

    // The overlay has no switch: streaming software gives it ?lang=, which wins over the saved choice.
    const overlay = await open(`/overlay.html?game=${gameId}&lang=fi`);
    await poll(() => overlay.evaluate(() => document.documentElement.lang)).toBe('fi');
    // The board's status line in Finnish, worded by its key as on the scoreboard, not the server's English.
    const board = ((await (await fetch(`${base}/api/games/${gameId}`)).json()) as { board: { status: string; say: { key: string; params: Record<string, Param> } } }).board;
    expect(words('fi', board.say.key, board.say.params)).not.toBe(board.status);
    await poll(() => overlay.locator('#ov-status').textContent()).toBe(words('fi', board.say.key, board.say.params));
    await overlay.close();
  }, 60_000);

  it('the scoreboard, its table feed and the spoken roll are in the chosen language', async () => {
    for (const lang of ['fi', 'cs', 'el']) {
      const page = await open(`/?game=${gameId}&token=${TOKEN}`);
      await choose(page, lang);
      // Text from the HTML (data-i18n) and from the modules (the feed, put in words on the page).
      await poll(() => page.getByTestId('history-link').textContent()).toBe(words(lang, 'common.history'));
      expect(await page.locator('#turn .eyebrow').textContent()).toBe(words(lang, 'scoreboard.nowPlaying'));
      await poll(() => page.getByTestId('table-feed').textContent()).toContain(words(lang, 'feed.moves.stop', { name: 'Ann' }));
      expect(await page.getByTestId('table-feed').textContent()).toContain(words(lang, 'feed.threw', { name: 'Ann', dice: '6 5' }));
      expect(await page.getByTestId('table-feed').textContent()).toContain(words(lang, 'feed.heading'));
      await page.close();
    }
    // Greek is the choice now: a new roll is spoken in Greek, by a Greek voice.
    const page = await open(`/?game=${gameId}&token=${TOKEN}`);
    await page.evaluate(() => localStorage.setItem('dice-tower-speak', 'on'));
    await page.reload();
    await poll(() => page.getByTestId('speech-toggle').textContent()).toBe(words('el', 'trust.speakOn'));
    await poll(() => page.getByTestId('table-feed').textContent()).toContain(words('el', 'feed.moves.stop', { name: 'Ann' }));
    await post(`/api/games/${gameId}/roll`, { values: [3, 1] });
    await poll(() => page.evaluate(() => (window as unknown as { spoken: string[][] }).spoken)).toEqual([['el', words('el', 'speech.rolled', { name: 'Ben', dice: [3, 1] })]]);
    await poll(() => page.getByTestId('table-feed').textContent()).toContain(words('el', 'feed.threw', { name: 'Ben', dice: '3 1' }));
    await page.close();
  }, 90_000);

  it('the new-game form shows option labels and values in plain words of the language', async () => {
    const page = await open(`/?token=${TOKEN}`);
    await choose(page, 'fi');
    await page.getByTestId('new-game-button').click();
    await poll(() => page.getByTestId('no-game').isVisible()).toBe(true);
    await page.getByTestId('game-picker').selectOption('yatzy');
    await poll(() => page.getByTestId('game-summary').textContent()).toBe(words('fi', 'games.yatzy.rules'));
    const endTie = page.locator('[data-option="endTie"]');
    expect(await endTie.locator('label').textContent()).toBe(words('fi', 'games.yatzy.options.endTie.label'));
    expect(await page.getByTestId('option-endTie').locator('option').allTextContents()).toEqual(['shared', 'noWinner'].map((v) => words('fi', `games.yatzy.options.endTie.values.${v}`)));
    // The words are the Finnish file's own, not English or developer words ("End tie: shared/noWinner").
    expect(lookup(texts('fi'), 'games.yatzy.options.endTie.label')).not.toBe(lookup(en, 'games.yatzy.options.endTie.label'));
    expect(await page.getByTestId('option-endTie').inputValue()).toBe('shared');

    // A game other than Yatzy: every option's description in Finnish, none in English (they were left out before).
    await page.getByTestId('game-picker').selectOption('ten-thousand');
    await poll(() => page.getByTestId('game-summary').textContent()).toBe(words('fi', 'games.ten-thousand.rules'));
    const specs = GAMES['ten-thousand'].optionSpecs;
    expect(specs.length).toBeGreaterThan(10);
    for (const spec of specs) {
      const description = page.locator(`[data-option="${spec.name}"] .option-desc`);
      const finnish = lookup(texts('fi'), `games.ten-thousand.options.${spec.name}.description`);
      expect(typeof finnish).toBe('string');
      expect(await description.textContent()).toContain(finnish);
      expect(await description.textContent()).not.toContain(spec.description);
      expect(finnish).not.toBe(lookup(en, `games.ten-thousand.options.${spec.name}.description`));
    }
    await page.screenshot({ path: '/tmp/languages-options-fi.png' }); // docs/screenshots/option-descriptions-fi.png
    // Values that are lists are words of the language: "2 ja 5", 421's kinds of throw by the booklet's names.
    await page.getByTestId('game-picker').selectOption('drop-dead');
    await poll(() => page.getByTestId('option-deadFaces').locator('option').first().textContent()).toBe('2 ja 5');
    await page.getByTestId('game-picker').selectOption('four-two-one');
    await poll(() => page.getByTestId('option-categoryOrder').locator('option:checked').textContent()).toContain(words('fi', 'games.four-two-one.options.categoryOrder.parts.ladder'));
    await page.close();
  }, 60_000);
});
