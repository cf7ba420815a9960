/**
 * FirmataTower against the real firmware running in avr8js: johnny-five over
 * firmata-io on an emulated serial port. Timings are short (through the
 * options) because every emulated second is a real one here.
 */
import five from 'johnny-five';
import firmataIo from 'firmata-io';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FirmataTower, type FirmataTowerOptions } from '../../src/hardware/firmata-tower.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import type { TowerEvents } from '../../src/hardware/tower.js';
import { TowerError } from '../../src/hardware/types.js';
import { buildFirmware } from '../firmware/build.js';
import { EmulatedTower } from './emulated-tower.js';

let hex = '';
beforeAll(() => {
  hex = buildFirmware();
}, 120_000);

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FAST = {
  tipAngle: 150,
  restAngle: 30,
  holdMs: 150,
  returnTimeoutMs: 300,
  heartbeatMs: 200,
  answerTimeoutMs: 1000,
  answerMarginMs: 400,
  readyTimeoutMs: 3000,
  reportVersionTimeoutMs: 300,
  reconnect: { initialMs: 100, maxMs: 400 },
} satisfies Partial<FirmataTowerOptions>;

function emulated(options: { resetOnOpen?: boolean } = {}): EmulatedTower {
  const board = new EmulatedTower(hex, options);
  cleanups.push(() => board.dispose());
  return board;
}

async function connected(board: EmulatedTower, options: Partial<FirmataTowerOptions> = {}): Promise<FirmataTower> {
  const tower = new FirmataTower({ ...FAST, ...options, openTransport: board.openTransport });
  cleanups.push(() => tower.close());
  await tower.connect();
  return tower;
}

