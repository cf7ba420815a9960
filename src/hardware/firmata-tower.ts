/**
 * The real tower: a johnny-five board over firmata-io, on any transport (a
 * serialport `SerialPort` in production, an emulated board in the tests).
 *
 * Two ways to drive it, chosen by the firmware name the board reports:
 *
 * - **`DiceTower`** (our firmware, `firmware/`): the board times the roll cycle
 *   itself. The driver sends ROLL with a cycle id and waits for CYCLE_DONE or
 *   FAULT, sets the light, and sends QUERY_STATUS every `heartbeatMs` so that
 *   the board's silent-host safety does not trip (and to notice a board that
 *   stopped answering).
 * - **any other firmware** (stock StandardFirmata): the driver times the cycle
 *   from the host with servo writes and reads the tray sensor and the button
 *   through digital reporting. The board must have SERVO on the tray servo pin,
 *   or `connect()` fails with `tower/wrong_firmware`.
 *
 * When the port closes (USB pulled) the roll in flight is rejected with
 * `tower/disconnected`, `disconnect` fires, and the driver reopens the port
 * (discovering it again) with a growing delay until it has the board back;
 * then `connect` fires. A roll cycle whose end was not heard is remembered by
 * its cycle id: the next `roll()` first asks the board for its status, and
 * does not send the cycle again when the board has run it (or is running it).
 */
import five, { type Board } from 'johnny-five';
import firmataIo, { type Firmata } from 'firmata-io';
import {
  TOWER_CMD,
  TOWER_FAULT,
  TOWER_FIRMWARE,
  TOWER_FLAG,
  TOWER_LIMITS,
  TOWER_PINS,
  TOWER_REJECT,
  TOWER_STATE,
  TOWER_SYSEX,
  MAX_FIELD,
  START_SYSEX,
  END_SYSEX,
  decodeTowerReport,
  encodeTowerCommand,
  type TowerCommand,
  type TowerReport,
} from './tower-protocol.js';
import { TowerError } from './types.js';
import {
  TOWER_ERROR,
  TowerEventHub,
  towerError,
  type HardwareTower,
  type TowerErrorCode,
  type TowerEventName,
  type TowerListener,
  type TowerMode,
} from './tower.js';

/**
 * What firmata-io needs from a transport, and what the driver needs to open and
 * close it. A serialport `SerialPort` (created with `autoOpen: false`) is one.
 * It emits `open`, `data` (Buffers), `close` and `error`.
 */
// Node's EventEmitter types listeners with `any[]`; `unknown[]` or `never[]` would not accept a SerialPort.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TransportListener = (...args: any[]) => void;

export interface TowerTransport {
  readonly isOpen: boolean;
  readonly path?: string;
  open(callback?: (error: Error | null) => void): void;
  close(callback?: (error?: Error | null) => void): void;
  write(data: Buffer, callback?: (error?: Error | null) => void): unknown;
  on(event: string, listener: TransportListener): unknown;
  removeListener(event: string, listener: TransportListener): unknown;
}

export interface TowerPinMap {
  readonly button: number;
  readonly traySensor: number;
  readonly light: number;
  readonly trayServo: number;
}

export interface FirmataTowerOptions {
  /** Makes a new, unopened transport; called again at every reconnection. */
  readonly openTransport: () => TowerTransport | Promise<TowerTransport>;
  /** Firmata pin numbers; `TOWER_PINS` by default. */
  readonly pins?: Partial<TowerPinMap>;
  /** Servo angle (degrees) that tips the tray. */
  readonly tipAngle?: number;
  /** Servo angle (degrees) of the tray at rest. */
  readonly restAngle?: number;
  /** Time from the tip command to the return command (includes the servo's travel). */
  readonly holdMs?: number;
  /** Time the tray has to be back in place after the return command, or the cycle is a jam. */
  readonly returnTimeoutMs?: number;
  /** Servo pulse range for the host-driven mode (µs), as `Servo.attach(pin, min, max)`. */
  readonly servoMinUs?: number;
  readonly servoMaxUs?: number;
  /** The board's silent-host timeout, sent with CONFIGURE (0 turns the safety off). */
  readonly silentTimeoutMs?: number;
  /** The light level the board dims to when the host goes silent. */
  readonly dimLevel?: number;
  /** How often the driver pings the board; must be well below `silentTimeoutMs`. */
  readonly heartbeatMs?: number;
  /** The board counts as gone when nothing came from it for this long (while connected). */
  readonly answerTimeoutMs?: number;
  /** Extra time, beyond hold + return, for the cycle's report to arrive. */
  readonly answerMarginMs?: number;
  /** Time from opening the port to johnny-five's `ready` (the Uno's bootloader alone takes ~1.5 s). */
  readonly readyTimeoutMs?: number;
  /** When the board has not announced itself after this long, ask it for its version (a board that did not reset). */
  readonly reportVersionTimeoutMs?: number;
  /** Delays between reconnection attempts: `initialMs`, doubling up to `maxMs`. `false` turns reconnection off. */
  readonly reconnect?: { readonly initialMs?: number; readonly maxMs?: number } | false;
  /** Host-driven mode: presses closer together than this are one press. */
  readonly buttonDebounceMs?: number;
  /** Host-driven mode: the tray sensor must read "in place" this long to count. */
  readonly traySettleMs?: number;
}

