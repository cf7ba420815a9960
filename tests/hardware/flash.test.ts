/**
 * `dice-tower flash` up to avrdude's invocation: a fake `avrdude` (and a fake
 * `make`) first on the PATH record their arguments and print what the real
 * ones print; the board is a listed port. Checked: the arguments, the
 * progress lines, the build when the image is missing or stale, and the
 * messages of each failure with avrdude's output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { avrdudeArgs, flashFirmware, FlashError, hexIsStale } from '../../src/hardware/flash.js';
import { main } from '../../src/cli.js';
import { buildApp } from '../../src/api/app.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { NO_SETUP_HARDWARE, type SetupHardware } from '../../src/api/setup-routes.js';

let root = '';
let bin = '';
const UNO = { path: '/dev/ttyACM7', vendorId: '2341', productId: '0043', manufacturer: 'Arduino LLC' };
const list = async () => [UNO];

/** A fake tool: records its arguments in $FAKE_LOG, prints $FAKE_<NAME>_SAY (stderr), exits $FAKE_<NAME>_EXIT. */
function fakeTool(name: string, extra = ''): void {
  const upper = name.toUpperCase();
  writeFileSync(
    join(bin, name),
    `#!/bin/sh\necho "${name} $*" >> "$FAKE_LOG"\n${extra}\nprintf '%b' "\${FAKE_${upper}_SAY:-}" >&2\nexit \${FAKE_${upper}_EXIT:-0}\n`,
  );
  chmodSync(join(bin, name), 0o755);
}

/** A firmware folder: a Makefile and a source, with or without a built image. */
function firmwareDir(withHex: boolean): string {
  const dir = mkdtempSync(join(root, 'fw-'));
  writeFileSync(join(dir, 'Makefile'), 'all:\n');
  writeFileSync(join(dir, 'tower.ino'), '// tower\n');
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'Makefile'), past, past);
  utimesSync(join(dir, 'tower.ino'), past, past);
  if (withHex) {
    mkdirSync(join(dir, 'build-uno'));
    writeFileSync(join(dir, 'build-uno', 'dice-tower.hex'), ':00000001FF\n');
  }
  return dir;
}

