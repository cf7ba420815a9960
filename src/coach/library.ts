/**
 * The coach's tables at run time: one policy per game and set of options,
 * solved on first use in a worker thread (so a roll never waits on a solve),
 * kept in memory and cached on disk in the data directory (`coach/`), so the
 * next start loads them in a moment. A damaged cache file is solved again.
 *
 * Bounded: one solve runs at a time (a big solve takes a core and up to 70 MiB; the
 * others queue behind it, first asked first solved), and the tables kept in
 * memory stay under a budget: past it the least recently used are dropped,
 * and loaded again from their cache file when asked for. A load never blocks
 * the server (the file is read and unzipped off the main thread; meanwhile the
 * status is `loading`), and a table without a cache file is never dropped: it
 * would have to be solved again, and two rulesets could re-solve each other forever.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { canonicalJson } from '../storage/canonical-json.js';
import { writeFileAtomic } from '../storage/atomic-file.js';
import type { AnyCoach } from './index.js';
import type { Policy, SolvedTables } from './types.js';
import { decodeTables, encodeTables, tablesBytes } from './table-file.js';
import type { SolveJob, SolveMessage } from './solve-job.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPolicy = Policy<any, { type: string }>;

export type CoachStatus =
  | { readonly state: 'ready'; readonly policy: AnyPolicy; readonly facts: SolvedTables['facts'] }
  /** Being read back from its cache file (a second or two for the biggest). */
  | { readonly state: 'loading' }
  /** `queued`: waiting for another solve to end (one runs at a time). */
  | { readonly state: 'solving'; readonly done: number; readonly total: number; readonly queued: boolean }
  /** No solver for the game, or none for these options: `reason` says which. */
  | { readonly state: 'unavailable'; readonly reason: string }
  | { readonly state: 'failed'; readonly reason: string };

export interface CoachLibraryOptions {
  /** The coaches by game id. */
  readonly coaches: Readonly<Record<string, AnyCoach>>;
  /** Where solved tables are cached (`<data dir>/coach`); null: memory only. */
  readonly cacheDir: string | null;
  /** Solve in a worker thread (default) or in this thread (the CLI, which has nothing else to do). */
  readonly inWorker?: boolean;
  /** Told of each solve's start, progress and end, for a progress line. */
  readonly onProgress?: (game: string, done: number, total: number) => void;
  /** Told when a cache file could not be used and the game is solved again. */
  readonly onWarning?: (message: string) => void;
  /** Bytes of tables kept in memory at most (default `DEFAULT_MEMORY_BUDGET`); the newest tables are kept even when alone above it. */
  readonly memoryBudget?: number;
}

/**
 * Room for every coached game's default tables together (83.0 MB, 79.2 MiB: Dice Poker 33.5 MB,
 * Busted 18.1, Yatzy 16.8, Mexico 14.5, the others a few KB) and one Yatzy-sized variant: a room
 * playing the default rules never drops and reloads (at 64 MiB they thrashed).
 */
export const DEFAULT_MEMORY_BUDGET = 96 * 1024 * 1024;

/** The tables kept in memory: how many, their bytes, the budget, and their keys, least recently used first. */
export interface CoachMemory {
  readonly tables: number;
  readonly bytes: number;
  readonly budget: number;
  readonly kept: readonly string[];
}

interface Entry {
  status: CoachStatus;
  readonly waiting: Array<(status: CoachStatus) => void>;
  worker?: Worker;
  /** Bytes of its tables, once ready. */
  bytes: number;
  /** Its tables are in a cache file they can be loaded again from (else it is never dropped). */
  cached: boolean;
}

/** A solve waiting for the worker. */
interface QueuedSolve {
  readonly game: string;
  readonly key: string;
  readonly options: unknown;
  readonly entry: Entry;
}

export class CoachLibrary {
  /** Entries in order of last use, least recent first (a used entry is moved to the end). */
  private readonly entries = new Map<string, Entry>();
  private readonly queue: QueuedSolve[] = [];
  private running: Entry | null = null;
  private closed = false;

  constructor(private readonly options: CoachLibraryOptions) {}

  /** The tables kept in memory now. */
  memory(): CoachMemory {
    const ready = [...this.entries].filter(([, e]) => e.status.state === 'ready');
    return { tables: ready.length, bytes: ready.reduce((sum, [, e]) => sum + e.bytes, 0), budget: this.budget(), kept: ready.map(([key]) => key) };
  }

  private budget(): number {
    return this.options.memoryBudget ?? DEFAULT_MEMORY_BUDGET;
  }

