/**
 * Webhooks: the operator registers URLs with the event types they want; each
 * event is POSTed to each as its public JSON envelope, signed with the hook's
 * own secret (`X-Dice-Tower-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of
 * "t.body">`, the time against replays), retried with growing pauses for up
 * to an hour. What is owed is kept in the database (`webhook_deliveries`,
 * with each hook's cursor over the stream), so a restart carries on where the
 * last run stopped; delivery is at least once (a receiver dedupes on
 * `X-Dice-Tower-Event-Id`: a seq is numbered again after a backup is restored,
 * with a new `X-Dice-Tower-Epoch`). Nothing here is awaited by a roll: events
 * are queued after they are kept, and sent by a worker with timeouts.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { TableError } from '../table.js';
import { errorText } from '../error-text.js';
import { envelopeText, STREAM_EVENT_TYPES, PUBLIC, type StreamEvent } from './events.js';
import type { EventStream } from './event-stream.js';

export interface WebhookOptions {
  /** Pause before retry n (n = 1 after the first failure), ms. Default: 5 s doubled each time, at most 10 min. */
  readonly backoff?: (attempt: number) => number;
  /** A delivery not made within this long of the event is given up (state failed). Default 1 h. */
  readonly maxAgeMs?: number;
  /** One request's time limit, ms (default 10 s). */
  readonly timeoutMs?: number;
  /** Requests in flight at once, in all (default 32) and per hook (default 8: a dead receiver cannot take every slot). */
  readonly concurrency?: number;
  readonly perHook?: number;
  readonly now?: () => number;
  /** Sent as User-Agent. */
  readonly userAgent?: string;
}

export const DEFAULT_BACKOFF = (attempt: number): number => Math.min(5_000 * 2 ** (attempt - 1), 600_000);
export const SIGNATURE_HEADER = 'x-dice-tower-signature';

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly types: readonly string[];
  readonly createdAt: number;
  readonly removedAt: number | null;
  /** The last attempt: when, its HTTP status (null: no answer) and its error. */
  readonly last: { readonly at: number; readonly status: number | null; readonly error: string | null } | null;
  readonly deliveries: { readonly pending: number; readonly delivered: number; readonly failed: number };
}

type HookRow = { id: string; url: string; types: string; secret: string; created_at: number; removed_at: number | null; cursor: number; last_at: number | null; last_status: number | null; last_error: string | null };
type DeliveryRow = { hook_id: string; seq: number; attempts: number; first_at: number };

