/** The 21 throws of two dice as Mexico ranks them, shared by the two- and three-player solves. */
import { isMexico, throwKey } from '../games/mexico.js';

/** Each throw as [high, low] with its chance. */
export const THROWS = [1, 2, 3, 4, 5, 6].flatMap((hi) => [1, 2, 3, 4, 5, 6].filter((lo) => lo <= hi).map((lo) => ({ dice: [hi, lo], chance: (hi === lo ? 1 : 2) / 36 })));
export const KEYS = THROWS.map((t) => throwKey(t.dice));
export const MEXICO = THROWS.map((t) => isMexico(t.dice));
export const N = THROWS.length;

/** The class (index into THROWS) of a throw. */
export const classOf = (dice: readonly number[]): number => KEYS.indexOf(throwKey(dice));

/**
 * The throw limits a later player may have (with the leader's cap, whatever the leader used: 1..maxThrows),
 * where each limit's entries start in a table block, and their sum (the entries per result and flag).
 */
export function throwLimits(options: { readonly throwCapFromLeader: boolean; readonly maxThrows: number }): { limits: number[]; limitAt: number[]; span: number } {
  const limits = options.throwCapFromLeader ? Array.from({ length: options.maxThrows }, (_, i) => i + 1) : [options.maxThrows];
  const limitAt: number[] = [];
  let span = 0;
  for (const l of limits) {
    limitAt[l] = span;
    span += l;
  }
  return { limits, limitAt, span };
}
