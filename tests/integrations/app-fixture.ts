/**
 * The app as `serve` builds it, in this process, listening on loopback: a
 * store in a temporary data directory, the simulated tower, the integrations
 * (webhook backoff and MQTT as the test asks), the operator token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { createSimulator } from '../../src/hardware/index.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';
import { GAMES } from '../../src/games/index.js';
import { createIntegrations, type Integrations, type WebhookOptions } from '../../src/integrations/index.js';
import { secretDuel } from '../api/secret-duel.js';
import { OPERATOR } from './helpers.js';

export interface AppFixture {
  readonly app: FastifyInstance;
  readonly table: Table;
  readonly store: GameStore;
  readonly integrations: Integrations;
  readonly url: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

export async function appFixture(options: { webhooks?: WebhookOptions; mqtt?: { url: string; tower: string; offlineQueue?: number; reconnectMs?: number; warn?: (message: string) => void }; dataDir?: string } = {}): Promise<AppFixture> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dice-tower-integrations-'));
  const store = openStore(dataDir);
  const sim = createSimulator({ seed: 11, colours: ['white'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0, games: { ...GAMES, 'secret-duel': secretDuel } });
  const integrations = createIntegrations({ table, dbPath: store.dbPath, version: 'test', webhooks: options.webhooks, mqtt: options.mqtt });
  const app = buildApp({ table, version: 'test', operatorToken: OPERATOR, integrations });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return {
    app, table, store, integrations, url, dataDir,
    async close() {
      await app.close();
      await integrations.close();
      store.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
