/**
 * The tower sysex, host side: the codes of `firmware/tower_protocol.h` and the
 * pin map of `firmware/pins.h` as typed constants, and pure encoders/decoders.
 *
 * Wire format (inside Firmata): `F0 TOWER_SYSEX <code> <field>* F7`, where every
 * field is an unsigned 14-bit value sent as two 7-bit bytes, least significant
 * first. Host commands have codes 0x01-0x3F, board reports 0x40-0x7F.
 * `tests/firmware/protocol.test.ts` parses the C headers and checks that every
 * constant here equals its `#define`, so the two sides cannot drift.
 */

/** Firmata reserves sysex ids 0x01-0x0F for user-defined commands; the tower uses this one. */
export const TOWER_SYSEX = 0x0d;
export const START_SYSEX = 0xf0;
export const END_SYSEX = 0xf7;

/** What our firmware answers to a Firmata firmware query (name, version). */
export const TOWER_FIRMWARE = { NAME: 'DiceTower', MAJOR: 1, MINOR: 0 } as const;

/** Host -> board sub-commands. */
export const TOWER_CMD = {
  ROLL: 0x01,
  SET_LIGHT: 0x02,
  QUERY_STATUS: 0x03,
  CONFIGURE: 0x04,
  CLEAR_FAULT: 0x05,
} as const;

/** Board -> host reports. */
export const TOWER_REPORT = {
  STATUS: 0x40,
  CYCLE_DONE: 0x41,
  FAULT: 0x42,
  BUTTON: 0x43,
  HOST_SILENT: 0x44,
  REJECTED: 0x45,
} as const;

/** `status.state`. */
export const TOWER_STATE = { READY: 0, BUSY: 1, FAULT: 2 } as const;

/** `status.lastFault` and `fault.faultCode`. */
export const TOWER_FAULT = {
  NONE: 0,
  /** The tray was not back in place within the cycle's `returnTimeoutMs`; the servo is left limp. */
  JAM: 1,
  /** The tray sensor still saw the tray home after the hold: the tray never tipped. */
  TRAY_STUCK: 2,
} as const;

/** `rejected.reason`. */
export const TOWER_REJECT = {
  BUSY: 1,
  /** The board is in fault: send `clearFault` first. */
  FAULT: 2,
  BAD_LENGTH: 3,
  BAD_VALUE: 4,
  UNKNOWN: 5,
} as const;

/** Bits of `status.flags`. */
export const TOWER_FLAG = {
  HOST_SILENT: 0x01,
  TRAY_IN_PLACE: 0x02,
  BUTTON_DOWN: 0x04,
  SERVO_ON: 0x08,
} as const;

/** Ranges and the board's defaults. Times are milliseconds, angles degrees, levels 0-255. */
export const TOWER_LIMITS = {
  MAX_ANGLE: 180,
  MAX_LEVEL: 255,
  /** The board returns the tray to rest and dims the light after this long without a byte from the host. */
  DEFAULT_SILENT_MS: 5000,
  DEFAULT_DIM_LEVEL: 16,
  BUTTON_DEBOUNCE_MS: 30,
  /** The tray sensor must read "in place" this long before it counts. */
  TRAY_SETTLE_MS: 10,
} as const;

/** Largest value of a field (and so the longest time: 16.383 s). */
export const MAX_FIELD = 0x3fff;

/** The tower's wiring on an Arduino Uno, in Firmata pin numbers (A0-A5 are 14-19). */
export const TOWER_PINS = {
  SERIAL_RX: 0,
  SERIAL_TX: 1,
  /** Push button to GND, internal pull-up: active low. */
  BUTTON: 2,
  /** IR break-beam or limit switch to GND, pull-up: low = tray in place. */
  TRAY_SENSOR: 4,
  /** LED strip through a MOSFET, PWM. */
  LIGHT: 5,
  /** Tray servo, pulses from Timer1 (OC1A). */
  TRAY_SERVO: 9,
  /** The other Timer1 servo output, free for the host. */
  SPARE_SERVO: 10,
  /** On-board LED: on = ready, fast blink = busy, slow blink = fault. */
  STATUS_LED: 13,
} as const;

export const UNO_LAYOUT = { TOTAL_PINS: 20, TOTAL_ANALOG_PINS: 6, FIRST_ANALOG_PIN: 14 } as const;

/** Field names of each message, in wire order. One table serves encoding and decoding. */
const COMMANDS = {
  roll: { code: TOWER_CMD.ROLL, fields: ['cycleId', 'tipAngle', 'restAngle', 'holdMs', 'returnTimeoutMs'] },
  setLight: { code: TOWER_CMD.SET_LIGHT, fields: ['level'] },
  queryStatus: { code: TOWER_CMD.QUERY_STATUS, fields: [] },
  configure: { code: TOWER_CMD.CONFIGURE, fields: ['silentTimeoutMs', 'dimLevel'] },
  clearFault: { code: TOWER_CMD.CLEAR_FAULT, fields: [] },
} as const;