export const FIRMATA_TOWER_DEFAULTS = {
  pins: {
    button: TOWER_PINS.BUTTON,
    traySensor: TOWER_PINS.TRAY_SENSOR,
    light: TOWER_PINS.LIGHT,
    trayServo: TOWER_PINS.TRAY_SERVO,
  },
  tipAngle: 150,
  restAngle: 30,
  holdMs: 800,
  returnTimeoutMs: 1500,
  servoMinUs: 544,
  servoMaxUs: 2400,
  silentTimeoutMs: TOWER_LIMITS.DEFAULT_SILENT_MS,
  dimLevel: TOWER_LIMITS.DEFAULT_DIM_LEVEL,
  heartbeatMs: 1000,
  answerTimeoutMs: 3500,
  answerMarginMs: 1000,
  readyTimeoutMs: 10_000,
  reportVersionTimeoutMs: 2500,
  reconnect: { initialMs: 500, maxMs: 10_000 },
  buttonDebounceMs: TOWER_LIMITS.BUTTON_DEBOUNCE_MS,
  traySettleMs: TOWER_LIMITS.TRAY_SETTLE_MS,
} as const;

type Settings = Omit<Required<FirmataTowerOptions>, 'pins' | 'reconnect'> & {
  readonly pins: TowerPinMap;
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number } | false;
};

type Status = Extract<TowerReport, { type: 'status' }>;

/** One open connection to a ready board. Replaced at every reconnection. */
interface Link {
  readonly transport: TowerTransport;
  readonly io: Firmata;
  readonly board: Board;
  readonly firmware: string;
  /** The firmware's version as it reported it (`2.5`), or null when it gave none. */
  readonly version: string | null;
  readonly mode: TowerMode;
  readonly path: string | null;
  lastHeardAt: number;
  heartbeat: NodeJS.Timeout | null;
  status: Status | null;
  readonly statusWaiters: Set<{ resolve: (s: Status) => void; reject: (e: TowerError) => void }>;
  readonly detach: (() => void)[];
  /** Host-driven mode: when the tray sensor last started reading "in place" (null: away or unknown). */
  trayInPlaceSince: number | null;
  servoLimp: boolean;
  lightReady: boolean;
}

interface PendingCycle {
  readonly cycleId: number;
  resolve(): void;
  reject(error: TowerError): void;
}

const HOST_SILENT_MESSAGE = 'The board heard nothing from the host for its timeout: it returned the tray to rest and dimmed the light.';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Routes tower sysex reports to the link of the firmata-io instance they came in on. */
const ROUTES = Symbol.for('dice-tower/tower-sysex-routes');
type RouteTable = WeakMap<Firmata, (data: number[]) => void>;

function towerRoutes(io: Firmata): RouteTable {
  // firmata-io keeps sysex handlers in one table for the whole process (and
  // refuses a second handler for an id), so one router serves every board.
  const table = firmataIo.Firmata.SYSEX_RESPONSE as Record<number, unknown>;
  const existing = table[TOWER_SYSEX] as { [ROUTES]?: RouteTable } | undefined;
  if (existing?.[ROUTES]) return existing[ROUTES];
  const routes: RouteTable = new WeakMap();
  if (existing) io.clearSysexResponse(TOWER_SYSEX);
  io.sysexResponse(TOWER_SYSEX, function (this: Firmata, data: number[]) {
    routes.get(this)?.(data);
  });
  Object.assign(table[TOWER_SYSEX] as object, { [ROUTES]: routes });
  return routes;
}

