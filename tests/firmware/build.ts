/**
 * Builds the firmware with `make -C firmware` (Debian's Arduino.mk) for the
 * emulator tests. Parallel test files share one build: `flock` serialises the
 * make runs, and make itself does nothing when the .hex is up to date.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware/', import.meta.url));
export const HEX_PATH = join(FIRMWARE_DIR, 'build-uno', 'dice-tower.hex');
const ARDUINO_MK = '/usr/share/arduino/Arduino.mk';
const INSTALL_HINT =
  'install the AVR toolchain: `apt-get install -y gcc-avr avr-libc arduino-core-avr arduino-mk` (or `npm run setup`)';

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs make and returns the path of the .hex. Throws with a clear message when the toolchain is missing or the build fails. */
export function buildFirmware(): string {
  if (!onPath('avr-gcc')) throw new Error(`avr-gcc is not installed, so the firmware cannot be built: ${INSTALL_HINT}`);
  if (!existsSync(ARDUINO_MK)) throw new Error(`${ARDUINO_MK} is missing: ${INSTALL_HINT}`);
  const make = ['make', '-s', '-j4', '-C', FIRMWARE_DIR];
  const command = onPath('flock') ? ['flock', join(tmpdir(), 'dice-tower-firmware.lock'), ...make] : make;
  try {
    execFileSync(command[0]!, command.slice(1), { stdio: 'pipe', maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    throw new Error(`make -C firmware failed:\n${stderr.split('\n').slice(-40).join('\n')}`);
  }
  if (!existsSync(HEX_PATH)) throw new Error(`make -C firmware succeeded but ${HEX_PATH} is missing`);
  return HEX_PATH;
}
