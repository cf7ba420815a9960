/**
 * The real firmware (`firmware/build-uno/dice-tower.hex`) running in avr8js,
 * behind a serial-port-like transport, with a simple tray on its pins: the
 * host code under test talks to it exactly as to a `SerialPort`.
 *
 * - The emulator is paced to the wall clock (1 emulated ms per real ms), so
 *   the host's timers and the board's agree.
 * - Bytes go both ways at the line rate, through the emulated USART. A write
 *   reaches the board at the next pacing step (as through a USB buffer), so
 *   pulling the cable can lose it.
 * - The tray follows the servo: it leaves its seat (sensor high) when the
 *   servo turns away from `restAngle`, and sits back (sensor low) when the
 *   servo is back at rest, unless it is jammed.
 * - The board keeps running while the cable is out (a board with its own
 *   power), unless `resetOnOpen` makes every open boot it again (the Uno's DTR
 *   auto-reset, or USB power coming back).
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { TowerTransport } from '../../src/hardware/firmata-tower.js';
import { TOWER_PINS, decodeTowerCommand, isTowerSysex, type TowerCommand } from '../../src/hardware/tower-protocol.js';
import { CYCLES_PER_MS, CYCLES_PER_US, Emulator } from '../firmware/emulator.js';
import { parseIntelHex, toProgram } from '../firmware/intel-hex.js';

/** One emulated ms per step of the inner loop. */
const CHUNK_CYCLES = CYCLES_PER_MS;
/** At most this much emulated time per turn of the event loop, so that I/O interleaves. */
const MAX_TURN_MS = 25;

export interface TrayModel {
  /** The rest angle the host drives (the tray is home when the servo is within `toleranceDeg` of it). */
  restAngle: number;
  toleranceDeg: number;
  /** Time the tray takes to leave or reach its seat once the servo has moved. */
  travelMs: number;
  /** A jammed tray leaves its seat and never comes back. */
  jammed: boolean;
}

/** A serial port onto the emulated board: what `SerialPort` would be for a real one. */
export class EmulatedSerialPort extends EventEmitter implements TowerTransport {
  isOpen = false;

  constructor(
    private readonly tower: EmulatedTower,
    readonly path: string,
  ) {
    super();
  }

  open(callback?: (error: Error | null) => void): void {
    setImmediate(() => {
      if (this.tower.unplugged) {
        const error = new Error(`Error: No such file or directory, cannot open ${this.path}`);
        callback?.(error);
        return;
      }
      this.isOpen = true;
      this.tower.attach(this);
      this.emit('open');
      callback?.(null);
    });
  }

  write(data: Buffer, callback?: (error?: Error | null) => void): boolean {
    if (!this.isOpen) {
      const error = new Error('Port is not open');
      setImmediate(() => {
        callback?.(error);
        this.emit('error', error);
      });
      return false;
    }
    this.tower.receive(data);
    setImmediate(() => callback?.(null));
    return true;
  }

  close(callback?: (error?: Error | null) => void): void {
    if (!this.isOpen) {
      setImmediate(() => callback?.(new Error('Port is not open')));
      return;
    }
    this.isOpen = false;
    this.tower.detach(this);
    setImmediate(() => {
      this.emit('close');
      callback?.(null);
    });
  }

  /** The cable is pulled: the port closes with a disconnect error, and bytes not yet delivered are lost. */
  pull(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.tower.detach(this);
    const error = Object.assign(new Error('Disconnected'), { disconnected: true });
    setImmediate(() => this.emit('close', error));
  }
}

export class EmulatedTower {
  emulator!: Emulator;
  /** While true, opening the port fails as for a missing device. */
  unplugged = false;
  readonly tray: TrayModel = { restAngle: 30, toleranceDeg: 12, travelMs: 40, jammed: false };
  /** Every tower command that reached the board, in order (across reboots). */
  readonly commands: TowerCommand[] = [];
  /** How many times the tray left its seat. */
  tips = 0;
  /** How many times the board booted. */
  boots = 0;
  private readonly program: Uint16Array;
  private port: EmulatedSerialPort | null = null;
  private readonly toBoard: number[] = [];
  private readonly fromBoard: number[] = [];
  private hostSysex: number[] | null = null;
  private timer: NodeJS.Timeout | null = null;
  private wallOrigin = 0;
  private cycleOrigin = 0;
  private servoRise: number | null = null;
  private servoWidthUs: number | null = null;
  private servoLastPulse = 0;
  private trayHome = true;
  private trayChangeAt: number | null = null;
  private readonly scheduled: { atCycle: number; pin: number; high: boolean }[] = [];
  private ports = 0;

  constructor(
    hexPath: string,
    private readonly options: { readonly resetOnOpen?: boolean; readonly path?: string } = {},
  ) {
    this.program = toProgram(parseIntelHex(readFileSync(hexPath, 'utf8')));
  }

  /** The `openTransport` of the driver: a new port object for every (re)connection. */
  readonly openTransport = (): EmulatedSerialPort => new EmulatedSerialPort(this, this.options.path ?? `/dev/ttyEMU${this.ports++}`);

  /** The port open now, if any. */
  get openPort(): EmulatedSerialPort | null {
    return this.port;
  }

  /** The tray sits in its seat (the sensor reads "in place"). */
  get trayInPlace(): boolean {
    return this.trayHome;
  }

  get nowMs(): number {
    return this.emulator.nowMs;
  }

  rolls(): Extract<TowerCommand, { type: 'roll' }>[] {
    return this.commands.filter((c): c is Extract<TowerCommand, { type: 'roll' }> => c.type === 'roll');
  }

