import { TowerError, type Camera, type DieColour, type Frame, type HopperDie, type Tower } from '../types.js';
import { SeededRandom } from '../random.js';
import { DEFAULT_TRAY, throwDice, throwHopper, type SimDie, type TrayGeometry } from './scene.js';
import { renderTray } from './render.js';

export { DIE_LOOK, feltBackground, renderTray } from './render.js';
export { BIG_DIE_SCALE, DEFAULT_TRAY, throwDice, throwHopper, type SimDie, type TrayGeometry } from './scene.js';

export interface SimulatorOptions {
  /** Seed for every throw and every frame's noise; the same seed gives the same game. */
  readonly seed: number;
  /** Colours of the dice in the hopper, used in turn (one colour = a matching set). */
  readonly colours: readonly DieColour[];
  readonly tray?: TrayGeometry;
  /** How long a simulated roll cycle takes, ms (0 in tests). */
  readonly rollMs?: number;
}

/**
 * A tower and a camera sharing one simulated tray. The tower throws dice into
 * the tray; the camera renders the tray as it is. `truth()` is for tests and
 * the simulator itself: the rest of the system reads the dice from the frames.
 */
export interface Simulator {
  readonly tower: Tower;
  readonly camera: Camera;
  truth(): readonly SimDie[];
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const tray = options.tray ?? DEFAULT_TRAY;
  const rng = new SeededRandom(options.seed);
  const rollMs = options.rollMs ?? 0;
  let dice: SimDie[] = [];
  const tower: Tower = {
    kind: 'simulated',
    async roll(count: number, hopper?: readonly HopperDie[]): Promise<void> {
      if (hopper && hopper.length !== count) throw new TowerError('tower/bad_hopper', `asked to throw ${count} dice but the hopper lists ${hopper.length}`);
      if (rollMs > 0) await new Promise((resolve) => setTimeout(resolve, rollMs));
      // The hopper, when the game says which dice: exactly those colours and sizes.
      dice = hopper ? throwHopper(rng, hopper, tray) : throwDice(rng, count, options.colours, tray);
    },
  };
  const camera: Camera = {
    async capture(): Promise<Frame> {
      const image = renderTray(dice, tray, { noiseSeed: rng.int(0, 2 ** 31) });
      return { image, width: tray.width, height: tray.height, capturedAt: Date.now() };
    },
  };
  return { tower, camera, truth: () => dice };
}
export { cockedScene, outsideScene, stackedScene, touchingScene } from './invalid-scenes.js';
export { LAS_VEGAS_COLOURS, lasVegasHopper } from './hoppers.js';
