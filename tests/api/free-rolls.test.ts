/**
 * POST /api/rolls: free rolls for scripts, thrown in a "Just roll" session by
 * the simulated tower and read by the camera: recorded, shown and counted in
 * fairness like any game's roll; the operator's token or an API key with
 * rolls:request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFixture, type AppFixture } from '../integrations/app-fixture.js';
import { call, OPERATOR } from '../integrations/helpers.js';
import { buildApp } from '../../src/api/app.js';
import { createSimulator } from '../../src/hardware/index.js';
import { DEFAULT_TRAY } from '../../src/hardware/simulator/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';

let f: AppFixture;
beforeAll(async () => {
  f = await appFixture();
});
afterAll(async () => {
  await f.close();
});

type FreeRoll = { game: string; seq: number; values: number[]; sum: number; attempts: number; source: string; frameUrl: string; dice: Array<{ value: number; colour: string }> };

describe('POST /api/rolls', () => {
  it('throws the dice asked for in a new Just roll session and answers the reading', async () => {
    const res = await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const roll = res.body as unknown as FreeRoll;
    expect(roll.values).toHaveLength(5);
    expect(roll.values.every((v) => v >= 1 && v <= 6)).toBe(true);
    expect(roll.sum).toBe(roll.values.reduce((a, b) => a + b, 0));
    expect(roll).toMatchObject({ seq: 1, source: 'tower', frameUrl: `/api/games/${roll.game}/rolls/1/frame.jpg` });
    expect(roll.dice.map((d) => d.value)).toEqual(roll.values);
    // A game like any other: its board shows the throw, its frame is served, fairness counts its dice.
    const game = (await call(f.url, 'GET', `/api/games/${roll.game}`)).body as { game: string; players: string[]; board: { dice: number[] }; rollCount: number };
    expect(game).toMatchObject({ game: 'just-roll', players: ['Scripts'], rollCount: 1 });
    expect(game.board.dice).toEqual(roll.values);
    const frame = await fetch(`${f.url}${roll.frameUrl}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    const fairness = (await call(f.url, 'GET', `/api/fairness?game=${roll.game}`)).body as { overall: { rolls: number; counts: number[] } };
    expect(fairness.overall.rolls).toBe(5);
    expect(fairness.overall.counts.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('throws again in the same session, changing the number of dice when asked', async () => {
    const first = (await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 2 })).body as unknown as FreeRoll;
    const second = (await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 12 })).body as unknown as FreeRoll;
    expect(second.game).toBe(first.game);
    expect(second.seq).toBe(first.seq + 1);
    expect(second.values).toHaveLength(12);
    const state = (await call(f.url, 'GET', `/api/games/${second.game}`)).body as { state: { throws: number; count: number } };
    expect(state.state).toMatchObject({ throws: second.seq, count: 12 });
  });

  it('throws coloured dice the camera knows, in the order asked', async () => {
    // A camera that tells colours and sizes apart (the simulator's tray, calibrated).
    const sim = createSimulator({ seed: 5, colours: ['white', 'red', 'blue'] });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader({ ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize }) });
    const app = buildApp({ table, version: 'test' });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/rolls', payload: { count: 3, colours: ['red', 'blue', 'red'] } });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as FreeRoll).dice.map((d) => d.colour)).toEqual(['red', 'blue', 'red']);
    } finally {
      await app.close();
    }
  });

  it('refuses a count out of 1-30, colours that do not match the count, and a game that is not Just roll', async () => {
    for (const count of [0, 31, 2.5, '5']) {
      const res = await call(f.url, 'POST', '/api/rolls', OPERATOR, { count });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/count/);
    }
    const colours = await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 3, colours: ['red'] });
    expect(colours.body).toMatchObject({ code: 'game/bad_dice', message: 'Name one colour per die: 3 dice, 1 colours.' });
    const poker = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const other = await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 5, game: poker });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'rolls/not_free_rolls', message: expect.stringContaining(`not Just roll: roll it through /api/games/${poker}/roll`) });
    expect((await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 5, game: 'nope' })).status).toBe(404);
  });

  it('takes an API key with rolls:request, refuses one without it and a viewer', async () => {
    const key = async (scopes: string[]) => (await call(f.url, 'POST', '/api/keys', OPERATOR, { name: scopes.join('+'), scopes })).body.token as string;
    expect((await call(f.url, 'POST', '/api/rolls', await key(['rolls:request']), { count: 1 })).status).toBe(200);
    expect((await call(f.url, 'POST', '/api/rolls', await key(['events:read']), { count: 1 })).body).toMatchObject({ code: 'auth/missing_scope' });
    const viewer = await fetch(`${f.url}/api/rolls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count":1}' });
    expect(viewer.status).toBe(401);
  });

  it('starts a new session once the last one has ended', async () => {
    const first = (await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 1 })).body as unknown as FreeRoll;
    expect((await call(f.url, 'POST', `/api/games/${first.game}/actions`, OPERATOR, { type: 'end' })).status).toBe(200);
    const ended = await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 1, game: first.game });
    expect(ended.body).toMatchObject({ code: 'game/over' });
    const next = (await call(f.url, 'POST', '/api/rolls', OPERATOR, { count: 1 })).body as unknown as FreeRoll;
    expect(next.game).not.toBe(first.game);
    expect(next.seq).toBe(1);
  });
});
