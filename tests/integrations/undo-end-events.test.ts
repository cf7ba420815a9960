/**
 * Undo and end in the event stream, through the app listening on loopback:
 * `POST /api/games/:id/undo` gives `game.undone` (the decisions taken back,
 * newest first, and who asked) and `POST /api/games/:id/end` gives
 * `game.abandoned` (who and why), each once, to an SSE consumer and a webhook,
 * and both hold to /api/schema/events.json.
 */
import { createServer, type Server } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, OPERATOR, sse, until } from './helpers.js';

let f: AppFixture;
let reader = '';
let hookServer: Server;
const hookBodies: string[] = [];

beforeAll(async () => {
  f = await appFixture();
  reader = (await call(f.url, 'POST', '/api/keys', OPERATOR, { name: 'reader', scopes: ['events:read'] })).body.token as string;
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      hookBodies.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}/hook`;
  expect((await call(f.url, 'POST', '/api/webhooks', OPERATOR, { url, types: ['game.undone', 'game.abandoned'] })).status).toBe(201);
});

afterAll(async () => {
  await f.close();
  hookServer.closeAllConnections();
  hookServer.close();
});

describe('undo and end in the event stream', () => {
  it('undo gives game.undone and end gives game.abandoned, on SSE and webhooks, each once, as the schema says', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const head = f.integrations.stream.head();
    const stream = await sse(f.url, reader, { since: head });
    expect(stream.status).toBe(200);

    expect((await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR, { values: [2, 2, 3, 5, 6] })).status).toBe(200);
    expect((await call(f.url, 'POST', `/api/games/${game}/score`, OPERATOR, { category: 'chance' })).status).toBe(200);
    const undone = await call(f.url, 'POST', `/api/games/${game}/undo`, OPERATOR, { by: 'Kim' });
    expect(undone.status).toBe(200);
    const afterUndo = (undone.body.game as { version: number }).version;
    const ended = await call(f.url, 'POST', `/api/games/${game}/end`, OPERATOR, { reason: 'dinner' });
    expect(ended.status).toBe(200);

    await until('game.abandoned on the SSE stream', () => stream.events.some((e) => e.data.type === 'game.abandoned'));
    const mine = stream.events.filter((e) => e.data.game === game).map((e) => e.data);
    expect(mine.map((e) => e.type)).toEqual(['roll.settled', 'game.action', 'game.undone', 'game.abandoned']);
    expect(mine[2]).toMatchObject({ type: 'game.undone', data: { version: afterUndo, undone: [{ seat: 0, action: { type: 'score', category: 'chance' } }], by: 'Kim' } });
    expect(mine[3]).toMatchObject({ type: 'game.abandoned', data: { version: (ended.body as { version: number }).version, by: 'operator', reason: 'dinner' } });
    stream.close();

    // The webhook registered for these two types gets each once.
    await until('both on the webhook', () => hookBodies.length >= 2, 10_000);
    const hooked = hookBodies.map((b) => JSON.parse(b) as { type: string; game: string; seq: number });
    expect(hooked.filter((e) => e.game === game).map((e) => e.type)).toEqual(['game.undone', 'game.abandoned']);
    expect(hooked.map((e) => e.seq)).toEqual([mine[2]!.seq, mine[3]!.seq]);

    // Both hold to the published schema (Fastify's Ajv as the validator); a game.undone without what it undid does not.
    const schema = (await (await fetch(`${f.url}/api/schema/events.json`)).json()) as Record<string, unknown>;
    const { $id: _id, version: _version, ...body } = schema;
    const check = Fastify();
    check.post('/', { schema: { body } }, async () => ({ ok: true }));
    for (const e of [mine[2], mine[3]]) expect((await check.inject({ method: 'POST', url: '/', payload: e })).statusCode, JSON.stringify(e)).toBe(200);
    expect((await check.inject({ method: 'POST', url: '/', payload: { ...mine[2], data: { version: 1, undone: [], by: 'Kim' } } })).statusCode).toBe(400);
    expect((await check.inject({ method: 'POST', url: '/', payload: { ...mine[3], data: { version: 1, by: 'operator' } } })).statusCode).toBe(400);
    await check.close();
  });

  it('a refused undo or end tells nothing', async () => {
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Bo'] })).body.id as string;
    const head = f.integrations.stream.head();
    expect((await call(f.url, 'POST', `/api/games/${game}/undo`, OPERATOR)).status).toBe(409); // nothing to undo
    expect((await call(f.url, 'POST', `/api/games/${game}/end`, OPERATOR)).status).toBe(200);
    expect((await call(f.url, 'POST', `/api/games/${game}/end`, OPERATOR)).status).toBe(409); // ended already
    const events = (await call(f.url, 'GET', `/api/events/log?since=${head}`, reader)).body.events as Array<{ type: string; game: string }>;
    expect(events.filter((e) => e.game === game).map((e) => e.type)).toEqual(['game.abandoned']);
  });
});
