/** `dice-tower solve <game>`: the coach's optimum for a game and its options, as JSON. */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { findGame } from './games/index.js';
import { COACHES } from './coach/index.js';
import { CoachLibrary } from './coach/library.js';
import { errorText } from './error-text.js';

export const SOLVE_USAGE = `  solve GAME   The coach's exact solution of a game (${Object.keys(COACHES).join(', ')}):
               prints JSON with the optimum (expected score, or the
               probability), what it measures, the table's facts and the
               seconds taken; the tables are kept in DIR/coach for the server
               --options JSON     The game's options (default: its defaults)
               --data DIR         [DICE_TOWER_DATA] (default ./data)
`;

export async function solveCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { options: { type: 'string' }, data: { type: 'string' } }, allowPositionals: true, strict: true });
  const [gameId, ...extra] = positionals;
  if (!gameId || extra.length > 0) throw new Error(`solve takes one game: dice-tower solve <game>; the coach knows ${Object.keys(COACHES).join(', ')}`);
  const def = findGame(gameId);
  if (!def) throw new Error(`there is no game called '${gameId}'`);
  if (!COACHES[gameId]) throw new Error(`the coach has no solver for ${def.name}; it knows ${Object.keys(COACHES).join(', ')}`);
  let given: Record<string, unknown> = {};
  if (values.options !== undefined) {
    try {
      given = JSON.parse(values.options) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`--options is not JSON: ${errorText(err)}`);
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error('--options must be a JSON object, e.g. {"maxThrows":4}');
  }
  // The game's own setup checks the options (names, types, ranges) and says what is wrong.
  const seats = Array.from({ length: Math.max(def.minPlayers, 1) }, (_, i) => `P${i + 1}`);
  def.setup(seats, given);
  const options = { ...def.defaultOptions, ...given };
  const dataDir = values.data ?? process.env.DICE_TOWER_DATA ?? 'data';
  const library = new CoachLibrary({
    coaches: COACHES,
    cacheDir: join(dataDir, 'coach'),
    inWorker: false,
    onProgress: (_game, done, total) => process.stderr.write(`\rsolving ${gameId}: ${total > 0 ? Math.floor((100 * done) / total) : 0} %`),
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  const started = performance.now();
  const reason = library.unavailable(gameId, options);
  if (reason) throw new Error(reason);
  await library.policy(gameId, options);
  const status = library.status(gameId, options);
  process.stderr.write('\n');
  if (status.state !== 'ready') throw new Error(status.state === 'failed' || status.state === 'unavailable' ? status.reason : 'the solve did not finish');
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  process.stdout.write(`${JSON.stringify({ game: gameId, options, measure: status.policy.measure, optimum: status.policy.optimum, facts: status.facts, seconds }, null, 2)}\n`);
  return 0;
}
