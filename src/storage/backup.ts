/**
 * `dice-tower backup` and `restore`: a copy of a data directory that holds
 * together, made while the server runs.
 *
 * Copying `dice-tower.db` alone loses data: the log is in SQLite's WAL mode,
 * so recent events live in `dice-tower.db-wal` until a checkpoint moves them
 * into the main file, and a copy of the two taken while the server writes may
 * not match. The database is therefore copied with SQLite's online backup API,
 * which reads through the WAL and gives one consistent snapshot; every other
 * file of the data directory (frames, operator token, chain head, keys,
 * calibration) is copied as it is.
 */
import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { errorText } from '../error-text.js';
import { TEMP_SUFFIX } from './atomic-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './file-modes.js';
import { DB_FILE, FRAMES_DIR, GENESIS_HASH, HEAD_FILE, readHeadFile, writeHeadFile, type ChainPoint } from './chain.js';
import { REPLACED_FRAME_PATH } from './record-check.js';

/** The database and the files SQLite keeps beside it: never copied as files. */
const DB_FILES: readonly string[] = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`];

export interface BackupSummary {
  /** Events and games in the copied log. */
  readonly events: number;
  readonly games: number;
  /** Files copied besides the database (frames, token, head...). */
  readonly files: number;
  /** Frames the copied log names that the data directory does not hold (`dice-tower verify` names them too). */
  readonly missingFrames?: readonly string[];
}

/**
 * Copies the data directory `dataDir` into `dest` (made, 0700), which must not
 * exist or be empty. Safe while a server writes to `dataDir`: the database is
 * opened read-only and copied with the online backup API, with the chain head
 * that goes with that snapshot (copyLogWithHead). The other files beside the
 * database are copied before it, and after it the frames its roll events name
 * (copyNamedFrames).
 */
export async function backupDataDir(dataDir: string, dest: string): Promise<BackupSummary> {
  const from = resolve(dataDir);
  const to = resolve(dest);
  const dbPath = join(from, DB_FILE);
  if (!existsSync(dbPath)) throw new Error(`there is no game log in ${from} (no ${DB_FILE}): nothing to back up; name the data directory with --data`);
  if (inside(to, from)) throw new Error(`the backup ${to} would be inside the data directory ${from}: name a directory elsewhere`);
  refuseNonEmpty(to, 'name a new or empty directory (a backup never overwrites anything)');
  const existed = existsSync(to);
  makePrivateDir(to);
  try {
    let files = copyEntries(from, to, (name) => DB_FILES.includes(name) || name === FRAMES_DIR || name === HEAD_FILE);
    files += await copyLogWithHead(from, to);
    const frames = copyNamedFrames(from, to, [...framesNamedIn(join(to, DB_FILE)), ...framesPutAside(from)]);
    return { ...countLog(join(to, DB_FILE)), files: files + frames.copied, missingFrames: frames.missing };
  } catch (err) {
    // No half backup left behind to be taken for a whole one (and to block the next try).
    if (existed) for (const name of readdirSync(to)) rmSync(join(to, name), { recursive: true, force: true });
    else rmSync(to, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The log and its chain head as one. The head file moves with every write, so
 * the copy's head is made from the copied log's own last events; the source's
 * head, read before the snapshot, must first be vouched for by the copy (the
 * snapshot holds the event it names, with its hash), so a log that has lost
 * rolls its head still knows of is refused, not laundered into a backup that
 * verifies. Returns the files written besides the database (the head: 1, or 0
 * for a log from before head files).
 */
async function copyLogWithHead(from: string, to: string): Promise<number> {
  const before = readHeadFile(from);
  await copyLog(join(from, DB_FILE), join(to, DB_FILE));
  if (before === null) return 0;
  if ('unreadable' in before) throw new Error(`the chain head ${join(from, HEAD_FILE)} cannot be read (${before.unreadable}): run dice-tower verify --data ${from}`);
  // A pending head is one write ahead of a log that may not have it yet: it vouches for the point before.
  const vouched = before.pending ? before.prev : before;
  const db = new Database(join(to, DB_FILE), { fileMustExist: true });
  try {
    const point = (seq: number) => (seq === 0 ? { seq: 0, hash: GENESIS_HASH } : (db.prepare('SELECT seq, hash FROM events WHERE seq = ?').get(seq) as ChainPoint | undefined));
    if (point(vouched.seq)?.hash !== vouched.hash) {
      throw new Error(`the game log in ${from} does not hold event ${vouched.seq} as its chain head records it (rolls lost or changed): run dice-tower verify --data ${from}`);
    }
    const [last, prev] = db.prepare('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 2').all() as ChainPoint[];
    const genesis = { seq: 0, hash: GENESIS_HASH };
    writeHeadFile(to, { ...(last ?? genesis), prev: prev ?? genesis });
    return 1;
  } finally {
    db.close();
  }
}

/** One consistent snapshot of the log at `dbPath` (opened read-only: a running server keeps writing) into `target`, 0600. */
async function copyLog(dbPath: string, target: string): Promise<void> {
  let source: Database.Database;
  try {
    source = new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`cannot open the game log ${dbPath}: ${errorText(err)}`, { cause: err });
  }
  try {
    await source.backup(target);
  } catch (err) {
    throw new Error(`cannot copy the game log ${dbPath} to ${target}: ${errorText(err)}`, { cause: err });
  } finally {
    source.close();
  }
  chmodSync(target, PRIVATE_FILE_MODE);
}

/**
 * Puts the backup in `backupDir` back as the data directory `dataDir`. Refuses
 * a directory that is not a backup (no game log in it, or not one SQLite and
 * dice-tower can read), and a data directory that is not empty unless `force`
 * (then everything in it is replaced). The backup is only read, never opened
 * by SQLite (which would leave files in it): its database (and a -wal beside
 * it, from a data directory copied whole by hand) is copied to a temporary
 * file in `dataDir`, checked, and renamed into place last, so a restore cut
 * short leaves no game log and can simply be run again.
 */
export async function restoreDataDir(backupDir: string, dataDir: string, options: { readonly force?: boolean } = {}): Promise<BackupSummary> {
  const from = resolve(backupDir);
  const to = resolve(dataDir);
  const backupDb = join(from, DB_FILE);
  if (!existsSync(backupDb)) throw new Error(`${from} is not a dice-tower backup: it has no ${DB_FILE}; name a directory made by dice-tower backup`);
  if (inside(to, from) || inside(from, to)) throw new Error(`the backup ${from} and the data directory ${to} overlap: restore into another directory`);
  const stat = statSync(to, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw new Error(`${to} is a file, not a directory: name the data directory to restore into`);
  if (existsSync(join(to, DB_FILE)) && !options.force) {
    throw new Error(`${to} already holds a game log (${DB_FILE}); restoring would replace it: stop the server, back it up if you may want it again, then restore with --force`);
  }
  if (!options.force) refuseNonEmpty(to, 'restore into a new or empty directory, or pass --force to replace what is there');
  makePrivateDir(to);
  const temp = join(to, `.${DB_FILE}.restore${TEMP_SUFFIX}`);
  let log: { events: number; games: number };
  try {
    copyFileSync(backupDb, temp);
    if (existsSync(`${backupDb}-wal`)) copyFileSync(`${backupDb}-wal`, `${temp}-wal`);
    chmodSync(temp, PRIVATE_FILE_MODE);
    // Read-write: SQLite folds a copied -wal into the file, and deletes it on close.
    log = countLog(temp);
    newStreamEpoch(temp);
  } catch (err) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temp}${suffix}`, { force: true });
    throw new Error(`${backupDb} is not a dice-tower game log (${errorText(err)}); name a directory made by dice-tower backup`, { cause: err });
  }
  for (const name of readdirSync(to)) if (name !== basename(temp)) rmSync(join(to, name), { recursive: true, force: true });
  const files = copyEntries(from, to, (name) => DB_FILES.includes(name));
  renameSync(temp, join(to, DB_FILE));
  return { ...log, files };
}

