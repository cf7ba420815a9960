/**
 * The tower sysex, run in avr8js: roll cycles timed on the board (measured on
 * the servo pin), jams, the silent-host safety, the debounced button and the
 * status LED. Timeouts are kept short through the messages, since emulated time is slow.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TOWER_CMD,
  TOWER_FAULT,
  TOWER_FLAG,
  TOWER_PINS,
  TOWER_REJECT,
  TOWER_STATE,
  TOWER_SYSEX,
  decodeTowerReport,
  encodeTowerCommand,
  type TowerCommand,
  type TowerReport,
} from '../../src/hardware/tower-protocol.js';
import { buildFirmware } from './build.js';
import { CYCLES_PER_MS, Emulator, type Pulse } from './emulator.js';
import type { BoardMessage } from './firmata-stream.js';

let hex = '';
beforeAll(() => {
  hex = buildFirmware();
}, 120_000);

const { TRAY_SERVO, TRAY_SENSOR, BUTTON, LIGHT, STATUS_LED } = TOWER_PINS;
/** Timer1 ticks are 4 us: a width is within one tick of Servo.write()'s mapping. */
const TICK_US = 4;
const angleUs = (degrees: number) => 544 + Math.floor((degrees * (2400 - 544)) / 180);

type Report<T extends TowerReport['type']> = Extract<TowerReport, { type: T }>;
type Sysex = Extract<BoardMessage, { type: 'sysex' }>;
const isTower = (m: BoardMessage): m is Sysex => m.type === 'sysex' && m.id === TOWER_SYSEX;

function command(board: Emulator, cmd: TowerCommand): void {
  board.transmit(encodeTowerCommand(cmd), 1);
}

function reports(board: Emulator): TowerReport[] {
  return board.messages.filter(isTower).map((m) => decodeTowerReport(m.bytes));
}

/** Runs until the next tower report of that type; returns it and when it arrived (ms). */
function waitReport<T extends TowerReport['type']>(board: Emulator, type: T, timeoutMs: number): [Report<T>, number] {
  const message = board.waitFor((m): m is Sysex => isTower(m) && decodeTowerReport(m.bytes).type === type, timeoutMs);
  return [decodeTowerReport(message.bytes) as Report<T>, board.arrivedMs(message)];
}

function status(board: Emulator): Report<'status'> {
  board.send(encodeTowerCommand({ type: 'queryStatus' }));
  return waitReport(board, 'status', 20)[0];
}

const near = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual - expected), `${actual} vs ${expected} +- ${tolerance}`).toBeLessThanOrEqual(tolerance);

function duty(pulses: Pulse[]): number {
  const full = pulses.slice(1);
  return full.reduce((sum, p) => sum + p.widthUs / p.periodUs, 0) / full.length;
}

/** A board with the silent-host safety off, unless a test sets it. */
function bootQuiet(): Emulator {
  const board = Emulator.boot(hex);
  command(board, { type: 'configure', silentTimeoutMs: 0, dimLevel: 0 });
  return board;
}

