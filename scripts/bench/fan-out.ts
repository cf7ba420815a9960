/**
 * Benchmark: fan-out to many scoreboards. The server (the app and table as
 * `dice-tower serve` builds them, simulated tower, real reader, SQLite store)
 * runs in this process; a SEPARATE process (fan-out-clients.ts) opens
 * `--clients` WebSocket scoreboards on loopback, each following the lean feed
 * as the pages do (patches applied, `resync` after a gap). Then the tower rolls
 * once a second for `--seconds` (the bot's decisions in between also change
 * the game). Each change's latency is measured from the moment the table
 * emitted it (just before the app sends it to every socket) to the moment each
 * client has it applied (its arrival plus its own parse and apply, timed alone:
 * see fan-out-clients.ts); every change must reach every client (`lost` must
 * be 0), none twice. The bytes of the game messages (`game` and `patch`) each
 * client gets are counted per roll. The server's CPU (share of one core) and
 * memory (RSS) are sampled over the rolling window.
 *
 * The app is built without the per-address rate limit `serve` sets
 * (600 requests a minute): 1 000 scoreboards from one loopback address would
 * exceed it while connecting.
 *
 *   npm run bench:fanout [-- --clients 1000 --seconds 60]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/api/app.js';
import { SeededRandom, createSimulator } from '../../src/hardware/index.js';
import { openStore } from '../../src/storage/index.js';
import { Table } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';
import { numberFlag, printFigures, printTable, quantile, round } from './lib.js';

const clients = numberFlag('clients', 1000);
const seconds = numberFlag('seconds', 60);
const now = () => performance.timeOrigin + performance.now();

const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-bench-fanout-'));
const sim = createSimulator({ seed: 21, colours: ['red'] });
const store = openStore(dataDir);
const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
// Subscribed before the app: this listener hears each change just before the app sends it out.
const emitted = new Map<string, number>();
let towerEvents = 0;
let measuring = false;
table.subscribe((event) => {
  if (!measuring) return;
  if (event.type === 'game') emitted.set(`${event.game.id}@${event.game.version}`, now());
  if (event.type === 'tower') towerEvents++;
});
const app = buildApp({ table, version: 'bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const rssMiB = () => round(process.memoryUsage().rss / 2 ** 20);
const rssBefore = rssMiB();

const child = fork(fileURLToPath(new URL('./fan-out-clients.ts', import.meta.url)), ['--url', `ws://127.0.0.1:${port}/ws`, '--clients', String(clients)], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
type Report = { type: 'report'; clients: Array<{ games: Array<[string, number]>; duplicates: number; towers: number; gameBytes: number; resyncs: number; closed: boolean }>; errors: number; cpuMs: number };
const fromChild = <T>(type: string) =>
  new Promise<T>((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code}) before '${type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
const connectStarted = performance.now();
const connected = await fromChild<{ clients: number; errors: number }>('connected');
const connectSeconds = (performance.now() - connectStarted) / 1000;
const rssConnected = rssMiB();

// One roll a second; the bot decides in between.
const bot = new SeededRandom(3);
let game = table.create('dice-poker', ['Ann', 'Bob']);
let rollsMade = 0;
let rollsSkipped = 0;
let busy = false;
const rss: number[] = [];
measuring = true;
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
const tick = async () => {
  rss.push(rssMiB());
  if (busy) {
    rollsSkipped++;
    return;
  }
  busy = true;
  try {
    if (table.definition(game).result(game.state)) game = table.create('dice-poker', ['Ann', 'Bob']);
    game = await table.roll(game.id);
    rollsMade++;
    for (let choice = table.definition(game).bot(game.state, () => bot.next()); choice && !table.definition(game).result(game.state); choice = table.definition(game).bot(game.state, () => bot.next())) {
      game = table.act(game.id, choice);
    }
  } finally {
    busy = false;
  }
};
// A roll every second on the second (count-based, so a late timer on a busy machine does not drop one).
for (let i = 0; i < seconds; i++) {
  const wait = wallStart + i * 1000 - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  void tick();
}
await new Promise((resolve) => setTimeout(resolve, Math.max(0, wallStart + seconds * 1000 - performance.now())));
while (busy) await new Promise((resolve) => setTimeout(resolve, 20));
const cpu = process.cpuUsage(cpuStart);
const wallMs = performance.now() - wallStart;
measuring = false;
await new Promise((resolve) => setTimeout(resolve, 2000)); // let the last messages drain
const report = fromChild<Report>('report');
child.send({ type: 'report' });
const seen = await report;
const childExited = new Promise((resolve) => child.once('exit', resolve));
child.kill();
await childExited;
await app.close();
store.close();
rmSync(dataDir, { recursive: true, force: true });

const latencies: number[] = [];
let lost = 0;
let duplicates = 0;
let towerLost = 0;
let gameBytes = 0;
let resyncs = 0;
for (const c of seen.clients) {
  const arrived = new Map(c.games);
  for (const [key, at] of emitted) {
    const got = arrived.get(key);
    if (got === undefined) lost++;
    else latencies.push(got - at);
  }
  duplicates += c.duplicates;
  gameBytes += c.gameBytes;
  resyncs += c.resyncs;
  towerLost += Math.max(0, towerEvents - c.towers);
}
const figures = {
  clients: connected.clients,
  connectErrors: connected.errors + seen.errors,
  connectSeconds: round(connectSeconds),
  seconds,
  rolls: rollsMade,
  rollsSkippedBusy: rollsSkipped,
  gameMessages: emitted.size,
  towerMessages: towerEvents,
  deliveries: latencies.length,
  latencyMsP50: round(quantile(latencies, 0.5)),
  latencyMsP99: round(quantile(latencies, 0.99)),
  latencyMsMax: round(latencies.reduce((m, x) => Math.max(m, x), 0)), // not Math.max(...): 100 000 arguments overflow the stack
  lost,
  towerLost,
  duplicates,
  resyncs,
  // Every game message after the snapshot (the new game's whole view included), per client, per roll made.
  bytesPerViewerPerRoll: round(gameBytes / Math.max(1, seen.clients.length) / Math.max(1, rollsMade)),
  serverCpuPercentOfOneCore: round((100 * (cpu.user + cpu.system)) / 1000 / wallMs),
  serverRssMiB: { beforeClients: rssBefore, connected: rssConnected, peakWhileRolling: Math.max(...rss) },
  loadGeneratorCpuSeconds: round(seen.cpuMs / 1000),
};
console.log(`Fan-out: ${figures.clients} WebSocket clients (separate process), ${rollsMade} rolls in ${seconds} s, ${emitted.size} game changes`);
printTable(
  ['figure', 'value'],
  [
    ['change → applied latency p50 (ms)', figures.latencyMsP50],
    ['change → applied latency p99 (ms)', figures.latencyMsP99],
    ['change → applied latency max (ms)', figures.latencyMsMax],
    ['game changes applied', `${latencies.length} of ${emitted.size * seen.clients.length}`],
    ['lost (game / tower)', `${lost} / ${towerLost}`],
    ['duplicates', duplicates],
    ['resyncs asked (gaps seen)', resyncs],
    ['game message bytes per viewer per roll', figures.bytesPerViewerPerRoll],
    ['server CPU (% of one core, incl. rendering + reading the simulated dice)', figures.serverCpuPercentOfOneCore],
    ['server RSS MiB (no clients / connected / peak rolling)', `${rssBefore} / ${rssConnected} / ${figures.serverRssMiB.peakWhileRolling}`],
    ['connect time for all clients (s)', figures.connectSeconds],
  ],
);
printFigures('fan-out', figures);
if (lost > 0 || towerLost > 0 || duplicates > 0) process.exitCode = 1;
