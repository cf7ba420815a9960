/**
 * The load generator of the fan-out benchmark, run as its own process by
 * fan-out.ts: opens `--clients` scoreboard WebSockets on `--url`, records
 * when each `game` message (by game id and version) and each `tower` message
 * arrives, and on the parent's `report` message sends back what it saw.
 *
 * Talks to its parent over the IPC channel: `{type:'connected', ...}` once
 * every client has its snapshot, `{type:'report', ...}` at the end; the
 * parent then ends it.
 */
import WebSocket from 'ws';
import { numberFlag } from './lib.js';

const url = process.argv[process.argv.indexOf('--url') + 1] ?? '';
const clients = numberFlag('clients', 1000);
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);
/** The fields of a feed message this generator needs (the app writes `type` first, a game view starts with its `id`; `version` is the view's only one). */
// Every feed message starts with its type: {"type":"game","v":1,...}.
const TYPE = /^\{"type":"(\w+)"/;
const GAME_ID = /"game":\{"id":"([^"]+)"/;
const VERSION = /"version":(\d+)/;

interface Seen {
  /** `gameId@version` -> arrival time (ms since the epoch, sub-ms). */
  readonly games: Map<string, number>;
  duplicates: number;
  towers: number;
  closed: boolean;
}

const seen: Seen[] = [];
const sockets: WebSocket[] = [];
let errors = 0;

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const s: Seen = { games: new Map(), duplicates: 0, towers: 0, closed: false };
    const ws = new WebSocket(url, { perMessageDeflate: false });
    // A feed that never sends its snapshot must end the benchmark with a reason, not hang it.
    const timer = setTimeout(() => reject(new Error(`no snapshot from ${url} within 10 s`)), 10_000);
    ws.on('message', (data) => {
      const at = now();
      // A thousand clients share this one thread: read the few fields needed instead of parsing every view,
      // so this process's own queue adds as little as it can to the latency it measures.
      const text = String(data);
      const type = TYPE.exec(text)?.[1];
      if (type === 'snapshot') {
        clearTimeout(timer);
        resolve();
      }
      else if (type === 'game') {
        const key = `${GAME_ID.exec(text)?.[1]}@${VERSION.exec(text)?.[1]}`;
        if (s.games.has(key)) s.duplicates++;
        else s.games.set(key, at);
      } else if (type === 'tower') s.towers++;
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
  send({
    type: 'report',
    clients: seen.map((s) => ({ games: [...s.games.entries()], duplicates: s.duplicates, towers: s.towers, closed: s.closed })),
    errors,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  for (const ws of sockets) ws.close();
  // The parent ends this process once it has the report (a big message: exiting here could cut it off).
});
