/**
 * The record check: does the data directory still hold what dice-tower wrote?
 * One pure function (`checkRecord`) over the log's rows, the head file and the
 * frame files, returning the first problem; `inspectRecord` gathers those from
 * a database connection and the directory; `verifyDataDir` does it read-only,
 * for `dice-tower verify` (safe while the server runs). The server runs the
 * same check at start.
 *
 * What it finds: an event that does not chain (changed, deleted, reordered); a
 * roll's frame missing, changed or swapped; a frame no event names, or frames
 * beyond the log's end (rolls lost); a head file ahead of the log (events
 * lost: a lost `-wal` file), behind it, not matching it, or missing.
 *
 * What a crash leaves is not a problem: the frame of a roll under way (saved,
 * never recorded) and a pending head file one write ahead of the log (written
 * just before a commit that never happened) are noted, not reported; so is a
 * frame the store put aside (`<n>.replaced-<time>.jpg`) when that roll was
 * made again.
 *
 * A finding is kept: the store writes it to `record-problem.json` in the data
 * directory (when its check at start, or an append, finds the head file
 * disagreeing with the log), and every check after reports it, with when it
 * was found, until a person removes that file. Otherwise one write would
 * wash it out: the next append moves the head file to the log's new end, and
 * the next check would find nothing.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DB_FILE, FRAMES_DIR, GENESIS_HASH, chainProblem, frameHash, logRow, readHeadFile, type ChainHead, type ChainPoint, type EventRow, type LogRow } from './chain.js';
import { readTextIfThere, TEMP_SUFFIX, writeFileAtomic } from './atomic-file.js';
import { PRIVATE_FILE_MODE } from './file-modes.js';
import { StoreError } from './errors.js';
import { errorText } from '../error-text.js';

/** The only frame paths the store writes. */
const FRAME_PATH = /^frames\/([A-Za-z0-9_-]{1,100})\/([1-9][0-9]{0,9})\.jpg$/;
/** A frame the store put aside when its roll was made again (never removed: it may be a lost roll's). */
export const REPLACED_FRAME_PATH = /^frames\/([A-Za-z0-9_-]{1,100})\/([1-9][0-9]{0,9})\.replaced-[0-9A-Za-z-]{1,60}\.jpg$/;

/** The kept findings, in the data directory: removed by hand only, once a person has dealt with them. */
export const PROBLEM_FILE = 'record-problem.json';
/** What every report of a kept finding ends with. */
export const CLEAR_HINT = `remove ${PROBLEM_FILE} from the data directory once you have dealt with it`;

/** Everything the check looks at; gathered by `inspectRecord`, made up by tests. */
export interface RecordInput {
  /** The log, in seq order. */
  readonly rows: Iterable<LogRow>;
  /** The first seq whose roll frames are hashed; null: the log predates frame hashes (schema before 3). */
  readonly framesHashedFrom: number | null;
  /** Whether a head file was ever written for this log (false: a log from before head files, not opened by this version yet). */
  readonly headExpected: boolean;
  readonly head: ChainHead | { readonly unreadable: string } | null;
  /** Every file under `frames/`, relative to the data directory (`frames/<game>/<roll>.jpg`); temporary files left out. */
  readonly frameFiles: readonly string[];
  /** sha256 of a frame file, or null when there is no such file (or it cannot be read). */
  readonly hashFrame: (path: string) => string | null;
  /** The findings kept in `record-problem.json` (`readKeptFindings`); absent or null: none. */
  readonly kept?: KeptFindings | null;
}

/** A problem found once and kept (`record-problem.json`), with when it was found. */
export interface KeptFinding {
  readonly kind: RecordProblemKind;
  readonly seq: number | null;
  readonly gameId: string | null;
  readonly file: string | null;
  readonly message: string;
  /** ISO time it was found. */
  readonly foundAt: string;
}

/** The kept findings, earliest event first; or why the file cannot be read (itself a finding: it was changed). */
export type KeptFindings = readonly KeptFinding[] | { readonly unreadable: string };

