/**
 * The game store: an append-only, hash-chained event log in SQLite (WAL) plus
 * the rolls' camera frames as files, under one data directory:
 *
 *   <dataDir>/dice-tower.db              events, sessions, schema_migrations; and the
 *                                        integrations' tables (stream_events, stream_facts,
 *                                        api_keys, webhooks, webhook_deliveries: src/integrations)
 *   <dataDir>/frames/<gameId>/<n>.jpg    frame of roll n of a game
 *
 * A game is its `game/created` event plus its `game/action` and `game/roll`
 * events in order; the table rebuilds it by replaying them. A roll that was
 * under way when the process died (tower thrown, dice not yet applied) has no
 * event, so it is simply absent: after a restart the game still waits for that
 * roll and the caller asks for it again. It can be neither lost (nothing was
 * applied) nor applied twice (the event is written whole or not at all). A
 * frame file saved for such a roll is put aside (`<n>.replaced-<time>.jpg`,
 * never deleted) when the roll is made again: it may as well be the frame of
 * a roll lost from the log, which is evidence.
 *
 * A problem in the record is never washed out by a write: an append that
 * finds the head file disagreeing with the log's end keeps that head file
 * aside (`chain-head.disagreed-<time>.json`) and the finding in
 * `record-problem.json` before it writes the new head, and `checkRecord`
 * keeps what it finds there too (see record-check.ts).
 *
 * One process at a time owns a data directory. All calls are synchronous
 * (better-sqlite3); each write is fsynced before it returns.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { errorText } from '../error-text.js';
import { StoreError } from './errors.js';
import { EVENT_TYPES, type EventType, type GameRollPayload, type NewEvent, type StoredCreated, type StoredEvent, type StoredGame, type StoredSession, type StoredStep } from './events.js';
import { MIGRATIONS, migrate, type Migration } from './migrations.js';
import { TEMP_SUFFIX, syncDirectory, writeFileAtomic } from './atomic-file.js';
import { DB_FILE, FRAMES_DIR, GENESIS_HASH, HEAD_FILE, eventHash, frameHash, readHeadFile, writeHeadFile, type ChainHead, type ChainPoint, type EventRow } from './chain.js';
import { headProblem, inspectRecord, keepProblem, type RecordReport } from './record-check.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, tightenModes } from './file-modes.js';

export { DB_FILE, FRAMES_DIR, GENESIS_HASH, eventHash } from './chain.js';

/** Game ids become directory names: keep them to what a UUID (or a slug) uses. */
const GAME_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** The only frame paths the store writes, hence the only ones it reads. */
const FRAME_PATH = /^frames\/([A-Za-z0-9_-]{1,100})\/([1-9][0-9]{0,9})\.jpg$/;

