/**
 * The app as `serve` builds it (operator token, a store in a temporary data
 * directory), with every route it registers recorded through an `onRoute`
 * hook, so routes other modules add are covered without listing them here.
 * Seeds a few games in different states, and a fingerprint of everything a
 * request could change: each game's version and state, the seat tokens, the
 * store's event count, and the tower's cycles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { createSimulator, type Tower } from '../../src/hardware/index.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';

export const OPERATOR_TOKEN = 'operator-token-for-the-fault-tests';

export interface Route {
  readonly method: string;
  readonly url: string;
  readonly schema: RouteOptions['schema'];
  readonly websocket: boolean;
}

export interface Fixture {
  readonly app: FastifyInstance;
  readonly table: Table;
  readonly store: GameStore;
  readonly routes: readonly Route[];
  /** Game ids: a fresh Dice Poker game, one in the middle of a turn, a Bluff game (secret throws) after a roll. */
  readonly games: { readonly fresh: string; readonly midTurn: string; readonly secret: string };
  /** Everything a request could change, as one comparable value. */
  fingerprint(): unknown;
  close(): Promise<void>;
}

export async function buildFixture(): Promise<Fixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-faults-'));
  const sim = createSimulator({ seed: 5, colours: ['red'] });
  let cycles = 0;
  const tower: Tower = {
    kind: 'simulated',
    async roll(count, dice) {
      cycles++;
      await sim.tower.roll(count, dice);
    },
  };
  const store = openStore(dataDir);
  const table = new Table({ tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  const app = buildApp({ table, version: 'test', operatorToken: OPERATOR_TOKEN });
  const routes: Route[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema, websocket: (route as { websocket?: boolean }).websocket === true });
  });
  await app.ready();

  const fresh = table.create('dice-poker', ['Ann', 'Bob']).id;
  const midTurn = table.create('dice-poker', ['Ann', 'Bob']).id;
  await table.roll(midTurn, [2, 2, 5, 5, 1]);
  const secret = table.create('bluff', ['Ann', 'Bob', 'Cid']).id;
  await table.roll(secret);

  const fingerprint = () => ({
    games: table.list().map((g) => ({ id: g.id, version: g.version, state: JSON.stringify(g.state), rolls: g.rolls.length })),
    seats: table.list().map((g) => table.seatTokensOf(g.id).join(',')),
    events: store.loadGames().reduce((n, g) => n + 1 + g.steps.length, 0),
    cycles,
  });
  return {
    app,
    table,
    store,
    routes,
    games: { fresh, midTurn, secret },
    fingerprint,
    async close() {
      await app.close();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
