import { describe, expect, it } from 'vitest';
import { cameroonCoach } from '../../src/coach/cameroon.js';
import { CAMEROON_CATEGORIES, CAMEROON_DEFAULT_OPTIONS, cameroon, type CameroonCategory, type CameroonOptions, type CameroonState } from '../../src/games/cameroon.js';
import { seededRandom } from '../games/harness.js';
import { checkBellman, checkDecisions, randomStates, simulate, step } from './scorecard-helpers.js';
import { expectAgrees } from './agreement.js';

const opts = (o: Partial<CameroonOptions> = {}): CameroonOptions => ({ ...CAMEROON_DEFAULT_OPTIONS, ...o });
const policyFor = (o: CameroonOptions) => cameroonCoach.restore(o, cameroonCoach.solve(o));

function position(options: CameroonOptions, filled: Partial<Record<CameroonCategory, number>>, dice: number[], throwsTaken: number): CameroonState {
  const base = cameroon.setup(['Solo'], options);
  const card = { ...base.players[0]!.card, ...filled };
  return { ...base, players: [{ name: 'Solo', card }], dice, throwsTaken, round: 1 + Object.keys(filled).length };
}

const allBut = (open: CameroonCategory[], points = 0): Partial<Record<CameroonCategory, number>> =>
  Object.fromEntries(CAMEROON_CATEGORIES.filter((c) => !open.includes(c)).map((c) => [c, points]));

describe('Cameroon coach', () => {
  const solved = cameroonCoach.solve(CAMEROON_DEFAULT_OPTIONS);
  const policy = cameroonCoach.restore(CAMEROON_DEFAULT_OPTIONS, solved);

  it('reports progress and rebuilds the policy from copied tables (as from disk)', () => {
    const calls: [number, number][] = [];
    const t = cameroonCoach.solve(CAMEROON_DEFAULT_OPTIONS, (done, total) => calls.push([done, total]));
    expect(calls.at(-1)).toEqual([1024, 1024]);
    const copy = { arrays: { values: new Float64Array(t.arrays.values as Float64Array) }, facts: {} };
    expect(cameroonCoach.restore(CAMEROON_DEFAULT_OPTIONS, copy).optimum).toBe(policy.optimum);
  });

  it('solves the 1024 cards in well under a second', () => {
    expect(solved.facts.states).toBe(1024);
    expect(Number(solved.facts.seconds)).toBeLessThan(1);
    // Figures of this solver (published nowhere we know of): English values 116.73, French 102.76.
    expect(policy.optimum).toBeCloseTo(116.7312, 3);
    expect(policyFor(opts({ cameroonValues: 'french' })).optimum).toBeCloseTo(102.7637, 3);
  });

  it('takes Big Cameroon when it is the last box open', () => {
    const s = position(CAMEROON_DEFAULT_OPTIONS, allBut(['bigCameroon']), [2, 3, 4, 5, 6], 1);
    const ds = policy.decisions(s);
    expect(ds[0]?.key).toBe('score:bigCameroon');
    expect(ds[0]?.label).toBe('Score 30 in Big Cameroon');
    expect(ds[0]?.value).toBe(30);
    checkDecisions(cameroon, policy, s);
  });

  it('keeps the sixes for Sixes with one throw left', () => {
    const s = position(CAMEROON_DEFAULT_OPTIONS, allBut(['sixes']), [6, 6, 1, 2, 3], 2);
    const ds = policy.decisions(s);
    expect(ds[0]?.key).toBe('keep:6,6');
    expect(ds[0]?.label).toBe('Keep 6 6, throw 3 dice');
    expect(ds[0]?.value).toBeCloseTo(12 + 3, 9);
    checkDecisions(cameroon, policy, s);
  });

  it('keeps the Bellman identity on varied cards, and ranks them validly', () => {
    const random = seededRandom(9);
    const states = randomStates(cameroon, policy, CAMEROON_DEFAULT_OPTIONS, 4, random);
    for (const s of states.filter((_, i) => i % 3 === 0)) checkDecisions(cameroon, policy, s);
    const solo = states.filter((s) => s.current === 0).map((s) => ({ ...s, players: [s.players[0]!] }));
    for (const s of solo.filter((_, i) => i % 4 === 0)) checkBellman(cameroon, policy, s);
    for (const s of solo.slice(0, 2)) checkBellman(cameroon, policy, s, 'all');
  });

  it('plays as well as it says: simulated mean within 4 standard errors', () => {
    const sim = simulate(cameroon, policy, CAMEROON_DEFAULT_OPTIONS, 1200, seededRandom(2));
    expectAgrees(sim, policy.optimum);
    const o = opts({ cameroonValues: 'french', fullHouseAllowsFiveOfAKind: true });
    const p = policyFor(o);
    const french = simulate(cameroon, p, o, 600, seededRandom(4));
    expectAgrees(french, p.optimum);
  });

  it('names committed decisions, answers fast and refuses other options', () => {
    let s = step(cameroon, cameroon.setup(['A', 'B'], CAMEROON_DEFAULT_OPTIONS), { type: 'roll', values: [1, 2, 3, 4, 4] });
    expect(policy.committed(s, { type: 'roll', values: [1, 2, 3, 4, 5] })).toBe('keep:none');
    s = step(cameroon, s, { type: 'hold', dice: [0, 1, 2, 3] });
    expect(policy.committed(s, { type: 'roll', values: [5] })).toBe('keep:1,2,3,4');
    expect(policy.committed(s, { type: 'score', category: 'fours' })).toBe('score:fours');
    // Once the best keep is held, it needs nothing but the throw.
    const best = policy.decisions(s)[0]!;
    for (const a of best.actions) s = step(cameroon, s, a);
    expect(policy.decisions(s)[0]?.key).toBe(best.key);
    expect(policy.decisions(s)[0]?.actions).toEqual([]);
    expect(policy.outside(s)).toBeNull();
    expect(policy.outside(cameroon.setup(['A'], opts({ cameroonValues: 'french' })))).toMatch(/other options/);
  });
});
