/** Undo, end and rematch through the REST API: recorded as events, kept across a restart and an export. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import type { BluffState } from '../../src/games/bluff.js';

const TOKEN = 'game-routes-operator-token';
const headers = { authorization: `Bearer ${TOKEN}` };
let cleanup: Array<() => Promise<void> | void> = [];

/** A server on a data directory (a new one, or `dir` again: a restart). */
async function server(dir = mkdtempSync(join(tmpdir(), 'dice-tower-game-routes-'))) {
  const store: GameStore = openStore(dir);
  const sim = createSimulator({ seed: 21, colours: ['red', 'blue'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  const app: FastifyInstance = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.ready();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    store.close();
  };
  cleanup.push(close, () => rmSync(dir, { recursive: true, force: true }));
  const post = async (url: string, payload?: unknown) => {
    const res = await app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };
  return { app, table, store, dir, post, get, close };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
};

beforeEach(() => {
  cleanup = [];
});
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('undo', () => {
  it('takes back the last decision as its own event; never a roll; replay, restart and export agree', async () => {
    const a = await server();
    const id = (await a.post('/api/games', { game: 'shut-the-box', players: ['Ann', 'Ben'] })).body.id;
    const nothing = await a.post(`/api/games/${id}/undo`);
    expect(nothing).toMatchObject({ status: 409, body: { code: 'undo/nothing', message: expect.stringMatching(/Nothing to undo/) } });
    await a.post(`/api/games/${id}/roll`, { values: [6, 3] });
    const before = (await a.get(`/api/games/${id}`)).body;
    expect((await a.post(`/api/games/${id}/actions`, { type: 'close', boxes: [9] })).status).toBe(200);
    const undone = await a.post(`/api/games/${id}/undo`, { by: 'Kim' });
    expect(undone.status).toBe(200);
    expect(undone.body.undone).toEqual([{ seat: 0, player: 'Ann', bot: false, action: { type: 'close', boxes: [9] } }]);
    expect(undone.body.game.state).toEqual(before.state);
    expect(undone.body.game.version).toBe(before.version + 2);
    // The roll before it is physical: never taken back, and the refusal says to correct it instead.
    const refused = await a.post(`/api/games/${id}/undo`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'undo/after_roll', message: expect.stringMatching(/roll 1 \(6 3\): a roll is never taken back.*Correct it/) } });
    expect((await a.post(`/api/games/${id}/actions`, { type: 'close', boxes: [3, 6] })).status).toBe(200);
    const played = (await a.get(`/api/games/${id}`)).body;
    // Nothing is lost: the log holds the decision taken back and the undo naming it.
    const types = a.store.loadGame(id)!.steps.map((s) => s.type);
    expect(types).toEqual(['game/roll', 'game/action', 'game/undo', 'game/action']);
    expect(a.store.checkRecord()).toMatchObject({ ok: true, problem: null });

    const exp = (await a.app.inject({ method: 'GET', url: `/api/games/${id}/export`, headers })).json();
    expect(exp.events.map((e: { type: string }) => e.type)).toContain('game/undo');
    await a.close();
    const again = await server(a.dir);
    const restored = (await again.get(`/api/games/${id}`)).body;
    for (const key of ['state', 'version', 'board', 'actions']) expect(restored[key]).toEqual(played[key]);
    const b = await server();
    expect((await b.post('/api/games/import', exp)).status).toBe(201);
    expect((await b.get(`/api/games/${id}`)).body.state).toEqual(played.state);
    // A forged undo (naming a decision that was not the last) is refused by replay.
    const forged = JSON.parse(JSON.stringify(exp));
    forged.events[3].payload.undone[0].action.boxes = [4, 5];
    const c = await server();
    const { buildExport } = await import('../../src/audit/game-export.js');
    const rechained = buildExport(id, forged.events, forged.exportedAt);
    expect((await c.post('/api/games/import', rechained)).body).toMatchObject({ code: 'import/refused_by_rules', message: expect.stringMatching(/undo names 'close'/) });
  });

  it('takes a bot\'s answer back with the person\'s move before it (throughBots, the default), or alone', async () => {
    const { post, get, table } = await server();
    const id = (await post('/api/games', { game: 'bluff', players: ['Ann', 'Robo'], bots: [1], options: { dicePerPlayer: '5' } })).body.id;
    await post(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 5] });
    await until(() => table.get(id).rolls.length === 2);
    await post(`/api/games/${id}/actions`, { type: 'bid', position: 1, face: 2 });
    await until(() => table.get(id).actions.length === 4);
    const both = await post(`/api/games/${id}/undo`);
    expect(both.status).toBe(200);
    expect(both.body.undone.map((u: { player: string; bot: boolean }) => [u.player, u.bot])).toEqual([['Robo', true], ['Ann', false]]);
    expect((await get(`/api/games/${id}`)).body.board.current).toBe(0);
    await post(`/api/games/${id}/actions`, { type: 'bid', position: 1, face: 2 });
    await until(() => table.get(id).actions.length === 4);
    const alone = await post(`/api/games/${id}/undo`, { throughBots: false });
    expect(alone.body.undone).toEqual([expect.objectContaining({ player: 'Robo', bot: true })]);
  });

  it("takes Bluff's last bid off the round's list; a log of bids without their field (older pages) replays after a restart", async () => {
    const a = await server();
    const id = (await a.post('/api/games', { game: 'bluff', players: ['Ann', 'Bob', 'Cid'], options: { dicePerPlayer: '2' } })).body.id;
    for (const values of [[1, 2], [3, 6], [5, 5]]) await a.post(`/api/games/${id}/roll`, { values });
    // Bids as the pages sent them before the open bids named their field (quantity, star).
    for (const [position, face] of [[1, 3], [2, 6], [3, 4]]) expect((await a.post(`/api/games/${id}/actions`, { type: 'bid', position, face })).status).toBe(200);
    const undone = await a.post(`/api/games/${id}/undo`, { by: 'Kim' });
    const state = undone.body.game.state as BluffState;
    expect(state.bids).toEqual([
      { position: 1, face: 3, quantity: 1, bidder: 0 },
      { position: 2, face: 6, quantity: 1, bidder: 1 },
    ]);
    expect(state.bid).toEqual(state.bids[1]);
    expect(state.current).toBe(2);
    // The log holds the bids as they were sent: no quantity, no star.
    const logged = a.store.loadGames().find((g) => g.id === id)!.steps.flatMap((s) => (s.type === 'game/action' && s.payload.action.type === 'bid' ? [s.payload.action] : []));
    expect(logged).toEqual([
      { type: 'bid', position: 1, face: 3 },
      { type: 'bid', position: 2, face: 6 },
      { type: 'bid', position: 3, face: 4 },
    ]);
    await a.close();

    const b = await server(a.dir);
    expect(b.table.restoreProblems).toEqual([]);
    expect((b.table.get(id).state as BluffState).bids).toEqual(state.bids);
    // The game goes on: Cid raises, Ann challenges, and the next round's list starts empty.
    await b.post(`/api/games/${id}/actions`, { type: 'bid', position: 3, face: 4 });
    expect((b.table.get(id).state as BluffState).bids).toHaveLength(3);
    const challenged = await b.post(`/api/games/${id}/actions`, { type: 'challenge' });
    expect(challenged.body.state).toMatchObject({ bids: [], round: 2 });
  });

  it('refuses to take back a decision that showed secret dice', async () => {
    const { post } = await server();
    const id = (await post('/api/games', { game: 'bluff', players: ['Ann', 'Ben'], options: { dicePerPlayer: '5' } })).body.id;
    await post(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 5] });
    await post(`/api/games/${id}/roll`, { values: [2, 2, 3, 3, 6] });
    await post(`/api/games/${id}/actions`, { type: 'bid', position: 1, face: 2 });
    await post(`/api/games/${id}/actions`, { type: 'challenge' });
    const refused = await post(`/api/games/${id}/undo`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'undo/secret_revealed', message: expect.stringMatching(/Ben's 'challenge' is refused: it showed the whole table the secret throw of Ann/) } });
  });

  it('refuses after the game is over, and needs the operator', async () => {
    const { app, post, table } = await server();
    const id = (await post('/api/games', { game: 'dice-poker', players: ['Ann'], options: { maxThrows: 1 } })).body.id;
    while (!(await app.inject({ method: 'GET', url: `/api/games/${id}` })).json().result) {
      await post(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 6] });
      const open = table.definition(table.get(id)).legalActions(table.get(id).state).find((a) => a.type === 'score');
      if (open) await post(`/api/games/${id}/actions`, open);
    }
    expect(await post(`/api/games/${id}/undo`)).toMatchObject({ status: 409, body: { code: 'undo/game_over' } });
    expect((await app.inject({ method: 'POST', url: `/api/games/${id}/undo` })).statusCode).toBe(401);
  });
});

