/** planUndo: which decisions an undo takes back, and why it refuses. */
import { describe, expect, it } from 'vitest';
import { GAMES, type AnyGameDef } from '../src/games/index.js';
import { planUndo } from '../src/table-undo.js';
import { replay, type ReplayStep } from '../src/table-replay.js';
import type { RollRecord } from '../src/table.js';

const def = GAMES['shut-the-box'] as AnyGameDef;
let seq = 0;
const roll = (player: number, ...values: number[]): ReplayStep => {
  seq++;
  const record: RollRecord = { seq, request: { count: values.length, slots: values.map((_, i) => i), player, secret: false }, values, source: 'manual', reading: null, attempts: 0, at: seq };
  return { kind: 'roll', roll: record, at: seq };
};
const close = (...boxes: number[]): ReplayStep => ({ kind: 'action', action: { type: 'close', boxes } as { type: string }, at: 0 });
const game = (steps: ReplayStep[], bots: number[]) => {
  const r = replay(def, ['Ann', 'Robo'], {}, steps, 0);
  if (r.problem) throw new Error(r.problem.message);
  return { players: ['Ann', 'Robo'], bots, options: {}, state: r.state };
};

describe('planUndo', () => {
  it('refuses to reach a person\'s move across a bot\'s roll, and says how to take the bot\'s move back alone', () => {
    seq = 0;
    // Ann's turn ends when no box fits; then Robo throws and shuts.
    const steps = [roll(0, 6, 3), close(9), roll(0, 6, 3), close(3, 6), roll(0, 6, 6), roll(1, 4, 5), close(9)];
    const g = game(steps, [1]);
    const plan = planUndo(def, g, steps, true);
    expect(plan).toEqual({ refused: { code: 'undo/after_roll', message: expect.stringMatching(/^Robo's move came right after roll 4 \(4 5\).*"throughBots": false/) } });
    expect(planUndo(def, g, steps, false)).toEqual({ undone: [{ seat: 1, action: { type: 'close', boxes: [9] } }] });
  });

  it('takes back one move at a table of bots only (there is no person\'s move to reach)', () => {
    seq = 0;
    const steps = [roll(0, 6, 3), close(9)];
    expect(planUndo(def, game(steps, [0, 1]), steps, true)).toEqual({ undone: [{ seat: 0, action: { type: 'close', boxes: [9] } }] });
  });
});
