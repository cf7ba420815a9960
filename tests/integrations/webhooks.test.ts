/**
 * Webhooks, through the app listening on loopback and receivers on loopback:
 * every event once with a valid signature; a receiver answering 500 gets
 * retries (a short backoff injected) until it answers, also across a restart
 * of the app on the same data directory; one that never answers neither
 * slows a roll nor holds the others up, and its deliveries are given up after
 * the maximum age.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventStream, openIntegrationsDb, verifySignature, Webhooks } from '../../src/integrations/index.js';
import { openStore } from '../../src/storage/index.js';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, OPERATOR, until } from './helpers.js';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A receiver on loopback: `answer(n)` gives the status of its n-th request (null: never answer). */
async function receiver(answer: (n: number) => number | null): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const status = answer(got.length);
      if (status !== null) res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, got, server };
}

const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-webhooks-'));
const servers: Server[] = [];
let f: AppFixture | null = null;
afterAll(async () => {
  await f?.close();
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const options = { webhooks: { backoff: (n: number) => 40 * 2 ** (n - 1), maxAgeMs: 4_000, timeoutMs: 2_500 }, dataDir };

describe('webhooks', () => {
  it('deliver every event once, signed; retry a 500 until it is taken, across a restart; a dead receiver slows nothing', async () => {
    f = await appFixture(options);
    const good = await receiver(() => 204);
    // Refuses its first 6 requests: retried with the short backoff, some of them after the restart below.
    const flaky = await receiver((n) => (n <= 6 ? 500 : 200));
    const dead = await receiver(() => null);
    servers.push(good.server, flaky.server, dead.server);

    const add = async (url: string, types: string[]) => {
      const res = await call(f!.url, 'POST', '/api/webhooks', OPERATOR, { url, types });
      expect(res.status).toBe(201);
      return res.body as { hook: { id: string }; secret: string };
    };
    expect((await call(f.url, 'POST', '/api/webhooks', OPERATOR, { url: 'ftp://x', types: ['*'] })).body.message).toMatch(/http or https/);
    expect((await call(f.url, 'POST', '/api/webhooks', OPERATOR, { url: 'http://x', types: ['roll.done'] })).body.message).toMatch(/'roll.done' is not an event type/);
    const goodHook = await add(good.url, ['*']);
    const flakyHook = await add(flaky.url, ['roll.settled']);
    const deadHook = await add(dead.url, ['*']);
    const head0 = f.integrations.stream.head();

    // A game played while the dead receiver holds every request it gets: the rolls do not wait for it.
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR)).status).toBe(200);
    const rollsMs = Date.now() - started;
    await until('the dead receiver to be sent something', () => dead.got.length > 0, 5_000);
    // Three tower rolls (render + read): none waited for the dead receiver (waiting would be 2.5 s an event, 7.5 s at the least).
    expect(rollsMs).toBeLessThan(6000);

    // Restart while the flaky receiver still refuses: what is owed is kept and sent by the next run.
    await until('the flaky receiver to refuse a few', () => flaky.got.length >= 2, 5_000);
    await f.close();
    f = await appFixture(options);
    const game2 = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Bob'] })).body.id as string;
    expect((await call(f.url, 'POST', `/api/games/${game2}/roll`, OPERATOR, { values: [6, 6, 6, 6, 6] })).status).toBe(200);
    await until('the flaky receiver to take every roll', () => JSON.stringify(f!.integrations.webhooks.get(flakyHook.hook.id).deliveries) === JSON.stringify({ pending: 0, delivered: 4, failed: 0 }), 15_000);
    await f.integrations.webhooks.settled();
    const head = f.integrations.stream.head();

    // The good receiver: every event after its hook was made, each once (by id), each signed with its secret.
    await until('the good receiver to have everything', () => new Set(good.got.map((r) => r.headers['x-dice-tower-event-id'])).size === head - head0, 10_000);
    const bodies = good.got.map((r) => JSON.parse(r.body) as { seq: number; id: string; type: string });
    expect(new Set(bodies.map((b) => b.seq))).toEqual(new Set(Array.from({ length: head - head0 }, (_, i) => head0 + i + 1)));
    for (const r of good.got) {
      const sig = r.headers['x-dice-tower-signature'] as string;
      expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(goodHook.secret, sig, r.body)).toBe(true);
      // Another hook's secret, a changed body or an old timestamp do not verify.
      expect(verifySignature(flakyHook.secret, sig, r.body)).toBe(false);
      expect(verifySignature(goodHook.secret, sig, r.body.replace('"seq":', '"seq": '))).toBe(false);
      expect(verifySignature(goodHook.secret, sig, r.body, Date.now() + 3_600_000)).toBe(false);
      const body = JSON.parse(r.body) as { id: string; type: string; seq: number };
      expect(r.headers['x-dice-tower-event']).toBe(body.type);
      expect(r.headers['x-dice-tower-event-id']).toBe(body.id);
      expect(r.headers['x-dice-tower-epoch']).toBe(f.integrations.stream.epoch);
    }
    // Once each: the restart was graceful (what was in flight finished and was kept). Only a request that timed out
    // (this process busy reading dice for longer than the timeout) is sent again, as a retry: at least once, never blindly.
    const firsts = good.got.filter((r) => r.headers['x-dice-tower-attempt'] === '1');
    expect(firsts).toHaveLength(head - head0);
    expect(new Set(firsts.map((r) => r.headers['x-dice-tower-event-id'])).size).toBe(head - head0);

    // The flaky receiver: roll.settled only; retried with growing attempt numbers, each roll taken once in the end.
    const flakyBodies = flaky.got.map((r) => JSON.parse(r.body) as { type: string; data: { roll: number } });
    expect(flakyBodies.every((b) => b.type === 'roll.settled')).toBe(true);
    expect(flaky.got.length).toBeGreaterThan(4);
    expect(Math.max(...flaky.got.map((r) => Number(r.headers['x-dice-tower-attempt'])))).toBeGreaterThan(1);
    for (const r of flaky.got) expect(verifySignature(flakyHook.secret, r.headers['x-dice-tower-signature'] as string, r.body)).toBe(true);

    // The dead receiver: timed out, retried, then given up after the maximum age; its last status in the API says why.
    await until('the dead hook to give up', () => f!.integrations.webhooks.get(deadHook.hook.id).deliveries.pending === 0, 10_000);
    const status = (await call(f.url, 'GET', '/api/webhooks')).body.webhooks as Array<{ id: string; last: { status: number | null; error: string | null } | null; deliveries: Record<string, number> }>;
    const deadStatus = status.find((h) => h.id === deadHook.hook.id);
    expect(deadStatus?.last).toMatchObject({ status: null, error: expect.stringMatching(/no answer within 2500 ms/) });
    expect(deadStatus?.deliveries.failed).toBeGreaterThan(0);
    expect(status.find((h) => h.id === goodHook.hook.id)?.last).toMatchObject({ status: 204, error: null });

    // Removed: no more deliveries.
    expect((await call(f.url, 'POST', `/api/webhooks/${goodHook.hook.id}/remove`)).status).toBe(200);
    const before = good.got.length;
    expect((await call(f.url, 'POST', `/api/games/${game2}/roll`, OPERATOR, { values: [1, 2, 3, 4, 5] })).status).toBe(200);
    await f.integrations.webhooks.settled();
    expect(good.got.length).toBe(before);
  }, 60_000);
});

