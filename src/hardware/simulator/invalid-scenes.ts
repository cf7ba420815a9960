/**
 * Scenes a tower must not accept, for vision fixtures and tests: a die cocked
 * against another, dice stacked or pressed together, a die partly outside the
 * tray. Each starts from a seeded valid throw and changes one die, so the
 * rest of the scene reads as usual.
 */
import type { DieColour } from '../types.js';
import type { SeededRandom } from '../random.js';
import { DEFAULT_TRAY, throwDice, type SimDie, type TrayGeometry } from './scene.js';

/** How much larger a die lying on another looks (it is nearer the camera). */
const STACKED_SCALE = 1.1;

/** One die (the first) tipped `tilt` degrees, leaning on something: its top face foreshortened, a side face seen. */
export function cockedScene(rng: SeededRandom, count: number, colours: readonly DieColour[], tilt = 30, tray: TrayGeometry = DEFAULT_TRAY): SimDie[] {
  const [first, ...rest] = throwDice(rng, count, colours, tray) as [SimDie, ...SimDie[]];
  return [{ ...first, tilt, sideValue: first.value === 2 || first.value === 5 ? 3 : 2 }, ...rest];
}

/** One more die lying on top of the first, shifted about half a die: the lower face is partly hidden. */
export function stackedScene(rng: SeededRandom, count: number, colours: readonly DieColour[], tray: TrayGeometry = DEFAULT_TRAY): SimDie[] {
  const dice = throwDice(rng, count, colours, tray);
  const base = dice[0] as SimDie;
  const direction = rng.range(0, 2 * Math.PI);
  const top: SimDie = {
    value: rng.int(1, 6),
    colour: colours[count % colours.length] as DieColour,
    x: base.x + Math.cos(direction) * base.size * 0.45,
    y: base.y + Math.sin(direction) * base.size * 0.45,
    size: Math.round(base.size * STACKED_SCALE),
    angle: rng.range(0, 90),
  };
  // Drawn last: it lies on top.
  return [...dice, top];
}

/**
 * The second die pressed against the first, flush and turned alike, both of
 * one colour: together they look like one long block, no face can be told
 * from the other.
 */
export function touchingScene(rng: SeededRandom, count: number, colours: readonly DieColour[], tray: TrayGeometry = DEFAULT_TRAY): SimDie[] {
  if (count < 2) throw new RangeError('touching dice need at least 2 dice');
  const dice = throwDice(rng, count, colours, tray);
  const a = dice[0] as SimDie;
  const others = dice.slice(2);
  for (let quarter = 0; quarter < 4; quarter++) {
    const rad = ((a.angle + 90 * quarter) * Math.PI) / 180;
    const x = a.x + Math.cos(rad) * a.size;
    const y = a.y + Math.sin(rad) * a.size;
    const reach = a.size * Math.SQRT2;
    if (x < reach || y < reach || x > tray.width - reach || y > tray.height - reach) continue;
    if (others.some((d) => Math.hypot(d.x - x, d.y - y) < 2 * reach)) continue;
    return [a, { ...(dice[1] as SimDie), colour: a.colour, x, y, angle: a.angle }, ...others];
  }
  throw new RangeError('no room to press two dice together in this throw: try another seed');
}

/** The first die moved onto the frame's left edge, turned `angle` degrees: its centre lies `outside` of its width short of the edge (a turned die reaches farther past it). */
export function outsideScene(rng: SeededRandom, count: number, colours: readonly DieColour[], outside = 0.5, tray: TrayGeometry = DEFAULT_TRAY, angle = 0): SimDie[] {
  const dice = throwDice(rng, count, colours, tray);
  const first = dice[0] as SimDie;
  const others = dice.slice(1).filter((d) => d.x > first.size * 2.5);
  return [{ ...first, x: first.size * (0.5 - outside), angle }, ...others];
}
