export { openStore, GameStore, eventHash, DB_FILE, FRAMES_DIR, GENESIS_HASH, type StoreOptions } from './store.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { canonicalJson } from './canonical-json.js';
export type {
  EventType, GameActionPayload, GameCorrectionPayload, GameEndedPayload, GameUndoPayload, StoredSession, GameCreatedPayload, GameRollPayload, NewEvent, PayloadByType, StoredCreated, StoredEvent, StoredGame, StoredStep,
} from './events.js';