  /** The games that have a coach. */
  games(): string[] {
    return Object.keys(this.options.coaches);
  }

  /** Why these options of `game` cannot be coached, or null when they can. */
  unavailable(game: string, options: unknown): string | null {
    const coach = this.options.coaches[game];
    if (!coach) return `The coach has no solver for ${game}.`;
    return coach.unsupported(options);
  }

  /**
   * Where the policy for `game` with `options` stands now. Starts the solve
   * (or the load from the cache) when it is not there yet; never waits, nor blocks.
   */
  status(game: string, options: unknown): CoachStatus {
    const reason = this.unavailable(game, options);
    if (reason) return { state: 'unavailable', reason };
    return this.entry(game, options).status;
  }

  /** The policy, once solved or loaded; rejects with the reason when there can be none. */
  async policy(game: string, options: unknown): Promise<AnyPolicy> {
    const now = this.status(game, options);
    const pending = now.state === 'solving' || now.state === 'loading';
    const done = pending ? await new Promise<CoachStatus>((resolve) => this.entry(game, options).waiting.push(resolve)) : now;
    if (done.state === 'ready') return done.policy;
    throw new Error(done.state === 'solving' || done.state === 'loading' ? 'The coach was closed while solving.' : done.reason);
  }

  /** Stops the running solve and drops the queued ones (at shutdown). */
  close(): void {
    this.closed = true;
    for (const { entry } of this.queue.splice(0)) this.settle(entry, { state: 'failed', reason: 'The coach was closed before this solve began.' });
    for (const entry of this.entries.values()) void entry.worker?.terminate();
  }

  private keyOf(game: string, options: unknown): string {
    const coach = this.options.coaches[game] as AnyCoach;
    const relevant = coach.tableKey ? coach.tableKey(options) : options;
    return `${game}-${createHash('sha256').update(canonicalJson([coach.tablesVersion ?? 1, relevant])).digest('hex').slice(0, 16)}`;
  }

