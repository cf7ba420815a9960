/**
 * The live feed, WebSocket /ws. The server sends `snapshot` on connect, then
 * `patch` (what changed in a game's view, view-diff.ts), `tower` and `notice`
 * on every change. Each game's changes are numbered (`seq`, one more per
 * change); a client whose patch does not follow on from the view it holds
 * asks for the view with `resync` and gets it as `game`. Clients may send the messages
 * of CLIENT_MESSAGES: each is checked against its schema like a REST body,
 * answered, or refused with an `error` naming the problem. A client that keeps
 * sending junk (or too much) is disconnected (close code 1008); one that stops
 * answering pings is dropped, one that stops reading is closed (1013).
 */
import type { FastifyInstance } from 'fastify';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { TableError, type Table, type TableEvent, type TableGame } from '../table.js';
import { gameView, type GameView } from './views.js';
import { diffViews, toWire, type Json, type PatchOp } from './view-diff.js';
import type { OperatorAuth } from './operator-auth.js';
import { bodyProblem, MAX_BODY_KEYS } from './body-limits.js';
import { epochChanged } from './integration-routes.js';
import { tooManyFailures, type AuthFailures } from './auth-failures.js';
import { follow, isKeyToken, type ApiKey, type Integrations } from '../integrations/index.js';

/** Malformed messages (bad JSON, schema, wrong token) a client may send before it is disconnected. */
export const MAX_STRIKES = 5;
/** Messages a client may send per RATE_WINDOW_MS before it is disconnected. */
export const MAX_MESSAGES = 30;
export const RATE_WINDOW_MS = 10_000;
/** Every this often each socket is pinged; one that has not answered the previous ping by then is dropped (a dead phone, a cut network). */
export const HEARTBEAT_MS = 30_000;
/** Unsent bytes a client may have queued before it is closed (1013): a client that does not read must not grow the server's memory. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * WebSocket upgrades per client address per minute, counted apart from the
 * other requests (app.ts's limit, which does not count the pages, their files
 * and the reads every page load makes either): an audience of 1 000 behind one
 * address (a venue's NAT, a proxy) connects, and each viewer may reconnect once.
 */
export const UPGRADES_PER_MINUTE = 2_000;

export interface FeedOptions {
  /** Counts wrong operator tokens per address (as the REST routes do); absent: not limited. */
  readonly failures?: AuthFailures | undefined;
  readonly heartbeatMs?: number;
  readonly maxBufferedBytes?: number;
  /** The event stream and API keys (src/integrations): `subscribe` with `since`, and `auth` with a key. Absent: neither. */
  readonly integrations?: Integrations | undefined;
}

type Field = { readonly required: boolean; readonly check: (v: unknown) => string | null; readonly doc: string };

const id = (max: number) => (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_-]+$/.test(v) && v.length <= max ? null : `must be an id (letters, digits, - and _, at most ${max})`);
const str = (min: number, max: number) => (v: unknown) => (typeof v === 'string' && v.length >= min && v.length <= max ? null : `must be a string of ${min} to ${max} characters`);
const int = (min: number, max: number) => (v: unknown) => (Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `must be an integer from ${min} to ${max}`);
const ref = (v: unknown) => (str(1, 64)(v) === null || int(0, 2 ** 31)(v) === null ? null : 'must be a string (1-64) or an integer');

/** Fields of several messages. */
const REF: Field = { required: false, check: ref, doc: 'echoed back' };
const GAME: Field = { required: true, check: id(64), doc: 'game id' };

/**
 * The messages a client may send: their fields (unknown fields are refused),
 * what each is for, and who may send it. `ref` is echoed in the reply.
 */
