/**
 * Phones that play: in Bluff and Bluffi a seat's private page sends that
 * seat's own bids, challenges and re-throw declarations with its token; another
 * seat's action or one out of turn gets a 403 naming whose it is, and the
 * operator can still make every move.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';

const OPERATOR = 'operator-token-for-phones';
const auth = { authorization: `Bearer ${OPERATOR}` };
let app: FastifyInstance;

beforeEach(async () => {
  const sim = createSimulator({ seed: 5, colours: ['white'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test', operatorToken: OPERATOR });
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

async function newGame(game: string, players: string[], options: Record<string, unknown>) {
  const created = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game, players, options } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const links = (await app.inject({ url: `/api/games/${id}/seats`, headers: auth })).json() as Array<{ path: string }>;
  const tokens = links.map((l) => new URLSearchParams(l.path.split('?')[1]).get('token') ?? '');
  const phone = (seat: number, action: Record<string, unknown>, token = tokens[seat] ?? '') =>
    app.inject({ method: 'POST', url: `/api/games/${id}/seats/${seat}/actions?token=${encodeURIComponent(token)}`, payload: action });
  const roll = async (values: number[]) => {
    const res = await app.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: auth, payload: { values } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const operator = (action: Record<string, unknown>) => app.inject({ method: 'POST', url: `/api/games/${id}/actions`, headers: auth, payload: action });
  return { id, tokens, phone, roll, operator };
}

describe('Bluff from the phones', () => {
  it('lets each seat bid and challenge, leaves a stacked throw to the operator, and refuses the others with 403', async () => {
    const g = await newGame('bluff', ['Ann', 'Bob', 'Cid'], { dicePerPlayer: '2' });
    await g.roll([1, 2]);
    await g.roll([3, 6]);
    await g.roll([5, 5]);

    // Cid's throw landed stacked. Cid has seen those dice, so neither Cid nor anyone else may declare it from a
    // phone (or Cid could throw a poor hand again until it suited); the operator, who watches the tower, does.
    for (const seat of [1, 2]) {
      const fromPhone = await g.phone(seat, { type: 'rethrow', dice: [4, 5] });
      expect(fromPhone.statusCode).toBe(403);
      expect(fromPhone.json()).toMatchObject({ code: 'table/not_your_turn', message: `${['Ann', 'Bob', 'Cid'][seat]} cannot rethrow now: only the operator, who watches the tower, may.` });
    }
    const stacked = await g.operator({ type: 'rethrow', dice: [4, 5] });
    expect(stacked.statusCode, stacked.body).toBe(200);
    expect(stacked.json().request).toMatchObject({ player: 2, slots: [4, 5], secret: true });
    await g.roll([5, 4]);

    // Ann opens; Bob may not bid for her, nor with a wrong token.
    const early = await g.phone(1, { type: 'bid', position: 1, face: 3 });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe("Bob cannot bid now: it is Ann's to make.");
    const guessed = await g.phone(0, { type: 'bid', position: 1, face: 3 }, 'guess');
    expect(guessed.statusCode).toBe(403);
    expect(guessed.json().message).toMatch(/not the token of seat 0/);

    const opened = await g.phone(0, { type: 'bid', position: 1, face: 3 });
    expect(opened.statusCode, opened.body).toBe(200);
    const annSees = opened.json();
    // The reply is Ann's own view: her cup, nobody else's.
    expect(annSees.viewer).toBe(0);
    expect(annSees.state.dice).toEqual([1, 2, null, null, null, null]);
    expect(annSees.state.bids).toEqual([{ position: 1, face: 3, quantity: 1, bidder: 0 }]);

    // Bob raises from his phone; the operator can still bid for Cid.
    expect((await g.phone(1, { type: 'bid', position: 2, face: 6 })).statusCode).toBe(200);
    const byOperator = await g.operator({ type: 'bid', position: 3, face: 4 });
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    expect(byOperator.json().board.panels.find((p: { id: string }) => p.id === 'bids').items).toMatchObject([
      { label: 'Ann', value: '1 × 3s' },
      { label: 'Bob', value: '1 × ★' },
      { label: 'Cid', value: '2 × 4s' },
    ]);

    // Ann doubts Cid's two 4s: one 4 and one star (Bob's 6) make exactly two.
    expect((await g.phone(2, { type: 'challenge' })).statusCode).toBe(403);
    const challenged = await g.phone(0, { type: 'challenge' });
    expect(challenged.statusCode, challenged.body).toBe(200);
    expect(challenged.json().state.lastChallenge).toMatchObject({ challenger: 0, count: 2, outcome: 'exact', cups: [[1, 2], [3, 6], [5, 4]] });
    // A new round: the bid list starts empty.
    expect(challenged.json().state.bids).toEqual([]);
  });

  it('refuses every phone action once the game is over', async () => {
    const g = await newGame('bluff', ['Ann', 'Bob'], { dicePerPlayer: '1' });
    await g.roll([2]);
    await g.roll([3]);
    expect((await g.phone(0, { type: 'bid', position: 1, face: 4 })).statusCode).toBe(200);
    expect((await g.phone(1, { type: 'challenge' })).json().result).toMatchObject({ winners: [1] });
    const late = await g.phone(1, { type: 'bid', position: 3, face: 4 });
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe('Bob cannot bid now: the game is over.');
  });
});

describe('Bluff variant 2 from the phones', () => {
  it("lets the bidder alone show dice or keep them hidden, and names each action's seat in the view", async () => {
    const g = await newGame('bluff', ['Ann', 'Bob'], { dicePerPlayer: '3', showAndReroll: true });
    await g.roll([6, 2, 3]);
    await g.roll([4, 4, 1]);
    const bid = await g.phone(0, { type: 'bid', position: 1, face: 3 });
    expect(bid.statusCode, bid.body).toBe(200);
    // Every open action is Ann's: showing a die or keeping them all hidden.
    expect(bid.json().actions.map((a: { type: string }) => a.type)).toEqual(['keepHidden', 'show', 'show', 'show']);
    expect(bid.json().actors).toEqual([0, 0, 0, 0]);
    const bobs = await g.phone(1, { type: 'keepHidden' });
    expect(bobs.statusCode).toBe(403);
    expect(bobs.json().message).toBe("Bob cannot keepHidden now: it is Ann's to make.");
    const shown = await g.phone(0, { type: 'show', dice: [0] });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().request).toMatchObject({ player: 0, slots: [1, 2] });
    // The star she showed lies face up for everyone, Bob's phone included.
    const bob = (await app.inject({ url: `/api/games/${g.id}/seats/1?token=${encodeURIComponent(g.tokens[1] ?? '')}` })).json();
    expect(bob.state.dice).toEqual([6, null, null, 4, 4, 1]);
  });
});

describe('Bluffi from the phones', () => {
  it('lets the thrower announce, the next player accept, and anyone call "Bluffi!" for themself only', async () => {
    const g = await newGame('bluffi', ['Ann', 'Bob', 'Cid'], { challengeBy: 'anyone' });
    await g.roll([6, 6, 6]);
    await g.roll([1, 1, 1]);
    await g.roll([2, 2, 2]);
    const thrown = await g.roll([4, 4, 3]);
    expect(thrown.board.current).toBe(0);

    expect((await g.phone(1, { type: 'announce', total: 11 })).statusCode).toBe(403);
    expect((await g.phone(0, { type: 'announce', total: 11 })).statusCode).toBe(200);
    // Bob is next, so his phone accepts; Cid's cannot accept for him.
    expect((await g.phone(2, { type: 'accept' })).json().message).toBe("Cid cannot accept now: it is Bob's to make.");
    const accepted = await g.phone(1, { type: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // Bob took the cup and may peek at Ann's throw on his phone.
    expect(accepted.json().state.dice).toEqual([4, 4, 3]);
    await g.roll([6, 5, 1]);
    expect((await g.phone(1, { type: 'announce', total: 13 })).statusCode).toBe(200);

    // Cid may call for himself (anyone may), but never in Ann's name.
    const forAnn = await g.phone(2, { type: 'challenge', by: 0 });
    expect(forAnn.statusCode).toBe(403);
    expect(forAnn.json().message).toBe("Cid cannot challenge now: it is Ann's to make.");
    const called = await g.phone(2, { type: 'challenge', by: 2 });
    expect(called.statusCode, called.body).toBe(200);
    expect(called.json().state.lastChallenge).toMatchObject({ announcer: 1, challenger: 2, total: 12, truthful: false, giver: 2 });
    expect(called.json().state.claims).toEqual([]);
  });
});

describe('a double tap or a retry from a phone', () => {
  it('applies a move sent again with the same Idempotency-Key once, and replays its answer to that seat only', async () => {
    const g = await newGame('bluff', ['Ann', 'Bob'], { dicePerPlayer: '2' });
    await g.roll([1, 2]);
    await g.roll([3, 6]);
    const url = (seat: number, token = g.tokens[seat] ?? '') => `/api/games/${g.id}/seats/${seat}/actions?token=${encodeURIComponent(token)}`;
    const send = (seat: number, key: string, payload: Record<string, unknown>, token?: string) =>
      app.inject({ method: 'POST', url: url(seat, token), headers: { 'idempotency-key': key }, payload });
    const bid = { type: 'bid', position: 1, face: 3 };
    const first = await send(0, 'tap-1', bid);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(0, 'tap-1', bid);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // Applied once: one bid on the list, Bob to answer.
    const view = (await app.inject({ url: `/api/games/${g.id}`, headers: auth })).json();
    expect(view.state.bids).toHaveLength(1);
    expect(view.board.current).toBe(1);
    // Without the seat's token the key replays nothing (Ann's view holds her dice).
    const stranger = await send(0, 'tap-1', bid, 'guess');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.body).not.toContain('"dice":[1,2');
    // Another seat with the same key and body is no retry of Ann's move.
    const bob = await send(1, 'tap-1', bid);
    expect(bob.statusCode).toBe(422);
    expect(bob.json().code).toBe('api/idempotency_key_reused');
    // A bad key is named.
    const bad = await send(1, 'has space', { type: 'challenge' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('api/bad_idempotency_key');
  });
});
