/**
 * Benchmark of Las Vegas: how often its bot beats players choosing at random
 * among the legal actions (cards included), and how many games a second the
 * engine plays. One bot seat against random seats, the bot's seat rotating;
 * seeded dice. A shared first place counts as a win. Prints a table and,
 * last, one JSON line of the figures.
 *
 *   npx tsx scripts/bench-las-vegas.ts [games=1000] [players=3]
 */
import { isInvalid } from '../src/games/index.js';
import { ALL_MODULES, lasVegas, type LasVegasAction, type LasVegasOptions, type LasVegasState } from '../src/games/las-vegas.js';
import { SeededRandom } from '../src/hardware/index.js';

const games = Number(process.argv[2] ?? 1000);
const seats = Number(process.argv[3] ?? 3);


type Player = 'bot' | 'random';

/** Plays one game; returns the result and the number of steps. */
function play(players: readonly Player[], options: Partial<LasVegasOptions>, rng: SeededRandom): { winners: readonly number[]; steps: number } {
  const random = () => rng.next();
  let state: LasVegasState = lasVegas.setup(players.map((_, i) => `P${i + 1}`), { ...options, deckSeed: rng.int(0, 2 ** 31 - 1) });
  let steps = 0;
  for (;;) {
    const result = lasVegas.result(state);
    if (result) return { winners: result.winners, steps };
    const request = lasVegas.diceRequest(state);
    let choice: LasVegasAction | null;
    if (players[state.current] === 'bot') choice = lasVegas.bot(state, random);
    else {
      const legal = lasVegas.legalActions(state);
      const pick = Math.floor(random() * (legal.length + (request ? 1 : 0)));
      choice = legal[pick] ?? null;
    }
    const action: LasVegasAction = choice ?? { type: 'roll', values: Array.from({ length: request?.count ?? 0 }, () => rng.int(1, 6)) };
    const next = lasVegas.apply(state, action);
    if (isInvalid(next)) throw new Error(`refused ${JSON.stringify(action)}: ${next.message}`);
    state = next;
    steps++;
  }
}

/** The bot's share of wins against random seats over `n` games, its seat rotating. */
function winRate(n: number, players: number, options: Partial<LasVegasOptions>): { rate: number; gamesPerSecond: number } {
  const rng = new SeededRandom(7);
  let wins = 0;
  const started = performance.now();
  for (let g = 0; g < n; g++) {
    const seat = g % players;
    const lineup = Array.from({ length: players }, (_, i): Player => (i === seat ? 'bot' : 'random'));
    if (play(lineup, options, rng).winners.includes(seat)) wins++;
  }
  return { rate: wins / n, gamesPerSecond: n / ((performance.now() - started) / 1000) };
}

/** Games a second with every seat a bot. */
function throughput(n: number, players: number, options: Partial<LasVegasOptions>): { gamesPerSecond: number; steps: number } {
  const rng = new SeededRandom(11);
  let steps = 0;
  const started = performance.now();
  for (let g = 0; g < n; g++) steps += play(Array<Player>(players).fill('bot'), options, rng).steps;
  return { gamesPerSecond: n / ((performance.now() - started) / 1000), steps: steps / n };
}

const setups: Array<{ label: string; options: Partial<LasVegasOptions>; players: number }> = [
  { label: 'all modules', options: ALL_MODULES, players: seats },
  { label: 'base game', options: {}, players: seats },
  { label: 'secret colours', options: { mode: 'secretColours' }, players: seats },
];

const figures: Record<string, { botWinRate: number; randomShare: number; gamesPerSecondBots: number; gamesPerSecondVsRandom: number; stepsPerGame: number }> = {};
console.log('setup'.padEnd(16), 'bot wins'.padStart(9), 'random share'.padStart(13), 'games/s bots'.padStart(13), 'games/s vs random'.padStart(18), 'steps/game'.padStart(11));
for (const { label, options, players } of setups) {
  const win = winRate(games, players, options);
  const speed = throughput(Math.max(100, Math.floor(games / 2)), players, options);
  figures[label] = {
    botWinRate: Math.round(win.rate * 1000) / 1000,
    randomShare: Math.round((1 / players) * 1000) / 1000,
    gamesPerSecondBots: Math.round(speed.gamesPerSecond),
    gamesPerSecondVsRandom: Math.round(win.gamesPerSecond),
    stepsPerGame: Math.round(speed.steps),
  };
  const f = figures[label];
  console.log(label.padEnd(16), `${(win.rate * 100).toFixed(1)}%`.padStart(9), `${(100 / players).toFixed(1)}%`.padStart(13), String(f.gamesPerSecondBots).padStart(13), String(f.gamesPerSecondVsRandom).padStart(18), String(f.stepsPerGame).padStart(11));
}
// Solo: the bot against the seven other colours (no opponents to choose at random), and a random solo player.
const solo = (mode: Player): number => {
  const rng = new SeededRandom(3);
  let won = 0;
  for (let g = 0; g < games; g++) if (play([mode], { mode: 'solo' }, rng).winners.length > 0) won++;
  return won / games;
};
const soloBot = solo('bot');
const soloRandom = solo('random');
console.log(`solo: the bot wins ${(soloBot * 100).toFixed(1)}% of games, a random player ${(soloRandom * 100).toFixed(1)}%`);
console.log(JSON.stringify({ games, players: seats, figures, solo: { botWinRate: soloBot, randomWinRate: soloRandom } }));
