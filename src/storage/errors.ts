/** Why a store operation failed; callers branch on `code`, never on the message. */
export type StoreErrorCode =
  /** The data directory or database could not be created or opened. */
  | 'store/open_failed'
  /** A schema migration failed; the database is left at the last good version. */
  | 'store/migration_failed'
  /** The database was written by a newer dice-tower (its schema version is unknown here). */
  | 'store/schema_too_new'
  /** Writing an event or a frame failed; nothing was half-written. */
  | 'store/write_failed'
  /** Reading the log or a frame failed. */
  | 'store/read_failed'
  /** The event is malformed (not plain JSON, bad game id, bad time...): a programmer error. */
  | 'store/bad_event'
  /** An action or roll for a game that has no `game/created` event. */
  | 'store/unknown_game'
  /** A second `game/created` for the same game id. */
  | 'store/duplicate_game'
  /** A frame path outside the frames directory, or not of the form the store writes. */
  | 'store/bad_path'
  /** No frame file at that path. */
  | 'store/frame_not_found'
  /** The log does not hold together (an event of a game that was never created). */
  | 'store/corrupt'
  /** The store was closed. */
  | 'store/closed';

/** Every failure of the game store. `path` names the file or directory involved, when there is one. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly path: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
