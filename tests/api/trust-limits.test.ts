/**
 * Rate limits that see failures, and the feed's hygiene (issue #45): wrong
 * operator tokens are counted per client address (REST and WebSocket alike)
 * with a growing delay and a 429 after 10 in a minute; X-Forwarded-For counts
 * when the proxy is trusted; a wrong token's delayed error holds the
 * socket's later messages; viewers' upgrades have their own budget, and
 * page loads are not counted against the general limit; a
 * socket that stops answering pings, or stops reading, is closed while the
 * others are served; unknown-field checks see own fields only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp, type AppDeps } from '../../src/api/app.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { parseClientMessage } from '../../src/api/feed.js';
import { liveGames } from '../../src/api/public/view-patch.js';

const TOKEN = 'operator-token-for-limit-tests';
const as = (token: string) => ({ authorization: `Bearer ${token}` });

interface Built {
  app: FastifyInstance;
  table: Table;
  gameId: string;
  /** ws://host:port once listening. */
  base: string;
}

const open: Array<{ app: FastifyInstance; store: GameStore; dir: string }> = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const { app, store, dir } of open.splice(0)) {
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function build(deps: Partial<AppDeps>, options: FastifyServerOptions = {}, listen = false): Promise<Built> {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-limits-'));
  const store = openStore(dir);
  const sim = createSimulator({ seed: 3, colours: ['white'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store });
  const app = buildApp({ table, version: 'test', operatorToken: TOKEN, ...deps }, options);
  open.push({ app, store, dir });
  const gameId = table.create('dice-poker', ['Ann', 'Bob']).id;
  let base = '';
  if (listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  } else {
    await app.ready();
  }
  return { app, table, gameId, base };
}

/** A feed client (from `options.localAddress` when given) that collects what it is sent. */
async function client(base: string, options: WebSocket.ClientOptions = {}) {
  const ws = new WebSocket(`${base}/ws`, options);
  sockets.push(ws);
  const messages: Array<Record<string, unknown>> = [];
  /** The games as this client holds them, patches applied. */
  const live = liveGames();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Record<string, unknown> & { type: string };
    messages.push(m);
    const { resync } = live.take(m);
    if (resync) ws.send(JSON.stringify({ type: 'resync', game: resync }));
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await expect.poll(() => messages.length).toBeGreaterThan(0); // the snapshot
  const next = async (type: string) => {
    await expect.poll(() => messages.some((m) => m.type === type), { timeout: 5_000 }).toBe(true);
    return messages.splice(messages.findIndex((m) => m.type === type), 1)[0] as Record<string, unknown>;
  };
  const send = (m: unknown) => ws.send(JSON.stringify(m));
  return { ws, messages, live, next, send, closed };
}

describe('wrong operator tokens over REST', () => {
  it('are answered after a growing delay, then 429 with Retry-After after 10 in a minute; a right token elsewhere still works', async () => {
    const waits: number[] = [];
    let now = 1_000_000;
    const { app, gameId } = await build({ authFailures: { now: () => now, wait: async (ms) => void waits.push(ms) } });
    const seats = (token: string, remoteAddress: string) => app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, headers: as(token), remoteAddress });

    for (let i = 0; i < 10; i++) {
      const res = await seats(`wrong-guess-${i}`, '198.51.100.1');
      expect(res.statusCode).toBe(403);
    }
    expect(waits).toEqual([250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250, 2500]);

    const limited = await seats('wrong-guess-10', '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toMatchObject({ code: 'auth/too_many_failures', message: expect.stringMatching(/10 in 60 s.*60 s/) });
    // Over the limit, not even the right token is looked at (a guess that hit would show).
    expect((await seats(TOKEN, '198.51.100.1')).statusCode).toBe(429);
    expect(waits).toHaveLength(10);
    // Another address is not affected.
    expect((await seats(TOKEN, '198.51.100.2')).statusCode).toBe(200);

    // A minute after the first failure, the address may try again.
    now += 30_000;
    expect((await seats(TOKEN, '198.51.100.1')).headers['retry-after']).toBe('30');
    now += 30_000;
    expect((await seats(TOKEN, '198.51.100.1')).statusCode).toBe(200);
  });

  it('parallel guesses see each other: at most 10 are checked', async () => {
    const { app } = await build({ authFailures: { wait: async () => {} } });
    const codes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => app.inject({ method: 'POST', url: '/api/operator/token', headers: as(`random-guess-number-${i}`), remoteAddress: '198.51.100.3' })),
    );
    const count = (status: number) => codes.filter((r) => r.statusCode === status).length;
    expect([count(403), count(429)]).toEqual([10, 30]);
  });

  it('a missing token guesses nothing: it stays a 401 and is not counted', async () => {
    const { app, gameId } = await build({ authFailures: { wait: async () => {} } });
    for (let i = 0; i < 15; i++) expect((await app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, remoteAddress: '198.51.100.4' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, headers: as(TOKEN), remoteAddress: '198.51.100.4' })).statusCode).toBe(200);
  });

  it('with trustProxy, X-Forwarded-For names the client the failures count against', async () => {
    const { app, gameId } = await build({ authFailures: { wait: async () => {} } }, { trustProxy: '127.0.0.1' });
    const seats = (token: string, client: string) =>
      app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, headers: { ...as(token), 'x-forwarded-for': client }, remoteAddress: '127.0.0.1' });
    for (let i = 0; i < 10; i++) expect((await seats(`wrong-${i}`, '203.0.113.7')).statusCode).toBe(403);
    expect((await seats(TOKEN, '203.0.113.7')).statusCode).toBe(429);
    // The proxy's other clients, behind the same connection address, are not affected.
    expect((await seats(TOKEN, '203.0.113.8')).statusCode).toBe(200);
  });
});

