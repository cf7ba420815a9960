/**
 * The event stream: every event numbered (seq, global, from 1) and kept in the
 * data directory's database (`stream_events`, append-only), so a consumer that
 * reconnects, or comes back after a restart of the server, resumes from the
 * last seq it saw: nothing lost, nothing twice.
 *
 * Game events are derived from the hash-chained game log itself
 * (`syncFromLog`), in the same transaction that moves the cursor over the log
 * (`stream_facts.log_cursor`): one the process died before deriving is derived
 * at the next start, and none is derived twice. Throws and tower statuses,
 * which the log does not hold, are appended as they happen.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { errorText } from '../error-text.js';
import { envelopeText, type DraftEvent, type LogRow, type StreamEvent, type StreamEventType, type Viewer } from './events.js';

/** Game-log events derived per transaction at start (a long history is caught up in steps). */
const LOG_PAGE = 500;

type Row = { seq: number; id: string; type: string; at: number; game_id: string | null; secret_seat: number | null; source_seq: number | null; data: string; public_data: string | null };

function fromRow(row: Row): StreamEvent {
  const data = JSON.parse(row.data) as Record<string, unknown>;
  return {
    seq: row.seq, id: row.id, type: row.type as StreamEventType, at: row.at, gameId: row.game_id, secretSeat: row.secret_seat, sourceSeq: row.source_seq,
    data, publicData: row.public_data === null ? data : (JSON.parse(row.public_data) as Record<string, unknown>),
  };
}

export class EventStream {
  /**
   * This stream's epoch: random, made with the stream and made anew when a backup is restored (storage/backup.ts drops
   * it), since the seqs then start again from the backup's head. A consumer that kept one resumes only in the same epoch.
   */
  readonly epoch: string;
  private readonly listeners = new Set<(event: StreamEvent) => void>();
  private readonly insert: Database.Statement;
  private readonly after: Database.Statement;
  private readonly cursorGet: Database.Statement;
  private readonly cursorSet: Database.Statement;
  private readonly headGet: Database.Statement;
  private readonly logRows: Database.Statement;
  private readonly logVersion: Database.Statement;
  private readonly latestAll: Database.Statement;
  private readonly latestPublic: Database.Statement;
  private readonly latestOfGame: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare('INSERT INTO stream_events (id, type, at, game_id, secret_seat, source_seq, data, public_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.after = db.prepare('SELECT * FROM stream_events WHERE seq > ? ORDER BY seq LIMIT ?');
    this.cursorGet = db.prepare("SELECT value FROM stream_facts WHERE name = 'log_cursor'").pluck();
    this.cursorSet = db.prepare("UPDATE stream_facts SET value = ? WHERE name = 'log_cursor'");
    this.headGet = db.prepare('SELECT coalesce(max(seq), 0) FROM stream_events').pluck();
    // The game log is the store's (storage/store.ts); read here, never written.
    this.logRows = db.prepare('SELECT seq, game_id, type, at, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?');
    this.logVersion = db.prepare('SELECT count(*) FROM events WHERE game_id = ? AND seq <= ?').pluck();
    db.prepare("INSERT OR IGNORE INTO stream_facts (name, value) VALUES ('epoch', ?)").run(randomInt(1, 2 ** 47));
    this.epoch = (db.prepare("SELECT value FROM stream_facts WHERE name = 'epoch'").pluck().get() as number).toString(16).padStart(12, '0');
    this.latestAll = db.prepare('SELECT * FROM stream_events WHERE type = ? ORDER BY seq DESC LIMIT 1');
    this.latestPublic = db.prepare('SELECT * FROM stream_events WHERE type = ? AND secret_seat IS NULL ORDER BY seq DESC LIMIT 1');
    this.latestOfGame = db.prepare('SELECT * FROM stream_events WHERE type = ? AND game_id = ? ORDER BY seq DESC LIMIT 1');
  }

  /** The last seq given (0: none yet). */
  head(): number {
    return this.headGet.get() as number;
  }

  /** Where the derivation from the game log has got to (its seq). */
  logCursor(): number {
    return this.cursorGet.get() as number;
  }

  /** Numbers and keeps the events (all or none), then tells the listeners. */
  append(drafts: readonly DraftEvent[]): StreamEvent[] {
    if (drafts.length === 0) return [];
    const stored = this.db.transaction(() => drafts.map((d) => this.insertOne(d))).immediate();
    this.tell(stored);
    return stored;
  }

  private insertOne(d: DraftEvent): StreamEvent {
    const id = randomUUID();
    const publicData = d.publicData ?? d.data;
    const info = this.insert.run(id, d.type, d.at, d.gameId, d.secretSeat, d.sourceSeq, JSON.stringify(d.data), d.publicData ? JSON.stringify(d.publicData) : null);
    return { ...d, seq: Number(info.lastInsertRowid), id, publicData };
  }