function settingsOf(options: FirmataTowerOptions): Settings {
  const d = FIRMATA_TOWER_DEFAULTS;
  const reconnect = options.reconnect === false ? false : { ...d.reconnect, ...options.reconnect };
  const s: Settings = {
    openTransport: options.openTransport,
    pins: { ...d.pins, ...options.pins },
    tipAngle: options.tipAngle ?? d.tipAngle,
    restAngle: options.restAngle ?? d.restAngle,
    holdMs: options.holdMs ?? d.holdMs,
    returnTimeoutMs: options.returnTimeoutMs ?? d.returnTimeoutMs,
    servoMinUs: options.servoMinUs ?? d.servoMinUs,
    servoMaxUs: options.servoMaxUs ?? d.servoMaxUs,
    silentTimeoutMs: options.silentTimeoutMs ?? d.silentTimeoutMs,
    dimLevel: options.dimLevel ?? d.dimLevel,
    heartbeatMs: options.heartbeatMs ?? d.heartbeatMs,
    answerTimeoutMs: options.answerTimeoutMs ?? d.answerTimeoutMs,
    answerMarginMs: options.answerMarginMs ?? d.answerMarginMs,
    readyTimeoutMs: options.readyTimeoutMs ?? d.readyTimeoutMs,
    reportVersionTimeoutMs: options.reportVersionTimeoutMs ?? d.reportVersionTimeoutMs,
    reconnect,
    buttonDebounceMs: options.buttonDebounceMs ?? d.buttonDebounceMs,
    traySettleMs: options.traySettleMs ?? d.traySettleMs,
  };
  const field = (name: string, value: number, max = MAX_FIELD) => {
    if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`FirmataTower: ${name} = ${value} is not an integer in 0..${max}`);
  };
  field('tipAngle', s.tipAngle, TOWER_LIMITS.MAX_ANGLE);
  field('restAngle', s.restAngle, TOWER_LIMITS.MAX_ANGLE);
  field('holdMs', s.holdMs);
  field('returnTimeoutMs', s.returnTimeoutMs);
  field('silentTimeoutMs', s.silentTimeoutMs);
  field('dimLevel', s.dimLevel, TOWER_LIMITS.MAX_LEVEL);
  if (s.silentTimeoutMs > 0 && s.heartbeatMs * 2 > s.silentTimeoutMs) {
    throw new RangeError(`FirmataTower: heartbeatMs (${s.heartbeatMs}) must be at most half of silentTimeoutMs (${s.silentTimeoutMs})`);
  }
  if (s.silentTimeoutMs > 0 && s.holdMs + s.returnTimeoutMs + s.heartbeatMs >= s.silentTimeoutMs) {
    // Then a cycle always ends (done or jam) before the board can abandon it for a silent host,
    // so after a disconnect the board's last cycle id tells without doubt whether it ran.
    throw new RangeError(
      `FirmataTower: holdMs + returnTimeoutMs + heartbeatMs (${s.holdMs + s.returnTimeoutMs + s.heartbeatMs}) must be below silentTimeoutMs (${s.silentTimeoutMs})`,
    );
  }
  if (s.answerTimeoutMs <= s.heartbeatMs) {
    throw new RangeError(`FirmataTower: answerTimeoutMs (${s.answerTimeoutMs}) must be longer than heartbeatMs (${s.heartbeatMs})`);
  }
  return s;
}

function openError(error: Error, path: string | null): TowerError {
  const where = path ?? 'the serial port';
  if (/no such file|ENOENT|does not exist|not found/i.test(error.message)) {
    return towerError(TOWER_ERROR.PORT_NOT_FOUND, `There is no serial port ${where} (${error.message}).`);
  }
  return towerError(TOWER_ERROR.OPEN_FAILED, `Could not open ${where}: ${error.message}`);
}

/** The error for a fault; `cycleId` is null for a cycle timed by the host. */
function faultError(code: number, cycleId: number | null): TowerError {
  const cycle = cycleId === null ? 'Roll cycle' : `Roll cycle ${cycleId}`;
  if (code === TOWER_FAULT.TRAY_STUCK) {
    return towerError(TOWER_ERROR.TRAY_STUCK, `${cycle}: the tray never left its seat (tray sensor still "in place" after the hold).`);
  }
  return towerError(TOWER_ERROR.JAM, `${cycle}: the tray did not come back in place in time (jam). The servo is limp; clear the tray and roll again.`);
}

export class FirmataTower implements HardwareTower {
  readonly kind = 'firmata';
  /** Fixed when made, but for the tray's angles (setAngles). */
  private settings: Settings;
  private readonly events = new TowerEventHub();
  private link: Link | null = null;
  private closed = false;
  private rolling = false;
  private pending: PendingCycle | null = null;
  /** A cycle sent to the board whose end the driver did not hear (disconnect, timeout). */
  private interrupted: number | null = null;
  private nextCycleId = 1;
  private firstConnect = true;
  private lightLevel: number | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;

  constructor(options: FirmataTowerOptions) {
    this.settings = settingsOf(options);
  }

  get connected(): boolean {
    return this.link !== null;
  }