const envWith = (log: string, vars: Record<string, string> = {}) => ({ ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, FAKE_LOG: log, ...vars });
const AVRDUDE_OK = 'avrdude: AVR device initialized and ready to accept instructions\\nReading | ################################################## | 100% 0.01s\\navrdude: Device signature = 0x1e950f (probably m328p)\\navrdude: writing flash (9876 bytes):\\nWriting | ################################################## | 100% 1.52s\\navrdude: 9876 bytes of flash verified\\n\\navrdude done.  Thank you.\\n';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dice-tower-flash-'));
  bin = join(root, 'bin');
  mkdirSync(bin);
  fakeTool('avrdude');
  // The fake make builds the image where Arduino.mk would: $3 is the folder of `make -s -C DIR`.
  fakeTool('make', '[ "${FAKE_MAKE_EXIT:-0}" = 0 ] && mkdir -p "$3/build-uno" && echo ":00000001FF" > "$3/build-uno/dice-tower.hex"');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('flashing the firmware', () => {
  it('writes the image with avrdude to the Uno found by USB id, saying each step and avrdude\'s lines', async () => {
    const dir = firmwareDir(true);
    const log = join(root, 'ok.log');
    const lines: string[] = [];
    const result = await flashFirmware({ firmwareDir: dir, list, env: envWith(log, { FAKE_AVRDUDE_SAY: AVRDUDE_OK }), onProgress: (l) => lines.push(l) });
    const hex = join(dir, 'build-uno', 'dice-tower.hex');
    expect(result).toMatchObject({ port: '/dev/ttyACM7', hex, built: false });
    expect(readFileSync(log, 'utf8')).toBe(`avrdude -p atmega328p -c arduino -P /dev/ttyACM7 -b 115200 -D -U flash:w:${hex}:i\n`);
    expect(lines[0]).toBe('Looking for the Arduino by its USB id…');
    expect(lines).toContain('Board: /dev/ttyACM7 (2341:0043 Arduino LLC)');
    expect(lines).toContain(`Firmware image up to date: ${hex}`);
    expect(lines).toContain('avrdude: Device signature = 0x1e950f (probably m328p)');
    expect(lines).toContain('avrdude: 9876 bytes of flash verified');
    expect(lines.at(-1)).toBe(`Flashed ${hex} to /dev/ttyACM7; the board restarts with the dice-tower firmware.`);
  });

  it('builds the image with make first when it is missing or older than its sources', async () => {
    const dir = firmwareDir(false);
    const log = join(root, 'build.log');
    expect(hexIsStale(dir)).toBe(true);
    const lines: string[] = [];
    const result = await flashFirmware({ firmwareDir: dir, port: '/dev/ttyACM7', list, env: envWith(log), onProgress: (l) => lines.push(l) });
    expect(result.built).toBe(true);
    expect(readFileSync(log, 'utf8').split('\n')[0]).toBe(`make -s -C ${dir}`);
    expect(lines).toContain(`Building the firmware (make -C ${dir})…`);
    expect(hexIsStale(dir)).toBe(false);
    // A source changed after the build: stale again.
    writeFileSync(join(dir, 'tower.ino'), '// changed\n');
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'tower.ino'), future, future);
    expect(hexIsStale(dir)).toBe(true);
  });

  it('fails with avrdude\'s output and the likely reason when avrdude fails', async () => {
    const dir = firmwareDir(true);
    const say = 'avrdude: stk500_recv(): programmer is not responding\\navrdude: stk500_getsync() attempt 10 of 10: not in sync: resp=0x00\\n';
    const flash = flashFirmware({ firmwareDir: dir, list, env: envWith(join(root, 'fail.log'), { FAKE_AVRDUDE_SAY: say, FAKE_AVRDUDE_EXIT: '1' }) });
    await expect(flash).rejects.toBeInstanceOf(FlashError);
    await expect(flash).rejects.toMatchObject({
      code: 'flash/avrdude_failed',
      message: expect.stringMatching(/^avrdude could not flash the board on \/dev\/ttyACM7 \(exit 1\)\. The board did not answer its bootloader: is it an Uno \(ATmega328P\), and the right port\?\navrdude: stk500_recv\(\): programmer is not responding\navrdude: stk500_getsync\(\) attempt 10 of 10: not in sync: resp=0x00$/),
    });
    const busy = flashFirmware({ firmwareDir: dir, list, env: envWith(join(root, 'busy.log'), { FAKE_AVRDUDE_SAY: 'avrdude: ser_open(): can\'t open device "/dev/ttyACM7": Device or resource busy\\n', FAKE_AVRDUDE_EXIT: '1' }) });
    await expect(busy).rejects.toThrow(/stop `dice-tower serve` \(it holds the port\)/);
  });

  it('says what is missing: no board, no avrdude, a failed build', async () => {
    const dir = firmwareDir(true);
    await expect(flashFirmware({ firmwareDir: dir, list: async () => [{ path: '/dev/ttyS0' }], env: envWith(join(root, 'x.log')) })).rejects.toMatchObject({
      code: 'flash/no_board',
      message: expect.stringContaining('No Arduino found among the serial ports'),
    });
    const noTools = { ...process.env, PATH: join(root, 'empty') };
    await expect(flashFirmware({ firmwareDir: dir, list, env: noTools })).rejects.toMatchObject({ code: 'flash/no_avrdude', message: 'avrdude is not installed: run scripts/setup.sh, or sudo apt-get install avrdude.' });
    const unbuilt = firmwareDir(false);
    await expect(flashFirmware({ firmwareDir: unbuilt, list, env: envWith(join(root, 'mk.log'), { FAKE_MAKE_SAY: 'tower.cpp:12: error: expected ;\\n', FAKE_MAKE_EXIT: '2' }) })).rejects.toMatchObject({
      code: 'flash/build_failed',
      message: expect.stringContaining('Building the firmware failed (make exit 2, no '),
    });
    expect(existsSync(join(unbuilt, 'build-uno'))).toBe(false);
  });

  it('passes the port through to avrdude as given', () => {
    expect(avrdudeArgs('/dev/serial/by-id/usb-Arduino', '/x.hex')).toEqual(['-p', 'atmega328p', '-c', 'arduino', '-P', '/dev/serial/by-id/usb-Arduino', '-b', '115200', '-D', '-U', 'flash:w:/x.hex:i']);
  });

  it('runs as `dice-tower flash --port P`, printing progress, and exits 1 naming the problem', async () => {
    const dir = firmwareDir(true);
    const port = join(root, 'ttyFAKE0');
    writeFileSync(port, '');
    const log = join(root, 'cli.log');
    const saved = { PATH: process.env.PATH, FAKE_LOG: process.env.FAKE_LOG };
    const out: string[] = [];
    const stdout = process.stdout.write.bind(process.stdout);
    const stderr = process.stderr.write.bind(process.stderr);
    process.env.PATH = `${bin}:${saved.PATH ?? ''}`;
    process.env.FAKE_LOG = log;
    process.stdout.write = ((t: string) => out.push(t) > 0) as typeof process.stdout.write;
    process.stderr.write = ((t: string) => out.push(t) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['flash', '--port', port, '--firmware', dir])).toBe(0);
      expect(readFileSync(log, 'utf8')).toContain(`-P ${port} -b 115200`);
      expect(out.join('')).toContain(`Looking for the board on ${port}…\n`);
      process.env.FAKE_AVRDUDE_EXIT = '1';
      process.env.FAKE_AVRDUDE_SAY = 'avrdude: something broke\\n';
      out.length = 0;
      expect(await main(['flash', '--port', port, '--firmware', dir])).toBe(1);
      expect(out.join('')).toMatch(/dice-tower: avrdude could not flash the board on .*ttyFAKE0 \(exit 1\)\.\navrdude: something broke\n/);
      out.length = 0;
      expect(await main(['flash', '--port', '/dev/no-such-tty'])).toBe(1);
      expect(out.join('')).toContain('dice-tower: There is no serial port /dev/no-such-tty.');
    } finally {
      process.stdout.write = stdout;
      process.stderr.write = stderr;
      process.env.PATH = saved.PATH;
      if (saved.FAKE_LOG === undefined) delete process.env.FAKE_LOG;
      delete process.env.FAKE_AVRDUDE_EXIT;
      delete process.env.FAKE_AVRDUDE_SAY;
    }
  });
});

