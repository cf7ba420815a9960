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
  {
    version: 4,
    name: 'integrations: the event stream, API keys, webhooks and their deliveries',
    // Kept apart from the hash-chained game log, which stays as it was: the stream is derived from it (and from the
    // tower's throws), so a stream event lost in a crash is derived again from the log (stream_facts.log_cursor).
    // IF NOT EXISTS: a database whose earlier steps were undone and redone keeps what this step made.
    sql: `
      CREATE TABLE IF NOT EXISTS stream_events (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the stream's sequence number, never reused
        id          TEXT    NOT NULL UNIQUE,            -- a UUID, for consumers that keep ids
        type        TEXT    NOT NULL,                   -- roll.settled, game.created, tower.status...
        at          INTEGER NOT NULL,                   -- ms since the epoch
        game_id     TEXT,
        secret_seat INTEGER,                            -- a secret throw's seat: only it sees data whole
        source_seq  INTEGER,                            -- the game-log event it was derived from
        data        TEXT    NOT NULL,                   -- JSON, everything
        public_data TEXT                                -- JSON as everyone else sees it; NULL: the same as data
      ) STRICT;
      CREATE TRIGGER IF NOT EXISTS stream_events_no_update BEFORE UPDATE ON stream_events
        BEGIN SELECT RAISE(ABORT, 'stream events are append-only: UPDATE refused'); END;
      CREATE TRIGGER IF NOT EXISTS stream_events_no_delete BEFORE DELETE ON stream_events
        BEGIN SELECT RAISE(ABORT, 'stream events are append-only: DELETE refused'); END;
      CREATE TABLE IF NOT EXISTS stream_facts (
        name  TEXT    PRIMARY KEY,
        value INTEGER NOT NULL
      ) STRICT;
      INSERT OR IGNORE INTO stream_facts (name, value) VALUES ('log_cursor', 0);
      CREATE TABLE IF NOT EXISTS api_keys (
        id           TEXT    PRIMARY KEY,
        name         TEXT    NOT NULL,
        scopes       TEXT    NOT NULL,                  -- JSON array
        token_sha256 TEXT    NOT NULL UNIQUE,           -- the token itself is shown once and never kept
        created_at   INTEGER NOT NULL,
        revoked_at   INTEGER
      ) STRICT;
      CREATE TABLE IF NOT EXISTS webhooks (
        id          TEXT    PRIMARY KEY,
        url         TEXT    NOT NULL,
        types       TEXT    NOT NULL,                   -- JSON array of event types ("*": all)
        secret      TEXT    NOT NULL,                   -- signs deliveries (HMAC-SHA256)
        created_at  INTEGER NOT NULL,
        removed_at  INTEGER,
        cursor      INTEGER NOT NULL,                   -- last stream seq queued for this hook
        last_at     INTEGER,
        last_status INTEGER,
        last_error  TEXT
      ) STRICT;
      CREATE TABLE IF NOT EXISTS webhook_deliveries (
        hook_id     TEXT    NOT NULL,
        seq         INTEGER NOT NULL,
        state       TEXT    NOT NULL,                   -- pending, delivered, failed
        attempts    INTEGER NOT NULL,
        first_at    INTEGER NOT NULL,
        next_at     INTEGER NOT NULL,
        last_status INTEGER,
        last_error  TEXT,
        PRIMARY KEY (hook_id, seq)
      ) STRICT;
      CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_at);
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
