/**
 * `dice-tower keys add|list|revoke`: the operator's API keys, on the data
 * directory's database (safe while the server runs: the server looks keys up
 * in the database on every use, so a key made or revoked here counts at once).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DB_FILE, openStore } from '../storage/index.js';
import { ApiKeys, KEY_SCOPES } from './api-keys.js';
import { openIntegrationsDb } from './index.js';
import { TableError } from '../table.js';

export const KEYS_USAGE = `  keys         API keys for other programs (the token is shown once):
               keys add --name NAME --scope SCOPE [--scope SCOPE]
               keys list
               keys revoke ID
               scopes: ${KEY_SCOPES.join(', ')}
               --data DIR         [DICE_TOWER_DATA] (default ./data)
`;

export function keysCommand(argv: readonly string[], out: (text: string) => void = (t) => process.stdout.write(t)): number {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: [...rest],
    options: { name: { type: 'string' }, scope: { type: 'string', multiple: true }, data: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const dataDir = values.data ?? process.env.DICE_TOWER_DATA ?? 'data';
  const dbPath = join(dataDir, DB_FILE);
  // No database: none is made here (a mistyped --data would get a stray one, with a key the server never sees).
  if (!existsSync(dbPath)) throw new Error(`There is no database in ${dataDir} (no keys); 'dice-tower serve --data ${dataDir}' makes one.`);
  // A database this version has not opened yet is brought up to date first (no server of this version runs on it then).
  let db;
  try {
    db = openIntegrationsDb(dbPath);
  } catch {
    openStore(dataDir).close();
    db = openIntegrationsDb(dbPath);
  }
  try {
    const keys = new ApiKeys(db);
    switch (action) {
      case 'add': {
        if (!values.name) throw new Error('keys add needs --name NAME (what will use the key: "OBS overlay", "Home Assistant")');
        const { key, token } = keys.add(values.name, values.scope ?? []);
        if (values.json) out(`${JSON.stringify({ key, token })}\n`);
        else out(`API key ${key.id} '${key.name}' (${key.scopes.join(', ')}). Its token, shown this once (keep it secret):\n${token}\n`);
        return 0;
      }
      case 'list': {
        const list = keys.list();
        if (values.json) out(`${JSON.stringify(list)}\n`);
        else if (list.length === 0) out('No API keys.\n');
        else for (const k of list) out(`${k.id}  ${k.revokedAt === null ? 'live   ' : 'revoked'}  ${k.scopes.join(',').padEnd(27)}  ${k.name}  (made ${new Date(k.createdAt).toISOString()})\n`);
        return 0;
      }
      case 'revoke': {
        const id = positionals[0];
        if (!id) throw new Error('keys revoke needs the key id (dice-tower keys list shows them)');
        const key = keys.revoke(id);
        out(`API key ${key.id} '${key.name}' revoked; it stops working at once.\n`);
        return 0;
      }
      default:
        throw new Error(`keys: unknown action '${action ?? ''}'; use add, list or revoke`);
    }
  } catch (err) {
    if (err instanceof TableError) throw new Error(err.message, { cause: err });
    throw err;
  } finally {
    db.close();
  }
}
