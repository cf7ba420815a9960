/**
 * The Idempotency-Key header of POST …/roll and …/actions: a client that did
 * not get its answer (a dropped connection, a phone that went to sleep)
 * sends the same request again with the same key, and it is applied once:
 * the retry gets the first answer again, or waits for it while the first is
 * still being made. The same key with another request (other route or body)
 * is refused, since it cannot be a retry.
 *
 * Keys live in memory only: the last MAX_KEYS keyed requests of all games,
 * each for KEY_TTL_MS. After a restart a key is new again (the log records
 * what was applied, not the keys or answers).
 */
import { TableError } from '../table.js';

/** Keyed requests remembered, all games together (the oldest is forgotten first). */
export const MAX_KEYS = 1_000;
/** How long a key is remembered: 24 hours, far longer than any client keeps retrying. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** Keys are 1-200 visible ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** An answer as it was sent: replayed as is. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

interface Entry {
  /** What the key was first used for (route, parameters and body), to tell a retry from a new request. */
  readonly fingerprint: string;
  readonly what: string;
  readonly at: number;
  /** The answer, once made; null when the first try ended in a fault (nothing applied): the next try runs anew. */
  readonly answer: Promise<Answer | null>;
}

/** Why an Idempotency-Key header cannot be used, or null. */
export function keyProblem(key: string): string | null {
  return KEY_PATTERN.test(key) ? null : 'The Idempotency-Key header must be 1 to 200 visible ASCII characters (a UUID, say).';
}

export class IdempotencyKeys {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limit = MAX_KEYS,
    private readonly ttlMs = KEY_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `make` once for `key` within `scope` (a game): a retry with the same
   * fingerprint gets the first answer (`replayed`), a different one a 422.
   * `make` answers what is final (done, or refused); it throws on a fault
   * that applied nothing (tower, store), which is not remembered.
   */
  async run(scope: string, key: string, fingerprint: string, what: string, make: () => Promise<Answer>): Promise<Answer & { readonly replayed: boolean }> {
    this.forgetOld();
    const id = `${scope}\n${key}`;
    const known = this.entries.get(id);
    if (known) {
      if (known.fingerprint !== fingerprint) {
        throw new TableError(
          'api/idempotency_key_reused',
          `Idempotency-Key '${key}' was first used for ${known.what} with another body; a retry must repeat its request exactly, and a new request needs a new key.`,
          422,
        );
      }
      const answer = await known.answer;
      if (answer) return { ...answer, replayed: true };
      // The first try ended in a fault and applied nothing: this one is made anew.
      if (this.entries.get(id) === known) this.entries.delete(id);
      return this.run(scope, key, fingerprint, what, make);
    }
    const made = make();
    const entry: Entry = { fingerprint, what, at: this.now(), answer: made.catch(() => null) };
    this.entries.set(id, entry);
    try {
      return { ...(await made), replayed: false };
    } catch (err) {
      if (this.entries.get(id) === entry) this.entries.delete(id);
      throw err;
    }
  }

  /** Drops keys past their time, and the oldest beyond the limit (the map keeps them in the order they came). */
  private forgetOld(): void {
    const expired = this.now() - this.ttlMs;
    for (const [id, entry] of this.entries) {
      if (entry.at > expired && this.entries.size < this.limit) break;
      this.entries.delete(id);
    }
  }
}