  /** `tower-sysex` or `host-driven` while connected, else null. */
  get mode(): TowerMode | null {
    return this.link?.mode ?? null;
  }

  /** The firmware name the board reported, while connected. */
  get firmware(): string | null {
    return this.link?.firmware ?? null;
  }

  /** The firmware's version the board reported (`2.5`), while connected. */
  get firmwareVersion(): string | null {
    return this.link?.version ?? null;
  }

  /**
   * Whether the tray sits in its seat, as last heard (the tray sensor: read
   * live in host-driven mode, from the status the heartbeat asks for with our
   * firmware); null while not connected or not heard yet.
   */
  get trayInPlace(): boolean | null {
    const link = this.link;
    if (!link) return null;
    if (link.mode === 'host-driven') return link.trayInPlaceSince !== null;
    return link.status ? (link.status.flags & TOWER_FLAG.TRAY_IN_PLACE) !== 0 : null;
  }

  /** The serial port of the board, while connected (the setup page shows it). */
  get path(): string | null {
    return this.link?.path ?? null;
  }

  on<E extends TowerEventName>(event: E, listener: TowerListener<E>): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Opens the port and waits for the board to be ready. Rejects with
   * `tower/port_not_found`, `tower/open_failed`, `tower/no_answer` or
   * `tower/wrong_firmware`; the driver does not retry a first connection.
   */
  async connect(): Promise<void> {
    if (this.closed) throw towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed.');
    if (this.link) return;
    const link = await this.open();
    this.adopt(link);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const link = this.link;
    this.link = null;
    this.failPending(towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed during the roll.'));
    if (link) {
      this.teardown(link, towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed.'));
      await new Promise<void>((resolve) => {
        if (!link.transport.isOpen) return resolve();
        link.transport.close(() => resolve());
      });
    }
  }

  /**
   * New tray angles, for the next roll cycle (each cycle's command carries
   * them to our firmware); in host-driven mode a tray at rest is moved to the
   * new rest angle now. Throws a RangeError for an angle out of 0-180.
   */
  setAngles(tipAngle: number, restAngle: number): void {
    this.settings = settingsOf({ ...this.settings, tipAngle, restAngle });
    const link = this.link;
    if (link?.mode === 'host-driven' && !this.rolling) link.io.servoWrite(this.settings.pins.trayServo, restAngle);
  }

  /** The tray's angles the next cycle uses. */
  get angles(): { readonly tipAngle: number; readonly restAngle: number } {
    return { tipAngle: this.settings.tipAngle, restAngle: this.settings.restAngle };
  }

  async setLight(level: number): Promise<void> {
    if (!Number.isInteger(level) || level < 0 || level > TOWER_LIMITS.MAX_LEVEL) {
      throw new RangeError(`setLight: ${level} is not an integer in 0..${TOWER_LIMITS.MAX_LEVEL}`);
    }
    const link = this.requireLink('set the light');
    this.applyLight(link, level);
    this.lightLevel = level;
  }

  async roll(count: number): Promise<void> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`roll: ${count} is not a positive number of dice`);
    if (this.closed) throw towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed.');
    if (this.rolling) throw towerError(TOWER_ERROR.BUSY, 'The tower is already rolling.');
    const link = this.requireLink('roll');
    this.rolling = true;
    try {
      if (link.mode === 'tower-sysex') await this.rollOnBoard(link);
      else await this.rollFromHost(link);
    } finally {
      this.rolling = false;
    }
  }

  // ---- connection ------------------------------------------------------------

  private requireLink(what: string): Link {
    if (this.closed) throw towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed.');
    if (!this.link) throw towerError(TOWER_ERROR.DISCONNECTED, `The tower is disconnected (reconnecting), so it cannot ${what} now.`);
    return this.link;
  }

