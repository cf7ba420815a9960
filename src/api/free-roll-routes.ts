/**
 * Free rolls for scripts and other programs: `POST /api/rolls {"count":5}`
 * throws that many dice in a "Just roll" session and answers the reading.
 * The throw is a roll of that game like any other: recorded, shown on the
 * scoreboard with its frame, and counted in the fairness test.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TableError, type Table, type TableGame } from '../table.js';
import { JUST_ROLL_MAX_DICE, type JustRollState } from '../games/just-roll.js';
import { effectiveValues } from '../table-replay.js';
import { frameUrl } from './views.js';

/** The player of the session this route starts when none is going on. */
export const SCRIPT_PLAYER = 'Scripts';

export const FreeRollBody = {
  type: 'object',
  required: ['count'],
  additionalProperties: false,
  properties: {
    count: { type: 'integer', minimum: 1, maximum: JUST_ROLL_MAX_DICE },
    /** One colour per die, when the camera has been calibrated for them. */
    colours: { type: 'array', maxItems: JUST_ROLL_MAX_DICE, items: { type: 'string', minLength: 1, maxLength: 20 } },
    /** The Just roll game to throw in (none: the latest one going on, or a new one). */
    game: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  },
} as const;

export const FreeRollReply = {
  type: 'object',
  required: ['game', 'seq', 'values', 'sum', 'attempts', 'source', 'frameUrl', 'dice'],
  properties: {
    game: { type: 'string' },
    seq: { type: 'integer' },
    values: { type: 'array', items: { type: 'integer' } },
    sum: { type: 'integer' },
    attempts: { type: 'integer' },
    source: { type: 'string' },
    frameUrl: { type: ['string', 'null'] },
    /** Each die as read, in throw order: its value, colour and where it lay in the frame (pixels). */
    dice: {
      type: 'array',
      items: {
        type: 'object',
        properties: { value: { type: 'integer' }, colour: { type: 'string' }, center: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } } },
      },
    },
  },
} as const;

type FreeRollRequest = { count: number; colours?: string[]; game?: string };

/** The session to throw in: the one named, else the latest Just roll game not ended, else a new one. */
function sessionFor(table: Table, body: FreeRollRequest): TableGame {
  if (body.game !== undefined) {
    const game = table.get(body.game);
    if (game.game !== 'just-roll') throw new TableError('rolls/not_free_rolls', `Game '${body.game}' is ${table.definition(game).name}, not Just roll: roll it through /api/games/${body.game}/roll.`, 400);
    if ((game.state as JustRollState).over) throw new TableError('game/over', `The Just roll session '${body.game}' has ended; leave "game" out to start a new one.`, 409);
    return game;
  }
  const going = table
    .list()
    .filter((g) => g.game === 'just-roll' && !(g.state as JustRollState).over)
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return going ?? table.create('just-roll', [SCRIPT_PLAYER], { count: body.count });
}

export function registerFreeRollRoutes(api: FastifyInstance, table: Table, operator: { readonly onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void> }): void {
  api.post<{ Body: FreeRollRequest }>(
    '/api/rolls',
    // Like a game's roll, other programs may ask with an API key of scope rolls:request.
    { onRequest: operator.onRequest, config: { access: 'operator', keyScope: 'rolls:request' }, schema: { body: FreeRollBody, response: { 200: FreeRollReply } } },
    async (request) => {
      const body = request.body;
      if (!table.findGame('just-roll')) throw new TableError('table/unknown_game', 'This server has no Just roll game.', 400);
      let game = sessionFor(table, body);
      const state = game.state as JustRollState;
      const colours = body.colours ?? [];
      if (state.count !== body.count || state.colours.join() !== colours.join()) {
        game = table.act(game.id, { type: 'dice', count: body.count, colours } as { type: string });
      }
      game = await table.roll(game.id);
      const roll = game.rolls[game.rolls.length - 1];
      if (!roll) throw new Error('a roll was applied but not recorded');
      const values = effectiveValues(roll, game.corrections);
      // Coloured dice come back in the order asked for; plain dice in the reading's order.
      const dice = roll.dice
        ? roll.dice.map((d) => ({ value: d.value, colour: d.colour }))
        : (roll.reading?.dice ?? []).map((d) => ({ value: d.value ?? 0, colour: d.colour, center: d.center }));
      return {
        game: game.id,
        seq: roll.seq,
        values,
        sum: values.reduce((a, b) => a + b, 0),
        attempts: roll.attempts,
        source: roll.source,
        frameUrl: frameUrl(game, roll),
        dice,
      };
    },
  );
}
