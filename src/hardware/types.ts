/**
 * The hardware layer: the tower that throws dice into its tray, and the camera
 * above the tray. Both have a simulated implementation (the default) and real
 * ones; the rest of the system only sees these interfaces.
 */
import type { TowerEventName, TowerListener } from './tower.js';

/** Names of the die colours the simulator renders and the default palette knows. */
export const DIE_COLOURS = ['white', 'ivory', 'red', 'green', 'blue', 'yellow', 'black', 'purple', 'grey'] as const;
export type DieColour = (typeof DIE_COLOURS)[number];

/** Die sizes a tower may hold: Las Vegas "big dice" count double. */
export const DIE_SIZES = ['normal', 'big'] as const;
export type DieSize = (typeof DIE_SIZES)[number];

/** One physical die put into the tower's hopper, when its colour or size matters to the game. */
export interface HopperDie {
  readonly colour: string;
  readonly size: DieSize;
}

/** One camera frame, as the camera delivers it (encoded image bytes). */
export interface Frame {
  /** The encoded image (JPEG from the simulator and most webcams). */
  readonly image: Buffer;
  readonly width: number;
  readonly height: number;
  /** Milliseconds since the epoch when the frame was taken. */
  readonly capturedAt: number;
}

/** A camera looking down on the tray. */
export interface Camera {
  /** Takes one frame of the tray as it is now. Rejects with a `CameraError` when no frame can be had. */
  capture(): Promise<Frame>;
}

/** The mechanical tower: drops dice through the baffles into the tray. */
export interface Tower {
  /** `simulated` or the driver's name, for the status line. */
  readonly kind: string;
  /**
   * Throws `count` dice into the tray (the operator has put them in the hopper)
   * and resolves once the cycle is done and the dice lie in the tray. Rejects
   * with a `TowerError` on a fault (jam, disconnect). `dice`, when given, says
   * which physical dice are in the hopper (length `count`): a real tower ignores
   * it, the simulator throws exactly those.
   */
  roll(count: number, dice?: readonly HopperDie[]): Promise<void>;
  /** Sets the tray light, 0 (off) to 255. Optional: the simulator has no light. */
  setLight?(level: number): Promise<void>;
  /**
   * Subscribes to `button`, `fault`, `connect` or `disconnect` (see `TowerEvents`
   * in tower.ts for when each fires); returns the unsubscribe function.
   * Optional: the simulator has no events.
   */
  on?<E extends TowerEventName>(event: E, listener: TowerListener<E>): () => void;
}

export class TowerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TowerError';
  }
}

export class CameraError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CameraError';
  }
}
