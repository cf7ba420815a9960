/**
 * Benchmark: the rules engine. Bot-played games per second (the game's own
 * bot, seeded dice, no I/O) for Dice Poker, Yatzy, Mexico, Shut the Box, and
 * Las Vegas with every module on, as soon as it is registered.
 *
 * "Every module" is every boolean option switched on (neutral dice, big dice,
 * chasers, extra player dice...), with the first player count (4, 3, 2, 5...)
 * the game accepts with them.
 *
 *   npm run bench:rules [-- --seconds 3]
 */
import { findGame, type AnyGameDef } from '../../src/games/index.js';
import { SeededRandom } from '../../src/hardware/index.js';
import { playOne } from './bot-games.js';
import { numberFlag, printFigures, printTable, round } from './lib.js';

const seconds = numberFlag('seconds', 3);
const players = (n: number) => Array.from({ length: n }, (_, i) => `P${i + 1}`);

interface Case {
  readonly id: string;
  readonly def: AnyGameDef;
  readonly players: readonly string[];
  readonly options: Record<string, unknown>;
  readonly note: string;
}

function allModules(def: AnyGameDef): Case {
  const options = Object.fromEntries(def.optionSpecs.filter((o) => o.type === 'boolean').map((o) => [o.name, true]));
  for (const n of [4, 3, 2, 5, 6, 7, 8].filter((k) => k >= def.minPlayers && k <= def.maxPlayers)) {
    try {
      def.setup(players(n), options);
      return { id: def.id, def, players: players(n), options, note: `${n} players, on: ${Object.keys(options).join(', ')}` };
    } catch {
      // this player count does not go with every module: try the next
    }
  }
  throw new Error(`${def.id}: no player count accepts every module on (${Object.keys(options).join(', ')})`);
}

const cases: Case[] = [];
for (const id of ['dice-poker', 'yatzy', 'mexico', 'shut-the-box']) {
  const def = findGame(id);
  if (!def) throw new Error(`${id} is not registered`);
  cases.push({ id, def, players: players(2), options: {}, note: '2 players, default options' });
}
const lasVegas = findGame('las-vegas');
if (lasVegas) cases.push(allModules(lasVegas));

const figures: Array<{ game: string; gamesPerSecond: number; stepsPerGame: number; players: number; note: string }> = [];
for (const c of cases) {
  const rng = new SeededRandom(1);
  let played = 0;
  let steps = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    steps += playOne(c.def, c.players, rng, c.options);
    played++;
  }
  const rate = played / ((performance.now() - started) / 1000);
  figures.push({ game: c.id, gamesPerSecond: Math.round(rate), stepsPerGame: round(steps / played), players: c.players.length, note: c.note });
}
printTable(
  ['game', 'games/s', 'steps/game', 'setup'],
  figures.map((f) => [f.game, f.gamesPerSecond, f.stepsPerGame, f.note]),
);
if (!lasVegas) console.log("las-vegas is not registered in this tree (findGame('las-vegas') is null): not measured");
printFigures('rules', { secondsPerGame: seconds, games: figures, lasVegasRegistered: lasVegas !== null });
