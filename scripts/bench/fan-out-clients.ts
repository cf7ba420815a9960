/**
 * The load generator of the fan-out benchmark, run as its own process by
 * fan-out.ts: opens `--clients` scoreboard WebSockets on `--url`, each
 * following the feed as the pages do (`liveGames` of src/api/public/view-patch.js:
 * whole views and patches applied, `resync` after a gap), and records when each
 * game version (by game id and version) was applied, the bytes of the game
 * messages (`game` and `patch`) after the snapshot, and each `tower` message;
 * on the parent's `report` message it sends back what it saw.
 *
 * Talks to its parent over the IPC channel: `{type:'connected', ...}` once
 * every client has its snapshot, `{type:'report', ...}` at the end; the
 * parent then ends it.
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

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const s: Seen = { games: new Map(), duplicates: 0, towers: 0, gameBytes: 0, resyncs: 0, closed: false };
    const live = liveGames();
    const ws = new WebSocket(url, { perMessageDeflate: false });
    // A feed that never sends its snapshot must end the benchmark with a reason, not hang it.
    const timer = setTimeout(() => reject(new Error(`no snapshot from ${url} within 10 s`)), 10_000);
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string };
      const { game, resync } = live.take(message);
      const at = now();
      if (message.type === 'snapshot') {
        clearTimeout(timer);
        resolve();
      } else if (message.type === 'game' || message.type === 'patch') s.gameBytes += data.length;
      else if (message.type === 'tower') s.towers++;
      if (resync) {
        s.resyncs++;
        ws.send(JSON.stringify({ type: 'resync', game: resync }));
      }
      if (game) {
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
  send({
    type: 'report',
    clients: seen.map((s) => ({ games: [...s.games.entries()], duplicates: s.duplicates, towers: s.towers, gameBytes: s.gameBytes, resyncs: s.resyncs, closed: s.closed })),
    errors,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  for (const ws of sockets) ws.close();
  // The parent ends this process once it has the report (a big message: exiting here could cut it off).
});
