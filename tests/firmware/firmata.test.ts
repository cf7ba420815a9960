/**
 * The firmware's Firmata side, run in avr8js: what johnny-five (firmata.js)
 * needs to start and to drive pins. Bytes go in one at a time or split at
 * awkward places, as a serial port delivers them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TOWER_FIRMWARE, TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import { buildFirmware } from './build.js';
import { Emulator } from './emulator.js';
import { MODE, bytes7, decodeText, parseCapabilities, type BoardMessage } from './firmata-stream.js';

let hex = '';
beforeAll(() => {
  hex = buildFirmware();
}, 120_000);

type Sysex = Extract<BoardMessage, { type: 'sysex' }>;
const sysex = (id: number) => (m: BoardMessage): m is Sysex => m.type === 'sysex' && m.id === id;
const isVersion = (m: BoardMessage) => m.type === 'version';

/** Sends each byte on its own, with `gapMs` of emulated time after it. */
function trickle(board: Emulator, bytes: number[], gapMs = 1): void {
  for (const byte of bytes) board.transmit([byte], gapMs);
}

function pinState(board: Emulator, pin: number): { mode: number; state: number } {
  board.send([0xf0, 0x6d, pin, 0xf7]);
  const reply = board.waitFor(sysex(0x6e), 50);
  const [replyPin, mode, ...state] = reply.payload;
  expect(replyPin).toBe(pin);
  return { mode: mode!, state: state.reduce((v, b, i) => v | (b << (7 * i)), 0) };
}

describe('start-up', () => {
  it('announces REPORT_VERSION 2.5, then the firmware name and version, like StandardFirmata', () => {
    const board = Emulator.boot(hex);
    board.run(20);
    expect(board.messages[0]).toEqual({ type: 'version', major: 2, minor: 5 });
    const firmware = board.messages[1] as Sysex;
    expect(firmware.id).toBe(0x79);
    expect(firmware.payload.slice(0, 2)).toEqual([TOWER_FIRMWARE.MAJOR, TOWER_FIRMWARE.MINOR]);
    expect(decodeText(firmware.payload.slice(2))).toBe('DiceTower');
    expect(board.stream.stray).toEqual([]);
  });

  it('answers the version and firmware queries fed one byte at a time', () => {
    const board = Emulator.boot(hex);
    board.run(20);
    const before = board.messages.length;
    trickle(board, [0xf9]);
    trickle(board, [0xf0, 0x79, 0xf7], 3);
    board.run(10);
    const [version, firmware] = board.messages.slice(before);
    expect(version).toEqual({ type: 'version', major: 2, minor: 5 });
    expect(firmware).toMatchObject({ type: 'sysex', id: 0x79 });
    expect(decodeText((firmware as Sysex).payload.slice(2))).toBe(TOWER_FIRMWARE.NAME);
    expect(board.messages.length).toBe(before + 2);
  });

  it("answers johnny-five's start-up queries sent back to back, in order", () => {
    const board = Emulator.boot(hex);
    const before = board.messages.length;
    board.send([0xf0, 0x79, 0xf7, 0xf0, 0x6b, 0xf7, 0xf0, 0x69, 0xf7]);
    board.waitFor(sysex(0x6a), 100);
    expect(board.messages.slice(before).map((m) => (m.type === 'sysex' ? m.id : m.type))).toEqual([0x79, 0x6c, 0x6a]);
    expect(board.stream.stray).toEqual([]);
  });
});

describe('capabilities', () => {
  it('lists the Uno pins with servo on 9 and 10, PWM on 3, 5, 6 and 11, analog on A0-A5', () => {
    const board = Emulator.boot(hex);
    board.send([0xf0, 0x6b, 0xf7]);
    const pins = parseCapabilities(board.waitFor(sysex(0x6c), 100).payload);
    expect(pins).toHaveLength(20);
    const withMode = (mode: number) => pins.flatMap((modes, pin) => (modes.has(mode) ? [pin] : []));
    expect(withMode(MODE.SERVO)).toEqual([9, 10]);
    expect(withMode(MODE.PWM)).toEqual([3, 5, 6, 11]);
    expect(withMode(MODE.ANALOG)).toEqual([14, 15, 16, 17, 18, 19]);
    expect(withMode(MODE.OUTPUT)).toEqual([3, 6, 7, 8, 10, 11, 12, 14, 15, 16, 17, 18, 19]);
    for (const pin of [9, 10]) expect(pins[pin]!.get(MODE.SERVO)).toBe(14);
    expect(pins[3]!.get(MODE.PWM)).toBe(8);
    expect(pins[14]!.get(MODE.ANALOG)).toBe(10);
    // The tower's own pins have only their one mode; serial and the status LED none.
    expect([...pins[TOWER_PINS.BUTTON]!.keys()]).toEqual([MODE.PULLUP]);
    expect([...pins[TOWER_PINS.TRAY_SENSOR]!.keys()]).toEqual([MODE.PULLUP]);
    expect([...pins[TOWER_PINS.LIGHT]!.keys()]).toEqual([MODE.PWM]);
    expect([...pins[TOWER_PINS.TRAY_SERVO]!.keys()]).toEqual([MODE.SERVO]);
    for (const pin of [0, 1, 13]) expect(pins[pin]!.size).toBe(0);
  });

  it('maps A0-A5 to analog channels 0-5 and no other pin', () => {
    const board = Emulator.boot(hex);
    board.send([0xf0, 0x69, 0xf7]);
    expect(board.waitFor(sysex(0x6a), 50).payload).toEqual([...Array(14).fill(127), 0, 1, 2, 3, 4, 5]);
  });
});

