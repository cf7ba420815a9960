/**
 * The stream's events from the table, without HTTP: a refused throw with its
 * reasons then the settled roll, a secret throw's refused reading hidden from
 * the public, and the catch-up at start: game-log events the stream never
 * derived (the process died first) are derived once, and only once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Camera, Frame } from '../../src/hardware/index.js';
import type { DiceReader, DiceReading } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { openStore, type GameStore } from '../../src/storage/index.js';
import { GAMES } from '../../src/games/index.js';
import { createIntegrations, envelope, PUBLIC, type Integrations } from '../../src/integrations/index.js';
import { secretDuel } from '../api/secret-duel.js';
import type { AnyGameDef } from '../../src/games/index.js';

/** The duel played in the open, its result the winners alone: a correction may leave the result as it was. */
const openDuel: AnyGameDef = {
  ...secretDuel,
  id: 'open-duel',
  secretThrows: false,
  diceRequest: (s: { thrown: number }) => (s.thrown < 2 ? { count: 1, slots: [s.thrown], player: s.thrown, secret: false } : null),
  result: (s: { revealed: boolean; dice: number[] }) => (s.revealed ? { winners: s.dice[0] === s.dice[1] ? [0, 1] : (s.dice[0] as number) > (s.dice[1] as number) ? [0] : [1] } : null),
} as AnyGameDef;

const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };
const camera: Camera = { capture: async () => frame };
const tower = { kind: 'test', roll: async () => undefined };

function reading(values: Array<number | null>, issue?: { code: 'cocked' | 'unreadable'; message: string }): DiceReading {
  return {
    dice: values.map((value, i) => ({ value, colour: 'red', colourConfident: true, sizeClass: 'normal', center: { x: i * 10 + values.length, y: 0 }, box: [], size: 8, confidence: value === null ? 0.2 : 0.97 })),
    valid: issue === undefined,
    problems: issue ? [issue.message] : [],
    ...(issue ? { issues: [issue] } : {}),
    width: 10,
    height: 10,
    ms: 1,
  };
}

function scripted(readings: DiceReading[]): DiceReader {
  let i = 0;
  return { read: async () => readings[i++] ?? Promise.reject(new Error('no more scripted readings')) };
}

const dirs: string[] = [];
const open: Array<{ integrations?: Integrations; store: GameStore }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.integrations?.close();
    o.store.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(readings: DiceReading[], dataDir?: string, withStream = true) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'dice-tower-stream-'));
  if (!dataDir) dirs.push(dir);
  const store = openStore(dir);
  const table = new Table({ tower, camera, reader: scripted(readings), store, botDelayMs: 0, games: { ...GAMES, 'secret-duel': secretDuel, 'open-duel': openDuel } });
  const integrations = withStream ? createIntegrations({ table, dbPath: store.dbPath, version: 'test', warn: (m) => { throw new Error(m); } }) : undefined;
  open.push({ integrations, store });
  return { table, store, integrations, dir };
}

describe('events from the table', () => {
  it('a refused throw with its reasons and issue codes, then the roll settled with each die', async () => {
    const { table, integrations } = setup([reading([1, 2, null, 4, 5], { code: 'unreadable', message: 'the red die cannot be read' }), reading([6, 6, 6, 6, 5])]);
    const game = table.create('dice-poker', ['Ann']);
    await table.roll(game.id);
    const events = integrations!.stream.read(0, 100).map((e) => envelope(e, PUBLIC) as { type: string; data: Record<string, unknown> });
    expect(events.map((e) => e.type)).toEqual(['game.created', 'tower.status', 'roll.started', 'roll.refused', 'tower.status', 'roll.started', 'roll.settled', 'tower.status']);
    expect(events[3]?.data).toMatchObject({ attempt: 1, reasons: ['the red die cannot be read'], issues: [{ code: 'unreadable' }], valid: false, dice: expect.arrayContaining([expect.objectContaining({ value: null, confidence: 0.2 })]) });
    expect(events[6]?.data).toMatchObject({
      roll: 1, values: [6, 6, 6, 6, 5], sum: 29, attempts: 2, source: 'tower', valid: true, secret: false, version: 2,
      dice: [{ value: 6, colour: 'red', colourConfident: true, size: 'normal', confidence: 0.97 }, expect.anything(), expect.anything(), expect.anything(), expect.anything()],
      frameUrl: `/api/games/${game.id}/rolls/1/frame.jpg`,
    });
    expect(events[7]?.data).toMatchObject({ state: 'ready' });
  });

  it('a secret throw\'s refused reading and values are its seat\'s only', async () => {
    const { table, integrations } = setup([reading([3], { code: 'cocked', message: 'a die is cocked' }), reading([5])]);
    const game = table.create('secret-duel', ['Ann', 'Bob']);
    await table.roll(game.id);
    const [refused, settled] = integrations!.stream.read(0, 100).filter((e) => e.type === 'roll.refused' || e.type === 'roll.settled');
    expect(envelope(refused!, PUBLIC).data).toMatchObject({ dice: null, reasons: ['a die is cocked'] });
    expect(envelope(refused!, { seat: { gameId: game.id, seat: 0 } }).data).toMatchObject({ dice: [expect.objectContaining({ value: 3 })] });
    expect(envelope(settled!, PUBLIC).data).toMatchObject({ values: null, sum: null, dice: null });
    expect(envelope(settled!, { seat: { gameId: game.id, seat: 1 } }).data).toMatchObject({ values: null });
    expect(envelope(settled!, { seat: { gameId: game.id, seat: 0 } }).data).toMatchObject({ values: [5], sum: 5 });
  });

  it('derives at start what the log holds and the stream does not, once', async () => {
    // A run without the stream (as if the process died after each game-log write, before the stream kept anything).
    const first = setup([], undefined, false);
    const game = first.table.create('dice-poker', ['Ann']);
    await first.table.roll(game.id, [2, 3, 4, 5, 6]);
    first.table.act(game.id, { type: 'hold', dice: [0] } as { type: string });
    open.pop()?.store.close();
    // The next start derives the three log events.
    const second = setup([], first.dir);
    const types = second.integrations!.stream.read(0, 100).map((e) => [e.type, e.sourceSeq]);
    expect(types).toEqual([['game.created', 1], ['roll.settled', 2], ['game.action', 3]]);
    expect(second.integrations!.stream.logCursor()).toBe(3);
    await second.integrations!.close();
    second.integrations = undefined;
    open.pop()?.store.close();
    // And the one after derives nothing again.
    const third = setup([], first.dir);
    expect(third.integrations!.stream.head()).toBe(3);
  });

  it('game.ended once, again only when a correction changes the result', async () => {
    const { table, integrations } = setup([]);
    const game = table.create('open-duel', ['Ann', 'Bob']);
    await table.roll(game.id, [3]);
    await table.roll(game.id, [5]);
    table.act(game.id, { type: 'reveal' } as { type: string });
    const ended = () => integrations!.stream.read(0, 100).filter((e) => e.type === 'game.ended').map((e) => e.data.winners);
    expect(ended()).toEqual([[1]]);
    // 3 → 4: Bob still wins; nothing new to tell.
    table.correct(game.id, 1, [4], 'operator', 'misread');
    expect(ended()).toEqual([[1]]);
    // 4 → 6: Ann wins now.
    table.correct(game.id, 1, [6], 'operator', 'misread again');
    expect(ended()).toEqual([[1], [0]]);
    expect(integrations!.stream.read(0, 100).filter((e) => e.type === 'roll.corrected')).toHaveLength(2);
  });
});
