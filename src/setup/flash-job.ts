/**
 * Flashing from the setup page: one flash at a time, run in the background,
 * its progress lines and outcome kept for the page to poll
 * (GET /api/setup/flash). The flash itself is hardware/flash.ts's.
 */
import { TableError } from '../table.js';

export type FlashState = 'idle' | 'running' | 'done' | 'failed';

export interface FlashStatus {
  readonly state: FlashState;
  readonly port: string | null;
  /** Each step and each line avrdude printed, in order. */
  readonly lines: readonly string[];
  /** Why it failed (with avrdude's or make's output), or null. */
  readonly error: string | null;
  readonly code: string | null;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
}

/** Runs one flash: `port` (a path or auto) with a progress callback; rejects with an error naming the step. */
export type Flasher = (port: string, onProgress: (line: string) => void) => Promise<unknown>;

/** Lines kept of one flash (avrdude prints a few dozen). */
const LINES_KEPT = 400;

export class FlashJob {
  private status: FlashStatus = { state: 'idle', port: null, lines: [], error: null, code: null, startedAt: null, endedAt: null };
  private running: Promise<void> | null = null;

  constructor(
    private readonly flasher: Flasher,
    private readonly now: () => number = Date.now,
  ) {}

  current(): FlashStatus {
    return this.status;
  }

  /** Starts a flash; refused while one runs. Resolves at once: the page polls `current()`. */
  start(port: string): FlashStatus {
    if (this.status.state === 'running') throw new TableError('setup/flash_running', `A flash of ${this.status.port} is already under way.`, 409, { port: this.status.port ?? '' });
    const lines: string[] = [];
    this.status = { state: 'running', port, lines, error: null, code: null, startedAt: this.now(), endedAt: null };
    const say = (line: string) => {
      if (lines.length < LINES_KEPT) lines.push(line);
    };
    this.running = this.flasher(port, say).then(
      () => {
        this.status = { ...this.status, state: 'done', lines: [...lines], endedAt: this.now() };
      },
      (err: unknown) => {
        const code = typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : 'flash/failed';
        this.status = { ...this.status, state: 'failed', lines: [...lines], error: err instanceof Error ? err.message : String(err), code, endedAt: this.now() };
      },
    );
    return this.status;
  }

  /** Waits for the flash under way (tests, shutdown). */
  async settled(): Promise<FlashStatus> {
    await this.running;
    return this.status;
  }
}