describe('pins', () => {
  it('sets a pin mode and drives the pin with DIGITAL_MESSAGE and SET_DIGITAL_PIN_VALUE', () => {
    const board = Emulator.boot(hex);
    expect(board.output(7)).toBeUndefined(); // an input after reset
    trickle(board, [0xf4, 7, MODE.OUTPUT, 0xf4, 12, MODE.OUTPUT]);
    expect(board.output(7)).toBe(false);
    trickle(board, [0x90, 0x00, 0x01]); // port 0, bit 7 is in the second data byte
    expect(board.output(7)).toBe(true);
    expect(pinState(board, 7)).toEqual({ mode: MODE.OUTPUT, state: 1 });
    board.transmit([0xf5, 12, 1]);
    expect(board.output(12)).toBe(true);
    board.transmit([0x91, 0x00, 0x00]); // port 1 all low
    expect(board.output(12)).toBe(false);
    expect(board.output(7)).toBe(true);
  });

  it('refuses a mode a pin does not have, with a string message, and leaves the pin alone', () => {
    const board = Emulator.boot(hex);
    board.send([0xf4, TOWER_PINS.STATUS_LED, MODE.OUTPUT]);
    const text = board.waitFor(sysex(0x71), 20);
    expect(decodeText(text.payload)).toMatch(/unsupported/);
    board.send([0xf4, 9, MODE.OUTPUT]);
    board.waitFor(sysex(0x71), 20);
    expect(pinState(board, 9).mode).toBe(MODE.SERVO);
  });

  it('writes a servo angle as ~1472 us pulses at 50 Hz for 90 degrees (544-2400 us, as Servo.write)', () => {
    const board = Emulator.boot(hex);
    board.transmit([0xf4, 10, MODE.SERVO]);
    const from = board.cycles;
    board.run(30);
    expect(board.pulses(10, from)).toEqual([]); // the mode alone does not move the servo
    board.transmit([0xea, 90, 0]); // ANALOG_MESSAGE pin 10, 90
    const start = board.cycles;
    board.run(110);
    const pulses = board.pulses(10, start).slice(1);
    expect(pulses.length).toBeGreaterThanOrEqual(4);
    for (const p of pulses) {
      expect(p.widthUs).toBeCloseTo(544 + (90 * (2400 - 544)) / 180, -1); // 1472 +- 5
      expect(p.periodUs).toBeCloseTo(20_000, -1);
    }
    expect(pinState(board, 10)).toEqual({ mode: MODE.SERVO, state: 90 });
  });

  it('gives 1500 us at 90 degrees after SERVO_CONFIG 1000-2000, and takes microseconds through EXTENDED_ANALOG', () => {
    const board = Emulator.boot(hex);
    trickle(board, [0xf0, 0x70, 10, ...bytes7(1000), ...bytes7(2000), 0xf7]);
    board.transmit([0xea, 90, 0]);
    let from = board.cycles;
    board.run(65);
    for (const p of board.pulses(10, from).slice(1)) expect(Math.abs(p.widthUs - 1500)).toBeLessThanOrEqual(4);
    board.transmit([0xf0, 0x6f, 10, ...bytes7(1250), 0xf7]); // >= 544: microseconds
    from = board.cycles + 20 * 16000; // the new width starts at the next period
    board.run(85);
    const pulses = board.pulses(10, from);
    expect(pulses.length).toBeGreaterThanOrEqual(2);
    for (const p of pulses) expect(Math.abs(p.widthUs - 1250)).toBeLessThanOrEqual(4);
  });

  it('sets a PWM duty cycle with ANALOG_MESSAGE', () => {
    const board = Emulator.boot(hex);
    board.transmit([0xf4, 6, MODE.PWM, 0xe6, 64, 0]);
    const from = board.cycles;
    board.run(10);
    const pulses = board.pulses(6, from).slice(1);
    expect(pulses.length).toBeGreaterThan(5);
    for (const p of pulses) expect(p.widthUs / p.periodUs).toBeCloseTo(65 / 256, 2);
  });

  it('reports a digital port when asked, then on every change of its inputs', () => {
    const board = Emulator.boot(hex);
    board.transmit([0xf4, 7, MODE.INPUT, 0xd0, 1]);
    const first = board.messages.findLast((m) => m.type === 'digital');
    // The button (pin 2) reads high (released), the tray sensor (pin 4) low, pin 7 low.
    expect(first).toEqual({ type: 'digital', port: 0, value: 0b0000_0100 });
    board.setPin(7, true);
    expect(board.waitFor((m) => m.type === 'digital', 5)).toEqual({ type: 'digital', port: 0, value: 0b1000_0100 });
    board.transmit([0xd0, 0]);
    const count = board.messages.length;
    board.setPin(7, false);
    board.run(10);
    expect(board.messages.length).toBe(count);
  });

  it('reports an analog channel at once, then every sampling interval', () => {
    const board = Emulator.boot(hex);
    board.adc.channelValues[2] = 2.5; // volts, of 5
    board.transmit([0xf0, 0x7a, ...bytes7(40), 0xf7, 0xc2, 1]);
    board.run(205);
    const reports = board.messages.filter((m) => m.type === 'analog');
    expect(reports.length).toBeGreaterThanOrEqual(5);
    for (const r of reports) expect(r).toMatchObject({ channel: 2, value: expect.closeTo(512, 0) });
    const times = reports.map((r) => board.arrivedMs(r));
    // The first answers the request at once; the sampling loop then runs every 40 ms.
    for (let i = 2; i < times.length; i++) expect(Math.abs(times[i]! - times[i - 1]! - 40)).toBeLessThanOrEqual(2);
  });
});