  private entry(game: string, options: unknown): Entry {
    const key = this.keyOf(game, options);
    const known = this.entries.get(key);
    if (known) {
      // Used now: to the end of the order, the last to be dropped.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    // After close (shutdown) nothing new is started.
    if (this.closed) return { status: { state: 'failed', reason: 'The coach is closed.' }, waiting: [], bytes: 0, cached: false };
    const entry: Entry = { status: { state: 'loading' }, waiting: [], bytes: 0, cached: false };
    this.entries.set(key, entry);
    const file = this.file(key);
    if (file && existsSync(file)) void this.load(game, key, options, entry, file);
    else this.solve(game, key, options, entry);
    return entry;
  }

  /** Solves now, in this thread or the worker, or queues the solve behind the running one. */
  private solve(game: string, key: string, options: unknown, entry: Entry): void {
    if (this.closed) return this.settle(entry, { state: 'failed', reason: 'The coach was closed before this solve began.' });
    const queued = this.options.inWorker !== false && this.running !== null;
    entry.status = { state: 'solving', done: 0, total: 1, queued };
    if (this.options.inWorker === false) this.solveHere(game, key, options, entry);
    else if (queued) this.queue.push({ game, key, options, entry });
    else this.solveInWorker(game, key, options, entry);
  }

  /** The next queued solve, once the running one has ended. */
  private next(): void {
    this.running = null;
    const job = this.queue.shift();
    if (job && !this.closed) this.solveInWorker(job.game, job.key, job.options, job.entry);
  }

  /** Drops the least recently used tables until those kept fit the budget; `keep` (the newest) stays. */
  private trim(keep: Entry): void {
    const budget = this.budget();
    let bytes = this.memory().bytes;
    for (const [key, entry] of this.entries) {
      if (bytes <= budget) return;
      if (entry === keep || entry.status.state !== 'ready' || !entry.cached) continue;
      this.entries.delete(key);
      bytes -= entry.bytes;
    }
  }

  private file(key: string): string | null {
    return this.options.cacheDir ? join(this.options.cacheDir, `${key}.tables.gz`) : null;
  }

  /** Loads the tables from their cache file into `entry`, or solves again when the file cannot be used. */
  private async load(game: string, key: string, options: unknown, entry: Entry, file: string): Promise<void> {
    // Nobody awaits this: anything unforeseen is a file that cannot be used, never an unhandled rejection.
    const loaded = await this.fromCache(game, key, options, entry, file).catch((err: unknown) => {
      this.options.onWarning?.(`coach: ${file} cannot be used: ${err instanceof Error ? err.message : String(err)}; solving ${game} again`);
      return null;
    });
    if (loaded) {
      entry.cached = true;
      this.settle(entry, loaded);
    } else this.solve(game, key, options, entry);
  }

  private async fromCache(game: string, key: string, options: unknown, entry: Entry, file: string): Promise<CoachStatus | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.options.onWarning?.(`coach: cannot read ${file} (${(err as Error).message}); solving ${game} again`);
      return null;
    }
    const tables = await decodeTables(bytes, game, key);
    if ('problem' in tables) {
      this.options.onWarning?.(`coach: ${file} cannot be used: ${tables.problem}; solving ${game} again`);
      return null;
    }
    try {
      return this.ready(game, options, tables, entry);
    } catch (err) {
      // Tables of another layout under the same key (a solver changed without its tablesVersion): solve again.
      this.options.onWarning?.(`coach: ${file} cannot be used: ${(err as Error).message}; solving ${game} again`);
      return null;
    }
  }

  /** Rebuilds the policy from its tables into `entry` (throws when the tables do not fit the solver). */
  private ready(game: string, options: unknown, tables: SolvedTables, entry: Entry): CoachStatus {
    const coach = this.options.coaches[game] as AnyCoach;
    const status: CoachStatus = { state: 'ready', policy: coach.restore(options, tables), facts: tables.facts };
    entry.bytes = tablesBytes(tables);
    return status;
  }

  /**
   * Keeps the tables (`bytes`: the cache file, encoded in the worker so the main thread does not gzip 30 MB)
   * and serves them. Throws when the solver cannot rebuild its policy from them; nothing is cached then.
   */
  private solved(game: string, key: string, options: unknown, tables: SolvedTables, entry: Entry, bytes?: Uint8Array): void {
    const status = this.ready(game, options, tables, entry);
    const file = this.file(key);
    if (file) {
      try {
        writeFileAtomic(file, bytes ?? encodeTables(game, key, tables));
        entry.cached = true;
      } catch (err) {
        // Not fatal: the tables are in memory (and stay there: never dropped without a file); the next start solves again.
        this.options.onWarning?.(`coach: cannot cache ${game}'s tables in ${file}: ${(err as Error).message}`);
      }
    }
    this.settle(entry, status);
  }

  private settle(entry: Entry, status: CoachStatus): void {
    entry.status = status;
    delete entry.worker;
    if (status.state === 'ready') this.trim(entry);
    for (const resolve of entry.waiting.splice(0)) resolve(status);
  }

  private solveHere(game: string, key: string, options: unknown, entry: Entry): void {
    const coach = this.options.coaches[game] as AnyCoach;
    try {
      const tables = coach.solve(options, (done, total) => {
        entry.status = { state: 'solving', done, total, queued: false };
        this.options.onProgress?.(game, done, total);
      });
      this.solved(game, key, options, tables, entry);
    } catch (err) {
      this.settle(entry, { state: 'failed', reason: `The ${game} solve failed: ${(err as Error).message}` });
    }
  }

  private solveInWorker(game: string, key: string, options: unknown, entry: Entry): void {
    const worker = new Worker(new URL('./solve-worker.js', import.meta.url), { workerData: { game, key, options, encode: this.options.cacheDir !== null } satisfies SolveJob });
    entry.worker = worker;
    this.running = entry;
    let finished = false;
    worker.on('message', (message: SolveMessage) => {
      if (message.type === 'progress') {
        entry.status = { state: 'solving', done: message.done, total: message.total, queued: false };
        this.options.onProgress?.(game, message.done, message.total);
      } else if (message.type === 'solved') {
        void worker.terminate();
        try {
          this.solved(game, key, options, message.tables, entry, message.file ?? undefined);
        } catch (err) {
          // Tables the solver cannot rebuild its policy from: a failed solve like any other, so those waiting hear of it and the queue goes on.
          failed(`The ${game} solve's tables could not be used: ${(err as Error).message}`);
          return;
        }
        finished = true;
        this.next();
      } else failed(`The ${game} solve failed: ${message.message}`);
    });
    // A solve that failed or died (out of memory, terminated) is told to those waiting; a later request tries again.
    const failed = (reason: string) => {
      if (finished) return;
      finished = true;
      if (this.entries.get(key) === entry) this.entries.delete(key);
      this.settle(entry, { state: 'failed', reason });
      this.next();
    };
    worker.on('error', (err) => failed(`The ${game} solve failed: ${err.message}`));
    worker.on('exit', () => failed(`The ${game} solve stopped before the end.`));
  }
}
