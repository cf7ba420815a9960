import type Database from 'better-sqlite3';
import { errorText } from '../error-text.js';
import { StoreError } from './errors.js';

/** One step of the schema. Versions start at 1 and go up by one; a released step is never edited, only followed by a new one. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The schema, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log with hash chain, append-only',
    sql: `
      CREATE TABLE events (
        seq       INTEGER PRIMARY KEY,       -- global order, 1, 2, 3... (assigned by the store, no gaps)
        game_id   TEXT    NOT NULL,
        type      TEXT    NOT NULL,          -- game/created, game/action, game/roll
        at        INTEGER NOT NULL,          -- ms since the epoch, from the caller's clock
        payload   TEXT    NOT NULL,          -- canonical JSON (keys sorted)
        prev_hash TEXT    NOT NULL,          -- hash of the row before (64 zeros for the first)
        hash      TEXT    NOT NULL UNIQUE    -- sha256(prev_hash + canonical JSON of seq, game_id, type, at, payload)
      ) STRICT;
      CREATE INDEX events_by_game ON events (game_id, seq);
      -- The log is append-only: history is corrected by new events, never rewritten.
      CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
      CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
    `,
  },
  {
    version: 2,
    name: 'sessions: one row per server run',
    sql: `
      CREATE TABLE sessions (
        id         INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,        -- ms since the epoch
        version    TEXT    NOT NULL         -- dice-tower version that ran
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'frames in the chain: each new roll event hashes its frame; chain facts',
    // History is not rewritten: events before this step keep their hashes and have no frame hash;
    // `frames_hashed_from` says where frame hashes start, so one taken off a later event shows.
    sql: `
      ALTER TABLE events ADD COLUMN frame_sha256 TEXT;   -- sha256 of the roll's frame file, part of the event's hash
      CREATE TABLE chain_facts (
        name  TEXT    PRIMARY KEY,
        value INTEGER NOT NULL
      ) STRICT;
      INSERT INTO chain_facts (name, value) SELECT 'frames_hashed_from', coalesce(max(seq), 0) + 1 FROM events;
    `,
  },
];

/**
 * Brings the database up to the last migration. Each step runs in its own
 * transaction together with its `schema_migrations` row, so a failed step
 * leaves the database at the version before it. Running it again on an
 * up-to-date database does nothing.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], dbPath: string): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration '${m.name}' has version ${m.version}, expected ${i + 1}`);
  });
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const current = (db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  if (current > migrations.length) {
    throw new StoreError(
      'store/schema_too_new',
      `The database ${dbPath} has schema version ${current}, newer than this dice-tower knows (${migrations.length}); update dice-tower to open it.`,
      dbPath,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations.slice(current)) {
    try {
      db.transaction(() => {
        db.exec(m.sql);
        record.run(m.version, m.name, Date.now());
      }).immediate();
    } catch (err) {
      throw new StoreError('store/migration_failed', `Schema migration ${m.version} (${m.name}) failed on ${dbPath}: ${errorText(err)}`, dbPath, { cause: err });
    }
  }
  return migrations.length;
}
