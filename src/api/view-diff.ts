/**
 * What changed between two game views, as a JSON Patch (RFC 6902: `add`,
 * `remove` and `replace` only), so the feed sends a viewer a roll's few
 * changed fields instead of the whole view. No diff library is installed
 * (fast-json-patch, jsondiffpatch and rfc6902 are not in node_modules); this
 * one knows the shapes a view has: objects compared key by key, and arrays
 * whose elements stay in place or slide along (the recent rolls and the table
 * feed drop their oldest entry and take a new one at the end). The feed sends
 * each operation as an array (`WireOp`). The browser's side, applying it, is
 * public/view-patch.js.
 */

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export type PatchOp =
  | { readonly op: 'add'; readonly path: string; readonly value: Json }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'replace'; readonly path: string; readonly value: Json };

/**
 * An operation as the feed sends it: RFC 6902's fields by position, `[op, path]` for a remove and `[op, path, value]`
 * for an add or replace. `{"op":…,"path":…,"value":…}` spelled out is some 20 bytes an operation, most of a small one.
 */
export type WireOp = readonly ['remove', string] | readonly ['add' | 'replace', string, Json];

export const toWire = (op: PatchOp): WireOp => (op.op === 'remove' ? [op.op, op.path] : [op.op, op.path, op.value]);

/** The bytes `ops` take on the wire. */
const wireLength = (ops: readonly PatchOp[]) => JSON.stringify(ops.map(toWire)).length;

/** A key as a JSON Pointer segment (RFC 6901): `~` and `/` escaped. */
const segment = (key: string | number) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

const isObject = (v: Json): v is { readonly [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Equality of JSON values (key order aside), as the wire sees them. */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as Json));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as Json, b[k] as Json));
}

/** The operations that turn `before` into `after`; none when they are equal. */
export function diffViews(before: Json, after: Json): PatchOp[] {
  const ops: PatchOp[] = [];
  diffInto(before, after, '', ops);
  return ops;
}

function diffInto(before: Json, after: Json, path: string, ops: PatchOp[]): void {
  if (before === after) return;
  const inner: PatchOp[] = [];
  if (Array.isArray(before) && Array.isArray(after)) diffArrays(before, after, path, inner);
  else if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) inner.push({ op: 'remove', path: path + segment(key) });
    for (const [key, value] of Object.entries(after)) {
      if (Object.hasOwn(before, key)) diffInto(before[key] as Json, value, path + segment(key), inner);
      else inner.push({ op: 'add', path: path + segment(key), value });
    }
  } else {
    if (!jsonEqual(before, after)) ops.push({ op: 'replace', path, value: after });
    return;
  }
  // Many changes inside one array or object (a list filled, a board redrawn): the whole new value, when that is shorter.
  const whole: PatchOp = { op: 'replace', path, value: after };
  if (inner.length > 1 && path !== '' && wireLength([whole]) < wireLength(inner)) ops.push(whole);
  else ops.push(...inner);
}

/**
 * Elements slid towards the front (the first `shift` dropped, new ones at the
 * end: the recent rolls, the table feed) go as removes at index 0. Then what
 * both keep at the start and at the end is left alone, and between them each
 * index is compared in place, the extra elements removed or inserted (one
 * legal action gone from the middle of the list is one remove).
 */
function diffArrays(before: readonly Json[], after: readonly Json[], path: string, ops: PatchOp[]): void {
  const shift = slide(before, after);
  for (let i = 0; i < shift; i++) ops.push({ op: 'remove', path: path + segment(0) });
  const kept = before.slice(shift);
  let start = 0;
  while (start < kept.length && start < after.length && jsonEqual(kept[start] as Json, after[start] as Json)) start++;
  let end = 0;
  while (end < kept.length - start && end < after.length - start && jsonEqual(kept[kept.length - 1 - end] as Json, after[after.length - 1 - end] as Json)) end++;
  const oldCount = kept.length - start - end;
  const newCount = after.length - start - end;
  const common = Math.min(oldCount, newCount);
  for (let i = start; i < start + common; i++) diffInto(kept[i] as Json, after[i] as Json, path + segment(i), ops);
  // Each remove at the same index: the next element has moved into it.
  for (let i = common; i < oldCount; i++) ops.push({ op: 'remove', path: path + segment(start + common) });
  for (let i = common; i < newCount; i++) {
    const at = start + i;
    ops.push({ op: 'add', path: path + segment(end === 0 ? '-' : at), value: after[at] as Json });
  }
}

/** How many leading elements `before` lost when the rest of it starts `after` (0 when its first still starts it, or none does). */
function slide(before: readonly Json[], after: readonly Json[]): number {
  if (before.length === 0 || after.length === 0 || jsonEqual(before[0] as Json, after[0] as Json)) return 0;
  for (let shift = 1; shift < before.length; shift++) {
    const rest = before.length - shift;
    if (rest > after.length) continue;
    let starts = true;
    for (let i = 0; i < rest && starts; i++) starts = jsonEqual(before[shift + i] as Json, after[i] as Json);
    if (starts) return shift;
  }
  return 0;
}
