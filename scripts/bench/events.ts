/**
 * Benchmark: the event stream's delivery to other programs. The server (the
 * app, table and integrations as `serve` builds them: simulated tower, real
 * reader, SQLite store) runs in this process; a SEPARATE process (this file
 * with --consumers) holds `--sse` SSE clients (an API key with events:read),
 * `--hooks` webhook receivers on loopback (each delivery's signature checked)
 * and an MQTT subscriber on a Mosquitto started on a free port (Debian's
 * mosquitto; left out when it is not installed). For `--seconds` the tower
 * rolls without pause (each throw `--roll-ms` in the air, then rendered and
 * read; a new Dice Poker game every three throws) while
 * typed-in rolls come at `--rate` a second on other games. Each event's
 * delivery latency is measured from its `at` (when the server made it) to its
 * arrival at each consumer; every consumer must get every event (`lost` 0).
 *
 *   npm run bench:events [-- --seconds 20 --sse 100 --hooks 10 --rate 5 --roll-ms 1200]
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, printFigures, printTable, quantile, round } from './lib.js';

const now = () => performance.timeOrigin + performance.now();
type Summary = { kind: string; consumers: number; received: number; lost: number; duplicates: number; badSignatures: number; latencies: number[] };

if (process.argv.includes('--consumers')) await consumers();
else await server();

async function server(): Promise<void> {
  const { buildApp } = await import('../../src/api/app.js');
  const { createSimulator } = await import('../../src/hardware/index.js');
  const { openStore } = await import('../../src/storage/index.js');
  const { Table } = await import('../../src/table.js');
  const { createDiceReader } = await import('../../src/vision/index.js');
  const { createIntegrations } = await import('../../src/integrations/index.js');
  const seconds = numberFlag('seconds', 20);
  const sseClients = numberFlag('sse', 100);
  const hooks = numberFlag('hooks', 10);
  const rate = numberFlag('rate', 5);

  const dataDir = mkdtempSync(join(tmpdir(), 'dice-tower-bench-events-'));
  let broker: ChildProcess | null = null;
  let mqttUrl: string | null = null;
  if (existsSync('/usr/sbin/mosquitto')) {
    const port = await freePort();
    writeFileSync(join(dataDir, 'mosquitto.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    broker = spawn('/usr/sbin/mosquitto', ['-c', join(dataDir, 'mosquitto.conf')], { stdio: 'ignore' });
    mqttUrl = `mqtt://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  // A throw takes `--roll-ms` (the dice in the air; serve's default is 1 200): the server is free for other work meanwhile, as with a real tower.
  const sim = createSimulator({ seed: 31, colours: ['red'], rollMs: numberFlag('roll-ms', 1200) });
  const store = openStore(dataDir);
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), store, botDelayMs: 0 });
  const integrations = createIntegrations({ table, dbPath: store.dbPath, version: 'bench', ...(mqttUrl ? { mqtt: { url: mqttUrl, tower: 'bench' } } : {}) });
  const app = buildApp({ table, version: 'bench', operatorToken: 'bench-operator-token-0123', integrations });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const { token } = integrations.keys.add('bench', ['events:read']);

  const child = fork(fileURLToPath(import.meta.url), ['--consumers', '--url', `http://127.0.0.1:${port}`, '--key', token, '--sse', String(sseClients), '--hooks', String(hooks), ...(mqttUrl ? ['--mqtt', mqttUrl] : [])], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) => new Promise<T>((resolve) => child.on('message', (m: { type: string }) => m.type === type && resolve(m as T)));
  const { urls } = await next<{ urls: string[] }>('receivers');
  child.send({ type: 'hooks', hooks: urls.map((url) => ({ url, secret: integrations.webhooks.add(url, ['*']).secret })), since: integrations.stream.head() });
  await next('ready');
  const from = integrations.stream.head();

  // The load: the tower without pause, and typed-in rolls at `rate` a second on games of their own.
  const end = Date.now() + seconds * 1000;
  let towerRolls = 0;
  let typedRolls = 0;
  const towerLoop = async () => {
    while (Date.now() < end) {
      const game = table.create('dice-poker', ['Tower']);
      for (let i = 0; i < 3 && Date.now() < end; i++) {
        await table.roll(game.id);
        towerRolls++;
      }
    }
  };
  const typedLoop = async () => {
    let game = table.create('dice-poker', ['Typed']);
    let throws = 0;
    for (let k = 0; Date.now() < end; k++) {
      const due = end - seconds * 1000 + (k * 1000) / rate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (throws === 3) {
        game = table.create('dice-poker', ['Typed']);
        throws = 0;
      }
      await table.roll(game.id, [1 + (k % 6), 2, 3, 4, 5]);
      throws++;
      typedRolls++;
    }
  };
  const cpu0 = process.cpuUsage();
  const t0 = now();
  await Promise.all([towerLoop(), typedLoop()]);
  const elapsed = (now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const to = integrations.stream.head();
  child.send({ type: 'done', from, to });
  await integrations.webhooks.settled();
  const { summaries } = await next<{ summaries: Summary[] }>('report');
  child.kill();
  await app.close();
  await integrations.close();
  store.close();
  broker?.kill();
  rmSync(dataDir, { recursive: true, force: true });

  const events = to - from;
  const rows = summaries.map((s) => [s.kind, s.consumers, events, s.received, s.lost, s.duplicates, s.badSignatures, round(quantile(s.latencies, 0.5)), round(quantile(s.latencies, 0.99)), round(Math.max(...s.latencies))]);
  printTable(['consumer', 'n', 'events', 'received', 'lost', 'dupes', 'bad sig', 'p50 ms', 'p99 ms', 'max ms'], rows);
  process.stdout.write(`${events} events in ${round(elapsed)} s (${round(events / elapsed)} events/s; ${towerRolls} tower rolls, ${typedRolls} typed in); server CPU ${round((100 * (cpu.user + cpu.system)) / 1e6 / elapsed)} % of a core\n`);
  // An event lost, repeated or badly signed is a failure, not a figure.
  if (summaries.some((s) => s.lost > 0 || s.duplicates > 0 || s.badSignatures > 0)) process.exitCode = 1;
  printFigures('events', {
    seconds: round(elapsed), events, eventsPerSecond: round(events / elapsed), towerRolls, typedRolls,
    serverCpuPercent: round((100 * (cpu.user + cpu.system)) / 1e6 / elapsed),
    consumers: Object.fromEntries(summaries.map((s) => [s.kind, { n: s.consumers, lost: s.lost, duplicates: s.duplicates, badSignatures: s.badSignatures, p50Ms: round(quantile(s.latencies, 0.5)), p99Ms: round(quantile(s.latencies, 0.99)), maxMs: round(Math.max(...s.latencies)) }])),
  });
}

async function consumers(): Promise<void> {
  const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1] as string;
  const url = arg('url');
  const key = arg('key');
  const sseCount = Number(arg('sse'));
  const hookCount = Number(arg('hooks'));
  const mqttUrl = process.argv.includes('--mqtt') ? arg('mqtt') : null;
  const send = (m: unknown) => process.send?.(m);
  type Seen = Map<number, number>;
  const make = (kind: string, n: number) => ({ kind, seen: Array.from({ length: n }, () => new Map() as Seen), dupes: 0, bad: 0 });
  const sse = make('SSE', sseCount);
  const hooksSeen = make('webhooks', hookCount);
  const mqttSeen = make('MQTT', mqttUrl ? 1 : 0);
  const note = (c: ReturnType<typeof make>, i: number, seq: number, at: number) => {
    const m = c.seen[i] as Seen;
    if (m.has(seq)) c.dupes++;
    else m.set(seq, now() - at);
  };

  // Webhook receivers: each checks the signature with its hook's secret.
  const secrets: string[] = [];
  const urls = await Promise.all(
    Array.from({ length: hookCount }, (_, i) =>
      new Promise<string>((resolve) => {
        const srv = createHttpServer((req, res) => {
          let body = '';
          req.on('data', (c) => (body += String(c)));
          req.on('end', () => {
            const e = JSON.parse(body) as { seq: number; at: number };
            note(hooksSeen, i, e.seq, e.at);
            const [t, v1] = String(req.headers['x-dice-tower-signature']).split(',').map((p) => p.split('=')[1]);
            if (createHmac('sha256', secrets[i] ?? '').update(`${t}.${body}`).digest('hex') !== v1) hooksSeen.bad++;
            res.writeHead(204).end();
          });
        });
        srv.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(srv.address() as { port: number }).port}/`));
      }),
    ),
  );
  send({ type: 'receivers', urls });
  const { hooks, since } = await new Promise<{ hooks: Array<{ secret: string }>; since: number }>((resolve) => process.on('message', (m: { type: string }) => m.type === 'hooks' && resolve(m as never)));
  hooks.forEach((h, i) => (secrets[i] = h.secret));

  // SSE clients, raw HTTP (one parser each, as a real consumer).
  await Promise.all(
    Array.from({ length: sseCount }, (_, i) =>
      new Promise<void>((resolve) => {
        const req = httpRequest(`${url}/api/events?since=${since}`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const data = block.split('\n').find((l) => l.startsWith('data: '));
              if (data) {
                const e = JSON.parse(data.slice(6)) as { seq: number; at: number };
                note(sse, i, e.seq, e.at);
              }
            }
          });
          resolve();
        });
        req.end();
      }),
    ),
  );
  if (mqttUrl) {
    const { default: mqtt } = await import('mqtt');
    const client = await mqtt.connectAsync(mqttUrl);
    client.on('message', (_topic, payload) => {
      const e = JSON.parse(String(payload)) as { seq: number; at: number };
      if (e.seq > since) note(mqttSeen, 0, e.seq, e.at);
    });
    await client.subscribeAsync('dice-tower/bench/events', { qos: 1 });
  }
  send({ type: 'ready' });
  const { from, to } = await new Promise<{ from: number; to: number }>((resolve) => process.on('message', (m: { type: string }) => m.type === 'done' && resolve(m as never)));
  const all = [sse, hooksSeen, mqttSeen].filter((c) => c.seen.length > 0);
  const complete = () => all.every((c) => c.seen.every((m) => [...Array(to - from).keys()].every((k) => m.has(from + k + 1))));
  for (let waited = 0; waited < 60_000 && !complete(); waited += 100) await new Promise((r) => setTimeout(r, 100));
  const summaries: Summary[] = all.map((c) => {
    const latencies = c.seen.flatMap((m) => [...m.entries()].filter(([seq]) => seq > from && seq <= to).map(([, ms]) => ms));
    const lost = c.seen.reduce((n, m) => n + [...Array(to - from).keys()].filter((k) => !m.has(from + k + 1)).length, 0);
    return { kind: c.kind, consumers: c.seen.length, received: latencies.length, lost, duplicates: c.dupes, badSignatures: c.bad, latencies };
  });
  send({ type: 'report', summaries });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createTcpServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
