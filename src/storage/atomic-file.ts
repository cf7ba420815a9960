import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Suffix of the temporary files `writeFileAtomic` writes first (swept at open after a crash). */
export const TEMP_SUFFIX = '.tmp';

/**
 * Writes `bytes` to `path` so that a reader (or a restart after a crash) sees
 * either the old file or the whole new one, never a part: write a temporary
 * file beside it, fsync it, rename it over the target, fsync the directory so
 * the rename itself is durable. On failure the temporary file is removed and
 * the fs error is thrown. With `mode` (0o600 for a secret), the temporary file
 * is created with it, so the bytes are never readable by others, not even for
 * a moment; `dirMode` is the mode of the directories it has to make.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, options: { readonly mode?: number; readonly dirMode?: number } = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: options.dirMode ?? 0o777 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  let fd: number | null = null;
  try {
    // The umask may only take bits away from `mode`: a secret's file is never wider than asked.
    fd = openSync(temp, 'wx', options.mode ?? 0o666);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, path);
  } catch (err) {
    if (fd !== null) closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dir);
}

/** A file's text, or null when there is none; any other error (no permission, a directory) is thrown. */
export function readTextIfThere(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Makes a directory's entries (a rename, a new file) durable. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
