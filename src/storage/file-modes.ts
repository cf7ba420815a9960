/**
 * The data directory holds secret throws (frames, log) and the operator's
 * token: other local users must not read it. New directories are made 0700 and
 * files 0600; those made by older versions (0755, 0644) are tightened at open.
 */
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Takes every permission of group and others away from the data directory,
 * the database files (`dbFile` with its -wal and -shm, those that exist), the
 * frames folder and every frame; the owner's own bits are left as they are
 * (a log its owner made read-only stays read-only). Best effort, never throws:
 * a filesystem without Unix modes (FAT) refuses chmod, and its data is still
 * good to serve.
 */
export function tightenModes(dataDir: string, dbFile: string, framesDir: string): void {
  removeSharedAccess(dataDir);
  for (const suffix of ['', '-wal', '-shm']) removeSharedAccess(join(dataDir, `${dbFile}${suffix}`));
  const frames = join(dataDir, framesDir);
  removeSharedAccess(frames);
  for (const game of entries(frames)) {
    if (!game.isDirectory()) continue;
    removeSharedAccess(join(frames, game.name));
    for (const frame of entries(join(frames, game.name))) if (frame.isFile()) removeSharedAccess(join(frames, game.name, frame.name));
  }
}

/** Bits of group and others. */
const SHARED_BITS = 0o077;

/** Takes group's and others' bits off `path`, keeping its owner's; best effort (absent, or no modes on this filesystem: nothing to do). */
export function removeSharedAccess(path: string): void {
  try {
    const mode = statSync(path).mode & 0o7777;
    if ((mode & SHARED_BITS) !== 0) chmodSync(path, mode & ~SHARED_BITS);
  } catch {
    // Absent (no -wal yet) or a filesystem without modes: nothing to tighten.
  }
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
