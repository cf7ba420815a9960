/**
 * The trust screens in headless Chromium against the real app (simulated
 * tower, OpenCV reader, a store, an operator token): a game played through,
 * a correction, the fairness panel after many rolls, the history screen, the
 * overlay, spoken rolls, and a viewer who cannot act.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import type { GameView } from '../../src/api/views.js';

const TOKEN = 'browser-operator-token-0123';
const auth = { authorization: `Bearer ${TOKEN}` };
let app: FastifyInstance;
let table: Table;
let store: GameStore;
let dir: string;
let base = '';
let browser: Browser;
let operator: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-trust-browser-'));
  store = openStore(dir);
  store.startSession(Date.now(), 'test');
  const sim = createSimulator({ seed: 8, colours: ['red'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchChromium();
  operator = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  // Spoken rolls are caught, not spoken.
  await operator.addInitScript(() => {
    (window as unknown as { spoken: string[] }).spoken = [];
    window.speechSynthesis.speak = (u: SpeechSynthesisUtterance) => void (window as unknown as { spoken: string[] }).spoken.push(u.text);
  });
  const first = await operator.newPage();
  await first.goto(`${base}/?token=${TOKEN}`);
  await first.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

async function operatorPage(path: string): Promise<Page> {
  const page = await operator.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(`${base}${path}`);
  return page;
}

async function newGame(game: string, players: string[], options: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${base}/api/games`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ game, players, options }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const view = async (id: string) => (await (await fetch(`${base}/api/games/${id}`)).json()) as GameView;

describe('scoreboard: trust', () => {
  it('plays a whole game through: Roll button, scores, roll strip with thumbnails, spoken rolls, the winner', async () => {
    const id = await newGame('dice-poker', ['Ann']);
    const page = await operatorPage(`/?game=${id}`);
    await page.getByTestId('speech-toggle').click();
    expect(await page.getByTestId('speech-toggle').getAttribute('aria-pressed')).toBe('true');
    let turn = 0;
    while (!(await view(id)).result) {
      turn++;
      await poll(() => page.getByTestId('roll-button').isEnabled()).toBe(true);
      await page.getByTestId('roll-button').click();
      await poll(async () => (await view(id)).rollCount).toBe(turn);
      const choice = ((await view(id)).board as unknown as { choices: Array<{ row: string }> }).choices[0];
      if (!choice) throw new Error('no scoring choice');
      await poll(() => page.getByTestId(`cell-0-${choice.row}`).getAttribute('data-state')).toBe('choice');
      await page.getByTestId(`cell-0-${choice.row}`).getByRole('button').click();
      await poll(async () => (await view(id)).version).toBe(1 + turn * 2);
    }
    expect(turn).toBe(15);
    await poll(() => page.getByTestId('game-over').isVisible()).toBe(true);
    // The strip keeps the last 12 rolls, each with its frame's thumbnail.
    const thumbs = page.locator('[data-testid^="strip-roll-"] img');
    await poll(() => thumbs.count()).toBe(12);
    await poll(() => thumbs.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    expect(await page.getByTestId('strip-roll-15').getAttribute('href')).toBe(`history.html?game=${id}&roll=15`);
    const spoken = await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
    expect(spoken.length).toBe(15);
    expect(spoken.at(-1)).toMatch(/^Ann rolled \d, \d, \d, \d and \d$/);
    await page.close();
  }, 120_000);

  it('corrects a misread die from the scoreboard; the reading stays visible; history shows who, when and why', async () => {
    const id = await newGame('dice-poker', ['Ann', 'Bob']);
    const page = await operatorPage(`/?game=${id}`);
    await page.getByTestId('roll-button').click();
    await poll(async () => (await view(id)).rollCount).toBe(1);
    const read = (await view(id)).lastRoll!.values;
    const wanted = read[0] === 6 ? 5 : (read[0] as number) + 1;
    await poll(() => page.getByTestId('correct-button').isVisible()).toBe(true);
    await page.getByTestId('correct-button').click();
    await page.getByTestId('correct-die-0').selectOption(String(wanted));
    await page.getByTestId('correct-reason').fill('the first die was misread');
    await page.getByTestId('correct-by').fill('Kim');
    await page.getByTestId('correct-submit').click();
    await poll(async () => (await view(id)).board?.dice?.[0]).toBe(wanted);
    await poll(() => page.getByTestId('camera-caption').textContent()).toContain(`read ${read.join(' ')}, corrected by Kim: the first die was misread`);
    await poll(() => page.locator('[data-testid="die-outline"].corrected text').first().textContent()).toBe(`${read[0]}→${wanted}`);
    await poll(() => page.getByTestId('die-0').getAttribute('data-value')).toBe(String(wanted));
    await poll(() => page.getByTestId('strip-roll-1').textContent()).toContain('✎');

    // History: the same roll, what was read and the correction.
    await page.getByTestId('strip-roll-1').click();
    await poll(() => page.getByTestId('roll-read').textContent()).toBe(read.join(' '));
    expect(await page.getByTestId('roll-values').textContent()).toBe([wanted, ...read.slice(1)].join(' '));
    expect(await page.getByTestId('roll-correction').textContent()).toMatch(new RegExp(`^${read.join(' ')} → ${wanted} ${read.slice(1).join(' ')} by Kim, .*: the first die was misread$`));
    await page.close();
  }, 60_000);

  it('shows the history: sessions, games, stepping through rolls with their frames and outlines; exports a game', async () => {
    const id = await newGame('dice-poker', ['Cy'], { maxThrows: 3 });
    await table.roll(id);
    table.act(id, { type: 'hold', dice: [0] } as { type: string });
    await table.roll(id);
    const page = await operatorPage('/history.html');
    await poll(() => page.getByTestId('session').count()).toBeGreaterThanOrEqual(1);
    await page.getByTestId(`history-game-${id}`).click();
    await poll(() => page.getByTestId('roll-seq').textContent()).toBe('2 of 2');
    await poll(() => page.getByTestId('history-frame').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="history-overlay"] [data-testid="die-outline"]').count()).toBe(4);
    await page.getByTestId('prev-roll').click();
    await poll(() => page.getByTestId('roll-seq').textContent()).toBe('1 of 2');
    expect(await page.locator('[data-testid="history-overlay"] [data-testid="die-outline"]').count()).toBe(5);
    expect(await page.getByTestId('prev-roll').isDisabled()).toBe(true);
    await page.keyboard.press('ArrowRight');
    await poll(() => page.getByTestId('roll-seq').textContent()).toBe('2 of 2');
    const download = page.waitForEvent('download');
    await page.getByTestId('export-game').click();
    expect((await download).suggestedFilename()).toBe(`dice-tower-${id}.json`);
    await page.close();
  }, 60_000);

  it('fills the fairness panel after many simulated rolls, and keeps typed-in dice apart, never judged', async () => {
    // 15 tower throws of 5 red dice (75 dice) and 55 sixes typed in: the red die is judged, the typed-in ones never are.
    const id = await newGame('dice-poker', ['Di']);
    for (let turn = 0; turn < 15; turn++) {
      await table.roll(id);
      const choice = ((await view(id)).board as unknown as { choices: Array<{ row: string }> }).choices[0]!;
      table.act(id, { type: 'score', category: choice.row } as { type: string });
    }
    const typed = await newGame('dice-poker', ['Ed']);
    for (let turn = 0; turn < 11; turn++) {
      await table.roll(typed, [6, 6, 6, 6, 6]);
      const choice = ((await view(typed)).board as unknown as { choices: Array<{ row: string }> }).choices[0]!;
      table.act(typed, { type: 'score', category: choice.row } as { type: string });
    }
    const page = await operatorPage(`/?game=${typed}`);
    await poll(() => page.getByTestId('fairness-typed-in').getAttribute('data-verdict')).toBe('not judged');
    expect(await page.getByTestId('fairness-note').textContent()).toContain('judged only after 60 rolls');
    await page.locator('[data-testid="fairness-details"] summary').click();
    expect(await page.getByTestId('fairness-typed-in').isVisible()).toBe(true);
    expect(await page.getByTestId('fairness-die-red').getAttribute('data-verdict')).toBe('fair');
    // One more turn of sixes: 60 typed-in sixes (with the earlier tests' none). They stay apart: no warning, and "all dice" holds the camera's dice only.
    const more = await newGame('dice-poker', ['Fay']);
    await table.roll(more, [6, 6, 6, 6, 6]);
    await page.goto(`${base}/?game=${more}`);
    const report = (await (await fetch(`${base}/api/fairness`)).json()) as { overall: { rolls: number }; dice: Array<{ rolls: number }>; typedIn: { rolls: number } };
    expect(report.overall.rolls).toBe(report.dice.reduce((sum, d) => sum + d.rolls, 0));
    await poll(() => page.getByTestId('fairness-typed-in').locator('td.num').first().textContent()).toBe(String(report.typedIn.rolls));
    expect(report.typedIn.rolls).toBeGreaterThanOrEqual(60);
    expect(await page.getByTestId('fairness-overall').locator('td.num').first().textContent()).toBe(String(report.overall.rolls));
    expect(await page.getByTestId('fairness-warning').count()).toBe(0);
    expect(await page.getByTestId('fairness-die-typed in').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('shows the overlay for streaming software: transparent, the dice and the scores', async () => {
    const id = await newGame('dice-poker', ['Gus', 'Hal']);
    await table.roll(id, [2, 3, 4, 5, 6]);
    const page = await operatorPage(`/overlay.html?game=${id}`);
    await poll(() => page.locator('[data-testid="overlay-dice"] svg').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')))).toEqual(['2', '3', '4', '5', '6']);
    expect(await page.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor])).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    expect(await page.getByTestId('overlay-score-0').textContent()).toBe('Gus0');
    table.act(id, { type: 'score', category: 'largeStraight' } as { type: string });
    await poll(() => page.getByTestId('overlay-score-0').textContent()).toBe('Gus40');
    await page.close();
  });

  it('lets a viewer watch but not act: no correction button, refused roll, refused WebSocket roll', async () => {
    const id = await newGame('dice-poker', ['Ivy']);
    await table.roll(id, [1, 2, 3, 4, 5]);
    const viewer = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await viewer.newPage();
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    await page.goto(`${base}/?game=${id}`);
    await poll(() => page.getByTestId('camera-caption').textContent()).toContain('Roll 1');
    expect(await page.getByTestId('correct-button').isVisible()).toBe(false);
    const refused = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByTestId('roll-button').click();
    expect((await refused).status()).toBe(401);
    await poll(() => page.getByTestId('toast').textContent()).toContain('operator action');
    const ws = await page.evaluate(
      (gameId) =>
        new Promise<unknown>((resolve) => {
          const socket = new WebSocket(`ws://${location.host}/ws`);
          socket.onmessage = (e) => {
            const msg = JSON.parse(e.data as string);
            if (msg.type === 'snapshot') socket.send(JSON.stringify({ type: 'roll', game: gameId }));
            if (msg.type === 'error') resolve(msg);
          };
        }),
      id,
    );
    expect(ws).toMatchObject({ type: 'error', code: 'auth/operator_only' });
    expect((await view(id)).rollCount).toBe(1);
    await viewer.close();
  });
});
