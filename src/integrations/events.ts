/**
 * The events other programs hear, pure: their types, how each is made from
 * the game log, a tower throw or a tower status, and what a viewer who is not
 * the thrower of a secret roll sees of it. Version `STREAM_VERSION`; the JSON
 * Schema of every event is `eventsSchema()` (served at /api/schema/events.json).
 */
import type { DiceReading } from '../vision/types.js';
import type { RollRecord, RollEvent, TowerStatus } from '../table.js';
import type { GameCorrectionPayload, GameCreatedPayload, GameActionPayload, GameEndedPayload, GameRollPayload, GameUndoPayload } from '../storage/index.js';

/** Bumped when an event changes in a way a consumer could trip over (a field removed or retyped); new fields do not bump it. */
export const STREAM_VERSION = 1;

export const STREAM_EVENT_TYPES = ['game.created', 'game.action', 'game.undone', 'roll.started', 'roll.refused', 'roll.settled', 'roll.corrected', 'game.ended', 'game.abandoned', 'tower.status', 'table.notice'] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

/** An event before the stream numbers it. */
export interface DraftEvent {
  readonly type: StreamEventType;
  readonly at: number;
  readonly gameId: string | null;
  /** A secret throw's seat: only that seat sees `data`; everyone else `publicData`. */
  readonly secretSeat: number | null;
  /** The game-log event it comes from (none: a throw or a status, told live). */
  readonly sourceSeq: number | null;
  readonly data: Record<string, unknown>;
  /** What others see; absent: the same as `data`. */
  readonly publicData?: Record<string, unknown>;
}

/** An event as the stream keeps it. */
export interface StreamEvent extends DraftEvent {
  readonly seq: number;
  readonly id: string;
  readonly publicData: Record<string, unknown>;
}

/** Who is looking: everyone (integrations, the operator, webhooks, MQTT) or one seat of one game (its own secret dice). */
export type Viewer = { readonly seat?: { readonly gameId: string; readonly seat: number } };
export const PUBLIC: Viewer = {};

/** The event as `viewer` may see it: `{v, seq, id, type, at, game, data}`. */
export function envelope(event: StreamEvent, viewer: Viewer = PUBLIC): Record<string, unknown> {
  const own = event.secretSeat !== null && viewer.seat !== undefined && viewer.seat.gameId === event.gameId && viewer.seat.seat === event.secretSeat;
  return { v: STREAM_VERSION, seq: event.seq, id: event.id, type: event.type, at: event.at, game: event.gameId, data: own ? event.data : event.publicData };
}

const publicText = new WeakMap<StreamEvent, string>();

/** `envelope` as JSON; the public one made once per event (a hundred consumers share it). */
export function envelopeText(event: StreamEvent, viewer: Viewer = PUBLIC): string {
  const own = event.secretSeat !== null && viewer.seat !== undefined;
  if (own) return JSON.stringify(envelope(event, viewer));
  let text = publicText.get(event);
  if (text === undefined) {
    text = JSON.stringify(envelope(event, PUBLIC));
    publicText.set(event, text);
  }
  return text;
}

/** One die of a roll as integrations see it. */
export interface DieOut {
  readonly value: number | null;
  readonly colour: string | null;
  readonly colourConfident: boolean | null;
  readonly size: 'normal' | 'big' | null;
  /** 0-1, the reader's certainty; null for dice typed in. */
  readonly confidence: number | null;
}

