/**
 * API keys for other programs, so that none of them needs the operator token:
 * each has a name and scopes (`events:read`: the event stream;
 * `rolls:request`: ask for a roll, POST /api/games/:id/roll or POST /api/rolls). Made and revoked
 * by the operator (`dice-tower keys`, the /api/keys routes). The token is
 * shown once, when made; only its sha256 is kept. Looked up in the database
 * on every use, so a key made or revoked by the `keys` command while the
 * server runs counts at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { TableError } from '../table.js';

export const KEY_SCOPES = ['events:read', 'rolls:request'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Every key token starts so: the server tells a key from an operator token without trying it as one. */
export const KEY_PREFIX = 'dtk_';

export interface ApiKey {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly KeyScope[];
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

type Row = { id: string; name: string; scopes: string; created_at: number; revoked_at: number | null };
const toKey = (r: Row): ApiKey => ({ id: r.id, name: r.name, scopes: JSON.parse(r.scopes) as KeyScope[], createdAt: r.created_at, revokedAt: r.revoked_at });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const isKeyToken = (token: string): boolean => token.startsWith(KEY_PREFIX);

/** Why scopes cannot be given to a key, or null. */
export function scopesProblem(scopes: readonly string[]): string | null {
  if (scopes.length === 0) return `A key needs at least one scope: ${KEY_SCOPES.join(', ')}.`;
  const bad = scopes.find((s) => !(KEY_SCOPES as readonly string[]).includes(s));
  return bad === undefined ? null : `'${bad}' is not a scope; the scopes are ${KEY_SCOPES.join(', ')}.`;
}

export class ApiKeys {
  private readonly byHash: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly all: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly markRevoked: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    this.byHash = db.prepare('SELECT id, name, scopes, created_at, revoked_at FROM api_keys WHERE token_sha256 = ?');
    this.byId = db.prepare('SELECT id, name, scopes, created_at, revoked_at FROM api_keys WHERE id = ?');
    this.all = db.prepare('SELECT id, name, scopes, created_at, revoked_at FROM api_keys ORDER BY created_at, id');
    this.insert = db.prepare('INSERT INTO api_keys (id, name, scopes, token_sha256, created_at) VALUES (?, ?, ?, ?, ?)');
    this.markRevoked = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?');
  }

  /** Makes a key; the token is in the answer and nowhere else. */
  add(name: string, scopes: readonly string[]): { key: ApiKey; token: string } {
    const problem = scopesProblem(scopes);
    if (problem) throw new TableError('keys/bad_scope', problem, 400);
    if (name.trim() === '' || name.length > 100) throw new TableError('keys/bad_name', 'A key needs a name of 1 to 100 characters (what uses it: "OBS overlay", "Home Assistant").', 400);
    const id = randomBytes(6).toString('hex');
    const token = `${KEY_PREFIX}${id}_${randomBytes(24).toString('base64url')}`;
    const unique = [...new Set(scopes)] as KeyScope[];
    const at = this.now();
    this.insert.run(id, name, JSON.stringify(unique), sha256(token), at);
    return { key: { id, name, scopes: unique, createdAt: at, revokedAt: null }, token };
  }

  list(): ApiKey[] {
    return (this.all.all() as Row[]).map(toKey);
  }

  /** Revokes a key (it is kept, marked, so the list shows when). Throws 404 for an unknown id. */
  revoke(id: string): ApiKey {
    const row = this.byId.get(id) as Row | undefined;
    if (!row) throw new TableError('keys/not_found', `There is no API key '${id}'; 'dice-tower keys list' or GET /api/keys lists them.`, 404);
    if (row.revoked_at === null) this.markRevoked.run(this.now(), id);
    return toKey(this.byId.get(id) as Row);
  }

  /** The live key this token is, or null (unknown or revoked). */
  find(token: string): ApiKey | null {
    if (!isKeyToken(token)) return null;
    const row = this.byHash.get(sha256(token)) as Row | undefined;
    return row && row.revoked_at === null ? toKey(row) : null;
  }

  /**
   * Throws the 403 for a token that is no live key, or a key without `scope`
   * (none: the route takes no key at all), naming what is missing.
   */
  require(token: string, scope: KeyScope | undefined): ApiKey {
    const key = this.find(token);
    if (!key) throw new TableError('auth/bad_key', 'That is not a live API key (unknown or revoked); ask the operator for one (dice-tower keys add).', 403);
    if (!scope) throw new TableError('auth/key_not_allowed', `API keys cannot be used here (key '${key.name}'); this route needs the operator token.`, 403);
    if (!key.scopes.includes(scope)) {
      throw new TableError('auth/missing_scope', `The API key '${key.name}' (${key.id}) lacks the scope ${scope} (it has ${key.scopes.join(', ')}); the operator can make one with it: dice-tower keys add --name NAME --scope ${scope}.`, 403);
    }
    return key;
  }
}
