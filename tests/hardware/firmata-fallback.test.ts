/**
 * FirmataTower against scripted boards: stock StandardFirmata (the host times
 * the roll cycle itself, pin by pin), other firmware, a board that never
 * answers, and ports that are not there.
 */
import { SerialPort, SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { FirmataTower, type FirmataTowerOptions, type TowerTransport } from '../../src/hardware/firmata-tower.js';
import { serialTransport } from '../../src/hardware/serial-ports.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import type { TowerEvents } from '../../src/hardware/tower.js';
import { TowerError } from '../../src/hardware/types.js';
import { FakeFirmataBoard, MODE, type FakeBoardOptions } from './fake-firmata-board.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FAST = {
  holdMs: 120,
  returnTimeoutMs: 200,
  heartbeatMs: 200,
  answerTimeoutMs: 1000,
  readyTimeoutMs: 1000,
  reportVersionTimeoutMs: 100,
  reconnect: false,
} satisfies Partial<FirmataTowerOptions>;

function fakeBoard(options: FakeBoardOptions = {}): FakeFirmataBoard {
  const board = new FakeFirmataBoard(options);
  cleanups.push(() => board.dispose());
  return board;
}

function tower(openTransport: FirmataTowerOptions['openTransport'], options: Partial<FirmataTowerOptions> = {}): FirmataTower {
  const t = new FirmataTower({ ...FAST, ...options, openTransport });
  cleanups.push(() => t.close());
  return t;
}

async function connected(board: FakeFirmataBoard, options: Partial<FirmataTowerOptions> = {}): Promise<FirmataTower> {
  const t = tower(board.openTransport, options);
  await t.connect();
  return t;
}

