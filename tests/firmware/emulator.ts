/**
 * An Arduino Uno in avr8js for the firmware tests: the ATmega328P core, its
 * three timers, USART0 at 16 MHz, the ADC and ports B, C and D. The harness
 * steps the CPU in chunks, feeds host bytes at the line rate, collects what the
 * board sends (split into Firmata messages), drives input pins and records
 * every pin edge with its cycle count, so pulse widths can be measured.
 *
 * Pins use Arduino numbers: D0-D7 on port D, D8-D13 on port B, A0-A5 (14-19) on port C.
 * avr8js does not model pull-ups, so every input pin reads what `setPin` last
 * set; `boot()` starts the button released and the tray in place.
 */
import { readFileSync } from 'node:fs';
import {
  AVRADC,
  AVRIOPort,
  AVRTimer,
  AVRUSART,
  CPU,
  PinState,
  adcConfig,
  avrInstruction,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  usart0Config,
} from 'avr8js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import { FirmataStream, type BoardMessage } from './firmata-stream.js';
import { parseIntelHex, toProgram } from './intel-hex.js';

export const CLOCK_HZ = 16_000_000;
export const CYCLES_PER_MS = CLOCK_HZ / 1000;
export const CYCLES_PER_US = CLOCK_HZ / 1_000_000;
/** Instructions between checks of `runUntil` conditions (~0.1 ms of emulated time). */
const CHUNK_CYCLES = 1600;

export interface Edge {
  readonly pin: number;
  readonly high: boolean;
  readonly cycle: number;
}

/** One high pulse on a pin: start cycle, width and the time from the previous pulse's start. */
export interface Pulse {
  readonly start: number;
  readonly widthUs: number;
  /** Microseconds since the previous pulse began (NaN for the first). */
  readonly periodUs: number;
}

export class Emulator {
  readonly cpu: CPU;
  readonly usart: AVRUSART;
  readonly adc: AVRADC;
  readonly ports: { readonly B: AVRIOPort; readonly C: AVRIOPort; readonly D: AVRIOPort };
  /** Everything the board sent, byte by byte. */
  readonly received: number[] = [];
  readonly stream = new FirmataStream();
  /** Cycle count at which each of `messages` was complete. */
  readonly messageCycles: number[] = [];
  private readonly edgesByPin = new Map<number, Edge[]>();
  private readonly toBoard: number[] = [];
  private readonly sentAt: number[] = [];

  constructor(program: Uint16Array) {
    this.cpu = new CPU(program);
    // The timers and the ADC hook themselves into the CPU; keeping them alive is enough.
    new AVRTimer(this.cpu, timer0Config);
    new AVRTimer(this.cpu, timer1Config);
    new AVRTimer(this.cpu, timer2Config);
    this.adc = new AVRADC(this.cpu, adcConfig);
    this.usart = new AVRUSART(this.cpu, usart0Config, CLOCK_HZ);
    this.ports = {
      B: new AVRIOPort(this.cpu, portBConfig),
      C: new AVRIOPort(this.cpu, portCConfig),
      D: new AVRIOPort(this.cpu, portDConfig),
    };
    this.usart.onByteTransmit = (byte) => {
      this.received.push(byte);
      if (this.stream.push(byte)) this.messageCycles.push(this.cpu.cycles);
    };
    this.keepUnreadRxByte();
    this.watch(this.ports.D, 0);
    this.watch(this.ports.B, 8);
    this.watch(this.ports.C, 14);
  }

  /**
   * Works around an avr8js 0.21 USART quirk. A write to UCSR0A clears the RXC
   * flag (read-only on the real chip) and a write to UCSR0B drops a pending
   * receive interrupt. Arduino's HardwareSerial writes both for every byte it
   * sends, so a host byte that arrived while the board was sending, and that the
   * receive ISR had not read yet, was lost. While a received byte is unread, the
   * flag is raised again after such writes, as the hardware would keep it.
   */
  private keepUnreadRxByte(): void {
    const { cpu } = this;
    const { UCSRA, UCSRB, UDR, rxCompleteInterrupt } = usart0Config;
    const RXC = 0x80;
    const rxc: Parameters<CPU['setInterruptFlag']>[0] = {
      address: rxCompleteInterrupt,
      flagRegister: UCSRA,
      flagMask: RXC,
      enableRegister: UCSRB,
      enableMask: RXC, // RXCIE0
      constant: true,
    };
    let unread = false;
    const readUdr = cpu.readHooks[UDR]!;
    cpu.readHooks[UDR] = (address) => {
      unread = false;
      return readUdr(address);
    };
    for (const register of [UCSRA, UCSRB]) {
      const write = cpu.writeHooks[register]!;
      cpu.writeHooks[register] = (value, oldValue, address, mask) => {
        const handled = write(value, oldValue, address, mask);
        if (unread) cpu.setInterruptFlag(rxc);
        return handled;
      };
    }
    this.usart.onRxComplete = () => {
      unread = true;
      // The next host byte as soon as this one is in: back to back, at the line rate.
      this.feed();
    };
  }

  static fromHexFile(path: string): Emulator {
    return new Emulator(toProgram(parseIntelHex(readFileSync(path, 'utf8'))));
  }

  /** Starts the board with the button released and the tray in place, and runs until it has announced itself. */
  static boot(hexPath: string): Emulator {
    const board = Emulator.fromHexFile(hexPath);
    board.setPin(TOWER_PINS.BUTTON, true);
    board.setPin(TOWER_PINS.TRAY_SENSOR, false);
    board.runUntil(() => board.messages.some((m) => m.type === 'sysex' && m.id === 0x79), 200);
    return board;
  }

