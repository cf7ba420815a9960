import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { createSimulator, type Simulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { liveGames } from '../../src/api/public/view-patch.js';

let sim: Simulator;
let app: FastifyInstance;

beforeEach(async () => {
  sim = createSimulator({ seed: 11, colours: ['ivory'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test' });
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

async function post(url: string, payload?: unknown) {
  const res = await app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

async function newGame(players = ['Ann', 'Bob']): Promise<string> {
  const { status, body } = await post('/api/games', { game: 'dice-poker', players });
  expect(status).toBe(201);
  return body.id;
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

describe('REST API', () => {
  it('answers health with the tower status', async () => {
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', tower: { kind: 'simulated', state: 'ready' }, games: 0 });
  });

  it('creates a game and reads it back', async () => {
    const id = await newGame();
    const res = await app.inject(`/api/games/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, game: 'dice-poker', players: ['Ann', 'Bob'], request: { count: 5, player: 0 }, lastRoll: null });
    expect((await app.inject('/api/games')).json()).toHaveLength(1);
  });

  it.each([
    [{ players: ['Ann'] }, /game/],
    [{ game: 'dice-poker' }, /players/],
    [{ game: 'dice-poker', players: [] }, /players/],
    [{ game: 'dice-poker', players: ['Ann'], colour: 'red' }, /must NOT have additional properties \('colour'\)/],
    [{ game: 'go-fish', players: ['Ann'] }, /no game called 'go-fish'/],
    [{ game: 'dice-poker', players: ['Ann', 'Ann'] }, /Ann/],
    [{ game: 'dice-poker', players: ['Ann'], options: { maxThrows: 0 } }, /maxThrows/],
  ])('refuses a bad new game %j with a 400 naming the problem', async (payload, message) => {
    const { status, body } = await post('/api/games', payload);
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
    expect((await app.inject('/api/games')).json()).toHaveLength(0);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/games', headers: { 'content-type': 'application/json' }, payload: '{"game":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/i);
  });

  it('answers 404 for a game that does not exist', async () => {
    const res = await app.inject('/api/games/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'table/game_not_found', message: expect.stringContaining('nope') });
  });

  it('rolls through tower, camera and vision, and applies what the camera saw', async () => {
    const id = await newGame();
    const { status, body } = await post(`/api/games/${id}/roll`);
    expect(status).toBe(200);
    const truth = sim.truth().map((d) => d.value);
    expect(truth).toHaveLength(5);
    expect(sorted(body.board.dice)).toEqual(sorted(truth));
    expect(body.lastRoll).toMatchObject({ seq: 1, source: 'tower', attempts: 1, values: body.board.dice });
    expect(body.lastRoll.reading.dice).toHaveLength(5);
    // Each die's box as the pages draw it: four corners as [x1, y1, …, x4, y4] in whole pixels, around where the die lies.
    for (const die of body.lastRoll.reading.dice as Array<{ value: number; box: number[] }>) {
      expect(Object.keys(die).sort()).toEqual(['box', 'colour', 'confidence', 'value']);
      expect(die.box).toHaveLength(8);
      expect(die.box.every((n) => Number.isInteger(n))).toBe(true);
      const cx = (die.box[0]! + die.box[2]! + die.box[4]! + die.box[6]!) / 4;
      const cy = (die.box[1]! + die.box[3]! + die.box[5]! + die.box[7]!) / 4;
      const nearest = Math.min(...sim.truth().map((t) => Math.hypot(t.x - cx, t.y - cy)));
      expect(nearest).toBeLessThan(8);
    }
    // The last roll's frame: its URL is in the recent rolls (the same roll), not again in lastRoll.
    expect(body.lastRoll.frameUrl).toBeUndefined();
    expect(body.recentRolls.at(-1).seq).toBe(body.lastRoll.seq);
    const frame = await app.inject(body.recentRolls.at(-1).frameUrl);
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
  });

  it('re-rolls only the unheld dice', async () => {
    const id = await newGame();
    const first = (await post(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 5] })).body;
    expect(first.lastRoll).toMatchObject({ source: 'manual', reading: null });
    expect(first.recentRolls.at(-1)).toMatchObject({ seq: first.lastRoll.seq, frameUrl: null });
    expect((await post(`/api/games/${id}/hold`, { dice: [0, 4] })).status).toBe(200);
    const second = (await post(`/api/games/${id}/roll`)).body;
    expect(sim.truth()).toHaveLength(3);
    expect(second.board.dice[0]).toBe(1);
    expect(second.board.dice[4]).toBe(5);
    expect(sorted([second.board.dice[1], second.board.dice[2], second.board.dice[3]])).toEqual(sorted(sim.truth().map((d) => d.value)));
    expect(second.lastRoll.slots).toEqual([1, 2, 3]);
  });

  it('scores a category and passes the turn', async () => {
    const id = await newGame();
    await post(`/api/games/${id}/roll`, { values: [2, 3, 4, 5, 6] });
    const { status, body } = await post(`/api/games/${id}/score`, { category: 'largeStraight' });
    expect(status).toBe(200);
    expect(body.board.players[0].cells.largeStraight).toBe(40);
    expect(body.board.players[0].cells.total).toBe(40);
    expect(body.board.current).toBe(1);
  });

  it('lists every game in the catalog with its options and defaults', async () => {
    const res = await app.inject('/api/games/catalog');
    expect(res.statusCode).toBe(200);
    const poker = res.json().find((g: { id: string }) => g.id === 'dice-poker');
    expect(poker).toMatchObject({ name: 'Dice Poker', minPlayers: 1, maxPlayers: 6, dice: { count: 5 } });
    expect(poker.options).toContainEqual(expect.objectContaining({ name: 'upperBonusThreshold', type: 'integer', default: 63 }));
    expect(poker.options).toContainEqual(expect.objectContaining({ name: 'upperBonusComparison', type: 'choice', default: '>=', choices: ['>=', '>'] }));
  });

  it('lists the games whose rules are unavailable, and refuses to start them', async () => {
    const catalog = (await app.inject('/api/games/catalog')).json();
    const killer = catalog.find((g: { id: string }) => g.id === 'killer');
    expect(killer).toMatchObject({ available: false, summary: expect.stringMatching(/^Rules unavailable/) });
    expect(catalog.filter((g: { available: boolean }) => g.available).length).toBeGreaterThanOrEqual(19);
    const { status, body } = await post('/api/games', { game: 'killer', players: ['Ann', 'Bob'] });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'table/rules_unavailable', message: expect.stringContaining('Rules unavailable for Killer') });
  });

  it('takes any game action through /actions, and lists the open ones', async () => {
    const id = await newGame();
    const rolled = (await post(`/api/games/${id}/roll`, { values: [6, 6, 6, 2, 3] })).body;
    expect(rolled.actions).toContainEqual({ type: 'score', category: 'threeOfAKind' });
    const held = await post(`/api/games/${id}/actions`, { type: 'hold', dice: [0, 1, 2] });
    expect(held.status).toBe(200);
    expect(held.body.board.held).toEqual([true, true, true, false, false]);
    const bad = await post(`/api/games/${id}/actions`, { type: 'bid', quantity: 3 });
    expect(bad.status).toBe(409);
    expect(bad.body.message).toMatch(/no action "bid"|bid/);
    expect((await post(`/api/games/${id}/actions`, { type: 'roll', values: [1] })).status).toBe(400);
  });

  it('refuses illegal moves with 409 and keeps the game as it was', async () => {
    const id = await newGame();
    const before = (await app.inject(`/api/games/${id}`)).json();
    const hold = await post(`/api/games/${id}/hold`, { dice: [0] });
    expect(hold.status).toBe(409);
    expect(hold.body).toMatchObject({ code: 'game/no_throw_yet', error: 'Conflict' });
    const score = await post(`/api/games/${id}/score`, { category: 'chance' });
    expect(score.status).toBe(409);
    expect((await app.inject(`/api/games/${id}`)).json()).toEqual(before);
  });

  it.each([
    ['/roll', { values: [1, 2, 3] }, 400, /5 dice values/],
    ['/roll', { values: [1, 2, 3, 4, 7] }, 400, /values\/4 must be <= 6/],
    ['/roll', { values: 'five' }, 400, /values must be array/],
    ['/hold', { dice: [9] }, 409, /0 to 4/],
    ['/hold', {}, 400, /dice/],
    ['/score', { category: 'yahtzee' }, 409, /yahtzee/],
  ])('refuses POST %s %j with %i naming the problem', async (path, payload, status, message) => {
    const id = await newGame();
    if (path !== '/roll') await post(`/api/games/${id}/roll`, { values: [1, 1, 2, 3, 4] });
    const res = await post(`/api/games/${id}${path}`, payload);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  it('plays a whole two-player game with manual rolls to a winner', async () => {
    const id = await newGame();
    let view = (await app.inject(`/api/games/${id}`)).json();
    let turn = 0;
    while (view.result === null) {
      const face = (turn % 6) + 1;
      view = (await post(`/api/games/${id}/roll`, { values: [face, face, face, 2, 3] })).body;
      const choice = view.board.choices[0];
      view = (await post(`/api/games/${id}/score`, { category: choice.row })).body;
      turn++;
    }
    expect(turn).toBe(30);
    expect(view.result.winners.length).toBeGreaterThan(0);
    expect(view.result.scores).toEqual(view.board.players.map((p: { cells: { total: number } }) => p.cells.total));
  });
});

describe('operator token', () => {
  it('lets viewers read and only the operator act', async () => {
    const s = createSimulator({ seed: 3, colours: ['red'] });
    const guarded = buildApp({ table: new Table({ tower: s.tower, camera: s.camera, reader: createDiceReader() }), version: 'test', operatorToken: 'sesame' });
    const as = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});
    const create = (token?: string) => guarded.inject({ method: 'POST', url: '/api/games', headers: as(token), payload: { game: 'dice-poker', players: ['Ann'] } });
    const missing = await create();
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'auth/missing_token', message: expect.stringContaining('Authorization: Bearer') });
    expect((await create('guess')).statusCode).toBe(403);
    const made = await create('sesame');
    expect(made.statusCode).toBe(201);
    const id = made.json().id;
    // Reading stays open; every action and the seat links need the token, even with a bad body.
    expect((await guarded.inject(`/api/games/${id}`)).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', `/api/games/${id}/roll`],
      ['POST', `/api/games/${id}/actions`],
      ['POST', `/api/games/${id}/hold`],
      ['POST', `/api/games/${id}/score`],
      ['GET', `/api/games/${id}/seats`],
      ['GET', `/api/games/${id}/seats/0/qr.svg`],
      ['POST', `/api/games/${id}/seats/0/reissue`],
    ] as const) {
      expect((await guarded.inject({ method, url, payload: method === 'POST' ? { bogus: true } : undefined })).statusCode, url).toBe(401);
    }
    expect((await guarded.inject({ method: 'GET', url: `/api/games/${id}/seats/0/qr.svg?operator=sesame` })).statusCode).toBe(200);
    expect((await guarded.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: as('sesame'), payload: { values: [1, 2, 3, 4, 5] } })).statusCode).toBe(200);
    await guarded.close();
  });
});

describe('WebSocket feed', () => {
  it('sends the full state on connect, then every change', async () => {
    const id = await newGame();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${address.port}/ws`);
    const messages: Array<{ type: string; [k: string]: unknown }> = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await expect.poll(() => messages.length).toBe(1);
    expect(messages[0]).toMatchObject({ type: 'snapshot', v: 1, games: [{ id }], tower: { state: 'ready' } });

    await post(`/api/games/${id}/roll`);
    // The change comes as a patch of the snapshot's view (the lean feed), numbered on from the snapshot's seq.
    await expect.poll(() => messages.filter((m) => m.type === 'patch').length).toBe(1);
    const towerStates = messages.filter((m) => m.type === 'tower').map((m) => (m.status as { state: string }).state);
    expect(towerStates).toEqual(['rolling', 'ready']);
    const live = liveGames();
    for (const m of messages) expect(live.take(m)).not.toHaveProperty('resync');
    expect(messages.find((m) => m.type === 'patch')).toMatchObject({ gameId: id, seq: (messages[0]?.seqs as Record<string, number>)[id]! + 1 });
    const game = live.games.get(id)?.view as { lastRoll: { seq: number; source: string } };
    expect(game.lastRoll).toMatchObject({ seq: 1, source: 'tower' });

    ws.send('hello');
    await expect.poll(() => messages.some((m) => m.type === 'error')).toBe(true);
    ws.close();
  });
});