function readingDice(reading: DiceReading): DieOut[] {
  return reading.dice.map((d) => ({ value: d.value, colour: d.colour, colourConfident: d.colourConfident ?? null, size: d.sizeClass ?? null, confidence: round(d.confidence) }));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The dice a roll applied, in the game's order, with what the camera said of each. */
function rollDice(roll: RollRecord): DieOut[] {
  if (roll.dice) {
    const seen = roll.reading ? [...roll.reading.dice] : [];
    return roll.dice.map((d) => {
      // The reading's die of this colour, size and value (coloured dice are applied in the request's order, not the reading's).
      const i = seen.findIndex((s) => s.colour === d.colour && s.value === d.value && (s.sizeClass ?? 'normal') === d.size);
      const match = i >= 0 ? seen.splice(i, 1)[0] : undefined;
      return { value: d.value, colour: d.colour, colourConfident: match?.colourConfident ?? null, size: d.size, confidence: match ? round(match.confidence) : null };
    });
  }
  if (roll.reading) return readingDice(roll.reading);
  return roll.values.map((value) => ({ value, colour: null, colourConfident: null, size: null, confidence: null }));
}

const issuesOf = (reading: DiceReading | null) => (reading?.issues ?? []).map((i) => ({ code: i.code, message: i.message }));

/** What the translation needs to know of a game beyond its log event: its rules have secret cards; a roll's secrecy (corrections). */
export interface GameFacts {
  readonly secretHands: boolean;
  readonly rollSecret: (seq: number) => { readonly secret: boolean; readonly player: number } | null;
}

/** A game-log row, as the store keeps it. */
export interface LogRow {
  readonly seq: number;
  readonly gameId: string;
  readonly type: string;
  readonly at: number;
  readonly payload: unknown;
  /** The game's version after this event (1 for its creation). */
  readonly version: number;
}

/** A decision as the stream tells it: in a game of secret cards which card was chosen is the players' business, others see the kind of action only. */
const told = (action: { readonly type: string }, facts: GameFacts) => (facts.secretHands ? { type: action.type } : action);

/** The stream events of one game-log event. */
export function fromLog(row: LogRow, facts: GameFacts): DraftEvent[] {
  const base = { at: row.at, gameId: row.gameId, sourceSeq: row.seq };
  switch (row.type) {
    case 'game/created': {
      const p = row.payload as GameCreatedPayload;
      return [{ ...base, type: 'game.created', secretSeat: null, data: { rules: p.game, players: p.players, bots: p.bots, options: p.options, version: row.version, imported: p.imported !== undefined } }];
    }
    case 'game/action': {
      const { action } = row.payload as GameActionPayload;
      return [{ ...base, type: 'game.action', secretSeat: null, data: { version: row.version, action: told(action, facts) } }];
    }
    case 'game/undo': {
      const { undone, by } = row.payload as GameUndoPayload;
      return [{ ...base, type: 'game.undone', secretSeat: null, data: { version: row.version, undone: undone.map(({ seat, action }) => ({ seat, action: told(action, facts) })), by } }];
    }
    case 'game/ended': {
      // Put away without a result (POST /api/games/:id/end); a game over with a result is game.ended.
      const { by, reason } = row.payload as GameEndedPayload;
      return [{ ...base, type: 'game.abandoned', secretSeat: null, data: { version: row.version, by, reason } }];
    }
    case 'game/roll': {
      const { roll } = row.payload as GameRollPayload;
      const values = [...roll.values];
      const data = {
        version: row.version,
        roll: roll.seq,
        player: roll.request.player,
        secret: roll.request.secret,
        source: roll.source,
        attempts: roll.attempts,
        values,
        sum: values.reduce((a, b) => a + b, 0),
        dice: rollDice(roll),
        valid: roll.reading ? roll.reading.valid : null,
        issues: issuesOf(roll.reading),
        frameUrl: (row.payload as GameRollPayload).frame ? `/api/games/${row.gameId}/rolls/${roll.seq}/frame.jpg` : null,
      };
      if (!roll.request.secret) return [{ ...base, type: 'roll.settled', secretSeat: null, data }];
      const { values: _v, sum: _s, dice: _d, frameUrl: _f, issues: _i, ...rest } = data;
      return [{ ...base, type: 'roll.settled', secretSeat: roll.request.player, data, publicData: { ...rest, count: values.length, values: null, sum: null, dice: null, frameUrl: null, issues: [] } }];
    }
    case 'game/correction': {
      const p = row.payload as GameCorrectionPayload;
      const data = { version: row.version, roll: p.roll, from: p.from, values: p.values, by: p.by, reason: p.reason };
      const secret = facts.rollSecret(p.roll);
      if (!secret?.secret) return [{ ...base, type: 'roll.corrected', secretSeat: null, data }];
      // Why and by whom a secret throw was corrected may tell its values ("the 6 was a 1"): its seat's too.
      return [{ ...base, type: 'roll.corrected', secretSeat: secret.player, data, publicData: { ...data, from: null, values: null, by: null, reason: null } }];
    }
    default:
      return [];
  }
}

/** A throw started or refused (the table's RollEvent). A secret throw's refused reading is its thrower's alone. */
export function fromRoll(event: RollEvent, at: number): DraftEvent {
  const base = { at, gameId: event.gameId, sourceSeq: null };
  if (event.type === 'roll.started') {
    return { ...base, type: 'roll.started', secretSeat: null, data: { attempt: event.attempt, count: event.count, player: event.player, secret: event.secret } };
  }
  const data = { attempt: event.attempt, player: event.player, secret: event.secret, reasons: [...event.problems], issues: issuesOf(event.reading), valid: event.reading.valid, dice: readingDice(event.reading) };
  if (!event.secret) return { ...base, type: 'roll.refused', secretSeat: null, data };
  return { ...base, type: 'roll.refused', secretSeat: event.player, data, publicData: { ...data, dice: null } };
}

export function fromTower(status: TowerStatus, at: number): DraftEvent {
  return { at, gameId: status.gameId, sourceSeq: null, type: 'tower.status', secretSeat: null, data: { kind: status.kind, state: status.state, message: status.message } };
}

export function fromNotice(gameId: string, message: string, at: number): DraftEvent {
  return { at, gameId: gameId === '' ? null : gameId, sourceSeq: null, type: 'table.notice', secretSeat: null, data: { message } };
}

export function gameEnded(gameId: string, at: number, sourceSeq: number, result: { winners: readonly number[]; scores?: readonly number[] }, players: readonly string[]): DraftEvent {
  return { at, gameId, sourceSeq, type: 'game.ended', secretSeat: null, data: { players, winners: [...result.winners], scores: result.scores ? [...result.scores] : null } };
}

// --- JSON Schema ---------------------------------------------------------------------------------------------

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const int = { type: 'integer' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const ints = { type: 'array', items: int };
const issues = { type: 'array', items: { type: 'object', required: ['code', 'message'], properties: { code: str, message: str } } };
const die = {
  type: 'object',
  required: ['value', 'colour', 'colourConfident', 'size', 'confidence'],
  properties: { value: nullable({ type: 'integer', minimum: 1, maximum: 6 }), colour: nullable(str), colourConfident: nullable(bool), size: nullable({ enum: ['normal', 'big'] }), confidence: nullable({ type: 'number', minimum: 0, maximum: 1 }) },
};
const dice = nullable({ type: 'array', items: { $ref: '#/definitions/die' } });

/** Each event type's `data` (secret fields are null for everyone but the thrower). */
const DATA: Record<StreamEventType, { description: string; schema: Record<string, unknown> }> = {
  'game.created': { description: 'A new game (or one imported).', schema: { required: ['rules', 'players', 'bots', 'options', 'version'], properties: { rules: str, players: { type: 'array', items: str }, bots: ints, options: { type: 'object' }, version: int, imported: bool } } },
  'game.action': { description: 'A decision applied (hold, score, bid...). In games of secret cards only the kind of action.', schema: { required: ['version', 'action'], properties: { version: int, action: { type: 'object', required: ['type'], properties: { type: str } } } } },
  'game.undone': {
    description: 'Decisions taken back (POST /api/games/:id/undo), newest first, each with the seat that made it (null: none was acting); the game goes on from before them. In games of secret cards only the kind of each action.',
    schema: { required: ['version', 'undone', 'by'], properties: { version: int, undone: { type: 'array', minItems: 1, items: { type: 'object', required: ['seat', 'action'], properties: { seat: nullable(int), action: { type: 'object', required: ['type'], properties: { type: str } } } } }, by: str } },
  },
  'roll.started': { description: 'The tower throws (each attempt).', schema: { required: ['attempt', 'count', 'player', 'secret'], properties: { attempt: int, count: int, player: int, secret: bool } } },
  'roll.refused': { description: 'A throw that cannot be used (unreadable, cocked, did not tumble...): its reasons; the tower throws again or gives up (tower.status fault).', schema: { required: ['attempt', 'player', 'secret', 'reasons', 'issues', 'valid', 'dice'], properties: { attempt: int, player: int, secret: bool, reasons: { type: 'array', items: str }, issues, valid: bool, dice } } },
  'roll.settled': { description: 'A roll applied to the game: each die with value, colour, size and confidence, the frame and the reading\'s validity. A secret throw shows its values only to its seat.', schema: { required: ['version', 'roll', 'player', 'secret', 'source', 'attempts', 'values', 'sum', 'dice', 'valid', 'issues', 'frameUrl'], properties: { version: int, roll: int, player: int, secret: bool, source: { enum: ['tower', 'manual'] }, attempts: int, count: int, values: nullable(ints), sum: nullable(int), dice, valid: nullable(bool), issues, frameUrl: nullable(str) } } },
  'roll.corrected': { description: 'The operator corrected a misread roll. Of a secret throw, only its seat sees from, values, by and reason.', schema: { required: ['version', 'roll', 'from', 'values', 'by', 'reason'], properties: { version: int, roll: int, from: nullable(ints), values: nullable(ints), by: nullable(str), reason: nullable(str) } } },
  'game.ended': { description: 'The game is over: winners (seat numbers) and scores. Told again only if a correction of a roll changes them.', schema: { required: ['players', 'winners', 'scores'], properties: { players: { type: 'array', items: str }, winners: ints, scores: nullable({ type: 'array', items: { type: 'number' } }) } } },
  'game.abandoned': { description: 'The game was put away without a result (POST /api/games/:id/end): who and why. It stays on record; nothing more is played in it.', schema: { required: ['version', 'by', 'reason'], properties: { version: int, by: str, reason: str } } },
  'tower.status': { description: 'The tower\'s state: ready, rolling or fault, with a sentence.', schema: { required: ['kind', 'state', 'message'], properties: { kind: str, state: { enum: ['ready', 'rolling', 'fault'] }, message: str } } },
  'table.notice': { description: 'Something the room should know (a bot that could not move, a button with nothing to roll).', schema: { required: ['message'], properties: { message: str } } },
};

/** The JSON Schema (draft-07, which every validator reads) of every event of version STREAM_VERSION: one envelope, `data` by `type`. */
export function eventsSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `/api/schema/events.json?v=${STREAM_VERSION}`,
    title: 'dice-tower events',
    version: STREAM_VERSION,
    description: 'Every event of the stream (GET /api/events, the /ws subscribe with since, webhooks, MQTT). seq is global, gapless for a viewer that sees every type, and the resume point (Last-Event-ID, ?since=) within the stream\'s epoch (given apart: a restored backup numbers the events again, in a new epoch).',
    type: 'object',
    required: ['v', 'seq', 'id', 'type', 'at', 'game', 'data'],
    properties: {
      v: { const: STREAM_VERSION },
      seq: { type: 'integer', minimum: 1 },
      id: { type: 'string', format: 'uuid' },
      type: { enum: [...STREAM_EVENT_TYPES] },
      at: { type: 'integer', description: 'ms since the epoch' },
      game: nullable(str),
      data: { type: 'object' },
    },
    allOf: STREAM_EVENT_TYPES.map((type) => ({
      if: { properties: { type: { const: type } } },
      then: { properties: { data: { type: 'object', description: DATA[type].description, ...DATA[type].schema } } },
    })),
    definitions: { die },
  };
}
