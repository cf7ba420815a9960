/**
 * The live scoreboard in a real browser (Debian's Chromium through
 * playwright-core) against the real app, served in-process on a free port
 * with the simulated tower and the OpenCV reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { CATEGORIES, GAMES, type AnyGameDef, type Board, type ScorecardBoard, type TableBoard } from '../../src/games/index.js';
import type { GameView } from '../../src/api/views.js';
import { lookup } from '../../src/api/public/i18n-core.js';
import en from '../../src/api/public/i18n/en.json' with { type: 'json' };

const SCREENSHOT = '/tmp/scoreboard.png';
const SCREENSHOT_OVER = '/tmp/scoreboard-over.png';
const SCREENSHOT_SETUP = '/tmp/scoreboard-setup.png';
const SCREENSHOT_TABLE = '/tmp/scoreboard-table.png';

let app: FastifyInstance;
let base = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

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
  return view.board as Board;
};

/** The board of a scorecard game (Dice Poker here). */
const card = (view: GameView): ScorecardBoard => {
  const b = board(view);
  if (b.kind !== 'scorecard') throw new Error(`game ${view.id} has a ${b.kind} board, not a scorecard`);
  return b;
};

/** The value of a panel item, e.g. the Throw of the Turn panel: "1 of 3". */
const panelValue = (view: GameView, panel: string, label: string) =>
  board(view).panels.find((p) => p.id === panel)?.items.find((i) => i.label === label)?.value;

/** The same item as the page shows it. */
const pagePanelValue = (panel: string, label: string, p: Page = page) =>
  p.evaluate(
    ([panelId, itemLabel]) => {
      const items = document.querySelectorAll<HTMLElement>(`[data-testid="panel-${panelId}"] .item`);
      const item = Array.from(items).find((el) => el.querySelector('.item-label')?.textContent === itemLabel);
      return item?.querySelector('.item-value')?.textContent ?? null;
    },
    [panel, label] as const,
  );

/** expect.poll with room for a roll through OpenCV on a slow machine. */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 50 });

const text = (testId: string, p: Page = page) => p.getByTestId(testId).textContent();

/** The dice as the page shows them. */
const pageDice = (p: Page = page) =>
  p.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid^="die-"]:not([data-testid="die-outline"])')).map((el) => ({
      slot: el.dataset.testid,
      value: el.dataset.value ?? 'missing',
      held: el.dataset.held ?? 'missing',
    })),
  );

const expectedDice = (view: GameView) =>
  board(view).dice.map((v, i) => ({ slot: `die-${i}`, value: v === null ? '' : String(v), held: String(board(view).held[i]) }));

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
  if (!roll?.reading || view.recentRolls.at(-1)?.frameUrl == null) throw new Error('expected a tower roll with a camera reading');
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
  // [x1, y1, x2, y2, …]: the xs at even places, the ys at odd.
  const xs = die.box.filter((_, i) => i % 2 === 0);
  const ys = die.box.filter((_, i) => i % 2 === 1);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  expect(f.firstCentre.x).toBeCloseTo(f.imgBox.x + (cx * f.imgBox.width) / reading.width, 0);
  expect(f.firstCentre.y).toBeCloseTo(f.imgBox.y + (cy * f.imgBox.height) / reading.height, 0);
}

/**
 * A made-up game with a table board, for what Dice Poker does not show: a
 * table of players (one out), tile/pot/bid panels, six dice with a hidden one
 * and decisions other than score/hold/release.
 */
