/**
 * Schema and authorisation for every route and every WebSocket message type.
 * The routes come from the app itself (its onRoute list), so a route added
 * later is checked here without editing this file: an operator route must
 * refuse a missing or wrong token, junk params and bodies must get a 4xx with
 * a code and a message naming the problem (never a 500), and the README must
 * list it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp, routesOf } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { CLIENT_MESSAGES, MAX_MESSAGES, MAX_STRIKES } from '../../src/api/feed.js';
import { secretDuel } from './secret-duel.js';
import { liveGames } from '../../src/api/public/view-patch.js';
import { GAMES } from '../../src/games/index.js';

const TOKEN = 'operator-token-for-tests';
const as = (token: string) => ({ authorization: `Bearer ${token}` });
let app: FastifyInstance;
let table: Table;
let store: GameStore;
let dir: string;
let gameId = '';
let duelId = '';
let base = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-access-'));
  store = openStore(dir);
  const sim = createSimulator({ seed: 3, colours: ['white'] });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, games: { ...GAMES, 'secret-duel': secretDuel } });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `127.0.0.1:${(app.server.address() as { port: number }).port}`;
  gameId = table.create('dice-poker', ['Ann', 'Bob']).id;
  await table.roll(gameId, [1, 2, 3, 4, 5]);
  duelId = table.create('secret-duel', ['Ann', 'Bob']).id;
});

afterAll(async () => {
  await app.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The route's URL with its params filled in with things that exist. */
const fill = (url: string) => url.replace(':id', gameId).replace(':seat', '0').replace(':seq', '1').replace(':name', 'Ann').replace('*', 'index.html');
const apiRoutes = () => routesOf(app).filter((r) => r.url !== '/*' && r.url !== '/ws');

describe('the route list', () => {
  it('has every route of the app, each with an access rule', () => {
    const list = routesOf(app).map((r) => `${r.method} ${r.url} ${r.access}`);
    for (const expected of [
      'GET /api/health public', 'POST /api/games operator', 'POST /api/games/:id/roll operator', 'GET /api/games/:id/seats/:seat seat',
      'GET /api/games/:id/rolls/:seq/frame.jpg public/seat', 'GET /api/history public', 'POST /api/games/:id/rolls/:seq/correction operator',
      'GET /api/fairness public', 'GET /api/games/:id/export operator', 'POST /api/games/import operator', 'POST /api/operator/token operator', 'GET /ws public',
    ]) expect(list).toContain(expected);
  });

  it('is written down in the README, every route with its access rule', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const r of routesOf(app)) expect(readme, `${r.method} ${r.url}`).toMatch(new RegExp(`\\| \`${r.method} ${r.url.replace(/[.*]/g, '\\$&')}\` \\| ${r.access.replace('/', '\\/')} \\|`));
  });
});