export type RecordProblemKind =
  | 'chain'
  | 'frame_missing'
  | 'frame_changed'
  | 'frame_unhashed'
  | 'frame_extra'
  | 'frame_beyond_log'
  | 'head_missing'
  | 'head_unreadable'
  | 'head_ahead'
  | 'head_behind'
  | 'head_mismatch'
  | 'kept_unreadable';

/** The first thing found wrong: the event (seq) and file it concerns, when there is one. */
export interface RecordProblem {
  readonly kind: RecordProblemKind;
  readonly seq: number | null;
  readonly gameId: string | null;
  readonly file: string | null;
  readonly message: string;
  /** When it was found, for a problem kept from an earlier check (`record-problem.json`); absent for one found now. */
  readonly foundAt?: string;
}

export interface RecordReport {
  readonly ok: boolean;
  readonly problem: RecordProblem | null;
  /** Events in the log. */
  readonly events: number;
  /** Frames found to match the hash their event holds. */
  readonly frames: number;
  /** Events recorded before frames were hashed (an older dice-tower), and their frames, checked only to exist. */
  readonly beforeFrameHashes: { readonly events: number; readonly frames: number };
  /** Where the log ends (its last event that chains). */
  readonly end: ChainPoint;
  /** What a crash leaves behind, found and accepted. */
  readonly notes: readonly string[];
  /** Games touched at or after the problem (every game when it cannot be placed): their record cannot be vouched for. */
  readonly unverifiedGames: readonly string[];
  /** The problem this check found itself (without the kept ones): what the store keeps. */
  readonly found: RecordProblem | null;
}

/** The record check, pure: the first problem of the log, head and frames, or none. */
export function checkRecord(input: RecordInput): RecordReport {
  const seen: Array<{ seq: number; gameId: string }> = [];
  const hashes = new Map<number, string>();
  /** Games in the log, with the number of their last roll. */
  const lastRoll = new Map<string, number>();
  /** `<game>/<roll>` → the event recording that roll, and its frame path. */
  const rollEvents = new Map<string, { seq: number; frame: string | null }>();
  const referenced = new Set<string>();
  const notes: string[] = [];
  let problem: RecordProblem | null = null;
  let end: ChainPoint = { seq: 0, hash: GENESIS_HASH };
  let frames = 0;
  let unhashedFrames = 0;
  let unhashedEvents = 0;

  for (const row of input.rows) {
    seen.push({ seq: row.seq, gameId: row.gameId });
    // After the first problem the rest is only read for the games it touches.
    if (problem) continue;
    const broken = chainProblem(row, end.seq, end.hash);
    if (broken) {
      problem = { kind: 'chain', seq: row.seq, gameId: row.gameId, file: null, message: `Event ${row.seq} (${row.type} of game ${row.gameId}) does not chain: ${broken}.` };
      continue;
    }
    end = { seq: row.seq, hash: row.hash };
    hashes.set(row.seq, row.hash);
    const hashedFrames = input.framesHashedFrom !== null && row.seq >= input.framesHashedFrom;
    if (!hashedFrames) unhashedEvents++;
    if (!lastRoll.has(row.gameId)) lastRoll.set(row.gameId, 0);
    if (row.type !== 'game/roll') continue;
    const payload = JSON.parse(row.payload) as { roll?: { seq?: unknown }; frame?: unknown };
    const rollSeq = typeof payload.roll?.seq === 'number' ? payload.roll.seq : 0;
    const frame = typeof payload.frame === 'string' ? payload.frame : null;
    lastRoll.set(row.gameId, Math.max(lastRoll.get(row.gameId) ?? 0, rollSeq));
    rollEvents.set(`${row.gameId}/${rollSeq}`, { seq: row.seq, frame });
    if (frame === null) continue;
    referenced.add(frame);
    const which = `event ${row.seq} (roll ${rollSeq} of game ${row.gameId})`;
    const actual = input.hashFrame(frame);
    if (actual === null) {
      problem = { kind: 'frame_missing', seq: row.seq, gameId: row.gameId, file: frame, message: `The frame ${frame} of ${which} is missing.` };
    } else if (row.frameSha256 !== null) {
      if (actual === row.frameSha256) frames++;
      else problem = { kind: 'frame_changed', seq: row.seq, gameId: row.gameId, file: frame, message: `The frame ${frame} is not the one ${which} recorded: it was changed or swapped with another.` };
    } else if (hashedFrames) {
      problem = { kind: 'frame_unhashed', seq: row.seq, gameId: row.gameId, file: frame, message: `Event ${row.seq} has a frame but no frame hash, though every frame is hashed from event ${input.framesHashedFrom} on: its hash was taken off.` };
    } else {
      unhashedFrames++;
    }
  }

  problem ??= headProblem(input.head, input.headExpected, end, (seq) => hashes.get(seq), notes);
  problem ??= frameFileProblem(input.frameFiles, referenced, lastRoll, rollEvents, end, notes);
  const kept = keptProblems(input.kept ?? null);
  // The earliest of the kept findings and this one is the one reported; every game any of them touches is unverified.
  const first = [...kept, ...(problem ? [problem] : [])].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))[0] ?? null;
  const unverified = new Set<string>();
  for (const p of [...kept, ...(problem ? [problem] : [])]) for (const game of gamesTouched(p, seen)) unverified.add(game);
  return {
    ok: first === null,
    problem: first,
    events: seen.length,
    frames,
    beforeFrameHashes: { events: unhashedEvents, frames: unhashedFrames },
    end,
    notes,
    unverifiedGames: [...unverified],
    found: problem,
  };
}

