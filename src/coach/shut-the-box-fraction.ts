/**
 * A tiny exact rational over BigInt, for the Shut the Box figures that are
 * published as fractions (956177159/9795520512). Always in lowest terms with
 * a positive denominator.
 */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

export function fraction(num: bigint | number, den: bigint | number = 1n): Fraction {
  let n = BigInt(num);
  let d = BigInt(den);
  if (d === 0n) throw new RangeError('Fraction with a zero denominator');
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { num: n / g, den: d / g };
}

export const fracAdd = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den + b.num * a.den, a.den * b.den);
export const fracScale = (a: Fraction, num: number, den: number): Fraction => fraction(a.num * BigInt(num), a.den * BigInt(den));
export const fracLess = (a: Fraction, b: Fraction): boolean => a.num * b.den < b.num * a.den;
export const fracText = (a: Fraction): string => `${a.num}/${a.den}`;
/** Nearest double (both parts may exceed 2^53, so divide with a scale). */
export function fracValue(a: Fraction): number {
  const scale = 10n ** 18n;
  return Number((a.num * scale) / a.den) / 1e18;
}
