/**
 * The Las Vegas board and the game night's atmosphere (#46) in headless
 * Chromium against the real app: the simulated tower throws each player's
 * coloured dice (a big die, chasers, neutral white), the camera frame is read
 * by the real reader, and the host plays a whole game by clicking the roll
 * button, the casinos and (for a chaser) a die on a casino. Checked on the way:
 * each player's dice drawn in their colour (the big die bigger), the money,
 * no scrolling at 1920×1080 and 1280×720, the camera frame at least a third of
 * the screen wide, the dice tumbling and landing (and still under reduced
 * motion), the sound toggle, and the winner screen whose Rematch starts a new game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../src/hardware/index.js';
import { DEFAULT_TRAY } from '../../src/hardware/simulator/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { ALL_MODULES, billValue, lasVegas, money, type LasVegasState } from '../../src/games/las-vegas.js';
import { seededRandom } from '../games/harness.js';

const TOKEN = 'browser-las-vegas-board-token-01';
const OPTIONS = { neutralDice: true, bigDice: true, chaserDice: true, slotMachine: true, deckSeed: 11 };
let app: FastifyInstance;
let table: Table;
let base = '';
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sim = createSimulator({ seed: 46, colours: ['white'], rollMs: 0 });
  // The simulator's tray is the calibration: a normal die's edge tells big dice from normal ones (as `serve` does).
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader({ ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize }), botDelayMs: 0 });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${base}/?token=${TOKEN}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });
const lv = (id: string) => table.get(id).state as LasVegasState;
const bodyData = (key: string) => page.evaluate((k) => document.body.dataset[k] ?? '', key);

/** Nothing needs scrolling: not the page, not the board, not a casino (whose overflow is clipped). */
async function fitsWithoutScrolling(): Promise<{ page: boolean; board: boolean; casinos: boolean }> {
  return page.evaluate(() => {
    const board = document.querySelector('[data-testid="lv-board"]') as HTMLElement;
    const casinos = Array.from(document.querySelectorAll<HTMLElement>('.lv-casino, .lv-info'));
    return {
      page: document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollWidth <= window.innerWidth,
      board: board.scrollHeight <= board.clientHeight + 1 && board.getBoundingClientRect().bottom <= window.innerHeight,
      casinos: casinos.length > 0 && casinos.every((c) => c.scrollHeight <= c.clientHeight + 1),
    };
  });
}

/** Records, from now on, whether dice were drawn tumbling and landing. */
const watchMotion = () =>
  page.evaluate(() => {
    const seen = { tumbling: false, landed: false };
    (window as unknown as { motion: typeof seen }).motion = seen;
    new MutationObserver(() => {
      seen.tumbling ||= document.querySelector('.lv-die.tumbling') !== null;
      seen.landed ||= document.querySelector('.lv-die.landed') !== null;
    }).observe(document.body, { subtree: true, childList: true });
  });

/** One host step by the board: roll, place by clicking a casino, or chase a die off. Returns what it did. */
async function step(id: string): Promise<string> {
  const s = lv(id);
  const version = table.get(id).version;
  if (s.phase === 'throw' || s.phase === 'spareThrow' || s.phase === 'reroll') {
    await page.getByTestId('roll-button').click();
  } else if (s.phase === 'chase') {
    await page.locator('[data-testid^="lv-chase-"]').first().click();
  } else {
    const casino = page.locator('.lv-casino[role="button"]').first();
    if ((await casino.count()) > 0) await casino.click();
    else await page.locator('[data-testid^="lv-slot-place-"]').first().click();
  }
  await poll(() => table.get(id).version).toBeGreaterThan(version);
  return s.phase;
}

/** One move of the game's own bot, the dice typed in with their colours (no camera needed to fill the board). */
async function botStep(id: string, random: () => number): Promise<void> {
  const s = lv(id);
  const choice = lasVegas.bot(s, random);
  const request = lasVegas.diceRequest(s);
  if (choice === null && request) await table.roll(id, undefined, request.dice!.map((d) => ({ ...d, value: 1 + Math.floor(random() * 6) })));
  else if (choice !== null) table.act(id, choice);
  else throw new Error(`no move in phase ${s.phase}`);
}