describe('wrong operator tokens over the WebSocket', () => {
  it('count per address across reconnects and with REST; then no token is checked from it, while another address authenticates', async () => {
    const waits: number[] = [];
    const { app, base, gameId } = await build({ authFailures: { wait: async (ms) => void waits.push(ms) } }, {}, true);
    let guesser = await client(base, { localAddress: '127.0.0.1' });
    // 9 wrong tokens by WebSocket (the socket is closed after 5 strikes: reconnect) and a 10th by REST.
    for (let i = 0; i < 9; i++) {
      if (guesser.ws.readyState !== WebSocket.OPEN) guesser = await client(base, { localAddress: '127.0.0.1' });
      guesser.send({ type: 'auth', token: `wrong-${i}` });
      expect(await guesser.next('error')).toMatchObject({ code: 'auth/bad_token' });
    }
    expect((await app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, headers: as('wrong-9'), remoteAddress: '127.0.0.1' })).statusCode).toBe(403);
    expect(waits).toEqual([250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250, 2500]);

    const again = await client(base, { localAddress: '127.0.0.1' });
    again.send({ type: 'auth', token: TOKEN, ref: 'r' });
    expect(await again.next('error')).toMatchObject({ code: 'auth/too_many_failures', retryAfter: 60, ref: 'r' });
    expect(again.messages.some((m) => m.type === 'auth')).toBe(false);
    expect((await app.inject({ method: 'GET', url: `/api/games/${gameId}/seats`, headers: as(TOKEN), remoteAddress: '127.0.0.1' })).statusCode).toBe(429);

    const operator = await client(base, { localAddress: '127.0.0.2' });
    operator.send({ type: 'auth', token: TOKEN });
    expect(await operator.next('auth')).toMatchObject({ role: 'operator' });
  });
});

describe('a wrong token on the WebSocket, answered after its delay', () => {
  it('holds the socket\'s later messages until its error is sent: answers come in the order the messages came', async () => {
    let release = () => {};
    const delayed = new Promise<void>((resolve) => (release = resolve));
    const { base } = await build({ authFailures: { wait: () => delayed } }, {}, true);
    const c = await client(base);
    c.messages.splice(0);
    c.send({ type: 'auth', token: 'wrong-guess', ref: 'a' });
    c.send({ type: 'ping', ref: 'b' });
    c.send({ type: 'auth', token: TOKEN, ref: 'c' });
    c.send({ type: 'ping', ref: 'd' });
    // Nothing is answered while the wrong token's delay runs (the ping and the right token wait behind it).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(c.messages).toEqual([]);
    release();
    await expect.poll(() => c.messages.length).toBe(4);
    expect(c.messages.map((m) => [m.type, m.ref])).toEqual([['error', 'a'], ['pong', 'b'], ['auth', 'c'], ['pong', 'd']]);
    expect(c.messages[0]).toMatchObject({ code: 'auth/bad_token' });
    expect(c.messages[2]).toMatchObject({ role: 'operator' });
    // Nothing held any more: the next message is answered.
    c.messages.splice(0);
    c.send({ type: 'ping', ref: 'e' });
    expect(await c.next('pong')).toMatchObject({ ref: 'e' });
  });

  it('another socket is not held by it', async () => {
    const { base } = await build({ authFailures: { wait: () => new Promise(() => {}) } }, {}, true);
    const guesser = await client(base);
    const other = await client(base);
    guesser.send({ type: 'auth', token: 'wrong-guess' });
    guesser.send({ type: 'ping', ref: 'held' });
    other.send({ type: 'ping', ref: 'free' });
    expect(await other.next('pong')).toMatchObject({ ref: 'free' });
    expect(guesser.messages.some((m) => m.type === 'pong')).toBe(false);
  });
});

describe('viewers\' WebSocket upgrades', () => {
  it('have their own budget: an audience on one address connects, and its pages keep loading', async () => {
    // The app's limit on other requests, small here: the old code counted upgrades against it.
    const { base } = await build({ rateLimitPerMinute: 20 }, {}, true);
    const viewers = await Promise.all(Array.from({ length: 60 }, () => client(base)));
    expect(viewers.every((v) => v.ws.readyState === WebSocket.OPEN)).toBe(true);
    const page = await fetch(`${base.replace('ws:', 'http:')}/`);
    expect(page.status).toBe(200);
  });
});

