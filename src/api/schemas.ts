/** JSON schemas of every request and response (Ajv validates, fast-json-stringify serialises). */
import { EndedSchema, FeedSchema } from './game-schemas.js';
import type { EventType } from '../storage/events.js';

export const ErrorReply = {
  $id: 'ErrorReply',
  type: 'object',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
    /** The message's parts, for a page that words the code in its own language (src/note.ts). */
    params: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
  },
} as const;

/** One correction of a roll as viewers see it. */
export const CorrectionView = {
  type: 'object',
  required: ['by', 'at', 'reason', 'from', 'values'],
  properties: {
    by: { type: 'string' },
    at: { type: 'number' },
    reason: { type: 'string' },
    from: { type: 'array', items: { type: 'integer' } },
    values: { type: 'array', items: { type: 'integer' } },
  },
} as const;

const point = { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } } as const;

/** A die read as the pages draw it (views.ts `DieView`): `box` is its corners' x and y in turn, whole frame pixels. */
export const DieViewSchema = {
  type: 'object',
  required: ['value', 'colour', 'box', 'confidence'],
  properties: {
    value: { type: ['integer', 'null'] },
    colour: { type: 'string' },
    box: { type: 'array', maxItems: 16, items: { type: 'integer' } },
    confidence: { type: 'number' },
  },
} as const;

/** Each bot seat's level, by seat. */
const BotLevels = { type: 'object', maxProperties: 12, propertyNames: { pattern: '^(0|[1-9][0-9]?)$' }, additionalProperties: { type: 'string', enum: ['simple', 'strong'] } } as const;

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
    /** Each bot seat's level (`simple` or `strong`), by seat. */
    botLevels: BotLevels,
    secretThrows: { type: 'boolean' },
    /** The lowest score wins (the game's own fact): the standings go lowest first. */
    lowScoreWins: { type: 'boolean' },
    /** Present (true) when the record check at start found this game's record changed outside dice-tower. */
    unverified: { type: 'boolean' },
    ended: EndedSchema,
    feed: FeedSchema,
    seatsClaimed: { type: 'array', items: { type: 'boolean' } },
    /** The seat that makes each of `actions`, by index (its private page offers only its own). */
    actors: { type: 'array', items: { type: ['integer', 'null'] } },
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
        /** The physical dice, when colour or size matters (Las Vegas). */
        dice: {
          type: 'array',
          items: { type: 'object', properties: { colour: { type: 'string' }, size: { type: 'string' } } },
        },
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
        read: { type: ['array', 'null'], items: { type: 'integer' } },
        readingValues: { type: ['array', 'null'], items: { type: 'integer' } },
        corrections: { type: 'array', items: CorrectionView },
        slots: { type: 'array', items: { type: 'integer' } },
        source: { type: 'string', enum: ['tower', 'manual'] },
        attempts: { type: 'integer' },
        at: { type: 'number' },
        reading: {
          type: ['object', 'null'],
          properties: {
            width: { type: 'integer' },
            height: { type: 'integer' },
            ms: { type: 'number' },
            dice: { type: 'array', items: DieViewSchema },
          },
        },
      },
    },
    actions: { type: 'array', items: { type: 'object', additionalProperties: true } },
    recentRolls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seq', 'player', 'values', 'corrected', 'frameUrl'],
        properties: {
          seq: { type: 'integer' },
          player: { type: 'integer' },
          values: { type: 'array', items: { type: 'integer' } },
          corrected: { type: 'boolean' },
          frameUrl: { type: ['string', 'null'] },
        },
      },
    },
    rollCount: { type: 'integer' },
    stepCount: { type: 'integer' },
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
    /** Seats (0-based) the game's bot plays: a seat number (the simple bot), or `{seat, level}`. */
    bots: {
      type: 'array',
      maxItems: 12,
      items: {
        anyOf: [
          { type: 'integer', minimum: 0, maximum: 11 },
          {
            type: 'object',
            required: ['seat'],
            additionalProperties: false,
            properties: { seat: { type: 'integer', minimum: 0, maximum: 11 }, level: { type: 'string', enum: ['simple', 'strong'] } },
          },
        ],
      },
    },
  },
} as const;

/** Bot seats as the log records them (the levels apart). */
const BotSeats = { type: 'array', maxItems: 12, uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 11 } } as const;

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

