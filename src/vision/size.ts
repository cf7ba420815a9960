/**
 * Size class of each die (Las Vegas big dice count double): its edge against
 * a normal die's edge, from the tray calibration or, without one, from the
 * smaller dice of the same frame. Ambiguous sizes are `null`, never a guess.
 */
import type { DieSize } from '../hardware/types.js';

export interface SizeConfig {
  /** Edge of a normal die's top face, pixels, from calibration (or the simulator's tray); null when not calibrated. */
  readonly dieSize: number | null;
  /** Edge ratios to a normal die read as a normal die. Widen when perspective makes dice at the tray's edge look smaller. */
  readonly normalRatio: readonly [number, number];
  /** Edge ratios to a normal die read as a big die (the simulator's big dice are 1.4). */
  readonly bigRatio: readonly [number, number];
}

export const DEFAULT_SIZE_CONFIG: SizeConfig = Object.freeze({
  dieSize: null,
  normalRatio: [0.82, 1.16] as const,
  bigRatio: [1.26, 1.65] as const,
});

function classify(ratio: number, cfg: SizeConfig): DieSize | null {
  if (ratio >= cfg.normalRatio[0] && ratio <= cfg.normalRatio[1]) return 'normal';
  if (ratio >= cfg.bigRatio[0] && ratio <= cfg.bigRatio[1]) return 'big';
  return null;
}

/**
 * The size class of each die edge in `sizes` (pixels). Without a calibrated
 * die size, the smallest die is taken as a normal die only when some other die
 * is clearly big beside it; dice all of one size cannot be told normal or big.
 */
export function sizeClasses(sizes: readonly number[], cfg: SizeConfig): (DieSize | null)[] {
  let reference = cfg.dieSize;
  if (reference === null && sizes.length > 0) {
    const smallest = Math.min(...sizes);
    if (sizes.some((s) => classify(s / smallest, cfg) === 'big')) reference = smallest;
  }
  if (reference === null || reference <= 0) return sizes.map(() => null);
  const ref = reference;
  return sizes.map((s) => classify(s / ref, cfg));
}
