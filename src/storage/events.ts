import type { RollRecord } from '../table.js';

/** A new game: everything `Table.create` needs to set it up again (its id is the event's `gameId`, its creation time the event's `at`). */
export interface GameCreatedPayload {
  /** The rules' id (`yatzy`, `mexico`...). */
  readonly game: string;
  readonly players: readonly string[];
  readonly bots: readonly number[];
  /** Bot seats that play other than `simple`, by seat (absent in games made before bot levels: all simple). */
  readonly botLevels?: Readonly<Record<number, import('../table.js').BotLevel>>;
  readonly options: Readonly<Record<string, unknown>>;
  /** Set when the game was imported from an export: when, and the export's head hash. */
  readonly imported?: { readonly at: number; readonly head: string };
}

/** A decision applied to a game (hold, score, bid...); never a roll, which is a `game/roll` event. */
export interface GameActionPayload {
  /** The action as the game's rules take it: its `type` and its arguments. */
  readonly action: { readonly type: string } & Readonly<Record<string, unknown>>;
}

/**
 * A roll applied to a game. Replay applies `{ type: 'roll', values: roll.values }` (with `dice` when recorded)
 * and keeps `roll` as the game's roll record: one event, so a roll is on
 * record whole or not at all.
 */
export interface GameRollPayload {
  readonly roll: RollRecord;
  /** The camera frame, relative to the data directory (from `saveFrame`), or null (typed-in roll, no frame). */
  readonly frame: string | null;
}

/**
 * A misread die put right by the operator: the roll's values as they should
 * have been read. The roll's own event (and its reading) stays as it was;
 * replay applies the roll with these values instead. The latest correction of
 * a roll wins.
 */
export interface GameCorrectionPayload {
  /** The roll corrected, by its number in the game (1, 2, ...). */
  readonly roll: number;
  /** The values before this correction (the reading, or an earlier correction). */
  readonly from: readonly number[];
  /** The values the roll is taken to have had. */
  readonly values: readonly number[];
  /** Who corrected it (the name the operator gave). */
  readonly by: string;
  /** Why (what the camera got wrong). */
  readonly reason: string;
}

/**
 * Decisions taken back (`POST /api/games/:id/undo`): the last decisions of the
 * game, newest first, as they were applied. The log keeps them and this event;
 * replay drops them again. Never a roll (a roll is corrected instead).
 */
export interface GameUndoPayload {
  /** The decisions taken back, newest first, each with the seat that made it (null: no seat was acting). */
  readonly undone: ReadonlyArray<{ readonly seat: number | null; readonly action: { readonly type: string } & Readonly<Record<string, unknown>> }>;
  /** Who asked (the name the operator gave). */
  readonly by: string;
}

/** A game put away without a result (`POST /api/games/:id/end`): it stays on record and in the history; nothing more can be played in it. */
export interface GameEndedPayload {
  readonly by: string;
  readonly reason: string;
}

export interface PayloadByType {
  readonly 'game/created': GameCreatedPayload;
  readonly 'game/action': GameActionPayload;
  readonly 'game/roll': GameRollPayload;
  readonly 'game/correction': GameCorrectionPayload;
  readonly 'game/undo': GameUndoPayload;
  readonly 'game/ended': GameEndedPayload;
}

export type EventType = keyof PayloadByType;

export const EVENT_TYPES: readonly EventType[] = ['game/created', 'game/action', 'game/roll', 'game/correction', 'game/undo', 'game/ended'];

/** An event to append. `at` is ms since the epoch, from the caller's clock (the table's `now`). */
export type NewEvent = {
  readonly [T in EventType]: { readonly gameId: string; readonly type: T; readonly payload: PayloadByType[T]; readonly at: number };
}[EventType];

/** An event as it is on record. */
export type StoredEvent = NewEvent & {
  /** Global position in the log: 1, 2, 3..., across all games. */
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
};

export type StoredCreated = Extract<StoredEvent, { type: 'game/created' }>;
export type StoredStep = Extract<StoredEvent, { type: Exclude<EventType, 'game/created'> }>;

/** One game as the log has it: its setup, then its actions and rolls in the order they were applied. */
export interface StoredGame {
  readonly id: string;
  readonly created: StoredCreated;
  readonly steps: readonly StoredStep[];
}

/** One run of the server on this data directory (the history groups games by it). */
export interface StoredSession {
  readonly id: number;
  readonly startedAt: number;
  /** The dice-tower version that ran. */
  readonly version: string;
}
