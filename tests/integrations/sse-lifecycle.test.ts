/**
 * The SSE stream's life on the app listening in this process: a key revoked
 * while its stream is open, the app closed with a stream open, and the
 * resume point a stream gives before its first event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, OPERATOR, sleep, sse, until } from './helpers.js';

let f: AppFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const keyOf = async (fixture: AppFixture) => (await call(fixture.url, 'POST', '/api/keys', OPERATOR, { name: 'lifecycle', scopes: ['events:read'] })).body as { key: { id: string }; token: string };

describe('an SSE stream', () => {
  it('of a key revoked ends at its next events, and the server lives on (no write after the end)', async () => {
    f = await appFixture();
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const { key, token } = await keyOf(f);
      const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
      const s = await sse(f.url, token);
      expect(s.status).toBe(200);
      await sleep(100);
      expect((await call(f.url, 'POST', `/api/keys/${key.id}/revoke`)).status).toBe(200);
      // A tower roll: roll.started, tower statuses and roll.settled, several in one tick.
      expect((await call(f.url, 'POST', `/api/games/${game}/roll`)).status).toBe(200);
      await until('the stream to end', () => s.state.ended, 5_000);
      await sleep(200);
      expect(errors).toEqual([]);
      expect(s.events).toEqual([]);
      expect(s.state.raw).toContain('"code":"auth/bad_key"');
      // Still serving.
      expect((await call(f.url, 'GET', '/api/health')).status).toBe(200);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('open does not hold up closing the app', async () => {
    f = await appFixture();
    const { token } = await keyOf(f);
    const s = await sse(f.url, token, { since: 0 });
    expect(s.status).toBe(200);
    await sleep(100);
    const started = Date.now();
    const closed = await Promise.race([f.app.close().then(() => true), sleep(3_000).then(() => false)]);
    expect(closed, 'app.close() resolved').toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    await until('the stream to end', () => s.state.ended, 2_000);
  });

  it('opened without since gives its resume point at once: a reconnect before any event loses none', async () => {
    f = await appFixture();
    const { token } = await keyOf(f);
    await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] });
    const head = f.integrations.stream.head();
    const first = await sse(f.url, token);
    await until('the opening lines', () => first.state.lastId !== null, 2_000);
    expect(first.state.lastId).toBe(String(head));
    // Cut off before any event; events come meanwhile; back with the id it was given (as an EventSource does).
    first.close();
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Bob'] })).body.id as string;
    const again = await sse(f.url, token, { lastEventId: Number(first.state.lastId) });
    await until('the missed game.created', () => again.events.length > 0, 2_000);
    expect(again.events[0]).toMatchObject({ id: head + 1, event: 'game.created', data: { game } });
    again.close();
  });
});
