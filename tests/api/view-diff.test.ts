import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffViews, jsonEqual, toWire, type Json } from '../../src/api/view-diff.js';
import { applyPatch, fromWire, liveGames } from '../../src/api/public/view-patch.js';

/** As the wire carries them: the patch and the views through JSON. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const roundTrip = (before: Json, after: Json) => applyPatch(wire(before), wire(diffViews(before, after)));

describe('diffViews', () => {
  it('names only the fields that changed', () => {
    const players = ['Ann', 'Bob'].map((name) => ({ name, scores: { aces: 3, twos: null, threes: 9, fours: null } }));
    const before = { id: 'g1', version: 3, board: { dice: [1, 2, 3, 4, 5, 6], status: 'Ann to roll', players }, result: null };
    const after = { id: 'g1', version: 4, board: { dice: [1, 5, 3, 4, 5, 6], status: 'Bob to roll', players }, result: null };
    expect(diffViews(before, after)).toEqual([
      { op: 'replace', path: '/version', value: 4 },
      { op: 'replace', path: '/board/dice/1', value: 5 },
      { op: 'replace', path: '/board/status', value: 'Bob to roll' },
    ]);
  });

  it('replaces an array or object whole when that is shorter than its changes one by one', () => {
    expect(diffViews({ dice: [1, 2, 3, 4, 5] }, { dice: [6, 5, 4, 3, 2] })).toEqual([{ op: 'replace', path: '/dice', value: [6, 5, 4, 3, 2] }]);
    expect(diffViews({ choices: [] }, { choices: [{ row: 'aces', points: 1 }, { row: 'twos', points: 2 }] })).toEqual([
      { op: 'replace', path: '/choices', value: [{ row: 'aces', points: 1 }, { row: 'twos', points: 2 }] },
    ]);
  });

  it('is empty for equal views, key order aside', () => {
    expect(diffViews({ a: 1, b: [{ c: null }] }, { b: [{ c: null }], a: 1 })).toEqual([]);
  });

  it('sends a window that slid along (the recent rolls) as the oldest dropped and the newest added', () => {
    const rolls = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, values: [from + i, 6] }));
    const ops = diffViews({ recentRolls: rolls(1, 12) }, { recentRolls: rolls(2, 13) });
    expect(ops).toEqual([
      { op: 'remove', path: '/recentRolls/0' },
      { op: 'add', path: '/recentRolls/-', value: { seq: 13, values: [13, 6] } },
    ]);
  });

  it('sends one element gone from the middle of a list as one remove, one new in the middle as one add', () => {
    const actions = ['aces', 'twos', 'threes', 'fours', 'fives', 'chance'].map((category) => ({ type: 'score', category }));
    const without = actions.filter((a) => a.category !== 'threes');
    expect(diffViews({ actions }, { actions: without })).toEqual([{ op: 'remove', path: '/actions/2' }]);
    expect(diffViews({ actions: without }, { actions })).toEqual([{ op: 'add', path: '/actions/2', value: { type: 'score', category: 'threes' } }]);
  });

  it('patching gives the new list for any elements removed and inserted anywhere', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 12 }), fc.array(fc.tuple(fc.nat(12), fc.nat(3), fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 })), { maxLength: 3 }), (list, edits) => {
        const after = [...list];
        for (const [at, remove, insert] of edits) after.splice(at % (after.length + 1), remove, ...insert);
        expect(roundTrip({ list }, { list: after })).toEqual({ list: after });
      }),
      { numRuns: 500 },
    );
  });

  it('adds and removes keys and array tails, and replaces a value that changed kind', () => {
    const before = { gone: 1, list: [1, 2, 3], lastRoll: null };
    const after = { list: [1], lastRoll: { seq: 1 }, added: [true] };
    const ops = diffViews(before, after);
    expect(ops).toContainEqual({ op: 'remove', path: '/gone' });
    expect(ops).toContainEqual({ op: 'replace', path: '/lastRoll', value: { seq: 1 } });
    expect(ops).toContainEqual({ op: 'add', path: '/added', value: [true] });
    expect(roundTrip(before, after)).toEqual(after);
  });

  it('escapes ~ and / in keys (RFC 6901)', () => {
    const ops = diffViews({ 'a/b': 1, 'c~d': 1 }, { 'a/b': 2, 'c~d': 2 });
    expect(ops.map((o) => o.path)).toEqual(['/a~1b', '/c~0d']);
    expect(roundTrip({ 'a/b': 1, 'c~d': 1 }, { 'a/b': 2, 'c~d': 2 })).toEqual({ 'a/b': 2, 'c~d': 2 });
  });

  it('patching the old value with the diff gives the new one, for any two JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const before = wire(a as Json);
        const after = wire(b as Json);
        expect(jsonEqual(roundTrip(before, after), after)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('patching gives the new value for views that change a little (a window sliding, fields edited)', () => {
    const entry = fc.record({ seq: fc.nat(50), values: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 5 }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.nat(4), fc.array(entry, { maxLength: 4 }), fc.dictionary(fc.string(), fc.jsonValue()), (rolls, dropped, added, extra) => {
        const before = wire({ recentRolls: rolls, extra: {} } as Json);
        const after = wire({ recentRolls: [...rolls.slice(dropped), ...added], extra } as Json);
        expect(jsonEqual(roundTrip(before, after), after)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('applyPatch', () => {
  it('leaves the old view as it was', () => {
    const before = { board: { dice: [1, 2] }, other: { x: 1 } };
    const after = applyPatch(before, [{ op: 'replace', path: '/board/dice/0', value: 6 }]);
    expect(before.board.dice).toEqual([1, 2]);
    expect(after).toEqual({ board: { dice: [6, 2] }, other: { x: 1 } });
    expect(after.other).toBe(before.other); // what did not change is shared
  });

  it('refuses an operation that does not fit, naming the path', () => {
    expect(() => applyPatch({ a: [1] }, [{ op: 'replace', path: '/a/3', value: 1 }])).toThrow(/Patch replace \/a\/3: Index 3 is past the end/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '/b' }])).toThrow(/Patch remove \/b: There is no 'b'/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'move', path: '/a' } as never])).toThrow(/Unknown operation "move"/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'add', path: 'a', value: 1 }])).toThrow(/must start with '\/'/);
  });

  it("sets '__proto__' as an own key, never the prototype", () => {
    const after = applyPatch({} as Json, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(after)).toBe(Object.prototype);
    expect(JSON.stringify(after)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('liveGames', () => {
  const view = (version: number, dice: number[]) => ({ id: 'g1', version, board: { dice } });
  const patch = (seq: number, from: Json, to: Json) => wire({ type: 'patch', gameId: 'g1', seq, ops: diffViews(from, to).map(toWire) });

  it('applies the patches that follow on, ignores one it had, asks again after a gap', () => {
    const live = liveGames();
    live.take({ type: 'snapshot', games: [view(1, [1])], seqs: { g1: 4 } });
    expect(live.take(patch(5, view(1, [1]), view(2, [2]))).game).toEqual(view(2, [2]));
    expect(live.take(patch(5, view(1, [1]), view(2, [2])))).toEqual({}); // a duplicate
    expect(live.take(patch(7, view(3, [3]), view(4, [4])))).toEqual({ resync: 'g1' }); // 6 was missed
    expect(live.take(patch(8, view(4, [4]), view(5, [5])))).toEqual({}); // still waiting: asked once
    expect(live.take({ type: 'game', seq: 8, game: view(5, [5]) }).game).toEqual(view(5, [5]));
    expect(live.take(patch(9, view(5, [5]), view(6, [6]))).game).toEqual(view(6, [6]));
    expect(live.games.get('g1')).toEqual({ seq: 9, view: view(6, [6]) });
  });

  it('asks again for a game it has no view of, and when a patch does not fit', () => {
    const live = liveGames();
    expect(live.take(patch(1, view(1, [1]), view(2, [2])))).toEqual({ resync: 'g1' });
    live.take({ type: 'game', seq: 1, game: view(1, [1]) });
    expect(live.take({ type: 'patch', gameId: 'g1', seq: 2, ops: [['remove', '/nothing']] })).toEqual({ resync: 'g1' });
    // An operation not in the wire's form is no patch that fits either.
    live.take({ type: 'game', seq: 1, game: view(1, [1]) });
    expect(live.take({ type: 'patch', gameId: 'g1', seq: 2, ops: [{ op: 'replace', path: '/version', value: 2 }] })).toEqual({ resync: 'g1' });
  });
});

describe('the wire form of an operation', () => {
  it('sends each operation as an array and reads it back as RFC 6902 writes it', () => {
    const before = { id: 'g1', version: 3, board: { dice: [1, 2], held: [true, false] }, feed: ['Ann threw 1 2', 'Bob threw 5 5', 'Ann held 1'] };
    const after = { id: 'g1', version: 4, board: { dice: [1, 5] }, feed: ['Bob threw 5 5', 'Ann held 1', 'Ann threw 5'] };
    const ops = diffViews(before, after);
    const sent = wire(ops.map(toWire));
    expect(sent).toContainEqual(['replace', '/version', 4]);
    expect(sent).toContainEqual(['remove', '/feed/0']);
    expect(sent.every(Array.isArray)).toBe(true);
    expect(sent.map(fromWire)).toEqual(ops);
    expect(applyPatch(wire(before) as Json, sent.map(fromWire))).toEqual(after);
    // A third or so of the bytes of the spelled-out form.
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify(ops).length * 0.7);
  });

  it('refuses an operation that is not one, naming it', () => {
    for (const bad of [['add', '/x'], ['remove', '/x', 1], ['move', '/x', '/y'], ['replace', 3, 1], { op: 'remove', path: '/x' }, null]) {
      expect(() => fromWire(bad)).toThrow(/A patch operation must be \["remove", path\]/);
    }
  });
});