/** Whether `path` is `dir` or inside it. */
function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function refuseNonEmpty(dir: string, what: string): void {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) throw new Error(`${dir} is a file, not a directory: ${what}`);
  const names = readdirSync(dir);
  if (names.length > 0) throw new Error(`${dir} is not empty (it holds ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}): ${what}`);
}

function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Copies the entries of `from` into `to` (directories recursively), except the
 * top-level ones `skip` names and half-written temporary files; every copy is
 * readable by its owner only. Returns how many files it copied.
 */
function copyEntries(from: string, to: string, skip: (name: string) => boolean): number {
  let files = 0;
  for (const name of readdirSync(from)) {
    if (skip(name) || name.endsWith(TEMP_SUFFIX)) continue;
    const source = join(from, name);
    const target = join(to, name);
    // Followed links: a frames folder kept on another disk is copied too.
    const stat = statSync(source);
    if (stat.isDirectory()) {
      makePrivateDir(target);
      files += copyEntries(source, target, () => false);
    } else if (stat.isFile()) {
      copyFileSync(source, target);
      chmodSync(target, PRIVATE_FILE_MODE);
      files += 1;
    }
  }
  return files;
}

/** The frame files (relative paths) the roll events of the log at `dbPath` name. */
function framesNamedIn(dbPath: string): string[] {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    const rows = db.prepare("SELECT payload FROM events WHERE type = 'game/roll'").all() as { payload: string }[];
    return rows.flatMap((row) => {
      const frame = (JSON.parse(row.payload) as { frame?: unknown }).frame;
      return typeof frame === 'string' ? [frame] : [];
    });
  } finally {
    db.close();
  }
}

