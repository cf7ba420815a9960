/**
 * Splits the bytes a board sends into Firmata messages, for the tests. It is a
 * deliberately independent reading of the protocol (not the firmware's parser):
 * version reports, digital and analog messages, and sysex messages.
 */
export type BoardMessage =
  | { readonly type: 'version'; readonly major: number; readonly minor: number }
  | { readonly type: 'digital'; readonly port: number; readonly value: number }
  | { readonly type: 'analog'; readonly channel: number; readonly value: number }
  | { readonly type: 'sysex'; readonly id: number; readonly payload: readonly number[]; readonly bytes: readonly number[] };

export const MODE = { INPUT: 0, OUTPUT: 1, ANALOG: 2, PWM: 3, SERVO: 4, PULLUP: 0x0b } as const;

export class FirmataStream {
  private pending: number[] = [];
  readonly messages: BoardMessage[] = [];
  /** Bytes that fitted no message (should stay empty). */
  readonly stray: number[] = [];

  push(byte: number): BoardMessage | undefined {
    const p = this.pending;
    if (byte & 0x80 && byte !== 0xf7) {
      if (p.length) this.stray.push(...p);
      p.length = 0;
    }
    if (!(byte & 0x80) && p.length === 0) {
      this.stray.push(byte);
      return undefined;
    }
    p.push(byte);
    const first = p[0]!;
    let message: BoardMessage | undefined;
    if (first === 0xf0) {
      if (byte === 0xf7) message = { type: 'sysex', id: p[1]!, payload: p.slice(2, -1), bytes: [...p] };
    } else if (p.length === 3) {
      const value = p[1]! | (p[2]! << 7);
      if (first === 0xf9) message = { type: 'version', major: p[1]!, minor: p[2]! };
      else if ((first & 0xf0) === 0x90) message = { type: 'digital', port: first & 0x0f, value };
      else if ((first & 0xf0) === 0xe0) message = { type: 'analog', channel: first & 0x0f, value };
      else this.stray.push(...p);
    }
    if (message || (p.length >= 3 && first !== 0xf0)) p.length = 0;
    if (message) this.messages.push(message);
    return message;
  }
}

/** Text sent as two 7-bit bytes per character (REPORT_FIRMWARE, STRING_DATA). */
export function decodeText(bytes: readonly number[]): string {
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes[i]! | (bytes[i + 1]! << 7));
  return text;
}

/** CAPABILITY_RESPONSE payload -> for each pin, its modes and their resolutions. */
export function parseCapabilities(payload: readonly number[]): Map<number, number>[] {
  const pins: Map<number, number>[] = [];
  let current = new Map<number, number>();
  for (let i = 0; i < payload.length; ) {
    if (payload[i] === 0x7f) {
      pins.push(current);
      current = new Map();
      i += 1;
    } else {
      current.set(payload[i]!, payload[i + 1]!);
      i += 2;
    }
  }
  return pins;
}

/** The 7-bit bytes of a value, LSB first, as many as `count`. */
export function bytes7(value: number, count = 2): number[] {
  return Array.from({ length: count }, (_, i) => (value >> (7 * i)) & 0x7f);
}
