/**
 * Solved tables on disk: a gzipped file that holds a JSON header (game, the
 * options' key, the facts, each array's type and length, a sha256 of the
 * arrays) and then the arrays' bytes. A file that is damaged or was made for
 * other options is refused with the reason, and the caller solves again.
 */

// Unzipped on libuv's thread pool: a 33.5 MB table must not hold up the server's event loop.
const gunzipAsync = promisify(gunzip);
import { createHash } from 'node:crypto';
import { gunzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { SolvedTables } from './types.js';

const MAGIC = 'dice-tower coach tables 1\n';

type ArrayKind = 'Float64Array' | 'Float32Array' | 'Uint8Array' | 'Int32Array';
type AnyArray = SolvedTables['arrays'][string];

const CONSTRUCTORS: Record<ArrayKind, { new (buffer: ArrayBuffer): AnyArray; readonly BYTES_PER_ELEMENT: number }> = {
  Float64Array,
  Float32Array,
  Uint8Array,
  Int32Array,
};

interface Header {
  readonly game: string;
  readonly key: string;
  readonly facts: SolvedTables['facts'];
  readonly arrays: ReadonlyArray<{ readonly name: string; readonly kind: ArrayKind; readonly length: number }>;
  readonly sha256: string;
}

/** The tables' bytes in memory. */
export function tablesBytes(tables: SolvedTables): number {
  return Object.values(tables.arrays).reduce((sum, a) => sum + a.byteLength, 0);
}

function kindOf(array: AnyArray): ArrayKind {
  const kind = array.constructor.name;
  if (!(kind in CONSTRUCTORS)) throw new TypeError(`Coach tables cannot hold a ${kind}`);
  return kind as ArrayKind;
}

/** The file's bytes for `tables` solved for `game` with options whose key is `key`. */
export function encodeTables(game: string, key: string, tables: SolvedTables): Buffer {
  const names = Object.keys(tables.arrays).sort();
  const parts = names.map((name) => {
    const a = tables.arrays[name] as AnyArray;
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  });
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p);
  const header: Header = {
    game,
    key,
    facts: tables.facts,
    arrays: names.map((name) => ({ name, kind: kindOf(tables.arrays[name] as AnyArray), length: (tables.arrays[name] as AnyArray).length })),
    sha256: hash.digest('hex'),
  };
  return gzipSync(Buffer.concat([Buffer.from(MAGIC + JSON.stringify(header) + '\n'), ...parts]), { level: 6 });
}

/**
 * The tables in a file made by `encodeTables`, or why they cannot be used.
 * The unzip runs off the main thread; the checksum and the copy into arrays
 * (tens of ms for the biggest table) on it.
 */
export async function decodeTables(bytes: Buffer, game: string, key: string): Promise<SolvedTables | { readonly problem: string }> {
  let raw: Buffer;
  try {
    raw = await gunzipAsync(bytes);
  } catch {
    return { problem: 'the file is not a gzip file (cut short or damaged)' };
  }
  if (raw.subarray(0, MAGIC.length).toString() !== MAGIC) return { problem: 'the file is not a coach table file' };
  const end = raw.indexOf(10, MAGIC.length);
  if (end < 0) return { problem: 'the file has no header' };
  let header: Header;
  try {
    header = JSON.parse(raw.subarray(MAGIC.length, end).toString()) as Header;
  } catch {
    return { problem: 'the header is not JSON' };
  }
  if (header.game !== game || header.key !== key) return { problem: `the file holds tables of ${header.game} for other options` };
  let offset = end + 1;
  const hash = createHash('sha256');
  const arrays: Record<string, AnyArray> = {};
  for (const { name, kind, length } of header.arrays) {
    const make = CONSTRUCTORS[kind];
    if (!make) return { problem: `unknown array type ${String(kind)}` };
    const bytesLong = length * make.BYTES_PER_ELEMENT;
    if (offset + bytesLong > raw.length) return { problem: 'the file is shorter than its header says' };
    const copy = new ArrayBuffer(bytesLong);
    const slice = raw.subarray(offset, offset + bytesLong);
    new Uint8Array(copy).set(slice);
    hash.update(slice);
    arrays[name] = new make(copy);
    offset += bytesLong;
  }
  if (offset !== raw.length) return { problem: 'the file is longer than its header says' };
  if (hash.digest('hex') !== header.sha256) return { problem: "the arrays do not match the header's sha256 (damaged)" };
  return { arrays, facts: header.facts };
}
