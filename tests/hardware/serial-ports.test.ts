/**
 * Port discovery: the Arduino picked by USB id from a `SerialPort.list()`-like
 * list, or a configured path, and errors that say what was found.
 */
import { describe, expect, it } from 'vitest';
import { describePort, findTowerPort, matchUsbId, serialTransport, type PortInfoLike } from '../../src/hardware/serial-ports.js';
import { TowerError } from '../../src/hardware/types.js';

const port = (path: string, vendorId?: string, productId?: string, manufacturer?: string): PortInfoLike => ({
  path, vendorId, productId, manufacturer, serialNumber: undefined,
});

/** What `SerialPort.list()` gives on a Linux machine with a clone, an FTDI adapter and a genuine Uno. */
const MIXED = [
  port('/dev/ttyS0'),
  port('/dev/ttyUSB1', '0403', '6001', 'FTDI'),
  port('/dev/ttyUSB0', '1a86', '7523', '1a86'),
  port('/dev/ttyACM0', '2341', '0043', 'Arduino (www.arduino.cc)'),
];
const list = (ports: readonly PortInfoLike[]) => async () => ports;

async function failure(promise: Promise<unknown>): Promise<TowerError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TowerError);
  return error as TowerError;
}

describe('findTowerPort', () => {
  it('picks a genuine Arduino first, then a CH340 clone, then an FTDI adapter', async () => {
    expect((await findTowerPort({ list: list(MIXED) })).path).toBe('/dev/ttyACM0');
    expect((await findTowerPort({ list: list(MIXED.slice(0, 3)) })).path).toBe('/dev/ttyUSB0');
    expect((await findTowerPort({ list: list(MIXED.slice(0, 2)) })).path).toBe('/dev/ttyUSB1');
  });

  it('reads ids in any case and with 0x (as Windows and macOS list them), and any Arduino product', async () => {
    expect(matchUsbId(port('COM3', '0x2A03', '0x0043'))?.name).toMatch(/Arduino/);
    expect(matchUsbId(port('/dev/cu.usbmodem1', '2341', '8036'))?.name).toBe('Arduino'); // a Leonardo
    expect(matchUsbId(port('/dev/ttyUSB2', '1A86', '7523'))?.name).toMatch(/CH340/);
    expect(matchUsbId(port('/dev/ttyUSB3', '1a86', '5523'))).toBeUndefined(); // another WCH chip
    expect(matchUsbId(port('/dev/ttyUSB4', '0403', '6015'))).toBeUndefined(); // another FTDI chip
  });

  it('takes the first path in order when two boards of the same kind are plugged in', async () => {
    const two = [port('/dev/ttyACM1', '2341', '0043'), port('/dev/ttyACM0', '2341', '0043')];
    expect((await findTowerPort({ list: list(two) })).path).toBe('/dev/ttyACM0');
  });

  it('fails with tower/port_not_found naming every port and its ids when no Arduino is there', async () => {
    const error = await failure(findTowerPort({ list: list([port('/dev/ttyS0'), port('/dev/ttyUSB0', '067b', '2303', 'Prolific')]) }));
    expect(error.code).toBe('tower/port_not_found');
    expect(error.message).toContain('/dev/ttyS0 (no USB id)');
    expect(error.message).toContain('/dev/ttyUSB0 (067b:2303 Prolific)');
    expect(error.message).toContain('2341 Arduino');
    expect((await failure(findTowerPort({ list: list([]) }))).message).toMatch(/No serial ports were found at all/);
  });

  it('uses a configured path when listed, or when it exists unlisted (a /dev/serial/by-id link)', async () => {
    expect(await findTowerPort({ path: '/dev/ttyUSB1', list: list(MIXED) })).toEqual(MIXED[1]);
    const byId = '/dev/serial/by-id/usb-Arduino_Uno-if00';
    expect(await findTowerPort({ path: byId, list: list(MIXED), exists: (p) => p === byId })).toEqual({ path: byId });
  });

  it('fails with tower/port_not_found for a configured path that is not there, listing what is', async () => {
    const error = await failure(findTowerPort({ path: '/dev/ttyACM9', list: list(MIXED), exists: () => false }));
    expect(error.code).toBe('tower/port_not_found');
    expect(error.message).toMatch(/^There is no serial port \/dev\/ttyACM9\. Ports found: /);
    expect(error.message).toContain(describePort(MIXED[3]!));
  });

  it('treats "auto" like no path', async () => {
    expect((await findTowerPort({ path: 'auto', list: list(MIXED) })).path).toBe('/dev/ttyACM0');
  });
});

describe('serialTransport', () => {
  it('discovers the port again at every call and makes an unopened port for it', async () => {
    let ports: PortInfoLike[] = [port('/dev/ttyACM0', '2341', '0043')];
    const made: [string, number][] = [];
    const open = serialTransport({
      list: async () => ports,
      createPort: (path, baudRate) => {
        made.push([path, baudRate]);
        return { path, isOpen: false } as never;
      },
    });
    await open();
    ports = [port('/dev/ttyACM1', '2341', '0043')]; // plugged back in under another name
    await open();
    expect(made).toEqual([
      ['/dev/ttyACM0', 57_600],
      ['/dev/ttyACM1', 57_600],
    ]);
  });
});
