/** The scoreboard's side of a fault test: the app over a table, and a real WebSocket client recording the feed. */
import WebSocket from 'ws';
import { expect } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import type { Table, TowerStatus } from '../../src/table.js';
import { liveGames } from '../../src/api/public/view-patch.js';

export interface Scoreboard {
  /** Every tower status the feed sent, in order (the snapshot's first). */
  readonly tower: TowerStatus[];
  /** Every game change's roll count (a whole view or a patch applied), by game id, in order. */
  readonly rollCounts: Map<string, number[]>;
  /** The latest tower status the scoreboard shows. */
  shown(): TowerStatus | undefined;
  close(): Promise<void>;
}

export async function watchScoreboard(table: Table): Promise<Scoreboard> {
  const app = buildApp({ table, version: 'test' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ws = new WebSocket(`ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`);
  const tower: TowerStatus[] = [];
  const rollCounts = new Map<string, number[]>();
  const live = liveGames();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { type: string; tower?: TowerStatus; status?: TowerStatus };
    if (m.type === 'snapshot' && m.tower) tower.push(m.tower);
    if (m.type === 'tower' && m.status) tower.push(m.status);
    const { game, resync } = live.take(m);
    if (resync) ws.send(JSON.stringify({ type: 'resync', game: resync }));
    if (game) rollCounts.set(game.id, [...(rollCounts.get(game.id) ?? []), game.rollCount]);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await expect.poll(() => tower.length).toBeGreaterThan(0);
  return {
    tower,
    rollCounts,
    shown: () => tower.at(-1),
    async close() {
      ws.close();
      await app.close();
    },
  };
}
