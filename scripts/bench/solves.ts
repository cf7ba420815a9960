/**
 * The coach's solves: for each game's default options, the solve's time, the
 * process's peak resident memory, the tables' size in memory and as a cache
 * file (gzipped). Each game solves in a process of its own (`--one GAME`), so
 * its peak memory is its own.
 *
 *   npm run bench:solves [-- GAME ...]      (default: every coached game)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COACHES, findCoach } from '../../src/coach/index.js';
import { encodeTables, tablesBytes } from '../../src/coach/table-file.js';
import { findGame } from '../../src/games/index.js';
import { printFigures, printTable, round } from './lib.js';

interface SolveFigures {
  readonly game: string;
  readonly seconds: number;
  readonly peakMiB: number;
  readonly tableMB: number;
  readonly fileMB: number;
  readonly optimum: number;
}

/** Solves `game` here and prints its figures as one JSON line. */
function solveOne(game: string): void {
  const coach = findCoach(game);
  const def = findGame(game);
  if (!coach || !def) throw new Error(`No coached game '${game}'; the coached games are ${Object.keys(COACHES).join(', ')}.`);
  const options = def.defaultOptions;
  const began = performance.now();
  const tables = coach.solve(options);
  const seconds = (performance.now() - began) / 1000;
  const bytes = tablesBytes(tables);
  const file = encodeTables(game, 'bench', tables).length;
  const figures: SolveFigures = {
    game,
    seconds: round(seconds, 2),
    // maxRSS is in KiB.
    peakMiB: round(process.resourceUsage().maxRSS / 1024, 0),
    tableMB: round(bytes / 1e6, 2),
    fileMB: round(file / 1e6, 2),
    optimum: coach.restore(options, tables).optimum,
  };
  console.log(JSON.stringify(figures));
}

const argv = process.argv.slice(2);
if (argv[0] === '--one') solveOne(argv[1] ?? '');
else {
  const games = argv.length > 0 ? argv : Object.keys(COACHES);
  const self = fileURLToPath(import.meta.url);
  const results = games.map((game) => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--one', game], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as SolveFigures;
  });
  printTable(
    ['game (default options)', 'solve s', 'peak RSS MiB', 'tables MB', 'cache file MB', 'optimum'],
    results.map((r) => [r.game, r.seconds, r.peakMiB, r.tableMB, r.fileMB, round(r.optimum, 6)]),
  );
  printFigures('solves', { solves: results });
}