/** This tower's accuracy over the operator's judged test rolls (setup/test-rolls.ts). */
export const AccuracyTallySchema = {
  type: 'object',
  required: ['rolls', 'dice', 'right', 'unreadable', 'wrong', 'rerolls', 'updatedAt'],
  properties: {
    rolls: { type: 'integer' },
    dice: { type: 'integer' },
    right: { type: 'integer' },
    unreadable: { type: 'integer' },
    wrong: { type: 'integer' },
    rerolls: { type: 'integer' },
    updatedAt: { type: ['number', 'null'] },
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
    /** The record check at start: ok, or the first event (and file) found changed outside dice-tower, and what is wrong. */
    record: {
      type: 'object',
      required: ['ok', 'firstBad', 'kind', 'file', 'message'],
      properties: {
        ok: { type: 'boolean' },
        firstBad: { type: ['integer', 'null'] },
        kind: { type: ['string', 'null'] },
        file: { type: ['string', 'null'] },
        message: { type: 'string' },
      },
    },
    /** This server's public key for signed exports (base64url); trusted elsewhere through their trusted-export-keys. */
    exportKey: { type: 'string' },
    /** This tower's accuracy over the operator's judged test rolls (setup/test-rolls.ts). */
    accuracy: AccuracyTallySchema,
    /** The coach's tables in memory now (library.ts): how many, their bytes, and the budget they are kept under. */
    coach: {
      type: 'object',
      required: ['tables', 'bytes', 'budget'],
      properties: { tables: { type: 'integer' }, bytes: { type: 'integer' }, budget: { type: 'integer' } },
    },
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
      botLevels: { type: 'array', items: { type: 'string' } },
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

// --- History, corrections, fairness, export/import, operator token ------------------------------

export const RollParams = {
  type: 'object',
  required: ['id', 'seq'],
  additionalProperties: false,
  properties: { id: GameIdParams.properties.id, seq: { type: 'integer', minimum: 1, maximum: 100000 } },
} as const;

export const CorrectionBody = {
  type: 'object',
  required: ['values', 'reason'],
  additionalProperties: false,
  properties: {
    values: { type: 'array', minItems: 1, maxItems: 30, items: { type: 'integer', minimum: 1, maximum: 6 } },
    reason: { type: 'string', minLength: 3, maxLength: 200 },
    /** Who corrects (default "operator"). */
    by: { type: 'string', minLength: 1, maxLength: 40 },
  },
} as const;

const gameSummary = {
  type: 'object',
  required: ['id', 'game', 'name', 'players', 'createdAt', 'updatedAt', 'rollCount', 'correctionCount', 'over', 'winners', 'session'],
  properties: {
    id: { type: 'string' },
    game: { type: 'string' },
    name: { type: 'string' },
    players: { type: 'array', items: { type: 'string' } },
    /** Present (true) when the record check at start found this game's record changed outside dice-tower. */
    unverified: { type: 'boolean' },
    createdAt: { type: 'number' },
    updatedAt: { type: 'number' },
    rollCount: { type: 'integer' },
    correctionCount: { type: 'integer' },
    over: { type: 'boolean' },
    /** Ended without a result (`POST /api/games/:id/end`). */
    ended: { type: 'boolean' },
    winners: { type: 'array', items: { type: 'integer' } },
    session: { type: ['integer', 'null'] },
  },
} as const;

export const HistoryReply = {
  type: 'object',
  required: ['sessions', 'games'],
  properties: {
    sessions: {
      type: 'array',
      items: { type: 'object', required: ['id', 'startedAt', 'version'], properties: { id: { type: 'integer' }, startedAt: { type: 'number' }, version: { type: 'string' } } },
    },
    /** Newest first; `session` is the server run the game was started in (null: before any recorded run, or imported). */
    games: { type: 'array', items: gameSummary },
  },
} as const;

export const RollListReply = {
  type: 'object',
  required: ['game', 'rolls'],
  properties: {
    game: gameSummary,
    rolls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seq', 'player', 'secret', 'values', 'read', 'corrections', 'source', 'attempts', 'at', 'frameUrl', 'reading'],
        properties: {
          seq: { type: 'integer' },
          player: { type: 'integer' },
          secret: { type: 'boolean' },
          /** null for a secret throw (only its player saw it). */
          values: { type: ['array', 'null'], items: { type: 'integer' } },
          read: { type: ['array', 'null'], items: { type: 'integer' } },
          readingValues: { type: ['array', 'null'], items: { type: 'integer' } },
          corrections: { type: 'array', items: CorrectionView },
          slots: { type: 'array', items: { type: 'integer' } },
          source: { type: 'string' },
          attempts: { type: 'integer' },
          at: { type: 'number' },
          frameUrl: { type: ['string', 'null'] },
          reading: GameViewSchema.properties.lastRoll.properties.reading,
        },
      },
    },
  },
} as const;

