/**
 * Where the operator's token comes from and how it is kept: DICE_TOWER_TOKEN
 * when set, else `<data dir>/operator-token`, else a new random one written
 * there. A token that is there but unusable (empty, too short, unreadable)
 * stops the server at start: an empty token would open every operator action
 * to anyone, a short one to a guess.
 */
import { join } from 'node:path';
import { errorText } from '../error-text.js';
import { readTextIfThere, writeFileAtomic } from '../storage/atomic-file.js';
import { PRIVATE_FILE_MODE, removeSharedAccess } from '../storage/file-modes.js';
import { KEY_PREFIX } from '../integrations/api-keys.js';
import { MIN_TOKEN_LENGTH, randomOperatorToken } from './operator-auth.js';

export const TOKEN_FILE = 'operator-token';
export const TOKEN_ENV = 'DICE_TOWER_TOKEN';

export interface OperatorToken {
  readonly value: string;
  /** The environment variable (cannot be changed from the API) or the token file. */
  readonly source: 'environment' | 'file';
  /** The token file, or the variable's name. */
  readonly file: string;
  /** Made by this start: its link is shown once. */
  readonly created: boolean;
}

/**
 * The token the operator already has: DICE_TOWER_TOKEN (an empty one counts
 * as unset), else the token file; null when there is neither yet. Throws an
 * Error saying what to do when the one there cannot be used.
 */
export function readOperatorToken(dataDir: string, env: NodeJS.ProcessEnv = process.env): OperatorToken | null {
  const fromEnv = env[TOKEN_ENV]?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_TOKEN_LENGTH) {
      throw new Error(`${TOKEN_ENV} holds ${fromEnv.length} characters; an operator token needs at least ${MIN_TOKEN_LENGTH}: set a longer one, or unset it to use a token kept in the data directory`);
    }
    if (fromEnv.startsWith(KEY_PREFIX)) throw new Error(`${TOKEN_ENV} starts with '${KEY_PREFIX}', which marks an API key: the server would take it for one. Set another operator token, or unset it to use a token kept in the data directory`);
    return { value: fromEnv, source: 'environment', file: TOKEN_ENV, created: false };
  }
  const file = join(dataDir, TOKEN_FILE);
  let text: string | null;
  try {
    text = readTextIfThere(file);
  } catch (err) {
    throw new Error(`cannot read the operator token file ${file} (${errorText(err)}): make it a file readable by the user running dice-tower, or delete it to get a new token at the next start`, { cause: err });
  }
  if (text === null) return null;
  const value = text.trim();
  const fix = `delete it to get a new token at the next start, or write a token of at least ${MIN_TOKEN_LENGTH} characters into it`;
  if (value === '') throw new Error(`the operator token file ${file} is empty, which would leave every operator action open to anyone: ${fix}`);
  if (value.length < MIN_TOKEN_LENGTH) throw new Error(`the operator token in ${file} has ${value.length} characters, fewer than the ${MIN_TOKEN_LENGTH} needed: ${fix}`);
  if (value.startsWith(KEY_PREFIX)) throw new Error(`the operator token in ${file} starts with '${KEY_PREFIX}', which marks an API key (the server would take it for one): delete the file to get a new token at the next start, or write another token into it`);
  // A file written by hand (or by an older version) with the usual 0644: others must not read it.
  removeSharedAccess(file);
  return { value, source: 'file', file, created: false };
}

/** A new random token, written to the token file of `dataDir` (which must exist). */
export function createOperatorToken(dataDir: string): OperatorToken {
  const file = join(dataDir, TOKEN_FILE);
  const value = randomOperatorToken();
  writeOperatorToken(file, value);
  return { value, source: 'file', file, created: true };
}

/**
 * Writes the token file atomically (a crash or a full disk leaves the old
 * token or the new one, never an empty file) and readable by its owner only.
 */
export function writeOperatorToken(file: string, value: string): void {
  try {
    writeFileAtomic(file, Buffer.from(`${value}\n`), { mode: PRIVATE_FILE_MODE });
  } catch (err) {
    throw new Error(`cannot write the operator token file ${file}: ${errorText(err)}`, { cause: err });
  }
}
