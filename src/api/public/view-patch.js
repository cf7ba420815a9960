// The lean feed on the pages' side: game views kept per game with the feed's
// sequence number, `patch` messages (JSON Patch, RFC 6902: add, remove,
// replace, each sent as [op, path] or [op, path, value]; made by
// src/api/view-diff.ts) applied to them, and a game asked for
// again (`resync`) when a patch does not follow on from the view held.

/** A JSON Pointer's segments (RFC 6901); the root is ''. */
function segments(path) {
  if (path === '') return [];
  if (typeof path !== 'string' || !path.startsWith('/')) throw new Error(`A patch path must start with '/': ${JSON.stringify(path)}.`);
  return path.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** A copy of one container with `key` set (own property even for '__proto__', as JSON.parse makes it). */
function withKey(container, key, value, insert) {
  if (Array.isArray(container)) {
    const copy = container.slice();
    const index = key === '-' ? copy.length : Number(key);
    if (!/^(0|[1-9][0-9]*)$/.test(key) && key !== '-') throw new Error(`'${key}' is no array index.`);
    if (index > copy.length || (!insert && index >= copy.length)) throw new Error(`Index ${key} is past the end of an array of ${copy.length}.`);
    copy.splice(index, insert ? 0 : 1, value);
    return copy;
  }
  if (typeof container !== 'object' || container === null) throw new Error(`'${key}' is inside a ${container === null ? 'null' : typeof container}, not an object or array.`);
  if (!insert && !Object.hasOwn(container, key)) throw new Error(`There is no '${key}' to replace.`);
  const copy = { ...container };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutKey(container, key) {
  if (Array.isArray(container)) {
    const index = Number(key);
    if (!/^(0|[1-9][0-9]*)$/.test(key) || index >= container.length) throw new Error(`There is no index ${key} to remove in an array of ${container.length}.`);
    return container.filter((_, i) => i !== index);
  }
  if (typeof container !== 'object' || container === null || !Object.hasOwn(container, key)) throw new Error(`There is no '${key}' to remove.`);
  const copy = { ...container };
  delete copy[key];
  return copy;
}

/** Sets the value at `keys` below `doc` by `change(parent, lastKey)`, copying only the containers on the way (the old view stays as it was). */
function along(doc, keys, change) {
  if (keys.length === 0) throw new Error('A patch may not remove or add the whole view.');
  const [key, ...rest] = keys;
  if (rest.length === 0) return change(doc, key);
  const child = Array.isArray(doc) ? doc[Number(key)] : doc !== null && typeof doc === 'object' && Object.hasOwn(doc, key) ? doc[key] : undefined;
  if (child === undefined) throw new Error(`There is no '${key}' on the way.`);
  return withKey(doc, key, along(child, rest, change), false);
}

/** An operation as the feed sends it ([op, path] for remove, [op, path, value] for add and replace) as RFC 6902 writes it. */
export function fromWire(op) {
  const [name, path, value] = Array.isArray(op) ? op : [];
  const size = name === 'remove' ? 2 : name === 'add' || name === 'replace' ? 3 : 0;
  if (!Array.isArray(op) || size === 0 || op.length !== size || typeof path !== 'string') {
    throw new Error(`A patch operation must be ["remove", path], ["add", path, value] or ["replace", path, value], not ${JSON.stringify(op)}.`);
  }
  return size === 2 ? { op: name, path } : { op: name, path, value };
}

/**
 * `doc` with the operations applied, as a new value (`doc` is not changed).
 * An operation that does not fit the document throws, naming the path.
 */
export function applyPatch(doc, ops) {
  let result = doc;
  for (const op of ops) {
    try {
      const keys = segments(op.path);
      if (op.op === 'replace' && keys.length === 0) result = op.value;
      else if (op.op === 'add' || op.op === 'replace') result = along(result, keys, (parent, key) => withKey(parent, key, op.value, op.op === 'add' && (Array.isArray(parent) || !Object.hasOwn(parent ?? {}, key))));
      else if (op.op === 'remove') result = along(result, keys, withoutKey);
      else throw new Error(`Unknown operation ${JSON.stringify(op.op)} (this feed sends add, remove and replace).`);
    } catch (err) {
      throw new Error(`Patch ${op.op} ${op.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return result;
}

/**
 * The games of the feed as they stand, from its messages: `snapshot` (every
 * game, with `seqs`), `game` (one whole view, with its `seq`) and `patch`
 * (`gameId`, `seq`, `ops`: the change from seq - 1 to seq). `take(message)`
 * returns `{ game }` (the view it changed), `{ resync }` (the game id to ask
 * for again: a patch was missed, or came before its game's view) or `{}`
 * (nothing new: another message type, a patch already applied, or one
 * waiting for the view asked for).
 */
export function liveGames() {
  /** @type {Map<string, { seq: number, view: any }>} */
  const games = new Map();
  /** Games asked for again and not yet come: their patches wait for the whole view. */
  const asked = new Set();
  return {
    games,
    take(message) {
      if (message.type === 'snapshot') {
        games.clear();
        asked.clear();
        for (const view of message.games ?? []) games.set(view.id, { seq: message.seqs?.[view.id] ?? 0, view });
        return {};
      }
      if (message.type === 'game' && message.game) {
        const known = games.get(message.game.id);
        if (known && known.seq > (message.seq ?? 0)) return {};
        asked.delete(message.game.id);
        games.set(message.game.id, { seq: message.seq ?? 0, view: message.game });
        return { game: message.game };
      }
      if (message.type !== 'patch') return {};
      const known = games.get(message.gameId);
      if (known && message.seq <= known.seq) return {}; // had it already
      if (asked.has(message.gameId)) return {};
      if (!known || message.seq !== known.seq + 1) {
        asked.add(message.gameId);
        return { resync: message.gameId };
      }
      let view;
      try {
        view = applyPatch(known.view, message.ops.map(fromWire));
      } catch {
        asked.add(message.gameId); // a patch that does not fit the view held: the whole view, then
        return { resync: message.gameId };
      }
      games.set(message.gameId, { seq: message.seq, view });
      return { game: view };
    },
  };
}
