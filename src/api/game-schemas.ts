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

export const PlayerParams = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;

const playerSummary = {
  type: 'object',
  required: ['name', 'games', 'finished', 'wins', 'lastPlayedAt'],
  properties: { name: { type: 'string' }, games: { type: 'integer' }, finished: { type: 'integer' }, wins: { type: 'integer' }, lastPlayedAt: { type: 'number' } },
} as const;

/** Every player, the one who played last first. */
export const PlayerListReply = { type: 'array', items: playerSummary } as const;

export const PlayerDetailReply = {
  type: 'object',
  required: [...playerSummary.required, 'byGame', 'recent'],
  properties: {
    ...playerSummary.properties,
    byGame: {
      type: 'array',
      items: {
        type: 'object',
        required: ['game', 'name', 'played', 'finished', 'wins', 'best', 'lowWins'],
        properties: { game: { type: 'string' }, name: { type: 'string' }, played: { type: 'integer' }, finished: { type: 'integer' }, wins: { type: 'integer' }, best: { type: ['number', 'null'] }, lowWins: { type: 'boolean' } },
      },
    },
    recent: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'game', 'name', 'seat', 'players', 'at', 'state', 'won', 'score'],
        properties: {
          id: { type: 'string' }, game: { type: 'string' }, name: { type: 'string' }, seat: { type: 'integer' }, players: { type: 'array', items: { type: 'string' } },
          at: { type: 'number' }, state: { type: 'string', enum: ['playing', 'over', 'ended'] }, won: { type: 'boolean' }, score: { type: ['number', 'null'] },
        },
      },
    },
  },
} as const;

/** The table feed: recent steps as text keys and parameters, oldest first (src/games/feed-words.ts), put in words on the page. */
export const FeedSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['n', 'seat', 'bot', 'key', 'params'],
    properties: { n: { type: 'integer' }, seat: { type: ['integer', 'null'] }, bot: { type: 'boolean' }, key: { type: 'string' }, params: { type: 'object', additionalProperties: true } },
  },
} as const;
