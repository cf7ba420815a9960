/**
 * The real app on a free port (simulated tower, OpenCV reader, a store in a temporary folder, an operator
 * token) and headless Debian Chromium, for a browser test: started in `beforeAll`, closed in `afterAll`.
 */
import { type Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore } from '../../src/storage/index.js';

export interface ServedApp {
  readonly base: string;
  readonly table: Table;
  readonly browser: Browser;
  /** POST with the operator token; the reply's JSON. */
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function serveApp(token: string, seed = 8): Promise<ServedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-browser-'));
  const store = openStore(dir);
  store.startSession(Date.now(), 'test');
  const sim = createSimulator({ seed, colours: ['red'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  const app = buildApp({ table, version: 'test', operatorToken: token });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await launchChromium();
  return {
    base,
    table,
    browser,
    async post(path, body) {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      await browser.close();
      await app.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
