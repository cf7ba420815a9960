/**
 * Routes of the record: history (sessions, games, their rolls), corrections,
 * fairness, export and import of a game, and the operator's token.
 */
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { gameResult, TableError, type Table, type TableGame } from '../table.js';
import { fairness, typedInCounts, type DieOutcome } from '../audit/fairness.js';
import { effectiveValues } from '../table-replay.js';
import type { GameExport } from '../audit/game-export.js';
import type { ExportSigner } from '../audit/export-signing.js';
import { frameUrl, gameView, rollView } from './views.js';
import type { OperatorAuth } from './operator-auth.js';
import { MAX_EXPORT_KEYS } from './body-limits.js';
import {
  CorrectionBody, FairnessQuery, FairnessReply, GameExportReply, GameExportSchema, GameIdParams, HistoryReply, RollListReply, RollParams, TokenBody, TokenReply,
} from './schemas.js';

const errors = { 400: { $ref: 'ErrorReply#' }, 401: { $ref: 'ErrorReply#' }, 403: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 422: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };

/** A game as the history lists it. */
function summary(table: Table, game: TableGame, sessions: ReadonlyArray<{ id: number; startedAt: number }>) {
  const result = gameResult(table, game);
  // The server run the game was started in: the last one started before it.
  const session = [...sessions].reverse().find((s) => s.startedAt <= game.createdAt)?.id ?? null;
  return {
    id: game.id,
    game: game.game,
    name: table.definition(game).name,
    players: game.players,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
    rollCount: game.rolls.length,
    correctionCount: game.corrections.length,
    over: result !== null,
    ended: game.ended !== undefined,
    winners: result?.winners ?? [],
    session,
    ...(table.isUnverified(game.id) ? { unverified: true } : {}),
  };
}

/**
 * The dice for the fairness test: every die of every roll with its value after
 * corrections, keyed by the colour the camera read. Typed-in dice are never
 * among them (`typedIn`, counted apart, never judged). Secret throws of games
 * still running are left out: their counts would give them away.
 */
export function fairnessOutcomes(table: Table, games: readonly TableGame[]): { outcomes: DieOutcome[]; typedIn: number[]; excludedSecret: number } {
  const outcomes: DieOutcome[] = [];
  const typedIn: number[] = [];
  let excludedSecret = 0;
  for (const game of games) {
    const over = gameResult(table, game) !== null;
    for (const roll of game.rolls) {
      const values = effectiveValues(roll, game.corrections);
      if (roll.request.secret && !over) {
        excludedSecret += values.length;
        continue;
      }
      // Typed in (coloured Las Vegas dice included): what was entered, not what a die did.
      if (roll.source === 'manual') {
        typedIn.push(...values);
        continue;
      }
      values.forEach((value, i) => {
        // Coloured dice carry their colour (in the request's order); plain dice take it from the reading (same order as the values).
        const coloured = roll.dice?.[i];
        const die = roll.reading?.dice[i];
        if (!coloured && !die) {
          typedIn.push(value);
          return;
        }
        const key = coloured ? `${coloured.colour}${coloured.size === 'big' ? ' (big)' : ''}` : die!.colourConfident === false ? `${die!.colour}?` : die!.colour;
        outcomes.push({ key, value });
      });
    }
  }
  return { outcomes, typedIn, excludedSecret };
}

export function registerAuditRoutes(api: FastifyInstance, table: Table, auth: OperatorAuth, operator: RouteShorthandOptions, signer?: ExportSigner): void {
  api.get('/api/history', { schema: { response: { 200: HistoryReply } } }, async () => {
    const sessions = table.sessions();
    const games = table.list().sort((a, b) => b.createdAt - a.createdAt).map((g) => summary(table, g, sessions));
    return { sessions, games };
  });

  // Every roll of a game with its reading and corrections; a secret throw shows no values (its frame route refuses too).
  api.get<{ Params: { id: string } }>('/api/games/:id/rolls', { schema: { params: GameIdParams, response: { 200: RollListReply, ...errors } } }, async (request) => {
    const game = table.get(request.params.id);
    return {
      game: summary(table, game, table.sessions()),
      rolls: game.rolls.map((roll) => {
        const view = rollView(game, roll);
        const secret = roll.request.secret;
        return { ...view, player: roll.request.player, secret, values: secret ? null : view.values, read: secret ? null : view.read, readingValues: secret ? null : view.readingValues, corrections: secret ? [] : view.corrections, frameUrl: secret ? null : frameUrl(game, roll), reading: secret ? null : view.reading };
      }),
    };
  });

  api.post<{ Params: { id: string; seq: number }; Body: { values: number[]; reason: string; by?: string } }>(
    '/api/games/:id/rolls/:seq/correction',
    { ...operator, schema: { params: RollParams, body: CorrectionBody, response: { 200: { $ref: 'GameView#' }, ...errors } } },
    async (request) => {
      const { id, seq } = request.params;
      const { values, reason, by } = request.body;
      return gameView(table, table.correct(id, seq, values, by ?? 'operator', reason));
    },
  );

  api.get<{ Querystring: { game?: string } }>('/api/fairness', { schema: { querystring: FairnessQuery, response: { 200: FairnessReply, ...errors } } }, async (request) => {
    const games = request.query.game ? [table.get(request.query.game)] : table.list();
    const { outcomes, typedIn, excludedSecret } = fairnessOutcomes(table, games);
    return { scope: request.query.game ?? 'all games', ...fairness(outcomes), typedIn: typedInCounts(typedIn), excludedSecret };
  });

  // The export holds every secret throw: operator only.
  api.get<{ Params: { id: string } }>('/api/games/:id/export', { ...operator, schema: { params: GameIdParams, response: { 200: GameExportReply, ...errors } } }, async (request, reply) => {
    const exp = signer ? signer.sign(table.exportGame(request.params.id)) : table.exportGame(request.params.id);
    return reply.header('content-disposition', `attachment; filename="dice-tower-${exp.gameId}.json"`).send(exp);
  });

  api.post<{ Body: GameExport }>('/api/games/import', { ...operator, config: { ...operator.config, maxBodyKeys: MAX_EXPORT_KEYS }, bodyLimit: 16 * 1024 * 1024, schema: { body: GameExportSchema, response: { 201: { $ref: 'GameView#' }, ...errors } } }, async (request, reply) =>
    {
      // Signed exports: one whose signature fails (changed, cut short, rehashed) or whose key is not trusted is refused, saying which.
      const untrusted = signer?.problem(request.body);
      if (untrusted) throw new TableError('import/untrusted', `The export is refused: ${untrusted}; nothing was imported.`, 422);
      return reply.status(201).send(gameView(table, table.importGame(request.body)));
    },
  );

  api.post<{ Body: { token?: string } | null }>('/api/operator/token', { ...operator, schema: { body: TokenBody, response: { 200: TokenReply, ...errors } } }, async (request) => ({
    token: auth.change(request.body?.token),
  }));
}