/** The kept findings as problems, earliest first, their messages saying when they were found and how to clear them. */
function keptProblems(kept: KeptFindings | null): RecordProblem[] {
  if (kept === null) return [];
  if ('unreadable' in kept) {
    return [{ kind: 'kept_unreadable', seq: null, gameId: null, file: PROBLEM_FILE, message: `${PROBLEM_FILE}, where dice-tower keeps a problem it found in the record, cannot be read (${kept.unreadable}): it was changed by hand; ${CLEAR_HINT}.` }];
  }
  return kept.map((k) => ({
    kind: k.kind,
    seq: k.seq,
    gameId: k.gameId,
    file: k.file,
    message: `Found ${k.foundAt} and kept in ${PROBLEM_FILE}: ${k.message} (Reported until you ${CLEAR_HINT}.)`,
    foundAt: k.foundAt,
  }));
}

/**
 * The head file against where the log ends (`end`); `hashAt` gives the hash
 * of an event of the log. Null when they agree, or when the head is what a
 * crash leaves (noted). The store asks the same before each append.
 */
export function headProblem(
  head: ChainHead | { readonly unreadable: string } | null,
  headExpected: boolean,
  end: ChainPoint,
  hashAt: (seq: number) => string | undefined,
  notes: string[],
): RecordProblem | null {
  const at = (kind: RecordProblemKind, seq: number | null, message: string): RecordProblem => ({ kind, seq, gameId: null, file: null, message });
  if (head === null) {
    if (!headExpected) {
      notes.push('There is no head file yet: this log predates head files (the server writes one when it next starts).');
      return null;
    }
    return at('head_missing', null, 'The head file (chain-head.json) is missing: whether events were lost from the end of the log cannot be told.');
  }
  if ('unreadable' in head) return at('head_unreadable', null, `The head file (chain-head.json) cannot be read (${head.unreadable}): whether events were lost from the end of the log cannot be told.`);
  const mismatch = (seq: number) =>
    at('head_mismatch', seq, `Event ${seq} does not have the hash the head file holds: the chain was recomputed after a change at or before event ${seq}.`);
  if (end.seq === head.seq) return end.hash === head.hash ? null : mismatch(head.seq);
  if (head.pending && end.seq === head.prev.seq && end.hash === head.prev.hash) {
    const events = head.seq === end.seq + 1 ? `event ${head.seq}` : `events ${end.seq + 1}-${head.seq}`;
    notes.push(`The last write (${events}) never completed: a stop while writing, nothing was acknowledged.`);
    return null;
  }
  if (end.seq < head.seq) {
    const lost = head.seq - end.seq;
    return at('head_ahead', end.seq + 1, `The log ends at event ${end.seq}, but the head file says it reached event ${head.seq}: ${lost} event${lost === 1 ? ' is' : 's are'} missing (${end.seq + 1}-${head.seq}; rolls lost, e.g. a lost -wal file or events deleted from the end).`);
  }
  if (hashAt(head.seq) !== head.hash) return mismatch(head.seq);
  return at('head_behind', head.seq + 1, `The log goes on past the head file's event ${head.seq} to event ${end.seq}: ${span('event', head.seq + 1, end.seq)} added outside dice-tower, or the head file was replaced by an older one.`);
}