describe('authorisation of every operator route', () => {
  const operatorRoutes = () => apiRoutes().filter((r) => r.access === 'operator');

  it('refuses each without a token (401) and with a wrong one (403), naming the problem', async () => {
    expect(operatorRoutes().length).toBeGreaterThanOrEqual(10);
    for (const r of operatorRoutes()) {
      const url = fill(r.url);
      const none = await app.inject({ method: r.method as 'GET', url });
      expect(none.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(none.json()).toMatchObject({ code: 'auth/missing_token', message: expect.stringContaining('Authorization: Bearer') });
      const wrong = await app.inject({ method: r.method as 'GET', url, headers: as('not-the-operator-token') });
      expect(wrong.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(wrong.json().code).toBe('auth/bad_token');
    }
  });

  it('lets the public read every public route without a token', async () => {
    for (const r of apiRoutes().filter((x) => x.access === 'public' && x.method === 'GET')) {
      const res = await app.inject({ method: 'GET', url: fill(r.url) });
      // This table runs without the coach: the analysis says so (tests/coach reads it from a table with one).
      const analysis = r.url === '/api/games/:id/analysis';
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(analysis ? 409 : 200);
      if (analysis) expect(res.json().message).toBe('This server runs without the coach.');
    }
  });

  it('shows a seat route only with that seat\'s token', async () => {
    for (const r of apiRoutes().filter((x) => x.access === 'seat')) {
      const payload = r.body ? { payload: { type: 'pass' } } : {};
      expect((await app.inject({ method: r.method as 'GET', url: fill(r.url), ...payload })).statusCode).toBe(400);
      const wrong = await app.inject({ method: r.method as 'GET', url: `${fill(r.url)}?token=wrong`, ...payload });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().message).toMatch(/not the token of seat 0/);
    }
  });
});

describe('schemas of every route: junk gets a 4xx naming the problem, never a 500', () => {
  it('a route that takes no body ignores one, and never answers 500', async () => {
    for (const r of apiRoutes().filter((x) => x.method === 'POST' && !x.body)) {
      const res = await app.inject({ method: 'POST', url: fill(r.url), headers: { ...as(TOKEN), 'content-type': 'application/json' }, payload: '[1,{"a":2}]' });
      expect(res.statusCode, r.url).toBeLessThan(500);
    }
  });

  const junkBodies: Array<[string, string]> = [
    ['not JSON', '{"values":'],
    ['an array', '[1,2,3]'],
    ['a string', '"roll"'],
    ['unknown fields', '{"zzz":1,"values":[1]}'],
    ['huge numbers', '{"values":[1e308],"dice":[1e308],"seq":1e308,"token":12}'],
    ['deep nesting', `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`],
  ];
  const badParams = ['x'.repeat(65), '%00', '..%2F..%2Fetc'];

  it.each(junkBodies)('POST bodies: %s', async (_what, payload) => {
    expect(apiRoutes().filter((x) => x.body).length).toBeGreaterThanOrEqual(8);
    for (const r of apiRoutes().filter((x) => x.method === 'POST' && x.body)) {
      const res = await app.inject({ method: 'POST', url: fill(r.url), headers: { ...as(TOKEN), 'content-type': 'application/json' }, payload });
      expect(res.statusCode, `${r.url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${r.url} ${res.body}`).toBeLessThan(500);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('bad ids and numbers in the path', async () => {
    for (const r of apiRoutes()) {
      for (const bad of badParams) {
        const url = r.url.replace(':id', bad).replace(':seat', '99').replace(':seq', '0');
        if (url === r.url) continue;
        const res = await app.inject({ method: r.method as 'GET', url: `${url}?token=x`, headers: as(TOKEN) });
        expect(res.statusCode, `${r.method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${r.method} ${url}`).toBeLessThan(500);
      }
    }
  });

  it('unknown query parameters on GET routes', async () => {
    for (const r of apiRoutes().filter((x) => x.method === 'GET' && x.access !== 'seat')) {
      const res = await app.inject({ method: 'GET', url: `${fill(r.url)}?game=${'y'.repeat(80)}&seat=abc`, headers: as(TOKEN) });
      expect(res.statusCode, `${r.url}`).toBeLessThan(500);
    }
  });

  it('an unknown route or method is a 404 naming it', async () => {
    for (const [method, url] of [['GET', '/api/nope'], ['DELETE', `/api/games/${gameId}`], ['PUT', '/api/games'], ['GET', '/no-such-page.html']] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'api/not_found', message: expect.stringContaining(url) });
    }
  });
});

describe('the operator token can be changed', () => {
  it('by the operator only; the old token stops working at once', async () => {
    const local = buildApp({ table: new Table({ tower: { kind: 'x', roll: async () => undefined }, camera: { capture: async () => ({ image: Buffer.alloc(0), width: 1, height: 1, capturedAt: 0 }) }, reader: createDiceReader() }), version: 'test', operatorToken: 'first-token-0123456789' });
    const weak = await local.inject({ method: 'POST', url: '/api/operator/token', headers: as('first-token-0123456789'), payload: { token: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/token must NOT have fewer than 16 characters/);
    const changed = await local.inject({ method: 'POST', url: '/api/operator/token', headers: as('first-token-0123456789'), payload: { token: 'second-token-0123456789' } });
    expect(changed.json()).toEqual({ token: 'second-token-0123456789' });
    const old = await local.inject({ method: 'POST', url: '/api/games', headers: as('first-token-0123456789'), payload: { game: 'dice-poker', players: ['A'] } });
    expect(old.statusCode).toBe(403);
    const fresh = await local.inject({ method: 'POST', url: '/api/operator/token', headers: as('second-token-0123456789') });
    expect(fresh.json().token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await local.close();
  });
});

/** A WebSocket client that keeps every message it gets, and the games as it holds them (patches applied). */
async function client() {
  const ws = new WebSocket(`ws://${base}/ws`);
  const messages: Array<Record<string, unknown>> = [];
  const live = liveGames();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Record<string, unknown> & { type: string };
    messages.push(m);
    live.take(m);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await expect.poll(() => messages.length).toBe(1);
  const next = async (type: string) => {
    await expect.poll(() => messages.some((m) => m.type === type), { timeout: 15_000 }).toBe(true);
    const i = messages.findIndex((m) => m.type === type);
    return messages.splice(i, 1)[0] as Record<string, unknown>;
  };
  const send = (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  return { ws, messages, live, next, send, closed };
}

describe('WebSocket messages', () => {
  it('has a test for every client message type', () => {
    expect(Object.keys(CLIENT_MESSAGES).sort()).toEqual(['auth', 'ping', 'resync', 'roll', 'subscribe']);
  });

  it('ping → pong with the ref echoed', async () => {
    const c = await client();
    c.send({ type: 'ping', ref: 7 });
    expect(await c.next('pong')).toMatchObject({ type: 'pong', v: 1, ref: 7 });
    c.ws.close();
  });

  it.each([
    ['{"type":', 'ws/bad_json', /not JSON/],
    ['[1]', 'ws/bad_message', /JSON object with a "type"/],
    [{ type: 'dance' }, 'ws/unknown_type', /Unknown message type "dance".*ping, auth, subscribe, resync, roll/],
    [{ type: 'ping', extra: 1 }, 'ws/bad_message', /no field 'extra'/],
    [{ type: 'ping', ref: { a: 1 } }, 'ws/bad_message', /ping.ref must be a string/],
    [{ type: 'auth' }, 'ws/bad_message', /needs 'token'/],
    [{ type: 'auth', token: 'x', game: 'g1' }, 'ws/bad_message', /both game and seat/],
    [{ type: 'auth', token: 'x', game: 'g', seat: 99 }, 'ws/bad_message', /auth.seat must be an integer from 0 to 29/],
    [{ type: 'subscribe', games: 'some' }, 'ws/bad_message', /"all" or a list/],
    [{ type: 'roll' }, 'ws/bad_message', /needs 'game'/],
    [{ type: 'resync' }, 'ws/bad_message', /A resync message needs 'game'/],
    [{ type: 'resync', game: 'nope' }, 'table/game_not_found', /no game with id 'nope'/],
    [{ type: 'roll', game: '../x' }, 'ws/bad_message', /roll.game must be an id/],
  ])('refuses %j with an error naming the problem', async (message, code, text) => {
    const c = await client();
    c.send(message);
    const error = await c.next('error');
    expect(error).toMatchObject({ code });
    expect(String(error.message)).toMatch(text);
    c.ws.close();
  });

  it('auth: a wrong operator token is refused; the right one makes the socket the operator; roll needs it', async () => {
    const c = await client();
    c.send({ type: 'roll', game: gameId, ref: 'r1' });
    expect(await c.next('error')).toMatchObject({ code: 'auth/operator_only', ref: 'r1' });
    c.send({ type: 'auth', token: 'wrong' });
    expect(await c.next('error')).toMatchObject({ code: 'auth/bad_token' });
    c.send({ type: 'auth', token: TOKEN, ref: 1 });
    expect(await c.next('auth')).toMatchObject({ role: 'operator', ref: 1 });
    const before = table.get(gameId).version;
    c.send({ type: 'roll', game: gameId, ref: 'r2' });
    expect(await c.next('rolled')).toMatchObject({ game: gameId, version: before + 1, ref: 'r2' });
    c.send({ type: 'roll', game: 'nope' });
    expect(await c.next('error')).toMatchObject({ code: 'table/game_not_found' });
    c.ws.close();
  });

  it('auth as a seat: that seat\'s game messages carry its secret die, the public ones do not', async () => {
    const [ann] = table.seatTokensOf(duelId);
    const seat = await client();
    const viewer = await client();
    seat.send({ type: 'auth', token: 'wrong', game: duelId, seat: 0 });
    expect(await seat.next('error')).toMatchObject({ code: 'table/bad_seat_token' });
    seat.send({ type: 'auth', token: ann, game: duelId, seat: 0 });
    expect(await seat.next('auth')).toMatchObject({ role: 'seat', game: duelId, seat: 0 });
    await seat.next('game'); // its own view, whole
    await table.roll(duelId, [4]);
    const afterRoll = (c: Awaited<ReturnType<typeof client>>) => {
      const held = c.live.games.get(duelId)?.view as { rollCount: number; state: { dice: Array<number | null> } } | undefined;
      return held?.rollCount === 1 ? held.state.dice : undefined;
    };
    await expect.poll(() => afterRoll(seat)).toEqual([4, null]);
    await expect.poll(() => afterRoll(viewer)).toEqual([null, null]);
    seat.ws.close();
    viewer.ws.close();
  });

  it('subscribe: only the games asked for; an unknown game is refused', async () => {
    const c = await client();
    c.send({ type: 'subscribe', games: ['nope'] });
    expect(await c.next('error')).toMatchObject({ code: 'table/game_not_found' });
    c.send({ type: 'subscribe', games: [duelId] });
    expect(await c.next('subscribed')).toMatchObject({ games: [duelId] });
    const other = table.create('dice-poker', ['Cy']);
    table.reissueSeat(duelId, 1);
    expect(await c.next('patch')).toMatchObject({ gameId: duelId });
    expect(c.messages.filter((m) => (m.type === 'game' && (m.game as { id: string }).id === other.id) || m.gameId === other.id)).toEqual([]);
    c.ws.close();
  });

  it('closes a client that keeps sending junk, or too many messages', async () => {
    const junk = await client();
    for (let i = 0; i < MAX_STRIKES; i++) junk.send('junk');
    expect(await junk.closed).toMatchObject({ code: 1008, reason: 'too many bad messages' });
    const chatty = await client();
    for (let i = 0; i <= MAX_MESSAGES; i++) chatty.send({ type: 'ping' });
    expect(await chatty.closed).toMatchObject({ code: 1008, reason: 'too many messages' });
  });

  it('a changed operator token ends the operator rights of sockets holding the old one', async () => {
    const c = await client();
    c.send({ type: 'auth', token: TOKEN });
    await c.next('auth');
    const res = await app.inject({ method: 'POST', url: '/api/operator/token', headers: as(TOKEN), payload: { token: 'a-brand-new-operator-token' } });
    expect(res.statusCode).toBe(200);
    expect(await c.next('auth')).toMatchObject({ role: 'viewer', reason: expect.stringContaining('changed') });
    c.send({ type: 'roll', game: gameId });
    expect(await c.next('error')).toMatchObject({ code: 'auth/operator_only' });
    c.ws.close();
  });
});