interface FakeState {
  readonly players: readonly string[];
  readonly current: number;
  readonly pot: number;
  readonly dice: readonly (number | null)[];
  readonly held: readonly boolean[];
  readonly log: readonly { type: string }[];
}
const FAKE_ACTIONS = [
  { type: 'stop' },
  { type: 'bid', count: 3, face: 5 },
  { type: 'shut', boxes: [4, 5] },
  { type: 'keep', dice: [0, 2] },
  // More choices of one kind than fit as buttons: a drop-down.
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => ({ type: 'raise', count: n, face: 6 })),
];
const fakeGame: AnyGameDef = {
  id: 'test-table',
  name: 'Test Table',
  minPlayers: 2,
  maxPlayers: 4,
  defaultOptions: { pot: 0 },
  summary: 'A made-up game for the scoreboard test.',
  dice: { count: 6, colours: [], sizes: [] },
  optionSpecs: [{ name: 'pot', type: 'integer', default: 0, min: 0, description: 'Chips in the pot at the start.' }],
  setup: (players: readonly string[], options?: { pot?: number }): FakeState => ({
    players,
    current: 1,
    pot: options?.pot ?? 0,
    dice: [3, null, 5, 6, 1, 2],
    held: [false, false, false, false, false, false],
    log: [],
  }),
  diceRequest: (s: FakeState) => ({ count: 6, slots: [0, 1, 2, 3, 4, 5], player: s.current, secret: false }),
  apply: (s: FakeState, a: { type: string; dice?: number[]; values?: number[] }) =>
    a.type === 'hold' ? { ...s, held: s.held.map((h, i) => h || Boolean(a.dice?.includes(i))) } : a.type === 'roll' ? { ...s, dice: a.values ?? s.dice } : { ...s, log: [...s.log, a] },
  legalActions: () => [...FAKE_ACTIONS, { type: 'hold', dice: [2] }],
  result: () => null,
  board: (s: FakeState): TableBoard => ({
    kind: 'table',
    status: `${s.players[s.current]}: bid higher or stop`,
    // No words of its own in the pages' texts: the page shows the English.
    say: { key: 'games.fake.status.bidOrStop', params: { name: s.players[s.current] ?? '' } },
    current: s.current,
    dice: s.dice,
    held: s.held,
    columns: [
      { id: 'lives', label: 'Lives' },
      { id: 'bid', label: 'Last bid' },
    ],
    players: s.players.map((name, i) => ({ name, values: { lives: i === 2 ? 0 : 3 - i, bid: i === 0 ? '2 × 4' : null }, out: i === 2 })),
    panels: [
      { id: 'tiles', label: 'Tiles', items: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ id: 'tile', label: String(n), state: n % 3 === 0 ? ('closed' as const) : ('open' as const) })) },
      { id: 'pot', label: 'Pot', items: [{ id: 'chips', label: 'Chips', value: s.pot, state: 'highlight' as const }] },
      {
        id: 'bid',
        label: 'Bid',
        items: [
          { id: 'bid', label: s.players[0] ?? '', value: '2 × 4' },
          { id: 'bid', label: s.players[1] ?? '', value: '3 × 5', state: 'active' as const },
        ],
      },
    ],
  }),
  playerView: (s: FakeState) => s,
  bot: () => null,
};

