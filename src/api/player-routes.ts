/** Players across games (`src/audit/players.ts`): the list, and one player's record. Public, like the history they come from. */
import type { FastifyInstance } from 'fastify';
import { gameResult, TableError, type Table } from '../table.js';
import { playerDetail, playerList, type PlayedGame } from '../audit/players.js';
import { PlayerDetailReply, PlayerListReply, PlayerParams } from './game-schemas.js';

const errors = { 400: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' } };

/** The table's games as the tally takes them. */
export function playedGames(table: Table): PlayedGame[] {
  return table.list().map((g) => ({
    id: g.id, game: g.game, name: table.definition(g).name, lowScoreWins: table.definition(g).lowScoreWins === true, players: g.players, bots: g.bots, createdAt: g.createdAt, updatedAt: g.updatedAt,
    result: g.ended ? null : gameResult(table, g), ended: g.ended !== undefined,
  }));
}

export function registerPlayerRoutes(api: FastifyInstance, table: Table): void {
  api.get('/api/players', { schema: { response: { 200: PlayerListReply } } }, async () => playerList(playedGames(table)));

  api.get<{ Params: { name: string } }>('/api/players/:name', { schema: { params: PlayerParams, response: { 200: PlayerDetailReply, ...errors } } }, async (request) => {
    const detail = playerDetail(playedGames(table), request.params.name);
    if (!detail) throw new TableError('players/not_found', `Nobody called '${request.params.name}' has played here (bot seats are not counted).`, 404);
    return detail;
  });
}
