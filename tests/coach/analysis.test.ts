/** The post-game analysis over real solves: what it counts as a decision, and what it could not judge. */
import { describe, expect, it } from 'vitest';
import { analyseGame } from '../../src/coach/analysis.js';
import { mexicoCoach } from '../../src/coach/mexico.js';
import { yatzyCoach } from '../../src/coach/yatzy.js';
import { mexico, yatzy } from '../../src/games/index.js';
import type { AnyPolicy } from '../../src/coach/library.js';

describe('the analysis of a game', () => {
  it('does not count a forced row as a decision (forced order: every row is forced)', () => {
    const options = { ...yatzy.defaultOptions, forcedOrder: true };
    const policy = yatzyCoach.restore(options, yatzyCoach.solve(options)) as unknown as AnyPolicy;
    const actions = [
      { type: 'roll', values: [1, 1, 2, 3, 4] },
      { type: 'hold', dice: [0, 1] },
      { type: 'roll', values: [5, 6, 6] },
      { type: 'roll', values: [1, 6, 6] },
      { type: 'score', category: 'ones' },
    ];
    const analysis = analyseGame(yatzy, policy, ['Ann'], options, actions);
    // The second and third throws (keeping 1 1) are decisions; scoring Ones after the last throw, the only row open
    // in order, is not (scoring it after the second throw would have been: it stops the turn early).
    expect(analysis.decisions.map((d) => d.chosen.key)).toEqual(['keep:1,1', 'keep:1,1']);
    expect(analysis.players[0]).toMatchObject({ decisions: 2 });
    expect(analysis.skipped).toEqual([]);
  });

  it('counts the decisions it could not judge (four players left in Mexico: outside the solve) as skipped, never as perfect play', () => {
    const options = mexico.defaultOptions;
    const policy = mexicoCoach.restore(options, mexicoCoach.solve(options)) as unknown as AnyPolicy;
    const players = ['A', 'B', 'C', 'D'];
    const actions = [
      { type: 'roll', values: [6, 5] },
      { type: 'stop' },
      { type: 'roll', values: [3, 1] },
      { type: 'roll', values: [4, 4] },
      { type: 'stop' },
    ];
    const analysis = analyseGame(mexico, policy, players, { ...options }, actions);
    expect(analysis.decisions).toEqual([]);
    expect(analysis.players.every((p) => p.decisions === 0)).toBe(true);
    // Two stops and one throw again (B threw on after 3 1), each a choice outside the two-or-three-player solve.
    expect(analysis.skipped.map((s) => s.step)).toEqual([1, 3, 4]);
    expect(analysis.skipped[0]?.reason).toMatch(/two or three players; 4 are still in the game/);
  });
});
