/**
 * The game store: an append-only, hash-chained event log in SQLite (WAL) plus
 * the rolls' camera frames as files, under one data directory:
 *
 *   <dataDir>/dice-tower.db              events, schema_migrations
 *   <dataDir>/frames/<gameId>/<n>.jpg    frame of roll n of a game
 *
 * A game is its `game/created` event plus its `game/action` and `game/roll`
 * events in order; the table rebuilds it by replaying them. A roll that was
 * under way when the process died (tower thrown, dice not yet applied) has no
 * event, so it is simply absent: after a restart the game still waits for that
 * roll and the caller asks for it again. It can be neither lost (nothing was
 * applied) nor applied twice (the event is written whole or not at all). A
 * frame file saved for such a roll is overwritten when the roll is made again
 * (same game, same roll number).
 *
 * One process at a time owns a data directory. All calls are synchronous
 * (better-sqlite3); each write is fsynced before it returns.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { errorText } from '../error-text.js';
import { StoreError } from './errors.js';
import { EVENT_TYPES, type ChainCheck, type EventType, type NewEvent, type StoredCreated, type StoredEvent, type StoredGame, type StoredSession, type StoredStep } from './events.js';
import { MIGRATIONS, migrate, type Migration } from './migrations.js';
import { TEMP_SUFFIX, writeFileAtomic } from './atomic-file.js';

export const DB_FILE = 'dice-tower.db';
export const FRAMES_DIR = 'frames';
/** `prev_hash` of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Game ids become directory names: keep them to what a UUID (or a slug) uses. */
const GAME_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** The only frame paths the store writes, hence the only ones it reads. */
const FRAME_PATH = /^frames\/([A-Za-z0-9_-]{1,100})\/([1-9][0-9]{0,9})\.jpg$/;

export interface StoreOptions {
  /** The schema steps (default: `MIGRATIONS`); tests pass more to check upgrades. */
  readonly migrations?: readonly Migration[];
}

interface EventRow {
  seq: number;
  game_id: string;
  type: string;
  at: number;
  payload: string;
  prev_hash: string;
  hash: string;
}

/** The hash of an event: sha256 over the previous hash and the canonical JSON of the event's content. */
export function eventHash(prevHash: string, content: { seq: number; gameId: string; type: string; at: number; payload: unknown }): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(content)).digest('hex');
}

/**
 * Opens (creating if need be) the store in `dataDir` and brings its schema up
 * to date. Throws `StoreError` `store/open_failed` naming the directory or
 * file that could not be created or opened, `store/migration_failed` or
 * `store/schema_too_new`.
 */
export function openStore(dataDir: string, options: StoreOptions = {}): GameStore {
  const dir = resolve(dataDir);
  const dbPath = join(dir, DB_FILE);
  try {
    mkdirSync(join(dir, FRAMES_DIR), { recursive: true });
  } catch (err) {
    throw new StoreError('store/open_failed', `Cannot create the data directory ${dir}: ${errorText(err)}`, dir, { cause: err });
  }
  let db: Database.Database;
  try {
    db = new Database(dbPath);
    db.pragma('journal_mode = WAL');
    // FULL: each commit is fsynced, so an event the table has applied survives a power cut too, not only a crash
    // of the process. Events come a few per second at most; the fsync is cheap at that rate.
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
  } catch (err) {
    throw new StoreError('store/open_failed', `Cannot open the database ${dbPath}: ${errorText(err)}`, dbPath, { cause: err });
  }
  try {
    migrate(db, options.migrations ?? MIGRATIONS, dbPath);
    sweepTempFrames(join(dir, FRAMES_DIR));
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError('store/open_failed', `Cannot prepare the store in ${dir}: ${errorText(err)}`, dir, { cause: err });
  }
  return new GameStore(dir, db);
}

