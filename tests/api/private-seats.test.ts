/**
 * Secret throws: the public scoreboard and other players never see a secret
 * die or its camera frame; each seat sees its own through its token.
 * Uses a tiny two-seat game with secret throws, so the test stands on its own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSimulator, type Simulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { secretDuel } from './secret-duel.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';

let sim: Simulator;
let app: FastifyInstance;

beforeEach(async () => {
  sim = createSimulator({ seed: 21, colours: ['white'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), games: { 'secret-duel': secretDuel } });
  app = buildApp({ table, version: 'test' });
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

const get = async (url: string) => {
  const res = await app.inject(url);
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, body: type.includes('json') ? res.json() : res.body, type };
};

describe('private seats and secret throws', () => {
  it('hides a secret throw from the public and the other seat, and shows it to its thrower', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'secret-duel', players: ['Ann', 'Bob'] } });
    const id = created.json().id;
    const seats = (await get(`/api/games/${id}/seats`)).body as Array<{ seat: number; name: string; path: string }>;
    expect(seats.map((s) => s.name)).toEqual(['Ann', 'Bob']);
    const token = (seat: number) => new URLSearchParams(seats[seat]?.path.split('?')[1]).get('token') ?? '';
    expect(token(0)).not.toEqual(token(1));

    const rolled = (await app.inject({ method: 'POST', url: `/api/games/${id}/roll` })).json();
    const annsDie = sim.truth()[0]?.value;
    // The public reply to the roll itself shows nothing of it.
    expect(rolled.state.dice).toEqual([null, null]);
    expect(rolled.board.dice).toEqual([null, null]);
    expect(rolled.lastRoll).toBeNull();
    expect((await get(`/api/games/${id}`)).body.state.dice).toEqual([null, null]);

    const ann = (await get(`/api/games/${id}/seats/0?token=${token(0)}`)).body;
    expect(ann.viewer).toBe(0);
    expect(ann.state.dice).toEqual([annsDie, null]);
    expect(ann.lastRoll.values).toEqual([annsDie]);
    const bob = (await get(`/api/games/${id}/seats/1?token=${token(1)}`)).body;
    expect(bob.state.dice).toEqual([null, null]);
    expect(bob.lastRoll).toBeNull();

    // The camera frame of the secret roll: only Ann, with her token.
    expect((await get(`/api/games/${id}/rolls/1/frame.jpg`)).status).toBe(403);
    expect((await get(`/api/games/${id}/rolls/1/frame.jpg?seat=1&token=${token(1)}`)).status).toBe(403);
    const frame = await get(ann.recentRolls.at(-1).frameUrl);
    expect(frame).toMatchObject({ status: 200, type: 'image/jpeg' });

    await app.inject({ method: 'POST', url: `/api/games/${id}/roll` });
    const revealed = (await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, payload: { type: 'reveal' } })).json();
    expect(revealed.state.dice.every((d: number | null) => d !== null)).toBe(true);
    expect(revealed.result.scores).toEqual(revealed.state.dice);
  });

  it('refuses a wrong token or seat with a clear 403/404', async () => {
    const id = (await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'secret-duel', players: ['Ann', 'Bob'] } })).json().id;
    const wrong = await get(`/api/games/${id}/seats/0?token=guess`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toMatch(/not the token of seat 0/);
    expect((await get(`/api/games/${id}/seats/5?token=x`)).status).toBe(404);
    expect((await get(`/api/games/${id}/seats/0`)).status).toBe(400);
  });

  it('hands each seat link out until its page is opened (claim once), and can reissue it', async () => {
    const id = (await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'secret-duel', players: ['Ann', 'Bob'] } })).json().id;
    const seats = (await get(`/api/games/${id}/seats`)).body as Array<{ path: string }>;
    const annPath = seats[0]?.path ?? '';
    const annToken = new URLSearchParams(annPath.split('?')[1]).get('token') ?? '';
    expect((await get(`/api/games/${id}/seats/0?token=${annToken}`)).status).toBe(200);
    // Ann's link is no longer handed out, Bob's still is.
    const after = (await get(`/api/games/${id}/seats`)).body as Array<{ claimed: boolean; path: string | null }>;
    expect(after.map((s) => [s.claimed, s.path === null])).toEqual([[true, true], [false, false]]);
    expect((await get(`/api/games/${id}/seats/0/qr.svg`)).status).toBe(410);
    expect((await get(`/api/games/${id}`)).body.seatsClaimed).toEqual([true, false]);
    // Ann still sees her page with her token.
    expect((await get(`/api/games/${id}/seats/0?token=${annToken}`)).status).toBe(200);
    // Reissued: the old link stops working, a new one is handed out.
    const reissued = (await app.inject({ method: 'POST', url: `/api/games/${id}/seats/0/reissue` })).json() as Array<{ path: string | null }>;
    expect(reissued[0]?.path).not.toBeNull();
    expect(reissued[0]?.path).not.toEqual(annPath);
    expect((await get(`/api/games/${id}/seats/0?token=${annToken}`)).status).toBe(403);
  });

  it('draws a QR code of each seat link', async () => {
    const id = (await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'secret-duel', players: ['Ann', 'Bob'] } })).json().id;
    const qr = await get(`/api/games/${id}/seats/1/qr.svg`);
    expect(qr.status).toBe(200);
    expect(qr.type).toContain('image/svg+xml');
    expect(String(qr.body)).toContain('<svg');
  });
});