describe('end and rematch', () => {
  it('ends a game without a result: on record, in the history, nothing more played', async () => {
    const a = await server();
    const id = (await a.post('/api/games', { game: 'shut-the-box', players: ['Ann', 'Ben'] })).body.id;
    await a.post(`/api/games/${id}/roll`, { values: [6, 3] });
    const ended = await a.post(`/api/games/${id}/end`, { reason: 'dinner' });
    expect(ended.status).toBe(200);
    expect(ended.body.ended).toMatchObject({ by: 'operator', reason: 'dinner' });
    expect(ended.body.result).toBeNull();
    expect(await a.post(`/api/games/${id}/actions`, { type: 'close', boxes: [9] })).toMatchObject({ status: 409, body: { code: 'table/game_ended' } });
    expect((await a.post(`/api/games/${id}/undo`)).body.code).toBe('table/game_ended');
    expect((await a.post(`/api/games/${id}/end`)).status).toBe(409);
    expect((await a.get('/api/history')).body.games[0]).toMatchObject({ id, ended: true, over: false });
    await a.close();
    const again = await server(a.dir);
    expect((await again.get(`/api/games/${id}`)).body.ended).toMatchObject({ reason: 'dinner' });
  });

  it('starts a rematch: same players, options and bots with levels, the next seat first', async () => {
    const { post, get } = await server();
    const old = (await post('/api/games', { game: 'yatzy', players: ['Ann', 'Ben', 'Robo'], bots: [2], options: { endTie: 'noWinner' } })).body;
    const res = await post(`/api/games/${old.id}/rematch`);
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(old.id);
    expect(res.body).toMatchObject({ game: 'yatzy', players: ['Ben', 'Robo', 'Ann'], bots: [1], botLevels: { 1: 'simple' } });
    expect((await get(`/api/games/${res.body.id}`)).body.board.current).toBe(0);
    expect((await post('/api/games/nope/rematch')).status).toBe(404);
  });
});

