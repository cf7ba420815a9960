import { describe, it, expect } from 'vitest';
import { isInvalid } from '../../src/games/index.js';
import { MEXICO_DEFAULT_OPTIONS, mexico } from '../../src/games/mexico.js';
import type { MexicoAction, MexicoOptions, MexicoState } from '../../src/games/mexico.js';
import { mexicoCoach } from '../../src/coach/mexico.js';
import type { SolvedTables } from '../../src/coach/types.js';
import { seededRandom } from '../games/harness.js';
import { expectChance } from './agreement.js';

const opts = (o: Partial<MexicoOptions> = {}): MexicoOptions => ({ ...MEXICO_DEFAULT_OPTIONS, ...o });
// Each solve takes up to a second (the three-player tables): solve each option set once.
const solves = new Map<string, SolvedTables>();
function solvedFor(o: MexicoOptions): SolvedTables {
  const key = JSON.stringify(o);
  let t = solves.get(key);
  if (!t) {
    t = mexicoCoach.solve(o);
    solves.set(key, t);
  }
  return t;
}
const policyFor = (o: MexicoOptions) => mexicoCoach.restore(o, solvedFor(o));

function step(state: MexicoState, action: MexicoAction): MexicoState {
  const next = mexico.apply(state, action);
  if (isInvalid(next)) throw new Error(`refused ${JSON.stringify(action)}: ${next.message}`);
  return next;
}
const roll = (a: number, b: number): MexicoAction => ({ type: 'roll', values: [a, b] });

/** Both players on one life: A stood on 6-5, B has thrown 3-1 and then 6-4. */
function lastLives(): MexicoState {
  const s = mexico.setup(['A', 'B'], opts());
  const start: MexicoState = { ...s, players: s.players.map((p) => ({ ...p, lives: 1 })) };
  return [roll(6, 5), { type: 'stop' } as MexicoAction, roll(3, 1), roll(6, 4)].reduce(step, start);
}

describe('Mexico coach: decisions', () => {
  const policy = policyFor(opts());

  it('throws again on 6-4 against 6-5 on the last life: only a pair or Mexico wins, 8/36', () => {
    const state = lastLives();
    expect(state.current).toBe(1);
    const ranked = policy.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['throw', 'stop']);
    expect(ranked[0]?.value).toBeCloseTo(8 / 36, 12);
    expect(ranked[0]?.actions).toEqual([]);
    expect(ranked[1]?.value).toBe(0);
    expect(ranked[1]?.loss).toBeCloseTo(8 / 36, 12);
    expect(ranked[1]?.actions).toEqual([{ type: 'stop' }]);
    for (const d of ranked) for (const a of d.actions) step(state, a);
  });

  it('stops on a Mexico', () => {
    const state = step(mexico.setup(['A', 'B'], opts()), roll(1, 2));
    const ranked = policy.decisions(state);
    expect(ranked[0]?.key).toBe('stop');
    expect(ranked[0]?.loss).toBe(0);
    expect(ranked[1]?.loss).toBeGreaterThan(0);
  });

  it('has nothing to decide before the first throw or after the last', () => {
    const s = mexico.setup(['A', 'B'], opts());
    expect(policy.decisions(s)).toEqual([]);
    const three = [roll(3, 1), roll(3, 1), roll(3, 1)].reduce(step, s);
    expect(three.current).toBe(1);
    expect(policy.decisions(three)).toEqual([]);
  });

  it('names the committed decision', () => {
    const state = lastLives();
    expect(policy.committed(state, { type: 'stop' })).toBe('stop');
    expect(policy.committed(state, roll(2, 2))).toBe('throw');
    expect(policy.committed(mexico.setup(['A', 'B'], opts()), roll(2, 2))).toBeNull();
  });

  it('coaches two or three players still in a bigger game, and says why not with four', () => {
    const four = mexico.setup(['A', 'B', 'C', 'D'], opts());
    expect(policy.outside(four)).toMatch(/two or three players/);
    expect(policy.decisions(step(four, roll(4, 1)))).toEqual([]);
    const dOut: MexicoState = { ...four, players: four.players.map((p, i) => (i === 3 ? { ...p, lives: 0 } : p)) };
    expect(policy.outside(dOut)).toBeNull();
    expect(policy.decisions(step(dOut, roll(4, 1))).length).toBe(2);
    const bdOut: MexicoState = { ...four, players: four.players.map((p, i) => (i % 2 === 1 ? { ...p, lives: 0 } : p)) };
    expect(policy.decisions(step(bdOut, roll(4, 1))).length).toBe(2);
  });

  it('with three on their last life, the last thrower on 6-4 against two 6-5s throws again: 8/36', () => {
    const s = mexico.setup(['A', 'B', 'C'], opts());
    const start: MexicoState = { ...s, players: s.players.map((p) => ({ ...p, lives: 1 })) };
    const stop: MexicoAction = { type: 'stop' };
    const state = [roll(6, 5), stop, roll(5, 6), stop, roll(3, 1), roll(6, 4)].reduce(step, start);
    expect(state.current).toBe(2);
    const ranked = policy.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['throw', 'stop']);
    // A pair or Mexico puts A and B out together; 6-5 puts all three out: nobody wins.
    expect(ranked[0]?.value).toBeCloseTo(8 / 36, 12);
    expect(ranked[1]?.value).toBe(0);
  });

});