describe('a roll cycle', () => {
  it('tips to the angle asked, holds for the time asked, returns to rest and reports when the tray is back', () => {
    const board = bootQuiet();
    const roll = { type: 'roll', cycleId: 7, tipAngle: 150, restAngle: 30, holdMs: 300, returnTimeoutMs: 400 } as const;
    command(board, roll);
    const sentMs = board.nowMs;
    const from = board.cycles;
    board.run(40);
    board.setPin(TRAY_SENSOR, true); // the tray has left its seat
    board.runUntil(() => board.pulses(TRAY_SERVO, from).some((p) => Math.abs(p.widthUs - angleUs(30)) <= TICK_US), 400);
    board.run(60);
    board.setPin(TRAY_SENSOR, false); // back in place
    const closedMs = board.nowMs;
    const [done, doneMs] = waitReport(board, 'cycleDone', 50);

    const pulses = board.pulses(TRAY_SERVO, from);
    const tip = pulses.filter((p) => Math.abs(p.widthUs - angleUs(150)) <= TICK_US);
    const rest = pulses.filter((p) => Math.abs(p.widthUs - angleUs(30)) <= TICK_US);
    expect(tip.length + rest.length).toBe(pulses.length); // nothing in between: no glitches
    for (const p of pulses.slice(1)) near(p.periodUs, 20_000, 1);
    const firstTipMs = tip[0]!.start / CYCLES_PER_MS;
    const firstRestMs = rest[0]!.start / CYCLES_PER_MS;
    near(firstTipMs - sentMs, 10, 10); // at the next 20 ms period
    near(firstRestMs - firstTipMs, 300, 20); // the hold, seen at 20 ms resolution
    near(tip.length, 15, 1);
    // The tray counts as back after it has read "in place" for 10 ms.
    near(doneMs - closedMs, 10, 2);
    expect(done.cycleId).toBe(7);
    near(done.returnMs, closedMs + 10 - (sentMs + 300), 3);

    const after = status(board);
    expect(after).toMatchObject({ state: TOWER_STATE.READY, lastFault: TOWER_FAULT.NONE, lastCycleId: 7 });
    expect(after.flags & TOWER_FLAG.TRAY_IN_PLACE).toBeTruthy();
    expect(after.flags & TOWER_FLAG.SERVO_ON).toBeTruthy();
  });

  it('reports a jam when the tray is not back in time, stops the servo and refuses to roll until cleared', () => {
    const board = bootQuiet();
    command(board, { type: 'roll', cycleId: 3, tipAngle: 120, restAngle: 20, holdMs: 100, returnTimeoutMs: 250 });
    const sentMs = board.nowMs;
    board.run(30);
    board.setPin(TRAY_SENSOR, true); // leaves, and never comes back
    const [fault, faultMs] = waitReport(board, 'fault', 500);
    expect(fault).toEqual({ type: 'fault', faultCode: TOWER_FAULT.JAM, cycleId: 3 });
    near(faultMs - sentMs, 100 + 250, 3);
    expect(reports(board).some((r) => r.type === 'cycleDone')).toBe(false);

    // The servo goes limp: no pulse starts after the fault.
    const afterFault = Math.round(faultMs * CYCLES_PER_MS);
    board.run(1010);
    expect(board.pulses(TRAY_SERVO, afterFault)).toEqual([]);
    // The status LED blinks slowly (500 ms per half period) in fault.
    const blinks = board.edges(STATUS_LED, afterFault);
    expect(blinks.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < blinks.length; i++) near((blinks[i]!.cycle - blinks[i - 1]!.cycle) / CYCLES_PER_MS, 500, 2);

    expect(status(board)).toMatchObject({ state: TOWER_STATE.FAULT, lastFault: TOWER_FAULT.JAM, lastCycleId: 3 });
    command(board, { type: 'roll', cycleId: 4, tipAngle: 120, restAngle: 20, holdMs: 100, returnTimeoutMs: 250 });
    expect(waitReport(board, 'rejected', 10)[0]).toEqual({ type: 'rejected', command: TOWER_CMD.ROLL, reason: TOWER_REJECT.FAULT });
    board.send(encodeTowerCommand({ type: 'clearFault' }));
    expect(waitReport(board, 'status', 20)[0]).toMatchObject({ state: TOWER_STATE.READY, lastFault: TOWER_FAULT.NONE });
  });

  it('reports a stuck tray when the sensor still sees it home after the hold', () => {
    const board = bootQuiet();
    command(board, { type: 'roll', cycleId: 9, tipAngle: 120, restAngle: 20, holdMs: 100, returnTimeoutMs: 250 });
    const sentMs = board.nowMs;
    const [fault, faultMs] = waitReport(board, 'fault', 200);
    expect(fault).toEqual({ type: 'fault', faultCode: TOWER_FAULT.TRAY_STUCK, cycleId: 9 });
    near(faultMs - sentMs, 100, 3);
  });

  it('refuses a second roll while busy, and messages it cannot use, saying why', () => {
    const board = bootQuiet();
    const roll = { type: 'roll', cycleId: 1, tipAngle: 90, restAngle: 0, holdMs: 500, returnTimeoutMs: 500 } as const;
    command(board, roll);
    command(board, { ...roll, cycleId: 2 });
    board.transmit([0xf0, TOWER_SYSEX, 0x30, 0xf7]); // unknown sub-command
    board.transmit([0xf0, TOWER_SYSEX, TOWER_CMD.SET_LIGHT, 1, 0xf7]); // a byte short
    board.transmit([0xf0, TOWER_SYSEX, TOWER_CMD.SET_LIGHT, 0x7f, 0x7f, 0xf7]); // level 16383
    expect(reports(board).filter((r) => r.type === 'rejected')).toEqual([
      { type: 'rejected', command: TOWER_CMD.ROLL, reason: TOWER_REJECT.BUSY },
      { type: 'rejected', command: 0x30, reason: TOWER_REJECT.UNKNOWN },
      { type: 'rejected', command: TOWER_CMD.SET_LIGHT, reason: TOWER_REJECT.BAD_LENGTH },
      { type: 'rejected', command: TOWER_CMD.SET_LIGHT, reason: TOWER_REJECT.BAD_VALUE },
    ]);
    // The status LED blinks fast while busy.
    const from = board.cycles;
    board.run(300);
    const blinks = board.edges(STATUS_LED, from);
    expect(blinks.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < blinks.length; i++) near((blinks[i]!.cycle - blinks[i - 1]!.cycle) / CYCLES_PER_MS, 125, 2);
  });

  it('ignores Firmata writes to the tray servo while a cycle owns it', () => {
    const board = bootQuiet();
    command(board, { type: 'roll', cycleId: 1, tipAngle: 60, restAngle: 0, holdMs: 200, returnTimeoutMs: 500 });
    board.transmit([0xe0 | TRAY_SERVO, 10, 0]); // ANALOG_MESSAGE pin 9: 10 degrees
    const from = board.cycles + 20 * CYCLES_PER_MS;
    board.run(100);
    for (const p of board.pulses(TRAY_SERVO, from)) near(p.widthUs, angleUs(60), TICK_US);
  });
});

