/**
 * The SSE stream's life on the app listening in this process: a key revoked
 * while its stream is open, the operator token changed while a stream opened
 * with it is, the app closed with a stream open, and the resume point a
 * stream gives before its first event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, openIntegrationsDb } from '../../src/integrations/index.js';
import { openStore } from '../../src/storage/index.js';
import { backupDataDir, restoreDataDir } from '../../src/storage/backup.js';
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

  it('opened with the operator token ends as soon as the token is changed; a key\'s stream goes on', async () => {
    f = await appFixture();
    const { token: key } = await keyOf(f);
    const byOperator = await sse(f.url, OPERATOR);
    const byKey = await sse(f.url, key);
    expect([byOperator.status, byKey.status]).toEqual([200, 200]);
    await until('the opening lines', () => byOperator.state.raw.includes('event: stream') && byKey.state.raw.includes('event: stream'), 2_000);
    const next = 'a-new-operator-token-for-this-test';
    expect((await call(f.url, 'POST', '/api/operator/token', OPERATOR, { token: next })).status).toBe(200);
    // At once: no event and no heartbeat (every 15 s) comes first.
    await until('the operator\'s stream to end', () => byOperator.state.ended, 2_000);
    expect(byOperator.state.raw).toContain('"code":"auth/token_changed"');
    // The key's stream is no operator's: it goes on and gets the next event.
    await call(f.url, 'POST', '/api/games', next, { game: 'dice-poker', players: ['Ann'] });
    await until('the key\'s stream to get game.created', () => byKey.events.some((e) => e.event === 'game.created'), 2_000);
    expect(byKey.state.ended).toBe(false);
    // The new token opens a stream again; the old one is refused.
    expect((await call(f.url, 'GET', '/api/events/log?since=0', OPERATOR)).status).toBe(403);
    const again = await sse(f.url, next);
    expect(again.status).toBe(200);
    again.close();
    byKey.close();
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

  it('gives its epoch, refuses a resume point of another one, and a restored backup has a new one', async () => {
    f = await appFixture();
    const { token } = await keyOf(f);
    const epoch = f.integrations.stream.epoch;
    expect(epoch).toMatch(/^[0-9a-f]{12}$/);
    const log = await call(f.url, 'GET', `/api/events/log?since=0&epoch=${epoch}`, token);
    expect(log.body).toMatchObject({ epoch });
    const s = await sse(f.url, token, { query: `&epoch=${epoch}` });
    await until('the opening lines', () => s.state.raw.includes('event: stream'), 2_000);
    expect(s.state.raw).toContain(`data: {"epoch":"${epoch}","since":${f.integrations.stream.head()}}`);
    s.close();
    const other = epoch === '000000000001' ? '000000000002' : '000000000001';
    for (const path of [`/api/events/log?since=0&epoch=${other}`, `/api/events?epoch=${other}`]) {
      const refused = await call(f.url, 'GET', path, token);
      expect(refused.status, path).toBe(409);
      expect(refused.body).toMatchObject({ code: 'events/epoch_changed', message: expect.stringContaining(`epoch is ${epoch}, not ${other}`) });
    }
    // Over the WebSocket too.
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/ws`);
    const got: Array<Record<string, unknown>> = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d)) as Record<string, unknown>));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token }));
    ws.send(JSON.stringify({ type: 'subscribe', since: 0, epoch: other }));
    ws.send(JSON.stringify({ type: 'subscribe', since: 0, epoch }));
    await until('both answers', () => got.some((m) => m.type === 'error') && got.some((m) => m.type === 'subscribed'));
    expect(got.find((m) => m.type === 'error')).toMatchObject({ code: 'events/epoch_changed' });
    expect(got.find((m) => m.type === 'subscribed')).toMatchObject({ epoch });
    ws.close();
    // A backup restored: the same events, numbered from the backup's head on, in a new epoch.
    const backup = join(mkdtempSync(join(tmpdir(), 'dice-tower-epoch-')), 'backup');
    const restored = join(dirname(backup), 'restored');
    try {
      await backupDataDir(f.dataDir, backup);
      await restoreDataDir(backup, restored);
      const store = openStore(restored);
      const db = openIntegrationsDb(store.dbPath);
      const again = new EventStream(db);
      expect(again.head()).toBe(f.integrations.stream.head());
      expect(again.epoch).toMatch(/^[0-9a-f]{12}$/);
      expect(again.epoch).not.toBe(epoch);
      db.close();
      store.close();
    } finally {
      rmSync(dirname(backup), { recursive: true, force: true });
    }
  });
});
