/**
 * The live scoreboard in a real browser (Debian's Chromium through
 * playwright-core) against the real app, served in-process on a free port
 * with the simulated tower and the OpenCV reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { CATEGORIES } from '../../src/games/index.js';
import type { GameView } from '../../src/api/views.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = '/tmp/scoreboard.png';
const SCREENSHOT_OVER = '/tmp/scoreboard-over.png';

let app: FastifyInstance;
let base = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

type Board = NonNullable<GameView['board']>;

interface Reply<T> {
  status: number;
  body: T;
}

async function post<T = GameView>(path: string, body?: unknown): Promise<Reply<T>> {
  const init: RequestInit = { method: 'POST' };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(base + path, init);
  return { status: res.status, body: (await res.json()) as T };
}

/** A POST that must succeed; returns the game view. */
async function ok(path: string, body?: unknown): Promise<GameView> {
  const reply = await post(path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply.body;
}

async function getGame(id: string): Promise<GameView> {
  const res = await fetch(`${base}/api/games/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as GameView;
}

const board = (view: GameView): Board => {
  if (!view.board) throw new Error(`game ${view.id} has no board`);
  return view.board;
};

/** expect.poll with room for a roll through OpenCV on a slow machine. */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 50 });

const text = (testId: string, p: Page = page) => p.getByTestId(testId).textContent();

/** The dice as the page shows them. */
const pageDice = (p: Page = page) =>
  p.evaluate(() =>
    [0, 1, 2, 3, 4].map((i) => {
      const el = document.querySelector<HTMLElement>(`[data-testid="die-${i}"]`);
      return { value: el?.dataset.value ?? 'missing', held: el?.dataset.held ?? 'missing' };
    }),
  );

const expectedDice = (view: GameView) => board(view).dice.map((v, i) => ({ value: v === null ? '' : String(v), held: String(board(view).held[i]) }));

/** The camera frame as the page shows it: image, outlines and where the first outline sits on screen. */
const pageFrame = () =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="camera-frame"]');
    const overlay = document.querySelector<SVGSVGElement>('[data-testid="camera-overlay"]');
    const outlines = overlay ? Array.from(overlay.querySelectorAll<SVGGElement>('[data-testid="die-outline"]')) : [];
    const imgBox = img?.getBoundingClientRect();
    const first = outlines[0]?.querySelector('polygon')?.getBoundingClientRect();
    return {
      seq: img?.dataset.seq ?? null,
      loaded: Boolean(img && img.complete && img.naturalWidth > 0 && img.dataset.loaded === 'true'),
      natural: img ? [img.naturalWidth, img.naturalHeight] : null,
      viewBox: overlay?.getAttribute('viewBox') ?? null,
      values: outlines.map((o) => o.dataset.value ?? ''),
      imgBox: imgBox ? { x: imgBox.x, y: imgBox.y, width: imgBox.width, height: imgBox.height } : null,
      firstCentre: first ? { x: first.x + first.width / 2, y: first.y + first.height / 2 } : null,
    };
  });

async function expectFrameShown(view: GameView): Promise<void> {
  const roll = view.lastRoll;
  if (!roll?.reading || !roll.frameUrl) throw new Error('expected a tower roll with a camera reading');
  const { reading } = roll;
  expect(reading.dice).toHaveLength(roll.values.length);
  await poll(async () => {
    const f = await pageFrame();
    return { seq: f.seq, loaded: f.loaded, natural: f.natural, viewBox: f.viewBox, values: f.values };
  }).toEqual({
    seq: String(roll.seq),
    loaded: true,
    natural: [reading.width, reading.height],
    viewBox: `0 0 ${reading.width} ${reading.height}`,
    values: reading.dice.map((d) => String(d.value)),
  });
  // The overlay is aligned with the picture: the first outline sits where its die is in the frame.
  const f = await pageFrame();
  const die = reading.dice[0];
  if (!f.imgBox || !f.firstCentre || !die) throw new Error('frame or outline missing');
  const box = die.box;
  const cx = (Math.min(...box.map((p) => p.x)) + Math.max(...box.map((p) => p.x))) / 2;
  const cy = (Math.min(...box.map((p) => p.y)) + Math.max(...box.map((p) => p.y))) / 2;
  expect(f.firstCentre.x).toBeCloseTo(f.imgBox.x + (cx * f.imgBox.width) / reading.width, 0);
  expect(f.firstCentre.y).toBeCloseTo(f.imgBox.y + (cy * f.imgBox.height) / reading.height, 0);
}

beforeAll(async () => {
  const sim = createSimulator({ seed: 7, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test' }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  base = `http://127.0.0.1:${address.port}`;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('live scoreboard', () => {
  let gameId = '';

  it('shows a whole turn driven through the API: dice, holds, camera outlines, score and the next player', async () => {
    await page.goto(base);
    await poll(() => page.getByTestId('no-game').isVisible()).toBe(true);
    await poll(() => text('tower-status')).toContain('Tower ready');

    const created = await post('/api/games', { game: 'dice-poker', players: ['Ada', 'Grace'] });
    expect(created.status).toBe(201);
    gameId = created.body.id;
    await poll(() => text('current-player')).toBe('Ada');
    await poll(() => page.getByTestId('throw-info').getAttribute('data-throws')).toBe('0');
    await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
    expect(await pageDice()).toEqual(expectedDice(created.body));

    // Throw 1: five dice from the tower, read by the camera.
    let view = await ok(`/api/games/${gameId}/roll`);
    expect(board(view).throwsTaken).toBe(1);
    await poll(() => pageDice()).toEqual(expectedDice(view));
    await expectFrameShown(view);
    expect(await text('throw-info')).toContain('Throw 1 of 3');

    // Hold two dice: the page marks them.
    view = await ok(`/api/games/${gameId}/hold`, { dice: [0, 2] });
    await poll(() => pageDice()).toEqual(expectedDice(view));
    expect((await pageDice()).map((d) => d.held)).toEqual(['true', 'false', 'true', 'false', 'false']);
    await expect(page.getByTestId('die-0').textContent()).resolves.toContain('HELD');

    // Throw 2: only the three free dice go in; the frame shows three outlines.
    const heldValues = [board(view).dice[0], board(view).dice[2]];
    view = await ok(`/api/games/${gameId}/roll`);
    expect(view.lastRoll?.values).toHaveLength(3);
    expect([board(view).dice[0], board(view).dice[2]]).toEqual(heldValues);
    await poll(() => pageDice()).toEqual(expectedDice(view));
    await expectFrameShown(view);
    await poll(() => text('throw-info')).toContain('Throw 2 of 3');

    // Every row the player may choose shows the points it would give.
    const choices = board(view).choices;
    expect(choices.length).toBe(CATEGORIES.length);
    for (const c of choices) {
      const cell = page.getByTestId(`cell-0-${c.category}`);
      await poll(() => cell.getAttribute('data-state')).toBe('choice');
      expect(await cell.textContent()).toBe(String(c.points));
    }
    // Grace's column offers nothing: it is not her turn.
    expect(await page.getByTestId('cell-1-chance').getAttribute('data-state')).toBe('empty');
    await page.screenshot({ path: SCREENSHOT });

    // Score the best row: the cell and the total show the API's points, and the turn passes.
    const best = choices.reduce((a, b) => (b.points > a.points ? b : a));
    view = await ok(`/api/games/${gameId}/score`, { category: best.category });
    const ada = board(view).players[0];
    expect(ada?.card[best.category as keyof typeof ada.card]).toBe(best.points);
    const scored = page.getByTestId(`cell-0-${best.category}`);
    await poll(() => scored.getAttribute('data-state')).toBe('filled');
    expect(await scored.textContent()).toBe(String(best.points));
    await poll(() => text('total-0')).toBe(String(ada?.totals.total));
    expect(ada?.totals.total).toBe(best.points);
    await poll(() => text('current-player')).toBe('Grace');
    await poll(() => page.getByTestId('player-1').getAttribute('data-current')).toBe('true');
    expect(await page.getByTestId('player-0').getAttribute('data-current')).toBe('false');
    expect(await page.getByTestId('throw-info').getAttribute('data-throws')).toBe('0');
    await poll(() => pageDice()).toEqual(expectedDice(view));
    expect(pageErrors).toEqual([]);
  });

  it('holds and releases a die when it is clicked, and scores a row when its points are clicked', async () => {
    const view = await ok(`/api/games/${gameId}/roll`);
    await poll(() => pageDice()).toEqual(expectedDice(view));

    await page.getByTestId('die-1').click();
    await poll(async () => board(await getGame(gameId)).held).toEqual([false, true, false, false, false]);
    await poll(() => page.getByTestId('die-1').getAttribute('data-held')).toBe('true');

    await page.getByTestId('die-1').click();
    await poll(async () => board(await getGame(gameId)).held[1]).toBe(false);
    await poll(() => page.getByTestId('die-1').getAttribute('data-held')).toBe('false');

    const chance = board(view).choices.find((c) => c.category === 'chance');
    expect(chance).toBeDefined();
    await page.getByTestId('cell-1-chance').getByRole('button').click();
    await poll(async () => board(await getGame(gameId)).players[1]?.card.chance).toBe(chance?.points);
    await poll(() => text('cell-1-chance')).toBe(String(chance?.points));
    await poll(() => text('current-player')).toBe('Ada');
    await poll(() => text('round-info')).toBe('Round 2 of 15');
    expect(pageErrors).toEqual([]);
  });

  it('rolls from the Roll button, shows server errors in a toast, takes typed-in values and disables Roll when nothing is to be thrown', async () => {
    await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
    await page.getByTestId('roll-button').click();
    await poll(async () => board(await getGame(gameId)).throwsTaken).toBe(1);
    const rolled = await getGame(gameId);
    await poll(() => pageDice()).toEqual(expectedDice(rolled));
    await expectFrameShown(rolled);

    // A typed-in roll with the wrong number of values: the server's message shows.
    await page.locator('#manual summary').click();
    await page.getByTestId('manual-values').fill('12');
    await page.getByTestId('manual-submit').click();
    await poll(() => page.getByTestId('toast').isVisible()).toBe(true);
    await poll(() => text('toast')).toContain('This roll needs 5 dice values, got 2.');

    // The right number of values is applied as a manual roll (no camera frame).
    await page.getByTestId('manual-values').fill('6 6 6 6 5');
    await page.getByTestId('manual-submit').click();
    await poll(async () => board(await getGame(gameId)).dice).toEqual([6, 6, 6, 6, 5]);
    const manual = await getGame(gameId);
    expect(manual.lastRoll?.source).toBe('manual');
    await poll(() => pageDice()).toEqual(expectedDice(manual));
    await poll(() => page.getByTestId('camera-frame').isVisible()).toBe(false);

    // With every die held there is nothing to throw: Roll is disabled.
    await ok(`/api/games/${gameId}/hold`, { dice: [0, 1, 2, 3, 4] });
    await poll(() => page.getByTestId('roll-button').isDisabled()).toBe(true);
    await ok(`/api/games/${gameId}/release`, { dice: [4] });
    await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('reconnects after the live feed drops and catches up', async () => {
    for (const client of app.websocketServer.clients) client.terminate();
    await poll(() => page.getByTestId('connection').isVisible()).toBe(true);
    expect(await text('connection')).toContain('connection lost — reconnecting');

    // A change made while the page may still be away arrives with the new snapshot.
    const view = await ok(`/api/games/${gameId}/release`, { dice: [0, 1] });
    await poll(() => page.getByTestId('connection').isVisible()).toBe(false);
    await poll(() => pageDice()).toEqual(expectedDice(view));
    expect(pageErrors).toEqual([]);
  });

  it('shows the winner and final totals when a game ends, and ?game= pins a game', async () => {
    // A one-player game played to the end with typed-in rolls.
    const created = await post('/api/games', { game: 'dice-poker', players: ['Solo'] });
    expect(created.status).toBe(201);
    const soloId = created.body.id;
    let view = created.body;
    for (const category of CATEGORIES) {
      await ok(`/api/games/${soloId}/roll`, { values: [5, 5, 5, 2, 2] });
      view = await ok(`/api/games/${soloId}/score`, { category });
    }
    expect(board(view).over).toBe(true);
    const final = view.result?.scores[0];
    expect(final).toBe(board(view).players[0]?.totals.total);

    await poll(() => page.getByTestId('game-over').isVisible()).toBe(true);
    expect(await text('winner')).toContain('Solo wins');
    await poll(() => text('final-0')).toContain(String(final));
    expect(await text('total-0')).toBe(String(final));
    expect(await page.getByTestId('roll-button').isVisible()).toBe(false);
    await page.screenshot({ path: SCREENSHOT_OVER });

    // Pinned to the first game, a second screen keeps showing it.
    const pinned = await context.newPage();
    pinned.on('pageerror', (err) => pageErrors.push(err.message));
    await pinned.goto(`${base}/?game=${gameId}`);
    await poll(() => text('current-player', pinned)).toBe('Ada');
    await poll(() => pinned.getByTestId('game-select').isVisible()).toBe(true);
    await pinned.close();
    expect(pageErrors).toEqual([]);
  });
});