describe('the light', () => {
  it('sets the PWM level of the LED strip', () => {
    const board = bootQuiet();
    command(board, { type: 'setLight', level: 200 });
    const from = board.cycles;
    board.run(8);
    near(duty(board.pulses(LIGHT, from)), 201 / 256, 0.01);
    expect(status(board).lightLevel).toBe(200);
  });
});

describe('the tower sysex parser', () => {
  it('takes a command split at every byte boundary, and one fed a byte at a time', () => {
    const board = bootQuiet();
    const bytes = [...encodeTowerCommand({ type: 'setLight', level: 130 })];
    for (let split = 1; split < bytes.length; split++) {
      board.transmit(bytes.slice(0, split), 2);
      board.transmit(bytes.slice(split), 2);
      expect(status(board).lightLevel, `split at ${split}`).toBe(130);
      board.transmit(encodeTowerCommand({ type: 'setLight', level: 0 }), 1);
    }
    for (const byte of encodeTowerCommand({ type: 'setLight', level: 77 })) board.transmit([byte], 1);
    expect(status(board).lightLevel).toBe(77);
  });
});

describe('a silent host', () => {
  it('makes the board return the tray to rest and dim the light after the configured time', () => {
    const board = Emulator.boot(hex);
    command(board, { type: 'configure', silentTimeoutMs: 300, dimLevel: 16 });
    command(board, { type: 'setLight', level: 200 });
    command(board, { type: 'roll', cycleId: 5, tipAngle: 160, restAngle: 10, holdMs: 2000, returnTimeoutMs: 1000 });
    board.run(30);
    board.setPin(TRAY_SENSOR, true);
    const lastByteMs = board.hostByteCycles.at(-1)! / CYCLES_PER_MS;
    const [silent, silentMs] = waitReport(board, 'hostSilent', 400);
    expect(silent.silentTimeoutMs).toBe(300);
    near(silentMs - lastByteMs, 300, 3);

    const from = Math.round(silentMs * CYCLES_PER_MS) + 20 * CYCLES_PER_MS;
    board.run(60);
    const pulses = board.pulses(TRAY_SERVO, from);
    expect(pulses.length).toBeGreaterThanOrEqual(2);
    for (const p of pulses) near(p.widthUs, angleUs(10), TICK_US);
    near(duty(board.pulses(LIGHT, board.cycles - 6 * CYCLES_PER_MS)), 17 / 256, 0.01);
    // The cycle was abandoned: no cycle-done report, the board is ready again.
    expect(reports(board).some((r) => r.type === 'cycleDone')).toBe(false);
    const after = status(board); // a byte: the host is back
    expect(after).toMatchObject({ state: TOWER_STATE.READY, lightLevel: 16 });
    expect(after.flags & TOWER_FLAG.HOST_SILENT).toBe(0);
  });

  it('does not trip while the host keeps talking', () => {
    const board = Emulator.boot(hex);
    command(board, { type: 'configure', silentTimeoutMs: 100, dimLevel: 16 });
    for (let i = 0; i < 4; i++) {
      board.run(70);
      board.transmit([0xf9]); // any byte counts
    }
    expect(reports(board).some((r) => r.type === 'hostSilent')).toBe(false);
    board.run(110);
    expect(reports(board).filter((r) => r.type === 'hostSilent')).toHaveLength(1);
    board.run(150);
    expect(reports(board).filter((r) => r.type === 'hostSilent')).toHaveLength(1); // once per silence
  });
});

describe('the button', () => {
  it('reaches the host as exactly one report per press, through contact bounce', () => {
    const board = bootQuiet();
    const press = (pattern: [boolean, number][]) => {
      for (const [high, ms] of pattern) {
        board.setPin(BUTTON, high);
        board.run(ms);
      }
    };
    // Bouncing down, held, bouncing up.
    press([[false, 2], [true, 3], [false, 1], [true, 2], [false, 120], [true, 1], [false, 2], [true, 80]]);
    expect(reports(board).filter((r) => r.type === 'buttonPressed')).toHaveLength(1);
    // A glitch shorter than the 30 ms debounce is no press.
    press([[false, 15], [true, 80]]);
    expect(reports(board).filter((r) => r.type === 'buttonPressed')).toHaveLength(1);
    // A second real press is a second report.
    press([[false, 50], [true, 50]]);
    expect(reports(board).filter((r) => r.type === 'buttonPressed')).toHaveLength(2);
  });

  it('is reported 30 ms after the contact settles', () => {
    const board = bootQuiet();
    board.setPin(BUTTON, false);
    const downMs = board.nowMs;
    const [, reportMs] = waitReport(board, 'buttonPressed', 100);
    near(reportMs - downMs, 30, 2);
  });
});

describe('the status LED', () => {
  it('is steadily on when ready', () => {
    const board = bootQuiet();
    const from = board.cycles;
    board.run(150);
    expect(board.edges(STATUS_LED, from)).toEqual([]);
    expect(board.output(STATUS_LED)).toBe(true);
  });
});
