/** `dice-tower verify`: the record check (`storage/record-check.ts`) on a data directory, from the command line. */
import { parseArgs } from 'node:util';
import { describeRecord, verifyDataDir } from './storage/record-check.js';

export const VERIFY_USAGE = `  verify       Check the record: the hash chain, every frame against its
               event, the head file against the log; prints "ok" with the
               counts, or names the first bad event or file and exits 1
               (reads only: safe while the server runs). A problem the
               server once found is kept in record-problem.json and
               reported (with when it was found) until you remove that file
               --data DIR         [DICE_TOWER_DATA] (default ./data)
`;

/** Exit code 0 when the record holds, 1 when it does not (what is wrong on stdout; a directory that cannot be read throws). */
export function verifyCommand(args: readonly string[]): number {
  const { values } = parseArgs({ args: [...args], options: { data: { type: 'string' } }, strict: true });
  const dataDir = values.data ?? process.env.DICE_TOWER_DATA ?? 'data';
  const report = verifyDataDir(dataDir);
  if (report.ok) {
    process.stdout.write(`${describeRecord(report)}\n`);
    for (const note of report.notes) process.stdout.write(`note: ${note}\n`);
    return 0;
  }
  const at = report.problem?.seq != null ? ` at event ${report.problem.seq}` : '';
  process.stdout.write(`bad: the record in ${dataDir} was changed outside dice-tower${at}: ${describeRecord(report)}\n`);
  if (report.unverifiedGames.length > 0) process.stdout.write(`games that cannot be vouched for: ${report.unverifiedGames.join(', ')}\n`);
  return 1;
}
