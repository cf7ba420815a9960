/**
 * The winner screen as a dialog (winner-screen.js) and the room's sounds (sounds.js) in headless Chromium, without the flag that
 * lifts the autoplay policy: the overlay is muted unless its link says
 * ?sound=on; on the scoreboard the sound toggle's click makes the audio
 * context (a click is what lets Chrome start it), so a first cue with no click
 * (a TV scoreboard, a bot's roll) is not silent for good. Headless Chromium
 * starts contexts running even with no click, so a context left suspended
 * cannot be staged here; the check is that the click made a running one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Table } from '../../src/table.js';
import { serveApp, type ServedApp } from './served-app.js';

const TOKEN = 'browser-atmosphere-token-0123456';
let served: ServedApp;
let table: Table;
let base = '';
const pageErrors: string[] = [];

beforeAll(async () => {
  served = await serveApp(TOKEN, 7);
  ({ table, base } = served);
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });
const bodyData = (page: Page, key: string) => page.evaluate((k) => document.body.dataset[k] ?? '', key);
// A string, so the test's own transform leaves the page's import alone; the page's module is the one the scoreboard loaded.
const audioState = (page: Page) => page.evaluate<string>("import('/sounds.js').then((m) => m.audioState())");

async function openPage(path: string): Promise<Page> {
  const page = await (await served.browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
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

describe('the winner screen', () => {
  it('is a focused modal dialog put aside with Escape; a game ended without a result gets a notice with its reason', async () => {
    const id = table.create('shut-the-box', ['Ann', 'Bob'], { rounds: 1 }).id;
    const page = await openPage(`/?game=${id}&token=${TOKEN}`);
    await poll(() => bodyData(page, 'gameId')).toBe(id);
    table.end(id, 'host', 'Bob had to leave');
    const screen = page.getByTestId('game-over');
    await poll(() => screen.isVisible()).toBe(true);
    expect(await screen.getAttribute('role')).toBe('dialog');
    expect(await screen.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('result');
    expect(await page.getByTestId('winner').textContent()).toBe('Game ended without a result');
    expect(await page.getByTestId('ended-reason').textContent()).toBe('Bob had to leave');
    expect(await page.getByTestId('standings').count()).toBe(0);
    await page.keyboard.press('Escape');
    await poll(() => screen.isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
