import { describe, it, expect, beforeAll } from 'vitest';
import { isInvalid } from '../../src/games/index.js';
import { BUSTED_DEFAULT_OPTIONS, busted } from '../../src/games/busted.js';
import type { BustedAction, BustedOptions, BustedState } from '../../src/games/busted.js';
import { bustedCoach, bustedWinChance, solveBusted } from '../../src/coach/busted.js';
import type { Policy, SolvedTables } from '../../src/coach/types.js';
import { seededRandom } from '../games/harness.js';
import { expectChance } from './agreement.js';

const O: BustedOptions = BUSTED_DEFAULT_OPTIONS;

function step(state: BustedState, action: BustedAction): BustedState {
  const next = busted.apply(state, action);
  if (isInvalid(next)) throw new Error(`refused ${JSON.stringify(action)}: ${next.message}`);
  return next;
}
const roll = (a: number, b: number): BustedAction => ({ type: 'roll', values: [a, b] });

/** Three seats, the third already out: a two-player endgame with 90 counters in play. */
function endgame(counters: [number, number], fields: number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0], o: BustedOptions = O): BustedState {
  const s = busted.setup(['A', 'B', 'C'], o);
  return { ...s, fields, players: s.players.map((p, i) => ({ ...p, counters: i < 2 ? (counters[i] as number) : 0 })) };
}

let solved: SolvedTables;
let policy: Policy<BustedState, BustedAction>;
beforeAll(() => {
  solved = bustedCoach.solve(O);
  policy = bustedCoach.restore(O, solved);
});

describe('Busted coach: decisions', () => {
  it('stops when the other player has one counter and the board is empty: a sure win', () => {
    // Field 6 full; A takes it and may stop, leaving B (1 counter) to place and go out.
    const state = step(endgame([83, 1], [0, 0, 0, 6, 0, 0, 0, 0, 0]), roll(2, 4));
    expect(state.phase).toBe('choice');
    const ranked = policy.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['stop', 'throw']);
    expect(ranked[0]?.value).toBeCloseTo(1, 12);
    expect(ranked[0]?.actions).toEqual([{ type: 'stop' }]);
    expect(ranked[1]?.actions).toEqual([]);
    expect(ranked[1]?.loss).toBeGreaterThan(0);
    for (const d of ranked) for (const a of d.actions) step(state, a);
  });

  it('has nothing to decide on a first or forced throw', () => {
    const s = endgame([45, 45]);
    expect(policy.decisions(s)).toEqual([]);
    const forced = step(endgame([42, 44], [0, 4, 0, 0, 0, 0, 0, 0, 0]), roll(1, 1));
    expect(forced.phase).toBe('forced');
    expect(policy.decisions(forced)).toEqual([]);
  });

  it('names the committed decision', () => {
    const state = step(endgame([83, 1], [0, 0, 0, 6, 0, 0, 0, 0, 0]), roll(2, 4));
    expect(policy.committed(state, { type: 'stop' })).toBe('stop');
    expect(policy.committed(state, roll(3, 3))).toBe('throw');
    expect(policy.committed(endgame([45, 45]), roll(3, 3))).toBeNull();
  });

  it('says why three players or a part placement are outside', () => {
    expect(policy.outside(busted.setup(['A', 'B', 'C'], O))).toMatch(/two players/);
    expect(policy.outside(endgame([40, 45], [0, 0, 0, 0, 0, 0, 5, 0, 0]))).toMatch(/Field 9/);
    expect(policy.outside(endgame([40, 45], [0, 0, 0, 0, 5, 0, 0, 0, 0]))).toBeNull(); // the prison is solved counter by counter
    expect(policy.outside(endgame([45, 45]))).toBeNull();
  });

  it('agrees with the module: each position is worth the average of its throws', () => {
    // A Bellman check through busted.apply, so solver and rules cannot disagree.
    checkAlongGames(solved, policy, () => endgame([45, 45]), 300, 7);
  });

});

