/**
 * The lean feed through the real server (Fastify on loopback, real `ws`
 * clients): after the snapshot each change of a game comes as a patch of the
 * view the client holds, numbered per game; a client that misses one or
 * reconnects catches up with no gap and nothing twice, and the public never
 * gets a seat's secret throw through a patch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { GAMES } from '../../src/games/index.js';
import { fromWire, liveGames } from '../../src/api/public/view-patch.js';
import { secretDuel } from './secret-duel.js';

let app: FastifyInstance;
let table: Table;
let base = '';

beforeAll(async () => {
  const sim = createSimulator({ seed: 5, colours: ['white'] });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), games: { ...GAMES, 'secret-duel': secretDuel }, botDelayMs: 0 });
  app = buildApp({ table, version: 'test' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
});

afterAll(async () => {
  await app.close();
});

type Message = Record<string, unknown> & { type: string };

/**
 * A scoreboard as the pages follow the feed (view-patch.js): it applies what it
 * is sent, asks again after a gap, and logs each seq it took of each game.
 * `drop(n)` makes it miss its next n patches, as if they were lost.
 */
async function viewer() {
  const ws = new WebSocket(base);
  const live = liveGames();
  const raw: string[] = [];
  const messages: Message[] = [];
  /** Each game's seqs as the client took them (whole views and patches). */
  const taken = new Map<string, number[]>();
  const resyncs: string[] = [];
  let dropping = 0;
  ws.on('message', (data) => {
    const text = String(data);
    const m = JSON.parse(text) as Message;
    if (m.type === 'patch' && dropping > 0) {
      dropping--;
      return;
    }
    raw.push(text);
    messages.push(m);
    const { game, resync } = live.take(m);
    if (resync) {
      resyncs.push(resync);
      ws.send(JSON.stringify({ type: 'resync', game: resync }));
    }
    if (game) taken.set(game.id, [...(taken.get(game.id) ?? []), live.games.get(game.id)!.seq]);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await expect.poll(() => messages.some((m) => m.type === 'snapshot')).toBe(true);
  return { ws, live, raw, messages, taken, resyncs, drop: (n: number) => (dropping = n), view: (id: string) => live.games.get(id)?.view };
}

/** The game as the REST API shows it now (a fresh view, not the feed's). */
const restView = async (id: string) => (await app.inject(`/api/games/${id}`)).json();

/** Rolls (values typed in) and lets the bots decide, until `rolls` rolls are made; a whole dice-poker game's worth of changes. */
async function play(id: string, rolls: number) {
  for (let i = 0; i < rolls; i++) {
    const game = table.get(id);
    const def = table.definition(game);
    if (def.result(game.state)) return;
    const request = def.diceRequest(game.state);
    if (!request) {
      table.act(id, def.bot(game.state, () => 0.5)!);
      continue;
    }
    await table.roll(id, Array.from({ length: request.count }, (_, d) => ((i + d) % 6) + 1));
  }
}

describe('the lean feed', () => {
  it('sends each change as a small patch that makes the view the REST API shows', async () => {
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const c = await viewer();
    await play(id, 12);
    const version = table.get(id).version;
    await expect.poll(() => c.view(id)?.version).toBe(version);
    expect(c.view(id)).toEqual(await restView(id));
    const patches = c.raw.filter((t) => t.startsWith('{"type":"patch"'));
    expect(patches.length).toBeGreaterThan(5);
    // Each patch is smaller than the whole view it stands for, and together they are a fraction of as many views.
    const whole = JSON.stringify(await restView(id)).length;
    for (const p of patches) expect(p.length).toBeLessThan(whole);
    expect(patches.reduce((n, p) => n + p.length, 0)).toBeLessThan((patches.length * whole) / 3);
    // Numbered one by one from the snapshot's seq; nothing asked for again.
    const from = (c.messages[0]?.seqs as Record<string, number>)[id]!;
    expect(c.taken.get(id)).toEqual(Array.from({ length: patches.length }, (_, i) => from + i + 1));
    expect(c.resyncs).toEqual([]);
    c.ws.close();
  });

  it("numbers a game's changes one by one, each its own patch, however close together they come", async () => {
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const c = await viewer();
    await play(id, 1);
    await expect.poll(() => c.view(id)?.version).toBe(table.get(id).version);
    const before = c.raw.length;
    const from = c.live.games.get(id)!.seq;
    // A roll and two holds right after it, with no turn of the event loop between them (the bot's answer to a throw).
    const hold = (die: number) => ({ type: 'hold', dice: [die] });
    await table.roll(id, [2, 2, 5, 6, 1]);
    table.act(id, hold(0));
    table.act(id, hold(1));
    const version = table.get(id).version;
    await expect.poll(() => c.view(id)?.version).toBe(version);
    const sent = c.raw.slice(before).filter((t) => t.startsWith('{"type":"patch"'));
    expect(sent).toHaveLength(3);
    expect(c.live.games.get(id)!.seq).toBe(from + 3);
    expect(c.view(id)).toEqual(await restView(id));
    expect(c.resyncs).toEqual([]);
    c.ws.close();
  });

  it('a viewer that misses a patch asks for the game again and goes on with no gap and nothing twice', async () => {
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const c = await viewer();
    const steady = await viewer();
    await play(id, 2);
    await expect.poll(() => c.view(id)?.version).toBe(table.get(id).version);
    c.drop(1);
    await play(id, 6);
    const version = table.get(id).version;
    await expect.poll(() => c.view(id)?.version).toBe(version);
    await expect.poll(() => steady.view(id)?.version).toBe(version);
    expect(c.resyncs).toEqual([id]);
    expect(c.view(id)).toEqual(await restView(id));
    // What it took: seqs in order, each once (the whole view from the resync stands for the ones it missed).
    const seqs = c.taken.get(id)!;
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(seqs.at(-1)).toBe(steady.taken.get(id)!.at(-1));
    expect(steady.resyncs).toEqual([]);
    c.ws.close();
    steady.ws.close();
  });

  it('a viewer that reconnects starts again from the snapshot and follows on from its seq', async () => {
    const id = table.create('dice-poker', ['Ann', 'Bob']).id;
    const first = await viewer();
    await play(id, 2);
    await expect.poll(() => first.view(id)?.version).toBe(table.get(id).version);
    first.ws.close();
    await new Promise((resolve) => first.ws.once('close', resolve));
    await play(id, 3); // missed while away
    const again = await viewer();
    const snapshotSeq = (again.messages[0]?.seqs as Record<string, number>)[id]!;
    expect(snapshotSeq).toBeGreaterThan(first.taken.get(id)!.at(-1)!);
    expect(again.view(id)).toEqual(await restView(id));
    await play(id, 3);
    await expect.poll(() => again.view(id)?.version).toBe(table.get(id).version);
    expect(again.view(id)).toEqual(await restView(id));
    expect(again.taken.get(id)![0]).toBe(snapshotSeq + 1);
    expect(again.resyncs).toEqual([]);
    again.ws.close();
  });

  it('a game made after the viewer connected comes whole first, then as patches', async () => {
    const c = await viewer();
    const id = table.create('dice-poker', ['Cy']).id;
    await play(id, 2);
    await expect.poll(() => c.view(id)?.version).toBe(table.get(id).version);
    const mine = c.messages.filter((m) => (m.type === 'game' && (m.game as { id: string }).id === id) || m.gameId === id);
    expect(mine[0]?.type).toBe('game');
    expect(mine.slice(1).every((m) => m.type === 'patch')).toBe(true);
    c.ws.close();
  });

  it('never sends the public a seat\'s secret throw in a patch; the seat gets it in its own', async () => {
    const id = table.create('secret-duel', ['Ann', 'Bob']).id;
    const [annToken] = table.seatTokensOf(id);
    const pub = await viewer();
    const ann = await viewer();
    ann.ws.send(JSON.stringify({ type: 'auth', token: annToken, game: id, seat: 0 }));
    await expect.poll(() => ann.view(id)?.viewer).toBe(0);
    await table.roll(id, [6]); // Ann's secret die
    await table.roll(id, [2]); // Bob's
    await expect.poll(() => pub.view(id)?.rollCount).toBe(2);
    await expect.poll(() => ann.view(id)?.rollCount).toBe(2);
    const opsOf = (c: Awaited<ReturnType<typeof viewer>>) => c.messages.filter((m) => m.type === 'patch' && m.gameId === id).flatMap((m) => (m.ops as unknown[]).map(fromWire));
    // Where a die shows: the state, the board (its dice and players' values), the last and recent rolls.
    const secretPlace = /^\/(state\/dice|board\/dice|board\/players\/\d+\/values|lastRoll|recentRolls)/;
    expect(opsOf(pub).filter((o) => secretPlace.test(o.path))).toEqual([]);
    expect(pub.view(id)).toMatchObject({ state: { dice: [null, null] }, lastRoll: null, recentRolls: [] });
    expect(opsOf(ann)).toContainEqual({ op: 'replace', path: '/state/dice/0', value: 6 });
    expect(ann.view(id)).toMatchObject({ state: { dice: [6, null] } });
    // Revealed: now the public's patch carries both dice.
    table.act(id, { type: 'reveal' });
    await expect.poll(() => pub.view(id)?.state.dice).toEqual([6, 2]);
    pub.ws.close();
    ann.ws.close();
  });

  it('answers resync with the whole view at the seq of the game\'s last change', async () => {
    const id = table.create('dice-poker', ['Dee']).id;
    await play(id, 1);
    const c = await viewer();
    const seq = (c.messages[0]?.seqs as Record<string, number>)[id];
    c.ws.send(JSON.stringify({ type: 'resync', game: id, ref: 9 }));
    await expect.poll(() => c.messages.some((m) => m.type === 'game' && m.ref === 9)).toBe(true);
    expect(c.messages.find((m) => m.type === 'game' && m.ref === 9)).toMatchObject({ seq, game: await restView(id) });
    c.ws.close();
  });
});
