/**
 * The event stream through the real server: an SSE consumer (an API key with
 * events:read) that disconnects mid-game, and again across a SIGKILL of the
 * server and its restart on the same data directory, resumes with
 * Last-Event-ID and ends up with every event exactly once: seqs 1..head with
 * no gap and no repeat, ids unique, equal to the kept log, and one
 * roll.settled for every roll the games hold.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, sleep, sse, startServer, until, type Served, type SseEvent } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-sse-'));
let server: Served | null = null;
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SSE resume across a reconnect and a SIGKILL', () => {
  it('gets every event once, in order, with no gap', async () => {
    server = await startServer(dataDir);
    const key = await call(server.url, 'POST', '/api/keys', undefined, { name: 'sse test', scopes: ['events:read', 'rolls:request'] });
    expect(key.status).toBe(201);
    const token = key.body.token as string;
    expect(token).toMatch(/^dtk_/);

    const seen: SseEvent[] = [];
    // A game the bots play by themselves (the server's bot delay, the simulated tower): events keep coming.
    const game = await call(server.url, 'POST', '/api/games', undefined, { game: 'dice-poker', players: ['Ann', 'Bob'], bots: [0, 1] });
    expect(game.status).toBe(201);
    const gameId = (game.body as { id: string }).id;

    // 1. From the start, until a few rolls are in; then cut off.
    let client = await sse(server.url, token, { since: 0 });
    expect(client.status).toBe(200);
    await until('three settled rolls', () => client.events.filter((e) => e.event === 'roll.settled').length >= 3, 30_000);
    client.close();
    seen.push(...client.events);
    // 2. Away for a while (the game goes on), then back with Last-Event-ID.
    await sleep(1500);
    client = await sse(server.url, token, { since: 0, lastEventId: seen.at(-1)?.id ?? 0 });
    await until('two more settled rolls', () => client.events.filter((e) => e.event === 'roll.settled').length >= 2, 30_000);
    // 3. The server killed while the bots play (a roll may be in the air), and started again.
    await server.kill('SIGKILL');
    await until('the stream to end', () => client.state.ended);
    seen.push(...client.events);
    server = await startServer(dataDir);
    // The key survives the restart (kept hashed in the database).
    client = await sse(server.url, token, { lastEventId: seen.at(-1)?.id ?? 0 });
    expect(client.status).toBe(200);
    await until('two settled rolls after the restart', () => client.events.filter((e) => e.event === 'roll.settled').length >= 2, 40_000);
    await sleep(300);
    client.close();
    seen.push(...client.events);

    // No gap, no repeat: seq 1, 2, 3... each id once; SSE ids are the seqs.
    const seqs = seen.map((e) => e.data.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seen.every((e) => e.id === e.data.seq && e.event === e.data.type)).toBe(true);
    expect(new Set(seen.map((e) => e.data.id)).size).toBe(seen.length);
    // The same as the kept log (JSON pages), event for event.
    const kept = await call(server.url, 'GET', `/api/events/log?since=0&limit=1000`, token);
    const keptEvents = (kept.body.events as Array<{ seq: number; id: string }>).slice(0, seen.length);
    expect(keptEvents.map((e) => [e.seq, e.id])).toEqual(seen.map((e) => [e.data.seq, e.data.id]));

    // Every roll the game holds was told once, with its dice; none told that the game does not hold.
    const view = await call(server.url, 'GET', `/api/games/${gameId}/rolls`, token);
    const all = (await call(server.url, 'GET', `/api/events/log?since=0&limit=1000`, token)).body.events as Array<{ type: string; game: string; data: Record<string, unknown> }>;
    const settled = all.filter((e) => e.type === 'roll.settled' && e.game === gameId).map((e) => e.data);
    const rolls = (view.body as unknown as { rolls: Array<{ seq: number; values: number[] }> }).rolls ?? (view.body as unknown as Array<{ seq: number; values: number[] }>);
    expect(settled.map((d) => d.roll)).toEqual(rolls.map((r) => r.seq));
    for (const d of settled) {
      expect(d.dice).toHaveLength((d.values as number[]).length);
      expect(d.frameUrl).toMatch(new RegExp(`^/api/games/${gameId}/rolls/\\d+/frame\\.jpg$`));
      expect(d.valid).toBe(true);
      for (const die of d.dice as Array<Record<string, unknown>>) {
        expect(die).toMatchObject({ value: expect.any(Number), colour: expect.any(String), confidence: expect.any(Number) });
      }
    }
    // Throws were told as they started, and the tower's status.
    expect(all.some((e) => e.type === 'roll.started')).toBe(true);
    expect(all.some((e) => e.type === 'tower.status')).toBe(true);
    expect(all[0]?.type).toBe('game.created');
    // Nothing in the start-up output but the usual lines (no warning from the stream's catch-up).
    expect(server.out.text).not.toMatch(/warning/);
  }, 120_000);
});
