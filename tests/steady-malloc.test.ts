import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/steady-malloc.sh', import.meta.url));
/** Runs `node -e code` through scripts/steady-malloc.sh with `env` added to this process's. */
const run = (code: string, env: Record<string, string> = {}) => {
  const base = { ...process.env };
  delete base.MALLOC_MMAP_THRESHOLD_;
  delete base.MALLOC_TRIM_THRESHOLD_;
  return spawnSync('bash', [script, process.execPath, '-e', code, 'an argument'], { env: { ...base, ...env }, encoding: 'utf8' });
};
const printEnv = 'console.log(JSON.stringify([process.env.MALLOC_MMAP_THRESHOLD_, process.env.MALLOC_TRIM_THRESHOLD_, process.argv.at(-1)]))';

describe('scripts/steady-malloc.sh (npm start and the benchmarks run through it)', () => {
  it("fixes glibc's malloc thresholds for the command and passes its arguments", () => {
    const result = run(printEnv);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['33554432', '268435456', 'an argument']);
  });

  it('keeps thresholds the user set', () => {
    expect(JSON.parse(run(printEnv, { MALLOC_MMAP_THRESHOLD_: '1048576' }).stdout)).toEqual(['1048576', '268435456', 'an argument']);
  });

  it("exits with the command's status", () => {
    expect(run('process.exit(3)').status).toBe(3);
  });
});