export const CLIENT_MESSAGES = {
  ping: {
    access: 'anyone',
    doc: 'Keep-alive; answered with pong.',
    fields: { ref: { required: false, check: ref, doc: 'echoed back' } },
  },
  auth: {
    access: 'anyone',
    doc: 'Operator token (→ role operator), an API key (→ role key, with its scopes), or a seat token with game and seat (→ that seat: game messages and stream events of that game then carry its secret dice).',
    fields: {
      token: { required: true, check: str(1, 200), doc: 'operator or seat token' },
      game: { required: false, check: id(64), doc: 'game id, with seat' },
      seat: { required: false, check: int(0, 29), doc: 'seat number, with game' },
      ref: REF,
    },
  },
  subscribe: {
    access: 'anyone',
    doc: 'Only game messages of these games from now on (tower and notice messages always come); "all" for every game. With since: the event stream after that seq (event messages, the kept ones first), for the operator, a seat or a key with events:read; with since and games: only the events of those games.',
    fields: {
      games: { required: false, check: (v: unknown) => (v === 'all' || (Array.isArray(v) && v.length <= 50 && v.every((g) => id(64)(g) === null)) ? null : 'must be "all" or a list of at most 50 game ids'), doc: 'game ids or "all"' },
      since: { required: false, check: int(0, Number.MAX_SAFE_INTEGER), doc: 'the last event seq seen (0: from the start)' },
      epoch: { required: false, check: (v: unknown) => (typeof v === 'string' && /^[0-9a-f]{12}$/.test(v) ? null : 'must be the stream\'s epoch (12 hex digits)'), doc: 'the epoch of that seq (subscribed gives it): another one is refused' },
      ref: REF,
    },
  },
  resync: {
    access: 'anyone',
    doc: 'The whole view of a game again (answered with game, at the seq of its last change), for a client whose patch did not follow on from the view it holds. A seat gets its own view of its game.',
    fields: {
      game: GAME,
      ref: REF,
    },
  },
  roll: {
    access: 'operator',
    doc: 'Rolls the dice the game waits for through the tower (as POST /api/games/:id/roll); answered with rolled or error. The operator, or an API key with rolls:request.',
    fields: {
      game: GAME,
      ref: REF,
    },
  },
} as const satisfies Record<string, { access: 'anyone' | 'operator'; doc: string; fields: Record<string, Field> }>;

export type ClientMessageType = keyof typeof CLIENT_MESSAGES;

/** The messages the server sends, for the README and the tests. */
export const SERVER_MESSAGES = ['snapshot', 'game', 'patch', 'tower', 'notice', 'pong', 'auth', 'subscribed', 'rolled', 'error', 'event'] as const;

/**
 * A text message as one WebSocket frame (RFC 6455 section 5.2: FIN and the text opcode, the payload's length, no mask
 * from a server), made once for a broadcast: each socket then takes one write of the same bytes, where `ws` would frame
 * the message again for every socket (a header buffer, its option objects, two writes). With 1 000 viewers the sends
 * were most of the feed's time (BENCHMARKS.md, fan-out).
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  payload.copy(frame, head);
  return frame;
}

/** A `patch` message's text: the change of game `gameId` from seq - 1 to `seq`, its operations as arrays (view-diff.ts's WireOp). */
export const patchMessage = (gameId: string, seq: number, ops: readonly PatchOp[]) => JSON.stringify({ type: 'patch', v: 1, gameId, seq, ops: ops.map(toWire) });

type Parsed = { ok: true; type: ClientMessageType; body: Record<string, unknown> } | { ok: false; code: string; message: string };

/** Checks one client message against its schema; the refusal names the field and the problem. */
export function parseClientMessage(text: string): Parsed {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, code: 'ws/bad_json', message: 'The message is not JSON; send an object like {"type":"ping"}.' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, code: 'ws/bad_message', message: 'The message must be a JSON object with a "type".' };
  // The limits of a REST body (depth, keys, no __proto__/constructor/prototype), named as they are there.
  const limit = bodyProblem(data, MAX_BODY_KEYS, 'The message');
  if (limit) return { ok: false, ...limit };
  const body = data as Record<string, unknown>;
  const type = body.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(CLIENT_MESSAGES, type)) {
    return { ok: false, code: 'ws/unknown_type', message: `Unknown message type ${JSON.stringify(type)}; the feed takes ${Object.keys(CLIENT_MESSAGES).join(', ')}.` };
  }
  const spec = CLIENT_MESSAGES[type as ClientMessageType];
  const fields: Record<string, Field> = spec.fields;
  for (const key of Object.keys(body)) {
    // `v` (the protocol version the server sends) may be echoed back; it must be 1.
    if (key === 'v' && body.v === 1) continue;
    // Own fields only: `constructor` or `toString` are no fields of a message, whatever Object.prototype holds.
    if (key !== 'type' && !Object.hasOwn(fields, key)) return { ok: false, code: 'ws/bad_message', message: `A ${type} message has no field '${key}'${key === 'v' ? ' other than 1' : ''}.` };
  }
  for (const [key, field] of Object.entries(fields)) {
    if (body[key] === undefined) {
      if (field.required) return { ok: false, code: 'ws/bad_message', message: `A ${type} message needs '${key}' (${field.doc}).` };
      continue;
    }
    const problem = field.check(body[key]);
    if (problem) return { ok: false, code: 'ws/bad_message', message: `${type}.${key} ${problem}.` };
  }
  if (type === 'subscribe' && body.epoch !== undefined && body.since === undefined) {
    return { ok: false, code: 'ws/bad_message', message: 'A subscribe message gives epoch with since (the seq it belongs to).' };
  }
  if (type === 'subscribe' && body.games === undefined && body.since === undefined) {
    return { ok: false, code: 'ws/bad_message', message: 'A subscribe message needs games (ids or "all"), since (an event seq), or both.' };
  }
  if (type === 'auth' && (body.game === undefined) !== (body.seat === undefined)) {
    return { ok: false, code: 'ws/bad_message', message: 'A seat auth message needs both game and seat (an operator auth has neither).' };
  }
  return { ok: true, type: type as ClientMessageType, body };
}

