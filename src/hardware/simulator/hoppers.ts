/**
 * Hoppers of typical throws, for the simulator's tests, fixtures and
 * benchmarks: what a game puts into the tower.
 */
import type { HopperDie } from '../types.js';
import type { SeededRandom } from '../random.js';

/** The eight Las Vegas player colours (purple is also the chasers' colour, white the neutral dice'). */
export const LAS_VEGAS_COLOURS = ['red', 'green', 'blue', 'black', 'white', 'yellow', 'grey', 'purple'] as const;

/**
 * One Las Vegas turn's throw: 1-8 dice of the player's colour, maybe their big
 * die, maybe 1-2 purple chasers and 1-4 white neutral dice (not when the
 * player's own colour is purple or white). Own colour first.
 */
export function lasVegasHopper(rng: SeededRandom, own = rng.pick(LAS_VEGAS_COLOURS)): HopperDie[] {
  const hopper: HopperDie[] = [];
  const ownCount = rng.int(1, 8);
  for (let i = 0; i < ownCount; i++) hopper.push({ colour: own, size: 'normal' });
  if (own !== 'purple' && rng.next() < 0.5) hopper.push({ colour: own, size: 'big' });
  if (own !== 'purple' && rng.next() < 0.4) for (let i = rng.int(1, 2); i > 0; i--) hopper.push({ colour: 'purple', size: 'normal' });
  if (own !== 'white' && rng.next() < 0.5) for (let i = rng.int(1, 4); i > 0; i--) hopper.push({ colour: 'white', size: 'normal' });
  return hopper;
}
