/**
 * What the setup page lists: the video devices (/dev/video* with the names
 * their drivers give in sysfs) and the serial ports (USB id, whether it looks
 * like an Arduino). Missing folders mean none found, never an error: a host
 * without a camera or a board is a normal first start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PortInfoLike } from '../hardware/serial-ports.js';
import { note, type Note } from '../note.js';

export interface CameraDevice {
  readonly path: string;
  /** The index `--camera N` takes. */
  readonly index: number;
  /** The driver's name (sysfs), or null when it gives none. */
  readonly name: string | null;
}

export interface SerialPortInfo {
  readonly path: string;
  /** `2341:0043`, or null for a port without a USB id. */
  readonly usbId: string | null;
  readonly manufacturer: string | null;
  /** The kind of Arduino (or USB-serial chip of a clone) its USB id says, or null. */
  readonly arduino: string | null;
  /** One line for a person: `/dev/ttyACM0 (2341:0043 Arduino LLC)`. */
  readonly description: string;
}

const entries = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** The video devices, by number: names from `sysDir` (/sys/class/video4linux), paths under `devDir`. */
export function listCameras(sysDir = '/sys/class/video4linux', devDir = '/dev'): CameraDevice[] {
  const names = new Set([...entries(sysDir), ...entries(devDir)].filter((n) => /^video\d+$/.test(n)));
  return [...names]
    .map((n) => {
      let name: string | null = null;
      try {
        name = readFileSync(join(sysDir, n, 'name'), 'utf8').trim() || null;
      } catch {
        name = null;
      }
      return { path: join(devDir, n), index: Number(n.slice(5)), name };
    })
    .sort((a, b) => a.index - b.index);
}

const hex4 = (value: string | undefined) => (value ? value.replace(/^0x/i, '').toLowerCase().padStart(4, '0') : null);

/** The serial ports as the setup page shows them; `list` is SerialPort.list by default (loaded on use: a native module). */
export async function listSerialPorts(list?: () => Promise<readonly PortInfoLike[]>): Promise<SerialPortInfo[]> {
  const { describePort, matchUsbId } = await import('../hardware/serial-ports.js');
  const ports = await (list ?? (async () => (await import('serialport')).SerialPort.list()))();
  return ports.map((p) => {
    const vendor = hex4(p.vendorId);
    return {
      path: p.path,
      usbId: vendor ? `${vendor}:${hex4(p.productId) ?? '????'}` : null,
      manufacturer: p.manufacturer ?? null,
      arduino: matchUsbId(p)?.name ?? null,
      description: describePort(p),
    };
  });
}

/** What the page says of the firmware a board reported. */
export function firmwareNote(firmware: string | null): Note {
  if (firmware === null) return note('firmware/none', 'No board connected.');
  if (firmware === 'DiceTower') return note('firmware/dice_tower', 'The dice-tower firmware: the board times the roll and keeps the tray safe on its own.');
  if (/standardfirmata/i.test(firmware)) {
    return note('firmware/standard_firmata', 'Stock StandardFirmata: it works, with fewer safety features (the host times the roll; no jam check on the board). Flash the dice-tower firmware for those.');
  }
  return note('firmware/unknown', `An unknown firmware ("${firmware}"): flash the dice-tower firmware (dice-tower flash).`, { firmware });
}
