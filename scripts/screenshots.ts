/**
 * The README's screenshots, into docs/screenshots/: every point of the game
 * night (#46) at 1920×1080, 1280×720 and on a 390 px phone, as
 * `<point>-<width>.png`, and the trust screens (#45) at 1280×720.
 * Runs the real app in-process on the simulated tower with a throw-away data
 * directory, and headless Debian Chromium through playwright-core.
 *
 *   npm run screenshots [-- outDir [point ...]]   (points: only those scenes)
 *
 * Each scene sets its game up through the app's HTTP API (as the host's
 * buttons would), opens its page at one size and returns what to shoot; it is
 * run once per size, on a fresh game, so no shot depends on another.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSimulator, DEFAULT_TRAY } from '../src/hardware/simulator/index.js';
import type { Tower } from '../src/hardware/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../src/vision/index.js';
import { Table } from '../src/table.js';
import { buildApp } from '../src/api/app.js';
import { openStore } from '../src/storage/index.js';
import { lasVegas, type LasVegasState } from '../src/games/las-vegas.js';
import type { GameView } from '../src/api/views.js';
import { launchChromium } from '../tests/browser/chromium.js';

type Size = 1920 | 1280 | 390;
const VIEWPORTS: Record<Size, { width: number; height: number }> = {
  1920: { width: 1920, height: 1080 },
  1280: { width: 1280, height: 720 },
  390: { width: 390, height: 844 },
};
const ALL_SIZES: readonly Size[] = [1920, 1280, 390];
/** A point of the README to photograph. */
interface Scene {
  /** The file name's stem: `<point>-<size>.png`. */
  readonly point: string;
  readonly sizes: readonly Size[];
  /** Sets the game up, brings `page` (already at its size, signed in) to the point and says what to shoot. */
  readonly show: (page: Page, size: Size) => Promise<Shot>;
}
interface Shot {
  /** An element to shoot alone; else the viewport (scrolled to `focus`, when given). */
  readonly element?: Locator;
  readonly focus?: Locator;
  readonly fullPage?: boolean;
  readonly omitBackground?: boolean;
}