/** The header value for `body` sent at `at` (ms). */
export function sign(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** A receiver's check: the signature is the hook's, over this body, made within `toleranceS` of `now`. */
export function verifySignature(secret: string, header: string, body: string, now: number = Date.now(), toleranceS = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceS || typeof parts.v1 !== 'string') return false;
  const want = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const got = Buffer.from(parts.v1);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Why a hook cannot be registered with this URL and these types, or null. */
export function hookProblem(url: string, types: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not a URL; give one like https://example.com/dice.`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `A webhook URL must be http or https, not ${parsed.protocol}`;
  if (types.length === 0) return `Name the event types the hook wants (or "*" for all): ${STREAM_EVENT_TYPES.join(', ')}.`;
  const bad = types.find((t) => t !== '*' && !(STREAM_EVENT_TYPES as readonly string[]).includes(t));
  return bad === undefined ? null : `'${bad}' is not an event type; the types are ${STREAM_EVENT_TYPES.join(', ')} (or "*").`;
}

export class Webhooks {
  private readonly opts: Required<Omit<WebhookOptions, 'userAgent'>> & { userAgent: string };
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<string>();
  private readonly flights = new Set<Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private queued = false;
  private closed = false;
  private readonly unsubscribe: () => void;
  private readonly idle = new Set<() => void>();
  private readonly dueRows: Database.Statement;
  /** The statements, prepared once. */
  private readonly sql: Record<'insertHook' | 'hook' | 'hooks' | 'removeHook' | 'dropOwed' | 'counts' | 'liveHooks' | 'queue' | 'moveCursor' | 'hookLast' | 'delivered' | 'failedTry' | 'dueCount' | 'nextDue', Database.Statement>;

  constructor(
    private readonly db: Database.Database,
    private readonly stream: EventStream,
    options: WebhookOptions = {},
  ) {
    this.opts = {
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      maxAgeMs: options.maxAgeMs ?? 3_600_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      concurrency: options.concurrency ?? 32,
      perHook: options.perHook ?? 8,
      now: options.now ?? Date.now,
      userAgent: options.userAgent ?? 'dice-tower',
    };
    this.sql = {
      insertHook: db.prepare('INSERT INTO webhooks (id, url, types, secret, created_at, cursor) VALUES (?, ?, ?, ?, ?, ?)'),
      hook: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
      hooks: db.prepare('SELECT * FROM webhooks ORDER BY created_at, id'),
      removeHook: db.prepare('UPDATE webhooks SET removed_at = coalesce(removed_at, ?) WHERE id = ?'),
      dropOwed: db.prepare("UPDATE webhook_deliveries SET state = 'failed', last_error = coalesce(last_error, 'hook removed') WHERE hook_id = ? AND state = 'pending'"),
      counts: db.prepare('SELECT state, count(*) AS n FROM webhook_deliveries WHERE hook_id = ? GROUP BY state'),
      liveHooks: db.prepare('SELECT * FROM webhooks WHERE removed_at IS NULL'),
      queue: db.prepare("INSERT OR IGNORE INTO webhook_deliveries (hook_id, seq, state, attempts, first_at, next_at) VALUES (?, ?, 'pending', 0, ?, ?)"),
      moveCursor: db.prepare('UPDATE webhooks SET cursor = ? WHERE id = ?'),
      hookLast: db.prepare('UPDATE webhooks SET last_at = ?, last_status = ?, last_error = ? WHERE id = ?'),
      delivered: db.prepare("UPDATE webhook_deliveries SET state = 'delivered', attempts = ?, last_status = ?, last_error = NULL WHERE hook_id = ? AND seq = ?"),
      failedTry: db.prepare('UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ? WHERE hook_id = ? AND seq = ?'),
      dueCount: db.prepare("SELECT count(*) FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ?").pluck(),
      nextDue: db.prepare("SELECT min(next_at) FROM webhook_deliveries WHERE state = 'pending' AND next_at > ?").pluck(),
    };
    this.dueRows = db.prepare(`
      SELECT hook_id, seq, attempts, first_at FROM (
        SELECT d.hook_id, d.seq, d.attempts, d.first_at, ROW_NUMBER() OVER (PARTITION BY d.hook_id ORDER BY d.seq) AS n
        FROM webhook_deliveries d JOIN webhooks h ON h.id = d.hook_id
        WHERE d.state = 'pending' AND d.next_at <= ? AND h.removed_at IS NULL
      ) WHERE n <= ? ORDER BY n, seq`);
    // Queued after the event is kept, on the next turn: the roll that made it does not wait for the queue either.
    this.unsubscribe = stream.subscribe(() => this.soon());
    this.soon();
  }

  add(url: string, types: readonly string[]): { hook: Webhook; secret: string } {
    const problem = hookProblem(url, types);
    if (problem) throw new TableError('webhooks/bad_hook', problem, 400);
    const id = randomBytes(6).toString('hex');
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    // From now on: a new hook gets the events that come after it, not the whole history.
    this.sql.insertHook.run(id, url, JSON.stringify([...new Set(types)]), secret, this.opts.now(), this.stream.head());
    return { hook: this.get(id), secret };
  }

  get(id: string): Webhook {
    const row = this.sql.hook.get(id) as HookRow | undefined;
    if (!row) throw new TableError('webhooks/not_found', `There is no webhook '${id}'; GET /api/webhooks lists them.`, 404);
    return this.view(row);
  }

  list(): Webhook[] {
    return (this.sql.hooks.all() as HookRow[]).map((r) => this.view(r));
  }

  /** Stops a hook (kept, marked removed, with its deliveries' record); what it was still owed is not sent. */
  remove(id: string): Webhook {
    this.get(id);
    this.sql.removeHook.run(this.opts.now(), id);
    this.sql.dropOwed.run(id);
    return this.get(id);
  }

  private view(r: HookRow): Webhook {
    const counts = Object.fromEntries(
      (this.sql.counts.all(r.id) as Array<{ state: string; n: number }>).map((c) => [c.state, c.n]),
    );
    return {
      id: r.id, url: r.url, types: JSON.parse(r.types) as string[], createdAt: r.created_at, removedAt: r.removed_at,
      last: r.last_at === null ? null : { at: r.last_at, status: r.last_status, error: r.last_error },
      deliveries: { pending: counts.pending ?? 0, delivered: counts.delivered ?? 0, failed: counts.failed ?? 0 },
    };
  }

  /** Resolves once nothing is queued, due or in flight (tests, shutdown). */
  settled(): Promise<void> {
    if (this.sending.size === 0 && !this.queued && this.dueCount() === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /**
   * Starts nothing more, and waits for the requests in flight so their outcome is kept (a graceful stop resends
   * nothing) — for 2 s at most: one still waiting on a slow receiver then is sent again after the restart.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...this.flights]), new Promise((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
  }

  /** The last events read, by seq: ten hooks deliver each event, read once. */
  private readonly recent = new Map<number, StreamEvent>();

  private event(seq: number): StreamEvent | undefined {
    const event = this.recent.get(seq) ?? this.stream.read(seq - 1, 1)[0];
    if (event) this.remember(event);
    return event;
  }

  private remember(event: StreamEvent): void {
    this.recent.set(event.seq, event);
    // Keeps the newest 1 000 (a Map iterates in insertion order).
    for (const old of this.recent.keys()) {
      if (this.recent.size <= 1000) break;
      this.recent.delete(old);
    }
  }

  private dueCount(): number {
    return this.sql.dueCount.get(this.opts.now()) as number;
  }

  private soon(): void {
    if (this.queued || this.closed) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      if (this.closed) return;
      try {
        this.enqueue();
        this.work();
      } catch {
        // The database refused (closing down): the cursor did not move, so the next start queues these again.
      }
    });
  }

  /** Queues, for every live hook, the events past its cursor that it wants; each hook in one transaction with its cursor. */
  private enqueue(): void {
    const hooks = this.sql.liveHooks.all() as HookRow[];
    const insert = this.sql.queue;
    const move = this.sql.moveCursor;
    // Hooks usually stand at the same cursor: each page is read once.
    const pages = new Map<number, StreamEvent[]>();
    for (const hook of hooks) {
      const types = new Set(JSON.parse(hook.types) as string[]);
      for (let cursor = hook.cursor; ; ) {
        let page = pages.get(cursor);
        if (!page) {
          page = this.stream.read(cursor, 500);
          pages.set(cursor, page);
          for (const e of page) this.remember(e);
        }
        if (page.length === 0) break;
        this.db.transaction(() => {
          for (const e of page) if (types.has('*') || types.has(e.type)) insert.run(hook.id, e.seq, e.at, this.opts.now());
          cursor = (page.at(-1) as StreamEvent).seq;
          move.run(cursor, hook.id);
        }).immediate();
      }
    }
  }

  /** Starts what is due, as far as the limits allow, and sets the timer for the next one due. */
  private work(): void {
    if (this.closed) return;
    const now = this.opts.now();
    const free = this.opts.concurrency - this.sending.size;
    if (free > 0) {
      // Each live hook's first `perHook` due deliveries (those in flight among them), its oldest first, then the next
      // hook's...: one hook's backlog (a dead receiver's) cannot fill the window and hold the other hooks back.
      const due = this.dueRows.all(now, this.opts.perHook) as DeliveryRow[];
      for (const d of due) {
        const key = `${d.hook_id}:${d.seq}`;
        if (this.sending.has(key) || (this.inFlight.get(d.hook_id) ?? 0) >= this.opts.perHook || this.sending.size >= this.opts.concurrency) continue;
        this.sending.add(key);
        this.inFlight.set(d.hook_id, (this.inFlight.get(d.hook_id) ?? 0) + 1);
        const flight: Promise<void> = this.deliver(d).finally(() => {
          this.flights.delete(flight);
          this.sending.delete(key);
          this.inFlight.set(d.hook_id, (this.inFlight.get(d.hook_id) ?? 1) - 1);
          this.work();
        });
        this.flights.add(flight);
      }
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.sql.nextDue.get(now) as number | null;
    if (next !== null) {
      this.timer = setTimeout(() => this.work(), Math.max(0, next - now));
      this.timer.unref();
    }
    if (this.sending.size === 0 && !this.queued && this.dueCount() === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async deliver(d: DeliveryRow): Promise<void> {
    const hook = this.sql.hook.get(d.hook_id) as HookRow | undefined;
    const event = this.event(d.seq);
    if (!hook || !event || event.seq !== d.seq) return;
    const body = envelopeText(event, PUBLIC);
    const attempt = d.attempts + 1;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': this.opts.userAgent,
          [SIGNATURE_HEADER]: sign(hook.secret, body, this.opts.now()),
          'x-dice-tower-event': event.type,
          'x-dice-tower-event-id': event.id,
          'x-dice-tower-seq': String(event.seq),
          'x-dice-tower-epoch': this.stream.epoch,
          'x-dice-tower-attempt': String(attempt),
        },
      });
      status = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (status < 200 || status >= 300) error = `answered ${status}`;
    } catch (err) {
      error = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : errorText(err);
    }
    const now = this.opts.now();
    try {
      this.db.transaction(() => {
        this.sql.hookLast.run(now, status, error, hook.id);
        if (error === null) {
          this.sql.delivered.run(attempt, status, hook.id, d.seq);
          return;
        }
        const nextAt = now + this.opts.backoff(attempt);
        const state = nextAt - d.first_at > this.opts.maxAgeMs ? 'failed' : 'pending';
        this.sql.failedTry.run(state, attempt, nextAt, status, error, hook.id, d.seq);
      })();
    } catch {
      // The database is closing: the delivery stays pending and is made again after the restart (at least once).
    }
  }
}
