import type { DiceReading } from '../../src/vision/index.js';

export interface ExpectedDie {
  readonly value: number;
  readonly colour: string;
  readonly x: number;
  readonly y: number;
  readonly size: number;
}

/**
 * Compares a reading with the truth: every expected die must have exactly one
 * read die whose centre lies within a quarter of a die of it, with the same
 * value and colour, and nothing else may have been read. Returns the
 * differences as sentences (empty when the reading is exactly right).
 */
export function readingErrors(reading: DiceReading, expected: readonly ExpectedDie[]): string[] {
  const errors: string[] = [];
  const unmatched = new Set(reading.dice.map((_, i) => i));
  for (const die of expected) {
    const hit = [...unmatched].find((i) => {
      const d = reading.dice[i];
      return d !== undefined && Math.hypot(d.center.x - die.x, d.center.y - die.y) < die.size / 4;
    });
    const where = `die at (${Math.round(die.x)}, ${Math.round(die.y)})`;
    if (hit === undefined) {
      errors.push(`${where} not found`);
      continue;
    }
    unmatched.delete(hit);
    const d = reading.dice[hit];
    if (d?.value !== die.value) errors.push(`${where}: read ${d?.value}, is ${die.value}`);
    if (d?.colour !== die.colour) errors.push(`${where}: read colour ${d?.colour}, is ${die.colour}`);
  }
  for (const i of unmatched) {
    const d = reading.dice[i];
    errors.push(`phantom die read at (${Math.round(d?.center.x ?? 0)}, ${Math.round(d?.center.y ?? 0)})`);
  }
  if (!reading.valid) errors.push(`reading marked invalid: ${reading.problems.join('; ')}`);
  return errors;
}