/** The frames the store put aside (`<n>.replaced-<time>.jpg`: the frame of a roll made again, or evidence of a lost one), as relative paths. */
function framesPutAside(dataDir: string): string[] {
  const frames = join(dataDir, FRAMES_DIR);
  if (!existsSync(frames)) return [];
  return readdirSync(frames, { withFileTypes: true })
    .filter((game) => game.isDirectory())
    .flatMap((game) => readdirSync(join(frames, game.name)).map((name) => `${FRAMES_DIR}/${game.name}/${name}`))
    .filter((frame) => REPLACED_FRAME_PATH.test(frame));
}

/**
 * Copies the frames a snapshot's events name (and those put aside), and only those: a frame saved
 * while the snapshot was taken belongs to a roll the copy does not hold, and
 * would be a frame beyond the log's end there. A path that leaves the frames
 * folder is not followed; a frame missing is counted, not fatal (a backup of
 * a damaged directory still saves what is there).
 */
function copyNamedFrames(from: string, to: string, frames: readonly string[]): { copied: number; missing: string[] } {
  const missing: string[] = [];
  let copied = 0;
  for (const frame of frames) {
    const source = resolve(from, frame);
    if (!inside(source, join(from, FRAMES_DIR)) || !existsSync(source)) {
      missing.push(frame);
      continue;
    }
    const target = join(to, relative(from, source));
    makePrivateDir(dirname(target));
    copyFileSync(source, target);
    chmodSync(target, PRIVATE_FILE_MODE);
    copied += 1;
  }
  return { copied, missing };
}

/** How many events and games the log at `dbPath` holds (opened read-write, so closing it leaves no -wal or -shm behind). */
/**
 * Drops the event stream's epoch (integrations/event-stream.ts) from a restored log, so the next start makes a new
 * one: the stream's seqs start again from the backup's head, and a consumer that kept a seq of the old run must be
 * told to resync rather than resume past events it never got. A log from before the stream (schema < 4) has none.
 */
function newStreamEpoch(dbPath: string): void {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stream_facts'").get() !== undefined;
    if (has) db.prepare("DELETE FROM stream_facts WHERE name = 'epoch'").run();
  } finally {
    db.close();
  }
}

function countLog(dbPath: string): { events: number; games: number } {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    return db.prepare("SELECT count(*) AS events, count(CASE WHEN type = 'game/created' THEN 1 END) AS games FROM events").get() as { events: number; games: number };
  } finally {
    db.close();
  }
}
