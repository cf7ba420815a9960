/**
 * The Idempotency-Key header on POST …/roll and …/actions (issue #45,
 * finding 6: "the same manual roll posted twice is applied twice"): a retry
 * with the same key is applied once and gets the first answer again; the
 * same key with another body is a 422; without the header nothing changes.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { IdempotencyKeys } from '../../src/api/idempotency.js';
import { createSimulator, type Tower } from '../../src/hardware/index.js';
import { Table, TableError } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** The app over a simulated tower; `tower` may wrap the simulator's (to fail or to hold a roll). */
async function start(tower?: (sim: Tower) => Tower, hooks?: (app: FastifyInstance) => void): Promise<{ app: FastifyInstance; table: Table }> {
  const sim = createSimulator({ seed: 7, colours: ['red'] });
  const table = new Table({ tower: tower ? tower(sim.tower) : sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test' });
  hooks?.(app);
  await app.ready();
  return { app, table };
}

type Answer = { status: number; body: string; json: Record<string, unknown>; replayed: boolean };

async function post(server: FastifyInstance, url: string, payload: unknown, key?: string): Promise<Answer> {
  const res = await server.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.body, json: res.json(), replayed: res.headers['idempotent-replayed'] === 'true' };
}

describe('Idempotency-Key on POST /api/games/:id/roll', () => {
  it('applies a manual roll posted twice with the same key once, and answers the retry as the first', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const first = await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] }, 'roll-1');
    const retry = await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] }, 'roll-1');
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(retry).toMatchObject({ status: 200, body: first.body, replayed: true });
    expect(table.get(id).rolls).toHaveLength(1);
  });

  it('still applies the same roll twice without the header, as before', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    for (let i = 0; i < 2; i++) expect((await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] })).status).toBe(200);
    expect(table.get(id).rolls).toHaveLength(2);
  });

  it('refuses the same key with another body with 422, naming the key, and applies nothing', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    expect((await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] }, 'k')).status).toBe(200);
    const other = await post(app, `/api/games/${id}/roll`, { values: [1, 1, 1, 1, 1] }, 'k');
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 'api/idempotency_key_reused' });
    expect(other.json.message).toContain("Idempotency-Key 'k' was first used for POST /api/games/:id/roll");
    expect(table.get(id).rolls).toHaveLength(1);
  });

  it('keeps keys per game: the same key in another game is a new request', async () => {
    const { app, table } = await start();
    const a = table.create('dice-poker', ['Ann', 'Bob']).id;
    const b = table.create('dice-poker', ['Ann', 'Bob']).id;
    expect((await post(app, `/api/games/${a}/roll`, { values: [6, 6, 1, 2, 3] }, 'k')).replayed).toBe(false);
    expect((await post(app, `/api/games/${b}/roll`, { values: [6, 6, 1, 2, 3] }, 'k')).replayed).toBe(false);
    expect([table.get(a).rolls.length, table.get(b).rolls.length]).toEqual([1, 1]);
  });

  it('lets a retry that arrives while the tower still rolls wait for that roll, instead of rolling again', async () => {
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const atTower = new Promise<void>((resolve) => (reached = resolve));
    let cycles = 0;
    // The retry is seen just before its handler runs; everything from there to its wait for the first answer is
    // promise jobs, which one turn of the event loop (setImmediate) lets finish.
    let handled = 0;
    let retryAtHandler: () => void = () => undefined;
    const retryReached = new Promise<void>((resolve) => (retryAtHandler = resolve));
    const countHandled = (server: FastifyInstance) =>
      server.addHook('preHandler', async () => {
        if (++handled === 2) retryAtHandler();
      });
    const { app, table } = await start((sim) => ({
      kind: 'held',
      async roll(count, dice) {
        cycles++;
        reached();
        await new Promise<void>((resolve) => (release = resolve));
        await sim.roll(count, dice);
      },
    }), countHandled);
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const first = post(app, `/api/games/${id}/roll`, null, 'throw-1');
    await atTower;
    const retry = post(app, `/api/games/${id}/roll`, null, 'throw-1');
    await retryReached;
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [a, b] = await Promise.all([first, retry]);
    expect(a).toMatchObject({ status: 200, replayed: false });
    expect(b).toMatchObject({ status: 200, body: a.body, replayed: true });
    expect(table.get(id).rolls).toHaveLength(1);
    expect(cycles).toBe(1);
  });

  it('forgets a try that ended in a fault (nothing applied), so the retry rolls', async () => {
    let failures = 1;
    const { app, table } = await start((sim) => ({
      kind: 'flaky',
      async roll(count, dice) {
        if (failures-- > 0) throw Object.assign(new Error('the tray servo did not answer'), { code: 'tower/servo' });
        await sim.roll(count, dice);
      },
    }));
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    expect((await post(app, `/api/games/${id}/roll`, null, 'k')).status).toBe(503);
    const retry = await post(app, `/api/games/${id}/roll`, null, 'k');
    expect(retry).toMatchObject({ status: 200, replayed: false });
    expect(table.get(id).rolls).toHaveLength(1);
  });

  it('refuses a key that is not 1-200 visible characters', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const res = await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] }, 'x'.repeat(201));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'api/bad_idempotency_key' });
    expect(table.get(id).rolls).toHaveLength(0);
  });
});

