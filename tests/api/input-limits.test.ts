/**
 * Input limits on JSON bodies (issue #45, finding 6): nesting deeper than
 * MAX_BODY_DEPTH, more than MAX_BODY_KEYS keys in all, and keys named
 * __proto__, constructor or prototype are refused with a 400 that names the
 * limit, before anything reaches the game log. Before, JSON nested 1 000 deep
 * was stored, 3 000 deep answered 503 "fix the data directory", and
 * __proto__ bodies were refused as "not valid JSON".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { bodyProblem, MAX_BODY_DEPTH, MAX_BODY_KEYS } from '../../src/api/body-limits.js';
import { parseClientMessage } from '../../src/api/feed.js';
import { createSimulator } from '../../src/hardware/index.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';

let dataDir: string;
let store: GameStore;
let table: Table;
let app: FastifyInstance;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-limits-'));
  store = openStore(dataDir);
  const sim = createSimulator({ seed: 4, colours: ['red'] });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store });
  app = buildApp({ table, version: 'test' });
  await app.ready();
});

afterEach(async () => {
  await app.close();
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `levels` objects nested in one another: `{"a":{"a":…{}}}`. */
function nested(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

async function postGame(payload: string) {
  const res = await app.inject({ method: 'POST', url: '/api/games', headers: { 'content-type': 'application/json' }, payload });
  return { status: res.statusCode, body: res.json() as { code: string; message: string } };
}

/** A Dice Poker game after its first (typed-in) roll: a hold is its next move, and the actions route stores what the rules let through. */
async function gameToHold(): Promise<string> {
  const id = table.create('dice-poker', ['Ann', 'Bob']).id;
  await table.roll(id, [1, 2, 3, 4, 5]);
  return id;
}

async function postAction(id: string, payload: string) {
  const res = await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, headers: { 'content-type': 'application/json' }, payload });
  return { status: res.statusCode, body: res.json() as { code: string; message: string } };
}

const eventsOf = (id: string) => store.loadGame(id)?.steps.length;

describe('JSON bodies deeper than the limit', () => {
  it(`are refused with 400 naming the limit (${MAX_BODY_DEPTH} levels), and nothing is stored`, async () => {
    const id = await gameToHold();
    const before = eventsOf(id);
    // A hold carrying an extra field nested deep: 1 000 levels were stored, 3 000 answered 503.
    for (const levels of [MAX_BODY_DEPTH + 1, 1_000, 3_000]) {
      const { status, body } = await postAction(id, `{"type":"hold","dice":[0],"x":${nested(levels - 1)}}`);
      expect({ levels, status, code: body.code }).toEqual({ levels, status: 400, code: 'api/body_too_deep' });
      expect(body.message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
    }
    expect(eventsOf(id)).toBe(before);
  });

  it('are let through up to the limit', async () => {
    const id = await gameToHold();
    const { status } = await postAction(id, `{"type":"hold","dice":[0],"x":${nested(MAX_BODY_DEPTH - 1)}}`);
    expect(status).toBe(200);
  });

  it('count arrays as levels too', () => {
    const deep = JSON.parse('['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1)) as unknown;
    expect(bodyProblem(deep)?.code).toBe('api/body_too_deep');
    expect(bodyProblem(JSON.parse('['.repeat(MAX_BODY_DEPTH) + ']'.repeat(MAX_BODY_DEPTH)))).toBeNull();
  });
});

describe('JSON bodies with too many keys', () => {
  it(`are refused with 400 naming the limit (${MAX_BODY_KEYS} keys in all), and nothing is stored`, async () => {
    const id = await gameToHold();
    const before = eventsOf(id);
    const x = Object.fromEntries(Array.from({ length: MAX_BODY_KEYS }, (_, i) => [`k${i}`, i]));
    // The action's own keys and the extra field's together pass the limit.
    const { status, body } = await postAction(id, JSON.stringify({ type: 'hold', dice: [0], x }));
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'api/body_too_many_keys' });
    expect(body.message).toContain(`more than ${MAX_BODY_KEYS} keys`);
    expect(eventsOf(id)).toBe(before);
  });

  it('count keys at every level, and may be given a higher limit', () => {
    const spread = { a: Array.from({ length: 4 }, () => ({ x: 1, y: 2 })) };
    expect(bodyProblem(spread, 9)).toBeNull();
    expect(bodyProblem(spread, 8)?.code).toBe('api/body_too_many_keys');
  });

  it('let a game export through the import with more keys than an ordinary request may hold', async () => {
    const events = Array.from({ length: MAX_BODY_KEYS / 2 + 1 }, (_, n) => ({ n, x: 0 }));
    const res = await app.inject({ method: 'POST', url: '/api/games/import', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ events }) });
    // Refused as an export (its schema), not for its size.
    expect(res.statusCode).toBe(400);
    expect((res.json() as { code: string }).code).not.toBe('api/body_too_many_keys');
  });
});

describe('keys that reach the prototype', () => {
  it.each([
    ['__proto__ at the top', '{"game":"dice-poker","players":["Ann"],"__proto__":{"isAdmin":true}}', '__proto__'],
    ['constructor in the options', '{"game":"dice-poker","players":["Ann"],"options":{"constructor":{"prototype":{"x":1}}}}', 'constructor'],
    ['prototype deep down', '{"game":"dice-poker","players":["Ann"],"options":{"a":[{"prototype":1}]}}', 'prototype'],
  ])('are refused with 400 saying so: %s', async (_, payload, key) => {
    const { status, body } = await postGame(payload);
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'api/forbidden_key' });
    expect(body.message).toContain(`key named '${key}'`);
    expect(store.loadGames()).toEqual([]);
  });

  it('are refused on the actions route as well', async () => {
    const id = await gameToHold();
    const { status, body } = await postAction(id, '{"type":"hold","dice":[0],"x":{"prototype":{}}}');
    expect({ status, code: body.code }).toEqual({ status: 400, code: 'api/forbidden_key' });
  });
});

describe('the live feed', () => {
  it('holds its messages to the same limits', () => {
    expect(parseClientMessage('{"type":"ping","__proto__":{"x":1}}')).toMatchObject({ ok: false, code: 'api/forbidden_key' });
    expect(parseClientMessage('{"type":"ping","constructor":1}')).toMatchObject({ ok: false, code: 'api/forbidden_key' });
    expect(parseClientMessage(`{"type":"ping","ref":${'['.repeat(40)}${']'.repeat(40)}}`)).toMatchObject({ ok: false, code: 'api/body_too_deep' });
    expect(parseClientMessage('{"type":"ping","ref":1}')).toMatchObject({ ok: true });
  });
});
