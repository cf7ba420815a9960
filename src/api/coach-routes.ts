/**
 * The coach at the table: hints (the decisions open now, ranked by the
 * coach's value) and the post-game analysis of every decision made.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { actingSeat } from '../games/index.js';
import { TableError, type Table, type TableGame } from '../table.js';
import { analyseGame } from '../coach/analysis.js';
import type { AnyPolicy } from '../coach/library.js';
import { AnalysisReply, GameIdParams, HintQuery, HintReply } from './schemas.js';

const errors = { 400: { $ref: 'ErrorReply#' }, 401: { $ref: 'ErrorReply#' }, 403: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };

/** The policy for this game's rules, or a refusal that says why there is none yet (solving) or at all. */
function policyOf(table: Table, game: TableGame, reply: FastifyReply): AnyPolicy {
  const coach = table.coach();
  const def = table.definition(game);
  if (!coach) throw new TableError('coach/unavailable', 'This server runs without the coach.', 409);
  const status = coach.status(game.game, { ...def.defaultOptions, ...game.options });
  if (status.state === 'ready') return status.policy;
  if (status.state === 'loading') {
    reply.header('retry-after', '2');
    throw new TableError('coach/loading', `The coach is loading its ${def.name} tables for these rules; ask again in a moment.`, 503);
  }
  if (status.state === 'solving') {
    reply.header('retry-after', '5');
    const share = status.total > 0 ? Math.floor((100 * status.done) / status.total) : 0;
    const where = status.queued ? 'waits for another solve to end' : `is working out ${def.name} for these rules (${share} %)`;
    throw new TableError('coach/solving', `The coach ${where}; ask again in a moment.`, 503);
  }
  throw new TableError('coach/unavailable', status.state === 'failed' ? status.reason : `No coach for this game: ${status.reason}`, 409);
}

export function registerCoachRoutes(api: FastifyInstance, table: Table, operatorOnly: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): void {
  // The operator sees any seat's hint; a player, with their seat's token, only their own, on their own turn.
  api.get<{ Params: { id: string }; Querystring: { seat?: number; token?: string } }>(
    '/api/games/:id/hint',
    { config: { access: 'operator/seat' }, schema: { params: GameIdParams, querystring: HintQuery, response: { 200: HintReply, ...errors } } },
    async (request, reply) => {
      const { seat, token } = request.query;
      let game: TableGame;
      if (token !== undefined) {
        if (seat === undefined) throw new TableError('api/bad_request', 'A seat token comes with its seat: ?seat=N&token=...', 400);
        game = table.checkSeat(request.params.id, seat, token);
      } else {
        await operatorOnly(request, reply);
        game = table.get(request.params.id);
      }
      const def = table.definition(game);
      const toMove = actingSeat(def, game.state);
      if (token !== undefined && toMove !== seat) throw new TableError('table/not_your_turn', `It is not ${game.players[seat as number] ?? `seat ${seat}`}'s turn: hints are for the player to move.`, 403);
      const policy = policyOf(table, game, reply);
      // A seat is coached on what it may see (no coached game hides anything today; one that does must not leak it).
      const seen = token !== undefined ? def.playerView(game.state, seat as number) : game.state;
      const outside = policy.outside(seen);
      if (outside) throw new TableError('coach/outside', `The coach cannot judge this position: ${outside}`, 409);
      const started = performance.now();
      const decisions = toMove === null ? [] : policy.decisions(seen);
      return {
        game: game.id,
        seat: toMove,
        player: toMove === null ? null : (game.players[toMove] ?? null),
        measure: policy.measure,
        optimum: policy.optimum,
        decisions,
        ms: Math.round((performance.now() - started) * 100) / 100,
      };
    },
  );

  api.get<{ Params: { id: string } }>('/api/games/:id/analysis', { schema: { params: GameIdParams, response: { 200: AnalysisReply, ...errors } } }, async (request, reply) => {
    const game = table.get(request.params.id);
    const def = table.definition(game);
    // Secret throws would show in the decisions made on them: those games are analysed once over.
    if (def.secretThrows && !def.result(game.state)) throw new TableError('coach/secret', `${def.name} has secret throws: its analysis opens when the game is over.`, 409);
    const policy = policyOf(table, game, reply);
    const analysis = analyseGame(def, policy, game.players, { ...def.defaultOptions, ...game.options }, game.actions);
    return { game: game.id, name: def.name, over: def.result(game.state) !== null, optimum: policy.optimum, ...analysis };
  });
}
