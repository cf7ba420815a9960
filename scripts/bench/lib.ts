/**
 * What the benchmarks share: quantiles, a plain text table, flags, and the
 * rule that the last line a benchmark prints is one JSON object of its figures.
 */
import { cpus, totalmem } from 'node:os';

/** The q-quantile (0-1) of `xs`, nearest rank; 0 for an empty list. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Rounds to `digits` decimals. */
export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Prints rows as a table with a header, columns padded to their widest cell. */
export function printTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: ReadonlyArray<string | number>) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i] ?? 0) : String(c).padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/**
 * `--name value` or `--name=value` from argv, as a number, or `fallback`.
 * Refuses a value that is not a positive number, naming the flag.
 */
export function numberFlag(name: string, fallback: number, argv: readonly string[] = process.argv.slice(2)): number {
  let text: string | undefined;
  argv.forEach((a, i) => {
    if (a === `--${name}`) text = argv[i + 1];
    else if (a.startsWith(`--${name}=`)) text = a.slice(name.length + 3);
  });
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} must be a positive number, got '${text}'`);
    process.exit(2);
  }
  return n;
}

/** The machine the figures come from (every JSON line carries it). */
export function machine() {
  const cpu = cpus();
  return { cpu: cpu[0]?.model.trim() ?? 'unknown', cores: cpu.length, memGiB: round(totalmem() / 2 ** 30), node: process.version };
}

/** The last line of every benchmark: one JSON object. */
export function printFigures(bench: string, figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench, ...figures, machine: machine(), at: new Date().toISOString() }));
}
