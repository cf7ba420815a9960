/**
 * The tower's board connected and disconnected at run time (the setup page):
 * the table rolls with the board while it is connected and with the tower it
 * started with (the simulator, or dice thrown by hand) otherwise; the games
 * are untouched. The port chosen is kept in the data directory (`serial.json`)
 * so that `serve` alone connects it at the next start; `--serial` overrides it.
 */
import { join } from 'node:path';
import type { FirmataTower } from '../hardware/firmata-tower.js';
import type { Tower } from '../hardware/types.js';
import { TableError, type Table } from '../table.js';
import { errorText } from '../error-text.js';
import { boardSetup, type BoardSetup } from './board.js';
import { readSavedChoice, writeSavedChoice } from './camera-choice.js';
import type { TrayAngles } from './tray-angles.js';

export const SERIAL_FILE = 'serial.json';
/** `auto` (the Arduino found by USB id) or a device path, as `--serial` takes it. */
export const PORT_PATTERN = '^(auto|/dev/[A-Za-z0-9_./-]{1,100})$';

/** The port `serve` connects at start: null for none (disconnected on the page). */
export interface SerialChoice {
  readonly port: string | null;
}

export function serialChoiceProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
  const port = (value as { port?: unknown }).port;
  if (port !== null && (typeof port !== 'string' || !new RegExp(PORT_PATTERN).test(port))) return `port ${JSON.stringify(port)} is neither auto, a /dev path nor null`;
  return null;
}

export function readSerialChoice(dataDir: string): SerialChoice | null {
  const parsed = readSavedChoice(join(dataDir, SERIAL_FILE), 'a serial port choice', serialChoiceProblem, 'connect the board again on /setup.html');
  return parsed === null ? null : { port: (parsed as SerialChoice).port };
}

export function writeSerialChoice(dataDir: string, choice: SerialChoice): void {
  writeSavedChoice(join(dataDir, SERIAL_FILE), { port: choice.port });
}

/** The port `serve` connects: `--serial` when given (null: none), else the saved choice, else none. */
export function serialToUse(flag: string | null | undefined, saved: SerialChoice | null): string | null {
  return flag !== undefined ? flag : (saved?.port ?? null);
}

export interface TowerLinkOptions {
  /** Makes the board's driver on `port` and connects it (light set); rejects, naming why, when it cannot. */
  readonly openBoard: (port: string) => Promise<FirmataTower>;
  /** The tray light level the board is driven with (shown on the page). */
  readonly light: number;
  /** Keeps new tray angles for the next start (tray.json). */
  readonly saveAngles: (angles: TrayAngles) => void;
  /** Keeps the port chosen (null: none) for the next start; absent: not kept. */
  readonly savePort?: (port: string | null) => void;
}

/** What the setup routes ask of the link (a stub in tests that need no board). */
export type BoardLink = Pick<TowerLink, 'serial' | 'boardSetup' | 'connect' | 'disconnect'>;

export class TowerLink {
  private board: { readonly port: string; readonly tower: FirmataTower; readonly setup: BoardSetup } | null = null;
  /** A connect or disconnect under way: a second one waits for no one, it is refused. */
  private changing = false;

  constructor(
    private readonly table: Table,
    /** The tower the table rolls with when no board is connected. */
    private readonly fallback: Tower,
    private readonly options: TowerLinkOptions,
  ) {}

  /** The port the board was connected on (auto or a path), or null. */
  serial(): string | null {
    return this.board?.port ?? null;
  }

  boardSetup(): BoardSetup | null {
    return this.board?.setup ?? null;
  }

  /** Connects the board on `port` and makes the table roll with it; `save` keeps the choice for the next start. */
  async connect(port: string, save = true): Promise<void> {
    if (this.board) throw new TableError('setup/board_connected', `A board is already connected on ${this.board.port}: disconnect it first.`, 409, { port: this.board.port });
    const tower = await this.change(async () => {
      let opened: FirmataTower;
      try {
        opened = await this.options.openBoard(port);
      } catch (err) {
        throw new TableError('setup/connect_failed', `No board could be connected on ${port}: ${errorText(err)}`, 503, { port, error: errorText(err) });
      }
      try {
        this.table.useTower(opened, `Tower connected on ${port}`);
      } catch (err) {
        await opened.close();
        throw err;
      }
      return opened;
    });
    this.board = { port, tower, setup: boardSetup(tower, this.options.light, this.options.saveAngles) };
    if (save) this.save(port);
  }

  /** The table rolls with the tower it started with again, and the board's port is let go (free to flash). */
  async disconnect(): Promise<void> {
    const board = this.board;
    if (!board) throw new TableError('setup/no_board', 'No tower board is connected.', 409);
    await this.change(async () => {
      this.table.useTower(this.fallback, 'Tower board disconnected');
      this.board = null;
      await board.tower.close();
    });
    this.save(null);
  }

  /** Lets the board go when the server stops (the choice stays as it was). */
  async close(): Promise<void> {
    await this.board?.tower.close();
    this.board = null;
  }

  private async change<T>(step: () => Promise<T>): Promise<T> {
    if (this.changing) throw new TableError('setup/link_busy', 'The board is being connected or disconnected; wait for that first.', 409);
    this.changing = true;
    try {
      return await step();
    } finally {
      this.changing = false;
    }
  }

  private save(port: string | null): void {
    try {
      this.options.savePort?.(port);
    } catch (err) {
      throw new TableError('setup/not_saved', `Done, but the choice could not be kept for the next start: ${errorText(err)}`, 503, { error: errorText(err) });
    }
  }
}