function next<E extends keyof TowerEvents>(t: FirmataTower, event: E, timeoutMs = 2000): Promise<TowerEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event within ${timeoutMs} ms`)), timeoutMs);
    const off = t.on(event, (payload) => {
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<TowerError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TowerError);
  return error as TowerError;
}

const { TRAY_SERVO, TRAY_SENSOR, BUTTON, LIGHT } = TOWER_PINS;

describe('stock StandardFirmata: the host drives the pins', () => {
  it('connects in host-driven mode: attaches the servo at rest, reads the tray sensor and the button with pull-ups', async () => {
    const board = fakeBoard();
    const t = tower(board.openTransport);
    const connect = next(t, 'connect');
    await t.connect();
    expect(await connect).toEqual({ firmware: 'StandardFirmata.ino', mode: 'host-driven', path: '/dev/ttyFAKE0' });
    expect(board.events).toContainEqual(expect.objectContaining({ type: 'servoConfig', pin: TRAY_SERVO, min: 544, max: 2400 }));
    expect(board.servoWrites()).toEqual([{ value: 30, at: expect.any(Number) }]);
    expect(board.modes.get(TRAY_SENSOR)).toBe(MODE.PULLUP);
    expect(board.modes.get(BUTTON)).toBe(MODE.PULLUP);
    expect(board.events).toContainEqual(expect.objectContaining({ type: 'reportDigital', port: 0, on: true }));
  });

  it('rolls by writing the tip angle, holding, writing the rest angle and waiting for the tray sensor', async () => {
    const board = fakeBoard();
    const t = await connected(board, { tipAngle: 140, restAngle: 30 });
    const started = Date.now();
    await t.roll(2);
    const writes = board.servoWrites().slice(1);
    expect(writes.map((w) => w.value)).toEqual([140, 30]);
    expect(writes[1]!.at - writes[0]!.at).toBeGreaterThanOrEqual(110); // the hold (120 ms), from the host's clock
    expect(Date.now() - started).toBeGreaterThanOrEqual(120 + 30); // and the tray's return
    expect(board.tips).toBe(1);
    expect(board.inputs.get(TRAY_SENSOR)).toBe(0);
  });

  it('rejects with tower/jam when the tray does not come back, lets the servo go limp, and re-attaches it for the next roll', async () => {
    const board = fakeBoard();
    const t = await connected(board);
    board.tray.jammed = true;
    const fault = next(t, 'fault');
    expect((await failure(t.roll(1))).code).toBe('tower/jam');
    expect((await fault).code).toBe('tower/jam');
    expect(board.modes.get(TRAY_SERVO)).toBe(MODE.OUTPUT); // StandardFirmata detaches the servo

    board.tray.jammed = false;
    board.setInput(TRAY_SENSOR, 0); // the operator seats the tray
    await t.roll(1);
    expect(board.events.filter((e) => e.type === 'servoConfig')).toHaveLength(2);
  });

  it('rejects with tower/tray_stuck when the tray never leaves its seat', async () => {
    const board = fakeBoard();
    const t = await connected(board);
    board.tray.stuck = true;
    expect((await failure(t.roll(1))).code).toBe('tower/tray_stuck');
  });

  it('emits one button event per press, debounced on the host', async () => {
    const board = fakeBoard();
    const t = await connected(board, { buttonDebounceMs: 50 });
    const presses: number[] = [];
    t.on('button', (e) => presses.push(e.at));
    for (const level of [0, 1, 0, 1, 0] as const) board.setInput(BUTTON, level); // one bouncy press
    await new Promise((resolve) => setTimeout(resolve, 30));
    board.setInput(BUTTON, 1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    board.setInput(BUTTON, 0); // a second press
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(presses).toHaveLength(2);
  });

  it('sets the light with a PWM write on its pin', async () => {
    const board = fakeBoard();
    const t = await connected(board);
    await t.setLight(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(board.modes.get(LIGHT)).toBe(MODE.PWM);
    expect(board.events.filter((e) => e.type === 'analog' && e.pin === LIGHT).map((e) => (e.type === 'analog' ? e.value : -1))).toEqual([200]);
  });
});

describe('stock StandardFirmata: losing the board', () => {
  it('rejects a host-timed roll with tower/disconnected when the port closes, and reconnects', async () => {
    const board = fakeBoard();
    const t = await connected(board, { reconnect: { initialMs: 50, maxMs: 200 } });
    const disconnect = next(t, 'disconnect');
    const roll = t.roll(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    board.ports[0]!.close(); // the cable, mid-hold
    expect((await failure(roll)).code).toBe('tower/disconnected');
    expect((await disconnect).error.code).toBe('tower/disconnected');
    await next(t, 'connect');
    expect(board.ports).toHaveLength(2);
    board.setInput(TRAY_SENSOR, 0);
    await t.roll(1);
  });

  it('counts a board that stops answering the heartbeat as disconnected (tower/no_answer)', async () => {
    const board = fakeBoard();
    const t = await connected(board, { heartbeatMs: 50, answerTimeoutMs: 200 });
    const disconnect = next(t, 'disconnect');
    board.muted = true;
    const { error } = await disconnect;
    expect(error.code).toBe('tower/no_answer');
    expect(t.connected).toBe(false);
    expect(board.ports[0]!.isOpen).toBe(false);
  });
});

describe('clear errors', () => {
  it('tower/wrong_firmware for other firmware without a servo on the tray pin, naming it', async () => {
    const board = fakeBoard({ firmwareName: 'ConfigurableFirmata', servoPins: [] });
    const error = await failure(tower(board.openTransport).connect());
    expect(error.code).toBe('tower/wrong_firmware');
    expect(error.message).toMatch(/ConfigurableFirmata/);
    expect(error.message).toMatch(/servo on pin 9/);
  });

  it('tower/wrong_firmware for a DiceTower firmware of another major version', async () => {
    const board = fakeBoard({ firmwareName: 'DiceTower', firmwareVersion: [2, 0] });
    const error = await failure(tower(board.openTransport).connect());
    expect(error.code).toBe('tower/wrong_firmware');
    expect(error.message).toMatch(/DiceTower 2\.0/);
  });

  it('tower/no_answer for a board that never answers, after asking it once more', async () => {
    const board = fakeBoard({ silent: true });
    let port: TowerTransport | null = null;
    const t = tower(() => (port = board.openTransport()), { readyTimeoutMs: 400 });
    const started = Date.now();
    const error = await failure(t.connect());
    expect(error.code).toBe('tower/no_answer');
    expect(error.message).toMatch(/did not answer within 400 ms: nothing came back/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(board.received.slice(0, 4)).toEqual([0xf9, 0xf0, 0x79, 0xf7]); // REPORT_VERSION and QUERY_FIRMWARE after 100 ms
    expect(port!.isOpen).toBe(false); // closed again
  });

  it('tower/no_answer for a silent board on a serialport stream (SerialPortMock)', async () => {
    // SerialPortMock's own MockBinding (importing @serialport/binding-mock here would load a second copy).
    const mock = SerialPortMock.binding;
    mock.createPort('/dev/ttyACM7', { vendorId: '2341', productId: '0043', record: true });
    cleanups.push(() => mock.reset());
    const open = serialTransport({
      list: () => mock.list(),
      createPort: (path, baudRate) => new SerialPortMock({ path, baudRate, autoOpen: false }),
    });
    const error = await failure(tower(open, { readyTimeoutMs: 300 }).connect());
    expect(error.code).toBe('tower/no_answer');
    expect(error.message).toMatch(/\/dev\/ttyACM7/);
  });

  it('tower/port_not_found for a path that does not exist, naming the ports found', async () => {
    const open = serialTransport({ path: '/dev/ttyDOES_NOT_EXIST', list: async () => [{ path: '/dev/ttyS0' }] });
    const error = await failure(tower(open).connect());
    expect(error.code).toBe('tower/port_not_found');
    expect(error.message).toMatch(/\/dev\/ttyDOES_NOT_EXIST.*\/dev\/ttyS0/);
  });

  it('tower/port_not_found when the real SerialPort cannot open the path', async () => {
    const open = serialTransport({ path: '/dev/ttyDOES_NOT_EXIST', list: async () => [], exists: () => true });
    const error = await failure(tower(open).connect());
    expect(error.code).toBe('tower/port_not_found');
    expect(error.message).toMatch(/\/dev\/ttyDOES_NOT_EXIST/);
  });

  it('tower/disconnected from roll() and setLight() before any connection', async () => {
    const t = tower(fakeBoard().openTransport);
    expect((await failure(t.roll(1))).code).toBe('tower/disconnected');
    expect((await failure(t.setLight(10))).code).toBe('tower/disconnected');
  });

  it('refuses options that would let the board give up on a running cycle', () => {
    expect(() => new FirmataTower({ openTransport: () => new SerialPort({ path: '/x', baudRate: 57600, autoOpen: false }), holdMs: 4000 })).toThrow(
      /silentTimeoutMs/,
    );
  });
});
