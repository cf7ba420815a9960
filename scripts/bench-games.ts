/**
 * Benchmark: bot-played games per second for each game of the rules engine
 * (the game's own bot, seeded dice, default options, 2 players or the
 * minimum); then, for each game the coach has solved, the strong bot's
 * results against the coach's optimum (solitaire for one-player measures,
 * strong against strong for win probabilities, and strong against the simple
 * bot). Prints tables and, last, one JSON line of the figures.
 *
 *   npx tsx scripts/bench-games.ts [seconds-per-game=2] [game-id ...]
 */
import { actingSeat, findGame, GAMES, type AnyGameDef } from '../src/games/index.js';
import { SeededRandom } from '../src/hardware/index.js';
import { COACHES } from '../src/coach/index.js';
import { strongMove } from '../src/coach/strong-bot.js';
import type { AnyPolicy } from '../src/coach/library.js';
import { playGame, playOne, type Chooser } from './bench/bot-games.js';

const seconds = Number(process.argv[2] ?? 2);
const only = process.argv.slice(3);
const games = (Object.values(GAMES) as AnyGameDef[]).filter((g) => only.length === 0 || only.includes(g.id));

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

/** The strong bot in the seats given; the game's own bot elsewhere. Each move's time goes into `times` (ms): a hint's time. */
const strongIn = (def: AnyGameDef, policy: AnyPolicy, seats: readonly number[], times: number[] = []): Chooser => (state) => {
  const seat = actingSeat(def, state);
  if (seat === null || !seats.includes(seat)) return undefined;
  const started = performance.now();
  const move = strongMove(def, policy, state);
  times.push(performance.now() - started);
  return move !== null && 'outside' in move ? undefined : move;
};

const quantile = (xs: readonly number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

/** Mean and standard error. */
const meanSe = (xs: readonly number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, se: Math.sqrt(variance / xs.length) };
};

const strong: Record<string, Record<string, number>> = {};
console.log(`\n${'strong bot'.padEnd(14)} ${'measure'.padEnd(16)} ${'optimum'.padStart(10)} ${'strong bot'.padStart(18)} ${'games'.padStart(7)}  against the simple bot`);
for (const [id, coach] of Object.entries(COACHES)) {
  if (only.length > 0 && !only.includes(id)) continue;
  const def = findGame(id) as AnyGameDef;
  const options = def.defaultOptions as Record<string, unknown>;
  const solveStarted = performance.now();
  const policy = coach.restore(options, coach.solve(options));
  const solveSeconds = (performance.now() - solveStarted) / 1000;
  const twoPlayer = policy.measure === 'winProbability';
  // One-player measures: every seat plays alone on its own card (seats do not touch each other's), each a sample.
  const players = Array.from({ length: Math.max(twoPlayer ? 2 : 1, def.minPlayers) }, (_, i) => `P${i + 1}`);
  // A two-player solve of a game that takes more seats (Busted: 3 to 10) coaches its endgames only: no whole game to compare.
  // A one-turn measure (10 000) is checked turn by turn in the coach's tests, not against whole games.
  const comparable = policy.measure !== 'expectedTurnScore' && (!twoPlayer || players.length === 2);
  const rng = new SeededRandom(7);
  const outcomes: number[] = [];
  const times: number[] = [];
  const started = performance.now();
  while (comparable && (performance.now() - started < seconds * 1000 || outcomes.length < 20)) {
    const { state } = playGame(def, players, rng, options, strongIn(def, policy, players.map((_, i) => i), times));
    const result = def.result(state);
    if (!result) throw new Error(`${id}: the game did not end`);
    if (twoPlayer) outcomes.push(result.winners.includes(0) ? 1 : 0);
    else outcomes.push(...result.scores);
  }
  // Head to head: the strong bot in seat 0 against the game's own bot, for the share of games it wins.
  const duel: number[] = [];
  const duelStarted = performance.now();
  while (performance.now() - duelStarted < (seconds * 1000) / 2 || duel.length < 20) {
    const seats = ['Strong', ...players.slice(1).map((_, i) => `Simple ${i + 1}`)];
    const result = def.result(playGame(def, seats, rng, options, strongIn(def, policy, [0], times)).state);
    duel.push(result?.winners.length === 1 && result.winners[0] === 0 ? 1 : result?.winners.includes(0) ? 0.5 : 0);
  }
  const { mean, se } = meanSe(outcomes);
  const won = meanSe(duel);
  const hintMs = { p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: times.reduce((a, b) => Math.max(a, b), 0) };
  strong[id] = { optimum: policy.optimum, mean, se, games: outcomes.length, solveSeconds, winsAgainstSimple: won.mean, hintP99Ms: hintMs.p99, hintMaxMs: hintMs.max };
  const fmt = (x: number) => (twoPlayer ? x.toFixed(4) : x.toFixed(2));
  console.log(
    id.padEnd(14),
    policy.measure.padEnd(16),
    fmt(policy.optimum).padStart(10),
    (comparable ? `${fmt(mean)} ± ${fmt(1.96 * se)}` : twoPlayer ? 'endgames only' : 'per turn').padStart(18),
    String(outcomes.length).padStart(7),
    ` wins ${(100 * won.mean).toFixed(1)} % of ${duel.length}${players.length > 2 ? ` (${players.length} seats)` : ''}`,
    `; solved in ${solveSeconds.toFixed(1)} s; hint p50 ${hintMs.p50.toFixed(2)} ms, p99 ${hintMs.p99.toFixed(2)}, max ${hintMs.max.toFixed(2)}`,
  );
}
console.log(JSON.stringify({ gamesPerSecond: figures, players: 2, secondsPerGame: seconds, strongBot: strong }));
