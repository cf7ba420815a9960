/**
 * Screenshots of every screen for the README, into docs/screenshots/:
 * scoreboard, history, correction, fairness, overlay, player page on a phone.
 * Runs the real app in-process on the simulated tower with a throw-away data
 * directory, and headless Debian Chromium through playwright-core.
 *
 *   npx tsx scripts/screenshots.ts [outDir]
 */
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSimulator } from '../src/hardware/index.js';
import { createDiceReader } from '../src/vision/index.js';
import { Table } from '../src/table.js';
import { buildApp } from '../src/api/app.js';
import { openStore } from '../src/storage/index.js';

const out = resolve(process.argv[2] ?? 'docs/screenshots');
mkdirSync(out, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-shots-'));
const store = openStore(dir);
store.startSession(Date.now() - 3 * 3600_000, 'earlier run');
store.startSession(Date.now(), 'screenshots');
const sim = createSimulator({ seed: 12, colours: ['red', 'blue', 'ivory'], rollMs: 0 });
const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
const TOKEN = 'screenshots-operator-token';
const app = buildApp({ table, version: 'screenshots', operatorToken: TOKEN });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const choose = (id: string) => (table.definition(table.get(id)).legalActions(table.get(id).state) as Array<{ type: string }>).find((a) => a.type === 'score');

// A finished game for the fairness panel and the history.
const earlier = table.create('dice-poker', ['Ann', 'Bob']);
while (!table.definition(table.get(earlier.id)).result(table.get(earlier.id).state)) {
  await table.roll(earlier.id);
  table.act(earlier.id, choose(earlier.id) as { type: string });
}
// The game on screen: a few turns in, one roll corrected.
const game = table.create('dice-poker', ['Ann', 'Bob', 'Cy']);
for (let i = 0; i < 5; i++) {
  await table.roll(game.id);
  table.act(game.id, choose(game.id) as { type: string });
}
await table.roll(game.id);
const read = table.get(game.id).rolls.at(-1)!.values;
table.correct(game.id, table.get(game.id).rolls.length, read.map((v, i) => (i === 0 ? (v % 6) + 1 : v)), 'Kim', 'the first die was read wrong');
table.act(game.id, { type: 'hold', dice: [0, 1] } as { type: string });
await table.roll(game.id);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const shots: string[] = [];
const shot = async (name: string, take: (path: string) => Promise<unknown>) => {
  const path = join(out, `${name}.png`);
  await take(path);
  shots.push(path);
};
try {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  await page.goto(`${base}/?token=${TOKEN}`);
  await page.goto(`${base}/?game=${game.id}`);
  await page.locator('[data-testid="camera-frame"][data-loaded="true"]').waitFor();
  await page.getByTestId('fairness-overall').waitFor({ state: 'attached' });
  await page.waitForTimeout(500);
  await shot('scoreboard', (path) => page.screenshot({ path }));
  await page.locator('[data-testid="fairness-details"] summary').click();
  await page.getByTestId('fairness').scrollIntoViewIfNeeded();
  await shot('fairness', (path) => page.getByTestId('fairness').screenshot({ path }));

  await page.locator('[data-testid="fairness-details"] summary').click();
  await page.getByTestId('correct-button').click();
  await page.getByTestId('correct-die-2').selectOption('4');
  await page.getByTestId('correct-reason').fill('the third die is a four, the camera saw a one');
  await page.getByTestId('correct-by').fill('Kim');
  await shot('correction', (path) => page.screenshot({ path }));
  await page.keyboard.press('Escape');

  const history = await context.newPage();
  await history.goto(`${base}/history.html?game=${game.id}&roll=6`);
  await history.getByTestId('roll-correction').waitFor();
  await history.locator('[data-testid="history-frame"]').evaluate((img) => (img as HTMLImageElement).decode());
  await shot('history', (path) => history.screenshot({ path }));

  const overlay = await context.newPage();
  await overlay.goto(`${base}/overlay.html?game=${game.id}`);
  await overlay.getByTestId('overlay-scores').locator('li').first().waitFor();
  await shot('overlay', (path) => overlay.screenshot({ path, omitBackground: true }));

  // Bluff with phones: three cups typed in (a star among Bob's), two bids made; Bob's phone on his turn, and the big screen.
  const bluffGame = table.create('bluff', ['Ann', 'Bob', 'Cid']);
  for (const values of [[3, 5, 1, 5, 2, 4], [6, 5, 5, 2, 6, 3], [4, 4, 1, 6, 2, 5]]) await table.roll(bluffGame.id, values);
  table.act(bluffGame.id, { type: 'bid', position: 4, face: 5 } as { type: string });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const player = await phone.newPage();
  const bob = table.seatTokensOf(bluffGame.id)[1];
  await player.goto(`${base}/player.html?game=${bluffGame.id}&seat=1&token=${bob}`);
  await player.getByTestId('bid-picker').waitFor();
  await player.getByTestId('bid-count-up').click();
  await shot('bluff-phone-390', (path) => player.screenshot({ path, fullPage: true }));
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(`${base}/?game=${bluffGame.id}`);
  await screen.getByTestId('bluff-cups').waitFor();
  await shot('bluff-table-1280', (path) => screen.screenshot({ path }));
} finally {
  await browser.close();
  await app.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
for (const s of shots) process.stdout.write(`${s}\n`);
process.stdout.write(`${JSON.stringify({ screenshots: shots.length, dir: out })}\n`);
