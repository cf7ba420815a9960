/**
 * Benchmark: bot-played games per second for each game of the rules engine
 * (the game's own bot, seeded dice, default options, 2 players or the
 * minimum). Prints a table and, last, one JSON line of the figures.
 *
 *   npx tsx scripts/bench-games.ts [seconds-per-game=2] [game-id ...]
 */
import { GAMES, isInvalid, type AnyGameDef } from '../src/games/index.js';
import { SeededRandom } from '../src/hardware/index.js';

const seconds = Number(process.argv[2] ?? 2);
const only = process.argv.slice(3);
const games = (Object.values(GAMES) as AnyGameDef[]).filter((g) => only.length === 0 || only.includes(g.id));

function playOne(def: AnyGameDef, players: string[], rng: SeededRandom): number {
  let state = def.setup(players);
  let steps = 0;
  while (!def.result(state)) {
    const choice = def.bot(state, () => rng.next());
    const request = def.diceRequest(state);
    const action = choice ?? { type: 'roll', values: Array.from({ length: request?.count ?? 0 }, () => rng.int(1, 6)) };
    const next = def.apply(state, action);
    if (isInvalid(next)) throw new Error(`${def.id}: ${next.message}`);
    state = next;
    steps++;
  }
  return steps;
}

const figures: Record<string, number> = {};
console.log('game'.padEnd(18), 'games/s'.padStart(10), 'steps/game'.padStart(11));
for (const def of games) {
  const range = def.playerRange ? def.playerRange(def.defaultOptions) : { min: def.minPlayers, max: def.maxPlayers };
  const players = Array.from({ length: Math.max(range.min, Math.min(2, range.max)) }, (_, i) => `P${i + 1}`);
  const rng = new SeededRandom(1);
  let played = 0;
  let steps = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    steps += playOne(def, players, rng);
    played++;
  }
  const rate = played / ((performance.now() - started) / 1000);
  figures[def.id] = Math.round(rate);
  console.log(def.id.padEnd(18), rate.toFixed(0).padStart(10), (steps / played).toFixed(0).padStart(11));
}
console.log(JSON.stringify({ gamesPerSecond: figures, players: 2, secondsPerGame: seconds }));
