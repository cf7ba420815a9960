/**
 * The routes of the integrations (issue #49): the event stream as
 * Server-Sent Events and as JSON pages, its JSON Schema, and the operator's
 * API keys and webhooks. The stream takes the operator token or an API key
 * with `events:read` (app.ts's operator check, `config.keyScope`); keys and
 * webhooks are the operator's alone.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { TableError } from '../table.js';
import { envelope, eventsSchema, follow, isKeyToken, PUBLIC, STREAM_EVENT_TYPES, type Integrations, type KeyScope } from '../integrations/index.js';
import { KEY_SCOPES } from '../integrations/api-keys.js';
import type { RouteAccess } from './app.js';
import { tokenOf, type OperatorAuth } from './operator-auth.js';

/** Every this often an SSE connection gets a comment line, so proxies and clients know it is alive. */
export const SSE_HEARTBEAT_MS = 15_000;
/** Events a JSON page holds at most. */
export const MAX_PAGE = 1000;

/** The last event of a stream whose key was revoked, or whose operator token was changed. */
const KEY_REVOKED = { code: 'auth/bad_key', message: 'The API key was revoked.' };
const TOKEN_CHANGED = { code: 'auth/token_changed', message: 'The operator token was changed; open the stream again with the new one.' };

type Guard = { onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void>; config: { access: RouteAccess } };

const gameId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const hexId = { type: 'string', pattern: '^[0-9a-f]{12}$' };
const streamQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    since: { type: 'integer', minimum: 0 },
    // The epoch the consumer's seq belongs to (given with each stream): another one is refused, the seqs are not the same.
    epoch: { type: 'string', pattern: '^[0-9a-f]{12}$' },
    types: { type: 'string', maxLength: 400 },
    game: gameId,
    // The token may ride in the query for an EventSource, which cannot send headers (redacted in the log).
    key: { type: 'string', maxLength: 200 },
    operator: { type: 'string', maxLength: 200 },
  },
};

/**
 * The stream may be read from a page of another origin (an overlay, a virtual tabletop): its two GET routes answer
 * CORS, for any origin — the key (`?key=` or Authorization) is the authority, never a cookie — and their preflight
 * (a fetch with Authorization, an EventSource reconnecting with Last-Event-ID). No other route does.
 */
const CORS = { 'access-control-allow-origin': '*' } as const;
const PREFLIGHT = { ...CORS, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'authorization, last-event-id', 'access-control-max-age': '600' } as const;

/** `types=roll.settled,tower.status` checked; none: every type. */
function typesOf(text: string | undefined): Set<string> | undefined {
  if (text === undefined || text === '') return undefined;
  const types = text.split(',').map((t) => t.trim());
  const bad = types.find((t) => !(STREAM_EVENT_TYPES as readonly string[]).includes(t));
  if (bad !== undefined) throw new TableError('events/bad_type', `'${bad}' is not an event type; the types are ${STREAM_EVENT_TYPES.join(', ')}.`, 400);
  return new Set(types);
}

/** The refusal of a resume point of another epoch (a restored backup numbers the events again). */
export function epochChanged(epoch: string, theirs: string): TableError {
  return new TableError(
    'events/epoch_changed',
    `The stream's epoch is ${epoch}, not ${theirs}: it was restored from a backup since, and its seqs are not the ones you kept. Resync: read the state you need again, then follow from the head (or since=0).`,
    409,
  );
}

/** Where a consumer resumes: Last-Event-ID (a reconnecting EventSource sends it) before ?since=; a seq past the head, or of another epoch, is refused. */
function resumePoint(request: FastifyRequest, since: number | undefined, head: number, epoch: string): number {
  const theirs = (request.query as { epoch?: string }).epoch;
  if (theirs !== undefined && theirs !== epoch) throw epochChanged(epoch, theirs);
  const header = request.headers['last-event-id'];
  let from = since ?? head;
  if (typeof header === 'string' && header !== '') {
    if (!/^[0-9]{1,15}$/.test(header)) throw new TableError('events/bad_last_event_id', `Last-Event-ID must be the seq of an event (digits), got '${header.slice(0, 40)}'.`, 400);
    from = Number(header);
  }
  if (from > head) {
    throw new TableError('events/since_ahead', `The stream ends at seq ${head}; ${from} is past it (was this server's data directory replaced?). Resume from ${head} or less.`, 409);
  }
  return from;
}