describe('Idempotency-Key on POST /api/games/:id/actions', () => {
  it('applies a decision once and answers the retry as the first', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    await table.roll(id, [6, 6, 1, 2, 3]);
    const first = await post(app, `/api/games/${id}/actions`, { type: 'score', category: 'chance' }, 'score-1');
    const retry = await post(app, `/api/games/${id}/actions`, { type: 'score', category: 'chance' }, 'score-1');
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(retry).toMatchObject({ status: 200, body: first.body, replayed: true });
    expect(table.get(id).actions.filter((a) => a.type === 'score')).toHaveLength(1);
  });

  it('answers a retried refusal with the same refusal', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    // Scoring before any throw is refused by the rules.
    const first = await post(app, `/api/games/${id}/actions`, { type: 'score', category: 'chance' }, 'early');
    expect(first.status).toBe(409);
    await table.roll(id, [6, 6, 1, 2, 3]);
    const retry = await post(app, `/api/games/${id}/actions`, { type: 'score', category: 'chance' }, 'early');
    expect(retry).toMatchObject({ status: 409, body: first.body, replayed: true });
    expect(table.get(id).actions.filter((a) => a.type === 'score')).toHaveLength(0);
  });

  it('refuses the same key used on the roll route first with 422', async () => {
    const { app, table } = await start();
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    expect((await post(app, `/api/games/${id}/roll`, { values: [6, 6, 1, 2, 3] }, 'k')).status).toBe(200);
    const res = await post(app, `/api/games/${id}/actions`, { type: 'score', category: 'chance' }, 'k');
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('POST /api/games/:id/roll');
  });
});

describe('IdempotencyKeys', () => {
  const answer = (body: unknown) => async () => ({ status: 200, body });

  it('remembers at most its limit of keys, forgetting the oldest first', async () => {
    const keys = new IdempotencyKeys(2, 60_000, () => 0);
    for (const key of ['a', 'b', 'c']) await keys.run('g', key, key, 'test', answer(key));
    expect((await keys.run('g', 'c', 'c', 'test', answer('again'))).replayed).toBe(true);
    expect(await keys.run('g', 'a', 'a', 'test', answer('again'))).toMatchObject({ replayed: false, body: 'again' });
  });

  it('makes a second call with the key wait for the answer of the first', async () => {
    const keys = new IdempotencyKeys();
    let finish: (a: { status: number; body: unknown }) => void = () => undefined;
    let made = 0;
    const make = () => {
      made++;
      return new Promise<{ status: number; body: unknown }>((resolve) => (finish = resolve));
    };
    const first = keys.run('g', 'k', 'same', 'test', make);
    const second = keys.run('g', 'k', 'same', 'test', make);
    finish({ status: 200, body: 'rolled' });
    expect(await Promise.all([first, second])).toEqual([{ status: 200, body: 'rolled', replayed: false }, { status: 200, body: 'rolled', replayed: true }]);
    expect(made).toBe(1);
  });

  it('forgets a key after its time', async () => {
    let now = 0;
    const keys = new IdempotencyKeys(10, 60_000, () => now);
    await keys.run('g', 'a', 'a', 'test', answer(1));
    now = 59_999;
    expect((await keys.run('g', 'a', 'a', 'test', answer(2))).body).toBe(1);
    now = 60_001;
    expect((await keys.run('g', 'a', 'a', 'test', answer(2))).body).toBe(2);
  });

  it('names the key and the first use when a key is reused for another request', async () => {
    const keys = new IdempotencyKeys();
    await keys.run('g', 'k', 'one', 'POST /x', answer(1));
    await expect(keys.run('g', 'k', 'two', 'POST /y', answer(2))).rejects.toThrow(TableError);
    await expect(keys.run('g', 'k', 'two', 'POST /y', answer(2))).rejects.toThrow("Idempotency-Key 'k' was first used for POST /x");
  });
});