interface Client {
  /** The TCP (or TLS) stream under the WebSocket: broadcasts write their frames to it (textFrame). */
  readonly raw: Duplex;
  role: 'viewer' | 'operator' | { game: string; seat: number; token: string };
  games: Set<string> | null;
  strikes: number;
  sent: number[];
  /** Whether the socket answered the last heartbeat ping. */
  alive: boolean;
  /** The API key the socket authenticated with (role stays viewer: a key is no operator). */
  key?: { readonly token: string; readonly key: ApiKey } | undefined;
  /** Stops its event stream (subscribe with since). */
  stopStream?: (() => void) | undefined;
}

export function registerFeed(api: FastifyInstance, table: Table, auth: OperatorAuth, options: FeedOptions = {}): void {
  const { failures, heartbeatMs = HEARTBEAT_MS, maxBufferedBytes = MAX_BUFFERED_BYTES } = options;
  const clients = new Map<WebSocket, Client>();
  /**
   * Sends to one socket; one still holding more than the cap unsent from
   * earlier messages is closed instead and gets nothing more, while the others
   * go on (one large message, a snapshot of many games, never trips it alone).
   */
  const deliver = (socket: WebSocket, text: string) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > maxBufferedBytes) {
      socket.close(1013, 'too far behind: the client does not read what it is sent');
      return;
    }
    socket.send(text, { binary: false });
  };
  /**
   * Streams corked in this turn of the event loop, uncorked together on the next tick: the broadcasts of one turn (a
   * game's change and the tower's "ready" with it, the moves made at once after a roll) leave each socket in one write.
   */
  const corked = new Set<Duplex>();
  const uncorkAll = () => {
    for (const raw of corked) raw.uncork();
    corked.clear();
  };
  /**
   * Sends a broadcast's frame (textFrame) to one socket, with deliver's cap. Written to the stream under the socket:
   * the app's `ws` sends nothing compressed (perMessageDeflate is off in app.ts), so its own sends are written at once
   * too, and the order of a socket's messages stays as sent.
   */
  const deliverFrame = (socket: WebSocket, client: Client, frame: Buffer) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > maxBufferedBytes) {
      socket.close(1013, 'too far behind: the client does not read what it is sent');
      return;
    }
    if (!corked.has(client.raw)) {
      if (corked.size === 0) process.nextTick(uncorkAll);
      client.raw.cork();
      corked.add(client.raw);
    }
    client.raw.write(frame);
  };
  // Every message reads {"type":…,"v":1,…}, the broadcasts below included: type first, so a client can dispatch on a prefix.
  const send = (socket: WebSocket, message: { readonly type: string; readonly [field: string]: unknown }) => {
    const { type, ...rest } = message;
    deliver(socket, JSON.stringify({ type, v: 1, ...rest }));
  };

  /**
   * Per game, the seq of its last change and the view each audience (the public, each seat of it; the operator sees the
   * public's) was sent at that seq. The next change goes out as the difference from that view, serialised once per
   * audience; a whole view (snapshot, seat auth, resync) is that same view, so a client holding seq n holds exactly what
   * patch n + 1 applies to. An audience nobody was sent the last change for is dropped, and made afresh when asked for.
   */
  const sent = new Map<string, { seq: number; views: Map<string, GameView> }>();
  type Seat = { readonly seat: number; readonly token: string };
  const audience = (seat: Seat | null) => (seat ? `seat ${seat.seat} ${seat.token}` : 'public');
  const seatOf = (client: Client, gameId: string): Seat | null => (typeof client.role === 'object' && client.role.game === gameId ? client.role : null);
  const heldView = (game: TableGame, seat: Seat | null) => {
    let entry = sent.get(game.id);
    if (!entry) sent.set(game.id, (entry = { seq: 0, views: new Map() }));
    let view = entry.views.get(audience(seat));
    if (!view) entry.views.set(audience(seat), (view = gameView(table, game, seat?.seat ?? null, seat?.token)));
    return { seq: entry.seq, view };
  };
  const broadcastGame = (game: TableGame) => {
    const before = sent.get(game.id)?.views;
    const seq = (sent.get(game.id)?.seq ?? 0) + 1;
    const views = new Map<string, GameView>();
    sent.set(game.id, { seq, views });
    const texts = new Map<string, Buffer>();
    const textFor = (seat: Seat | null) => {
      const key = audience(seat);
      let text = texts.get(key);
      if (text !== undefined) return text;
      const view = gameView(table, game, seat?.seat ?? null, seat?.token);
      views.set(key, view);
      const previous = before?.get(key);
      text = textFrame(
        Buffer.from(
          previous
            ? patchMessage(game.id, seq, diffViews(previous as unknown as Json, view as unknown as Json))
            : JSON.stringify({ type: 'game', v: 1, seq, game: view }),
        ),
      );
      texts.set(key, text);
      return text;
    };
    for (const [socket, client] of clients) {
      if (client.games && !client.games.has(game.id)) continue;
      deliverFrame(socket, client, textFor(seatOf(client, game.id)));
    }
  };

  const unsubscribe = table.subscribe((event: TableEvent) => {
    if (event.type === 'game') return broadcastGame(event.game);
    if (clients.size === 0) return;
    const frame = textFrame(Buffer.from(JSON.stringify(event.type === 'tower' ? { type: 'tower', v: 1, status: event.status } : { type: 'notice', v: 1, gameId: event.gameId, message: event.message })));
    for (const [socket, client] of clients) deliverFrame(socket, client, frame);
  });
  // A changed operator token ends the operator rights of every socket that used the old one.
  const offToken = auth.onChange(() => {
    for (const [socket, client] of clients) {
      if (client.role !== 'operator') continue;
      client.role = 'viewer';
      send(socket, { type: 'auth', role: 'viewer', reason: 'The operator token was changed; authenticate again with the new one.' });
    }
  });
  // A socket that has not answered the previous ping is gone (TCP alone may take many minutes to notice); the others are pinged again.
  const heartbeat = setInterval(() => {
    for (const [socket, client] of clients) {
      if (!client.alive) {
        socket.terminate();
        continue;
      }
      client.alive = false;
      socket.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();
  api.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    offToken();
  });

  // Upgrades have their own budget (UPGRADES_PER_MINUTE), apart from app.ts's limit on the other requests, when that limit is on.
  api.get('/ws', { websocket: true, config: { access: 'public', rateLimit: { max: UPGRADES_PER_MINUTE, timeWindow: 60_000 } } }, (socket, request) => {
    const client: Client = { raw: request.raw.socket, role: 'viewer', games: null, strikes: 0, sent: [], alive: true };
    clients.set(socket, client);
    socket.on('close', () => {
      clients.delete(socket);
      client.stopStream?.();
    });
    socket.on('pong', () => {
      client.alive = true;
    });
    const refuse = (code: string, message: string, ref: unknown, strike: boolean, extra: Record<string, unknown> = {}) => {
      send(socket, { type: 'error', code, message, ...extra, ...(ref === undefined ? {} : { ref }) });
      if (strike && ++client.strikes >= MAX_STRIKES) socket.close(1008, 'too many bad messages');
    };
    /** Answers one message; returns a promise when the answer comes later and the socket's next messages must wait for it. */
    const answer = (data: RawData, isBinary: boolean): Promise<void> | void => {
      if (isBinary) return refuse('ws/bad_message', 'The feed takes text messages (JSON), not binary ones.', undefined, true);
      const parsed = parseClientMessage(String(data));
      if (!parsed.ok) return refuse(parsed.code, parsed.message, undefined, true);
      const { body } = parsed;
      const replyRef = body.ref === undefined ? {} : { ref: body.ref };
      switch (parsed.type) {
        case 'ping':
          return send(socket, { type: 'pong', ...replyRef });
        case 'auth': {
          const token = body.token as string;
          const keys = options.integrations?.keys;
          if (body.game === undefined && keys && isKeyToken(token)) {
            // An API key: its scopes, not the operator's rights. A wrong one counts like a wrong operator token.
            const retryAfter = failures ? failures.retryAfter(request.ip) : 0;
            if (failures && retryAfter > 0) {
              const error = tooManyFailures(failures.limits, retryAfter);
              return refuse(error.code, error.message, body.ref, true, { retryAfter });
            }
            const key = keys.find(token);
            if (!key) {
              const wrong = () => refuse('auth/bad_key', 'That is not a live API key (unknown or revoked).', body.ref, true);
              return failures ? failures.limits.wait(failures.fail(request.ip)).then(wrong) : wrong();
            }
            client.key = { token, key };
            return send(socket, { type: 'auth', role: 'key', scopes: key.scopes, ...replyRef });
          }
          if (body.game === undefined) {
            if (!auth.enabled) return send(socket, { type: 'auth', role: 'operator', ...replyRef });
            // Wrong tokens count per address across sockets (reconnecting gives no fresh tries); over the limit, no token is checked.
            const retryAfter = failures ? failures.retryAfter(request.ip) : 0;
            if (failures && retryAfter > 0) {
              const error = tooManyFailures(failures.limits, retryAfter);
              return refuse(error.code, error.message, body.ref, true, { retryAfter });
            }
            if (auth.check(token) !== 'ok') {
              const wrong = () => refuse('auth/bad_token', 'That is not the operator token.', body.ref, true);
              if (!failures) return wrong();
              // Counted now, answered after the growing delay; the socket's later messages wait for this answer.
              return failures.limits.wait(failures.fail(request.ip)).then(wrong);
            }
            client.role = 'operator';
            return send(socket, { type: 'auth', role: 'operator', ...replyRef });
          }
          try {
            const game = table.checkSeat(body.game as string, body.seat as number, token);
            const seat = { game: game.id, seat: body.seat as number, token };
            client.role = seat;
            send(socket, { type: 'auth', role: 'seat', game: game.id, seat: body.seat, ...replyRef });
            const held = heldView(game, seat);
            return send(socket, { type: 'game', seq: held.seq, game: held.view });
          } catch (err) {
            if (err instanceof TableError) return refuse(err.code, err.message, body.ref, err.statusCode === 403);
            throw err;
          }
        }
        case 'subscribe': {
          const games = body.games === 'all' || body.games === undefined ? null : (body.games as string[]);
          const unknown = games?.find((g) => !table.list().some((t) => t.id === g));
          if (unknown !== undefined) return refuse('table/game_not_found', `There is no game with id '${unknown}'.`, body.ref, false);
          if (body.since !== undefined) return subscribeStream(body.since as number, body.epoch as string | undefined, games, replyRef, body.ref);
          client.games = games ? new Set(games) : null;
          return send(socket, { type: 'subscribed', games: games ?? 'all', ...replyRef });
        }
        case 'resync': {
          const game = table.list().find((g) => g.id === body.game);
          if (!game) return refuse('table/game_not_found', `There is no game with id '${String(body.game)}'.`, body.ref, false);
          const held = heldView(game, seatOf(client, game.id));
          return send(socket, { type: 'game', seq: held.seq, game: held.view, ...replyRef });
        }
        case 'roll': {
          // The operator, or an API key with rolls:request (asked again now: a revoked key rolls nothing).
          const keyMayRoll = () => client.key !== undefined && options.integrations?.keys.find(client.key.token)?.scopes.includes('rolls:request') === true;
          if (auth.enabled && client.role !== 'operator' && !keyMayRoll()) {
            return refuse('auth/operator_only', 'Rolling is an operator action (or an API key\'s with the scope rolls:request): send {"type":"auth","token":"<operator token or key>"} first.', body.ref, false);
          }
          table.roll(body.game as string).then(
            (game) => send(socket, { type: 'rolled', game: game.id, version: game.version, ...replyRef }),
            (err: unknown) => {
              const code = err instanceof TableError ? err.code : 'api/internal';
              const message = err instanceof TableError ? err.message : 'Something went wrong on the server; the game state is unchanged.';
              send(socket, { type: 'error', code, message, ...replyRef });
            },
          );
          return;
        }
      }
    };
    /**
     * The event stream after seq `since` (integrations/event-stream.ts), as `event` messages: the kept ones, then the
     * live ones, each once. For the operator, a seat (its own secret dice) or a key with events:read.
     */
    const subscribeStream = (since: number, epoch: string | undefined, games: readonly string[] | null, replyRef: Record<string, unknown>, ref: unknown) => {
      const integrations = options.integrations;
      if (!integrations) return refuse('ws/no_stream', 'This server keeps no event stream (no data directory).', ref, false);
      const role = client.role;
      // Asked again before each event: a revoked key, or an operator demoted by a changed token, stops the stream.
      const allowed = () => !auth.enabled || client.role !== 'viewer' || (client.key !== undefined && integrations.keys.find(client.key.token)?.scopes.includes('events:read') === true);
      if (!allowed()) {
        return refuse('auth/missing_scope', 'The event stream needs the operator token, a seat token, or an API key with the scope events:read: send {"type":"auth","token":"…"} first.', ref, false);
      }
      const head = integrations.stream.head();
      if (epoch !== undefined && epoch !== integrations.stream.epoch) {
        const changed = epochChanged(integrations.stream.epoch, epoch);
        return refuse(changed.code, changed.message, ref, false);
      }
      if (since > head) return refuse('events/since_ahead', `The stream ends at seq ${head}; ${since} is past it. Resume from ${head} or less.`, ref, false);
      client.stopStream?.();
      const viewer = typeof role === 'object' ? { seat: { gameId: role.game, seat: role.seat } } : {};
      // With games: those games' events only, and their game messages only (as without since).
      client.games = games ? new Set(games) : null;
      send(socket, { type: 'subscribed', since, head, epoch: integrations.stream.epoch, games: games ?? 'all', ...replyRef });
      // A long backlog waits for the socket to drain (the send cap would close it otherwise); one that stops reading is let go.
      client.stopStream = follow(integrations.stream, { since, viewer, games: client.games ?? undefined }, (_event, text) => {
        // The socket may stay for the scoreboard messages; only the stream stops.
        if (!allowed()) {
          client.stopStream?.();
          client.stopStream = undefined;
          send(socket, { type: 'error', code: 'auth/stream_stopped', message: 'The event stream stopped: its API key was revoked or the operator token changed; authenticate and subscribe again.' });
          return true;
        }
        deliver(socket, `{"type":"event","v":1,"event":${text}}`);
        if (socket.readyState !== socket.OPEN || socket.bufferedAmount < maxBufferedBytes / 4) return true;
        return new Promise<void>((resolve) => {
          const poll = setInterval(() => {
            if (socket.readyState === socket.OPEN && socket.bufferedAmount > maxBufferedBytes / 8) return;
            clearInterval(poll);
            resolve();
          }, 10);
        });
      }, () => socket.close(1013, 'too far behind in the event stream: resume from the last seq seen'));
    };
    /**
     * Set while a message's answer is still to come (a wrong token's, after its delay): later messages wait for it, so a
     * socket's messages are handled in the order they came (a wrong token's error comes before the answers to the
     * messages after it, and an `auth` then a `roll` never swap).
     */
    let held: Promise<unknown> | undefined;
    const hold = (pending: Promise<unknown>) => {
      const chained = pending.catch((err: unknown) => {
        request.log.error({ err }, 'feed message failed');
        socket.close(1011, 'internal error');
      });
      held = chained;
      void chained.then(() => {
        if (held === chained) held = undefined;
      });
    };
    socket.on('message', (data, isBinary) => {
      const at = Date.now();
      client.sent = client.sent.filter((t) => t > at - RATE_WINDOW_MS);
      client.sent.push(at);
      if (client.sent.length > MAX_MESSAGES) {
        socket.close(1008, 'too many messages');
        return;
      }
      if (held) return hold(held.then(() => answer(data, isBinary)));
      const later = answer(data, isBinary);
      if (later) hold(later);
    });
    const views = table.list().map((g) => ({ id: g.id, ...heldView(g, null) }));
    send(socket, { type: 'snapshot', games: views.map((g) => g.view), seqs: Object.fromEntries(views.map((g) => [g.id, g.seq])), tower: table.tower() });
  });
}