  private tell(events: readonly StreamEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch {
          // One consumer's fault (a socket gone) must not stop the others or the roll that made the event.
        }
      }
    }
  }

  /**
   * Derives the events of every game-log event past the cursor (`derive`
   * turns one into stream events; `after` adds those due once the batch is
   * in, e.g. game.ended), each batch in one transaction with the cursor.
   * Returns how many log events it went through.
   */
  syncFromLog(derive: (row: LogRow) => DraftEvent[], after: (rows: readonly LogRow[]) => DraftEvent[] = () => []): number {
    let total = 0;
    for (;;) {
      const { stored, count } = this.db.transaction(() => {
        const cursor = this.cursorGet.get() as number;
        const raw = this.logRows.all(cursor, LOG_PAGE) as Array<{ seq: number; game_id: string; type: string; at: number; payload: string }>;
        if (raw.length === 0) return { stored: [] as StreamEvent[], count: 0 };
        const rows: LogRow[] = raw.map((r) => ({ seq: r.seq, gameId: r.game_id, type: r.type, at: r.at, payload: JSON.parse(r.payload) as unknown, version: this.logVersion.get(r.game_id, r.seq) as number }));
        const drafts = [...rows.flatMap(derive), ...after(rows)];
        const out = drafts.map((d) => this.insertOne(d));
        this.cursorSet.run((raw[raw.length - 1] as { seq: number }).seq);
        return { stored: out, count: raw.length };
      }).immediate();
      this.tell(stored);
      total += count;
      if (count < LOG_PAGE) return total;
    }
  }

  /** The last event of a type (`publicOnly`: the last one everyone may see whole), or null. */
  latest(type: StreamEventType, publicOnly = false): StreamEvent | null {
    const row = (publicOnly ? this.latestPublic : this.latestAll).get(type) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The last event of a type of one game, or null (seen inside syncFromLog's transaction: its earlier batches too). */
  latestOf(type: StreamEventType, gameId: string): StreamEvent | null {
    const row = this.latestOfGame.get(type, gameId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Up to `limit` events after seq `since`, oldest first. */
  read(since: number, limit: number): StreamEvent[] {
    try {
      return (this.after.all(since, limit) as Row[]).map(fromRow);
    } catch (err) {
      throw new Error(`Could not read the event stream after ${since}: ${errorText(err)}`, { cause: err });
    }
  }

  /** Called with every event appended from now on; returns the function that stops it. */
  subscribe(listener: (event: StreamEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** What a follower writes to (the event, and its envelope as JSON for the viewer): true or false to go on, a promise to wait for (a drain) first. */
export type Sink = (event: StreamEvent, text: string) => boolean | Promise<void>;

export interface FollowOptions {
  readonly since: number;
  readonly viewer: Viewer;
  /** Only these types (none: all). */
  readonly types?: ReadonlySet<string> | undefined;
  /** Only this game's events (none: all). */
  readonly gameId?: string | undefined;
  /** Only these games' events (none: all). */
  readonly games?: ReadonlySet<string> | undefined;
  /** Live events that may wait for a consumer that does not read before it is given up (onError); it resumes from its last seq. */
  readonly maxQueued?: number;
}

/** Live events waiting for one slow consumer, by default, before it is given up. */
export const MAX_QUEUED = 10_000;

/**
 * Sends a consumer every event after `since` — the kept ones first, in pages,
 * then the live ones — each once, in order: live events that come while the
 * backlog is sent wait in a queue, and any event at or below the last seq sent
 * is dropped. Returns the function that stops it.
 */
export function follow(stream: EventStream, options: FollowOptions, sink: Sink, onError: (err: unknown) => void = () => undefined): () => void {
  let last = options.since;
  let stopped = false;
  let live = false;
  let queue: StreamEvent[] = [];
  let busy: Promise<void> | null = null;
  const wanted = (e: StreamEvent) =>
    (!options.types || options.types.has(e.type)) && (!options.gameId || e.gameId === options.gameId) && (!options.games || (e.gameId !== null && options.games.has(e.gameId)));

  /** Sends events in order, waiting whenever the sink asks to drain. */
  const pump = async (events: readonly StreamEvent[]) => {
    for (const e of events) {
      if (stopped) return;
      if (e.seq <= last) continue;
      last = e.seq;
      if (!wanted(e)) continue;
      const more = sink(e, envelopeText(e, options.viewer));
      if (more !== true && more !== false) await more;
    }
  };
  const drain = () => {
    if (busy || stopped) return;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    busy = pump(batch).then(
      () => {
        busy = null;
        drain();
      },
      (err: unknown) => {
        stopped = true;
        onError(err);
      },
    );
  };
  const unsubscribe = stream.subscribe((e) => {
    if (stopped) return;
    queue.push(e);
    if (queue.length > (options.maxQueued ?? MAX_QUEUED)) {
      // A consumer that stopped reading must not grow the server's memory: it is let go, and resumes from its last seq.
      stopped = true;
      unsubscribe();
      onError(new Error(`the consumer is more than ${options.maxQueued ?? MAX_QUEUED} events behind`));
      return;
    }
    if (live) drain();
  });
  const catchUp = async () => {
    for (;;) {
      const page = stream.read(last, 500);
      if (page.length === 0 || stopped) break;
      await pump(page);
    }
    // Everything kept has been sent; events that came meanwhile are in the queue (those already sent are skipped).
    live = true;
    drain();
  };
  catchUp().catch((err: unknown) => {
    stopped = true;
    onError(err);
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
