/**
 * Which sound a change of a game calls for (sounds.js `cueFor`), on real game
 * views from the table: a roll, a decision, the end; a correction or an undo
 * is no move and plays nothing.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { gameView } from '../../src/api/views.js';
import { cueFor } from '../../src/api/public/sound-cues.js';
import { GAMES, type AnyGameDef } from '../../src/games/index.js';
import { seededRandom } from '../games/harness.js';

type View = ReturnType<typeof gameView>;
const seen = (v: View) => ({ rollCount: v.rollCount, stepCount: v.stepCount, version: v.version, over: Boolean(v.result) });

describe('cueFor', () => {
  it('cues a roll, a move and the win, and stays quiet for a correction, an undo and the first look', async () => {
    const sim = createSimulator({ seed: 1, colours: ['white'], rollMs: 0 });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(DEFAULT_VISION_CONFIG), botDelayMs: 0 });
    const id = table.create('shut-the-box', ['Ann', 'Bob'], { rounds: 1 }).id;
    let before = gameView(table, table.get(id));
    /** The cue for the change since the last call. */
    const cue = () => {
      const now = gameView(table, table.get(id));
      const c = cueFor(seen(before), now);
      before = now;
      return c;
    };
    expect(cueFor(null, before)).toBeNull();
    await table.roll(id, [6, 3]);
    expect(cue()).toBe('roll');
    table.correct(id, table.get(id).rolls.at(-1)!.seq, [5, 4], 'host', 'misread');
    expect(cue()).toBeNull();
    const close9 = { type: 'close', boxes: [9] } as { type: string };
    table.act(id, close9);
    expect(cue()).toBe('score');
    table.undo(id, 'host');
    expect(cue()).toBeNull();
    // The same view again (nothing new): no cue.
    expect(cueFor(seen(before), before)).toBeNull();
    // The game's bot plays two players on to the end: each roll cues a roll, each move a move, the end the win.
    const def = GAMES['shut-the-box'] as AnyGameDef;
    const random = seededRandom(3);
    const cues = new Set<string | null>();
    let last: string | null = null;
    for (let n = 0; !table.get(id).state || def.result(table.get(id).state) === null; n++) {
      expect(n).toBeLessThan(200);
      const action = def.bot(table.get(id).state, random);
      if (action === null) await table.roll(id, Array.from({ length: def.diceRequest(table.get(id).state)!.count }, () => 1 + Math.floor(random() * 6)));
      else table.act(id, action);
      last = cue();
      cues.add(last);
      if (def.result(table.get(id).state) === null) expect(last).toBe(action === null ? 'roll' : 'score');
    }
    expect(last).toBe('win');
    expect(cues).toEqual(new Set(['roll', 'score', 'win']));
  });
});
