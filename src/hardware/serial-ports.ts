/**
 * Finding the tower's serial port: a configured path, or the Arduino picked by
 * its USB vendor and product id from `SerialPort.list()`. Discovery runs again
 * at every reconnection, since a board put back may come back under another
 * name (/dev/ttyACM0 → /dev/ttyACM1).
 */
import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { TOWER_ERROR, towerError } from './tower.js';
import type { TowerTransport } from './firmata-tower.js';

/** A USB id that marks a likely Arduino; without `productId`, any product of the vendor. */
export interface UsbId {
  readonly vendorId: number;
  readonly productId?: number;
  readonly name: string;
}

/** In order of preference: genuine boards first, then the USB-serial chips of clones. */
export const ARDUINO_USB_IDS: readonly UsbId[] = [
  { vendorId: 0x2341, name: 'Arduino' },
  { vendorId: 0x2a03, name: 'Arduino (arduino.org)' },
  { vendorId: 0x1a86, productId: 0x7523, name: 'CH340 USB-serial (Uno clones)' },
  { vendorId: 0x0403, productId: 0x6001, name: 'FTDI FT232R USB-serial' },
];

/** What `SerialPort.list()` gives for a port (ids are hex strings, case and `0x` vary by platform). */
export interface PortInfoLike {
  readonly path: string;
  readonly manufacturer?: string | undefined;
  readonly vendorId?: string | undefined;
  readonly productId?: string | undefined;
  readonly serialNumber?: string | undefined;
}

export interface FindPortOptions {
  /** A device path, or `auto` (the default) to pick the Arduino by USB id. */
  readonly path?: string;
  /** The ids to look for; `ARDUINO_USB_IDS` by default. */
  readonly usbIds?: readonly UsbId[];
  /** Lists the ports; `SerialPort.list` by default. */
  readonly list?: () => Promise<readonly PortInfoLike[]>;
  /** Whether a path exists when the list does not show it (symlinks such as /dev/serial/by-id/…); `fs.existsSync` by default. */
  readonly exists?: (path: string) => boolean;
}

function hexId(value: string | undefined): number | null {
  if (!value) return null;
  const n = Number.parseInt(value.replace(/^0x/i, ''), 16);
  return Number.isFinite(n) ? n : null;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** The entry of `usbIds` a port matches, if any. */
export function matchUsbId(port: PortInfoLike, usbIds: readonly UsbId[] = ARDUINO_USB_IDS): UsbId | undefined {
  const vendor = hexId(port.vendorId);
  const product = hexId(port.productId);
  return usbIds.find((id) => id.vendorId === vendor && (id.productId === undefined || id.productId === product));
}

/** One port for an error message: `/dev/ttyACM0 (2341:0043 Arduino LLC)`. */
export function describePort(port: PortInfoLike): string {
  const vendor = hexId(port.vendorId);
  const product = hexId(port.productId);
  const ids = vendor === null ? 'no USB id' : `${hex4(vendor)}:${product === null ? '????' : hex4(product)}`;
  return `${port.path} (${[ids, port.manufacturer].filter(Boolean).join(' ')})`;
}

function foundList(ports: readonly PortInfoLike[]): string {
  return ports.length ? `Ports found: ${ports.map(describePort).join(', ')}.` : 'No serial ports were found at all.';
}

/**
 * The port to open. With a path: that path, when the list shows it or it
 * exists. With `auto`: the first port whose USB id is in `usbIds` (in their
 * order of preference, then by path). Rejects with `tower/port_not_found`,
 * naming every port found, when nothing matches.
 */
export async function findTowerPort(options: FindPortOptions = {}): Promise<PortInfoLike> {
  const list = options.list ?? (() => SerialPort.list());
  const usbIds = options.usbIds ?? ARDUINO_USB_IDS;
  const wanted = options.path && options.path !== 'auto' ? options.path : null;
  const ports = await list();
  if (wanted) {
    const listed = ports.find((p) => p.path === wanted);
    if (listed) return listed;
    if ((options.exists ?? existsSync)(wanted)) return { path: wanted };
    throw towerError(TOWER_ERROR.PORT_NOT_FOUND, `There is no serial port ${wanted}. ${foundList(ports)}`);
  }
  const rank = (p: PortInfoLike) => usbIds.indexOf(matchUsbId(p, usbIds)!);
  const candidates = ports
    .filter((p) => matchUsbId(p, usbIds))
    .sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  const chosen = candidates[0];
  if (!chosen) {
    const known = usbIds.map((id) => `${hex4(id.vendorId)}${id.productId === undefined ? '' : `:${hex4(id.productId)}`} ${id.name}`);
    throw towerError(
      TOWER_ERROR.PORT_NOT_FOUND,
      `No Arduino found among the serial ports (looked for USB ids ${known.join(', ')}). ${foundList(ports)} ` +
        'Plug the tower in, or give its port path.',
    );
  }
  return chosen;
}

export interface SerialTransportOptions extends FindPortOptions {
  /** 57 600 by default, as the firmware and StandardFirmata use. */
  readonly baudRate?: number;
  /** Makes the port object; a `SerialPort` (not yet open) by default. Tests pass `SerialPortMock` here. */
  readonly createPort?: (path: string, baudRate: number) => TowerTransport;
}

/**
 * The `openTransport` for `FirmataTower` in production: finds the port (again
 * at every call) and returns it unopened, so that the driver is listening
 * before the board's first bytes arrive.
 */
export function serialTransport(options: SerialTransportOptions = {}): () => Promise<TowerTransport> {
  const baudRate = options.baudRate ?? 57_600;
  const create = options.createPort ?? ((path: string, rate: number) => new SerialPort({ path, baudRate: rate, autoOpen: false }));
  return async () => {
    const port = await findTowerPort(options);
    return create(port.path, baudRate);
  };
}