  get cycles(): number {
    return this.cpu.cycles;
  }

  get nowMs(): number {
    return this.cpu.cycles / CYCLES_PER_MS;
  }

  get messages(): readonly BoardMessage[] {
    return this.stream.messages;
  }

  private watch(port: AVRIOPort, firstPin: number): void {
    port.addListener((value, oldValue) => {
      const changed = value ^ oldValue;
      for (let bit = 0; bit < 8; bit++) {
        if (!(changed & (1 << bit))) continue;
        const pin = firstPin + bit;
        let list = this.edgesByPin.get(pin);
        if (!list) this.edgesByPin.set(pin, (list = []));
        list.push({ pin, high: !!(value & (1 << bit)), cycle: this.cpu.cycles });
      }
    });
  }

  private portOf(pin: number): [AVRIOPort, number] {
    if (pin < 8) return [this.ports.D, pin];
    if (pin < 14) return [this.ports.B, pin - 8];
    if (pin < 20) return [this.ports.C, pin - 14];
    throw new RangeError(`no pin ${pin} on an Uno`);
  }

  /** Drives an input pin from outside (true = high). */
  setPin(pin: number, high: boolean): void {
    const [port, bit] = this.portOf(pin);
    port.setPin(bit, high);
  }

  /** The level the board drives on an output pin (or its timer does); undefined for an input. */
  output(pin: number): boolean | undefined {
    const [port, bit] = this.portOf(pin);
    const state = port.pinState(bit);
    return state === PinState.High ? true : state === PinState.Low ? false : undefined;
  }

  edges(pin: number, fromCycle = 0): Edge[] {
    return (this.edgesByPin.get(pin) ?? []).filter((e) => e.cycle >= fromCycle);
  }

  /** Complete high pulses on a pin that started at or after `fromCycle`. */
  pulses(pin: number, fromCycle = 0): Pulse[] {
    const pulses: Pulse[] = [];
    let rise: number | undefined;
    let lastStart = NaN;
    for (const edge of this.edges(pin, fromCycle)) {
      if (edge.high) {
        rise = edge.cycle;
      } else if (rise !== undefined) {
        pulses.push({ start: rise, widthUs: (edge.cycle - rise) / CYCLES_PER_US, periodUs: (rise - lastStart) / CYCLES_PER_US });
        lastStart = rise;
        rise = undefined;
      }
    }
    return pulses;
  }

  /** Queues bytes for the board; they go out back to back at the board's baud rate. */
  send(bytes: ArrayLike<number>): void {
    for (let i = 0; i < bytes.length; i++) this.toBoard.push(bytes[i]!);
    if (!this.usart.rxBusy) this.feed();
  }

  /** Bytes still waiting to go to the board. */
  get sending(): number {
    return this.toBoard.length;
  }

  /** Cycle counts at which each host byte started on the line. */
  get hostByteCycles(): readonly number[] {
    return this.sentAt;
  }

  private feed(): void {
    if (this.toBoard.length === 0 || this.usart.rxBusy) return;
    if (this.usart.writeByte(this.toBoard[0]!)) {
      this.toBoard.shift();
      this.sentAt.push(this.cpu.cycles);
    }
  }

  runCycles(count: number): void {
    const { cpu } = this;
    const end = cpu.cycles + count;
    while (cpu.cycles < end) {
      avrInstruction(cpu);
      cpu.tick();
    }
    // Serial is off until setup() enables the receiver: retry what could not go out.
    if (this.toBoard.length && !this.usart.rxBusy) this.feed();
  }

  run(ms: number): void {
    this.runCycles(Math.round(ms * CYCLES_PER_MS));
  }

  /** Runs until `done()` holds (checked every ~0.1 ms); throws after `timeoutMs` of emulated time. */
  runUntil(done: () => boolean, timeoutMs: number): void {
    const end = this.cpu.cycles + timeoutMs * CYCLES_PER_MS;
    while (!done()) {
      if (this.cpu.cycles >= end) throw new Error(`condition not met within ${timeoutMs} ms of emulated time`);
      this.runCycles(CHUNK_CYCLES);
    }
  }

  /** Sends bytes and runs until all of them have been received by the board, plus `settleMs`. */
  transmit(bytes: ArrayLike<number>, settleMs = 2): void {
    this.send(bytes);
    this.runUntil(() => this.sending === 0 && !this.usart.rxBusy, 1000);
    this.run(settleMs);
  }

  /** Runs until a message arrives that was not there before and matches; returns it. */
  /** Emulated milliseconds at which a message (one of `messages`) arrived. */
  arrivedMs(message: BoardMessage): number {
    const index = this.messages.indexOf(message);
    if (index < 0) throw new Error('not a message from this board');
    return this.messageCycles[index]! / CYCLES_PER_MS;
  }

  waitFor<M extends BoardMessage>(match: (m: BoardMessage) => m is M, timeoutMs: number): M;
  waitFor(match: (m: BoardMessage) => boolean, timeoutMs: number): BoardMessage;
  waitFor(match: (m: BoardMessage) => boolean, timeoutMs: number): BoardMessage {
    let next = this.messages.length;
    let found: BoardMessage | undefined;
    this.runUntil(() => {
      for (; next < this.messages.length && !found; next++) if (match(this.messages[next]!)) found = this.messages[next];
      return found !== undefined;
    }, timeoutMs);
    return found!;
  }
}