/** The next `event` from the tower, or a timeout. */
function next<E extends keyof TowerEvents>(tower: FirmataTower, event: E, timeoutMs = 3000): Promise<TowerEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event within ${timeoutMs} ms`)), timeoutMs);
    const off = tower.on(event, (payload) => {
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const rejection = async (promise: Promise<unknown>): Promise<TowerError> => {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TowerError);
  return error as TowerError;
};

describe('johnny-five on the emulated firmware', () => {
  it("becomes ready (johnny-five's ready) and sees the tower's name and pins", async () => {
    const board = emulated();
    const port = board.openTransport();
    const io = new firmataIo.Firmata(port, { reportVersionTimeout: 300 });
    const j5 = new five.Board({ io, repl: false, debug: false, sigint: false, timeout: 5000 });
    const ready = new Promise<void>((resolve) => j5.once('ready', () => resolve()));
    port.open();
    cleanups.push(() => port.close());
    await ready;
    expect(j5.isReady).toBe(true);
    expect(io.firmware.name).toBe('DiceTower');
    expect(io.pins[TOWER_PINS.TRAY_SERVO]!.supportedModes).toEqual([io.MODES.SERVO]);
    expect(io.pins[TOWER_PINS.LIGHT]!.supportedModes).toEqual([io.MODES.PWM]);
  });
});

describe('FirmataTower with the tower firmware', () => {
  it('connects in tower-sysex mode and emits connect', async () => {
    const board = emulated();
    const tower = new FirmataTower({ ...FAST, openTransport: board.openTransport });
    cleanups.push(() => tower.close());
    const connect = next(tower, 'connect');
    await tower.connect();
    expect(await connect).toEqual({ firmware: 'DiceTower', mode: 'tower-sysex', path: '/dev/ttyEMU0' });
    expect(tower.connected).toBe(true);
    // It configured the silent-host safety and asked for the status.
    expect(board.commands.slice(0, 2)).toEqual([
      { type: 'configure', silentTimeoutMs: 5000, dimLevel: 16 },
      { type: 'queryStatus' },
    ]);
  });

  it('resolves roll() once the tray is back in place, after a cycle the board timed', async () => {
    const board = emulated();
    const tower = await connected(board);
    const started = Date.now();
    await tower.roll(3);
    const tookMs = Date.now() - started;
    expect(board.tips).toBe(1);
    expect(board.rolls()).toEqual([{ type: 'roll', cycleId: 1, tipAngle: 150, restAngle: 30, holdMs: 150, returnTimeoutMs: 300 }]);
    expect(tookMs).toBeGreaterThanOrEqual(150); // at least the hold
    // The next roll is another cycle, under the next id.
    await tower.roll(3);
    expect(board.rolls().map((r) => r.cycleId)).toEqual([1, 2]);
    expect(board.tips).toBe(2);
  });

  it('rejects roll() with tower/jam when the tray never comes back, emits fault, and clears the fault on the next roll', async () => {
    const board = emulated();
    const tower = await connected(board);
    board.tray.jammed = true;
    const fault = next(tower, 'fault');
    const error = await rejection(tower.roll(2));
    expect(error.code).toBe('tower/jam');
    expect((await fault).code).toBe('tower/jam');

    board.tray.jammed = false; // the operator freed the tray
    await tower.roll(2);
    expect(board.commands.map((c) => c.type)).toContain('clearFault');
    expect(board.rolls()).toHaveLength(2);
  });

  it('emits button when the button on the emulated pin is pressed', async () => {
    const board = emulated();
    const tower = await connected(board);
    const button = next(tower, 'button');
    board.pressButton(80);
    await expect(button).resolves.toMatchObject({ at: expect.any(Number) });
  });

  it("sets the light's PWM duty with setLight", async () => {
    const board = emulated();
    const tower = await connected(board);
    await tower.setLight(200);
    await until(() => Math.abs(board.lightDuty() - 201 / 256) < 0.02);
    await tower.setLight(0);
    await until(() => board.lightDuty() === 0);
    await expect(tower.setLight(256)).rejects.toThrow(RangeError);
  });

  it('keeps the board from tripping its silent-host safety with heartbeats', async () => {
    const board = emulated();
    const tower = await connected(board, { silentTimeoutMs: 1000, heartbeatMs: 200, holdMs: 100, returnTimeoutMs: 200 });
    const faults: TowerError[] = [];
    tower.on('fault', (e) => faults.push(e));
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(faults).toEqual([]);
    expect(board.commands.filter((c) => c.type === 'queryStatus').length).toBeGreaterThanOrEqual(6);
  });
});

describe('reconnection', () => {
  it('after an unplug mid-roll, rejects with tower/disconnected, reconnects, and the next roll does not run the cycle again', async () => {
    const board = emulated();
    const tower = await connected(board);
    const disconnect = next(tower, 'disconnect');
    const roll = tower.roll(3);
    await until(() => board.rolls().length === 1); // the board has the cycle
    board.unplugged = true;
    board.openPort!.pull();
    const error = await rejection(roll);
    expect(error.code).toBe('tower/disconnected');
    expect((await disconnect).error.code).toBe('tower/disconnected');
    expect(tower.connected).toBe(false);
    await expect(tower.roll(3)).rejects.toMatchObject({ code: 'tower/disconnected' });

    // Away for a while: a few attempts fail, then the cable is back.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const connect = next(tower, 'connect');
    board.unplugged = false;
    await connect;
    expect(board.boots).toBe(1); // the board kept running and finished the cycle alone

    await tower.roll(3); // the game asks again: the board already threw these dice
    expect(board.rolls()).toHaveLength(1);
    expect(board.tips).toBe(1);

    await tower.roll(3); // and play goes on with new cycles
    expect(board.rolls().map((r) => r.cycleId)).toEqual([1, 2]);
  });

  it('sends the cycle again, under the same id, when the board never got it', async () => {
    const board = emulated();
    const tower = await connected(board);
    const roll = tower.roll(3);
    board.openPort!.pull(); // the ROLL was still in the USB buffer
    expect((await rejection(roll)).code).toBe('tower/disconnected');
    await next(tower, 'connect');
    expect(board.rolls()).toHaveLength(0);

    await tower.roll(3);
    expect(board.rolls().map((r) => r.cycleId)).toEqual([1]);
    expect(board.tips).toBe(1);
  });

  it('waits for a cycle still running on the board after reconnecting, without sending it again', async () => {
    const board = emulated();
    const tower = await connected(board, { holdMs: 600, returnTimeoutMs: 600 });
    const roll = tower.roll(1);
    await until(() => board.rolls().length === 1);
    board.openPort!.pull();
    expect((await rejection(roll)).code).toBe('tower/disconnected');
    await next(tower, 'connect');
    expect(board.trayInPlace).toBe(false); // still tipped: the cycle runs on
    await tower.roll(1);
    expect(board.trayInPlace).toBe(true);
    expect(board.rolls()).toHaveLength(1);
    expect(board.tips).toBe(1);
  });
});