beforeAll(async () => {
  const sim = createSimulator({ seed: 7, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), games: { ...GAMES, [fakeGame.id]: fakeGame } });
  app = buildApp({ table, version: 'test' }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  base = `http://127.0.0.1:${address.port}`;

  browser = await launchChromium();
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
    await poll(() => text('status')).toBe('Throw the dice');
    await poll(() => pagePanelValue('turn', 'Throw')).toBe(panelValue(created.body, 'turn', 'Throw'));
    expect(panelValue(created.body, 'turn', 'Throw')).toBe('0 of 3');
    expect(await text('round-info')).toBe('Round 1 of 15');
    await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
    expect(await text('roll-button')).toBe('Roll 5 dice');
    expect(await pageDice()).toEqual(expectedDice(created.body));
    // Every row of the card is drawn in order, empty score rows and zero computed rows.
    const rows = await page.locator('#scorecard tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-row')}:${tr.getAttribute('data-kind')}`));
    expect(rows).toEqual(card(created.body).rows.map((r) => `${r.id}:${r.kind}`));
    expect(await page.getByTestId('cell-0-aces').getAttribute('data-state')).toBe('empty');
    expect(await text('cell-1-upperTotal')).toBe('0');

    // Throw 1: five dice from the tower, read by the camera.
    let view = await ok(`/api/games/${gameId}/roll`);
    expect(panelValue(view, 'turn', 'Throw')).toBe('1 of 3');
    await poll(() => pageDice()).toEqual(expectedDice(view));
    await expectFrameShown(view);
    await poll(() => pagePanelValue('turn', 'Throw')).toBe('1 of 3');
    expect(await text('throw-info')).toContain('Throw');

    // Hold two dice: the page marks them.
    view = await ok(`/api/games/${gameId}/hold`, { dice: [0, 2] });
    await poll(() => pageDice()).toEqual(expectedDice(view));
    expect((await pageDice()).map((d) => d.held)).toEqual(['true', 'false', 'true', 'false', 'false']);
    await expect(page.getByTestId('die-0').textContent()).resolves.toContain('HELD');
    expect(await text('roll-button')).toBe('Roll 3 dice');

    // Throw 2: only the three free dice go in; the frame shows three outlines.
    const heldValues = [board(view).dice[0], board(view).dice[2]];
    view = await ok(`/api/games/${gameId}/roll`);
    expect(view.lastRoll?.values).toHaveLength(3);
    expect([board(view).dice[0], board(view).dice[2]]).toEqual(heldValues);
    await poll(() => pageDice()).toEqual(expectedDice(view));
    await expectFrameShown(view);
    await poll(() => pagePanelValue('turn', 'Throw')).toBe('2 of 3');
    await poll(() => text('status')).toBe('Hold dice and throw again, or score a row');

    // Every row the player may choose shows the points it would give, and no other button is offered.
    const choices = card(view).choices;
    expect(choices.length).toBe(CATEGORIES.length);
    for (const c of choices) {
      const cell = page.getByTestId(`cell-0-${c.row}`);
      await poll(() => cell.getAttribute('data-state')).toBe('choice');
      expect(await cell.textContent()).toBe(String(c.points));
    }
    expect(await page.getByTestId('decisions').locator('button').count()).toBe(0);
    // Grace's column offers nothing: it is not her turn.
    expect(await page.getByTestId('cell-1-chance').getAttribute('data-state')).toBe('empty');
    await page.screenshot({ path: SCREENSHOT });

    // Score the best row: the cell and the total show the API's points, and the turn passes.
    const best = choices.reduce((a, b) => (b.points > a.points ? b : a));
    view = await ok(`/api/games/${gameId}/score`, { category: best.row });
    const ada = card(view).players[0];
    expect(ada?.cells[best.row]).toBe(best.points);
    const scored = page.getByTestId(`cell-0-${best.row}`);
    await poll(() => scored.getAttribute('data-state')).toBe('filled');
    expect(await scored.textContent()).toBe(String(best.points));
    await poll(() => text('total-0')).toBe(String(ada?.cells.total));
    expect(ada?.cells.total).toBe(best.points);
    await poll(() => text('current-player')).toBe('Grace');
    await poll(() => page.getByTestId('player-1').getAttribute('data-current')).toBe('true');
    expect(await page.getByTestId('player-0').getAttribute('data-current')).toBe('false');
    await poll(() => pagePanelValue('turn', 'Throw')).toBe('0 of 3');
    await poll(() => pageDice()).toEqual(expectedDice(view));
    expect(pageErrors).toEqual([]);
  });

  it('holds and releases a die when it is clicked, and scores a row when its points are clicked', async () => {
    // Before a throw there is nothing to hold: the dice are blank and cannot be clicked.
    expect(await page.getByTestId('die-0').isDisabled()).toBe(true);
    const view = await ok(`/api/games/${gameId}/roll`);
    await poll(() => pageDice()).toEqual(expectedDice(view));
    await poll(() => page.getByTestId('die-1').isEnabled()).toBe(true);

    await page.getByTestId('die-1').click();
    await poll(async () => board(await getGame(gameId)).held).toEqual([false, true, false, false, false]);
    await poll(() => page.getByTestId('die-1').getAttribute('data-held')).toBe('true');

    await page.getByTestId('die-1').click();
    await poll(async () => board(await getGame(gameId)).held[1]).toBe(false);
    await poll(() => page.getByTestId('die-1').getAttribute('data-held')).toBe('false');

    const chance = card(view).choices.find((c) => c.row === 'chance');
    expect(chance).toBeDefined();
    await page.getByTestId('cell-1-chance').getByRole('button').click();
    await poll(async () => card(await getGame(gameId)).players[1]?.cells.chance).toBe(chance?.points);
    await poll(() => text('cell-1-chance')).toBe(String(chance?.points));
    await poll(() => text('current-player')).toBe('Ada');
    await poll(() => text('round-info')).toBe('Round 2 of 15');
    expect(pageErrors).toEqual([]);
  });

  it('rolls from the Roll button, shows server errors in a toast, takes typed-in values and disables Roll when nothing is to be thrown', async () => {
    await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
    await page.getByTestId('roll-button').click();
    await poll(async () => panelValue(await getGame(gameId), 'turn', 'Throw')).toBe('1 of 3');
    const rolled = await getGame(gameId);
    await poll(() => pageDice()).toEqual(expectedDice(rolled));
    await expectFrameShown(rolled);

    // A typed-in roll with the wrong number of values: the server's message shows.
    await page.locator('#manual summary').click();
    await page.getByTestId('manual-values').fill('12');
    await page.getByTestId('manual-submit').click();
    await poll(() => page.getByTestId('toast').isVisible()).toBe(true);
    await poll(() => text('toast')).toContain('This roll needs 5 dice values, got 2.');
    await page.getByTestId('toast').click();
    await poll(() => page.getByTestId('toast').isVisible()).toBe(false);

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
    expect(await text('roll-button')).toBe('Roll 1 die');
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
    expect(view.result).not.toBeNull();
    expect(board(view).current).toBeNull();
    const final = view.result?.scores[0];
    expect(final).toBe(card(view).players[0]?.cells.total);

    await poll(() => page.getByTestId('game-over').isVisible()).toBe(true);
    expect(await text('winner')).toContain('Solo wins');
    await poll(() => text('final-0')).toContain(String(final));
    expect(await text('total-0')).toBe(String(final));
    expect(await page.getByTestId('roll-button').isVisible()).toBe(false);
    expect(await page.getByTestId('turn').isVisible()).toBe(false);
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

  it('lists the catalog in the new-game form with each game’s options, and sends only the options that were changed', async () => {
    const catalog = (await (await fetch(`${base}/api/games/catalog`)).json()) as {
      id: string;
      name: string;
      summary: string;
      minPlayers: number;
      maxPlayers: number;
      available: boolean;
      options: AnyGameDef['optionSpecs'];
    }[];
    const poker = catalog.find((g) => g.id === 'dice-poker');
    if (!poker) throw new Error('Dice Poker is not in the catalog');

    // From the game-over screen: start a new game.
    await page.getByTestId('game-over').getByRole('button', { name: 'Start a new game' }).click();
    await poll(() => page.getByTestId('no-game').isVisible()).toBe(true);
    const picker = page.getByTestId('game-picker');
    // Playable games first; the ids whose rules are unavailable are listed but cannot be chosen.
    await poll(() =>
      picker.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent, (o as HTMLOptionElement).disabled])),
    ).toEqual(catalog.map((g) => [g.id, g.available ? g.name : `${g.name} — rules unavailable`, !g.available]));
    expect(catalog.find((g) => g.id === 'killer')?.available).toBe(false);
    await picker.selectOption('dice-poker');
    // The rule summary in plain words of the page's language (English here), not the catalog's developer summary.
    await poll(() => text('game-summary')).toBe(lookup(en, 'games.dice-poker.rules'));
    expect(await text('game-players')).toContain('1–6 players');
    expect(await text('start-game')).toBe('Start Dice Poker');

    // One input per option, of the option's kind, with its default filled in.
    expect(poker.options.length).toBeGreaterThan(0);
    for (const spec of poker.options) {
      const input = page.getByTestId(`option-${spec.name}`);
      if (spec.type === 'boolean') {
        expect(await input.getAttribute('type')).toBe('checkbox');
        expect(await input.isChecked()).toBe(spec.default);
      } else if (spec.type === 'choice') {
        expect(await input.evaluate((el) => el.tagName)).toBe('SELECT');
        // Each value in plain words where it has them ('>=': "at least that many"); its value stays what is sent.
        expect(await input.locator('option').allTextContents()).toEqual(spec.choices.map((c) => lookup(en, `games.dice-poker.options.${spec.name}.values.${c}`) ?? c));
        expect(await input.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([...spec.choices]);
        expect(await input.inputValue()).toBe(spec.default);
      } else {
        expect(await input.getAttribute('type')).toBe('number');
        expect(await input.inputValue()).toBe(String(spec.default));
        expect(await input.getAttribute('min')).toBe(spec.min === undefined ? null : String(spec.min));
        expect(await input.getAttribute('max')).toBe(spec.max === undefined ? null : String(spec.max));
      }
    }
    const maxThrows = poker.options.find((o) => o.name === 'maxThrows');
    expect(maxThrows?.default).toBe(3);

    await page.getByTestId('player-name-0').fill('Kim');
    await page.getByTestId('player-name-1').fill('Lee');
    await page.getByTestId('player-bot-1').check();
    await page.getByTestId('option-maxThrows').fill('2');
    await poll(() => page.locator('[data-option="maxThrows"]').getAttribute('class')).toContain('changed');
    await page.screenshot({ path: SCREENSHOT_SETUP });

    const request = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
    await page.getByTestId('start-game').click();
    expect((await request).postDataJSON()).toEqual({ game: 'dice-poker', players: ['Kim', 'Lee'], options: { maxThrows: 2 }, bots: [1] });

    await poll(() => text('current-player')).toBe('Kim');
    const id = await page.evaluate(() => document.body.dataset.gameId ?? '');
    const created = await getGame(id);
    expect(created.players).toEqual(['Kim', 'Lee']);
    expect(created.bots).toEqual([1]);
    expect(created.state.options).toEqual({ ...Object.fromEntries(poker.options.map((o) => [o.name, o.default])), maxThrows: 2 });
    expect(panelValue(created, 'turn', 'Throw')).toBe('0 of 2');
    await poll(() => pagePanelValue('turn', 'Throw')).toBe('0 of 2');
    expect(pageErrors).toEqual([]);
  });

  it('draws a table board: players × columns, the player who is out, panels with tiles, six dice and decision buttons', async () => {
    const created = await post('/api/games', { game: 'test-table', players: ['Ann', 'Bo', 'Cy'], options: { pot: 7 } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const p = await context.newPage();
    p.on('pageerror', (err) => pageErrors.push(err.message));
    await p.goto(`${base}/?game=${id}`);

    await poll(() => p.getByTestId('table-board').isVisible()).toBe(true);
    expect(await p.getByTestId('scorecard').isVisible()).toBe(false);
    expect(await p.locator('#table-board thead th').allTextContents()).toEqual(['Player', 'Lives', 'Last bid']);
    expect(await text('value-0-lives', p)).toBe('3');
    expect(await text('value-0-bid', p)).toBe('2 × 4');
    expect(await text('value-1-bid', p)).toBe('');
    expect(await p.getByTestId('player-1').getAttribute('data-current')).toBe('true');
    expect(await p.getByTestId('player-0').getAttribute('data-current')).toBe('false');
    expect(await p.getByTestId('player-2').getAttribute('data-out')).toBe('true');
    expect(await p.getByTestId('player-2').locator('td').first().evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('line-through');
    expect(await text('current-player', p)).toBe('Bo');
    expect(await text('status', p)).toBe('Bid higher or stop');

    // Panels: tiles drawn open/closed, the pot, the active bid.
    const tiles = await p.locator('[data-testid="panel-tiles"] .tile').evaluateAll((els) => els.map((el) => `${el.textContent}:${el.getAttribute('data-state')}`));
    expect(tiles).toEqual(['1:open', '2:open', '3:closed', '4:open', '5:open', '6:closed', '7:open', '8:open', '9:closed']);
    expect(await pagePanelValue('pot', 'Chips', p)).toBe('7');
    expect(await p.getByTestId('panel-bid-1').getAttribute('data-state')).toBe('active');
    expect(await p.getByTestId('panel-bid-1').getAttribute('class')).toContain('active');

    // Six dice, the unthrown one blank; only the die with a hold action can be clicked.
    expect(await pageDice(p)).toEqual(expectedDice(created.body));
    expect(await p.getByTestId('die-1').locator('circle').count()).toBe(0);
    expect(await p.getByTestId('die-2').isEnabled()).toBe(true);
    expect(await p.getByTestId('die-0').isDisabled()).toBe(true);
    expect(await text('roll-button', p)).toBe('Roll 6 dice');

    // Every other action is a button with a readable label (dice slots shown as their faces), posted as it is;
    // a dozen choices of one kind go into a drop-down with one button.
    expect(await p.getByTestId('decisions').locator('button').allTextContents()).toEqual(['stop', 'bid 3 × 5', 'shut 4+5', 'keep \u2682 \u2684', 'raise']);
    const raise = p.getByTestId('action-select-raise');
    expect(await raise.locator('option').allTextContents()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => `${n} × 6`));
    await p.screenshot({ path: SCREENSHOT_TABLE });
    await p.getByRole('button', { name: 'bid 3 × 5' }).click();
    await poll(async () => (await getGame(id)).state.log).toEqual([{ type: 'bid', count: 3, face: 5 }]);
    await raise.selectOption({ label: '4 × 6' });
    await p.getByTestId('action-send-raise').click();
    await poll(async () => (await getGame(id)).state.log).toEqual([
      { type: 'bid', count: 3, face: 5 },
      { type: 'raise', count: 4, face: 6 },
    ]);
    await p.getByTestId('die-2').click();
    await poll(async () => board(await getGame(id)).held).toEqual([false, false, true, false, false, false]);
    await poll(() => p.getByTestId('die-2').getAttribute('data-held')).toBe('true');
    await p.close();
    expect(pageErrors).toEqual([]);
  });
});
