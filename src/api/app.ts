/**
 * The Fastify app: REST for games and rolls, the live WebSocket feed and the
 * scoreboard page. Built here, listened to in `server.ts`, so tests can
 * `inject` without a socket.
 */
import Fastify, { errorCodes, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RouteOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import AjvCompiler from '@fastify/ajv-compiler';
import { STATUS_CODES } from 'node:http';
import { fileURLToPath } from 'node:url';
import { TableError, type BotLevel, type Table } from '../table.js';
import type { ColouredDie } from '../dice-match.js';
import { OperatorAuth, tokenOf } from './operator-auth.js';
import { withRedactedRequests } from './log-redaction.js';
import { registerFeed, type FeedOptions } from './feed.js';
import { AuthFailures, tooManyFailures, type AuthFailureLimits } from './auth-failures.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerIntegrationRoutes } from './integration-routes.js';
import { isKeyToken, type Integrations, type KeyScope } from '../integrations/index.js';
import { registerCoachRoutes } from './coach-routes.js';
import { registerGameRoutes } from './game-routes.js';
import { registerPlayerRoutes } from './player-routes.js';
import { registerFreeRollRoutes } from './free-roll-routes.js';
import { NO_SETUP_HARDWARE, registerSetupRoutes, type SetupHardware } from './setup-routes.js';
import { TestRolls } from '../setup/test-rolls.js';
import { bodyProblem, MAX_BODY_KEYS } from './body-limits.js';
import { IdempotencyKeys, keyProblem } from './idempotency.js';
import { canonicalJson } from '../storage/index.js';
import type { RecordHealth } from '../storage/record-check.js';
import type { ExportSigner } from '../audit/export-signing.js';
import QRCode from 'qrcode';
import { catalog, gameView, seatLinks } from './views.js';
import { ActionBody, CatalogReply, CreateGameBody, DiceBody, ErrorReply, GameIdParams, GameViewSchema, HealthReply, RollBody, ScoreBody, SeatLinksReply, SeatParams, SeatQuery } from './schemas.js';

export interface AppDeps {
  readonly table: Table;
  readonly version: string;
  /**
   * The operator's token: every action (new game, roll, decisions, seat links)
   * then needs `Authorization: Bearer <token>`; viewers stay read-only.
   * Without it the API is open (tests, a single trusted screen).
   */
  readonly operatorToken?: string;
  /** Requests per client per minute (none: no limit). */
  readonly rateLimitPerMinute?: number;
  /** Keeps a changed operator token (POST /api/operator/token); throws a TableError when it cannot be changed. Absent: in memory only. */
  readonly saveOperatorToken?: (token: string) => void;
  /** The record check run at start (server.ts), shown by /api/health and the pages' banner. Absent: no record kept. */
  readonly record?: RecordHealth;
  /** Signs exports and checks imports' signatures (export-signing.ts). Absent: exports unsigned, imports checked by their hashes only. */
  readonly exportSigner?: ExportSigner;
  /**
   * Wrong operator tokens per client address (REST and feed): a growing delay,
   * then 429 (auth-failures.ts; `{}`: its defaults). Absent: not limited, for
   * tests that try many wrong tokens on purpose.
   */
  readonly authFailures?: Partial<AuthFailureLimits>;
  /** The feed's heartbeat and send cap (feed.ts; absent: its defaults). */
  readonly feed?: FeedOptions;
  /** The event stream, API keys, webhooks and MQTT (src/integrations). Absent: none of their routes, and no API keys. */
  readonly integrations?: Integrations;
  /** Test rolls and the accuracy tally (setup/test-rolls.ts; server.ts keeps it in the data directory). Absent: a tally in memory. */
  readonly testRolls?: TestRolls;
  /** The hardware the setup page shows: the camera for its preview, the board (server.ts). Absent: no preview, no board. */
  readonly setupHardware?: SetupHardware;
}

/** Who may use a route: anyone, the operator (Bearer token), a seat (its token), anyone except for secret rolls (their seat), or the operator or a seat. */
export type RouteAccess = 'public' | 'operator' | 'seat' | 'public/seat' | 'operator/seat';

export interface RouteInfo {
  readonly method: string;
  readonly url: string;
  readonly access: RouteAccess;
  /** Whether the route takes a body (has a body schema). */
  readonly body: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may use the route (see RouteAccess); none: public. */
    access?: RouteAccess;
    /** Keys a JSON body may hold in all (body-limits.ts); none: MAX_BODY_KEYS. */
    maxBodyKeys?: number;
    /** An operator route an API key with this scope may use too (integrations/api-keys.ts). */
    keyScope?: KeyScope;
  }
}

