/**
 * Limits on the shape of a JSON body (REST request or WebSocket message),
 * checked once it is parsed and before anything else sees it. Bodies end up
 * in the game log, whose hashing and replay walk them recursively: a body
 * nested thousands deep overflowed the stack there (and was reported as a
 * broken data directory), and keys like `__proto__` change what plain
 * objects inherit in code that copies them.
 */

/** Levels of objects and arrays a body may nest (the deepest real one, an export, has 11). */
export const MAX_BODY_DEPTH = 32;
/** Keys a body may hold in all, at every level (real requests hold fewer than 100; the import has its own limit). */
export const MAX_BODY_KEYS = 10_000;
/**
 * Keys a game export (POST /api/games/import, up to 16 MiB) may hold: a real
 * export takes about 18 bytes a key, so 16 MiB of it is some 900 000.
 */
export const MAX_EXPORT_KEYS = 1_000_000;
/** Keys that reach the prototype of objects built from the body; no request needs them. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export type BodyProblem = { readonly code: 'api/body_too_deep' | 'api/body_too_many_keys' | 'api/forbidden_key'; readonly message: string };

/**
 * Why a parsed JSON value is refused (too deep, too many keys, a forbidden
 * key), or null. Walks at most MAX_BODY_DEPTH levels, so it cannot itself
 * overflow the stack; `what` names the value in the message ("The body").
 */
export function bodyProblem(value: unknown, maxKeys: number = MAX_BODY_KEYS, what = 'The body'): BodyProblem | null {
  let keys = 0;
  /** Keys and indexes down to the value being walked: made into text only for a refusal. */
  const path: Array<string | number> = [];
  const at = () => {
    const text = `/${path.join('/')}`;
    return text.length > 100 ? `${text.slice(0, 100)}…` : text;
  };
  const walk = (v: unknown, depth: number): BodyProblem | null => {
    if (typeof v !== 'object' || v === null) return null;
    if (depth > MAX_BODY_DEPTH) {
      return { code: 'api/body_too_deep', message: `${what} nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels (at ${at()}); no request needs that many.` };
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    for (const [key, item] of entries) {
      if (typeof key === 'string') {
        if (FORBIDDEN_KEYS.includes(key)) {
          return { code: 'api/forbidden_key', message: `${what} has a key named '${key}' (at ${at()}); keys named ${FORBIDDEN_KEYS.join(', ')} are refused.` };
        }
        if (++keys > maxKeys) return { code: 'api/body_too_many_keys', message: `${what} holds more than ${maxKeys} keys in all; no request needs that many.` };
      }
      path.push(key);
      const problem = walk(item, depth + 1);
      if (problem) return problem;
      path.pop();
    }
    return null;
  };
  return walk(value, 1);
}
