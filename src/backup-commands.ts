/** `dice-tower backup` and `dice-tower restore`: the command-line side of `storage/backup.ts`. */
import { parseArgs } from 'node:util';
import { backupDataDir, restoreDataDir, type BackupSummary } from './storage/backup.js';

export const BACKUP_USAGE = `  backup DEST  Copy the data directory (game log, frames, token) to DEST, a new
               or empty directory; safe while the server runs
               --data DIR         [DICE_TOWER_DATA] (default ./data)
  restore SRC  Put a backup back as the data directory (stop the server first)
               --data DIR         [DICE_TOWER_DATA] (default ./data)
               --force            replace the game log and files already there
`;

const dataDir = (given: string | undefined) => given ?? process.env.DICE_TOWER_DATA ?? 'data';

const summary = (s: BackupSummary) => `${s.games} game${s.games === 1 ? '' : 's'}, ${s.events} event${s.events === 1 ? '' : 's'}, ${s.files} other file${s.files === 1 ? '' : 's'}`;

/** The one directory a command names; throws a usage sentence otherwise. */
function oneDirectory(command: string, what: string, positionals: readonly string[]): string {
  if (positionals.length !== 1) throw new Error(`${command} needs one directory (${what}), got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  return positionals[0] as string;
}

export async function backupCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { data: { type: 'string' } }, allowPositionals: true, strict: true });
  const dest = oneDirectory('backup', 'where to put the copy', positionals);
  const from = dataDir(values.data);
  const copied = await backupDataDir(from, dest);
  process.stdout.write(`dice-tower: backed up ${from} to ${dest}: ${summary(copied)}\n`);
  const missing = copied.missingFrames ?? [];
  if (missing.length > 0) {
    process.stderr.write(`dice-tower: warning: ${missing.length} frame${missing.length === 1 ? '' : 's'} the log names ${missing.length === 1 ? 'is' : 'are'} not in ${from} (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): run dice-tower verify --data ${from}\n`);
    return 1;
  }
  return 0;
}

export async function restoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { data: { type: 'string' }, force: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const src = oneDirectory('restore', 'the backup', positionals);
  const to = dataDir(values.data);
  const restored = await restoreDataDir(src, to, { force: values.force ?? false });
  process.stdout.write(`dice-tower: restored ${src} into ${to}: ${summary(restored)}\n`);
  return 0;
}
