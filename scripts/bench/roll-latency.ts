/**
 * Benchmark: roll latency, from the last still frame (the camera capture the
 * roll is read from) to the result arriving at a WebSocket client.
 *
 * The whole server runs in this process as `dice-tower serve` builds it: the
 * simulated tower (no roll delay), the real dice reader, the table writing to
 * a SQLite store in a temporary data directory (fsync on every event, frames
 * saved), the Fastify app listening on loopback. A real WebSocket client (the
 * `ws` package, over TCP) subscribes to /ws. Each roll is timed from the
 * moment the camera's capture resolves to the moment the client has the
 * change carrying that roll (a `game` message, or a `patch` applied). Decisions between rolls (holds, scores)
 * are the game's bot's and are not timed.
 *
 *   npm run bench:roll [-- --rolls 1000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildApp } from '../../src/api/app.js';
import { liveGames } from '../../src/api/public/view-patch.js';
import { SeededRandom, createSimulator, type Camera } from '../../src/hardware/index.js';
import { openStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader, type DiceReader } from '../../src/vision/index.js';
import { numberFlag, printFigures, printTable, quantile, round } from './lib.js';

const rolls = numberFlag('rolls', 1000);
const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-bench-roll-'));
const sim = createSimulator({ seed: 11, colours: ['red'] });

let capturedAt = 0;
const camera: Camera = {
  async capture() {
    const frame = await sim.camera.capture();
    capturedAt = performance.now(); // the last still frame of this roll (a re-roll replaces it)
    return frame;
  },
};
let readMs = 0;
const baseReader = createDiceReader();
const reader: DiceReader = {
  async read(frame, expected) {
    const started = performance.now();
    const reading = await baseReader.read(frame, expected);
    readMs = performance.now() - started;
    return reading;
  },
};
const store = openStore(dataDir);
const table = new Table({ tower: sim.tower, camera, reader, store, botDelayMs: 0 });
const app = buildApp({ table, version: 'bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };

const client = new WebSocket(`ws://127.0.0.1:${port}/ws`);
let waiting: { id: string; rollCount: number; resolve: (at: number) => void } | null = null;
/** The games as the client holds them: whole views, and patches applied (the page's own code). */
const live = liveGames();
client.on('message', (data) => {
  const { game, resync } = live.take(JSON.parse(String(data)) as { type: string });
  if (resync) client.send(JSON.stringify({ type: 'resync', game: resync }));
  if (waiting && game?.id === waiting.id && game.rollCount === waiting.rollCount) {
    const w = waiting;
    waiting = null;
    w.resolve(performance.now());
  }
});
await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));

const totalMs: number[] = [];
const readTimes: number[] = [];
const afterReadMs: number[] = [];
let attemptsOver1 = 0;
const bot = new SeededRandom(5);
let game = table.create('dice-poker', ['Ann', 'Bob']);
let games = 1;
const started = performance.now();
while (totalMs.length < rolls) {
  const def = table.definition(game);
  if (def.result(game.state)) {
    game = table.create('dice-poker', ['Ann', 'Bob']);
    games++;
    continue;
  }
  const choice = def.bot(game.state, () => bot.next());
  if (choice) {
    game = table.act(game.id, choice);
    continue;
  }
  const arrived = new Promise<number>((resolve) => (waiting = { id: game.id, rollCount: game.rolls.length + 1, resolve }));
  game = await table.roll(game.id);
  const at = await arrived;
  totalMs.push(at - capturedAt);
  readTimes.push(readMs);
  afterReadMs.push(at - capturedAt - readMs);
  if ((game.rolls.at(-1)?.attempts ?? 1) > 1) attemptsOver1++;
}
const seconds = (performance.now() - started) / 1000;
client.close();
await app.close();
store.close();
rmSync(dataDir, { recursive: true, force: true });

const figures = {
  rolls: totalMs.length,
  games,
  msMedian: round(quantile(totalMs, 0.5)),
  msP99: round(quantile(totalMs, 0.99)),
  msMax: round(Math.max(...totalMs)),
  readMsMedian: round(quantile(readTimes, 0.5)),
  readMsP99: round(quantile(readTimes, 0.99)),
  afterReadMsMedian: round(quantile(afterReadMs, 0.5)),
  afterReadMsP99: round(quantile(afterReadMs, 0.99)),
  rollsReRolled: attemptsOver1,
  wallSeconds: round(seconds),
};
console.log(`Roll latency over ${figures.rolls} simulated rolls (${games} games of Dice Poker), last still frame -> WebSocket client`);
printTable(
  ['part', 'median ms', 'p99 ms'],
  [
    ['capture -> client has the result', figures.msMedian, figures.msP99],
    ['  of which: decode + read dice', figures.readMsMedian, figures.readMsP99],
    ['  of which: apply, store (fsync), WebSocket', figures.afterReadMsMedian, figures.afterReadMsP99],
  ],
);
console.log(`re-rolled (unreadable first frame): ${attemptsOver1}; wall time ${figures.wallSeconds} s`);
printFigures('roll-latency', figures);
