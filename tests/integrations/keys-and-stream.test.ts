/**
 * API keys and scopes, the event schema, secret throws and the stream over
 * the WebSocket, on the app listening on loopback (in this process).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, routesOf } from '../../src/api/app.js';
import { readOperatorToken } from '../../src/api/operator-token.js';
import { keysCommand } from '../../src/integrations/keys-command.js';
import { envelope, STREAM_EVENT_TYPES } from '../../src/integrations/index.js';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, OPERATOR, sse, until } from './helpers.js';

let f: AppFixture;
let reader = '';
let roller = '';
let both = '';
beforeAll(async () => {
  f = await appFixture();
  const make = async (scopes: string[]) => (await call(f.url, 'POST', '/api/keys', OPERATOR, { name: scopes.join('+'), scopes })).body.token as string;
  reader = await make(['events:read']);
  roller = await make(['rolls:request']);
  both = await make(['events:read', 'rolls:request']);
});
afterAll(async () => {
  await f.close();
});

describe('API keys', () => {
  it('are the operator\'s to make, list and revoke; the token is shown once and kept only hashed', async () => {
    expect((await call(f.url, 'POST', '/api/keys', reader, { name: 'x', scopes: ['events:read'] })).body).toMatchObject({ code: 'auth/key_not_allowed' });
    expect((await call(f.url, 'GET', '/api/keys', 'wrong-token-wrong-token')).status).toBe(403);
    const bad = await call(f.url, 'POST', '/api/keys', OPERATOR, { name: 'x', scopes: ['games:delete'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/'games:delete' is not a scope; the scopes are events:read, rolls:request/);
    const list = (await call(f.url, 'GET', '/api/keys')).body.keys as Array<{ id: string; scopes: string[] }>;
    expect(list).toHaveLength(3);
    expect(JSON.stringify(list)).not.toContain(reader);
    const db = new Database(f.store.dbPath, { readonly: true });
    const rows = db.prepare('SELECT * FROM api_keys').all();
    db.close();
    expect(JSON.stringify(rows)).not.toContain(reader.slice(4));
    expect(JSON.stringify(rows)).toContain(createHash('sha256').update(reader).digest('hex'));
  });

  it('without the scope are refused with 403 naming it', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const noStream = await call(f.url, 'GET', '/api/events/log?since=0', roller);
    expect(noStream.status).toBe(403);
    expect(noStream.body).toMatchObject({ code: 'auth/missing_scope', message: expect.stringContaining('lacks the scope events:read') });
    const sseRefused = await sse(f.url, roller, { since: 0 });
    expect(sseRefused.status).toBe(403);
    const noRoll = await call(f.url, 'POST', `/api/games/${game}/roll`, reader, { values: [1, 2, 3, 4, 5] });
    expect(noRoll.status).toBe(403);
    expect(noRoll.body).toMatchObject({ code: 'auth/missing_scope', message: expect.stringContaining('lacks the scope rolls:request') });
    // rolls:request: the roll route, and nothing else of the operator's.
    expect((await call(f.url, 'POST', `/api/games/${game}/roll`, roller, { values: [1, 2, 3, 4, 5] })).status).toBe(200);
    expect((await call(f.url, 'POST', `/api/games/${game}/roll`, roller)).status).toBe(200);
    expect((await call(f.url, 'POST', `/api/games/${game}/score`, roller, { category: 'chance' })).body).toMatchObject({ code: 'auth/key_not_allowed' });
    expect((await call(f.url, 'POST', '/api/games', roller, { game: 'dice-poker', players: ['A'] })).status).toBe(403);
    expect((await call(f.url, 'GET', '/api/events/log?since=0', reader)).status).toBe(200);
    // No token at all: 401, as for the operator's routes; an unknown key: 403.
    expect((await fetch(`${f.url}/api/events/log`)).status).toBe(401);
    expect((await call(f.url, 'GET', '/api/events/log', 'dtk_000000000000_nope')).body).toMatchObject({ code: 'auth/bad_key' });
  });

  it('made and revoked by the `keys` command while the server runs count at once', async () => {
    const out: string[] = [];
    expect(keysCommand(['add', '--name', 'cli', '--scope', 'events:read', '--data', f.dataDir, '--json'], (t) => out.push(t))).toBe(0);
    const { key, token } = JSON.parse(out.join('')) as { key: { id: string }; token: string };
    expect((await call(f.url, 'GET', '/api/events/log', token)).status).toBe(200);
    const open = await sse(f.url, token, { since: 0 });
    expect(open.status).toBe(200);
    expect(keysCommand(['list', '--data', f.dataDir], (t) => out.push(t))).toBe(0);
    expect(out.join('')).toMatch(new RegExp(`${key.id}\\s+live\\s+events:read`));
    expect(keysCommand(['revoke', key.id, '--data', f.dataDir], (t) => out.push(t))).toBe(0);
    expect((await call(f.url, 'GET', '/api/events/log', token)).body).toMatchObject({ code: 'auth/bad_key' });
    // An open stream of a revoked key ends at its next event.
    await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Zed'] });
    await until('the revoked key\'s stream to end', () => open.state.ended, 5_000);
    expect(() => keysCommand(['revoke', 'ffffffffffff', '--data', f.dataDir], () => undefined)).toThrow(/There is no API key 'ffffffffffff'/);
    // A data directory without a database (a mistyped --data): refused, and none is made there.
    const empty = mkdtempSync(join(tmpdir(), 'dice-tower-no-db-'));
    try {
      for (const args of [['add', '--name', 'x', '--scope', 'events:read'], ['list'], ['revoke', key.id]]) {
        expect(() => keysCommand([...args, '--data', empty], () => undefined)).toThrow(`There is no database in ${empty} (no keys); 'dice-tower serve --data ${empty}' makes one.`);
      }
      expect(readdirSync(empty)).toEqual([]);
      expect(() => keysCommand(['add', '--name', 'x', '--scope', 'events:read', '--data', join(empty, 'typo')], () => undefined)).toThrow(/There is no database/);
      expect(existsSync(join(empty, 'typo'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('an operator token that starts like an API key (dtk_)', () => {
  it('is refused: from DICE_TOWER_TOKEN, the token file, the app, and a change', async () => {
    const like = `dtk_${'x'.repeat(30)}`;
    expect(() => readOperatorToken('/nonexistent', { DICE_TOWER_TOKEN: like })).toThrow(/DICE_TOWER_TOKEN starts with 'dtk_', which marks an API key/);
    const dir = mkdtempSync(join(tmpdir(), 'dice-tower-dtk-'));
    try {
      writeFileSync(join(dir, 'operator-token'), `${like}\n`);
      expect(() => readOperatorToken(dir, {})).toThrow(/starts with 'dtk_', which marks an API key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => buildApp({ table: f.table, version: 'test', operatorToken: like })).toThrow(/must not start with 'dtk_'/);
    const change = await call(f.url, 'POST', '/api/operator/token', OPERATOR, { token: like });
    expect(change.status).toBe(400);
    expect(change.body.message).toMatch(/must not start with 'dtk_'/);
    // The operator token still works.
    expect((await call(f.url, 'GET', '/api/keys')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('the stream\'s two routes answer any origin (and their preflight); no other route does', async () => {
    const origin = { origin: 'https://overlay.example' };
    const log = await fetch(`${f.url}/api/events/log?key=${reader}`, { headers: origin });
    expect(log.status).toBe(200);
    expect(log.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${f.url}/api/events/log?key=dtk_000000000000_nope`, { headers: origin });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    for (const path of ['/api/events', '/api/events/log']) {
      const pre = await fetch(`${f.url}${path}`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,last-event-id' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization, last-event-id/);
    }
    const controller = new AbortController();
    const stream = await fetch(`${f.url}/api/events?key=${reader}`, { headers: origin, signal: controller.signal });
    expect(stream.headers.get('access-control-allow-origin')).toBe('*');
    controller.abort();
    const keys = await fetch(`${f.url}/api/keys`, { headers: { ...origin, authorization: `Bearer ${OPERATOR}` } });
    expect(keys.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${f.url}/api/keys`, { method: 'OPTIONS', headers: origin })).status).toBe(404);
  });
});

describe('the route list', () => {
  it('has the integration routes, each in the README with its access rule', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const mine = routesOf(f.app).filter((r) => /^\/api\/(events|schema|keys|webhooks)/.test(r.url));
    expect(mine.length).toBeGreaterThanOrEqual(9);
    for (const r of mine) expect(readme, `${r.method} ${r.url}`).toMatch(new RegExp(`\\| \`${r.method} ${r.url.replace(/[.*]/g, '\\$&')}\` \\| ${r.access.replace('/', '\\/')} \\|`));
  });
});

describe('junk to the integration routes', () => {
  it('gets a 4xx naming the problem, never a 500', async () => {
    const mine = routesOf(f.app).filter((r) => /^\/api\/(events|schema|keys|webhooks)/.test(r.url));
    const junk = ['{"name":', '[1,2]', '"x"', '{"zzz":1}', '{"name":"x","scopes":"events:read"}', '{"url":"http://x","types":[1e308]}', `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`];
    for (const r of mine) {
      const url = r.url.replace(':keyId', 'zz').replace(':hookId', '0123456789ab');
      for (const payload of r.method === 'POST' ? junk : ['']) {
        const res = await f.app.inject({ method: r.method as 'GET', url: r.url.startsWith('/api/events') ? `${url}?since=-1&types=nope` : url, headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' }, ...(payload ? { payload } : {}) });
        const junkSent = payload !== '' || r.url.includes(':keyId') || r.url.startsWith('/api/events');
        if (junkSent) expect(res.statusCode, `${r.method} ${url} ${payload.slice(0, 30)}: ${res.body}`).toBeGreaterThanOrEqual(400);
        if (junkSent) expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        expect(res.statusCode, `${r.method} ${url}`).toBeLessThan(500);
      }
    }
    // A resume point past the stream's end is refused, naming the head.
    const ahead = await call(f.url, 'GET', '/api/events/log?since=999999', reader);
    expect(ahead.status).toBe(409);
    expect(ahead.body.message).toMatch(/The stream ends at seq \d+; 999999 is past it/);
    const badId = await f.app.inject({ method: 'GET', url: '/api/events/log', headers: { authorization: `Bearer ${reader}`, 'last-event-id': 'abc' } });
    expect(badId.json()).toMatchObject({ code: 'events/bad_last_event_id' });
  });
});

describe('the events and their schema', () => {
  it('every event of a played game (throws, rolls, actions, the end) holds to /api/schema/events.json', async () => {
    const schemaReply = await fetch(`${f.url}/api/schema/events.json`);
    expect(schemaReply.status).toBe(200);
    const schema = (await schemaReply.json()) as Record<string, unknown>;
    expect(schema.version).toBe(1);
    // The schema as a validator takes it (Fastify's Ajv), on every event kept.
    const check = Fastify();
    // `version` is ours (validators ignore unknown keywords; Ajv's strict mode refuses them).
    const { $id: _id, version: _version, ...body } = schema;
    check.post('/', { schema: { body } }, async () => ({ ok: true }));
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'secret-duel', players: ['Ann', 'Bob'] })).body.id as string;
    await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR);
    await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR);
    await call(f.url, 'POST', `/api/games/${game}/actions`, OPERATOR, { type: 'reveal' });
    const events = (await call(f.url, 'GET', '/api/events/log?since=0&limit=1000', reader)).body.events as Array<Record<string, unknown>>;
    const types = new Set(events.map((e) => e.type));
    for (const t of ['game.created', 'game.action', 'roll.started', 'roll.settled', 'game.ended', 'tower.status']) expect(types, t).toContain(t);
    for (const e of events) {
      const res = await check.inject({ method: 'POST', url: '/', payload: e });
      expect(res.statusCode, `${JSON.stringify(e)}: ${res.body}`).toBe(200);
    }
    const wrong = await check.inject({ method: 'POST', url: '/', payload: { ...events[0], type: 'roll.settled', data: { values: 'six' } } });
    expect(wrong.statusCode).toBe(400);
    await check.close();
    expect(STREAM_EVENT_TYPES).toContain('roll.refused');
  });

  it('secret throws show their dice to their seat only: never to a key, the operator, or the other seat', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'secret-duel', players: ['Ann', 'Bob'] })).body.id as string;
    const head = (await call(f.url, 'GET', '/api/events/log', reader)).body.head as number;
    await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR);
    const settled = ((await call(f.url, 'GET', `/api/events/log?since=${head}&types=roll.settled`, reader)).body.events as Array<{ data: Record<string, unknown> }>)[0];
    expect(settled?.data).toMatchObject({ secret: true, player: 0, values: null, sum: null, dice: null, frameUrl: null, count: 1 });
    const seats = (await call(f.url, 'GET', `/api/games/${game}/seats`)).body as unknown as Array<{ path: string }>;
    const tokenOf = (seat: number) => new URL(`http://x${seats[seat]?.path ?? ''}`).searchParams.get('token') as string;
    const streamOf = async (auth: Record<string, unknown>) => {
      const ws = new WebSocket(`${f.url.replace('http', 'ws')}/ws`);
      const got: Array<Record<string, unknown>> = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d)) as Record<string, unknown>));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ type: 'auth', ...auth }));
      await until('auth', () => got.some((m) => m.type === 'auth'));
      ws.send(JSON.stringify({ type: 'subscribe', since: head }));
      await until('the roll', () => got.some((m) => m.type === 'event' && (m.event as { type: string }).type === 'roll.settled'));
      ws.close();
      return (got.find((m) => m.type === 'event' && (m.event as { type: string }).type === 'roll.settled')?.event as { data: Record<string, unknown> }).data;
    };
    expect(await streamOf({ token: tokenOf(0), game, seat: 0 })).toMatchObject({ values: [expect.any(Number)], dice: [expect.objectContaining({ value: expect.any(Number) })] });
    expect(await streamOf({ token: tokenOf(1), game, seat: 1 })).toMatchObject({ values: null, dice: null });
    expect(await streamOf({ token: reader })).toMatchObject({ values: null, dice: null });
    expect(await streamOf({ token: OPERATOR })).toMatchObject({ values: null, dice: null });
    // A correction of that throw: its values, and why and by whom (which may tell them), are the seat's alone.
    const thrown = f.table.get(game).rolls[0]?.values[0] as number;
    const fixed = (thrown % 6) + 1;
    expect((await call(f.url, 'POST', `/api/games/${game}/rolls/1/correction`, OPERATOR, { values: [fixed], reason: `the ${thrown} was a ${fixed}`, by: 'Carol' })).status).toBe(200);
    const corrected = ((await call(f.url, 'GET', `/api/events/log?since=${head}&types=roll.corrected`, reader)).body.events as Array<{ data: Record<string, unknown> }>)[0];
    expect(corrected?.data).toMatchObject({ roll: 1, from: null, values: null, by: null, reason: null });
    const own = f.integrations.stream.read(head, 100).find((e) => e.type === 'roll.corrected');
    expect(envelope(own!, { seat: { gameId: game, seat: 0 } }).data).toMatchObject({ from: [thrown], values: [fixed], by: 'Carol', reason: `the ${thrown} was a ${fixed}` });
  });
});

describe('the stream over the WebSocket', () => {
  const connect = async () => {
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/ws`);
    const got: Array<Record<string, unknown>> = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d)) as Record<string, unknown>));
    await new Promise((resolve) => ws.once('open', resolve));
    return { ws, got, events: () => got.filter((m) => m.type === 'event').map((m) => m.event as { seq: number; id: string; type: string }) };
  };

  it('needs a key with events:read (or the operator, or a seat)', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'subscribe', since: 0 }));
    await until('the refusal', () => c.got.some((m) => m.type === 'error'));
    expect(c.got.find((m) => m.type === 'error')).toMatchObject({ code: 'auth/missing_scope' });
    c.ws.send(JSON.stringify({ type: 'auth', token: roller }));
    await until('auth', () => c.got.some((m) => m.type === 'auth'));
    expect(c.got.find((m) => m.type === 'auth')).toMatchObject({ role: 'key', scopes: ['rolls:request'] });
    c.ws.send(JSON.stringify({ type: 'subscribe', since: 0 }));
    await until('the second refusal', () => c.got.filter((m) => m.type === 'error').length === 2);
    c.ws.close();
  });

  it('{"type":"subscribe","since":N} resumes after a reconnect with no gap and no repeat', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann', 'Bob'] })).body.id as string;
    let c = await connect();
    c.ws.send(JSON.stringify({ type: 'auth', token: both }));
    c.ws.send(JSON.stringify({ type: 'subscribe', since: 0 }));
    await call(f.url, 'POST', `/api/games/${game}/roll`, both);
    const headAt = async () => (await call(f.url, 'GET', '/api/events/log', reader)).body.head as number;
    let head = await headAt();
    await until('the backlog and the roll', () => c.events().at(-1)?.seq === head);
    const first = c.events();
    c.ws.close();
    // Missed while away: a roll, then back from the last seq seen.
    await call(f.url, 'POST', `/api/games/${game}/roll`, both);
    c = await connect();
    c.ws.send(JSON.stringify({ type: 'auth', token: reader }));
    c.ws.send(JSON.stringify({ type: 'subscribe', since: first.at(-1)?.seq ?? 0 }));
    await call(f.url, 'POST', `/api/games/${game}/roll`, both);
    head = await headAt();
    await until('everything', () => c.events().at(-1)?.seq === head);
    const all = [...first, ...c.events()];
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    c.ws.close();
  });

  it('roll: a key with rolls:request may, one without (or revoked) may not', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const made = (await call(f.url, 'POST', '/api/keys', OPERATOR, { name: 'feed roller', scopes: ['rolls:request'] })).body as { key: { id: string }; token: string };
    const c = await connect();
    const answers = () => c.got.filter((m) => m.type === 'rolled' || m.type === 'error');
    c.ws.send(JSON.stringify({ type: 'auth', token: reader }));
    c.ws.send(JSON.stringify({ type: 'roll', game, ref: 1 }));
    await until('the refusal', () => answers().length === 1);
    expect(answers()[0]).toMatchObject({ type: 'error', code: 'auth/operator_only', ref: 1 });
    c.ws.send(JSON.stringify({ type: 'auth', token: made.token }));
    c.ws.send(JSON.stringify({ type: 'roll', game, ref: 2 }));
    await until('the roll', () => answers().length === 2, 10_000);
    expect(answers()[1]).toMatchObject({ type: 'rolled', game, ref: 2 });
    await call(f.url, 'POST', `/api/keys/${made.key.id}/revoke`, OPERATOR);
    c.ws.send(JSON.stringify({ type: 'roll', game, ref: 3 }));
    await until('the refusal after the revoke', () => answers().length === 3);
    expect(answers()[2]).toMatchObject({ type: 'error', code: 'auth/operator_only', ref: 3 });
    c.ws.close();
  });

  it('subscribe with games and since: only the events of those games', async () => {
    const a = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const b = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Bob'] })).body.id as string;
    const since = f.integrations.stream.head() - 2;
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'auth', token: reader }));
    c.ws.send(JSON.stringify({ type: 'subscribe', games: [a], since }));
    await until('subscribed', () => c.got.some((m) => m.type === 'subscribed'));
    expect(c.got.find((m) => m.type === 'subscribed')).toMatchObject({ games: [a], since });
    await call(f.url, 'POST', `/api/games/${b}/roll`, OPERATOR, { values: [1, 1, 1, 1, 1] });
    await call(f.url, 'POST', `/api/games/${a}/roll`, OPERATOR, { values: [2, 2, 2, 2, 2] });
    await until('game a\'s roll', () => c.events().some((e) => e.type === 'roll.settled'));
    const games = c.events().map((e) => (e as unknown as { game: string | null }).game);
    expect(games.length).toBeGreaterThanOrEqual(2);
    expect(new Set(games)).toEqual(new Set([a]));
    // The scoreboard's game changes too (whole views and patches): game a's only.
    await until('game a\'s change on the scoreboard feed', () => c.got.some((m) => m.type === 'patch' || m.type === 'game'));
    const changed = c.got.filter((m) => m.type === 'game' || m.type === 'patch').map((m) => (m.type === 'game' ? (m.game as { id: string }).id : m.gameId));
    expect(new Set(changed)).toEqual(new Set([a]));
    c.ws.close();
  });

  it('sends a backlog larger than the send cap (1 MiB) whole, waiting for the socket to drain', async () => {
    const from = f.integrations.stream.head();
    const count = 10_000;
    const drafts = Array.from({ length: count }, (_, i) => ({ type: 'table.notice' as const, at: Date.now(), gameId: null, secretSeat: null, sourceSeq: null, data: { message: `notice ${i} ${'x'.repeat(1000)}` } }));
    f.integrations.stream.append(drafts);
    const c = await connect();
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
    c.ws.send(JSON.stringify({ type: 'auth', token: reader }));
    await until('auth', () => c.got.some((m) => m.type === 'auth'));
    // The client stops reading a while (a phone on a slow link): 10 MB wait in the kernel's buffers and then the server's.
    const raw = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    c.ws.send(JSON.stringify({ type: 'subscribe', since: from }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    raw.resume();
    await until(`${count} events`, () => c.events().length >= count || c.ws.readyState !== WebSocket.OPEN, 30_000);
    expect(c.events().map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => from + i + 1));
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
    expect(await closed).toBe(1005);
  });
});
