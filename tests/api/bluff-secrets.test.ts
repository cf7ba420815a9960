/**
 * Bluff's secret cups in public: the public view and the WebSocket feed
 * (`game` and `patch` messages: state, board, bids, actions, actors, feed)
 * say nothing of a cup no one has shown. Two games whose secret throws
 * differ look the same to the public, message for message, until the
 * challenge reveals them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import type { BluffState } from '../../src/games/bluff.js';
import { liveGames } from '../../src/api/public/view-patch.js';

const TOKEN = 'bluff-secrets-operator-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let app: FastifyInstance;
let table: Table;
let port = 0;

beforeAll(async () => {
  const sim = createSimulator({ seed: 9, colours: ['white'] });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app.close();
});

const post = async (url: string, payload: object = {}) => {
  const res = await app.inject({ method: 'POST', url, headers: auth, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The fields that differ between two games whatever their dice: ids, clocks, seat links. */
const NOISE = new Set(['id', 'gameId', 'at', 'createdAt', 'updatedAt', 'ms']);
function scrub(value: unknown, ids: readonly string[]): unknown {
  if (typeof value === 'string') return ids.reduce((s, id) => s.split(id).join('<game>'), value);
  // A patch operation on the wire (`["replace", "/updatedAt", …]`) setting one of them.
  if (Array.isArray(value) && (value[0] === 'add' || value[0] === 'replace') && typeof value[1] === 'string' && NOISE.has(value[1].split('/').pop() ?? '')) return [value[0], value[1], '<noise>'];
  if (Array.isArray(value)) return value.map((v) => scrub(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => !NOISE.has(k)).map(([k, v]) => [k, scrub(v, ids)]));
  return value;
}

describe('secret cups in public', () => {
  it('the public view and the feed are the same whatever the secret throws, until the challenge', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const live = liveGames();
    const messages: Array<Record<string, unknown>> = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown> & { type: string };
      messages.push(m);
      live.take(m);
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    await expect.poll(() => messages.some((m) => m.type === 'snapshot')).toBe(true);

    /** Plays a game with these secret throws and the same public moves; gives its public views and its feed messages. */
    const play = async (throws: number[][]) => {
      const created = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'bluff', players: ['Ann', 'Bob', 'Cid'], options: { dicePerPlayer: '2', showAndReroll: true } } });
      const id = created.json().id as string;
      const views: unknown[] = [];
      const look = async () => views.push((await app.inject(`/api/games/${id}`)).json());
      for (const values of throws) {
        await post(`/api/games/${id}/roll`, { values });
        await look();
      }
      for (const action of [{ type: 'bid', position: 1, face: 3 }, { type: 'keepHidden' }, { type: 'bid', position: 2, face: 6 }, { type: 'keepHidden' }, { type: 'bid', position: 4, face: 2 }, { type: 'keepHidden' }]) {
        await post(`/api/games/${id}/actions`, action);
        await look();
      }
      const version = table.get(id).version;
      await expect.poll(() => live.games.get(id)?.view.version).toBe(version);
      const feed = messages.filter((m) => m.gameId === id || (m.game as { id?: string } | undefined)?.id === id);
      return { id, views, feed };
    };
    const a = await play([[1, 2], [3, 6], [5, 5]]);
    const b = await play([[6, 6], [2, 4], [1, 3]]);
    expect(a.views).toHaveLength(9);
    expect(a.feed.length).toBeGreaterThan(5);
    // Nothing in what the public sees tells the two games apart: not the dice, the bids, the actors or the feed.
    expect(scrub(b.views, [b.id])).toEqual(scrub(a.views, [a.id]));
    expect(scrub(b.feed, [b.id])).toEqual(scrub(a.feed, [a.id]));
    const last = a.views.at(-1) as { state: BluffState; actors: unknown[]; actions: unknown[] };
    expect(last.state.dice).toEqual([null, null, null, null, null, null]);
    expect(last.state.bids).toHaveLength(3);
    expect(last.actors.length).toBe(last.actions.length);

    // The challenge reveals the cups: now the two games differ.
    const ca = await post(`/api/games/${a.id}/actions`, { type: 'challenge' });
    const cb = await post(`/api/games/${b.id}/actions`, { type: 'challenge' });
    expect(ca.state.lastChallenge.cups).toEqual([[1, 2], [3, 6], [5, 5]]);
    expect(scrub(cb, [b.id])).not.toEqual(scrub(ca, [a.id]));
    ws.close();
  });
});
