import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onePhotoSet } from './photo-set.js';

// Training itself needs Debian's python3-torch and an hour; these check what the script does around it, with a Python that fails at once.
const SCRIPT = fileURLToPath(new URL('../scripts/train-die-classifier.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

/** Runs the training script with `env` added; resolves with its exit code and stderr. */
function train(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(TSX, [SCRIPT, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    proc.stderr.on('data', (c) => (err += String(c)));
    proc.on('close', (code) => resolve({ code, err }));
  });
}

describe('scripts/train-die-classifier.ts', () => {
  it('says what it needs when the training fails, and leaves neither its faces in the temporary folder nor a model', { timeout: 120_000 }, async () => {
    const temp = mkdtempSync(join(tmpdir(), 'train-tmp-'));
    const out = join(mkdtempSync(join(tmpdir(), 'train-out-')), 'model');
    const { code, err } = await train(['--sim', '0', '--out', out, onePhotoSet()], { DICE_TOWER_PYTHON: '/bin/false', TMPDIR: temp });
    expect(code).toBe(1);
    expect(err).toContain("training failed (/bin/false exited with 1); it needs Debian's python3-torch");
    // Python was run, so the faces were written to a die-faces-* folder (tsx keeps its own cache there too).
    expect(readdirSync(temp).filter((f) => f.startsWith('die-faces-'))).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('removes its faces when it is stopped during the training, and says so', { timeout: 120_000 }, async () => {
    const temp = mkdtempSync(join(tmpdir(), 'train-tmp-'));
    // A Python that trains for longer than the test may take, and says its process id once it has started.
    const slowPython = join(temp, 'slow-python');
    writeFileSync(slowPython, '#!/bin/sh\necho $$ > "$0.pid"\nexec sleep 600\n', { mode: 0o755 });
    const training = () => Number(readFileSync(`${slowPython}.pid`, 'utf8'));
    const running = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const out = join(mkdtempSync(join(tmpdir(), 'train-out-')), 'model');
    const proc = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--sim', '0', '--out', out, onePhotoSet()], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DICE_TOWER_PYTHON: slowPython, TMPDIR: temp } });
    let err = '';
    proc.stderr.on('data', (c) => (err += String(c)));
    const faces = () => readdirSync(temp).filter((f) => f.startsWith('die-faces-'));
    // The faces are written, and the training under way.
    await expect.poll(() => faces().length === 1 && existsSync(`${slowPython}.pid`) && running(training()), { timeout: 60_000, interval: 100 }).toBe(true);
    proc.kill('SIGTERM');
    // The script's own exit (its stderr may stay open in a Python it failed to stop).
    const [code] = await once(proc, 'exit');
    expect(code).toBe(143);
    expect(err).toContain('training stopped by SIGTERM; no model was written');
    expect(faces()).toEqual([]);
    expect(existsSync(out)).toBe(false);
    // The training was stopped, and waited for, before the script ended.
    expect(running(training())).toBe(false);
  });

  it.each([
    [['--jitter-turn', '50'], '--jitter-turn takes degrees from 0 to 45, got "50"'],
    [['--seed', 'x'], '--seed takes a whole number, got "x"'],
    [['--half', '2'], '--half takes 0 or 1, got "2"'],
    [['--jitter', 'other=3'], '--jitter other=3: no dataset folder named "other" is given'],
  ])('refuses %j, naming it, before any work', { timeout: 60_000 }, async (options, message) => {
    const { code, err } = await train([...options, '--sim', '0', onePhotoSet()], { DICE_TOWER_PYTHON: '/bin/false' });
    expect(code).not.toBe(0);
    expect(err).toContain(message);
    expect(err).not.toContain('training failed');
  });
});
