/** History, corrections, fairness, export and import through the REST API. */
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
import { MIN_ROLLS } from '../../src/audit/fairness.js';

const TOKEN = 'audit-routes-operator-token';
const headers = { authorization: `Bearer ${TOKEN}` };
let cleanup: Array<() => Promise<void> | void> = [];

async function server() {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-audit-api-'));
  const store: GameStore = openStore(dir);
  store.startSession(1000, 'test');
  const sim = createSimulator({ seed: 21, colours: ['red', 'blue'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store });
  const app: FastifyInstance = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.ready();
  cleanup.push(async () => {
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const post = async (url: string, payload?: unknown) => {
    const res = await app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  const get = async (url: string, auth = false) => {
    const res = await app.inject({ method: 'GET', url, ...(auth ? { headers } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  return { app, table, post, get };
}

beforeEach(() => {
  cleanup = [];
});
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('history', () => {
  it('lists games with their session and every roll with its reading and frame', async () => {
    const { post, get } = await server();
    const id = (await post('/api/games', { game: 'dice-poker', players: ['Ann', 'Bob'] })).body.id;
    await post(`/api/games/${id}/roll`);
    await post(`/api/games/${id}/roll`, { values: [1, 1, 1, 1, 1] });
    const history = (await get('/api/history')).body;
    expect(history.sessions).toEqual([{ id: 1, startedAt: 1000, version: 'test' }]);
    expect(history.games).toEqual([expect.objectContaining({ id, name: 'Dice Poker', players: ['Ann', 'Bob'], rollCount: 2, correctionCount: 0, over: false, session: 1 })]);
    const rolls = (await get(`/api/games/${id}/rolls`)).body.rolls;
    expect(rolls).toHaveLength(2);
    expect(rolls[0]).toMatchObject({ seq: 1, source: 'tower', secret: false, frameUrl: `/api/games/${id}/rolls/1/frame.jpg` });
    expect(rolls[0].reading.dice).toHaveLength(5);
    expect(rolls[1]).toMatchObject({ seq: 2, source: 'manual', values: [1, 1, 1, 1, 1], frameUrl: null, reading: null });
  });
});

describe('corrections through the API', () => {
  it('corrects a roll: the view shows the new values, what was read, and who, when and why', async () => {
    const { post, get } = await server();
    const id = (await post('/api/games', { game: 'dice-poker', players: ['Ann'] })).body.id;
    const rolled = (await post(`/api/games/${id}/roll`)).body;
    const read = rolled.lastRoll.values as number[];
    const fixed = read.map((v) => (v === 6 ? 5 : v + 1));
    const { status, body } = await post(`/api/games/${id}/rolls/1/correction`, { values: fixed, reason: 'two dice misread', by: 'Kim' });
    expect(status).toBe(200);
    expect(body.board.dice).toEqual(fixed);
    expect(body.lastRoll).toMatchObject({ values: fixed, read, corrections: [{ by: 'Kim', reason: 'two dice misread', from: read, values: fixed, at: expect.any(Number) }] });
    expect(body.recentRolls[0]).toMatchObject({ seq: 1, values: fixed, corrected: true });
    expect((await get(`/api/games/${id}/rolls`)).body.rolls[0]).toMatchObject({ values: fixed, read });
    // The reading stays as the camera saw it.
    expect(body.lastRoll.reading.dice.map((d: { value: number }) => d.value)).toEqual(read);
  });

  it.each([
    [{ values: [1, 2, 3, 4, 5] }, 400, /must have required property 'reason'/],
    [{ values: [1, 2, 3, 4, 9], reason: 'xyz' }, 400, /must be <= 6/],
    [{ values: [1, 2], reason: 'xyz' }, 400, /had 5 dice; the correction gives 2/],
    [{ values: [1, 2, 3, 4, 5], reason: 'xyz', who: 'me' }, 400, /additional properties \('who'\)/],
  ])('refuses %j', async (payload, status, message) => {
    const { post } = await server();
    const id = (await post('/api/games', { game: 'dice-poker', players: ['Ann'] })).body.id;
    await post(`/api/games/${id}/roll`, { values: [6, 6, 6, 6, 6] });
    const res = await post(`/api/games/${id}/rolls/1/correction`, payload);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  it('refuses a correction that a later move cannot survive with a 409 naming the move', async () => {
    const { post } = await server();
    const id = (await post('/api/games', { game: 'shut-the-box', players: ['Ann', 'Bob'] })).body.id;
    await post(`/api/games/${id}/roll`, { values: [6, 3] });
    expect((await post(`/api/games/${id}/actions`, { type: 'close', boxes: [9] })).status).toBe(200);
    const res = await post(`/api/games/${id}/rolls/1/correction`, { values: [1, 1], reason: 'misread' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'table/correction_conflicts', message: expect.stringMatching(/later move 'close 9' illegal.*nothing changed/) });
  });
});

describe('fairness', () => {
  it('counts faces per die colour and over all, and judges only with enough rolls', async () => {
    const { post, get } = await server();
    const id = (await post('/api/games', { game: 'dice-poker', players: ['Ann'], options: { maxThrows: 3 } })).body.id;
    await post(`/api/games/${id}/roll`);
    let report = (await get('/api/fairness')).body;
    expect(report.overall.rolls).toBe(5);
    expect(report.overall.counts.reduce((a: number, b: number) => a + b, 0)).toBe(5);
    expect(report.dice.map((d: { key: string }) => d.key).sort()).toEqual(['blue', 'red']);
    expect(report.overall).toMatchObject({ enough: false, needed: MIN_ROLLS - 5, biased: false });
    // Loaded "dice" typed in: all sixes, a turn each, enough of them to judge.
    await post(`/api/games/${id}/score`, { category: 'chance' });
    for (let turn = 0; turn < 12; turn++) {
      expect((await post(`/api/games/${id}/roll`, { values: [6, 6, 6, 6, 6] })).status).toBe(200);
      const open = (await get(`/api/games/${id}`)).body.actions.find((a: { type: string }) => a.type === 'score');
      expect((await post(`/api/games/${id}/score`, { category: open.category })).status).toBe(200);
    }
    report = (await get('/api/fairness')).body;
    // Typed-in values are what someone typed, not what a die did: counted apart, never judged, never in "all dice".
    expect(report.dice.map((d: { key: string }) => d.key)).not.toContain('typed in');
    expect(report.overall).toMatchObject({ rolls: 5, biased: false });
    expect(report.typedIn.rolls).toBeGreaterThanOrEqual(MIN_ROLLS);
    expect(report.typedIn.counts[5]).toBe(report.typedIn.rolls);
    expect(report.typedIn).not.toHaveProperty('biased');
    expect((await get(`/api/fairness?game=${id}`)).body.scope).toBe(id);
    expect((await get('/api/fairness?game=nope')).status).toBe(404);
  });
});

describe('export and import', () => {
  it('moves a game to another server, where it replays to the same state; a tampered copy is refused', async () => {
    const a = await server();
    const id = (await a.post('/api/games', { game: 'dice-poker', players: ['Ann', 'Bob'] })).body.id;
    await a.post(`/api/games/${id}/roll`);
    await a.post(`/api/games/${id}/hold`, { dice: [0] });
    await a.post(`/api/games/${id}/roll`);
    const read = (await a.get(`/api/games/${id}`)).body.lastRoll.values as number[];
    await a.post(`/api/games/${id}/rolls/2/correction`, { values: read.map((v) => (v % 6) + 1), reason: 'test' });
    expect((await a.get(`/api/games/${id}/export`)).status).toBe(401);
    const exported = await a.app.inject({ method: 'GET', url: `/api/games/${id}/export`, headers });
    expect(exported.headers['content-disposition']).toContain(`dice-tower-${id}.json`);
    const exp = exported.json();

    const b = await server();
    const tampered = JSON.parse(JSON.stringify(exp));
    tampered.events[1].payload.roll.values[0] = tampered.events[1].payload.roll.values[0] === 1 ? 2 : 1;
    const refused = await b.post('/api/games/import', tampered);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'import/tampered', message: expect.stringContaining('event 2 (game/roll) does not match its hash') });
    const junk = await b.post('/api/games/import', { ...exp, format: 'something-else' });
    expect(junk.status).toBe(400);
    expect(junk.body.message).toMatch(/format must be equal to constant/);
    const forged = JSON.parse(JSON.stringify(exp));
    forged.events[1].payload.roll = { seq: 1 };
    expect((await b.post('/api/games/import', forged)).body.message).toMatch(/must have required property 'request'/);

    const imported = await b.post('/api/games/import', exp);
    expect(imported.status).toBe(201);
    const there = (await b.get(`/api/games/${id}`)).body;
    const here = (await a.get(`/api/games/${id}`)).body;
    for (const key of ['state', 'version', 'board', 'rollCount', 'players']) expect(there[key]).toEqual(here[key]);
    expect(there.lastRoll.corrections).toEqual(here.lastRoll.corrections);
    expect((await b.post('/api/games/import', exp)).status).toBe(409);
  });
});