describe('page loads and the general limit', () => {
  /** Every request a scoreboard load makes with a game on the table (Chromium, /ws apart): the page, its files, the reads. */
  const SCOREBOARD_LOAD = ['/', '/scoreboard.css', '/scoreboard.js', '/record-banner.js', '/dom.js', '/reading-overlay.js', '/trust.js', '/api/health', '/api/games/catalog', '/api/fairness'];

  it('300 scoreboard loads from one address a minute all answer 200; writes and other reads from it still meet the limit', async () => {
    const { app, gameId } = await build({ rateLimitPerMinute: 600 });
    const from = { remoteAddress: '198.51.100.20' };
    for (let viewer = 0; viewer < 300; viewer++) {
      const replies = await Promise.all(SCOREBOARD_LOAD.map((url) => app.inject({ method: 'GET', url, ...from })));
      expect(replies.map((r, i) => `${r.statusCode} ${SCOREBOARD_LOAD[i]}`)).toEqual(SCOREBOARD_LOAD.map((url) => `200 ${url}`));
    }
    // Only /api/fairness counted (300 of 600): 300 more API requests pass, the next one is refused.
    const write = () => app.inject({ method: 'POST', url: `/api/games/${gameId}/hold`, headers: as(TOKEN), payload: { dice: [0] }, ...from });
    for (let i = 0; i < 300; i++) expect((await write()).statusCode).not.toBe(429);
    const refused = await write();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: '/api/games', ...from })).statusCode).toBe(429);
    expect((await app.inject({ method: 'GET', url: '/api/fairness', ...from })).statusCode).toBe(429);
    // The pages, HEAD included, and the reads of a page load still answer; another address's writes are its own.
    for (const url of SCOREBOARD_LOAD.slice(0, -1)) expect((await app.inject({ method: 'GET', url, ...from })).statusCode).toBe(200);
    for (const url of ['/history.html', '/overlay.html', '/player.html']) expect((await app.inject({ method: 'HEAD', url, ...from })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/games/${gameId}/hold`, headers: as(TOKEN), payload: { dice: [0] }, remoteAddress: '198.51.100.21' })).statusCode).not.toBe(429);
  }, 60_000);
});

describe('feed hygiene', () => {
  it('closes a socket that stops answering pings; one that answers stays', async () => {
    const { base } = await build({ feed: { heartbeatMs: 40 } }, {}, true);
    const dead = await client(base, { autoPong: false });
    const live = await client(base);
    const started = Date.now();
    const notClosed = new Promise<{ code: number }>((resolve) => setTimeout(() => resolve({ code: -1 }), 2_000));
    expect((await Promise.race([dead.closed, notClosed])).code).toBe(1006); // dropped (no close handshake) within a few heartbeats
    await new Promise((resolve) => setTimeout(resolve, 200)); // several more heartbeats
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(live.ws.readyState).toBe(WebSocket.OPEN);
    live.send({ type: 'ping' });
    expect(await live.next('pong')).toMatchObject({ type: 'pong' });
  });

  it('closes a client that does not read (1013) while another keeps getting every message', async () => {
    const { app, table, gameId, base } = await build({ feed: { maxBufferedBytes: 64 * 1024 } }, {}, true);
    const slow = await client(base);
    const fast = await client(base);
    slow.ws.pause(); // reads nothing more: what the server sends piles up
    const serverSockets = [...app.websocketServer.clients];
    expect(serverSockets).toHaveLength(2);
    // Changes until the server gives up on the slow client (the kernel's buffers take a few MB first, and a reissued seat's patch is some 150 bytes: tens of thousands of changes).
    let changes = 0;
    while (serverSockets.every((s) => s.readyState === WebSocket.OPEN) && changes < 200_000) {
      for (let i = 0; i < 100; i++, changes++) table.reissueSeat(gameId, 0);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(serverSockets.filter((s) => s.readyState !== WebSocket.OPEN)).toHaveLength(1);
    // The reader got every change, the last one included, and is still served.
    const version = table.get(gameId).version;
    await expect.poll(() => fast.live.games.get(gameId)?.view.version, { timeout: 10_000 }).toBe(version);
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
    slow.ws.resume();
    expect(await slow.closed).toMatchObject({ code: 1013, reason: expect.stringMatching(/does not read/) });
  }, 60_000);

  it.each(['toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])('refuses a field named %s as unknown (own fields only)', (field) => {
    const parsed = parseClientMessage(`{"type":"ping","${field}":1}`);
    expect(parsed).toMatchObject({ ok: false, code: 'ws/bad_message' });
    expect(parsed.ok ? '' : parsed.message).toContain(`no field '${field}'`);
  });

  it.each(['constructor', '__proto__'])('refuses a field named %s, naming it', (field) => {
    const parsed = parseClientMessage(`{"type":"auth","token":"x","${field}":1}`);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(`'${field}'`);
  });
});
