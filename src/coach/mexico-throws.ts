/** The 21 throws of two dice as Mexico ranks them, shared by the two- and three-player solves. */
import { isMexico, throwKey } from '../games/mexico.js';

/** Each throw as [high, low] with its chance. */
export const THROWS = [1, 2, 3, 4, 5, 6].flatMap((hi) => [1, 2, 3, 4, 5, 6].filter((lo) => lo <= hi).map((lo) => ({ dice: [hi, lo], chance: (hi === lo ? 1 : 2) / 36 })));
export const KEYS = THROWS.map((t) => throwKey(t.dice));
export const MEXICO = THROWS.map((t) => isMexico(t.dice));
export const N = THROWS.length;

/** The class (index into THROWS) of a throw. */
export const classOf = (dice: readonly number[]): number => KEYS.indexOf(throwKey(dice));
