import type { Tower } from './types.js';

/**
 * A tower without a mechanism: people drop the dice through it by hand and
 * ask for the reading (the Roll button) once the dice lie still. `roll` only
 * waits `settleMs` so a die still rocking has stopped.
 */
export function createHandTower(settleMs = 500): Tower {
  return {
    kind: 'by hand',
    async roll(): Promise<void> {
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    },
  };
}
