/**
 * The solve run in a worker thread (library.ts): solves one game for one set
 * of options, reporting progress, and hands the tables back without copying.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findCoach } from './index.js';
import { encodeTables } from './table-file.js';

export interface SolveJob {
  readonly game: string;
  /** The cache key, for the file's header. */
  readonly key: string;
  readonly options: unknown;
  /** Encode the cache file here too (gzip of up to 30 MB: not on the main thread). */
  readonly encode: boolean;
}

export type SolveMessage =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly type: 'solved'; readonly tables: import('./types.js').SolvedTables; readonly file: Uint8Array | null }
  | { readonly type: 'failed'; readonly message: string };

const job = workerData as SolveJob;
const port = parentPort;
if (!port) throw new Error('solve-job.ts runs in a worker thread');
try {
  const coach = findCoach(job.game);
  if (!coach) throw new Error(`The coach has no solver for ${job.game}`);
  let last = 0;
  const tables = coach.solve(job.options, (done, total) => {
    // A progress message at most every 200 ms: the solve is the point.
    const now = Date.now();
    if (now - last < 200 && done < total) return;
    last = now;
    port.postMessage({ type: 'progress', done, total } satisfies SolveMessage);
  });
  const file = job.encode ? encodeTables(job.game, job.key, tables) : null;
  const buffers = [...new Set([...Object.values(tables.arrays).map((a) => a.buffer as ArrayBuffer), ...(file ? [file.buffer as ArrayBuffer] : [])])];
  port.postMessage({ type: 'solved', tables, file } satisfies SolveMessage, buffers);
} catch (err) {
  port.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies SolveMessage);
}