/** Frames half-written when a process died: never renamed into place, so never referenced. */
function sweepTempFrames(framesDir: string): void {
  for (const game of readdirSync(framesDir, { withFileTypes: true })) {
    if (!game.isDirectory()) continue;
    for (const name of readdirSync(join(framesDir, game.name))) {
      if (name.endsWith(TEMP_SUFFIX)) rmSync(join(framesDir, game.name, name), { force: true });
    }
  }
}

export class GameStore {
  readonly dbPath: string;
  private open = true;
  private readonly insert: Database.Statement;
  private readonly last: Database.Statement;
  private readonly created: Database.Statement;
  private readonly appendTx: (event: NewEvent) => StoredEvent;
  private readonly appendAllTx: (events: readonly NewEvent[]) => StoredEvent[];

  /** Use `openStore`. */
  constructor(
    /** Absolute path of the data directory. */
    readonly dataDir: string,
    private readonly db: Database.Database,
  ) {
    this.dbPath = join(dataDir, DB_FILE);
    this.insert = db.prepare('INSERT INTO events (seq, game_id, type, at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.last = db.prepare('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1');
    this.created = db.prepare("SELECT 1 FROM events WHERE game_id = ? AND type = 'game/created' LIMIT 1");
    const tx = db.transaction((event: NewEvent) => this.appendInTx(event));
    // IMMEDIATE: the head is read and the row written under one write lock.
    this.appendTx = (event) => tx.immediate(event);
    const all = db.transaction((events: readonly NewEvent[]) => events.map((e) => this.appendInTx(e)));
    this.appendAllTx = (events) => all.immediate(events);
  }

  /**
   * Appends several events in one transaction (an imported game): all of them
   * are on record, or (on a throw) none. Same checks and errors as `appendEvent`.
   */
  appendEvents(events: readonly NewEvent[]): StoredEvent[] {
    this.checkOpen();
    events.forEach(checkEvent);
    try {
      return this.appendAllTx(events);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError('store/write_failed', `Could not write ${events.length} events to ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
  }

  /** Records the start of a server run; returns its session id. */
  startSession(at: number, version: string): number {
    this.checkOpen();
    try {
      return Number(this.db.prepare('INSERT INTO sessions (started_at, version) VALUES (?, ?)').run(at, version).lastInsertRowid);
    } catch (err) {
      throw new StoreError('store/write_failed', `Could not record the session start in ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
  }

  /** Every server run on record, oldest first. */
  sessions(): StoredSession[] {
    this.checkOpen();
    try {
      const rows = this.db.prepare('SELECT id, started_at, version FROM sessions ORDER BY id').all() as Array<{ id: number; started_at: number; version: string }>;
      return rows.map((r) => ({ id: r.id, startedAt: r.started_at, version: r.version }));
    } catch (err) {
      throw new StoreError('store/read_failed', `Could not read the sessions in ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
  }

  /**
   * Appends one event, in its own transaction, fsynced before returning: it is
   * on record whole, or (on a throw) not at all. Throws `StoreError`:
   * `store/bad_event` (malformed, not plain JSON), `store/unknown_game` (no
   * `game/created` for it), `store/duplicate_game`, `store/write_failed` (the
   * disk refused: the caller must not apply the change in memory either).
   */
  appendEvent(event: NewEvent): StoredEvent {
    this.checkOpen();
    checkEvent(event);
    try {
      return this.appendTx(event);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError('store/write_failed', `Could not write the ${event.type} event of game ${event.gameId} to ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
  }

  private appendInTx(event: NewEvent): StoredEvent {
    const exists = this.created.get(event.gameId) !== undefined;
    if (event.type === 'game/created' && exists) throw new StoreError('store/duplicate_game', `Game ${event.gameId} is already on record.`);
    if (event.type !== 'game/created' && !exists) throw new StoreError('store/unknown_game', `Game ${event.gameId} has no game/created event; its ${event.type} cannot be recorded.`);
    const head = this.last.get() as { seq: number; hash: string } | undefined;
    const seq = (head?.seq ?? 0) + 1;
    const prevHash = head?.hash ?? GENESIS_HASH;
    const payload = canonicalJson(event.payload);
    const hash = eventHash(prevHash, { seq, gameId: event.gameId, type: event.type, at: event.at, payload: event.payload });
    this.insert.run(seq, event.gameId, event.type, event.at, payload, prevHash, hash);
    return { ...event, payload: JSON.parse(payload), seq, prevHash, hash } as StoredEvent;
  }

  /**
   * Saves the camera frame of roll `rollSeq` of a game, atomically (a crash
   * leaves the old file or the new one, never a part), and returns the path to
   * put in the `game/roll` event, relative to the data directory. Save the
   * frame first, then append the event: a frame without an event is harmless
   * (the roll is made again and overwrites it); an event without its frame is not.
   */
  saveFrame(gameId: string, rollSeq: number, jpeg: Uint8Array): string {
    this.checkOpen();
    if (!GAME_ID.test(gameId)) throw new StoreError('store/bad_event', `Game id ${JSON.stringify(gameId)} cannot name a frame directory (letters, digits, - and _ only).`);
    if (!Number.isInteger(rollSeq) || rollSeq < 1) throw new StoreError('store/bad_event', `Roll number ${rollSeq} is not a positive integer.`);
    const rel = `${FRAMES_DIR}/${gameId}/${rollSeq}.jpg`;
    const abs = join(this.dataDir, FRAMES_DIR, gameId, `${rollSeq}.jpg`);
    try {
      writeFileAtomic(abs, jpeg);
    } catch (err) {
      throw new StoreError('store/write_failed', `Could not save the frame of roll ${rollSeq} of game ${gameId} to ${abs}: ${errorText(err)}`, abs, { cause: err });
    }
    return rel;
  }

  /** The bytes of a frame saved by `saveFrame`, by the path it returned. */
  readFrame(path: string): Buffer {
    this.checkOpen();
    const abs = resolve(this.dataDir, path);
    const inside = relative(join(this.dataDir, FRAMES_DIR), abs);
    if (!FRAME_PATH.test(path) || isAbsolute(path) || inside.startsWith('..') || inside.split(sep).length !== 2) {
      throw new StoreError('store/bad_path', `${JSON.stringify(path)} is not a frame path (frames/<game>/<roll>.jpg).`, path);
    }
    try {
      return readFileSync(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StoreError('store/frame_not_found', `There is no frame at ${abs}.`, abs, { cause: err });
      throw new StoreError('store/read_failed', `Could not read the frame ${abs}: ${errorText(err)}`, abs, { cause: err });
    }
  }

  /**
   * Every game on record, in the order they were created, each with its
   * actions and rolls in the order they were applied, for the table to replay.
   * Does not check the hash chain (call `verifyChain` first at start-up).
   * Throws `store/corrupt` when an event belongs to no created game.
   */
  loadGames(): StoredGame[] {
    const games = new Map<string, { id: string; created: StoredCreated; steps: StoredStep[] }>();
    for (const event of this.events('SELECT * FROM events ORDER BY seq')) {
      if (event.type === 'game/created') {
        games.set(event.gameId, { id: event.gameId, created: event, steps: [] });
        continue;
      }
      const game = games.get(event.gameId);
      if (!game) throw new StoreError('store/corrupt', `Event ${event.seq} (${event.type}) belongs to game ${event.gameId}, which was never created.`, this.dbPath);
      game.steps.push(event);
    }
    return [...games.values()];
  }

  /** One game on record, or null. */
  loadGame(gameId: string): StoredGame | null {
    let game: { id: string; created: StoredCreated; steps: StoredStep[] } | null = null;
    for (const event of this.events('SELECT * FROM events WHERE game_id = ? ORDER BY seq', gameId)) {
      if (event.type === 'game/created') game = { id: gameId, created: event, steps: [] };
      else if (!game) throw new StoreError('store/corrupt', `Event ${event.seq} (${event.type}) of game ${gameId} comes before its game/created.`, this.dbPath);
      else game.steps.push(event);
    }
    return game;
  }

  /**
   * Recomputes the hash chain from the first event: the first row whose seq,
   * prev_hash, payload or hash does not hold together is reported with the
   * reason. (A truncated tail cannot be seen this way: compare `head` with a
   * copy kept elsewhere for that.)
   */
  verifyChain(): ChainCheck {
    this.checkOpen();
    let prevHash = GENESIS_HASH;
    let prevSeq = 0;
    try {
      for (const row of this.db.prepare('SELECT * FROM events ORDER BY seq').iterate() as IterableIterator<EventRow>) {
        if (row.seq !== prevSeq + 1) return { ok: false, badSeq: row.seq, reason: `seq ${row.seq} follows ${prevSeq}: event(s) missing` };
        if (row.prev_hash !== prevHash) return { ok: false, badSeq: row.seq, reason: 'prev_hash is not the hash of the event before' };
        let payload: unknown;
        try {
          payload = JSON.parse(row.payload);
        } catch {
          return { ok: false, badSeq: row.seq, reason: 'payload is not valid JSON' };
        }
        let hash: string;
        try {
          hash = eventHash(prevHash, { seq: row.seq, gameId: row.game_id, type: row.type, at: row.at, payload });
        } catch (err) {
          return { ok: false, badSeq: row.seq, reason: `payload cannot be hashed: ${errorText(err)}` };
        }
        if (hash !== row.hash) return { ok: false, badSeq: row.seq, reason: 'hash does not match the event content (changed after it was written)' };
        prevHash = row.hash;
        prevSeq = row.seq;
      }
    } catch (err) {
      throw new StoreError('store/read_failed', `Could not read the event log in ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
    return { ok: true, events: prevSeq, head: prevHash };
  }

  /** The schema version the database is at. */
  schemaVersion(): number {
    this.checkOpen();
    return (this.db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  }

  /** Closes the database (checkpointing the WAL). Idempotent. */
  close(): void {
    if (!this.open) return;
    this.open = false;
    this.db.close();
  }

  private *events(sql: string, ...params: unknown[]): Generator<StoredEvent> {
    this.checkOpen();
    let rows: EventRow[];
    try {
      rows = this.db.prepare(sql).all(...params) as EventRow[];
    } catch (err) {
      throw new StoreError('store/read_failed', `Could not read the event log in ${this.dbPath}: ${errorText(err)}`, this.dbPath, { cause: err });
    }
    for (const row of rows) {
      if (!(EVENT_TYPES as readonly string[]).includes(row.type)) throw new StoreError('store/corrupt', `Event ${row.seq} has unknown type ${row.type}.`, this.dbPath);
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload);
      } catch (err) {
        throw new StoreError('store/corrupt', `Event ${row.seq} has a payload that is not JSON.`, this.dbPath, { cause: err });
      }
      yield { seq: row.seq, gameId: row.game_id, type: row.type as EventType, at: row.at, payload, prevHash: row.prev_hash, hash: row.hash } as StoredEvent;
    }
  }

  private checkOpen(): void {
    if (!this.open) throw new StoreError('store/closed', `The store in ${this.dataDir} is closed.`, this.dataDir);
  }
}

/** Shape checks a typed caller passes anyway; they keep a JS caller or a bad cast from writing junk on record. */
function checkEvent(event: NewEvent): void {
  if (typeof event.gameId !== 'string' || !GAME_ID.test(event.gameId)) {
    throw new StoreError('store/bad_event', `Game id ${JSON.stringify(event.gameId)} is not letters, digits, - and _ (1 to 100).`);
  }
  if (!EVENT_TYPES.includes(event.type)) throw new StoreError('store/bad_event', `Event type ${JSON.stringify(event.type)} is not one of ${EVENT_TYPES.join(', ')}.`);
  if (!Number.isSafeInteger(event.at) || event.at < 0) throw new StoreError('store/bad_event', `Event time ${event.at} is not ms since the epoch.`);
  if (typeof event.payload !== 'object' || event.payload === null) throw new StoreError('store/bad_event', `The ${event.type} event of game ${event.gameId} has no payload object.`);
}