describe('players', () => {
  it('lists players from the table\'s games and gives one player\'s record; kept across a restart', async () => {
    const a = await server();
    const id = (await a.post('/api/games', { game: 'dice-poker', players: ['Ann', 'Ben'], options: { maxThrows: 1 } })).body.id;
    while (!(await a.get(`/api/games/${id}`)).body.result) {
      const seat = (await a.get(`/api/games/${id}`)).body.board.current;
      await a.post(`/api/games/${id}/roll`, { values: seat === 0 ? [6, 6, 6, 6, 6] : [1, 2, 3, 4, 6] });
      const open = a.table.definition(a.table.get(id)).legalActions(a.table.get(id).state).find((x) => x.type === 'score');
      if (open) await a.post(`/api/games/${id}/actions`, open);
    }
    await a.post('/api/games', { game: 'shut-the-box', players: ['Cy', 'Robo'], bots: [1] });
    const list = (await a.get('/api/players')).body;
    expect(list.map((p: { name: string }) => p.name)).toEqual(['Cy', 'Ann', 'Ben']);
    const ann = await a.get('/api/players/ann');
    expect(ann.status).toBe(200);
    expect(ann.body).toMatchObject({ name: 'Ann', games: 1, finished: 1, wins: 1, byGame: [{ game: 'dice-poker', played: 1, wins: 1, best: expect.any(Number) }] });
    expect((await a.get('/api/players/Robo')).body).toMatchObject({ code: 'players/not_found', message: expect.stringMatching(/bot seats are not counted/) });
    await a.close();
    const again = await server(a.dir);
    expect((await again.get('/api/players/Ann')).body).toEqual(ann.body);
  });
});

describe('table feed', () => {
  it('every game view carries the recent steps in words, never a secret die', async () => {
    const { post, get } = await server();
    const id = (await post('/api/games', { game: 'bluff', players: ['Anna', 'Ben'], options: { dicePerPlayer: '5' } })).body.id;
    await post(`/api/games/${id}/roll`, { values: [1, 2, 3, 4, 5] });
    await post(`/api/games/${id}/roll`, { values: [2, 2, 3, 3, 6] });
    await post(`/api/games/${id}/actions`, { type: 'bid', position: 1, face: 2 });
    const view = (await get(`/api/games/${id}`)).body;
    expect(view.feed.map((e: { key: string }) => e.key)).toEqual(['feed.threwInSecret', 'feed.threwInSecret', 'feed.bid']);
    expect(view.feed[2].params).toEqual({ name: 'Anna', bid: { key: 'feed.bidDice', params: { count: 1, face: 2 } } });
    expect(view.feed[2]).toMatchObject({ n: 3, seat: 0, bot: false });
  });
});