const routeTables = new WeakMap<FastifyInstance, RouteInfo[]>();

/** Every route the app registered (HEAD twins left out), with its access rule: the README's table and the tests' list. */
export function routesOf(app: FastifyInstance): readonly RouteInfo[] {
  return routeTables.get(app) ?? [];
}

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

const errors = { 400: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };
const gameReply = (status: 200 | 201) => ({ [status]: { $ref: 'GameView#' }, ...errors });

type IdParams = { id: string };

/** A refusal's body, as the error handler sends it (and an Idempotency-Key retry gets it again). */
function errorReply(err: TableError): { statusCode: number; code: string; error: string; message: string; params?: Readonly<Record<string, string | number>> } {
  return { statusCode: err.statusCode, code: err.code, error: STATUS_CODES[err.statusCode] ?? 'Error', message: err.message, ...(err.params ? { params: err.params } : {}) };
}

const validators = AjvCompiler();
type AjvCompilerOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>;

export function buildApp(deps: AppDeps, options: FastifyServerOptions = {}): FastifyInstance {
  const { table } = deps;
  const app = Fastify({
    ...options,
    // The request log hides the tokens that ride in query strings (?operator=, ?token=).
    logger: withRedactedRequests(options.logger),
    // Refuse unknown fields instead of dropping them, and never turn a scalar into an array.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: false } },
    // Path and query parameters arrive as text and are coerced to their types; a JSON body already has types, and
    // coercing it would take `null`, `false` or " " for die 0: bodies are validated without coercion.
    schemaController: {
      compilersFactory: {
        buildValidator: (externalSchemas, ajvOptions = {}) => {
          const options = ajvOptions as AjvCompilerOptions;
          const coercing = validators(externalSchemas, options);
          const typed = validators(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } });
          return (route) => (route.httpPart === 'body' ? typed(route) : coercing(route));
        },
      },
    },
    schemaErrorFormatter: (errs, dataVar) => {
      const e = errs[0];
      const extra = e?.keyword === 'additionalProperties' ? ` ('${String(e.params.additionalProperty)}')` : '';
      return new Error(`${dataVar}${e?.instancePath ?? ''} ${e?.message ?? 'is not valid'}${extra}`);
    },
  });
  const auth = new OperatorAuth(deps.operatorToken, deps.saveOperatorToken);
  const failures = deps.authFailures ? new AuthFailures(deps.authFailures) : undefined;
  // Every route says who may use it (config.access; none: public); the list is kept for the README and the tests.
  const routes: RouteInfo[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = route.config?.access ?? 'public';
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, access, body: route.schema?.body !== undefined });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ statusCode: 404, code: 'api/not_found', error: 'Not Found', message: `There is no ${request.method} ${request.url.split('?')[0]}; the routes are listed in the README.` }),
  );
  app.addSchema(ErrorReply);
  app.addSchema(GameViewSchema);

  app.setErrorHandler((err: FastifyError | TableError, request, reply) => {
    if (err instanceof TableError) return reply.status(err.statusCode).send(errorReply(err));
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const code = err.validation ? 'api/bad_request' : (err.code ?? 'api/bad_request');
      return reply.status(status).send({ statusCode: status, code, error: STATUS_CODES[status] ?? 'Error', message: err.message });
    }
    request.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ statusCode: 500, code: 'api/internal', error: 'Internal Server Error', message: 'Something went wrong on the server; the game state is unchanged.' });
  });

  // Ajv's type coercion reads " " as 0 and " 1" as 1: a number in the path must be plain digits, or "/seats/%20" is seat 0.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema?.params as { properties?: Record<string, { type?: unknown }> } | undefined;
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (schema?.properties?.[name]?.type === 'integer' && typeof value === 'string' && !/^[0-9]+$/.test(value)) {
        throw new TableError('api/bad_request', `params/${name} must be a whole number written in digits, got '${value}'`, 400);
      }
    }
  });

  // JSON bodies are parsed as Fastify does, then held to body-limits.ts (depth, keys in all, no __proto__/constructor/prototype
  // keys): a refusal names the limit, and nothing deeper reaches the game log. A route may allow more keys (config.maxBodyKeys).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = (body as string).charCodeAt(0) === 0xfeff ? (body as string).slice(1) : (body as string);
    if (text.length === 0) return done(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
    }
    const problem = bodyProblem(value, request.routeOptions.config.maxBodyKeys ?? MAX_BODY_KEYS);
    if (problem) return done(new TableError(problem.code, problem.message, 400), undefined);
    done(null, value);
  });

  // The feed takes no messages worth more than a few bytes: cap what a client may send.
  // No compression: a feed message is small, and feed.ts writes its broadcasts' frames to the sockets itself (textFrame).
  app.register(fastifyWebsocket, { options: { maxPayload: 4096, perMessageDeflate: false } });
  // The usual security headers; the page loads only its own scripts, and talks to its own server (fetch and WebSocket).
  app.register(fastifyHelmet, {
    contentSecurityPolicy: { directives: { 'connect-src': ["'self'", 'ws:', 'wss:'], 'img-src': ["'self'", 'data:'] } },
  });
  // The limit is for the API. The pages and their files (the static route) and the two cheap reads every page makes on
  // loading are not counted, so an audience behind one address (a venue's network) keeps loading them; /ws has its own
  // budget (feed.ts), wrong operator tokens their own counter (auth-failures.ts). Writes and the other reads count.
  if (deps.rateLimitPerMinute) {
    // GET and HEAD of these are not counted: @fastify/static's route (`/` and every file) and the reads of every page load.
    const uncounted = new Set(['/*', '/api/health', '/api/games/catalog']);
    app.register(fastifyRateLimit, {
      max: deps.rateLimitPerMinute,
      timeWindow: 60_000,
      allowList: (request) => (request.method === 'GET' || request.method === 'HEAD') && uncounted.has(request.routeOptions.url ?? ''),
    });
  }

  /** Refuses a request without the operator's token (when one is set). The QR image may carry it as `?operator=`, an <img> cannot send headers. */
  const operatorOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    const given = tokenOf(request);
    // A token sent is a guess to count (a missing one guesses nothing: it stays a plain 401).
    // An API key stands in for the operator on a route that names its scope (config.keyScope); a wrong one counts as a guess.
    const keys = deps.integrations?.keys;
    const isKey = keys !== undefined && isKeyToken(given);
    if (failures && given !== '' && (auth.enabled || isKey)) {
      const retryAfter = await failures.attempt(request.ip, () => (isKey && keys ? keys.find(given) !== null : auth.check(given) === 'ok'));
      if (retryAfter > 0) {
        reply.header('retry-after', String(retryAfter));
        throw tooManyFailures(failures.limits, retryAfter);
      }
    }
    if (isKey) {
      keys.require(given, request.routeOptions.config.keyScope);
      return;
    }
    auth.require(given);
  };
  // Checked before the body is even validated: a viewer learns nothing from an operator route.
  const operator = { onRequest: operatorOnly, config: { access: 'operator' as RouteAccess } };
  app.register(fastifyStatic, { root: PUBLIC_DIR, index: 'index.html' });

  app.addHook('onClose', async () => {
    table.close();
  });

  const idempotency = new IdempotencyKeys();
  /**
   * Makes an operator's change of a game once per Idempotency-Key header (idempotency.ts), so a retried request is not
   * applied twice; without the header it is simply made. A refusal (4xx) is remembered like a success; a fault (5xx)
   * applied nothing and is not, so a retry tries again.
   */
  const once = async (request: FastifyRequest<{ Params: IdParams }>, reply: FastifyReply, change: () => Promise<unknown>): Promise<unknown> => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return change();
    if (typeof key !== 'string') throw new TableError('api/bad_idempotency_key', 'Send one Idempotency-Key header, not several.', 400);
    const problem = keyProblem(key);
    if (problem) throw new TableError('api/bad_idempotency_key', problem, 400);
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    // The parameters too: one seat's key is never another seat's retry.
    const answer = await idempotency.run(request.params.id, key, canonicalJson([route, { ...request.params }, request.body ?? null]), route, async () => {
      try {
        return { status: 200, body: await change() };
      } catch (err) {
        if (err instanceof TableError && err.statusCode < 500) return { status: err.statusCode, body: errorReply(err) };
        throw err;
      }
    });
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(answer.status).send(answer.body);
  };

  app.register(async (api) => {
    registerFeed(api, table, auth, { ...deps.feed, failures, integrations: deps.integrations });
    if (deps.integrations) registerIntegrationRoutes(api, deps.integrations, operator, auth);
    registerAuditRoutes(api, table, auth, operator, deps.exportSigner);
    registerCoachRoutes(api, table, operatorOnly);
    registerGameRoutes(api, table, operator);
    registerPlayerRoutes(api, table);
    registerFreeRollRoutes(api, table, operator);
    const testRolls = deps.testRolls ?? new TestRolls(table);
    registerSetupRoutes(api, table, testRolls, deps.setupHardware ?? NO_SETUP_HARDWARE, operator);

    api.get('/api/health', { schema: { response: { 200: HealthReply } } }, async () => {
      const coach = table.coach()?.memory();
      return {
        status: 'ok',
        version: deps.version,
        tower: table.tower(),
        games: table.list().length,
        accuracy: testRolls.tally(),
        ...(coach ? { coach: { tables: coach.tables, bytes: coach.bytes, budget: coach.budget } } : {}),
        ...(deps.record ? { record: deps.record } : {}),
        ...(deps.exportSigner ? { exportKey: deps.exportSigner.publicKey } : {}),
      };
    });

    api.get('/api/games/catalog', { schema: { response: { 200: CatalogReply } } }, async () => catalog(table));

    api.get('/api/games', { schema: { response: { 200: { type: 'array', items: { $ref: 'GameView#' } } } } }, async () =>
      table.list().map((g) => gameView(table, g)),
    );

    api.post<{ Body: { game: string; players: string[]; options?: Record<string, unknown>; bots?: Array<number | { seat: number; level?: BotLevel }> } }>(
      '/api/games',
      { ...operator, schema: { body: CreateGameBody, response: gameReply(201) } },
      async (request, reply) => {
        const { game, players, options, bots = [] } = request.body;
        const seats = bots.map((b) => (typeof b === 'number' ? b : b.seat));
        const levels = Object.fromEntries(bots.flatMap((b) => (typeof b === 'number' || !b.level ? [] : [[b.seat, b.level]])));
        const created = table.create(game, players, options ?? {}, seats, levels);
        return reply.status(201).send(gameView(table, created));
      },
    );

    api.get<{ Params: IdParams }>('/api/games/:id', { schema: { params: GameIdParams, response: gameReply(200) } }, async (request) =>
      gameView(table, table.get(request.params.id)),
    );

    api.post<{ Params: IdParams; Body: { values?: number[]; dice?: ColouredDie[] } | null }>(
      '/api/games/:id/roll',
      // Other programs may ask for a roll with an API key of scope rolls:request.
      { ...operator, config: { ...operator.config, keyScope: 'rolls:request' }, schema: { params: GameIdParams, body: RollBody, response: gameReply(200) } },
      async (request, reply) => once(request, reply, async () => gameView(table, await table.roll(request.params.id, request.body?.values, request.body?.dice))),
    );

    for (const type of ['hold', 'release'] as const) {
      api.post<{ Params: IdParams; Body: { dice: number[] } }>(
        `/api/games/:id/${type}`,
        { ...operator, schema: { params: GameIdParams, body: DiceBody, response: gameReply(200) } },
        async (request) => gameView(table, table.act(request.params.id, { type, dice: request.body.dice } as { type: string })),
      );
    }

    api.post<{ Params: IdParams; Body: { category: string } }>(
      '/api/games/:id/score',
      { ...operator, schema: { params: GameIdParams, body: ScoreBody, response: gameReply(200) } },
      async (request) => gameView(table, table.act(request.params.id, { type: 'score', category: request.body.category } as { type: string })),
    );

    api.post<{ Params: IdParams; Body: { type: string } }>(
      '/api/games/:id/actions',
      { ...operator, schema: { params: GameIdParams, body: ActionBody, response: gameReply(200) } },
      async (request, reply) => once(request, reply, async () => gameView(table, table.act(request.params.id, request.body))),
    );

    // Private pages: each seat sees its own secret dice with its token (links and QR codes from /seats).
    api.get<{ Params: IdParams }>('/api/games/:id/seats', { ...operator, schema: { params: GameIdParams, response: { 200: SeatLinksReply, 404: { $ref: 'ErrorReply#' } } } }, async (request) =>
      seatLinks(table, table.get(request.params.id)),
    );

    api.get<{ Params: IdParams & { seat: number }; Querystring: { token: string } }>(
      '/api/games/:id/seats/:seat',
      { config: { access: 'seat' }, schema: { params: SeatParams, querystring: SeatQuery, response: { 200: { $ref: 'GameView#' }, 403: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' } } } },
      async (request) => {
        const { id, seat } = request.params;
        return gameView(table, table.checkSeat(id, seat, request.query.token), seat, request.query.token);
      },
    );

    // A seat makes its own moves from its private page (its token is its authority, on its turn only; Table.actForSeat).
    api.post<{ Params: IdParams & { seat: number }; Querystring: { token: string }; Body: { type: string } }>(
      '/api/games/:id/seats/:seat/actions',
      { config: { access: 'seat' }, schema: { params: SeatParams, querystring: SeatQuery, body: ActionBody, response: { ...gameReply(200), 403: { $ref: 'ErrorReply#' } } } },
      async (request, reply) => {
        const { id, seat } = request.params;
        const { token } = request.query;
        // The token first, a retry included: a key alone never gets a seat's private view.
        table.checkSeat(id, seat, token);
        return once(request, reply, async () => gameView(table, table.actForSeat(id, seat, token, request.body), seat, token));
      },
    );

    api.get<{ Params: IdParams & { seat: number } }>(
      '/api/games/:id/seats/:seat/qr.svg',
      { ...operator, schema: { params: SeatParams, querystring: { type: 'object', properties: { operator: { type: 'string', maxLength: 100 } } }, response: { 404: { $ref: 'ErrorReply#' }, 410: { $ref: 'ErrorReply#' } } } },
      async (request, reply) => {
        const link = seatLinks(table, table.get(request.params.id))[request.params.seat];
        if (!link) throw new TableError('table/no_such_seat', `Game '${request.params.id}' has no seat ${request.params.seat}.`, 404);
        if (!link.path) throw new TableError('table/seat_claimed', `Seat ${request.params.seat}'s page is already open; its link is no longer shown.`, 410);
        const origin = `${request.protocol}://${request.host}`;
        const svg = await QRCode.toString(`${origin}${link.path}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
        return reply.type('image/svg+xml').header('cache-control', 'no-store').send(svg);
      },
    );

    api.post<{ Params: IdParams & { seat: number } }>(
      '/api/games/:id/seats/:seat/reissue',
      { ...operator, schema: { params: SeatParams, response: { 200: SeatLinksReply, 404: { $ref: 'ErrorReply#' } } } },
      async (request) => {
        table.reissueSeat(request.params.id, request.params.seat);
        return seatLinks(table, table.get(request.params.id));
      },
    );

    api.get<{ Params: IdParams & { seq: number }; Querystring: { seat?: number; token?: string } }>(
      '/api/games/:id/rolls/:seq/frame.jpg',
      {
        config: { access: 'public/seat' },
        schema: {
          params: { type: 'object', required: ['id', 'seq'], properties: { id: GameIdParams.properties.id, seq: { type: 'integer', minimum: 1 } } },
          querystring: {
            type: 'object',
            additionalProperties: false,
            properties: { seat: SeatParams.properties.seat, token: SeatQuery.properties.token },
          },
          response: { 403: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' } },
        },
      },
      async (request, reply) => {
        const { id, seq } = request.params;
        const { seat, token } = request.query;
        const viewer = seat !== undefined && token !== undefined ? (table.checkSeat(id, seat, token), seat) : null;
        return reply.type('image/jpeg').header('cache-control', 'private, max-age=86400').send(table.frame(id, seq, viewer));
      },
    );
  });

  return app;
}