describe('a dead receiver with a backlog', () => {
  it('does not hold back another hook: that one gets each event within about a second', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-tower-hol-'));
    const store = openStore(dir);
    const db = openIntegrationsDb(store.dbPath);
    const hooksDb = openIntegrationsDb(store.dbPath);
    const stream = new EventStream(db);
    // The dead one holds each request 5 s; its failures wait long before a retry.
    const hooks = new Webhooks(hooksDb, stream, { timeoutMs: 5_000, backoff: () => 100_000 });
    const good = await receiver(() => 200);
    const dead = await receiver(() => null);
    servers.push(good.server, dead.server);
    try {
      hooks.add(dead.url, ['*']);
      hooks.add(good.url, ['*']);
      const started = Date.now();
      stream.append(Array.from({ length: 100 }, (_, i) => ({ type: 'table.notice' as const, at: Date.now(), gameId: null, secretSeat: null, sourceSeq: null, data: { message: `n${i}` } })));
      await until('the good receiver to get all 100', () => good.got.length >= 100, 4_000);
      expect(Date.now() - started).toBeLessThan(2_500);
      // The dead one has its per-hook share in flight, no more.
      expect(dead.got.length).toBeLessThanOrEqual(8);
    } finally {
      dead.server.closeAllConnections();
      await hooks.close();
      hooksDb.close();
      db.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