describe('the parser', () => {
  it('resynchronises after stray bytes and abandoned messages', () => {
    const board = Emulator.boot(hex);
    board.run(10);
    const before = board.messages.length;
    // Stray data, a sysex cut by a command byte, a digital message cut short, a pin mode cut short.
    board.transmit([0x12, 0x55, 0xf0, 0x6b, 0x90, 0x01, 0xf4, 7, 0xf0, 0x79, 0xf7], 10);
    expect(board.messages.slice(before).map((m) => (m.type === 'sysex' ? m.id : m.type))).toEqual([0x79]);
    expect(pinState(board, 7).mode).toBe(MODE.INPUT);
  });

  it('drops an oversized sysex whole, and goes on', () => {
    const board = Emulator.boot(hex);
    board.run(10);
    const before = board.messages.length;
    board.transmit([0xf0, 0x79, ...Array(40).fill(1), 0xf7], 10);
    expect(board.messages.length).toBe(before);
    board.send([0xf9]);
    board.waitFor(isVersion, 10);
  });

  it('handles messages split at every awkward place across reads', () => {
    const board = Emulator.boot(hex);
    const stream = [0xf4, 8, MODE.OUTPUT, 0x91, 0x01, 0x00, 0xf0, 0x6d, 8, 0xf7, 0xf9];
    for (const chunk of [[0xf4], [8, MODE.OUTPUT, 0x91], [0x01], [0x00, 0xf0, 0x6d], [8], [0xf7, 0xf9]]) {
      board.transmit(chunk, 3);
    }
    expect(stream.length).toBe(11);
    expect(board.output(8)).toBe(true);
    const state = board.messages.findLast(sysex(0x6e));
    expect(state?.payload).toEqual([8, MODE.OUTPUT, 1]);
    expect(board.messages.at(-1)).toEqual({ type: 'version', major: 2, minor: 5 });
  });

  it('SYSTEM_RESET puts pins and reporting back to their power-on state', () => {
    const board = Emulator.boot(hex);
    board.transmit([0xf4, 7, MODE.OUTPUT, 0xf5, 7, 1, 0xd0, 1]);
    expect(board.output(7)).toBe(true);
    board.transmit([0xff], 5);
    expect(board.output(7)).toBeUndefined();
    expect(pinState(board, 7)).toEqual({ mode: MODE.INPUT, state: 0 });
    const count = board.messages.length;
    board.setPin(7, true);
    board.run(10);
    expect(board.messages.length).toBe(count); // reporting is off again
  });
});
