import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';

/** Runs `dice-tower ARGS` in this process; returns the exit code and what it printed. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, out, err };
}

describe('dice-tower solve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-solve-'));
  afterEach(() => vi.restoreAllMocks());

  it('prints the optimum as JSON and keeps the tables for the server', async () => {
    const first = await run(['solve', 'shut-the-box', '--options', '{"closeRule":"anyCombination"}', '--data', dir]);
    expect(first.code, first.err).toBe(0);
    const solved = JSON.parse(first.out) as { game: string; measure: string; optimum: number; options: Record<string, unknown>; facts: Record<string, unknown>; seconds: number };
    expect(solved).toMatchObject({ game: 'shut-the-box', measure: 'expectedPenalty', options: { closeRule: 'anyCombination', rounds: 1 } });
    expect(solved.optimum).toBeGreaterThan(0);
    expect(solved.seconds).toBeGreaterThanOrEqual(0);
    expect(readdirSync(join(dir, 'coach'))).toHaveLength(1);
    // Again: from the kept tables, the same answer.
    const again = JSON.parse((await run(['solve', 'shut-the-box', '--options', '{"closeRule":"anyCombination"}', '--data', dir])).out) as { optimum: number; facts: unknown };
    expect(again.optimum).toBe(solved.optimum);
    expect(again.facts).toEqual(solved.facts);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['solve'], /solve takes one game/],
    [['solve', 'snakes'], /no game called 'snakes'/],
    [['solve', 'bluff'], /no solver for Bluff/],
    [['solve', 'shut-the-box', '--options', '{"closeRule":'], /--options is not JSON/],
    [['solve', 'shut-the-box', '--options', '[1]'], /--options must be a JSON object/],
    [['solve', 'shut-the-box', '--options', '{"closeRule":"anyOld"}'], /closeRule/],
  ])('refuses %j, saying why', async (args, message) => {
    const { code, err } = await run([...args, '--data', dir]);
    expect(code).toBe(1);
    expect(err).toMatch(message);
  });
});
