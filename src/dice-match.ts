/**
 * Matching thrown dice to the dice a game asked for, when colour and size
 * matter (Las Vegas: whose die is which). Pure: the table calls it on the
 * camera's reading and on dice the operator typed in.
 */
import type { RequestedDie } from './games/index.js';

/** One die with its value, colour and size, in the order of the game's request. */
export interface ColouredDie {
  readonly value: number;
  readonly colour: string;
  readonly size: 'normal' | 'big';
}

/** What the matcher needs of a die reading (vision's DieReading has these fields). */
export interface SeenDie {
  readonly value: number | null;
  readonly colour: string;
  /** Absent or false: the colour is not sure. */
  readonly colourConfident?: boolean;
  /** Absent or null: the size could not be told. */
  readonly sizeClass?: 'normal' | 'big' | null;
}

export type DiceMatch = { readonly ok: true; readonly dice: ColouredDie[] } | { readonly ok: false; readonly problems: string[] };

const key = (colour: string, size: string): string => `${size === 'big' ? 'big ' : ''}${colour}`;

/** "3 red, 1 big red, 2 purple": a multiset of dice for messages. */
function describe(keys: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'none';
}

/**
 * Puts `dice` in the order of `requested`: each requested die takes the first
 * unused die of its colour and size (dice of one colour and size are
 * interchangeable). Fails, naming why, when the colours and sizes are not
 * exactly those asked for.
 */
export function orderByRequest(requested: readonly RequestedDie[], dice: readonly ColouredDie[]): DiceMatch {
  const want = requested.map((d) => key(d.colour, d.size));
  const got = dice.map((d) => key(d.colour, d.size));
  if ([...want].sort().join('|') !== [...got].sort().join('|')) {
    return { ok: false, problems: [`the dice are not the ones asked for: asked for ${describe(want)}, got ${describe(got)}`] };
  }
  const used = new Set<number>();
  const ordered = want.map((k) => {
    const i = got.findIndex((g, j) => g === k && !used.has(j));
    used.add(i);
    return dice[i] as ColouredDie;
  });
  return { ok: true, dice: ordered };
}

/**
 * The camera's dice matched to the request: refused when a die has no value,
 * a colour the reader is not sure of, or a size it could not tell, or when
 * the colours and sizes read differ from those asked for.
 */
export function matchReading(requested: readonly RequestedDie[], seen: readonly SeenDie[]): DiceMatch {
  const problems: string[] = [];
  if (seen.length !== requested.length) problems.push(`expected ${requested.length} dice, read ${seen.length}`);
  seen.forEach((d, i) => {
    if (d.value === null) problems.push(`die ${i + 1} shows no readable value`);
    if (d.colourConfident !== true) problems.push(`die ${i + 1}'s colour is uncertain (looks ${d.colour})`);
    if (d.sizeClass !== 'normal' && d.sizeClass !== 'big') problems.push(`die ${i + 1}'s size cannot be told`);
  });
  if (problems.length > 0) return { ok: false, problems };
  return orderByRequest(
    requested,
    seen.map((d) => ({ value: d.value as number, colour: d.colour, size: d.sizeClass as 'normal' | 'big' })),
  );
}
