/**
 * The load generator of the fan-out benchmark, run as its own process by
 * fan-out.ts: opens `--clients` scoreboard WebSockets on `--url`, each
 * following the feed as the pages do (`liveGames` of src/api/public/view-patch.js:
 * whole views and patches applied, `resync` after a gap), and records when each
 * game version (by game id and version) was applied, the bytes of the game
 * messages (`game` and `patch`) after the snapshot, and each `tower` message;
 * on the parent's `report` message it sends back what it saw.
 *
 * A real viewer applies a patch on its own device. Here a thousand share one
 * thread, so a message is only timestamped when it arrives (its type read from
 * its first bytes, as before the lean feed) and kept; at the end each client
 * applies what it got, in order, each message timed alone: its time applied
 * is its arrival plus that client's own parse and apply. So one client's
 * applying does not delay the others' arrival. A patch that does not follow
 * on would show as a resync asked for (it cannot be sent then; over TCP none
 * is expected).
 */
import WebSocket from 'ws';
import { liveGames } from '../../src/api/public/view-patch.js';
import { numberFlag } from './lib.js';

const url = process.argv[process.argv.indexOf('--url') + 1] ?? '';
const clients = numberFlag('clients', 1000);
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

interface Seen {
  /** `gameId@version` -> when the client had that view applied (ms since the epoch, sub-ms). */
  readonly games: Map<string, number>;
  /** A version applied again (a patch or view taken twice). */
  duplicates: number;
  towers: number;
  /** Bytes of `game` and `patch` messages after the snapshot. */
  gameBytes: number;
  resyncs: number;
  closed: boolean;
}

const seen: Seen[] = [];
const sockets: WebSocket[] = [];
let errors = 0;
// Every feed message starts with its type: {"type":"patch","v":1,...}.
const TYPE = /^\{"type":"(\w+)"/;
/** Per client: applies what it got, each message timed alone (see above). */
const appliers: Array<() => void> = [];

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const s: Seen = { games: new Map(), duplicates: 0, towers: 0, gameBytes: 0, resyncs: 0, closed: false };
    const live = liveGames();
    const got: Array<{ readonly data: Buffer; readonly at: number }> = [];
    const ws = new WebSocket(url, { perMessageDeflate: false });
    // A feed that never sends its snapshot must end the benchmark with a reason, not hang it.
    const timer = setTimeout(() => reject(new Error(`no snapshot from ${url} within 10 s`)), 10_000);
    ws.on('message', (data: Buffer) => {
      const at = now();
      const type = TYPE.exec(data.toString('latin1', 0, 24))?.[1];
      if (type === 'snapshot') {
        live.take(JSON.parse(data.toString()) as { type: string });
        clearTimeout(timer);
        resolve();
      } else if (type === 'tower') s.towers++;
      else if (type === 'game' || type === 'patch') {
        s.gameBytes += data.length;
        got.push({ data, at });
      }
    });
    appliers.push(() => {
      for (const { data, at: arrived } of got.splice(0)) {
        const started = performance.now();
        const { game, resync } = live.take(JSON.parse(data.toString()) as { type: string });
        const at = arrived + (performance.now() - started);
        if (resync) s.resyncs++;
        if (!game) continue;
        const key = `${game.id}@${game.version}`;
        if (s.games.has(key)) s.duplicates++;
        else s.games.set(key, at);
      }
    });
    ws.on('close', () => (s.closed = true));
    ws.on('error', (err) => {
      errors++;
      reject(err);
    });
    seen.push(s);
    sockets.push(ws);
  });
}

// Connect in batches, so the accept queue of the server is not the thing measured.
for (let i = 0; i < clients; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, clients - i) }, open));
}
send({ type: 'connected', clients: sockets.length, errors });

process.on('message', (message: { type: string }) => {
  if (message.type !== 'report') return;
  for (const applyGot of appliers) applyGot();
  send({
    type: 'report',
    clients: seen.map((s) => ({ games: [...s.games.entries()], duplicates: s.duplicates, towers: s.towers, gameBytes: s.gameBytes, resyncs: s.resyncs, closed: s.closed })),
    errors,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  for (const ws of sockets) ws.close();
  // The parent ends this process once it has the report (a big message: exiting here could cut it off).
});