  /** Opens a transport, waits for johnny-five's `ready`, and sets the board up. */
  private async open(): Promise<Link> {
    const s = this.settings;
    const transport = await s.openTransport();
    const path = transport.path ?? null;
    const where = path ?? 'the serial port';
    const io = new firmataIo.Firmata(transport, { reportVersionTimeout: s.reportVersionTimeoutMs });
    const board = new five.Board({ io, repl: false, debug: false, sigint: false, timeout: s.readyTimeoutMs + 60_000 });
    const swallow = () => {};
    io.on('error', swallow);
    board.on('error', swallow);

    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const heard = io.version.major !== undefined;
        const detail = !heard
          ? 'nothing came back (no Firmata version report)'
          : !io.firmware.name
            ? `it reported Firmata ${io.version.major}.${io.version.minor} but never its firmware name`
            : `firmware "${io.firmware.name}" did not finish the capability queries`;
        fail(
          towerError(
            TOWER_ERROR.NO_ANSWER,
            `The board on ${where} did not answer within ${s.readyTimeoutMs} ms: ${detail}. ` +
              'Is it flashed with the tower firmware (make -C firmware upload) or StandardFirmata, at 57 600 baud?',
          ),
        );
      }, s.readyTimeoutMs);
      const onClose = () => fail(towerError(TOWER_ERROR.DISCONNECTED, `${where} closed while connecting to the board.`));
      const cleanup = () => {
        clearTimeout(timer);
        transport.removeListener('close', onClose);
      };
      const fail = (error: TowerError) => {
        cleanup();
        reject(error);
      };
      transport.on('close', onClose);
      board.once('ready', () => {
        cleanup();
        resolve();
      });
      if (transport.isOpen) {
        // Already open: firmata-io missed `open`, which johnny-five waits for.
        io.emit('open');
        io.emit('connect');
      } else {
        transport.open((error) => {
          if (error) fail(openError(error, path));
        });
      }
    });

    try {
      await ready;
      return await this.setUp(transport, io, board, path);
    } catch (error) {
      // Stop the timers firmata-io and johnny-five left running for this attempt.
      clearTimeout((io as unknown as { reportVersionTimeoutId?: NodeJS.Timeout }).reportVersionTimeoutId);
      clearTimeout((board as unknown as { timer?: NodeJS.Timeout }).timer);
      this.closeQuietly(transport);
      throw error;
    }
  }

  private async setUp(transport: TowerTransport, io: Firmata, board: Board, path: string | null): Promise<Link> {
    const s = this.settings;
    const name = (io.firmware.name ?? '').replace(/\0+$/, '');
    const version = io.firmware.version;
    const ours = name === TOWER_FIRMWARE.NAME;
    if (ours && version && version.major !== TOWER_FIRMWARE.MAJOR) {
      throw towerError(
        TOWER_ERROR.WRONG_FIRMWARE,
        `The board runs ${name} ${version.major}.${version.minor}; this driver speaks version ${TOWER_FIRMWARE.MAJOR}. Flash firmware/ again (make -C firmware upload).`,
      );
    }
    const link: Link = {
      transport, io, board, path,
      firmware: name,
      version: version ? `${version.major}.${version.minor}` : null,
      mode: ours ? 'tower-sysex' : 'host-driven',
      lastHeardAt: Date.now(),
      heartbeat: null,
      status: null,
      statusWaiters: new Set(),
      detach: [],
      trayInPlaceSince: null,
      servoLimp: false,
      lightReady: false,
    };
    const listen = (event: string, listener: TransportListener) => {
      transport.on(event, listener);
      link.detach.push(() => transport.removeListener(event, listener));
    };
    listen('data', () => {
      link.lastHeardAt = Date.now();
    });
    const lost = (error?: Error | null) => {
      const detail = error?.message ? ` (${error.message})` : '';
      this.lost(link, towerError(TOWER_ERROR.DISCONNECTED, `The tower's serial port ${path ?? ''} closed${detail}.`.replace('  ', ' ')));
    };
    listen('close', lost);
    listen('error', (error: Error) => {
      if (!transport.isOpen) lost(error);
    });

    if (link.mode === 'tower-sysex') {
      const routes = towerRoutes(io);
      routes.set(io, (data) => this.onTowerSysex(link, data));
      link.detach.push(() => routes.delete(io));
      this.command(link, { type: 'configure', silentTimeoutMs: s.silentTimeoutMs, dimLevel: s.dimLevel });
      const status = await this.queryStatus(link, s.answerTimeoutMs);
      if (this.firstConnect) this.nextCycleId = nextId(status.lastCycleId);
      else if (this.nextCycleId === status.lastCycleId) this.nextCycleId = nextId(this.nextCycleId);
    } else {
      this.setUpHostDriven(link, name);
    }
    // A board that restarts with the port still open (reset button, a power dip from the servo) announces its
    // firmware again, and has forgotten its pin modes, reports and light: set it up afresh, as after an unplug.
    const restarted = () => this.lost(link, towerError(TOWER_ERROR.DISCONNECTED, 'The board restarted (reset or power dip); setting it up again.'));
    io.on('queryfirmware', restarted);
    link.detach.push(() => io.removeListener('queryfirmware', restarted));
    link.heartbeat = setInterval(() => this.beat(link), s.heartbeatMs);
    return link;
  }

  private setUpHostDriven(link: Link, name: string): void {
    const { io } = link;
    const { pins, servoMinUs, servoMaxUs, restAngle } = this.settings;
    const modes = (pin: number) => io.pins[pin]?.supportedModes ?? [];
    const described = name ? `firmware "${name}"` : 'firmware with no name';
    if (!modes(pins.trayServo).includes(io.MODES.SERVO)) {
      throw towerError(
        TOWER_ERROR.WRONG_FIRMWARE,
        `The board runs ${described}, which is neither the tower firmware nor one with a servo on pin ${pins.trayServo}, ` +
          'so the driver cannot tip the tray. Flash firmware/ (make -C firmware upload) or StandardFirmata.',
      );
    }
    const inputMode = (pin: number) =>
      modes(pin).includes(io.MODES.PULLUP) ? io.MODES.PULLUP : modes(pin).includes(io.MODES.INPUT) ? io.MODES.INPUT : null;
    const trayMode = inputMode(pins.traySensor);
    if (trayMode === null) {
      throw towerError(TOWER_ERROR.WRONG_FIRMWARE, `The board runs ${described}, and its pin ${pins.traySensor} (tray sensor) cannot be a digital input.`);
    }
    io.servoConfig(pins.trayServo, servoMinUs, servoMaxUs);
    io.servoWrite(pins.trayServo, restAngle);
    io.pinMode(pins.traySensor, trayMode);
    // Both pins are inputs before their port is reported: a report sent while the button's pin was not yet an input would read
    // it low, a press nobody made.
    const buttonMode = inputMode(pins.button);
    if (buttonMode !== null) io.pinMode(pins.button, buttonMode);
    // Low = tray in place (sensor to GND, pull-up).
    io.digitalRead(pins.traySensor, (value) => {
      if (value === 0) link.trayInPlaceSince ??= Date.now();
      else link.trayInPlaceSince = null;
    });
    if (buttonMode !== null) {
      let last = 1;
      let lastPress = -Infinity;
      io.digitalRead(pins.button, (value) => {
        const now = Date.now();
        if (value === 0 && last === 1 && now - lastPress >= this.settings.buttonDebounceMs) {
          lastPress = now;
          this.events.emit('button', { at: now });
        }
        last = value;
      });
    }
  }

  /** Makes `link` the current connection and announces it. */
  private adopt(link: Link): void {
    this.link = link;
    this.firstConnect = false;
    this.reconnectAttempt = 0;
    if (this.lightLevel !== null) {
      try {
        this.applyLight(link, this.lightLevel); // the board may have reset, or dimmed the light while the host was away
      } catch {
        // A board without a PWM light: setLight() reports it to its caller.
      }
    }
    this.events.emit('connect', { firmware: link.firmware, mode: link.mode, path: link.path });
  }

  /** The link went down: fail what waits on it, tell the listeners, and start reconnecting. */
  private lost(link: Link, error: TowerError): void {
    if (this.link !== link) return;
    this.link = null;
    this.teardown(link, error);
    this.closeQuietly(link.transport);
    const after =
      link.mode === 'tower-sysex'
        ? 'once the tower is back, the next roll checks whether the board finished it before rolling again.'
        : 'the host was timing it, so the next roll runs a new cycle.';
    this.failPending(towerError(error.code as TowerErrorCode, `${error.message} The roll in progress was interrupted; ${after}`));
    this.events.emit('disconnect', { error });
    this.scheduleReconnect();
  }

  private teardown(link: Link, error: TowerError): void {
    if (link.heartbeat) clearInterval(link.heartbeat);
    link.heartbeat = null;
    for (const detach of link.detach.splice(0)) detach();
    for (const waiter of [...link.statusWaiters]) waiter.reject(error);
    link.statusWaiters.clear();
  }

  private scheduleReconnect(): void {
    const policy = this.settings.reconnect;
    if (this.closed || !policy || this.reconnectTimer) return;
    const delay = Math.min(policy.initialMs * 2 ** this.reconnectAttempt, policy.maxMs);
    this.reconnectAttempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      this.open().then(
        (link) => {
          if (this.closed) {
            this.teardown(link, towerError(TOWER_ERROR.CLOSED, 'The tower driver was closed.'));
            this.closeQuietly(link.transport);
          } else {
            this.adopt(link);
          }
        },
        () => this.scheduleReconnect(),
      );
    }, delay);
  }

  private closeQuietly(transport: TowerTransport): void {
    try {
      if (transport.isOpen) transport.close(() => {});
    } catch {
      // Already closing or gone: nothing to do.
    }
  }

  /** Heartbeat: keeps the board's silent-host safety quiet, and notices a board that stopped answering. */
  private beat(link: Link): void {
    if (this.link !== link) return;
    const silence = Date.now() - link.lastHeardAt;
    if (silence > this.settings.answerTimeoutMs) {
      this.lost(link, towerError(TOWER_ERROR.NO_ANSWER, `The board stopped answering (nothing for ${silence} ms).`));
      return;
    }
    try {
      if (link.mode === 'tower-sysex') this.command(link, { type: 'queryStatus' });
      else link.io.reportVersion(() => {});
    } catch {
      // A write to a port that is going away; its close event follows.
    }
  }

  // ---- the tower sysex -------------------------------------------------------

  private command(link: Link, command: TowerCommand): void {
    const bytes = encodeTowerCommand(command);
    link.io.sysexCommand(Array.from(bytes.subarray(1, -1)));
  }

  private queryStatus(link: Link, timeoutMs: number): Promise<Status> {
    return new Promise<Status>((resolve, reject) => {
      const waiter = {
        resolve: (status: Status) => {
          clearTimeout(timer);
          link.statusWaiters.delete(waiter);
          resolve(status);
        },
        reject: (error: TowerError) => {
          clearTimeout(timer);
          link.statusWaiters.delete(waiter);
          reject(error);
        },
      };
      const timer = setTimeout(
        () => waiter.reject(towerError(TOWER_ERROR.NO_ANSWER, `The board did not answer a status query within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      link.statusWaiters.add(waiter);
      this.command(link, { type: 'queryStatus' });
    });
  }

  private onTowerSysex(link: Link, data: number[]): void {
    let report: TowerReport;
    try {
      report = decodeTowerReport([START_SYSEX, TOWER_SYSEX, ...data, END_SYSEX]);
    } catch {
      return; // a report from a newer firmware, or line noise: not ours to act on
    }
    switch (report.type) {
      case 'status':
        link.status = report;
        for (const waiter of [...link.statusWaiters]) waiter.resolve(report);
        return;
      case 'cycleDone':
        if (this.interrupted === report.cycleId) this.interrupted = null;
        if (this.pending?.cycleId === report.cycleId) this.pending.resolve();
        return;
      case 'fault': {
        const error = faultError(report.faultCode, report.cycleId);
        if (link.status) link.status = { ...link.status, state: TOWER_STATE.FAULT, lastFault: report.faultCode };
        if (this.interrupted === report.cycleId) this.interrupted = null;
        if (this.pending?.cycleId === report.cycleId) this.pending.reject(error);
        this.events.emit('fault', error);
        return;
      }
      case 'buttonPressed':
        this.events.emit('button', { at: Date.now() });
        return;
      case 'hostSilent': {
        const error = towerError(TOWER_ERROR.HOST_SILENT, HOST_SILENT_MESSAGE);
        // The board abandoned a running cycle: it did not finish it, so the next roll runs a new one.
        if (this.pending) this.pending.reject(error);
        this.interrupted = null;
        this.events.emit('fault', error);
        return;
      }
      case 'rejected':
        if (report.command === TOWER_CMD.ROLL && this.pending) this.pending.reject(rejectedError(report.reason));
        return;
    }
  }

  /** The roll cycle, timed by the board. */
  private async rollOnBoard(link: Link): Promise<void> {
    const s = this.settings;
    let cycleId: number;
    if (this.interrupted !== null) {
      cycleId = this.interrupted;
      const status = await this.queryStatus(link, s.answerTimeoutMs);
      if (status.lastCycleId === cycleId) {
        this.interrupted = null;
        if (status.state === TOWER_STATE.READY) return; // it ran while the driver was away: the dice are in the tray
        if (status.state === TOWER_STATE.FAULT) throw faultError(status.lastFault, cycleId);
        return this.awaitCycle(link, cycleId, null); // still running: wait for its end
      }
      // The board never started it (or restarted since): run it now, under the same id.
    } else {
      cycleId = this.nextCycleId;
      this.nextCycleId = nextId(cycleId);
    }
    if (link.status?.state === TOWER_STATE.FAULT) {
      // A new roll after a fault means the operator has cleared the tray.
      this.command(link, { type: 'clearFault' });
      const cleared = await this.queryStatus(link, s.answerTimeoutMs);
      if (cleared.state === TOWER_STATE.FAULT) throw towerError(TOWER_ERROR.REJECTED, 'The board stays in fault after CLEAR_FAULT.');
    }
    const roll: TowerCommand = {
      type: 'roll', cycleId, tipAngle: s.tipAngle, restAngle: s.restAngle, holdMs: s.holdMs, returnTimeoutMs: s.returnTimeoutMs,
    };
    return this.awaitCycle(link, cycleId, roll);
  }

  /** Sends `roll` (when given) and waits for the cycle's end; remembers the cycle when its end goes unheard. */
  private awaitCycle(link: Link, cycleId: number, roll: TowerCommand | null): Promise<void> {
    const s = this.settings;
    const limitMs = s.holdMs + s.returnTimeoutMs + s.answerMarginMs;
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: TowerError) => {
        clearTimeout(timer);
        if (this.pending === pending) this.pending = null;
        if (error) reject(error);
        else resolve();
      };
      const pending: PendingCycle = {
        cycleId,
        resolve: () => finish(),
        reject: (error) => finish(error),
      };
      const timer = setTimeout(() => {
        this.interrupted = cycleId;
        finish(towerError(TOWER_ERROR.NO_ANSWER, `The board did not report the end of roll cycle ${cycleId} within ${limitMs} ms.`));
      }, limitMs);
      this.pending = pending;
      if (roll) {
        // From here the board may run the cycle: if its end goes unheard, the next roll asks first.
        this.interrupted = cycleId;
        this.command(link, roll);
      }
    }).then(
      () => {
        if (this.interrupted === cycleId) this.interrupted = null;
      },
      (error: TowerError) => {
        // A refusal or a fault settles the cycle; only a lost link or a timeout leaves it in doubt.
        const inDoubt: string[] = [TOWER_ERROR.DISCONNECTED, TOWER_ERROR.NO_ANSWER, TOWER_ERROR.CLOSED];
        if (!inDoubt.includes(error.code) && this.interrupted === cycleId) this.interrupted = null;
        throw error;
      },
    );
  }

  private failPending(error: TowerError): void {
    this.pending?.reject(error);
  }

  private applyLight(link: Link, level: number): void {
    if (link.mode === 'tower-sysex') {
      this.command(link, { type: 'setLight', level });
      return;
    }
    const { io } = link;
    const pin = this.settings.pins.light;
    if (!link.lightReady) {
      if (!(io.pins[pin]?.supportedModes ?? []).includes(io.MODES.PWM)) {
        throw towerError(TOWER_ERROR.UNSUPPORTED, `Pin ${pin} (the light) has no PWM on this board.`);
      }
      io.pinMode(pin, io.MODES.PWM);
      link.lightReady = true;
    }
    io.analogWrite(pin, level);
  }

  // ---- host-driven (stock StandardFirmata) -------------------------------------

  /** The roll cycle timed by the host, as the firmware does it: tip, hold, check, return, wait for the tray. */
  private async rollFromHost(link: Link): Promise<void> {
    const s = this.settings;
    const { io } = link;
    const servo = s.pins.trayServo;
    const check = () => {
      if (this.link !== link) throw towerError(TOWER_ERROR.DISCONNECTED, 'The tower was disconnected during the roll.');
    };
    const limp = (error: TowerError) => {
      // Stop pushing: StandardFirmata detaches the servo when the pin leaves SERVO mode.
      io.pinMode(servo, io.MODES.OUTPUT);
      io.digitalWrite(servo, 0);
      link.servoLimp = true;
      this.events.emit('fault', error);
      return error;
    };
    if (link.servoLimp) {
      io.servoConfig(servo, s.servoMinUs, s.servoMaxUs);
      link.servoLimp = false;
    }
    io.servoWrite(servo, s.tipAngle);
    await this.sleepOn(link, s.holdMs);
    check();
    if (link.trayInPlaceSince !== null) throw limp(faultError(TOWER_FAULT.TRAY_STUCK, null));
    io.servoWrite(servo, s.restAngle);
    const deadline = Date.now() + s.returnTimeoutMs;
    for (;;) {
      const since = link.trayInPlaceSince;
      if (since !== null && Date.now() - since >= s.traySettleMs) return;
      if (Date.now() >= deadline) throw limp(faultError(TOWER_FAULT.JAM, null));
      await this.sleepOn(link, Math.min(5, s.traySettleMs));
      check();
    }
  }

  /** Sleeps, but wakes early (to fail) when the link goes down. */
  private async sleepOn(link: Link, ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end && this.link === link) await sleep(Math.min(25, end - Date.now()));
  }
}

function nextId(id: number): number {
  return id >= MAX_FIELD ? 1 : id + 1;
}

function rejectedError(reason: number): TowerError {
  switch (reason) {
    case TOWER_REJECT.BUSY:
      return towerError(TOWER_ERROR.BUSY, 'The board is running another roll cycle.');
    case TOWER_REJECT.FAULT:
      return towerError(TOWER_ERROR.JAM, 'The board is in fault (a jam); clear the tray and roll again.');
    default:
      return towerError(TOWER_ERROR.REJECTED, `The board refused the roll (reason ${reason}).`);
  }
}
