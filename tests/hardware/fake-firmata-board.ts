/**
 * A scripted board that answers as stock StandardFirmata 2.5 on an Uno does
 * (or as other firmware, or not at all), behind a serial-port-like transport.
 * It records what the host asks of its pins, and moves a tray on pin 4 when
 * the servo on pin 9 turns, so a host-timed roll cycle can run against it.
 */
import { EventEmitter } from 'node:events';
import type { TowerTransport } from '../../src/hardware/firmata-tower.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';

export const MODE = { INPUT: 0, OUTPUT: 1, ANALOG: 2, PWM: 3, SERVO: 4, PULLUP: 0x0b } as const;

export interface FakeBoardOptions {
  /** The name in REPORT_FIRMWARE; StandardFirmata reports its sketch's file name. */
  readonly firmwareName?: string;
  readonly firmwareVersion?: readonly [number, number];
  /** Pins offering SERVO mode; StandardFirmata on an Uno offers it on every digital pin (2-19). */
  readonly servoPins?: readonly number[];
  /** Answers nothing at all. */
  readonly silent?: boolean;
  /** Announces REPORT_VERSION and the firmware at open, as a board that has just reset. */
  readonly announce?: boolean;
}

/** What the host did to the board's pins, in order. */
export type PinEvent =
  | { readonly type: 'mode'; readonly pin: number; readonly mode: number; readonly at: number }
  | { readonly type: 'servoConfig'; readonly pin: number; readonly min: number; readonly max: number; readonly at: number }
  | { readonly type: 'analog'; readonly pin: number; readonly value: number; readonly at: number }
  | { readonly type: 'digital'; readonly port: number; readonly value: number; readonly at: number }
  | { readonly type: 'reportDigital'; readonly port: number; readonly on: boolean; readonly at: number };

const UNO_PINS = 20;
const PWM_PINS = [3, 5, 6, 9, 10, 11];

const text7 = (text: string) => [...text].flatMap((c) => [c.charCodeAt(0) & 0x7f, c.charCodeAt(0) >> 7]);

export class FakeFirmataPort extends EventEmitter implements TowerTransport {
  isOpen = false;

  constructor(
    private readonly board: FakeFirmataBoard,
    readonly path: string,
  ) {
    super();
  }

  open(callback?: (error: Error | null) => void): void {
    setImmediate(() => {
      if (this.board.unplugged) {
        callback?.(new Error(`Error: No such file or directory, cannot open ${this.path}`));
        return;
      }
      this.isOpen = true;
      this.board.attach(this);
      this.emit('open');
      callback?.(null);
    });
  }

  write(data: Buffer, callback?: (error?: Error | null) => void): boolean {
    if (this.isOpen) for (const byte of data) this.board.hostByte(byte);
    setImmediate(() => callback?.(this.isOpen ? null : new Error('Port is not open')));
    return this.isOpen;
  }

  close(callback?: (error?: Error | null) => void): void {
    this.isOpen = false;
    setImmediate(() => {
      this.emit('close');
      callback?.(null);
    });
  }

  /** The cable is pulled: the port closes with a disconnect error. */
  pull(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    setImmediate(() => this.emit('close', Object.assign(new Error('Disconnected'), { disconnected: true })));
  }
}

export class FakeFirmataBoard {
  readonly events: PinEvent[] = [];
  /** Every byte the host sent. */
  readonly received: number[] = [];
  /** Input levels (pull-ups idle high); the tray starts in place (low). */
  readonly inputs = new Map<number, number>([[TOWER_PINS.TRAY_SENSOR, 0]]);
  readonly modes = new Map<number, number>();
  readonly tray = { restAngle: 30, toleranceDeg: 12, travelMs: 30, jammed: false, stuck: false };
  /** How many times the tray left its seat. */
  tips = 0;
  /** Answers nothing (from the start with `silent`; tests can mute a board later). */
  muted: boolean;
  /** While true, opening a port fails as for a missing device (the USB cable is out). */
  unplugged = false;
  /** The ports opened on this board, in order. */
  readonly ports: FakeFirmataPort[] = [];
  private port: FakeFirmataPort | null = null;
  private message: number[] = [];
  private readonly reporting = new Set<number>();
  private trayTimer: NodeJS.Timeout | null = null;
  private readonly started = Date.now();

  constructor(private readonly options: FakeBoardOptions = {}) {
    this.muted = options.silent ?? false;
  }

  readonly openTransport = (): FakeFirmataPort => {
    const port = new FakeFirmataPort(this, '/dev/ttyFAKE0');
    this.ports.push(port);
    return port;
  };

  /** The servo positions written to a pin, in order. */
  servoWrites(pin: number = TOWER_PINS.TRAY_SERVO): { value: number; at: number }[] {
    return this.events.flatMap((e) => (e.type === 'analog' && e.pin === pin ? [{ value: e.value, at: e.at }] : []));
  }

  attach(port: FakeFirmataPort): void {
    this.port = port;
    this.reporting.clear();
    if (this.options.announce !== false && !this.muted) {
      this.send([0xf9, 2, 5]);
      this.sendFirmware();
    }
  }

  /** The port open now, if any. */
  get openPort(): FakeFirmataPort | null {
    return this.port?.isOpen ? this.port : null;
  }