/** Frame files no event names: beyond the log's end (rolls lost), the one roll under way at a stop (accepted), or extra. */
function frameFileProblem(
  files: readonly string[],
  referenced: ReadonlySet<string>,
  lastRoll: ReadonlyMap<string, number>,
  rollEvents: ReadonlyMap<string, { seq: number; frame: string | null }>,
  end: ChainPoint,
  notes: string[],
): RecordProblem | null {
  for (const file of [...files].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    if (referenced.has(file)) continue;
    const aside = REPLACED_FRAME_PATH.exec(file);
    if (aside) {
      notes.push(`${file}: a frame put aside when roll ${aside[2]} of game ${aside[1]} was made again (a roll under way at a stop, or one lost from the log).`);
      continue;
    }
    const match = FRAME_PATH.exec(file);
    if (!match) return { kind: 'frame_extra', seq: null, gameId: null, file, message: `${file} is not a frame dice-tower writes (frames/<game>/<roll>.jpg).` };
    const gameId = match[1] ?? '';
    const roll = Number(match[2]);
    const last = lastRoll.get(gameId);
    const beyond = (message: string): RecordProblem => ({ kind: 'frame_beyond_log', seq: end.seq + 1, gameId, file, message });
    if (last === undefined) return beyond(`${file} is the frame of roll ${roll} of game ${gameId}, which the log (ending at event ${end.seq}) does not have at all: its events were lost.`);
    if (roll === last + 1) {
      notes.push(`${file}: the frame of a roll under way when the server stopped (never recorded; made again, it is replaced).`);
      continue;
    }
    if (roll > last + 1) return beyond(`${file} is the frame of roll ${roll} of game ${gameId}, but the log has ${last} roll${last === 1 ? '' : 's'} of it: ${span('roll', last + 1, roll)} lost.`);
    const event = rollEvents.get(`${gameId}/${roll}`);
    const has = event?.frame ? `its frame at ${event.frame}` : 'no frame';
    return { kind: 'frame_extra', seq: event?.seq ?? null, gameId, file, message: `${file} is not the frame of any event: roll ${roll} of game ${gameId}${event ? ` (event ${event.seq})` : ''} has ${has}.` };
  }
  return null;
}

/** The games a problem casts doubt on: those with events at or after it; every game when it has no place in the log. */
function gamesTouched(problem: RecordProblem, seen: ReadonlyArray<{ seq: number; gameId: string }>): string[] {
  const games = new Set<string>();
  const everything = problem.seq === null || problem.kind === 'head_mismatch' || problem.kind === 'kept_unreadable';
  for (const event of seen) if (everything || event.seq >= (problem.seq ?? 0)) games.add(event.gameId);
  if (problem.gameId) games.add(problem.gameId);
  return [...games];
}

/** "event 7 was" or "events 7-9 were": a run of events or rolls, for the messages. */
function span(what: string, from: number, to: number): string {
  return from === to ? `${what} ${from} was` : `${what}s ${from}-${to} were`;
}