  attach(port: EmulatedSerialPort): void {
    this.port = port;
    if (!this.timer || this.options.resetOnOpen) this.boot();
  }

  detach(port: EmulatedSerialPort): void {
    if (this.port !== port) return;
    this.port = null;
    this.toBoard.length = 0; // in the USB buffer when the cable went: lost
  }

  receive(data: Buffer): void {
    for (const byte of data) this.toBoard.push(byte);
  }

  /** Presses the button (active low) for `holdMs` of emulated time. */
  pressButton(holdMs = 60): void {
    this.emulator.setPin(TOWER_PINS.BUTTON, false);
    this.scheduled.push({ atCycle: this.emulator.cycles + holdMs * CYCLES_PER_MS, pin: TOWER_PINS.BUTTON, high: true });
  }

  /** Duty cycle (0-1) of the light's PWM over the last `windowMs` of emulated time. */
  lightDuty(windowMs = 10): number {
    const from = this.emulator.cycles - windowMs * CYCLES_PER_MS;
    const pulses = this.emulator.pulses(TOWER_PINS.LIGHT, from).slice(1);
    if (pulses.length === 0) return this.emulator.output(TOWER_PINS.LIGHT) ? 1 : 0;
    return pulses.reduce((sum, p) => sum + p.widthUs / p.periodUs, 0) / pulses.length;
  }

  /** Stops the emulator. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.port = null;
  }

  private boot(): void {
    this.emulator = new Emulator(this.program.slice());
    this.boots++;
    this.emulator.setPin(TOWER_PINS.BUTTON, true);
    this.emulator.setPin(TOWER_PINS.TRAY_SENSOR, !this.trayHome);
    this.servoRise = this.servoWidthUs = null;
    this.scheduled.length = 0;
    const onByte = this.emulator.usart.onByteTransmit;
    this.emulator.usart.onByteTransmit = (byte) => {
      onByte?.(byte);
      this.fromBoard.push(byte);
    };
    const servoBit = 1 << (TOWER_PINS.TRAY_SERVO - 8);
    this.emulator.ports.B.addListener((value, oldValue) => {
      if (!((value ^ oldValue) & servoBit)) return;
      const cycles = this.emulator.cycles;
      if (value & servoBit) this.servoRise = cycles;
      else if (this.servoRise !== null) {
        this.servoWidthUs = (cycles - this.servoRise) / CYCLES_PER_US;
        this.servoLastPulse = cycles;
      }
    });
    this.wallOrigin = performance.now();
    this.cycleOrigin = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.step, 0);
  }

  private readonly step = (): void => {
    const emu = this.emulator;
    const target = this.cycleOrigin + (performance.now() - this.wallOrigin) * CYCLES_PER_MS;
    const turnEnd = emu.cycles + MAX_TURN_MS * CYCLES_PER_MS;
    if (this.toBoard.length) {
      const bytes = this.toBoard.splice(0);
      for (const byte of bytes) this.watchHost(byte);
      emu.send(bytes);
    }
    while (emu.cycles < target && emu.cycles < turnEnd) {
      emu.runCycles(CHUNK_CYCLES);
      this.afterChunk();
    }
    // Slower than real time (a busy machine): do not try to catch up more than a little.
    if (target - emu.cycles > 100 * CYCLES_PER_MS) {
      this.wallOrigin = performance.now();
      this.cycleOrigin = emu.cycles;
    }
    if (this.fromBoard.length) {
      const bytes = Buffer.from(this.fromBoard.splice(0));
      this.port?.emit('data', bytes);
    }
    this.timer = setTimeout(this.step, 1);
  };

  private afterChunk(): void {
    const emu = this.emulator;
    const now = emu.cycles;
    for (let i = this.scheduled.length - 1; i >= 0; i--) {
      const event = this.scheduled[i]!;
      if (event.atCycle <= now) {
        emu.setPin(event.pin, event.high);
        this.scheduled.splice(i, 1);
      }
    }
    // The tray: follows a servo that is pulsing; a limp servo leaves it where it is.
    const pulsing = this.servoWidthUs !== null && now - this.servoLastPulse < 45 * CYCLES_PER_MS;
    if (!pulsing) {
      this.trayChangeAt = null;
      return;
    }
    const angle = ((this.servoWidthUs! - 544) * 180) / (2400 - 544);
    const wantHome = !this.tray.jammed && Math.abs(angle - this.tray.restAngle) <= this.tray.toleranceDeg;
    const leaving = !wantHome && Math.abs(angle - this.tray.restAngle) > this.tray.toleranceDeg;
    if (wantHome === this.trayHome || (!wantHome && !leaving)) {
      this.trayChangeAt = null;
      return;
    }
    this.trayChangeAt ??= now + this.tray.travelMs * CYCLES_PER_MS;
    if (now >= this.trayChangeAt) {
      this.trayHome = wantHome;
      this.trayChangeAt = null;
      if (!wantHome) this.tips++;
      emu.setPin(TOWER_PINS.TRAY_SENSOR, !wantHome); // low = in place
    }
  }

  /** Splits what the host sends into sysex messages and keeps the tower commands. */
  private watchHost(byte: number): void {
    if (byte === 0xf0) this.hostSysex = [byte];
    else if (this.hostSysex) {
      this.hostSysex.push(byte);
      if (byte === 0xf7) {
        if (isTowerSysex(this.hostSysex)) this.commands.push(decodeTowerCommand(this.hostSysex));
        this.hostSysex = null;
      } else if (byte & 0x80) this.hostSysex = null;
    }
  }
}