describe('flashing from the setup page (POST /api/setup/flash)', () => {
  const appWith = (hardware: Partial<SetupHardware>, env: NodeJS.ProcessEnv, dir: string) => {
    const sim = createSimulator({ seed: 1, colours: ['white'], rollMs: 0 });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
    return buildApp({
      table, version: 'test',
      setupHardware: {
        ...NO_SETUP_HARDWARE, cameraSource: 'sim',
        flash: (port, onProgress) => flashFirmware({ port, onProgress, env, firmwareDir: dir, list }),
        ...hardware,
      },
    });
  };
  const until = async (app: ReturnType<typeof buildApp>) => {
    for (let i = 0; i < 200; i++) {
      const status = (await app.inject('/api/setup/flash')).json() as { state: string };
      if (status.state !== 'running') return status as { state: string; lines: string[]; error: string | null; code: string | null };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the flash did not end');
  };

  it('runs the flash in the background; the page polls its progress and outcome', async () => {
    const dir = firmwareDir(true);
    const log = join(root, 'route.log');
    const app = appWith({}, envWith(log, { FAKE_AVRDUDE_SAY: AVRDUDE_OK }), dir);
    expect((await app.inject('/api/setup/flash')).json()).toMatchObject({ state: 'idle', lines: [] });
    const started = await app.inject({ method: 'POST', url: '/api/setup/flash', payload: { port: '/dev/ttyACM7' } });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ state: 'running', port: '/dev/ttyACM7' });
    const again = await app.inject({ method: 'POST', url: '/api/setup/flash', payload: {} });
    expect(again.json()).toMatchObject({ code: 'setup/flash_running' });
    const done = await until(app);
    expect(done).toMatchObject({ state: 'done', error: null });
    expect(done.lines).toContain('avrdude: 9876 bytes of flash verified');
    expect(readFileSync(log, 'utf8')).toContain('-P /dev/ttyACM7');
    await app.close();
  });

  it('shows a failure with avrdude\'s output, and refuses while the server holds the board\'s port', async () => {
    const dir = firmwareDir(true);
    const app = appWith({}, envWith(join(root, 'route-fail.log'), { FAKE_AVRDUDE_SAY: 'avrdude: ser_open(): can\'t open device\\n', FAKE_AVRDUDE_EXIT: '1' }), dir);
    await app.inject({ method: 'POST', url: '/api/setup/flash', payload: {} });
    const failed = await until(app);
    expect(failed).toMatchObject({ state: 'failed', code: 'flash/avrdude_failed', error: expect.stringContaining("avrdude: ser_open(): can't open device") });
    await app.close();
    const busy = appWith({ link: { serial: () => 'auto', boardSetup: () => null, connect: async () => {}, disconnect: async () => {} } }, envWith(join(root, 'unused.log')), dir);
    const refused = await busy.inject({ method: 'POST', url: '/api/setup/flash', payload: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'setup/board_in_use', message: expect.stringContaining('holds its port') });
    expect((await busy.inject({ method: 'POST', url: '/api/setup/flash', payload: { port: '/etc/passwd' } })).statusCode).toBe(400);
    await busy.close();
  });
});
