/**
 * Rolls other programs can use (issue #49): the numbered event stream, API
 * keys, webhooks and MQTT, joined to the table. `serve` makes one
 * `Integrations` over the store's database (its own connection) and hands it
 * to the app (routes, the feed's `subscribe` with `since`).
 */
import Database from 'better-sqlite3';
import type { Table } from '../table.js';
import { gameResult } from '../table.js';
import { errorText } from '../error-text.js';
import { EventStream } from './event-stream.js';
import { fromLog, fromNotice, fromRoll, fromTower, gameEnded, type DraftEvent, type GameFacts, type LogRow } from './events.js';
import { ApiKeys } from './api-keys.js';
import { Webhooks, type WebhookOptions } from './webhooks.js';
import { MqttBridge, type MqttOptions } from './mqtt.js';

export { EventStream, follow } from './event-stream.js';
export { ApiKeys, KEY_SCOPES, isKeyToken, type KeyScope, type ApiKey } from './api-keys.js';
export { Webhooks, verifySignature, sign, type WebhookOptions } from './webhooks.js';
export { envelope, eventsSchema, STREAM_VERSION, STREAM_EVENT_TYPES, PUBLIC, type StreamEvent, type Viewer } from './events.js';

export interface IntegrationsOptions {
  readonly table: Table;
  /** The store's database file (GameStore.dbPath), already migrated by `openStore`. */
  readonly dbPath: string;
  readonly version: string;
  readonly webhooks?: WebhookOptions;
  /** Publish to an MQTT broker (serve --mqtt). */
  readonly mqtt?: Omit<MqttOptions, 'version'> | undefined;
  readonly now?: () => number;
  /** Where a failure to keep a live event is told (default stderr). */
  readonly warn?: (message: string) => void;
}

export interface Integrations {
  readonly stream: EventStream;
  readonly keys: ApiKeys;
  readonly webhooks: Webhooks;
  readonly mqtt: MqttBridge | null;
  close(): Promise<void>;
}

/** A connection of its own to the store's database, which must hold the integrations' tables (schema 4 on). */
export function openIntegrationsDb(dbPath: string): Database.Database {
  const db = new Database(dbPath, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // As the store: each commit fsynced.
  db.pragma('synchronous = FULL');
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stream_events'").get() !== undefined;
  if (!has) {
    db.close();
    throw new Error(`The database ${dbPath} has no event stream tables (schema older than 4); start 'dice-tower serve' on it once to bring it up to date.`);
  }
  return db;
}

export function createIntegrations(options: IntegrationsOptions): Integrations {
  const { table } = options;
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((m: string) => process.stderr.write(`dice-tower: warning: ${m}\n`));
  const db = openIntegrationsDb(options.dbPath);
  const stream = new EventStream(db);

  /** What the translation needs of a game: the table's own record of it (restored before this runs). */
  const facts = (gameId: string): GameFacts => {
    try {
      const game = table.get(gameId);
      return {
        secretHands: table.definition(game).secretHands === true,
        rollSecret: (seq) => {
          const roll = game.rolls[seq - 1];
          return roll ? { secret: roll.request.secret, player: roll.request.player } : null;
        },
      };
    } catch {
      // A game the table could not restore: tell nothing it might hide.
      return { secretHands: true, rollSecret: () => ({ secret: true, player: -1 }) };
    }
  };
  /**
   * A game over whose last log event is in this batch: game.ended after it — when its result first appears, or when a
   * correction changed it (not again for a correction that leaves it as the last game.ended told it).
   */
  const ended = (rows: readonly LogRow[]): DraftEvent[] => {
    const lastOf = new Map<string, LogRow>();
    for (const row of rows) lastOf.set(row.gameId, row);
    const out: DraftEvent[] = [];
    for (const [gameId, row] of lastOf) {
      try {
        const game = table.get(gameId);
        const result = gameResult(table, game);
        if (!result || row.version !== game.version) continue;
        const draft = gameEnded(gameId, row.at, row.seq, result, game.players);
        const told = stream.latestOf('game.ended', gameId);
        if (told === null || JSON.stringify(told.data) !== JSON.stringify(draft.data)) out.push(draft);
      } catch {
        // Not in play here: no result to tell.
      }
    }
    return out;
  };
  const sync = () => stream.syncFromLog((row) => fromLog(row, facts(row.gameId)), ended);
  // The log's events this stream has not derived yet (a new database: the whole history; after a crash: what it missed).
  sync();

  /** Never lets a stream fault reach the table (a listener that throws would fail the roll that told it). */
  const guarded = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      warn(`the event stream could not keep ${what}: ${errorText(err)}${what.startsWith('game') ? ' (it is derived from the game log at the next game change, or the next start)' : ''}`);
    }
  };
  const offTable = table.subscribe((e) => {
    if (e.type === 'game') guarded('game events', sync);
    else if (e.type === 'tower') guarded('a tower status', () => stream.append([fromTower(e.status, now())]));
    else guarded('a notice', () => stream.append([fromNotice(e.gameId, e.message, now())]));
  });
  const offRolls = table.onRoll((e) => guarded(`a ${e.type} event`, () => stream.append([fromRoll(e, now())])));

  const keys = new ApiKeys(db, now);
  // The deliveries' state on a connection of its own, not fsynced at each commit (WAL, synchronous NORMAL): a power cut
  // may forget that a delivery was made, and it is made again (at least once); a crash of the process forgets nothing.
  const hooksDb = openIntegrationsDb(options.dbPath);
  hooksDb.pragma('synchronous = NORMAL');
  const webhooks = new Webhooks(hooksDb, stream, { userAgent: `dice-tower/${options.version}`, ...options.webhooks });
  const mqtt = options.mqtt ? new MqttBridge({ warn, ...options.mqtt, version: options.version }, stream, table.tower()) : null;

  let closed = false;
  return {
    stream,
    keys,
    webhooks,
    mqtt,
    async close() {
      if (closed) return;
      closed = true;
      offTable();
      offRolls();
      await webhooks.close();
      await mqtt?.close().catch(() => undefined);
      hooksDb.close();
      db.close();
    },
  };
}
