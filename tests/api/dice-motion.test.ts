/** Which roll is drawn landing and how far its motion is (dice-motion.js `landingRoll`), by the clock given. */
import { describe, expect, it } from 'vitest';
import { landingRoll } from '../../src/api/public/dice-motion.js';

const game = (id: string, seq: number | null) => ({ id, lastRoll: seq === null ? null : { seq } });

describe('landingRoll', () => {
  it('a new roll lands for 700 ms, a redraw meanwhile gets the time already passed, and only the shown game is remembered', () => {
    // The roll on the table when the game is first shown is at rest.
    expect(landingRoll(game('a', 3), 0)).toBeNull();
    expect(landingRoll(game('a', 3), 100)).toBeNull();
    // A new roll: landing from when it was first seen; redraws go on from there (not from 0).
    expect(landingRoll(game('a', 4), 1000)).toBe(0);
    expect(landingRoll(game('a', 4), 1300)).toBe(300);
    expect(landingRoll(game('a', 4), 1699)).toBe(699);
    expect(landingRoll(game('a', 4), 1700)).toBeNull();
    // The next roll lands afresh.
    expect(landingRoll(game('a', 5), 2000)).toBe(0);
    // Another game shown: its table is at rest; back to the first, that one is seen afresh too (nothing of it was kept).
    expect(landingRoll(game('b', null), 2100)).toBeNull();
    expect(landingRoll(game('b', 1), 2200)).toBe(0);
    expect(landingRoll(game('a', 5), 2300)).toBeNull();
    expect(landingRoll(game('a', 6), 2400)).toBe(0);
  });
});
