import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  END_SYSEX,
  MAX_FIELD,
  START_SYSEX,
  TOWER_CMD,
  TOWER_FAULT,
  TOWER_FIRMWARE,
  TOWER_FLAG,
  TOWER_LIMITS,
  TOWER_PINS,
  TOWER_REJECT,
  TOWER_REPORT,
  TOWER_STATE,
  TOWER_SYSEX,
  TowerProtocolError,
  UNO_LAYOUT,
  decode14,
  decodeTowerCommand,
  decodeTowerReport,
  encode14,
  encodeTowerCommand,
  encodeTowerReport,
  type TowerCommand,
  type TowerReport,
} from '../../src/hardware/tower-protocol.js';
import { FIRMWARE_DIR } from './build.js';

/** Every `#define NAME value` of a header whose value is a number or a string literal. */
function readDefines(file: string): Record<string, number | string> {
  const defines: Record<string, number | string> = {};
  for (const line of readFileSync(join(FIRMWARE_DIR, file), 'utf8').split('\n')) {
    const m = /^#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+|"[^"]*")(?:\s|$)/.exec(line);
    if (m) defines[m[1]!] = m[2]!.startsWith('"') ? m[2]!.slice(1, -1) : Number(m[2]);
  }
  return defines;
}

const prefixed = (prefix: string, table: Record<string, number | string>) =>
  Object.fromEntries(Object.entries(table).map(([key, value]) => [prefix + key, value]));

describe('the TypeScript constants and the firmware headers', () => {
  it('tower_protocol.h has exactly the codes of tower-protocol.ts', () => {
    expect(readDefines('tower_protocol.h')).toEqual({
      TOWER_SYSEX,
      ...prefixed('TOWER_FIRMWARE_', TOWER_FIRMWARE),
      ...prefixed('TOWER_CMD_', TOWER_CMD),
      ...prefixed('TOWER_REPORT_', TOWER_REPORT),
      ...prefixed('TOWER_STATE_', TOWER_STATE),
      ...prefixed('TOWER_FAULT_', TOWER_FAULT),
      ...prefixed('TOWER_REJECT_', TOWER_REJECT),
      ...prefixed('TOWER_FLAG_', TOWER_FLAG),
      ...prefixed('TOWER_', TOWER_LIMITS),
    });
  });

  it('pins.h has exactly the pin map of tower-protocol.ts', () => {
    expect(readDefines('pins.h')).toEqual({ ...prefixed('PIN_', TOWER_PINS), ...UNO_LAYOUT });
  });

  it('the parser of the headers sees every #define (none in a form it skips)', () => {
    for (const file of ['tower_protocol.h', 'pins.h']) {
      const lines = readFileSync(join(FIRMWARE_DIR, file), 'utf8').split('\n');
      const defines = lines.filter((l) => /^#define\s+\w+\s+\S/.test(l));
      expect(defines.length, file).toBe(Object.keys(readDefines(file)).length);
    }
  });
});

describe('14-bit fields', () => {
  it('are two 7-bit bytes, LSB first', () => {
    expect(encode14(0)).toEqual([0, 0]);
    expect(encode14(127)).toEqual([127, 0]);
    expect(encode14(128)).toEqual([0, 1]);
    expect(encode14(5000)).toEqual([5000 & 0x7f, 5000 >> 7]);
    expect(encode14(MAX_FIELD)).toEqual([0x7f, 0x7f]);
    for (let v = 0; v <= MAX_FIELD; v += 37) expect(decode14(...encode14(v))).toBe(v);
  });

  it('reject what does not fit, with a flagged error', () => {
    for (const bad of [-1, MAX_FIELD + 1, 1.5, Number.NaN]) {
      expect(() => encode14(bad)).toThrow(TowerProtocolError);
    }
    try {
      encode14(20000);
    } catch (error) {
      expect(error).toMatchObject({ protocol: true, code: 'tower/bad_value' });
    }
  });
});

describe('tower commands', () => {
  const roll: TowerCommand = { type: 'roll', cycleId: 300, tipAngle: 135, restAngle: 10, holdMs: 700, returnTimeoutMs: 1500 };

  it('encode as F0 0D <code> <fields> F7', () => {
    expect([...encodeTowerCommand(roll)]).toEqual([
      START_SYSEX, TOWER_SYSEX, TOWER_CMD.ROLL,
      300 & 0x7f, 300 >> 7, 135 & 0x7f, 135 >> 7, 10, 0, 700 & 0x7f, 700 >> 7, 1500 & 0x7f, 1500 >> 7,
      END_SYSEX,
    ]);
    expect([...encodeTowerCommand({ type: 'queryStatus' })]).toEqual([0xf0, 0x0d, 0x03, 0xf7]);
    expect([...encodeTowerCommand({ type: 'setLight', level: 200 })]).toEqual([0xf0, 0x0d, 0x02, 200 & 0x7f, 1, 0xf7]);
  });

  it('round-trip through the board-side decoder', () => {
    const commands: TowerCommand[] = [
      roll,
      { type: 'setLight', level: 255 },
      { type: 'queryStatus' },
      { type: 'configure', silentTimeoutMs: 5000, dimLevel: 16 },
      { type: 'clearFault' },
    ];
    for (const command of commands) expect(decodeTowerCommand(encodeTowerCommand(command))).toEqual(command);
  });

  it('refuse angles and levels the board would reject', () => {
    expect(() => encodeTowerCommand({ ...roll, tipAngle: 181 })).toThrow(/tipAngle/);
    expect(() => encodeTowerCommand({ type: 'setLight', level: 256 })).toThrow(/level/);
    expect(() => encodeTowerCommand({ type: 'configure', silentTimeoutMs: 20_000, dimLevel: 0 })).toThrow(TowerProtocolError);
  });
});

describe('tower reports', () => {
  it('decode every kind and round-trip', () => {
    const reports: TowerReport[] = [
      { type: 'status', state: TOWER_STATE.FAULT, lastFault: TOWER_FAULT.JAM, lightLevel: 200, flags: TOWER_FLAG.TRAY_IN_PLACE, lastCycleId: 9 },
      { type: 'cycleDone', cycleId: 9, returnMs: 412 },
      { type: 'fault', faultCode: TOWER_FAULT.TRAY_STUCK, cycleId: 2 },
      { type: 'buttonPressed' },
      { type: 'hostSilent', silentTimeoutMs: 5000 },
      { type: 'rejected', command: TOWER_CMD.ROLL, reason: TOWER_REJECT.BUSY },
    ];
    for (const report of reports) expect(decodeTowerReport(encodeTowerReport(report))).toEqual(report);
    expect(decodeTowerReport([0xf0, 0x0d, 0x43, 0xf7])).toEqual({ type: 'buttonPressed' });
  });

  it('reject foreign, unknown, short and 8-bit messages', () => {
    const bad = [
      [0xf0, 0x79, 1, 0, 0xf7], // a firmware report, not ours
      [0xf0, 0x0d, 0x7e, 0xf7], // unknown report code
      [0xf0, 0x0d, 0x41, 1, 0, 5, 0xf7], // a field short
      [0xf0, 0x0d, 0x41, 1, 0, 5, 0x80, 0xf7], // an 8-bit byte inside
      [0xf0, 0x0d, 0x43], // not terminated
      [0xf0, 0x0d, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf7], // a command, not a report
    ];
    for (const bytes of bad) expect(() => decodeTowerReport(bytes), bytes.join(',')).toThrow(TowerProtocolError);
  });
});