export function registerIntegrationRoutes(api: FastifyInstance, integrations: Integrations, operator: Guard, auth: OperatorAuth): void {
  const { stream, keys, webhooks } = integrations;
  const keyed = (scope: KeyScope): RouteShorthandOptions => ({ onRequest: operator.onRequest, config: { access: 'operator', keyScope: scope } });
  /** Each open stream: its end, and its check whether it may go on (which ends it when not). */
  const open = new Map<() => void, () => boolean>();
  // Before the server stops listening: server.close() waits for every connection, an SSE stream's too, so they end first.
  api.addHook('preClose', async () => {
    for (const end of [...open.keys()]) end();
  });
  // A changed operator token ends at once the streams opened with the old one (as the feed takes its sockets' rights).
  const offToken = auth.onChange(() => {
    for (const over of [...open.values()]) over();
  });
  api.addHook('onClose', async () => offToken());

  // CORS on the stream's routes: on every answer (a refusal too, so a page can read why) and their preflight.
  api.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === '/api/events' || request.routeOptions.url === '/api/events/log') reply.headers(CORS);
  });
  for (const url of ['/api/events', '/api/events/log']) {
    api.options(url, { config: { access: 'public' } }, async (_request, reply) => reply.status(204).headers(PREFLIGHT).send());
  }

  api.get('/api/schema/events.json', async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(eventsSchema()));

  api.get<{ Querystring: { since?: number; types?: string; game?: string } }>(
    '/api/events',
    { ...keyed('events:read'), schema: { querystring: streamQuery } },
    async (request, reply) => {
      const types = typesOf(request.query.types);
      // Without since or Last-Event-ID: from now on (a consumer that wants the history asks for since=0).
      const since = resumePoint(request, request.query.since, stream.head(), stream.epoch);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      // How long a client waits before reconnecting, then from its Last-Event-ID; and the resume point itself, so an
      // EventSource that reconnects before any event came resumes from here, not from its new "now".
      // Then the epoch of the seqs (event `stream`, no id): a consumer keeps it with its seq and gives it back (?epoch=).
      res.write(`retry: 2000\nid: ${since}\n: dice-tower events v${eventsSchema().version as number}, after seq ${since}\n\nevent: stream\ndata: {"epoch":"${stream.epoch}","since":${since}}\n\n`);
      const drained = () => new Promise<void>((resolve) => res.once('drain', resolve));
      // A stream opened with an API key ends when the key is revoked, one opened with the operator token when the token
      // is changed (checked before each event and each heartbeat, and at once when the token changes).
      const token = tokenOf(request);
      let ended = false;
      let stop: (() => void) | null = null;
      /** Stops following and the heartbeat, and ends the response (`last`: its last words) unless it already ended. */
      const end = (last = '') => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        stop?.();
        open.delete(end);
        if (!res.writableEnded) res.end(last);
      };
      /** Whether nothing more may be written: the response has ended, its key was revoked or the operator token changed (which end it). */
      const over = () => {
        if (ended || res.writableEnded || res.destroyed) return true;
        const lost = isKeyToken(token) ? (keys.find(token) === null ? KEY_REVOKED : null) : auth.check(token) === 'ok' ? null : TOKEN_CHANGED;
        if (lost === null) return false;
        end(`event: error\ndata: ${JSON.stringify(lost)}\n\n`);
        return true;
      };
      const heartbeat = setInterval(() => over() || res.write(': ping\n\n'), SSE_HEARTBEAT_MS);
      open.set(end, over);
      stop = follow(
        stream,
        { since, viewer: PUBLIC, types, gameId: request.query.game },
        (event, text) => over() || res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${text}\n\n`) || drained(),
        () => res.destroy(),
      );
      // Ended while the backlog was being sent (follow sends what it can at once): stop now.
      if (ended) stop();
      res.on('close', () => end());
      // A socket that fails (reset by the client) ends the stream; never an unhandled 'error'.
      res.on('error', () => end());
    },
  );

  api.get<{ Querystring: { since?: number; limit?: number; types?: string; game?: string } }>(
    '/api/events/log',
    { ...keyed('events:read'), schema: { querystring: { ...streamQuery, properties: { ...streamQuery.properties, limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE } } } } },
    async (request) => {
      const types = typesOf(request.query.types);
      const head = stream.head();
      const since = resumePoint(request, request.query.since ?? 0, head, stream.epoch);
      const limit = request.query.limit ?? 100;
      const page = stream.read(since, limit);
      const last = page.length > 0 ? (page[page.length - 1] as { seq: number }).seq : since;
      const events = page.filter((e) => (!types || types.has(e.type)) && (!request.query.game || e.gameId === request.query.game)).map((e) => envelope(e, PUBLIC));
      return { epoch: stream.epoch, head, next: last, more: last < head, events };
    },
  );

  // --- API keys ------------------------------------------------------------------------------------------------
  api.get('/api/keys', { ...operator }, async () => ({ keys: keys.list(), scopes: KEY_SCOPES }));

  api.post<{ Body: { name: string; scopes: string[] } }>(
    '/api/keys',
    {
      ...operator,
      schema: {
        body: {
          type: 'object', additionalProperties: false, required: ['name', 'scopes'],
          properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, scopes: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', maxLength: 40 } } },
        },
      },
    },
    async (request, reply) => reply.status(201).send(keys.add(request.body.name, request.body.scopes)),
  );

  api.post<{ Params: { keyId: string } }>('/api/keys/:keyId/revoke', { ...operator, schema: { params: { type: 'object', required: ['keyId'], properties: { keyId: hexId } } } }, async (request) => ({
    key: keys.revoke(request.params.keyId),
  }));

  // --- Webhooks ------------------------------------------------------------------------------------------------
  api.get('/api/webhooks', { ...operator }, async () => ({ webhooks: webhooks.list() }));

  api.post<{ Body: { url: string; types: string[] } }>(
    '/api/webhooks',
    {
      ...operator,
      schema: {
        body: {
          type: 'object', additionalProperties: false, required: ['url', 'types'],
          properties: { url: { type: 'string', minLength: 1, maxLength: 2000 }, types: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', maxLength: 40 } } },
        },
      },
    },
    async (request, reply) => reply.status(201).send(webhooks.add(request.body.url, request.body.types)),
  );

  api.get<{ Params: { hookId: string } }>('/api/webhooks/:hookId', { ...operator, schema: { params: { type: 'object', required: ['hookId'], properties: { hookId: hexId } } } }, async (request) => ({
    webhook: webhooks.get(request.params.hookId),
  }));

  api.post<{ Params: { hookId: string } }>('/api/webhooks/:hookId/remove', { ...operator, schema: { params: { type: 'object', required: ['hookId'], properties: { hookId: hexId } } } }, async (request) => ({
    webhook: webhooks.remove(request.params.hookId),
  }));
}
