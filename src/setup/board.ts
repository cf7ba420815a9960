/**
 * What the setup page shows of the tower's board and asks of it: the firmware
 * and its version as the board reported them, how it is driven, its port, the
 * tray's angles and light, its sensor and when its button was last pressed
 * (heard live), and
 * a test tip of the tray (one roll cycle, no dice read).
 */
import type { FirmataTower } from '../hardware/firmata-tower.js';
import type { TrayAngles } from './tray-angles.js';

export interface BoardView {
  readonly connected: boolean;
  readonly firmware: string | null;
  readonly version: string | null;
  /** `tower-sysex` (the board times the roll) or `host-driven` (stock StandardFirmata); null while not connected. */
  readonly mode: string | null;
  readonly path: string | null;
  readonly tipAngle: number;
  readonly restAngle: number;
  readonly light: number;
  /** Whether the tray sits in its seat (its sensor), or null when not heard. */
  readonly trayInPlace: boolean | null;
  /** When the tower's button was last pressed (ms since the epoch), or null since the start. */
  readonly lastButtonAt: number | null;
}

export interface BoardSetup {
  readonly view: () => BoardView;
  /** Tips the tray and brings it back (a roll cycle); rejects with the tower's error (jam, disconnected, busy). */
  readonly testTip: () => Promise<void>;
  /** New tray angles, used from the next cycle and kept (`save`) for the next start. */
  readonly setAngles: (angles: TrayAngles) => void;
}

type BoardTower = Pick<FirmataTower, 'connected' | 'firmware' | 'firmwareVersion' | 'mode' | 'path' | 'trayInPlace' | 'angles' | 'setAngles' | 'on' | 'roll'>;

export function boardSetup(tower: BoardTower, light: number, save: (angles: TrayAngles) => void): BoardSetup {
  let lastButtonAt: number | null = null;
  tower.on('button', ({ at }) => (lastButtonAt = at));
  return {
    view: () => ({ connected: tower.connected, firmware: tower.firmware, version: tower.firmwareVersion, mode: tower.mode, path: tower.path, ...tower.angles, light, trayInPlace: tower.trayInPlace, lastButtonAt }),
    // One die's cycle: the tray's movement does not depend on the count.
    testTip: () => tower.roll(1),
    setAngles: (angles) => {
      tower.setAngles(angles.tipAngle, angles.restAngle);
      save(angles);
    },
  };
}
