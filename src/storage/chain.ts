/**
 * The hash chain of the event log and its head file, apart from the store so
 * that the store, the record check and the `verify` command share one
 * definition (and none of them needs the others).
 *
 * Each event's hash is sha256 over the previous event's hash and the canonical
 * JSON of its content; a roll event with a camera frame also has the sha256 of
 * the frame's bytes in that content, so a frame file changed or swapped no
 * longer matches its event. Events written before frame hashes existed have
 * no such field, and hash exactly as they did.
 *
 * The head file (`chain-head.json` in the data directory) holds the last seq
 * and hash outside the database: a log cut short (a lost `-wal` file, events
 * deleted from the end) or a chain recomputed from a changed event no longer
 * meets it.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { readTextIfThere, writeFileAtomic } from './atomic-file.js';
import { PRIVATE_FILE_MODE } from './file-modes.js';
import { errorText } from '../error-text.js';

/** `prev_hash` of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The files of a data directory: the game log, the frames folder, and the head file. */
export const DB_FILE = 'dice-tower.db';
export const FRAMES_DIR = 'frames';
export const HEAD_FILE = 'chain-head.json';

const SHA256 = /^[0-9a-f]{64}$/;

/** What an event's hash covers. `frameSha256` only for a roll whose frame was hashed (left out, it hashes as before). */
export interface HashedContent {
  readonly seq: number;
  readonly gameId: string;
  readonly type: string;
  readonly at: number;
  readonly payload: unknown;
  readonly frameSha256?: string | null;
}

/** The hash of an event: sha256 over the previous hash and the canonical JSON of the event's content. */
export function eventHash(prevHash: string, content: HashedContent): string {
  const { frameSha256, ...rest } = content;
  return createHash('sha256').update(prevHash).update(canonicalJson(frameSha256 ? { ...rest, frameSha256 } : rest)).digest('hex');
}

/** sha256 of a frame's bytes, as events carry it. */
export function frameHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One row of the event log as the database holds it. */
export interface LogRow {
  readonly seq: number;
  readonly gameId: string;
  readonly type: string;
  readonly at: number;
  /** Canonical JSON text. */
  readonly payload: string;
  readonly prevHash: string;
  readonly hash: string;
  readonly frameSha256: string | null;
}

/** An `events` row as SQLite gives it. */
export interface EventRow {
  seq: number;
  game_id: string;
  type: string;
  at: number;
  payload: string;
  prev_hash: string;
  hash: string;
  /** Absent before schema 3; null for events without a hashed frame. */
  frame_sha256?: string | null;
}

export function logRow(r: EventRow): LogRow {
  return { seq: r.seq, gameId: r.game_id, type: r.type, at: r.at, payload: r.payload, prevHash: r.prev_hash, hash: r.hash, frameSha256: r.frame_sha256 ?? null };
}

/**
 * Why `row` does not chain onto the event before it (`prevSeq`, `prevHash`),
 * or null when it does. Pure.
 */
export function chainProblem(row: LogRow, prevSeq: number, prevHash: string): string | null {
  if (row.seq !== prevSeq + 1) return `seq ${row.seq} follows ${prevSeq}: event(s) missing`;
  if (row.prevHash !== prevHash) return 'prev_hash is not the hash of the event before';
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return 'payload is not valid JSON';
  }
  let hash: string;
  try {
    hash = eventHash(prevHash, { seq: row.seq, gameId: row.gameId, type: row.type, at: row.at, payload, frameSha256: row.frameSha256 });
  } catch (err) {
    return `payload cannot be hashed: ${errorText(err)}`;
  }
  if (hash !== row.hash) return 'hash does not match the event content (changed after it was written)';
  return null;
}

/** A point of the chain: the last event's seq and hash (seq 0 and the genesis hash for an empty log). */
export interface ChainPoint {
  readonly seq: number;
  readonly hash: string;
}

/**
 * The head file's content. It is written twice per write: `pending` before
 * the commit, then without it after. A crash before the commit leaves a
 * pending head one write ahead of the log, whose `prev` is where the log
 * ended: a write that never completed (never acknowledged), not a loss. A log
 * found ending at `prev` of a head that is not pending lost its last write.
 */
export interface ChainHead extends ChainPoint {
  readonly prev: ChainPoint;
  readonly pending?: boolean;
}

/** The head file's text. */
export function formatHead(head: ChainHead): string {
  return `${JSON.stringify({ seq: head.seq, hash: head.hash, prev: { seq: head.prev.seq, hash: head.prev.hash }, ...(head.pending ? { pending: true } : {}) })}\n`;
}

/** The head file's text read back, or why it cannot be. Pure. */
export function parseHead(text: string): ChainHead | { readonly unreadable: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unreadable: 'it is not JSON' };
  }
  const point = (v: unknown): ChainPoint | null => {
    const p = v as Partial<ChainPoint> | null;
    return p && typeof p === 'object' && Number.isSafeInteger(p.seq) && (p.seq as number) >= 0 && typeof p.hash === 'string' && SHA256.test(p.hash)
      ? { seq: p.seq as number, hash: p.hash }
      : null;
  };
  const head = point(value);
  const prev = point((value as { prev?: unknown } | null)?.prev);
  if (!head || !prev) return { unreadable: 'it does not hold a seq and a sha256 hash (and the ones before)' };
  return { ...head, prev, ...((value as { pending?: unknown }).pending === true ? { pending: true } : {}) };
}

/** Writes the head file atomically (a crash leaves the old head or the new one). */
export function writeHeadFile(dataDir: string, head: ChainHead): void {
  // 0600 like the database: the head says how far the log goes, which is for the operator only.
  writeFileAtomic(join(dataDir, HEAD_FILE), Buffer.from(formatHead(head)), { mode: PRIVATE_FILE_MODE });
}

/** The head file: its content, null when there is none, or why it cannot be read. */
export function readHeadFile(dataDir: string): ChainHead | { readonly unreadable: string } | null {
  let text: string | null;
  try {
    text = readTextIfThere(join(dataDir, HEAD_FILE));
  } catch (err) {
    return { unreadable: errorText(err) };
  }
  return text === null ? null : parseHead(text);
}