const REPORTS = {
  status: { code: TOWER_REPORT.STATUS, fields: ['state', 'lastFault', 'lightLevel', 'flags', 'lastCycleId'] },
  cycleDone: { code: TOWER_REPORT.CYCLE_DONE, fields: ['cycleId', 'returnMs'] },
  fault: { code: TOWER_REPORT.FAULT, fields: ['faultCode', 'cycleId'] },
  buttonPressed: { code: TOWER_REPORT.BUTTON, fields: [] },
  hostSilent: { code: TOWER_REPORT.HOST_SILENT, fields: ['silentTimeoutMs'] },
  rejected: { code: TOWER_REPORT.REJECTED, fields: ['command', 'reason'] },
} as const;

type Spec = Readonly<Record<string, { readonly code: number; readonly fields: readonly string[] }>>;
type MessageOf<S extends Spec> = {
  [K in keyof S]: { readonly type: K } & { readonly [F in S[K]['fields'][number]]: number };
}[keyof S];

/** A command for the board. Every field is an integer 0..MAX_FIELD; angles <= 180, levels <= 255. */
export type TowerCommand = MessageOf<typeof COMMANDS>;
/** A report from the board. */
export type TowerReport = MessageOf<typeof REPORTS>;

/** A malformed or foreign message, or a field out of range. `protocol: true` marks it for callers. */
export class TowerProtocolError extends Error {
  readonly protocol = true;
  constructor(
    readonly code: 'tower/bad_message' | 'tower/bad_value',
    message: string,
  ) {
    super(message);
    this.name = 'TowerProtocolError';
  }
}

/** The two 7-bit bytes of a 14-bit field, LSB first. Throws on a value that does not fit. */
export function encode14(value: number): [number, number] {
  if (!Number.isInteger(value) || value < 0 || value > MAX_FIELD) {
    throw new TowerProtocolError('tower/bad_value', `${value} is not an integer in 0..${MAX_FIELD}`);
  }
  return [value & 0x7f, value >> 7];
}

export function decode14(lsb: number, msb: number): number {
  return (lsb & 0x7f) | ((msb & 0x7f) << 7);
}

function encode<S extends Spec>(spec: S, message: MessageOf<S>): Uint8Array {
  const { code, fields } = spec[message.type as keyof S]!;
  const values = message as unknown as Record<string, number>;
  const bytes = [START_SYSEX, TOWER_SYSEX, code];
  for (const field of fields) bytes.push(...encode14(values[field]!));
  bytes.push(END_SYSEX);
  return Uint8Array.from(bytes);
}

function decoderTable(spec: Spec): Map<number, { type: string; fields: readonly string[] }> {
  return new Map(Object.entries(spec).map(([type, { code, fields }]) => [code, { type, fields }]));
}

const COMMAND_BY_CODE = decoderTable(COMMANDS);
const REPORT_BY_CODE = decoderTable(REPORTS);

/** True for a complete sysex message (F0 ... F7) with the tower's id. */
export function isTowerSysex(bytes: ArrayLike<number>): boolean {
  return bytes.length >= 4 && bytes[0] === START_SYSEX && bytes[1] === TOWER_SYSEX && bytes[bytes.length - 1] === END_SYSEX;
}

function decode(table: ReturnType<typeof decoderTable>, bytes: ArrayLike<number>, what: string): Record<string, unknown> {
  if (!isTowerSysex(bytes)) throw new TowerProtocolError('tower/bad_message', `not a tower sysex ${what}`);
  const code = bytes[2]!;
  const entry = table.get(code);
  if (!entry) throw new TowerProtocolError('tower/bad_message', `unknown tower ${what} 0x${code.toString(16)}`);
  const payload = Array.from(bytes).slice(3, -1);
  if (payload.length !== entry.fields.length * 2 || payload.some((b) => b > 0x7f)) {
    throw new TowerProtocolError('tower/bad_message', `tower ${what} ${entry.type}: bad payload`);
  }
  const message: Record<string, unknown> = { type: entry.type };
  entry.fields.forEach((field, i) => (message[field] = decode14(payload[2 * i]!, payload[2 * i + 1]!)));
  return message;
}

/** The complete sysex message (F0 0D ... F7) for a command. Throws `TowerProtocolError` on a field out of range. */
export function encodeTowerCommand(command: TowerCommand): Uint8Array {
  const values = command as unknown as Record<string, number>;
  const check = (field: string, max: number) => {
    const value = values[field];
    if (value !== undefined && value > max) {
      throw new TowerProtocolError('tower/bad_value', `${command.type}.${field} = ${value} is above ${max}`);
    }
  };
  check('tipAngle', TOWER_LIMITS.MAX_ANGLE);
  check('restAngle', TOWER_LIMITS.MAX_ANGLE);
  check('level', TOWER_LIMITS.MAX_LEVEL);
  check('dimLevel', TOWER_LIMITS.MAX_LEVEL);
  return encode(COMMANDS, command);
}

/** Decodes a complete tower sysex report. Throws `TowerProtocolError` when it is not one. */
export function decodeTowerReport(bytes: ArrayLike<number>): TowerReport {
  return decode(REPORT_BY_CODE, bytes, 'report') as TowerReport;
}

/** The board's side, for simulated boards and tests: encodes a report. */
export function encodeTowerReport(report: TowerReport): Uint8Array {
  return encode(REPORTS, report);
}

/** The board's side, for simulated boards and tests: decodes a command. */
export function decodeTowerCommand(bytes: ArrayLike<number>): TowerCommand {
  return decode(COMMAND_BY_CODE, bytes, 'command') as TowerCommand;
}