/** One line for a person: "ok" with the counts, or the problem. */
export function describeRecord(report: RecordReport): string {
  if (report.problem) return report.problem.message;
  const older = report.beforeFrameHashes.events > 0
    ? `; ${report.beforeFrameHashes.events} event${report.beforeFrameHashes.events === 1 ? '' : 's'} predate frame hashes (their ${report.beforeFrameHashes.frames} frame${report.beforeFrameHashes.frames === 1 ? '' : 's'} checked to exist only)`
    : '';
  return `ok: ${report.events} event${report.events === 1 ? '' : 's'} chained, ${report.frames} frame${report.frames === 1 ? '' : 's'} match their events, head at event ${report.end.seq}${older}`;
}

/**
 * Runs the check on a database connection and the data directory. The head
 * file is read around the start of one read transaction, and again if a write
 * came in between, so a server writing meanwhile does not look like a problem.
 */
export function inspectRecord(db: Database.Database, dataDir: string): RecordReport {
  const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all() as string[]));
  const hasFacts = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chain_facts'").get() !== undefined;
  const fact = (name: string): number | null => (hasFacts ? ((db.prepare('SELECT value FROM chain_facts WHERE name = ?').pluck().get(name) as number | undefined) ?? null) : null);
  const rows = columns.size === 0
    ? null
    : db.prepare(`SELECT seq, game_id, type, at, payload, prev_hash, hash, ${columns.has('frame_sha256') ? 'frame_sha256' : 'NULL'} AS frame_sha256 FROM events ORDER BY seq`);
  for (let attempt = 1; ; attempt++) {
    const headBefore = readHeadFile(dataDir);
    db.exec('BEGIN');
    try {
      // The first read fixes the transaction's snapshot of the log.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      const framesHashedFrom = fact('frames_hashed_from');
      const headAfter = readHeadFile(dataDir);
      if (JSON.stringify(headAfter) !== JSON.stringify(headBefore) && attempt < 5) continue;
      return checkRecord({
        rows: rows ? logRows(rows.iterate() as IterableIterator<EventRow>) : [],
        framesHashedFrom,
        headExpected: fact('head_file_from') !== null,
        head: headAfter,
        frameFiles: listFrames(dataDir),
        hashFrame: (path) => hashFrameFile(dataDir, path),
        kept: readKeptFindings(dataDir),
      });
    } finally {
      db.exec('COMMIT');
    }
  }
}

/**
 * `dice-tower verify`: the check on a data directory, with the database opened
 * read-only (it may run while the server runs). Throws `store/open_failed`
 * when there is no log to check.
 */
export function verifyDataDir(dataDir: string): RecordReport {
  const dir = resolve(dataDir);
  const dbPath = join(dir, DB_FILE);
  if (!existsSync(dbPath)) throw new StoreError('store/open_failed', `There is no game log at ${dbPath}: is ${dir} a dice-tower data directory?`, dbPath);
  let db: Database.Database;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
  } catch (err) {
    throw new StoreError('store/open_failed', `Cannot open the database ${dbPath} to read it: ${errorText(err)}`, dbPath, { cause: err });
  }
  try {
    return inspectRecord(db, dir);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw new StoreError('store/read_failed', `Could not read the record in ${dir}: ${errorText(err)}`, dir, { cause: err });
  } finally {
    db.close();
  }
}

function* logRows(rows: Iterable<EventRow>): Generator<LogRow> {
  for (const r of rows) yield logRow(r);
}

/** Every file under `frames/` (two levels: game, then roll), as `frames/...` paths; half-written temporary files left out. */
function listFrames(dataDir: string): string[] {
  const root = join(dataDir, FRAMES_DIR);
  const out: string[] = [];
  const entries = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  for (const entry of entries(root)) {
    if (!entry.isDirectory()) {
      out.push(`${FRAMES_DIR}/${entry.name}`);
      continue;
    }
    for (const file of entries(join(root, entry.name))) if (!file.name.endsWith(TEMP_SUFFIX)) out.push(`${FRAMES_DIR}/${entry.name}/${file.name}`);
  }
  return out;
}

