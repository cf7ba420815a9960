/** JSON schemas of every request and response (Ajv validates, fast-json-stringify serialises). */

export const ErrorReply = {
  $id: 'ErrorReply',
  type: 'object',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
  },
} as const;

const point = { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } } as const;

/** A game as the API shows it; `state` and `board` are game-specific plain data. */
export const GameViewSchema = {
  $id: 'GameView',
  type: 'object',
  required: ['id', 'game', 'name', 'players', 'bots', 'secretThrows', 'version', 'createdAt', 'updatedAt', 'request', 'result', 'board', 'actions', 'lastRoll', 'rollCount', 'state'],
  properties: {
    id: { type: 'string' },
    game: { type: 'string' },
    name: { type: 'string' },
    players: { type: 'array', items: { type: 'string' } },
    bots: { type: 'array', items: { type: 'integer' } },
    secretThrows: { type: 'boolean' },
    seatsClaimed: { type: 'array', items: { type: 'boolean' } },
    viewer: { type: ['integer', 'null'] },
    version: { type: 'integer' },
    createdAt: { type: 'number' },
    updatedAt: { type: 'number' },
    request: {
      type: ['object', 'null'],
      properties: {
        count: { type: 'integer' },
        slots: { type: 'array', items: { type: 'integer' } },
        player: { type: 'integer' },
        secret: { type: 'boolean' },
      },
    },
    result: {
      type: ['object', 'null'],
      properties: { winners: { type: 'array', items: { type: 'integer' } }, scores: { type: 'array', items: { type: 'number' } } },
    },
    board: { type: ['object', 'null'], additionalProperties: true },
    lastRoll: {
      type: ['object', 'null'],
      properties: {
        seq: { type: 'integer' },
        values: { type: 'array', items: { type: 'integer' } },
        slots: { type: 'array', items: { type: 'integer' } },
        source: { type: 'string', enum: ['tower', 'manual'] },
        attempts: { type: 'integer' },
        at: { type: 'number' },
        frameUrl: { type: ['string', 'null'] },
        reading: {
          type: ['object', 'null'],
          properties: {
            width: { type: 'integer' },
            height: { type: 'integer' },
            ms: { type: 'number' },
            dice: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  value: { type: ['integer', 'null'] },
                  colour: { type: 'string' },
                  center: point,
                  box: { type: 'array', items: point },
                  confidence: { type: 'number' },
                },
              },
            },
          },
        },
      },
    },
    actions: { type: 'array', items: { type: 'object', additionalProperties: true } },
    rollCount: { type: 'integer' },
    state: { type: 'object', additionalProperties: true },
  },
} as const;

export const GameIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
  additionalProperties: false,
} as const;

export const CreateGameBody = {
  type: 'object',
  required: ['game', 'players'],
  additionalProperties: false,
  properties: {
    game: { type: 'string', minLength: 1, maxLength: 64 },
    players: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'string', minLength: 1, maxLength: 40 } },
    options: { type: 'object', additionalProperties: true },
    /** Seats (0-based) the game's bot plays. */
    bots: { type: 'array', maxItems: 12, uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 11 } },
  },
} as const;

export const RollBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    values: { type: 'array', minItems: 1, maxItems: 30, items: { type: 'integer', minimum: 1, maximum: 6 } },
    /** Dice typed in with their colour and size, for games that ask for coloured dice (Las Vegas). */
    dice: {
      type: 'array',
      minItems: 1,
      maxItems: 30,
      items: {
        type: 'object',
        required: ['value', 'colour', 'size'],
        additionalProperties: false,
        properties: {
          value: { type: 'integer', minimum: 1, maximum: 6 },
          colour: { type: 'string', minLength: 1, maxLength: 20 },
          size: { type: 'string', enum: ['normal', 'big'] },
        },
      },
    },
  },
} as const;

export const DiceBody = {
  type: 'object',
  required: ['dice'],
  additionalProperties: false,
  properties: { dice: { type: 'array', minItems: 1, maxItems: 30, items: { type: 'integer', minimum: 0, maximum: 29 } } },
} as const;

export const ScoreBody = {
  type: 'object',
  required: ['category'],
  additionalProperties: false,
  properties: { category: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;

export const TowerStatusSchema = {
  type: 'object',
  required: ['kind', 'state', 'message', 'gameId'],
  properties: {
    kind: { type: 'string' },
    state: { type: 'string', enum: ['ready', 'rolling', 'fault'] },
    message: { type: 'string' },
    gameId: { type: ['string', 'null'] },
  },
} as const;

export const HealthReply = {
  type: 'object',
  required: ['status', 'version', 'tower', 'games'],
  properties: {
    status: { type: 'string' },
    version: { type: 'string' },
    tower: TowerStatusSchema,
    games: { type: 'integer' },
  },
} as const;

/** Any game action other than a roll; the game itself checks the rest of its shape. */
export const ActionBody = {
  type: 'object',
  required: ['type'],
  additionalProperties: true,
  maxProperties: 8,
  properties: { type: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;

const optionSpec = {
  type: 'object',
  required: ['name', 'type', 'default', 'description'],
  properties: {
    name: { type: 'string' },
    type: { type: 'string', enum: ['integer', 'number', 'boolean', 'choice'] },
    default: { type: ['integer', 'number', 'boolean', 'string'] },
    min: { type: 'number' },
    max: { type: 'number' },
    choices: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
  },
} as const;

export const CatalogReply = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name', 'minPlayers', 'maxPlayers', 'summary', 'available', 'dice', 'options'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      minPlayers: { type: 'integer' },
      maxPlayers: { type: 'integer' },
      summary: { type: 'string' },
      secretThrows: { type: 'boolean' },
      /** False for reserved ids whose rules are unavailable: listed, not playable. */
      available: { type: 'boolean' },
      reason: { type: 'string' },
      dice: {
        type: 'object',
        required: ['count', 'colours', 'sizes'],
        properties: {
          count: { type: 'integer' },
          colours: { type: 'array', items: { type: 'string' } },
          sizes: { type: 'array', items: { type: 'string' } },
          note: { type: 'string' },
        },
      },
      options: { type: 'array', items: optionSpec },
    },
  },
} as const;

export const SeatParams = {
  type: 'object',
  required: ['id', 'seat'],
  additionalProperties: false,
  properties: { id: GameIdParams.properties.id, seat: { type: 'integer', minimum: 0, maximum: 29 } },
} as const;

export const SeatQuery = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const SeatLinksReply = {
  type: 'array',
  items: {
    type: 'object',
    required: ['seat', 'name', 'claimed', 'path'],
    properties: { seat: { type: 'integer' }, name: { type: 'string' }, claimed: { type: 'boolean' }, path: { type: ['string', 'null'] } },
  },
} as const;