const faceStats = {
  type: 'object',
  required: ['key', 'rolls', 'counts', 'chiSquare', 'pValue', 'enough', 'needed', 'biased'],
  properties: {
    key: { type: 'string' },
    rolls: { type: 'integer' },
    counts: { type: 'array', items: { type: 'integer' } },
    chiSquare: { type: 'number' },
    pValue: { type: ['number', 'null'] },
    enough: { type: 'boolean' },
    needed: { type: 'integer' },
    biased: { type: 'boolean' },
  },
} as const;

export const FairnessQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { game: GameIdParams.properties.id },
} as const;

export const FairnessReply = {
  type: 'object',
  required: ['scope', 'overall', 'dice', 'minRolls', 'alpha', 'typedIn', 'excludedSecret'],
  properties: {
    scope: { type: 'string' },
    overall: faceStats,
    dice: { type: 'array', items: faceStats },
    minRolls: { type: 'integer' },
    alpha: { type: 'number' },
    /** Dice typed in by hand: face counts only, never judged and never in `overall` or `dice`. */
    typedIn: { type: 'object', required: ['rolls', 'counts'], properties: { rolls: { type: 'integer' }, counts: { type: 'array', items: { type: 'integer' } } } },
    /** Dice of secret throws in games still running, left out so the counts reveal nothing. */
    excludedSecret: { type: 'integer' },
  },
} as const;

const ints = { type: 'array', maxItems: 30, items: { type: 'integer' } } as const;
/** What each event type's payload must hold, so a well-chained but forged export cannot feed replay junk. */
const exportPayloads = {
  'game/created': {
    type: 'object',
    required: ['game', 'players', 'bots', 'options'],
    properties: {
      game: { type: 'string', minLength: 1, maxLength: 64 },
      players: CreateGameBody.properties.players,
      bots: BotSeats,
      botLevels: BotLevels,
      options: { type: 'object' },
    },
  },
  'game/action': {
    type: 'object',
    required: ['action'],
    properties: { action: ActionBody },
  },
  'game/roll': {
    type: 'object',
    required: ['roll', 'frame'],
    properties: {
      roll: {
        type: 'object',
        required: ['seq', 'request', 'values', 'source', 'reading', 'attempts', 'at'],
        properties: {
          seq: { type: 'integer', minimum: 1 },
          request: { type: 'object', required: ['count', 'slots', 'player', 'secret'], properties: { count: { type: 'integer' }, slots: ints, player: { type: 'integer' }, secret: { type: 'boolean' } } },
          values: { ...ints, items: { type: 'integer', minimum: 1, maximum: 6 } },
          source: { type: 'string', enum: ['tower', 'manual'] },
          reading: {
            type: ['object', 'null'],
            required: ['width', 'height', 'dice'],
            properties: {
              width: { type: 'number' },
              height: { type: 'number' },
              dice: {
                type: 'array',
                maxItems: 30,
                items: {
                  type: 'object',
                  required: ['value', 'colour', 'center', 'box', 'confidence'],
                  properties: { value: { type: ['integer', 'null'] }, colour: { type: 'string' }, center: point, box: { type: 'array', maxItems: 8, items: point }, confidence: { type: 'number' } },
                },
              },
            },
          },
          attempts: { type: 'integer', minimum: 0 },
          at: { type: 'integer', minimum: 0 },
        },
      },
      frame: { type: ['string', 'null'] },
    },
  },
  'game/correction': {
    type: 'object',
    required: ['roll', 'from', 'values', 'by', 'reason'],
    properties: {
      roll: { type: 'integer', minimum: 1 },
      from: ints,
      values: CorrectionBody.properties.values,
      by: { type: 'string', maxLength: 40 },
      reason: { type: 'string', maxLength: 200 },
    },
  },
  'game/undo': {
    type: 'object',
    required: ['undone', 'by'],
    properties: {
      undone: { type: 'array', minItems: 1, maxItems: 30, items: { type: 'object', required: ['seat', 'action'], properties: { seat: { type: ['integer', 'null'] }, action: ActionBody } } },
      by: { type: 'string', maxLength: 40 },
    },
  },
  'game/ended': {
    type: 'object',
    required: ['by', 'reason'],
    properties: { by: { type: 'string', maxLength: 40 }, reason: { type: 'string', maxLength: 200 } },
  },
} as const satisfies Record<EventType, object>;