/** sha256 of a frame file; null when the path is not a frame path or the file cannot be read. */
function hashFrameFile(dataDir: string, path: string): string | null {
  if (!FRAME_PATH.test(path)) return null;
  try {
    return frameHash(readFileSync(join(dataDir, path)));
  } catch {
    return null;
  }
}

const KINDS: readonly RecordProblemKind[] = [
  'chain', 'frame_missing', 'frame_changed', 'frame_unhashed', 'frame_extra', 'frame_beyond_log',
  'head_missing', 'head_unreadable', 'head_ahead', 'head_behind', 'head_mismatch', 'kept_unreadable',
];

/** The findings kept in the data directory: null when there are none (no file), or why the file cannot be read. */
export function readKeptFindings(dataDir: string): KeptFindings | null {
  let text: string | null;
  try {
    text = readTextIfThere(join(dataDir, PROBLEM_FILE));
  } catch (err) {
    return { unreadable: errorText(err) };
  }
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unreadable: 'it is not JSON' };
  }
  const findings = (value as { findings?: unknown } | null)?.findings;
  const nullable = (v: unknown, type: 'string' | 'number') => v === null || typeof v === type;
  const valid = (f: Partial<KeptFinding> | null): f is KeptFinding =>
    !!f && typeof f === 'object' && KINDS.includes(f.kind as RecordProblemKind) && nullable(f.seq, 'number') && nullable(f.gameId, 'string') && nullable(f.file, 'string')
    && typeof f.message === 'string' && typeof f.foundAt === 'string';
  if (!Array.isArray(findings) || findings.length === 0 || !findings.every((f) => valid(f as Partial<KeptFinding> | null))) {
    return { unreadable: 'it does not hold the findings dice-tower wrote' };
  }
  return [...(findings as KeptFinding[])].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/**
 * Keeps a problem found in the record, outside the database, so that no later
 * write washes it out. A file already there is never replaced by a later
 * event's problem: the finding is added only when it lies before every kept
 * one (the earliest is what is reported; the others stay in the file). An
 * unreadable file is left as it is (it is reported as a problem itself).
 * Written atomically, 0600. Returns whether it added the finding.
 */
export function keepProblem(dataDir: string, problem: RecordProblem, now: Date = new Date()): boolean {
  const kept = readKeptFindings(dataDir);
  if (kept !== null && 'unreadable' in kept) return false;
  const earliest = kept?.[0];
  if (earliest && (earliest.seq ?? 0) <= (problem.seq ?? 0)) return false;
  const finding: KeptFinding = { kind: problem.kind, seq: problem.seq, gameId: problem.gameId, file: problem.file, message: problem.message, foundAt: now.toISOString() };
  const text = `${JSON.stringify({ note: `Kept by dice-tower: problems found in this record, reported by every check; ${CLEAR_HINT}.`, findings: [finding, ...(kept ?? [])] }, null, 2)}\n`;
  writeFileAtomic(join(dataDir, PROBLEM_FILE), Buffer.from(text), { mode: PRIVATE_FILE_MODE });
  return true;
}

/** What `/api/health` says of the record (and the pages' banner shows). */
export interface RecordHealth {
  readonly ok: boolean;
  /** The first event found wrong; null when the record is sound or the problem has no place in the log (a missing head file). */
  readonly firstBad: number | null;
  readonly kind: RecordProblemKind | null;
  /** The file concerned (a frame), when there is one. */
  readonly file: string | null;
  readonly message: string;
}

export function recordHealth(report: RecordReport): RecordHealth {
  const p = report.problem;
  return { ok: report.ok, firstBad: p?.seq ?? null, kind: p?.kind ?? null, file: p?.file ?? null, message: describeRecord(report) };
}
