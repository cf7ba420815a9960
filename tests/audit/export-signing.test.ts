/**
 * Signed exports (src/audit/export-signing.ts) through the REST API: the
 * finding of issue #45 was that an export with a die changed, or cut short,
 * and its sha256 chain recomputed, was imported with 201. With signatures it
 * is refused, naming why; so is an unsigned one, and one signed by a key the
 * importing server does not trust. A trusted, untouched one is imported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { openStore } from '../../src/storage/index.js';
import { GENESIS_HASH } from '../../src/storage/chain.js';
import { exportHash, type GameExport } from '../../src/audit/game-export.js';
import { SIGNING_KEY_FILE, TRUSTED_KEYS_FILE, loadExportSigner, signExport } from '../../src/audit/export-signing.js';

const TOKEN = 'export-signing-operator-token';
const headers = { authorization: `Bearer ${TOKEN}` };
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** A server on its own data directory, signing with that directory's key; `trust` lists other servers' keys. */
async function server(trust: readonly string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-signing-'));
  if (trust.length > 0) writeFileSync(join(dir, TRUSTED_KEYS_FILE), `# another tower\n${trust.join('\n')}\n`);
  const store = openStore(dir);
  const sim = createSimulator({ seed: 4, colours: ['red'] });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store });
  const app = buildApp({ table, version: 'test', operatorToken: TOKEN, exportSigner: loadExportSigner(dir) });
  await app.ready();
  cleanup.push(async () => {
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  return { dir, call };
}

/** The export with its events changed by `change` and every hash recomputed, as a forger would; the signature kept. */
function rehashed(exp: GameExport, change: (events: Array<GameExport['events'][number]>) => Array<GameExport['events'][number]>): GameExport {
  let prev = GENESIS_HASH;
  const events = change(JSON.parse(JSON.stringify(exp.events)) as Array<GameExport['events'][number]>).map((e, i) => {
    const hash = exportHash(prev, exp.gameId, { ...e, n: i + 1 });
    prev = hash;
    return { ...e, n: i + 1, hash };
  });
  return { ...exp, events, head: prev };
}

describe('signed exports', () => {
  it('are signed with a key made at the first start (0600) and kept; the public key is in /api/health and the export', async () => {
    const a = await server();
    expect(statSync(join(a.dir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
    const key = (await a.call('GET', '/api/health')).body.exportKey as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadExportSigner(a.dir).publicKey).toBe(key);
    const id = (await a.call('POST', '/api/games', { game: 'yatzy', players: ['ann'] })).body.id as string;
    const exp = (await a.call('GET', `/api/games/${id}/export`)).body as GameExport;
    expect(exp.signature).toMatchObject({ alg: 'ed25519', publicKey: key });
    expect(exp.logHead).toMatchObject({ seq: 1 });
  });

  it('an import is refused when changed and rehashed, cut short and rehashed, unsigned, or signed by a key not trusted', async () => {
    const a = await server();
    const id = (await a.call('POST', '/api/games', { game: 'yatzy', players: ['ann', 'bo'] })).body.id as string;
    expect((await a.call('POST', `/api/games/${id}/roll`)).status).toBe(200);
    expect((await a.call('POST', `/api/games/${id}/score`, { category: 'chance' })).status).toBe(200);
    expect((await a.call('POST', `/api/games/${id}/roll`)).status).toBe(200);
    const exp = (await a.call('GET', `/api/games/${id}/export`)).body as GameExport;
    const aKey = exp.signature?.publicKey ?? '';

    const untrusting = await server();
    expect((await untrusting.call('POST', '/api/games/import', exp)).body).toMatchObject({ code: 'import/untrusted', message: expect.stringContaining(`signed by the key ${aKey}, which this server does not trust`) });

    const b = await server([aKey]);
    const sixes = rehashed(exp, (events) => events.map((e) => (e.type === 'game/roll' ? { ...e, payload: { ...e.payload, roll: { ...e.payload.roll, values: e.payload.roll.values.map(() => 6) } } } : e)));
    const short = rehashed(exp, (events) => events.slice(0, -1));
    for (const forged of [sixes, short]) {
      const refused = await b.call('POST', '/api/games/import', forged);
      expect(refused).toMatchObject({ status: 422, body: { code: 'import/untrusted', message: expect.stringContaining('signature does not verify: the export was changed after it was signed') } });
    }
    const { signature: _signature, ...unsigned } = exp;
    expect((await b.call('POST', '/api/games/import', unsigned)).body).toMatchObject({ code: 'import/untrusted', message: expect.stringContaining('it is not signed') });
    // Signed again by a forger's own key: it verifies, but nobody trusts that key.
    const forger = generateKeyPairSync('ed25519').privateKey;
    const forgerKey = forger.export({ format: 'jwk' }).x ?? '';
    expect((await b.call('POST', '/api/games/import', signExport(sixes, forger, forgerKey))).body.message).toContain(`signed by the key ${forgerKey}, which this server does not trust`);

    const imported = await b.call('POST', '/api/games/import', exp);
    expect(imported.status).toBe(201);
    expect(imported.body.rollCount).toBe(2);
  });

  it('a trusted keys file with a line that is no key stops the start, naming the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-tower-signing-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, TRUSTED_KEYS_FILE), 'not a key\n');
    expect(() => loadExportSigner(dir)).toThrow(/line 1 of .*trusted-export-keys is not a public key/);
  });
});
