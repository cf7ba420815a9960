/**
 * `npm run bench`: every benchmark in turn, each in its own process (so one's
 * memory and JIT state do not colour the next), with its own output passed
 * through. Arguments after `--` go to every benchmark that takes them (for a
 * quick run: `npm run bench -- --seconds 10 --rolls 100 --frames 10`). The
 * last line is one JSON object: every benchmark's own last line, by name.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machine, printTable } from './lib.js';

const BENCHMARKS = [
  { name: 'rules', file: 'rules.ts', flags: ['seconds'] },
  { name: 'vision', file: 'vision.ts', flags: ['frames', 'stream'] },
  { name: 'roll-latency', file: 'roll-latency.ts', flags: ['rolls'] },
  { name: 'fan-out', file: 'fan-out.ts', flags: ['clients', 'seconds'] },
] as const;

const args = process.argv.slice(2);
/** The `--flag value` pairs a benchmark understands. */
const argsFor = (flags: readonly string[]) =>
  args.flatMap((a, i) => (flags.some((f) => a === `--${f}`) ? [a, args[i + 1] ?? ''] : flags.some((f) => a.startsWith(`--${f}=`)) ? [a] : []));

const results: Record<string, unknown> = {};
const summary: Array<[string, string, string]> = [];
for (const bench of BENCHMARKS) {
  console.log(`\n=== ${bench.name} ===`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${bench.file}`, import.meta.url)), ...argsFor(bench.flags)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += String(chunk);
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  try {
    results[bench.name] = JSON.parse(last);
  } catch {
    results[bench.name] = { error: `exited ${code} without a JSON line` };
  }
  summary.push([bench.name, code === 0 ? 'ok' : `exit ${code}`, `${Math.round((performance.now() - started) / 1000)} s`]);
  if (code !== 0) process.exitCode = 1;
}
console.log('\n=== all benchmarks ===');
printTable(['benchmark', 'status', 'time'], summary);
console.log(JSON.stringify({ bench: 'all', machine: machine(), results }));
