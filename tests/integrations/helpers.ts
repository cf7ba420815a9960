/**
 * The real `dice-tower serve` as a child process (simulated tower), an SSE
 * client that keeps what it gets and can be cut off, and a fetch helper.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OPERATOR = 'integrations-test-operator-token';

export interface Served {
  readonly proc: ChildProcess;
  readonly url: string;
  readonly out: { text: string };
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `dice-tower serve` on a free port on `dataDir`; resolves once it serves. */
export async function startServer(dataDir: string, extraArgs: readonly string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const proc = spawn(process.execPath, ['bin/dice-tower.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--roll-ms', '0', '--seed', '7', ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DICE_TOWER_DATA: dataDir, DICE_TOWER_TOKEN: OPERATOR, ...env },
  });
  const out = { text: '' };
  proc.stdout?.on('data', (chunk) => (out.text += String(chunk)));
  proc.stderr?.on('data', (chunk) => (out.text += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /scoreboard on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.text);
      if (found) {
        clearInterval(timer);
        resolve(found[1] as string);
      }
    }, 10);
    proc.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the server exited (${code}) before it was up:\n${out.text}`));
    });
  });
  return {
    proc,
    url,
    out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(signal);
      await exited;
    },
  };
}

export async function call(base: string, method: 'GET' | 'POST', path: string, token: string = OPERATOR, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export interface SseEvent {
  readonly id: number;
  readonly event: string;
  readonly data: { seq: number; id: string; type: string; game: string | null; data: Record<string, unknown> };
}

/** An SSE client on GET /api/events: every event it gets, in order; `close()` cuts it off. */
export async function sse(base: string, key: string, options: { since?: number; lastEventId?: number; query?: string } = {}) {
  const controller = new AbortController();
  const params = new URLSearchParams();
  if (options.since !== undefined) params.set('since', String(options.since));
  const res = await fetch(`${base}/api/events?${params.toString()}${options.query ?? ''}`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', ...(options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) }) },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  // lastId: the last `id:` the stream gave (with an event or alone), which an EventSource sends back as Last-Event-ID.
  const state: { ended: boolean; status: number; raw: string; lastId: string | null } = { ended: false, status: res.status, raw: '', lastId: null };
  if (res.status !== 200 || !res.body) {
    state.ended = true;
    state.raw = await res.text();
    return { events, state, close: () => controller.abort(), status: res.status };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body.getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        buffer += text;
        state.raw += text;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            const at = line.indexOf(':');
            fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
          }
          if (fields.id !== undefined) state.lastId = fields.id;
          if (fields.data !== undefined && fields.id !== undefined) {
            events.push({ id: Number(fields.id), event: fields.event ?? 'message', data: JSON.parse(fields.data) as SseEvent['data'] });
          }
        }
      }
    } catch {
      // Cut off (abort, or the server killed).
    } finally {
      state.ended = true;
    }
  })();
  return { events, state, close: () => controller.abort(), status: res.status };
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (or throws after `timeoutMs`, saying what it waited for). */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
