/**
 * Phones that play (#46) in headless Chromium: a whole Bluff game in which
 * every bid, challenge and stacked-throw declaration is made on the players'
 * phones, and a few rounds of Bluffi the same way. The operator only types the
 * secret throws in (through the API: the throws are not the subject here), and
 * makes one Bluffi acceptance on the big screen, which can still make any move.
 * Checked on the way: each phone shows its own dice only, with stars drawn as
 * stars, the round's bids as a list and its moves only on its turn; the big
 * screen shows each cup as a count, with no blank dice and no list of bids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { bluff, bidTrack, cupSlots, STAR, type BluffState } from '../../src/games/bluff.js';
import { bluffi, type BluffiState } from '../../src/games/bluffi.js';
import { seededRandom } from '../games/harness.js';

const TOKEN = 'browser-bluff-phones-token-46';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
let app: FastifyInstance;
let table: Table;
let base = '';
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sim = createSimulator({ seed: 46, colours: ['white'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  expect(pageErrors).toEqual([]);
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000, interval: 50 });

/** A game made by the operator, the big screen (operator, 1280 × 720) and one phone per seat (390 px wide). */
async function openTable(game: string, players: string[], options: Record<string, unknown>) {
  const created = await fetch(`${base}/api/games`, { method: 'POST', headers: auth, body: JSON.stringify({ game, players, options }) });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const links = (await (await fetch(`${base}/api/games/${id}/seats`, { headers: auth })).json()) as Array<{ path: string }>;
  const screen = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  screen.on('pageerror', (e) => pageErrors.push(`big screen: ${e.message}`));
  await screen.goto(`${base}/?token=${TOKEN}`);
  await screen.goto(`${base}/?game=${id}`);
  const phones: Page[] = [];
  for (const link of links) {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    phone.on('pageerror', (e) => pageErrors.push(`phone: ${e.message}`));
    await phone.goto(`${base}${link.path}`);
    phones.push(phone);
  }
  const roll = async (values: number[]) => {
    const res = await fetch(`${base}/api/games/${id}/roll`, { method: 'POST', headers: auth, body: JSON.stringify({ values }) });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  return { id, screen, phones, roll };
}

/** Clicks a stepper until it shows `target`; `order` is the order its values step through. */
async function setStepper(page: Page, testid: string, target: string, order: readonly string[]) {
  for (let i = 0; i < 60; i++) {
    const now = (await page.getByTestId(`${testid}-value`).textContent()) ?? '';
    if (now === target) return;
    await page.getByTestId(order.indexOf(now) < order.indexOf(target) ? `${testid}-up` : `${testid}-down`).click();
  }
  throw new Error(`stepper ${testid} never showed ${target}`);
}

/** Taps a move on a phone and waits for the game to take it. */
async function tap(phone: Page, testid: string, gameId: string) {
  const before = table.get(gameId).version;
  await phone.getByTestId(testid).click();
  await poll(() => table.get(gameId).version).toBeGreaterThan(before);
}

const FACES = ['1', '2', '3', '4', '5', '★'];
const faceText = (face: number) => (face === STAR ? '★' : String(face));
const diceValues = (page: Page) => page.locator('[data-testid=own-dice] svg').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')));

describe('Bluff played from the phones', () => {
  it('plays a whole game with every bid and challenge made on the phones', async () => {
    const { id, screen, phones, roll } = await openTable('bluff', ['Ann', 'Bob', 'Cid'], { dicePerPlayer: '2' });
    const track = bidTrack('ravensburger', 20);
    const random = seededRandom(46);
    let stackedDeclared = false;
    let bids = 0;
    let challenges = 0;
    let roundsChecked = 0;
    for (let step = 0; table.get(id).state !== null && !bluff.result(table.get(id).state as BluffState); step++) {
      expect(step).toBeLessThan(400);
      const state = table.get(id).state as BluffState;
      const request = bluff.diceRequest(state);
      if (request) {
        // One throw of the first round lands with a die on another: the operator says so on the big screen.
        await roll(request.slots.map(() => 1 + Math.floor(random() * 6)));
        continue;
      }
      if (!stackedDeclared && state.lastThrow !== null) {
        // No phone offers it, not even the owner's (who has seen those dice): the operator declares it.
        await poll(() => phones[state.current]!.getByTestId('bid-picker').count()).toBe(1);
        for (const phone of phones) expect(await phone.getByTestId('rethrow-button').count()).toBe(0);
        await tap(screen, 'rethrow-button', id);
        stackedDeclared = true;
        continue;
      }
      if (state.bids.length === 0) {
        await checkRound(id, state, phones, screen);
        roundsChecked++;
      }
      const seat = state.current;
      const phone = phones[seat]!;
      // The phone is up to date: the bid list holds this round's bids.
      await poll(() => phone.locator('[data-testid=bid-list] li').count()).toBe(state.bids.length);
      for (const other of [0, 1, 2].filter((s) => s !== seat && state.players[s]!.dice > 0)) {
        await poll(() => phones[other]!.getByTestId('waiting').textContent()).toBe(`Waiting for ${state.players[seat]!.name}.`);
        expect(await phones[other]!.getByTestId('bid-picker').count()).toBe(0);
        expect(await phones[other]!.getByTestId('challenge-button').count()).toBe(0);
      }
      const choice = bluff.bot(state, random);
      if (choice?.type === 'bid') {
        const field = track[choice.position - 1]!;
        await setStepper(phone, 'bid-count', String(field.quantity), Array.from({ length: 21 }, (_, i) => String(i)));
        await setStepper(phone, 'bid-face', faceText(choice.face), FACES);
        expect(await phone.getByTestId('bid-button').textContent()).toBe(`Bid ${field.quantity} × ${choice.face === STAR ? '★' : `${choice.face}s`}`);
        await tap(phone, 'bid-button', id);
        expect((table.get(id).state as BluffState).bids.at(-1)).toEqual({ position: choice.position, face: choice.face, quantity: field.quantity, bidder: seat });
        bids++;
      } else {
        expect(choice).toEqual({ type: 'challenge' });
        // A bid list of the round just ended, as the challenger saw it.
        const listed = await phone.locator('[data-testid=bid-list] li').allTextContents();
        expect(listed).toEqual(state.bids.map((b) => `${state.players[b.bidder]!.name} ${b.face === STAR ? `${b.quantity} × ★` : `${b.quantity} × ${b.face}s`}`));
        await tap(phone, 'challenge-button', id);
        challenges++;
      }
    }
    const result = bluff.result(table.get(id).state as BluffState)!;
    const winner = ['Ann', 'Bob', 'Cid'][result.winners[0]!];
    expect(stackedDeclared).toBe(true);
    expect(challenges).toBeGreaterThanOrEqual(3);
    expect(bids).toBeGreaterThan(challenges);
    expect(roundsChecked).toBe(challenges);
    // Every decision of the game came from a seat's page (the operator only typed throws in).
    for (const phone of phones) await poll(() => phone.getByTestId('status').textContent()).toBe('Game over');
    await poll(() => screen.getByTestId('game-over').textContent()).toContain(winner);
  }, 240_000);
});

/** At the start of a round's bidding: each phone shows its own cup only (stars as stars); the big screen shows counts. */
async function checkRound(id: string, state: BluffState, phones: Page[], screen: Page) {
  for (const [seat, phone] of phones.entries()) {
    const cup = cupSlots(state, seat).map((s) => state.dice[s] as number);
    if (cup.length === 0) continue;
    await poll(() => diceValues(phone)).toEqual(cup.map(String));
    expect(await phone.locator('[data-testid=own-dice] svg.star').count()).toBe(cup.filter((d) => d === STAR).length);
    expect(await phone.locator('[data-testid=own-dice] svg.star circle').count()).toBe(0);
    expect(await phone.getByTestId('bid-now').textContent()).toBe('No bid yet this round');
    // Laid out for the phone: nothing wider than its 390 px.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
  for (const [seat, p] of state.players.entries()) {
    await poll(() => screen.getByTestId(`cup-count-${seat}`).textContent()).toBe(p.dice === 0 ? 'out' : `${p.dice} ${p.dice === 1 ? 'die' : 'dice'}`);
  }
  // No blank dice slots and no list of every possible bid on the big screen; the operator has the same steppers.
  expect(await screen.getByTestId('dice').isVisible()).toBe(false);
  expect(await screen.locator('[data-testid=action-select-bid]').count()).toBe(0);
  expect(await screen.locator('[data-testid=table-board] [data-column=cup]').count()).toBe(0);
  expect(await screen.getByTestId('bluff-table').getByTestId('bid-picker').isVisible()).toBe(true);
  await poll(() => screen.getByTestId('bluff-table').getByTestId('bid-button').isEnabled()).toBe(true);
  void id;
}

describe('Bluffi played from the phones', () => {
  it('plays rounds with every announcement and call made on the phones, and one acceptance on the big screen', async () => {
    const { id, screen, phones, roll } = await openTable('bluffi', ['Ann', 'Bob', 'Cid'], {});
    const random = seededRandom(7);
    const calls = { announce: 0, accept: 0, challenge: 0 };
    for (let step = 0; (table.get(id).state as BluffiState).round <= 3 && !bluffi.result(table.get(id).state as BluffiState); step++) {
      expect(step).toBeLessThan(300);
      const state = table.get(id).state as BluffiState;
      const request = bluffi.diceRequest(state);
      if (request) {
        await roll([1, 2, 3].map(() => 1 + Math.floor(random() * 6)));
        continue;
      }
      const seat = state.current;
      const choice = bluffi.bot(state, random)!;
      if (choice.type === 'announce') {
        const phone = phones[seat]!;
        // The thrower alone sees the throw; the others see none.
        await poll(() => diceValues(phone)).toEqual(state.dice.map(String));
        for (const other of [0, 1, 2].filter((s) => s !== seat && !(state.visibleTo as number[]).includes(s))) {
          await poll(() => phones[other]!.getByTestId('own-dice-empty').count()).toBe(1);
        }
        await poll(() => phone.locator('[data-testid=bid-list] li').count()).toBe(state.claims.length);
        await setStepper(phone, 'claim-total', String(choice.total), Array.from({ length: 19 }, (_, i) => String(i)));
        await tap(phone, 'announce-button', id);
        calls.announce++;
      } else if (choice.type === 'accept' && calls.accept === 0) {
        // The operator can still make a player's move: the first acceptance is made on the big screen.
        const accept = screen.getByTestId('bluff-table').getByTestId('accept-button');
        await poll(() => accept.textContent()).toBe(`${state.players[seat]!.name} believes it`);
        await tap(screen, 'accept-button', id);
        calls.accept++;
      } else if (choice.type === 'accept') {
        await poll(() => phones[seat]!.getByTestId('accept-button').count()).toBe(1);
        await tap(phones[seat]!, 'accept-button', id);
        calls.accept++;
      } else {
        const caller = choice.type === 'challenge' ? (choice.by ?? seat) : seat;
        await poll(() => phones[caller]!.getByTestId('challenge-button').count()).toBe(1);
        await tap(phones[caller]!, 'challenge-button', id);
        calls.challenge++;
      }
      const after = table.get(id).state as BluffiState;
      if (after.over) break;
      for (const [s, p] of after.players.entries()) {
        await poll(() => screen.getByTestId(`cup-count-${s}`).textContent()).toBe(`${p.counters} ${p.counters === 1 ? 'counter' : 'counters'}`);
      }
    }
    expect(calls.announce).toBeGreaterThan(2);
    expect(calls.accept).toBeGreaterThan(1);
    expect(calls.challenge).toBeGreaterThanOrEqual(2);
    expect(await screen.getByTestId('dice').isVisible()).toBe(false);
  }, 180_000);
});

describe('a double tap on a phone', () => {
  it('sends one move with an Idempotency-Key, the buttons disabled until its answer', async () => {
    const { id, phones, roll } = await openTable('bluff', ['Ann', 'Bob'], { dicePerPlayer: '2' });
    await roll([1, 2]);
    await roll([3, 6]);
    const phone = phones[0]!;
    await poll(() => phone.getByTestId('bid-button').count()).toBe(1);
    // The move is held on its way until the page has been looked at.
    const held: Array<{ key: string | undefined; go: () => Promise<void> }> = [];
    await phone.route('**/seats/0/actions?*', (route) => {
      held.push({ key: route.request().headers()['idempotency-key'], go: () => route.continue() });
    });
    await phone.getByTestId('bid-button').dblclick();
    await poll(() => held.length).toBe(1);
    const buttons = phone.locator('#bluff button');
    expect(await buttons.count()).toBeGreaterThan(2);
    expect(await buttons.evaluateAll((els) => els.filter((e) => !(e as HTMLButtonElement).disabled).length)).toBe(0);
    expect(held[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    await held[0]!.go();
    await poll(() => (table.get(id).state as BluffState).bids.length).toBe(1);
    await poll(() => phone.getByTestId('waiting').count()).toBe(1);
    // One request only, and no refusal shown after the success.
    expect(held).toHaveLength(1);
    expect(await phone.locator('#error').isHidden()).toBe(true);
    await phone.unrouteAll({ behavior: 'ignoreErrors' });
  }, 60_000);
});

describe('Bluffi with "anyone may call"', () => {
  it('lets a player who is not next call "Bluffi!" from their phone', async () => {
    const { id, screen, phones, roll } = await openTable('bluffi', ['Ann', 'Bob', 'Cid'], { challengeBy: 'anyone' });
    await roll([6, 6, 6]);
    await roll([1, 1, 1]);
    await roll([2, 2, 2]);
    await roll([1, 2, 1]);
    await poll(() => phones[0]!.getByTestId('announce-button').count()).toBe(1);
    await setStepper(phones[0]!, 'claim-total', '15', Array.from({ length: 19 }, (_, i) => String(i)));
    await tap(phones[0]!, 'announce-button', id);
    // Bob is next; Cid, two seats on, may call too, and only for himself; Ann may not call on her own announcement.
    await poll(() => phones[2]!.getByTestId('challenge-button').count()).toBe(1);
    expect(await phones[2]!.getByTestId('accept-button').count()).toBe(0);
    expect(await phones[0]!.getByTestId('challenge-button').count()).toBe(0);
    await poll(() => screen.getByTestId('bluff-table').getByTestId('challenge-button-2').textContent()).toBe('Cid calls "Bluffi!"');
    await tap(phones[2]!, 'challenge-button', id);
    expect((table.get(id).state as BluffiState).lastChallenge).toMatchObject({ announcer: 0, challenger: 2, announced: 15, total: 4, truthful: false });
  }, 60_000);
});

describe("the bid steppers", () => {
  it('read the open bids, not the board\'s words, and step only among bids that exist', async () => {
    const { id, phones, roll } = await openTable('bluff', ['Ann', 'Bob'], { dicePerPlayer: '2' });
    await roll([1, 2]);
    await roll([3, 6]);
    // Ann bids three 5s (field 4): Bob may bid two or three stars (★2, ★3) but no number below 4, then 4 of anything.
    const bid = await fetch(`${base}/api/games/${id}/actions`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 'bid', position: 4, face: 5 }) });
    expect(bid.status).toBe(200);
    const phone = phones[1]!;
    // Every label of the board reworded, as a translation would: the steppers must not care.
    await phone.route(/\/api\/games\/[^/]+\/seats\/1\?/, async (route) => {
      const res = await route.fetch();
      const view = (await res.json()) as { board: { panels: Array<{ label: string; items: Array<{ label: string }> }> } };
      for (const panel of view.board.panels) {
        panel.label = `«${panel.label}»`;
        for (const item of panel.items) item.label = `«${item.label}»`;
      }
      await route.fulfill({ response: res, json: view });
    });
    await phone.reload();
    await poll(() => phone.getByTestId('bid-count-value').textContent()).toBe('2');
    const shows = async () => [await phone.getByTestId('bid-count-value').textContent(), await phone.getByTestId('bid-face-value').textContent(), await phone.getByTestId('bid-button').textContent()];
    // Two and three: stars only, whichever way the face steps.
    expect(await shows()).toEqual(['2', '★', 'Bid 2 × ★']);
    await phone.getByTestId('bid-face-down').click();
    expect(await shows()).toEqual(['2', '★', 'Bid 2 × ★']);
    await phone.getByTestId('bid-count-up').click();
    await phone.getByTestId('bid-face-down').click();
    expect(await shows()).toEqual(['3', '★', 'Bid 3 × ★']);
    // Four keeps the star (★4 is open), and has every number too.
    await phone.getByTestId('bid-count-up').click();
    expect(await shows()).toEqual(['4', '★', 'Bid 4 × ★']);
    await phone.getByTestId('bid-face-down').click();
    expect(await shows()).toEqual(['4', '5', 'Bid 4 × 5s']);
    // Back to three: no three 5s any more, so the face goes to the first open one, the star.
    await phone.getByTestId('bid-count-down').click();
    expect(await shows()).toEqual(['3', '★', 'Bid 3 × ★']);
    await phone.getByTestId('bid-count-up').click();
    await phone.getByTestId('bid-face-down').click();
    // Never a note calling a bid that does not exist too low, and the button always makes a legal bid.
    expect(await phone.getByTestId('bid-note').count()).toBe(0);
    expect(await phone.getByTestId('bid-button').isEnabled()).toBe(true);
    await tap(phone, 'bid-button', id);
    expect((table.get(id).state as BluffState).bid).toEqual({ position: 6, face: 5, quantity: 4, bidder: 1 });
    await phone.unrouteAll({ behavior: 'ignoreErrors' });
  }, 60_000);
});
