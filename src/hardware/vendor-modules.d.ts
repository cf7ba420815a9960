/**
 * The parts of johnny-five 2.1 and firmata-io 2.3 the tower driver uses. Neither
 * ships types, and @types/johnny-five describes another version.
 */

declare module 'firmata-io' {
  import type { EventEmitter } from 'node:events';

  export interface FirmataPin {
    /** Firmata mode numbers the board reported for this pin in its capability response. */
    readonly supportedModes: readonly number[];
    mode?: number;
    value: number;
    report?: number;
    analogChannel?: number;
  }

  export interface FirmataOptions {
    /** Ask for the version (and firmware) when the board has not announced itself after this long; 5000 by default. */
    reportVersionTimeout?: number;
    samplingInterval?: number;
    skipCapabilities?: boolean;
  }

  /** One board over one transport (any EventEmitter with `write(buffer, callback)` emitting open, data, close, error). */
  export class Firmata extends EventEmitter {
    constructor(transport: object, options?: FirmataOptions);
    static SYSEX_RESPONSE: Record<number, ((board: Firmata) => void) | undefined>;
    readonly MODES: {
      readonly INPUT: number;
      readonly OUTPUT: number;
      readonly ANALOG: number;
      readonly PWM: number;
      readonly SERVO: number;
      readonly PULLUP: number;
    };
    readonly pins: FirmataPin[];
    readonly firmware: { name?: string; version?: { major: number; minor: number } };
    readonly version: { major?: number; minor?: number };
    readonly isReady: boolean;
    readonly transport: object;
    /** The bytes of the message being parsed; inside a sysex handler, `F0 id … F7`. */
    readonly buffer: number[];
    pinMode(pin: number, mode: number): void;
    digitalRead(pin: number, callback: (value: number) => void): void;
    digitalWrite(pin: number, value: number): void;
    reportDigitalPin(pin: number, value: 0 | 1): void;
    analogWrite(pin: number, value: number): void;
    servoConfig(pin: number, min: number, max: number): void;
    servoWrite(pin: number, value: number): void;
    sysexCommand(message: readonly number[]): this;
    sysexResponse(commandByte: number, handler: (this: Firmata, data: number[]) => void): this;
    clearSysexResponse(commandByte: number): void;
    reportVersion(callback: () => void): void;
    queryFirmware(callback: () => void): void;
    reset(): void;
  }

  interface BindTransport {
    (transport: unknown): typeof Firmata;
    readonly Firmata: typeof Firmata;
  }
  const bindTransport: BindTransport;
  export default bindTransport;
}

declare module 'johnny-five' {
  import type { EventEmitter } from 'node:events';

  export interface BoardOptions {
    /** A ready-made IO plugin instance (here a firmata-io `Firmata`). */
    io?: object;
    id?: string;
    repl?: boolean;
    debug?: boolean;
    /** When true (the default) johnny-five installs a SIGINT handler that exits the process. */
    sigint?: boolean;
    /** ms from connect to ready before the board emits an error; 10 000 by default. */
    timeout?: number;
  }

  export class Board extends EventEmitter {
    constructor(options?: BoardOptions);
    readonly id: string;
    readonly isReady: boolean;
    readonly isConnected: boolean;
    readonly io: object;
  }

  const five: { readonly Board: typeof Board };
  export default five;
}
