/**
 * Game management: take back the last decision (undo), put a game away
 * without a result (end), and play the same table again (rematch).
 */
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { Table } from '../table.js';
import { rematchSeats } from '../table-rematch.js';
import { gameView } from './views.js';
import { GameIdParams } from './schemas.js';
import { EndBody, UndoBody, UndoReply } from './game-schemas.js';

const errors = { 400: { $ref: 'ErrorReply#' }, 401: { $ref: 'ErrorReply#' }, 403: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };

export function registerGameRoutes(api: FastifyInstance, table: Table, operator: RouteShorthandOptions): void {
  api.post<{ Params: { id: string }; Body: { throughBots?: boolean; by?: string } | null }>(
    '/api/games/:id/undo',
    { ...operator, schema: { params: GameIdParams, body: UndoBody, response: { 200: UndoReply, ...errors } } },
    async (request) => {
      const { game, undone } = table.undo(request.params.id, request.body?.by ?? 'operator', request.body?.throughBots ?? true);
      return {
        game: gameView(table, game),
        undone: undone.map(({ seat, action }) => ({ seat, player: seat === null ? null : (game.players[seat] ?? null), bot: seat !== null && game.bots.includes(seat), action })),
      };
    },
  );

  api.post<{ Params: { id: string }; Body: { reason?: string; by?: string } | null }>(
    '/api/games/:id/end',
    { ...operator, schema: { params: GameIdParams, body: EndBody, response: { 200: { $ref: 'GameView#' }, ...errors } } },
    async (request) => gameView(table, table.end(request.params.id, request.body?.by ?? 'operator', request.body?.reason ?? 'ended by the operator')),
  );

  // Same players, options and bot seats (with their levels); the first seat moves on to the next player.
  api.post<{ Params: { id: string } }>(
    '/api/games/:id/rematch',
    { ...operator, schema: { params: GameIdParams, response: { 201: { $ref: 'GameView#' }, ...errors } } },
    async (request, reply) => {
      const old = table.get(request.params.id);
      const seats = rematchSeats(old);
      const created = table.create(old.game, seats.players, { ...old.options }, seats.bots, seats.botLevels);
      return reply.status(201).send(gameView(table, created));
    },
  );
}
