import { StoreError } from './errors.js';

/**
 * JSON with object keys sorted at every level, so the same value always gives
 * the same text (and the same hash). Only plain JSON is accepted: a class
 * instance, a non-finite number, a bigint or an `undefined` array item would
 * not come back as it went in, so it is refused (`store/bad_event`) rather
 * than silently changed. `undefined` object properties are left out, as
 * `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$');
}

function write(value: unknown, where: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw bad(where, `is ${value}, which JSON cannot hold`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => {
      if (item === undefined) throw bad(`${where}[${i}]`, 'is undefined');
      return write(item, `${where}[${i}]`);
    }).join(',')}]`;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw bad(where, `is a ${value.constructor?.name ?? 'non-plain object'}, not a plain object`);
    const record = value as Record<string, unknown>;
    const parts = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${write(record[k], `${where}.${k}`)}`);
    return `{${parts.join(',')}}`;
  }
  throw bad(where, `is a ${typeof value}`);
}

function bad(where: string, problem: string): StoreError {
  return new StoreError('store/bad_event', `Event payload ${where} ${problem}; only plain JSON can be stored.`);
}
