/**
 * The contract every registered game keeps, over many bot-played games with
 * seeded dice (see `checkContract`), and its catalog description.
 */
import { describe, expect, it } from 'vitest';
import { GAMES, type AnyGameDef } from '../../src/games/index.js';
import { checkContract, seats } from './harness.js';

/** Games per game id: the issue asks for 10 000 (GAME_RUNS lowers it for quick local runs). */
const RUNS = Number(process.env.GAME_RUNS ?? 10_000);

describe.each(Object.values(GAMES) as AnyGameDef[])('$id', (def) => {
  it('describes itself for the catalog, and its options default as its spec says', () => {
    expect(def.summary.length).toBeGreaterThan(40);
    expect(def.dice.count).toBeGreaterThan(0);
    const players = Array.from({ length: seats(def).min }, (_, i) => `P${i + 1}`);
    const state = def.setup(players) as { options: Record<string, unknown> };
    expect(Object.keys(state.options).sort()).toEqual(def.optionSpecs.map((s) => s.name).sort());
    for (const spec of def.optionSpecs) expect(state.options[spec.name]).toEqual(spec.default);
    expect(def.board(def.playerView(state, null)).status.length).toBeGreaterThan(0);
  });

  // Long games (Maxi Yatzy, Bluff) take a minute or more for 10 000 plays: the limit is about hangs, not speed.
  it(`${RUNS} bot games with seeded dice end well, keep the contract and replay`, { timeout: 900_000 }, () => {
    checkContract(def, RUNS);
  });
});
