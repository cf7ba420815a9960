/**
 * Flashing the shipped tower firmware onto the Arduino Uno: finds the board
 * (by USB id, or the port given), builds the .hex with the firmware's
 * Makefile when it is missing or older than its sources, and writes it with
 * Debian's `avrdude` through the Uno's bootloader. Each step is reported as a
 * progress line; a failure names the step and carries the tool's output.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describePort, findTowerPort, type PortInfoLike } from './serial-ports.js';

/** The firmware sources shipped with dice-tower (firmware/ at the project's root). */
export const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware/', import.meta.url));
/** Where Arduino.mk puts the image (BOARD_TAG uno, TARGET dice-tower). */
export const firmwareHex = (dir: string = FIRMWARE_DIR): string => join(dir, 'build-uno', 'dice-tower.hex');

/** The Uno's Optiboot bootloader: ATmega328P, the `arduino` protocol at 115 200 baud (Arduino's boards.txt). */
export const UNO_AVRDUDE = { part: 'atmega328p', programmer: 'arduino', baud: 115_200 } as const;

/** Lines of a tool's output kept in an error: the end, where the reason is. */
const OUTPUT_LINES = 25;

export class FlashError extends Error {
  constructor(
    readonly code: 'flash/no_board' | 'flash/no_avrdude' | 'flash/build_failed' | 'flash/avrdude_failed',
    message: string,
    /** The tool's output (make's or avrdude's), when a tool failed. */
    readonly output = '',
  ) {
    super(message);
    this.name = 'FlashError';
  }
}

export interface FlashOptions {
  /** A device path, or `auto` / absent: the Arduino found by USB id. */
  readonly port?: string;
  /** The firmware directory with its Makefile (default: the shipped one). */
  readonly firmwareDir?: string;
  /** Each step, and each line avrdude prints. */
  readonly onProgress?: (line: string) => void;
  /** The environment the tools run in (PATH finds `make` and `avrdude`); process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Lists serial ports (tests); SerialPort.list by default. */
  readonly list?: () => Promise<readonly PortInfoLike[]>;
}

export interface FlashResult {
  readonly port: string;
  readonly hex: string;
  /** Whether the .hex was built (make ran) for this flash. */
  readonly built: boolean;
  /** avrdude's whole output. */
  readonly output: string;
}

/** Whether the .hex must be (re)built: missing, or older than a source file or the Makefile. */
export function hexIsStale(dir: string, hex: string = firmwareHex(dir)): boolean {
  if (!existsSync(hex)) return true;
  const built = statSync(hex).mtimeMs;
  return readdirSync(dir)
    .filter((name) => /\.(cpp|h|ino)$/.test(name) || name === 'Makefile')
    .some((name) => statSync(join(dir, name)).mtimeMs > built);
}

/** Runs a tool, feeding each line of its output (stdout and stderr, `\r` or `\n` ended) to `onLine`. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void): Promise<{ code: number | null; output: string; missing: boolean }> {
  return new Promise((resolve) => {
    let output = '';
    let partial = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      const lines = (partial + text).split(/[\r\n]+/);
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') onLine(line.trimEnd());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err: NodeJS.ErrnoException) => resolve({ code: null, output: output + err.message, missing: err.code === 'ENOENT' }));
    child.on('close', (code) => {
      if (partial.trim() !== '') onLine(partial.trimEnd());
      resolve({ code, output, missing: false });
    });
  });
}

const tail = (output: string): string => output.split(/[\r\n]+/).filter((l) => l.trim() !== '').slice(-OUTPUT_LINES).join('\n');

/** avrdude's arguments that write `hex` to the Uno on `port` (and verify it, as avrdude does by default). */
export function avrdudeArgs(port: string, hex: string): string[] {
  // -D: the bootloader erases each page as it writes it (a chip erase is not what Optiboot does).
  return ['-p', UNO_AVRDUDE.part, '-c', UNO_AVRDUDE.programmer, '-P', port, '-b', String(UNO_AVRDUDE.baud), '-D', '-U', `flash:w:${hex}:i`];
}

/** Flashes the shipped firmware; rejects with a FlashError naming the step that failed. */
export async function flashFirmware(options: FlashOptions = {}): Promise<FlashResult> {
  const say = options.onProgress ?? (() => undefined);
  const env = options.env ?? process.env;
  const dir = options.firmwareDir ?? FIRMWARE_DIR;
  const hex = firmwareHex(dir);

  say(options.port && options.port !== 'auto' ? `Looking for the board on ${options.port}…` : 'Looking for the Arduino by its USB id…');
  let board: PortInfoLike;
  try {
    board = await findTowerPort({ path: options.port ?? 'auto', ...(options.list ? { list: options.list } : {}) });
  } catch (err) {
    throw new FlashError('flash/no_board', err instanceof Error ? err.message : String(err));
  }
  say(`Board: ${describePort(board)}`);

  const built = hexIsStale(dir, hex);
  if (built) {
    say(`Building the firmware (make -C ${dir})…`);
    const make = await run('make', ['-s', '-C', dir], env, () => undefined);
    if (make.missing) throw new FlashError('flash/build_failed', 'make is not installed, so the firmware cannot be built: run scripts/setup.sh --test (gcc-avr, avr-libc, arduino-core-avr, arduino-mk).');
    if (make.code !== 0 || !existsSync(hex)) {
      throw new FlashError('flash/build_failed', `Building the firmware failed (make exit ${make.code ?? 'none'}${existsSync(hex) ? '' : `, no ${hex}`}):\n${tail(make.output)}`, make.output);
    }
    say(`Built ${hex}`);
  } else {
    say(`Firmware image up to date: ${hex}`);
  }

  const args = avrdudeArgs(board.path, hex);
  say(`Flashing with avrdude ${args.join(' ')}`);
  const avrdude = await run('avrdude', args, env, say);
  if (avrdude.missing) throw new FlashError('flash/no_avrdude', 'avrdude is not installed: run scripts/setup.sh, or sudo apt-get install avrdude.');
  if (avrdude.code !== 0) {
    // The usual reasons, said plainly before avrdude's own words.
    const busy = /resource busy|permission denied|can't open device|cannot open port/i.test(avrdude.output)
      ? ' The port is busy or not yours: stop `dice-tower serve` (it holds the port) and check that you are in the dialout group.'
      : /not in sync|not responding|stk500_recv|stk500_getsync/i.test(avrdude.output)
        ? ' The board did not answer its bootloader: is it an Uno (ATmega328P), and the right port?'
        : '';
    throw new FlashError('flash/avrdude_failed', `avrdude could not flash the board on ${board.path} (exit ${avrdude.code ?? 'none'}).${busy}\n${tail(avrdude.output)}`, avrdude.output);
  }
  say(`Flashed ${hex} to ${board.path}; the board restarts with the dice-tower firmware.`);
  return { port: board.path, hex, built, output: avrdude.output };
}