describe('the Las Vegas board', () => {
  it('plays a whole game by clicking casinos: coloured dice, money, no scrolling, a large camera frame, sounds, the winner screen and a rematch', async () => {
    const res = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ game: 'las-vegas', players: ['Ann', 'Bob'], options: OPTIONS }) });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    await page.goto(`${base}/?game=${id}`);
    await poll(() => page.getByTestId('lv-board').isVisible()).toBe(true);
    // The generic table, its panels and the place drop-down are gone for Las Vegas.
    expect(await page.getByTestId('table-board').isVisible()).toBe(false);
    expect(await page.getByTestId('throw-info').isVisible()).toBe(false);
    // Player colours are swatches drawn in the colour, not words.
    for (const [seat, colour] of [[0, 'red'], [1, 'green']] as const) {
      const swatch = page.getByTestId(`lv-swatch-${seat}`);
      expect(await swatch.getAttribute('data-colour')).toBe(colour);
      expect(await swatch.textContent()).toBe('');
      expect(await swatch.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(await page.getByTestId(`lv-swatch-${1 - seat}`).evaluate((el) => getComputedStyle(el).backgroundColor));
    }
    // Six casinos and the slot machine, each with its bills.
    expect(await page.locator('.lv-casino').count()).toBe(7);
    for (let n = 1; n <= 7; n++) expect(await page.getByTestId(`lv-bills-${n}`).locator('[data-testid="lv-bill"]').count()).toBe(lv(id).casinos[n - 1]!.bills.length);

    // Sound: on by default on the scoreboard, a roll plays the roll cue; the toggle is kept across a reload.
    const toggle = page.getByTestId('sound-toggle');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await watchMotion();
    expect(await step(id)).toBe('throw');
    await poll(() => bodyData('lastSound')).toBe('roll');
    const motion = await page.evaluate(() => (window as unknown as { motion: { tumbling: boolean; landed: boolean } }).motion);
    expect(motion).toEqual({ tumbling: true, landed: true });
    // Under reduced motion the dice do not move.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.locator('.lv-throw .lv-die svg').first().evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    // The throw is drawn in the thrower's colours: the big red die bigger, purple chasers, white neutral dice.
    const thrown = page.locator('.lv-throw .lv-die');
    const colours = await thrown.evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.big === 'true' ? 'big ' : ''}${(e as HTMLElement).dataset.colour}`).sort());
    expect(colours).toEqual(['big red', 'purple', 'purple', 'red', 'red', 'red', 'red', 'red', 'white', 'white', 'white', 'white'].sort());
    const size = (sel: string) => page.locator(sel).first().evaluate((el) => el.getBoundingClientRect().width);
    expect(await size('.lv-throw .lv-die.big')).toBeGreaterThan((await size('.lv-throw .lv-die:not(.big)')) * 1.2);
    // A roll is shown: the camera frame is at least a third of the screen wide.
    await poll(() => page.getByTestId('camera-frame').isVisible()).toBe(true);
    const frameWidth = await page.locator('#frame').evaluate((el) => el.getBoundingClientRect().width);
    expect(frameWidth).toBeGreaterThanOrEqual(1920 / 3);

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await page.reload();
    await poll(() => page.getByTestId('lv-board').isVisible()).toBe(true);
    expect(await page.getByTestId('sound-toggle').getAttribute('aria-pressed')).toBe('false');
    // Placing by clicking casino: Ann's dice of that value go there, in red.
    // A value no chaser shows (a chaser would ask for a die to chase first); slots 0-5 are Ann's red dice, 6-7 her chasers.
    const thrownNow = lv(id).thrown;
    const value = thrownNow.slice(0, 6).find((v) => v !== null && v !== thrownNow[6] && v !== thrownNow[7]);
    expect(value).toBeDefined();
    const placed = thrownNow.slice(0, 6).filter((v) => v === value).length;
    await page.getByTestId(`lv-casino-${value}`).click();
    await poll(() => lv(id).current).toBe(1);
    expect(await bodyData('sounds')).toBe('');
    await poll(() => page.getByTestId(`lv-pile-${value}`).locator('.lv-die[data-colour="red"]').count()).toBe(placed);
    await page.getByTestId('sound-toggle').click();
    expect(await page.getByTestId('sound-toggle').getAttribute('aria-pressed')).toBe('true');

    // Play on to the end; at round 2 the board is checked at both sizes (the README's shots: scripts/screenshots.ts).
    let checked = false;
    let chases = 0;
    // Until the game's state is over (the page may show the winner screen a moment later).
    for (let n = 0; lv(id).phase !== 'over'; n++) {
      expect(n).toBeLessThan(400);
      const s = lv(id);
      // Checked with a dozen dice or more on the casinos and a throw to place.
      if (!checked && s.round === 2 && s.phase === 'place' && s.casinos.reduce((a, c) => a + c.dice.length, 0) >= 12) {
        for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
          await page.setViewportSize({ width, height });
          await poll(() => fitsWithoutScrolling()).toEqual({ page: true, board: true, casinos: true });
          expect(await page.locator('#frame').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(width / 3);
        }
        checked = true;
      }
      // Every die on the casinos is drawn in its owner's colour; the money is the board's number, not its label.
      const placedDice = s.casinos.flatMap((c, i) => c.dice.map((d) => `${i + 1}:${d.big ? 'big ' : ''}${d.colour}`)).sort();
      await poll(async () =>
        (await page.locator('[data-testid^="lv-pile-"] .lv-die').evaluateAll((els) => els.map((e) => `${e.closest('[data-testid^="lv-pile-"]')!.getAttribute('data-testid')!.slice(8)}:${(e as HTMLElement).dataset.big === 'true' ? 'big ' : ''}${(e as HTMLElement).dataset.colour}`))).sort(),
      ).toEqual(placedDice);
      await poll(async () => (await page.getByTestId('lv-money-0').textContent())!.replace(/\D/g, '')).toBe(String(money(lv(id))[0]));
      const did = await step(id);
      if (did === 'chase') chases++;
      // A move (not the last) plays the move cue, now that the sound is on again.
      if (did === 'place' && lv(id).phase !== 'over') await poll(() => bodyData('lastSound')).toBe('score');
    }
    expect(checked).toBe(true);
    expect(chases).toBeGreaterThan(0);
    await poll(() => page.getByTestId('game-over').isVisible()).toBe(true);

    // The winner screen: the standings with each player's money, best first, and the win cue.
    const scores = lasVegas.result(lv(id))!.scores;
    expect(await page.getByTestId('standings').locator('li').count()).toBe(2);
    const best = scores[0]! >= scores[1]! ? 0 : 1;
    expect(await page.getByTestId('standings').locator('li').first().getAttribute('data-testid')).toBe(`final-${best}`);
    expect(await page.getByTestId('winner').textContent()).toContain(['Ann', 'Bob'][best]);
    await poll(() => bodyData('lastSound')).toBe('win');
    // Rematch: a new Las Vegas game with the same players, shown at once.
    await page.getByTestId('rematch-button').click();
    await poll(() => bodyData('gameId')).not.toBe(id);
    const rematch = table.get(await bodyData('gameId'));
    expect(rematch.game).toBe('las-vegas');
    expect([...rematch.players].sort()).toEqual(['Ann', 'Bob']);
    await poll(() => page.getByTestId('game-over').isVisible()).toBe(false);
    await poll(() => page.locator('.lv-casino').count()).toBe(7);
    expect(pageErrors).toEqual([]);
  }, 600_000);

  it('five players with every module still fit at 1280×720 and 1920×1080 when most dice lie on the casinos', async () => {
    const game = table.create('las-vegas', ['Ann', 'Bob', 'Cat', 'Dan', 'Eve'], { ...ALL_MODULES, extraPlayerDice: true, deckSeed: 5 });
    const random = seededRandom(5);
    const diceLeft = () => lv(game.id).players.reduce((a, p) => a + p.hand.length, 0);
    while (lv(game.id).round === 1 && diceLeft() > 10) await botStep(game.id, random);
    expect(lv(game.id).casinos.reduce((a, c) => a + c.dice.length, 0)).toBeGreaterThan(25);
    await page.goto(`${base}/?game=${game.id}`);
    for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
      await page.setViewportSize({ width, height });
      await poll(() => page.locator('[data-testid^="lv-pile-"] .lv-die').count()).toBe(lv(game.id).casinos.reduce((a, c) => a + c.dice.length, 0));
      await poll(() => fitsWithoutScrolling()).toEqual({ page: true, board: true, casinos: true });
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('draws the solo game with its opponent colours and the secret-colours variant: a secret colour is never shown until the end', async () => {
    const create = async (players: string[], options: object) => {
      const res = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ game: 'las-vegas', players, options }) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    /** The colour-money panel as drawn: colour → the money's digits. */
    const colourMoneyShown = () =>
      page.getByTestId('lv-colour-money').locator('li').evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.colour}:${e.textContent!.replace(/\D/g, '')}`));
    const colourMoneyOf = (id: string) => Object.entries(lv(id).colourBills).map(([colour, ids]) => `${colour}:${ids.reduce((a, bill) => a + billValue(bill), 0)}`);
    const random = seededRandom(9);

    // Solo: played against the opponent colours' money, drawn beside the casinos as it grows.
    const solo = await create(['Sol'], { mode: 'solo' });
    await page.goto(`${base}/?game=${solo}`);
    await poll(() => page.locator('.lv-casino').count()).toBe(6);
    expect(await page.getByTestId('lv-swatch-0').getAttribute('data-colour')).toBe('red');
    while (Object.values(lv(solo).colourBills).every((ids) => ids.length === 0)) await botStep(solo, random);
    await poll(colourMoneyShown).toEqual(colourMoneyOf(solo));
    expect(await page.getByTestId('lv-info').textContent()).toContain('Opponent colours');

    // Secret colours: the players' colours are never on the page while the game runs (not as words, swatches or attributes).
    const secret = await create(['Ann', 'Bob'], { mode: 'secretColours' });
    await page.goto(`${base}/?game=${secret}`);
    await poll(() => page.getByTestId('lv-swatch-1').textContent()).toBe('?');
    const colourWords = /red|green|blue|black|white|yellow|grey|purple|orange|pink/;
    let colourMoneyChecked = false;
    for (let n = 0; lv(secret).phase !== 'over'; n++) {
      expect(n).toBeLessThan(500);
      const version = table.get(secret).version;
      await poll(() => page.evaluate(() => Number(document.body.dataset.version ?? -1))).toBe(version);
      expect(await page.getByTestId('lv-players').innerHTML()).not.toMatch(colourWords);
      if (!colourMoneyChecked && Object.values(lv(secret).colourBills).some((ids) => ids.length > 0)) {
        await poll(colourMoneyShown).toEqual(colourMoneyOf(secret));
        expect(await page.getByTestId('lv-info').textContent()).toContain('Bills won by colour');
        colourMoneyChecked = true;
      }
      await botStep(secret, random);
    }
    expect(colourMoneyChecked).toBe(true);
    // At the end each player's colours are revealed, as their swatches.
    await page.getByTestId('show-final-board').click();
    for (const [seat, p] of lv(secret).players.entries()) {
      await poll(() => page.locator(`[data-testid="lv-swatch-${seat}"]`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.colour).sort())).toEqual([...p.secretColours].sort());
    }
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