export interface StoreOptions {
  /** The schema steps (default: `MIGRATIONS`); tests pass more to check upgrades. */
  readonly migrations?: readonly Migration[];
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
    mkdirSync(join(dir, FRAMES_DIR), { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    throw new StoreError('store/open_failed', `Cannot create the data directory ${dir}: ${errorText(err)}`, dir, { cause: err });
  }
  let db: Database.Database;
  try {
    db = new Database(dbPath);
    // Before the WAL exists: SQLite gives the -wal and -shm files the database file's mode.
    tightenModes(dir, DB_FILE, FRAMES_DIR);
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
    startHeadFile(db, dir);
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError('store/open_failed', `Cannot prepare the store in ${dir}: ${errorText(err)}`, dir, { cause: err });
  }
  return new GameStore(dir, db);
}

/**
 * Writes the first head file of a log that has none because it predates head
 * files (or is new), and notes that it did: from then on a missing head file
 * is a problem the record check reports, never one quietly made again. A head
 * file already there is never replaced: a log that does not know it started
 * head tracking while a head file exists lost its start (a first run's `-wal`
 * file lost before any checkpoint, the schema rebuilt empty), and that head
 * is the evidence of what was lost.
 */
function startHeadFile(db: Database.Database, dataDir: string): void {
  const started = db.prepare("SELECT 1 FROM chain_facts WHERE name = 'head_file_from'").get() !== undefined;
  if (started) return;
  const end = lastPoint(db);
  if (readHeadFile(dataDir) === null) writeHeadFile(dataDir, { ...end, prev: end });
  db.prepare("INSERT INTO chain_facts (name, value) VALUES ('head_file_from', ?)").run(end.seq);
}

/** Where the log ends: its last event's seq and hash (0 and the genesis hash when empty). */
function lastPoint(db: Database.Database): ChainPoint {
  const row = db.prepare('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1').get() as ChainPoint | undefined;
  return row ?? { seq: 0, hash: GENESIS_HASH };
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
    this.insert = db.prepare('INSERT INTO events (seq, game_id, type, at, payload, prev_hash, hash, frame_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.last = db.prepare('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1');
    this.created = db.prepare("SELECT 1 FROM events WHERE game_id = ? AND type = 'game/created' LIMIT 1");
    const hashAt = db.prepare('SELECT hash FROM events WHERE seq = ?').pluck();
    const all = db.transaction((events: readonly NewEvent[]) => {
      const before = lastPoint(db);
      this.guardHead(before, (seq) => hashAt.get(seq) as string | undefined);
      const stored = events.map((e) => this.appendInTx(e));
      const after = stored[stored.length - 1];
      const head = after ? { seq: after.seq, hash: after.hash, prev: before } : null;
      // The head file goes outside the database before the commit, marked pending: a crash before the commit leaves
      // a head one write ahead of the log, which `prev` accounts for. A head that cannot be written fails the write.
      if (head) writeHeadFile(this.dataDir, { ...head, pending: true });
      return { stored, head };
    });
    // IMMEDIATE: the head is read and the rows written under one write lock. Once per write (a batch is one).
    this.appendAllTx = (events) => {
      const { stored, head } = all.immediate(events);
      if (head) this.confirmHead(head);
      return stored;
    };
    this.appendTx = (event) => {
      const [stored] = this.appendAllTx([event]);
      if (!stored) throw new Error('an append of one event stored none');
      return stored;
    };
  }

  /**
   * Before an append moves the head file: a head that does not meet the log's
   * end (`before`), other than as a crash leaves it, is evidence (events lost
   * from the end, a chain recomputed, a head put back): it is kept aside and
   * the finding kept in `record-problem.json`, so the new head does not wash
   * it out. When either cannot be kept, the write fails.
   */
  private guardHead(before: ChainPoint, hashAt: (seq: number) => string | undefined): void {
    const head = readHeadFile(this.dataDir);
    const problem = headProblem(head, true, before, hashAt, []);
    if (!problem) return;
    const aside = head === null ? null : this.putAside(HEAD_FILE, (stamp) => `chain-head.disagreed-${stamp}.json`);
    keepProblem(this.dataDir, {
      ...problem,
      file: aside ?? problem.file,
      message: `When event ${before.seq + 1} was about to be written: ${problem.message}${aside ? ` That head file is kept as ${aside}.` : ''}`,
    });
    // A head at the log's end, so that a write refused below (or a crash) does not leave the directory without one.
    writeHeadFile(this.dataDir, { ...before, prev: before });
  }

  /** Renames a file of the data directory (or a frame) to a name made from the time, never over another file; returns the new relative path. */
  private putAside(rel: string, name: (stamp: string) => string): string {
    const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    let target = '';
    for (let n = 1; ; n++) {
      target = `${dir ? `${dir}/` : ''}${name(n === 1 ? stamp : `${stamp}-${n}`)}`;
      if (!existsSync(join(this.dataDir, target))) break;
    }
    renameSync(join(this.dataDir, rel), join(this.dataDir, target));
    syncDirectory(join(this.dataDir, dir));
    return target;
  }

  /**
   * After the commit: the head file no longer pending, so a log found ending
   * at its `prev` is a loss (the last write deleted, a lost -wal file), not a
   * write cut short. Best effort: the write is on record already, and a head
   * left pending still vouches for every event up to it.
   */
  private confirmHead(head: ChainHead): void {
    try {
      writeHeadFile(this.dataDir, head);
    } catch {
      // Still pending: only the last write's loss would go unseen.
    }
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
    const frameSha256 = event.type === 'game/roll' ? this.rollFrameHash(event.gameId, event.payload) : null;
    const hash = eventHash(prevHash, { seq, gameId: event.gameId, type: event.type, at: event.at, payload: event.payload, frameSha256 });
    this.insert.run(seq, event.gameId, event.type, event.at, payload, prevHash, hash, frameSha256);
    return { ...event, payload: JSON.parse(payload), seq, prevHash, hash } as StoredEvent;
  }

  /**
   * The sha256 of a roll's frame, which goes into the event's hash so that the
   * frame file cannot be changed or swapped unseen; read back from the file
   * `saveFrame` wrote (a roll whose frame is not there is refused,
   * `store/frame_not_found`). A roll without a frame puts aside a frame left
   * at its number (an earlier try never recorded, or a roll lost from the
   * log), so no stray file is left for the record check to find, and none is
   * destroyed.
   */
  private rollFrameHash(gameId: string, payload: GameRollPayload): string | null {
    if (payload.frame !== null) return frameHash(this.readFrame(payload.frame));
    const rollSeq = payload.roll?.seq;
    if (!Number.isInteger(rollSeq) || rollSeq < 1 || !GAME_ID.test(gameId)) return null;
    try {
      this.putFrameAside(gameId, rollSeq);
    } catch {
      // Left there, the record check names it as an extra frame: worth a look, not worth refusing the roll.
    }
    return null;
  }

  /** A frame file already at roll `rollSeq`'s path, renamed to `<n>.replaced-<time>.jpg` beside it (the record check notes it); null when there is none. */
  private putFrameAside(gameId: string, rollSeq: number): string | null {
    const rel = `${FRAMES_DIR}/${gameId}/${rollSeq}.jpg`;
    if (!existsSync(join(this.dataDir, rel))) return null;
    return this.putAside(rel, (stamp) => `${rollSeq}.replaced-${stamp}.jpg`);
  }

  /**
   * Saves the camera frame of roll `rollSeq` of a game, atomically (a crash
   * leaves the old file or the new one, never a part), and returns the path to
   * put in the `game/roll` event, relative to the data directory. Save the
   * frame first, then append the event: a frame without an event is harmless
   * (the roll is made again); an event without its frame is not. A file
   * already at that path is never overwritten: it is renamed beside it to
   * `<n>.replaced-<time>.jpg` first. It is usually the frame of a roll under
   * way at a stop, but it may be the frame of a roll lost from the log (a
   * lost `-wal` file), which is evidence and a picture worth keeping.
   */
  saveFrame(gameId: string, rollSeq: number, jpeg: Uint8Array): string {
    this.checkOpen();
    if (!GAME_ID.test(gameId)) throw new StoreError('store/bad_event', `Game id ${JSON.stringify(gameId)} cannot name a frame directory (letters, digits, - and _ only).`);
    if (!Number.isInteger(rollSeq) || rollSeq < 1) throw new StoreError('store/bad_event', `Roll number ${rollSeq} is not a positive integer.`);
    const rel = `${FRAMES_DIR}/${gameId}/${rollSeq}.jpg`;
    const abs = join(this.dataDir, FRAMES_DIR, gameId, `${rollSeq}.jpg`);
    try {
      this.putFrameAside(gameId, rollSeq);
      writeFileAtomic(abs, jpeg, { mode: PRIVATE_FILE_MODE, dirMode: PRIVATE_DIR_MODE });
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
   * Does not check the hash chain (`checkRecord` does, at start-up).
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
   * The whole record check (`record-check.ts`): the chain, the frames against
   * their hashes, the head file against the log, and the findings kept from
   * earlier checks. The server runs it at start; `dice-tower verify` runs the
   * same on a read-only connection. A problem it finds is kept in
   * `record-problem.json` (unless an earlier one is kept already), so it is
   * reported at every check until a person removes that file.
   */
  checkRecord(): RecordReport {
    this.checkOpen();
    let report: RecordReport;
    try {
      report = inspectRecord(this.db, this.dataDir);
    } catch (err) {
      throw new StoreError('store/read_failed', `Could not check the record in ${this.dataDir}: ${errorText(err)}`, this.dataDir, { cause: err });
    }
    if (report.found) {
      try {
        keepProblem(this.dataDir, report.found);
      } catch (err) {
        throw new StoreError('store/write_failed', `Could not keep the problem found in the record (${report.found.message}) in ${this.dataDir}: ${errorText(err)}`, this.dataDir, { cause: err });
      }
    }
    return report;
  }

  /** Where the log ends now (an export carries it, to be held against the head file). */
  head(): ChainPoint {
    this.checkOpen();
    return lastPoint(this.db);
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
