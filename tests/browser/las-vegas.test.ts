/**
 * Las Vegas on the scoreboard in a real browser (Debian's Chromium through
 * playwright-core): three players, every module. The dice are typed in on
 * the page with their colours (what the operator does when the camera is
 * unsure), a placement is a click on a casino; the seat's private page shows
 * its own cards and plays them; the board shows casinos, the slot machine,
 * money, round and turn.
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
import { ALL_MODULES, type LasVegasState } from '../../src/games/las-vegas.js';

let app: FastifyInstance;
let table: Table;
let base = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sim = createSimulator({ seed: 7, colours: ['white'], rollMs: 0 });
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

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 50 });

describe('Las Vegas on the scoreboard', () => {
  it('types in coloured dice, places them by clicking a casino, shows the casinos; a seat plays its card on its private page', async () => {
    const res = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'las-vegas', players: ['Ann', 'Bob', 'Cat'], options: { ...ALL_MODULES, deckSeed: 3 } }) });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    await page.goto(`${base}/?game=${id}`);
    // 3 players with neutral dice: the start player first throws the 2 spare white dice.
    await page.locator('#manual summary').click();
    await poll(() => page.getByTestId('manual-colours').textContent()).toBe('Dice in order: white, white');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/games/${id}/roll`));
    await page.getByTestId('manual-values').fill('34');
    await page.getByTestId('manual-submit').click();
    expect((await sent).postDataJSON()).toEqual({ dice: [{ colour: 'white', size: 'normal', value: 3 }, { colour: 'white', size: 'normal', value: 4 }] });
    // Ann's throw: big red, 5 red, 2 purple chasers, 2 white, in that order.
    await poll(() => page.getByTestId('manual-colours').textContent()).toBe('Dice in order: big red, red, red, red, red, red, purple, purple, white, white');
    if (!(await page.locator('#manual').evaluate((d) => (d as HTMLDetailsElement).open))) await page.locator('#manual summary').click();
    await page.getByTestId('manual-values').fill('6611223456');
    await page.getByTestId('manual-submit').click();
    await poll(() => (table.get(id).state as LasVegasState).phase).toBe('place');
    // Every casino with a thrown value can be clicked, and the slot machine offers each value; no drop-down, no card on the public page.
    const placeable = page.locator('.lv-casino[role="button"]');
    await poll(() => placeable.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['lv-casino-1', 'lv-casino-2', 'lv-casino-3', 'lv-casino-4', 'lv-casino-5', 'lv-casino-6']);
    expect(await page.locator('[data-testid^="lv-slot-place-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual([1, 2, 3, 4, 5, 6].map((v) => `lv-slot-place-${v}`));
    expect(await page.getByTestId('action-select-place').count()).toBe(0);
    expect((await page.getByTestId('decisions').textContent()) ?? '').not.toMatch(/play card|earlyPayout|early payout/i);
    await page.getByTestId('lv-casino-6').click();
    await poll(() => (table.get(id).state as LasVegasState).current).toBe(1);
    // Ann's 6s lie on casino 6 in their colours: her big red die, a red one and her white (neutral) one.
    const pile = page.getByTestId('lv-pile-6');
    await poll(() => pile.locator('.lv-die').evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.big === 'true' ? 'big ' : ''}${(e as HTMLElement).dataset.colour}`))).toEqual(['big red', 'red', 'white']);
    expect(await page.getByTestId('lv-casino-7').isVisible()).toBe(true);
    expect((await page.getByTestId('round-info').textContent()) ?? '').toMatch(/Round\s*1 of 4/);

    // Bob's private page shows his own two cards and offers to play them; the big screen shows them hidden.
    const seats = (await (await fetch(`${base}/api/games/${id}/seats`)).json()) as Array<{ path: string }>;
    const bob = await (await browser.newContext()).newPage();
    bob.on('pageerror', (err) => pageErrors.push(err.message));
    await bob.goto(base + seats[1]!.path);
    const cards = (table.get(id).state as LasVegasState).players[1]!.cards as string[];
    // (Deck seed 3 deals Bob «Tie Winner» and «Middle Bill»: both playable before his first throw.)
    expect(cards).toEqual(['tieWinner', 'middleBill']);
    await poll(() => bob.getByTestId('seat-actions').locator('button').first().textContent()).toBe('Play Tie Winner');
    await bob.getByTestId('seat-actions').locator('button').first().click();
    await poll(() => (table.get(id).state as LasVegasState).players[1]!.cards).toEqual(['middleBill']);
    expect((table.get(id).state as LasVegasState).players[1]!.tieWinner).toBe(true);
    expect((await page.textContent('body')) ?? '').toContain('hidden');
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