const out = resolve(process.argv[2] ?? 'docs/screenshots');
const only = process.argv.slice(3);
mkdirSync(out, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-shots-'));
const store = openStore(dir);
store.startSession(Date.now() - 3 * 3600_000, 'earlier run');
store.startSession(Date.now(), 'screenshots');
const sim = createSimulator({ seed: 12, colours: ['red', 'blue', 'ivory'], rollMs: 0 });
// The dice-tumbling scene slows the tower down so the dice are caught in the air.
let towerMs = 0;
const tower: Tower = {
  kind: sim.tower.kind,
  async roll(count, dice) {
    if (towerMs > 0) await new Promise((done) => setTimeout(done, towerMs));
    return sim.tower.roll(count, dice);
  },
};
// The simulator's tray is the calibration: a normal die's edge tells Las Vegas's big dice from normal ones (as `serve` does).
const reader = createDiceReader({ ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize });
const table = new Table({ tower, camera: sim.camera, reader, store, botDelayMs: 0 });
const TOKEN = 'screenshots-operator-token';
const app = buildApp({ table, version: 'screenshots', operatorToken: TOKEN }, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

/** The operator's call to the app's API; the game view it answers with. */
async function api(path: string, body?: unknown): Promise<GameView> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const reply = (await res.json()) as GameView & { message?: string };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${reply.message ?? ''}`);
  return reply;
}
const newGame = (game: string, players: readonly string[], more: { bots?: number[]; options?: Record<string, unknown> } = {}) => api('/api/games', { game, players, ...more });
const roll = (id: string, values?: readonly number[]) => api(`/api/games/${id}/roll`, values ? { values } : undefined);
const act = (id: string, action: { type: string }) => api(`/api/games/${id}/actions`, action);
/** The first open decision of a type (a scorecard game: the first row it may score). */
const first = (view: GameView, type: string) => {
  const found = (view.actions as Array<{ type: string }>).find((a) => a.type === type);
  if (!found) throw new Error(`no ${type} open in ${view.game}`);
  return found;
};
/** A scorecard game played to its end through the API: each turn one throw, scored in its first open row. */
async function playToEnd(id: string): Promise<void> {
  for (let view = await roll(id); !view.result; view = await roll(id)) {
    view = await act(id, first(view, 'score'));
    if (view.result) return;
  }
}
const waitLoaded = (page: Page) => page.locator('[data-testid="camera-frame"][data-loaded="true"]').waitFor({ timeout: 30_000 });
const openGame = async (page: Page, id: string, query = '') => {
  await page.goto(`${base}/?game=${id}${query}`);
  await page.waitForFunction((gameId) => document.body.dataset.gameId === gameId, id);
};

// A finished game, on record from the earlier session, for the fairness panel, the history and the players page.
const earlier = await newGame('dice-poker', ['Ann', 'Bob']);
await playToEnd(earlier.id);

/** The game of the trust screens: a few turns in, one roll corrected, dice held and thrown again. */
async function trustGame(): Promise<string> {
  const { id } = await newGame('dice-poker', ['Ann', 'Bob', 'Cy']);
  for (let i = 0; i < 5; i++) await act(id, first(await roll(id), 'score'));
  const read = (await roll(id)).lastRoll!.values;
  await api(`/api/games/${id}/rolls/${6}/correction`, { values: read.map((v, i) => (i === 0 ? (v % 6) + 1 : v)), by: 'Kim', reason: 'the first die was read wrong' });
  await api(`/api/games/${id}/hold`, { dice: [0, 1] });
  await roll(id);
  return id;
}

/** A Bluff round in play: three cups typed in (a star among Bob's) and Ann's bid; Bob to bid. */
async function bluffRound(): Promise<{ id: string; bob: string }> {
  const { id } = await newGame('bluff', ['Ann', 'Bob', 'Cid']);
  for (const values of [[3, 5, 1, 5, 2, 4], [6, 5, 5, 2, 6, 3], [4, 4, 1, 6, 2, 5]]) await roll(id, values);
  await act(id, { type: 'bid', position: 4, face: 5 } as { type: string });
  return { id, bob: table.seatTokensOf(id)[1]! };
}

/** Las Vegas in its second round with a dozen dice or more on the casinos, the last throw by the tower (so its frame is shown) to place. */
async function lasVegasRound(): Promise<string> {
  const { id } = await newGame('las-vegas', ['Ann', 'Bob', 'Cat'], { options: { neutralDice: true, bigDice: true, chaserDice: true, slotMachine: true, deckSeed: 11 } });
  const state = () => table.get(id).state as LasVegasState;
  let seed = 46;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const onCasinos = () => state().casinos.reduce((a, c) => a + c.dice.length, 0);
  for (let n = 0; !(state().round === 2 && onCasinos() >= 12 && state().phase === 'throw'); n++) {
    if (n > 400) throw new Error('Las Vegas did not reach its second round');
    const choice = lasVegas.bot(state(), random);
    const request = lasVegas.diceRequest(state());
    if (choice !== null) await act(id, choice);
    else await api(`/api/games/${id}/roll`, { dice: request!.dice!.map((d) => ({ ...d, value: 1 + Math.floor(random() * 6) })) });
  }
  await roll(id);
  return id;
}

const scenes: readonly Scene[] = [
  {
    point: 'undo',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('shut-the-box', ['Ann', 'Ben']);
      await roll(id, [6, 3]);
      await act(id, { type: 'close', boxes: [9] } as { type: string });
      await openGame(page, id);
      await page.getByTestId('undo-button').waitFor();
      await page.keyboard.press('z');
      await page.waitForFunction(() => (document.querySelector('[data-testid="undo-note"]')?.textContent ?? '') !== '');
      return { focus: page.getByTestId('undo-note') };
    },
  },
  {
    point: 'end-game',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('shut-the-box', ['Eve', 'Fay']);
      await openGame(page, id);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByTestId('end-game-button').click();
      // The page lets the ended game go and shows the latest one in play; the picker lists only those.
      await page.waitForFunction((gameId) => document.body.dataset.gameId !== gameId, id);
      return { focus: page.getByTestId('game-select') };
    },
  },
  {
    point: 'winner',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('yatzy', ['Ann', 'Bea', 'Cy']);
      await playToEnd(id);
      await openGame(page, id);
      await page.getByTestId('rematch-button').waitFor();
      return {};
    },
  },
  {
    point: 'players',
    sizes: ALL_SIZES,
    async show(page) {
      await page.goto(`${base}/players.html?name=Ann`);
      await page.getByTestId('player-games').waitFor();
      return {};
    },
  },
  {
    point: 'table-feed',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('yatzy', ['Ann', 'Robo'], { bots: [1] });
      await roll(id, [6, 6, 6, 5, 2]);
      await act(id, { type: 'score', category: 'chance' } as { type: string });
      // Robo, the bot, plays its turn on its own with the tower; its lines carry the mark.
      await openGame(page, id);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="table-feed"] .bot-mark').length >= 2);
      return { focus: page.getByTestId('table-feed') };
    },
  },
  {
    point: 'las-vegas-board',
    sizes: ALL_SIZES,
    async show(page) {
      const id = await lasVegasRound();
      await openGame(page, id);
      await page.getByTestId('lv-board').waitFor();
      await waitLoaded(page);
      return {};
    },
  },
  {
    point: 'bluff-phone',
    sizes: [390],
    async show(page) {
      const { id, bob } = await bluffRound();
      await page.goto(`${base}/player.html?game=${id}&seat=1&token=${bob}`);
      await page.getByTestId('bid-picker').waitFor();
      await page.getByTestId('bid-count-up').click();
      return { fullPage: true };
    },
  },
  {
    point: 'bluff-table',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await bluffRound();
      await openGame(page, id);
      await page.getByTestId('bluff-cups').waitFor();
      return {};
    },
  },
  {
    point: 'dice-tumbling',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('yatzy', ['Ann', 'Bob']);
      await openGame(page, id);
      towerMs = 4000;
      await page.getByTestId('roll-button').click();
      await page.locator('.die.rolling').first().waitFor();
      await page.waitForTimeout(200);
      return { focus: page.getByTestId('dice') };
    },
  },
  {
    point: 'finnish',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await newGame('yatzy', ['Aino', 'Eero']);
      await roll(id, [5, 5, 5, 2, 2]);
      await act(id, { type: 'score', category: 'fullHouse' } as { type: string });
      await roll(id);
      await openGame(page, id, '&lang=fi');
      await waitLoaded(page);
      return {};
    },
  },
  {
    point: 'greek',
    sizes: ALL_SIZES,
    async show(page) {
      const { id } = await bluffRound();
      await openGame(page, id, '&lang=el');
      await page.getByTestId('bluff-cups').waitFor();
      return {};
    },
  },
  // The trust screens (#45), on a 1280×720 screen (at 1920 their camera frames make PNGs of half a megabyte).
  {
    point: 'scoreboard',
    sizes: [1280],
    async show(page) {
      await openGame(page, await trustGame());
      await waitLoaded(page);
      await page.getByTestId('fairness-overall').waitFor({ state: 'attached' });
      return {};
    },
  },
  {
    point: 'fairness',
    sizes: [1280],
    async show(page) {
      await openGame(page, await trustGame());
      await page.locator('[data-testid="fairness-details"] summary').click();
      await page.getByTestId('fairness').scrollIntoViewIfNeeded();
      return { element: page.getByTestId('fairness') };
    },
  },
  {
    point: 'correction',
    sizes: [1280],
    async show(page) {
      await openGame(page, await trustGame());
      await waitLoaded(page);
      await page.getByTestId('correct-button').click();
      await page.getByTestId('correct-die-2').selectOption('4');
      await page.getByTestId('correct-reason').fill('the third die is a four, the camera saw a one');
      await page.getByTestId('correct-by').fill('Kim');
      return {};
    },
  },
  {
    point: 'history',
    sizes: [1280],
    async show(page) {
      const id = await trustGame();
      await page.goto(`${base}/history.html?game=${id}&roll=6`);
      await page.getByTestId('roll-correction').waitFor();
      await page.locator('[data-testid="history-frame"]').evaluate((img) => (img as HTMLImageElement).decode());
      return {};
    },
  },
  {
    point: 'overlay',
    sizes: [1280],
    async show(page) {
      await page.goto(`${base}/overlay.html?game=${await trustGame()}`);
      await page.getByTestId('overlay-scores').locator('li').first().waitFor();
      return { omitBackground: true };
    },
  },
];

const browser = await launchChromium();
const shots: Array<{ path: string; bytes: number }> = [];
try {
  // One signed-in browser per size: the operator's link keeps the token in it.
  const contexts = new Map<Size, BrowserContext>();
  for (const size of ALL_SIZES) {
    const phone = size === 390;
    const context = await browser.newContext({ viewport: VIEWPORTS[size], ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await page.goto(`${base}/?token=${TOKEN}`, { waitUntil: 'load' });
    await page.close();
    contexts.set(size, context);
  }
  for (const scene of scenes.filter((s) => only.length === 0 || only.includes(s.point))) {
    for (const size of scene.sizes) {
      const page = await contexts.get(size)!.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      const shot = await scene.show(page, size);
      if (shot.focus) await shot.focus.scrollIntoViewIfNeeded();
      // Let the dice land, the winner's standings rise and the fonts settle (the tumbling dice are shot in the air).
      await page.waitForTimeout(scene.point === 'dice-tumbling' ? 0 : 1200);
      const path = join(out, `${scene.point}-${size}.png`);
      const options = { path, scale: 'css' as const, omitBackground: shot.omitBackground ?? false };
      await (shot.element ? shot.element.screenshot(options) : page.screenshot({ ...options, fullPage: shot.fullPage ?? false }));
      towerMs = 0;
      // The tower may still be rolling for the tumbling scene: wait for it before the next scene's rolls.
      await page.waitForFunction(() => !document.querySelector('.die.rolling'), undefined, { timeout: 30_000 });
      if (errors.length > 0) throw new Error(`${scene.point} at ${size}: ${errors.join('; ')}`);
      await page.close();
      shots.push({ path, bytes: statSync(path).size });
    }
  }
} finally {
  await browser.close();
  await app.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
for (const s of shots) process.stdout.write(`${s.path} ${Math.round(s.bytes / 1024)} KB\n`);
process.stdout.write(`${JSON.stringify({ screenshots: shots.length, dir: out })}\n`);
