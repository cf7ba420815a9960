/**
 * The tower contract beyond `roll()`: the light, and events for the button,
 * faults and the link to the board. `Tower` (types.ts) keeps these optional, so
 * the simulator stays valid; a real tower implements `HardwareTower`.
 *
 * Error codes of a real tower (`TowerError.code`; callers branch on the code,
 * never on the message):
 *
 * | code | when |
 * | --- | --- |
 * | `tower/jam` | the tray did not come back in place in time; the servo is left limp |
 * | `tower/tray_stuck` | the tray never left its seat during the hold |
 * | `tower/disconnected` | the serial link is down, or went down during the roll |
 * | `tower/no_answer` | the board did not answer in time (start-up or a roll) |
 * | `tower/wrong_firmware` | the board runs firmware the driver cannot use (no servo on the tray pin) |
 * | `tower/port_not_found` | no serial port at the path, or no Arduino among the ports found |
 * | `tower/open_failed` | the port exists but could not be opened (busy, permissions) |
 * | `tower/busy` | the board is running another cycle |
 * | `tower/rejected` | the board refused a command (bad value, unknown) |
 * | `tower/unsupported` | the board has no pin for what was asked (for example no PWM light) |
 * | `tower/host_silent` | (fault event) the board heard nothing for its timeout and returned the tray to rest |
 * | `tower/closed` | the driver was closed |
 */
import { TowerError, type Tower } from './types.js';

export const TOWER_ERROR = {
  JAM: 'tower/jam',
  TRAY_STUCK: 'tower/tray_stuck',
  DISCONNECTED: 'tower/disconnected',
  NO_ANSWER: 'tower/no_answer',
  WRONG_FIRMWARE: 'tower/wrong_firmware',
  PORT_NOT_FOUND: 'tower/port_not_found',
  OPEN_FAILED: 'tower/open_failed',
  BUSY: 'tower/busy',
  REJECTED: 'tower/rejected',
  UNSUPPORTED: 'tower/unsupported',
  HOST_SILENT: 'tower/host_silent',
  CLOSED: 'tower/closed',
} as const;
export type TowerErrorCode = (typeof TOWER_ERROR)[keyof typeof TOWER_ERROR];

/** How the driver talks to the board: our firmware's tower sysex, or pin by pin on stock StandardFirmata. */
export type TowerMode = 'tower-sysex' | 'host-driven';

/** Payloads of the tower's events. */
export interface TowerEvents {
  /**
   * The physical button was pressed: once per debounced press (the firmware
   * debounces it; on StandardFirmata the driver does). The table can start the
   * roll the game is waiting for.
   */
  readonly button: { readonly at: number };
  /**
   * The board reported a fault: a jam or a stuck tray (also when no roll was
   * waiting for it), or that the host went silent and the board made itself
   * safe. A roll in flight is also rejected with the same error.
   */
  readonly fault: TowerError;
  /**
   * The board is ready: after the first `connect()` and after every automatic
   * reconnection. `firmware` is the name the board reported.
   */
  readonly connect: { readonly firmware: string; readonly mode: TowerMode; readonly path: string | null };
  /**
   * The link to the board was lost (port closed, USB pulled, board silent).
   * Not fired by `close()`. The driver then tries to reconnect; `connect`
   * fires when it has.
   */
  readonly disconnect: { readonly error: TowerError };
}
export type TowerEventName = keyof TowerEvents;
export type TowerListener<E extends TowerEventName> = (payload: TowerEvents[E]) => void;

/** A physical tower: `roll()` as in `Tower`, plus the light and events. */
export interface HardwareTower extends Tower {
  /** Sets the tray light, 0 (off) to 255. Rejects with `tower/disconnected` when the board is away. */
  setLight(level: number): Promise<void>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends TowerEventName>(event: E, listener: TowerListener<E>): () => void;
  /** True while the board is connected and ready. */
  readonly connected: boolean;
  /** Stops reconnecting, rejects a roll in flight with `tower/closed` and closes the port. */
  close(): Promise<void>;
}

/** A small typed event hub; a listener that throws does not stop the others. */
export class TowerEventHub {
  private readonly listeners = new Map<TowerEventName, Set<(payload: never) => void>>();

  on<E extends TowerEventName>(event: E, listener: TowerListener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit<E extends TowerEventName>(event: E, payload: TowerEvents[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as TowerListener<E>)(payload);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

export function towerError(code: TowerErrorCode, message: string): TowerError {
  return new TowerError(code, message);
}

/** True for a tower that has the light and the events (a real one, or a test double). */
export function isHardwareTower(tower: Tower): tower is HardwareTower {
  const t = tower as Partial<HardwareTower>;
  return typeof t.on === 'function' && typeof t.setLight === 'function';
}
