/** The winner screen's final standings (winner-screen.js `standings`), with results of real games. */
import { describe, expect, it } from 'vitest';
import { standings } from '../../src/api/public/standings.js';
import { GAMES, type AnyGameDef } from '../../src/games/index.js';
import { playBotGame } from '../games/harness.js';

const rows = (names: string[], result: { winners: number[]; scores: number[] }, low = false) => standings(names, result, low).map((r) => `${r.place}. ${r.name} ${r.score}`);

describe('standings', () => {
  it('puts winners first, then by score, highest first; a tie shares its place', () => {
    expect(rows(['Ann', 'Bob', 'Cat', 'Dan'], { winners: [2], scores: [10, 30, 40, 30] })).toEqual(['1. Cat 40', '2. Bob 30', '2. Dan 30', '4. Ann 10']);
    // A shared win: both first.
    expect(rows(['Ann', 'Bob', 'Cat'], { winners: [0, 2], scores: [50, 20, 50] })).toEqual(['1. Ann 50', '1. Cat 50', '3. Bob 20']);
  });

  it('goes lowest first where the game says the lowest wins, even with no winner', () => {
    expect(rows(['Ann', 'Bob', 'Cat'], { winners: [1], scores: [12, 3, 20] }, true)).toEqual(['1. Bob 3', '2. Ann 12', '3. Cat 20']);
    // Shut the Box with endTie "noWinner": nobody won, the standings still go lowest first.
    expect(rows(['Ann', 'Bob', 'Cat'], { winners: [], scores: [7, 3, 3] }, true)).toEqual(['1. Bob 3', '1. Cat 3', '3. Ann 7']);
    expect(rows(['Ann', 'Bob', 'Cat'], { winners: [], scores: [7, 3, 3] })).toEqual(['1. Ann 7', '2. Bob 3', '2. Cat 3']);
  });

  it('agrees with the winners of real games of every rule set, using the game\'s own lowScoreWins', () => {
    const checked: string[] = [];
    for (const def of Object.values(GAMES) as AnyGameDef[]) {
      const names = ['Ann', 'Bob', 'Cat'].slice(0, Math.max(def.minPlayers, Math.min(3, def.maxPlayers)));
      type Result = { winners: number[]; scores: number[] } | null;
      let result: Result;
      try {
        result = def.result(playBotGame(def, names, 4).final) as Result;
      } catch {
        continue; // a rule set whose bot needs more than this (its own tests play it)
      }
      if (!result || result.winners.length !== 1 || new Set(result.scores).size !== result.scores.length) continue;
      checked.push(def.id);
      const table = standings(names, result, def.lowScoreWins === true);
      // The winner first, and each next score on the losing side of the one before.
      expect(table[0]!.i, def.id).toBe(result.winners[0]);
      for (let k = 2; k < table.length; k++) {
        const [a, b] = [table[k - 1]!.score!, table[k]!.score!];
        expect(def.lowScoreWins ? a <= b : a >= b, `${def.id}: ${a} then ${b}`).toBe(true);
      }
    }
    expect(checked).toContain('shut-the-box');
    expect(checked.length).toBeGreaterThan(5);
  });
});