/** Plays whole two-player games through the module, both seats on the coach's first choice. */
function simulate(o: MexicoOptions, games: number, seed: number): { firstWins: number; secondWins: number; optimum: number; second: number } {
  const solved = solvedFor(o);
  const policy = mexicoCoach.restore(o, solved);
  const random = seededRandom(seed);
  let firstWins = 0;
  let secondWins = 0;
  for (let g = 0; g < games; g++) {
    let state = mexico.setup(['A', 'B'], o);
    while (!state.over) {
      const best = policy.decisions(state)[0];
      if (best && best.actions.length > 0) state = step(state, best.actions[0] as MexicoAction);
      else state = step(state, roll(1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)));
    }
    const winners = mexico.result(state)?.winners ?? [];
    if (winners.includes(0)) firstWins++;
    if (winners.includes(1)) secondWins++;
  }
  return { firstWins: firstWins / games, secondWins: secondWins / games, optimum: policy.optimum, second: Number(solved.facts.secondPlayerWins) };
}

/** Plays whole three-player games, every seat on the coach's first choice; each seat's win rate. */
function simulateThree(o: MexicoOptions, games: number, seed: number): { rates: number[]; solved: number[] } {
  const solved = solvedFor(o);
  const policy = mexicoCoach.restore(o, solved);
  const random = seededRandom(seed);
  const wins = [0, 0, 0];
  for (let g = 0; g < games; g++) {
    let state = mexico.setup(['A', 'B', 'C'], o);
    while (!state.over) {
      const best = policy.decisions(state)[0];
      if (best && best.actions.length > 0) state = step(state, best.actions[0] as MexicoAction);
      else state = step(state, roll(1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)));
    }
    for (const w of mexico.result(state)?.winners ?? []) wins[w] = (wins[w] ?? 0) + 1;
  }
  const f = solved.facts;
  return { rates: wins.map((w) => w / games), solved: [Number(f.threeFirstWins), Number(f.threeSecondWins), Number(f.threeThirdWins)] };
}

describe('Mexico coach: simulated games match the solved win chances', () => {
  it('three players, default rules', () => {
    const games = 8000;
    const { rates, solved } = simulateThree(opts(), games, 49);
    rates.forEach((r, i) => expectChance(r, games, solved[i] ?? NaN));
  });

  const cases: Array<[string, Partial<MexicoOptions>]> = [
    ['default', {}],
    ['throw cap, loser starts', { throwCapFromLeader: true, nextRoundStarter: 'loser' }],
    ['same seat starts, 3 lives, Mexico costs 3', { nextRoundStarter: 'sameSeat', lives: 3, mexicoPenalty: 3 }],
  ];
  for (const [name, o] of cases) {
    it(name, () => {
      const r = simulate(opts(o), 10000, 48);
      expectChance(r.firstWins, 10000, r.optimum);
      expectChance(r.secondWins, 10000, r.second);
    });
  }
});
