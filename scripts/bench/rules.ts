/**
 * Benchmark: the rules engine. Bot-played games per second (the game's own
 * bot, seeded dice, no I/O) for Dice Poker, Yatzy, Mexico, Shut the Box, and
 * Las Vegas with every module on, as soon as it is registered.
 *
 * "Every module" is every expansion switched on (neutral, big and chaser dice,
 * $100,000 and colourful bills, slot machine, bonus and action cards, the
 * minimum stake by players), 3 players, as in scripts/bench-las-vegas.ts.
 *
 *   npm run bench:rules [-- --seconds 3]
 */
import { findGame, type AnyGameDef } from '../../src/games/index.js';
import { ALL_MODULES } from '../../src/games/las-vegas.js';
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

/** Every Las Vegas module (the same set as scripts/bench-las-vegas.ts): the expansions, not the rule variants. */

const cases: Case[] = [];
for (const id of ['dice-poker', 'yatzy', 'mexico', 'shut-the-box']) {
  const def = findGame(id);
  if (!def) throw new Error(`${id} is not registered`);
  cases.push({ id, def, players: players(2), options: {}, note: '2 players, default options' });
}
const lasVegas = findGame('las-vegas');
if (lasVegas) {
  lasVegas.setup(players(3), ALL_MODULES); // refuses an option it does not know
  cases.push({ id: 'las-vegas', def: lasVegas, players: players(3), options: ALL_MODULES, note: `3 players, every module (${Object.keys(ALL_MODULES).join(', ')})` });
}

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
