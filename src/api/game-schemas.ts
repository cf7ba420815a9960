/**
 * Schemas of game management: undo, end, rematch (game-routes.ts), and the
 * parts they add to a game's view. Kept apart from schemas.ts, which holds the
 * core game and record shapes.
 */

/** Who asks (default "operator"), as corrections name it. */
const by = { type: 'string', minLength: 1, maxLength: 40 } as const;

export const UndoBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    /** Take a bot's moves back together with the person's move before them (default true). */
    throughBots: { type: 'boolean' },
    by,
  },
} as const;

export const EndBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    /** Why the game is put away ("we stopped for dinner"); default "ended by the operator". */
    reason: { type: 'string', minLength: 1, maxLength: 200 },
    by,
  },
} as const;

/** A game ended without a result: by whom, why, when (null while it is not). */
export const EndedSchema = {
  type: ['object', 'null'],
  required: ['by', 'reason', 'at'],
  properties: { by: { type: 'string' }, reason: { type: 'string' }, at: { type: 'number' } },
} as const;

export const UndoReply = {
  type: 'object',
  required: ['game', 'undone'],
  properties: {
    game: { $ref: 'GameView#' },
    /** The decisions taken back, newest first. */
    undone: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seat', 'player', 'action'],
        properties: { seat: { type: ['integer', 'null'] }, player: { type: ['string', 'null'] }, bot: { type: 'boolean' }, action: { type: 'object', additionalProperties: true } },
      },
    },
  },
} as const;
