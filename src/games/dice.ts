/** Small helpers every game module shares: die values, face counts, sums, and values shown in messages. */

/** True for a whole number 1..6 (values come straight off the wire). */
export const isDieValue = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 6;

/** How many dice show each face; index 0 is unused. */
export function faceCounts(dice: readonly number[]): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d] = (counts[d] ?? 0) + 1;
  return counts;
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** A value as a person would type it in a message (JSON would print NaN as null). */
export const show = (v: unknown): string => (typeof v === 'number' || v === undefined ? String(v) : JSON.stringify(v));
