/**
 * A game exported as JSON: its events as the log has them (setup, actions,
 * rolls with their readings, corrections), chained by sha256 within the export
 * so that a changed, removed or reordered event shows when it is imported
 * elsewhere. Camera frames are not included (the readings are).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../storage/canonical-json.js';
import { GENESIS_HASH, type ChainPoint } from '../storage/chain.js';
import type { EventType, PayloadByType } from '../storage/events.js';
import { errorText } from '../error-text.js';

export const EXPORT_FORMAT = 'dice-tower/game-export';
export const EXPORT_VERSION = 1;

export type ExportEvent = {
  readonly [T in EventType]: { readonly n: number; readonly type: T; readonly at: number; readonly payload: PayloadByType[T]; readonly hash: string };
}[EventType];

export interface GameExport {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  readonly gameId: string;
  readonly exportedAt: number;
  readonly events: readonly ExportEvent[];
  /** Hash of the last event. */
  readonly head: string;
  /**
   * Where the whole log of the exporting server ended (its last seq and hash,
   * as its head file holds them): ties the export to that record, so it can be
   * checked against the server's head file. Absent in older exports.
   */
  readonly logHead?: ChainPoint;
  /** The exporting server's Ed25519 signature over the rest of the export (`export-signing.ts`). Absent in older exports. */
  readonly signature?: ExportSignature;
}

/** An Ed25519 signature over the canonical JSON of the export without it; keys and signature in base64url (raw 32-byte key). */
export interface ExportSignature {
  readonly alg: 'ed25519';
  readonly publicKey: string;
  readonly value: string;
}

/** sha256 over the previous hash and the canonical JSON of the event's number, game, type, time and payload. */
export function exportHash(prev: string, gameId: string, event: { n: number; type: string; at: number; payload: unknown }): string {
  return createHash('sha256').update(prev).update(canonicalJson({ n: event.n, gameId, type: event.type, at: event.at, payload: event.payload })).digest('hex');
}

/** Builds the export of one game's events (in log order, `game/created` first). */
export function buildExport(gameId: string, events: ReadonlyArray<{ type: EventType; at: number; payload: unknown }>, exportedAt: number, logHead?: ChainPoint): GameExport {
  let prev = GENESIS_HASH;
  const out = events.map((e, i) => {
    const hash = exportHash(prev, gameId, { n: i + 1, type: e.type, at: e.at, payload: e.payload });
    prev = hash;
    return { n: i + 1, type: e.type, at: e.at, payload: e.payload, hash } as ExportEvent;
  });
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, gameId, exportedAt, events: out, head: prev, ...(logHead ? { logHead: { seq: logHead.seq, hash: logHead.hash } } : {}) };
}

/**
 * Checks that an export holds together: numbered 1, 2, 3..., `game/created`
 * first and only there, each hash matching its content and the one before,
 * the head matching the last. Returns the first problem, or null. The shape
 * itself (fields and types) is checked by the route's JSON schema first.
 */
export function exportProblem(exp: GameExport): string | null {
  if (exp.events.length === 0) return 'the export has no events';
  let prev = GENESIS_HASH;
  for (const [i, e] of exp.events.entries()) {
    if (e.n !== i + 1) return `event ${i + 1} is numbered ${e.n}: events are missing or out of order`;
    if ((e.type === 'game/created') !== (i === 0)) return i === 0 ? 'the first event is not game/created' : `event ${e.n} is a second game/created`;
    let hash: string;
    try {
      hash = exportHash(prev, exp.gameId, e);
    } catch (err) {
      return `event ${e.n} cannot be hashed: ${errorText(err)}`;
    }
    if (hash !== e.hash) return `event ${e.n} (${e.type}) does not match its hash: it was changed after the export, or an event before it was`;
    prev = hash;
  }
  if (prev !== exp.head) return 'the head hash does not match the last event: events were removed from the end';
  return null;
}