const exportEvent = {
  type: 'object',
  required: ['n', 'type', 'at', 'payload', 'hash'],
  additionalProperties: false,
  allOf: Object.entries(exportPayloads).map(([type, payload]) => ({ if: { properties: { type: { const: type } } }, then: { properties: { payload } } })),
  properties: {
    n: { type: 'integer', minimum: 1 },
    type: { type: 'string', enum: Object.keys(exportPayloads) },
    at: { type: 'integer', minimum: 0 },
    payload: { type: 'object', additionalProperties: true },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
} as const;

/** A game export (GET /api/games/:id/export), the body of POST /api/games/import. */
export const GameExportSchema = {
  type: 'object',
  required: ['format', 'version', 'gameId', 'exportedAt', 'events', 'head'],
  additionalProperties: false,
  properties: {
    format: { type: 'string', const: 'dice-tower/game-export' },
    version: { type: 'integer', const: 1 },
    gameId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    exportedAt: { type: 'integer', minimum: 0 },
    events: { type: 'array', minItems: 1, maxItems: 20000, items: exportEvent },
    head: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    /** Where the exporting server's whole log ended (its head file), when the export was made. */
    logHead: {
      type: 'object',
      required: ['seq', 'hash'],
      additionalProperties: false,
      properties: { seq: { type: 'integer', minimum: 0 }, hash: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    },
    /** The exporting server's Ed25519 signature over the rest (base64url key and value). */
    signature: {
      type: 'object',
      required: ['alg', 'publicKey', 'value'],
      additionalProperties: false,
      properties: {
        alg: { type: 'string', const: 'ed25519' },
        publicKey: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
        value: { type: 'string', pattern: '^[A-Za-z0-9_-]{86}$' },
      },
    },
  },
} as const;

export const TokenBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 16, maxLength: 200, pattern: '^[A-Za-z0-9._~-]+$' } },
} as const;

export const TokenReply = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string' } },
} as const;

/** The export as sent: every event passed through whole (the request schema checks imports). */
export const GameExportReply = {
  type: 'object',
  required: GameExportSchema.required,
  properties: { ...GameExportSchema.properties, events: { type: 'array', items: { type: 'object', additionalProperties: true } } },
} as const;

/** A hint is asked for by the operator (Bearer token) or by a seat with its token. */
export const HintQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { seat: SeatParams.properties.seat, token: SeatQuery.properties.token, operator: { type: 'string', maxLength: 100 } },
} as const;

const rankedDecision = {
  type: 'object',
  required: ['key', 'label', 'actions', 'value', 'loss'],
  properties: {
    key: { type: 'string' },
    label: { type: 'string' },
    /** The game actions that carry it out, in order; empty: throw the dice. */
    actions: { type: 'array', items: { type: 'object', additionalProperties: true } },
    value: { type: 'number' },
    loss: { type: 'number' },
  },
} as const;

const coachMeasure = { type: 'string', enum: ['expectedScore', 'expectedTurnScore', 'expectedPenalty', 'probability', 'winProbability'] } as const;

export const HintReply = {
  type: 'object',
  required: ['game', 'seat', 'player', 'measure', 'optimum', 'decisions', 'ms'],
  properties: {
    game: { type: 'string' },
    seat: { type: ['integer', 'null'] },
    player: { type: ['string', 'null'] },
    measure: coachMeasure,
    /** The value of the whole game under optimal play from its start. */
    optimum: { type: 'number' },
    /** Best first; empty when the state waits only for dice or the game is over. */
    decisions: { type: 'array', items: rankedDecision },
    ms: { type: 'number' },
  },
} as const;

const decisionValue = { type: 'object', required: ['key', 'label', 'value'], properties: { key: { type: 'string' }, label: { type: 'string' }, value: { type: 'number' } } } as const;

export const AnalysisReply = {
  type: 'object',
  required: ['game', 'name', 'over', 'measure', 'optimum', 'players', 'decisions', 'skipped'],
  properties: {
    game: { type: 'string' },
    name: { type: 'string' },
    over: { type: 'boolean' },
    measure: coachMeasure,
    optimum: { type: 'number' },
    players: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seat', 'name', 'decisions', 'totalLoss', 'meanLoss'],
        properties: { seat: { type: 'integer' }, name: { type: 'string' }, decisions: { type: 'integer' }, totalLoss: { type: 'number' }, meanLoss: { type: 'number' } },
      },
    },
    /** Costliest first. */
    decisions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['step', 'seat', 'chosen', 'best', 'loss'],
        properties: { step: { type: 'integer' }, seat: { type: 'integer' }, chosen: decisionValue, best: decisionValue, loss: { type: 'number' } },
      },
    },
    skipped: { type: 'array', items: { type: 'object', required: ['step', 'reason'], properties: { step: { type: 'integer' }, reason: { type: 'string' } } } },
  },
} as const;
