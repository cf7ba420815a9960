/**
 * The coach's memory as the server meets it, through `CoachLibrary`: a solve in
 * its worker thread (the process's peak resident memory above its start), then,
 * in a fresh process, the tables read back from the cache file the solve wrote
 * (the peak again, and the event loop's longest stall meanwhile: the server's
 * rolls and feed wait that long at most). Each step in a process of its own, so
 * each peak is its own.
 *
 *   npm run bench:library-memory [-- GAME]     (default: dice-poker, the biggest table)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { COACHES } from '../../src/coach/index.js';
import { CoachLibrary } from '../../src/coach/library.js';
import { findGame } from '../../src/games/index.js';
import { printFigures, printTable, round } from './lib.js';

interface StepFigures {
  readonly step: 'solve' | 'reload';
  readonly seconds: number;
  readonly startMiB: number;
  readonly peakMiB: number;
  readonly tableMB: number;
  readonly longestStallMs: number;
}

const MiB = 1024 * 1024;

/** Solves (or reloads) `game`'s default rules through a library caching in `cacheDir`, and prints the figures as one JSON line. */
async function step(kind: StepFigures['step'], game: string, cacheDir: string): Promise<void> {
  const def = findGame(game);
  if (!def || !(game in COACHES)) throw new Error(`No coached game '${game}'; the coached games are ${Object.keys(COACHES).join(', ')}.`);
  const startMiB = process.memoryUsage().rss / MiB;
  const library = new CoachLibrary({ coaches: COACHES, cacheDir });
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  const began = performance.now();
  const first = library.status(game, def.defaultOptions).state;
  if ((kind === 'reload') !== (first === 'loading')) throw new Error(`${kind}: the library began with '${first}'`);
  await library.policy(game, def.defaultOptions);
  const seconds = (performance.now() - began) / 1000;
  stalls.disable();
  const figures: StepFigures = {
    step: kind,
    seconds: round(seconds, 2),
    startMiB: round(startMiB, 0),
    // maxRSS is in KiB; it counts the worker thread too (same process).
    peakMiB: round(process.resourceUsage().maxRSS / 1024, 0),
    tableMB: round(library.memory().bytes / 1e6, 2),
    longestStallMs: round(stalls.max / 1e6, 0),
  };
  library.close();
  console.log(JSON.stringify(figures));
}

const argv = process.argv.slice(2);
if (argv[0] === '--step') await step(argv[1] as StepFigures['step'], argv[2] ?? '', argv[3] ?? '');
else {
  const game = argv[0] ?? 'dice-poker';
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-library-memory-'));
  const self = fileURLToPath(import.meta.url);
  try {
    const results = (['solve', 'reload'] as const).map((kind) => {
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--step', kind, game, dir], { encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as StepFigures;
    });
    printTable(
      [`${game} (default options), through CoachLibrary`, 's', 'start RSS MiB', 'peak RSS MiB', 'added MiB', 'tables MB', 'longest event-loop stall ms'],
      results.map((r) => [r.step, r.seconds, r.startMiB, r.peakMiB, r.peakMiB - r.startMiB, r.tableMB, r.longestStallMs]),
    );
    printFigures('library-memory', { game, steps: results });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