/** The mover's win chance in `state` as the module plays on: each throw through busted.apply, then the table (or the result). */
function throughModule(tables: SolvedTables, state: BustedState): number {
  const mover = state.current;
  let sum = 0;
  for (let a = 1; a <= 6; a++) {
    for (let b = 1; b <= 6; b++) {
      const next = step(state, roll(a, b));
      const r = busted.result(next);
      sum += r ? (r.winners.includes(mover) ? 1 : 0) : next.current === mover ? (bustedWinChance(O, tables, next) ?? NaN) : 1 - (bustedWinChance(O, tables, next) ?? NaN);
    }
  }
  return state.phase === 'choice' ? Math.max(sum / 36, 1 - (bustedWinChance(O, tables, step(state, { type: 'stop' })) ?? NaN)) : sum / 36;
}

/** Checks the Bellman identity at `count` positions met along games from `start`, both seats on the coach's first choice. */
function checkAlongGames(tables: SolvedTables, p: Policy<BustedState, BustedAction>, start: () => BustedState, count: number, seed: number): void {
  const random = seededRandom(seed);
  let state = start();
  for (let checked = 0; checked < count; checked++) {
    if (state.over || p.outside(state) !== null) state = start();
    const here = bustedWinChance(O, tables, state);
    expect(here).not.toBeNull();
    expect(Math.abs(throughModule(tables, state) - (here ?? NaN))).toBeLessThan(1e-9);
    const best = p.decisions(state)[0];
    state = best && best.actions.length > 0 ? step(state, best.actions[0] as BustedAction) : step(state, roll(1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)));
  }
}

/** Plays `games` games from `start` through the module, both seats on the coach's first choice; seat A's win rate. */
function simulate(p: Policy<BustedState, BustedAction>, start: () => BustedState, games: number, seed: number): number {
  const random = seededRandom(seed);
  let wins = 0;
  for (let g = 0; g < games; g++) {
    let state = start();
    while (!state.over) {
      const best = p.decisions(state)[0];
      state = best && best.actions.length > 0 ? step(state, best.actions[0] as BustedAction) : step(state, roll(1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)));
    }
    if (busted.result(state)?.winners.includes(0)) wins++;
  }
  return wins / games;
}

describe('Busted coach: simulated endgames match the solved win chance', () => {
  it('two left of three, 45 counters each, A to throw', () => {
    const p = bustedWinChance(O, solved, endgame([45, 45])) ?? NaN;
    expect(p).toBeCloseTo(Number(solved.facts.seats3EvenMoverWins), 12);
    const games = 20000;
    expectChance(simulate(policy, () => endgame([45, 45]), games, 48), games, p);
  });

  it("the rule's two-player game, 30 counters each: the mover wins 0.437119, a fixed point of the rules, and so it plays out", () => {
    // The module seats 3+, so the two-player start is built by hand: two players, 30 counters each, an empty board.
    const start = (): BustedState => {
      const s = busted.setup(['A', 'B', 'C'], O);
      return { ...s, players: s.players.slice(0, 2) };
    };
    const two = solveBusted(O, [2]);
    const p2 = bustedCoach.restore(O, two);
    expect(two.facts.seats2Residual).toBeLessThan(1e-11);
    expect(Number(two.facts.firstPlayerWins)).toBeCloseTo(0.437119, 6);
    expect(bustedWinChance(O, two, start())).toBe(two.facts.firstPlayerWins);
    // Every position met is worth the mean of its throws through busted.apply: the figure is the rules' own.
    expect(Math.abs(throughModule(two, start()) - Number(two.facts.firstPlayerWins))).toBeLessThan(1e-9);
    checkAlongGames(two, p2, start, 300, 9);
    expectChance(simulate(p2, start, 20000, 50), 20000, Number(two.facts.firstPlayerWins));
  });
});