  /**
   * The board restarts while the port stays open (reset button, a power dip):
   * it forgets every pin mode and report, the servo goes limp where it is, and
   * after its boot it announces itself as at power-up.
   */
  reboot(bootMs = 50): void {
    this.modes.clear();
    this.reporting.clear();
    if (this.trayTimer) clearTimeout(this.trayTimer);
    this.trayTimer = setTimeout(() => {
      if (this.port?.isOpen && !this.muted) {
        this.send([0xf9, 2, 5]);
        this.sendFirmware();
      }
    }, bootMs);
  }

  dispose(): void {
    if (this.trayTimer) clearTimeout(this.trayTimer);
  }

  /** Drives an input pin and reports its port if the host asked for it. */
  setInput(pin: number, value: 0 | 1): void {
    this.inputs.set(pin, value);
    if (this.reporting.has(pin >> 3)) this.reportPort(pin >> 3);
  }

  private now(): number {
    return Date.now() - this.started;
  }

  private send(bytes: number[]): void {
    const port = this.port;
    if (!port || this.muted) return;
    setImmediate(() => port.isOpen && port.emit('data', Buffer.from(bytes)));
  }

  private sendFirmware(): void {
    const [major, minor] = this.options.firmwareVersion ?? [2, 5];
    this.send([0xf0, 0x79, major, minor, ...text7(this.options.firmwareName ?? 'StandardFirmata.ino'), 0xf7]);
  }

  private capabilities(): number[] {
    const servo = new Set(this.options.servoPins ?? Array.from({ length: UNO_PINS - 2 }, (_, i) => i + 2));
    const bytes = [0xf0, 0x6c];
    for (let pin = 0; pin < UNO_PINS; pin++) {
      if (pin >= 2) bytes.push(MODE.INPUT, 1, MODE.OUTPUT, 1, MODE.PULLUP, 1);
      if (pin >= 14) bytes.push(MODE.ANALOG, 10);
      if (PWM_PINS.includes(pin)) bytes.push(MODE.PWM, 8);
      if (servo.has(pin)) bytes.push(MODE.SERVO, 14);
      bytes.push(0x7f);
    }
    bytes.push(0xf7);
    return bytes;
  }

  private reportPort(port: number): void {
    let value = 0;
    for (let bit = 0; bit < 8; bit++) {
      const pin = port * 8 + bit;
      const mode = this.modes.get(pin);
      if ((mode === MODE.INPUT || mode === MODE.PULLUP) && (this.inputs.get(pin) ?? 1)) value |= 1 << bit;
    }
    this.send([0x90 | port, value & 0x7f, value >> 7]);
  }

  hostByte(byte: number): void {
    this.received.push(byte);
    const m = this.message;
    if (byte & 0x80 && byte !== 0xf7) m.length = 0;
    if (m.length === 0 && !(byte & 0x80)) return;
    m.push(byte);
    const first = m[0]!;
    if (first === 0xf0) {
      if (byte === 0xf7) this.sysex(m.slice(1, -1));
      else return;
    } else if (first === 0xf9 || first === 0xff) {
      if (first === 0xf9) this.send([0xf9, 2, 5]);
    } else {
      const length = (first & 0xf0) === 0xc0 || (first & 0xf0) === 0xd0 ? 2 : 3;
      if (m.length < length) return;
      this.midi(m.slice());
    }
    m.length = 0;
  }

  private midi([command, a, b]: number[]): void {
    const at = this.now();
    const kind = command! & 0xf0;
    if (command === 0xf4) {
      this.modes.set(a!, b!);
      this.events.push({ type: 'mode', pin: a!, mode: b!, at });
    } else if (kind === 0xd0) {
      const port = command! & 0x0f;
      this.events.push({ type: 'reportDigital', port, on: a === 1, at });
      if (a) {
        this.reporting.add(port);
        this.reportPort(port);
      } else this.reporting.delete(port);
    } else if (kind === 0xe0) {
      const pin = command! & 0x0f;
      const value = a! | (b! << 7);
      this.events.push({ type: 'analog', pin, value, at });
      if (pin === TOWER_PINS.TRAY_SERVO && this.modes.get(pin) === MODE.SERVO) this.moveTray(value);
    } else if (kind === 0x90) {
      this.events.push({ type: 'digital', port: command! & 0x0f, value: a! | (b! << 7), at });
    }
  }

  private sysex(data: number[]): void {
    const [id, ...rest] = data;
    if (id === 0x79) this.sendFirmware();
    else if (id === 0x6b) this.send(this.capabilities());
    else if (id === 0x69) this.send([0xf0, 0x6a, ...Array(14).fill(0x7f), 0, 1, 2, 3, 4, 5, 0xf7]);
    else if (id === 0x70) {
      const [pin, minL, minH, maxL, maxH] = rest;
      this.modes.set(pin!, MODE.SERVO);
      this.events.push({ type: 'servoConfig', pin: pin!, min: minL! | (minH! << 7), max: maxL! | (maxH! << 7), at: this.now() });
    }
  }

  /** The tray follows the servo after `travelMs`, unless it is jammed (never back) or stuck (never leaves). */
  private moveTray(angle: number): void {
    const home = Math.abs(angle - this.tray.restAngle) <= this.tray.toleranceDeg;
    if (this.trayTimer) clearTimeout(this.trayTimer);
    this.trayTimer = setTimeout(() => {
      const inPlace = this.inputs.get(TOWER_PINS.TRAY_SENSOR) === 0;
      if (home && !inPlace && !this.tray.jammed) this.setInput(TOWER_PINS.TRAY_SENSOR, 0);
      if (!home && inPlace && !this.tray.stuck) {
        this.tips++;
        this.setInput(TOWER_PINS.TRAY_SENSOR, 1);
      }
    }, this.tray.travelMs);
  }
}
