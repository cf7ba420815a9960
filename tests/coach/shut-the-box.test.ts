import { describe, it, expect } from 'vitest';
import { isInvalid } from '../../src/games/index.js';
import { SHUT_THE_BOX_DEFAULT_OPTIONS, shutTheBox } from '../../src/games/shut-the-box.js';
import type { ShutTheBoxAction, ShutTheBoxOptions, ShutTheBoxState } from '../../src/games/shut-the-box.js';
import { shutTheBoxChancePolicy, shutTheBoxCoach, shutTheBoxExpectedPenalty, shutTheBoxShutChance } from '../../src/coach/shut-the-box.js';
import { fracText } from '../../src/coach/shut-the-box-fraction.js';
import { seededRandom } from '../games/harness.js';
import { expectAgrees, expectChance, meanAndError } from './agreement.js';

const opts = (o: Partial<ShutTheBoxOptions> = {}): ShutTheBoxOptions => ({ ...SHUT_THE_BOX_DEFAULT_OPTIONS, ...o });
const COMMON = opts({ closeRule: 'anyCombination' });

function step(state: ShutTheBoxState, action: ShutTheBoxAction): ShutTheBoxState {
  const next = shutTheBox.apply(state, action);
  if (isInvalid(next)) throw new Error(`refused ${JSON.stringify(action)}: ${next.message}`);
  return next;
}

const start = (o: ShutTheBoxOptions, patch: Partial<ShutTheBoxState> = {}): ShutTheBoxState => ({ ...shutTheBox.setup(['A', 'B'], o), ...patch });
const policyFor = (o: ShutTheBoxOptions) => shutTheBoxCoach.restore(o, shutTheBoxCoach.solve(o));

describe('Shut the Box coach: published figures', () => {
  it('reproduces 956177159/9795520512 for any combination, one die once 7, 8 and 9 are shut', () => {
    expect(fracText(shutTheBoxShutChance(COMMON))).toBe('956177159/9795520512');
    // Choosing one die for the rest of the turn never costs anything here.
    expect(fracText(shutTheBoxShutChance({ ...COMMON, oneDieChoice: 'permanent' }))).toBe('956177159/9795520512');
    const facts = shutTheBoxCoach.solve(COMMON).facts;
    expect(facts.shutFraction).toBe('956177159/9795520512');
    expect(facts.shutProbability).toBeCloseTo(0.0976137, 6);
  });

  it('gives the booklet figures', () => {
    expect(fracText(shutTheBoxShutChance(opts()))).toBe('939561295/176319369216');
    expect(fracText(shutTheBoxExpectedPenalty(opts()))).toBe('135713054125/5509980288');
    expect(fracText(shutTheBoxExpectedPenalty(COMMON))).toBe('431363714383/39182082048');
  });
});

describe('Shut the Box coach: decisions', () => {
  const policy = policyFor(COMMON);

  it('closes 3 rather than 1 and 2 from 1-2-3 after a 1-2', () => {
    // Worked by hand with one die next: {1,2} leaves (1/6)(5/3) + (1/6)(5/6) + (3/6)3 = 23/12
    // (a 3 closes both), {3} leaves (5/6)3 = 5/2.
    const state = step(start(COMMON, { open: [1, 2, 3] }), { type: 'roll', values: [1, 2] });
    const ranked = policy.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['close:3', 'close:1,2']);
    expect(ranked[0]?.value).toBeCloseTo(23 / 12, 12);
    expect(ranked[1]?.value).toBeCloseTo(5 / 2, 12);
    expect(ranked[1]?.loss).toBeCloseTo(7 / 12, 12);
    expect(ranked[0]?.loss).toBe(0);
    // Shut chances: {1,2} 1/6 + 2/36 = 2/9, {3} 1/6.
    expect(ranked[0]?.label).toContain('22.2%');
    expect(ranked[1]?.label).toContain('16.7%');
  });

  it('offers one die or two once 7, 8 and 9 are shut, with actions the module accepts', () => {
    const state = start(COMMON, { open: [1, 2] });
    const ranked = policy.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['dice:1', 'dice:2']);
    expect(ranked[0]?.actions).toEqual([{ type: 'dice', count: 1 }]);
    expect(ranked[1]?.actions).toEqual([]);
    expect(ranked[0]?.value).toBeCloseTo(23 / 12, 12);
    const oneDie = step(state, { type: 'dice', count: 1 });
    const again = policy.decisions(oneDie);
    expect(again.map((d) => [d.key, d.actions])).toEqual([
      ['dice:1', []],
      ['dice:2', [{ type: 'dice', count: 2 }]],
    ]);
    for (const d of ranked) for (const a of d.actions) step(state, a);
  });

  it('plays for the remainder or, asked to, for the shut: 1-2-3-4-6 after a 7', () => {
    const state = step(start(COMMON, { open: [1, 2, 3, 4, 6] }), { type: 'roll', values: [3, 4] });
    expect(policy.decisions(state).map((d) => d.key)).toEqual(['close:3,4', 'close:1,6', 'close:1,2,4']);
    const chance = shutTheBoxChancePolicy(COMMON, shutTheBoxCoach.solve(COMMON));
    expect(chance.measure).toBe('probability');
    expect(chance.optimum).toBeCloseTo(956177159 / 9795520512, 12);
    const ranked = chance.decisions(state);
    expect(ranked.map((d) => d.key)).toEqual(['close:1,6', 'close:3,4', 'close:1,2,4']);
    expect(ranked[1]?.loss).toBeGreaterThan(0.009);
  });

  it('has nothing to decide before the first throw', () => {
    expect(policy.decisions(start(COMMON))).toEqual([]);
    expect(policy.outside(start(COMMON))).toBeNull();
    expect(policy.outside(start(COMMON, { options: { ...COMMON, rounds: 3 } }))).toBeNull();
    const booklet = start(opts(), { open: [1, 2] });
    expect(policy.outside(booklet)).toMatch(/closeRule/);
    expect(policy.decisions(booklet)).toEqual([]);
  });

  it('names the committed decision', () => {
    const state = step(start(COMMON), { type: 'roll', values: [5, 3] });
    expect(policy.committed(state, { type: 'close', boxes: [8] })).toBe('close:8');
    expect(policy.committed(state, { type: 'close', boxes: [5, 2, 1] })).toBe('close:1,2,5');
    // A forced close decides nothing.
    const forced = step(start(COMMON, { open: [4, 9] }), { type: 'roll', values: [3, 1] });
    expect(policy.committed(forced, { type: 'close', boxes: [4] })).toBeNull();
    const choose = start(COMMON, { open: [1, 2] });
    expect(policy.committed(choose, { type: 'dice', count: 1 })).toBeNull();
    expect(policy.committed(choose, { type: 'roll', values: [3, 4] })).toBe('dice:2');
    expect(policy.committed(step(choose, { type: 'dice', count: 1 }), { type: 'roll', values: [3] })).toBe('dice:1');
    expect(policy.committed(start(COMMON), { type: 'roll', values: [3, 4] })).toBeNull();
    // permanent: choosing one die is the decision; the throws after it decide nothing.
    const perm = opts({ oneDieChoice: 'permanent' });
    const p = policyFor(perm);
    const s = start(perm, { open: [1, 2, 3] });
    expect(p.committed(s, { type: 'dice', count: 1 })).toBe('dice:1');
    expect(p.committed(step(s, { type: 'dice', count: 1 }), { type: 'roll', values: [3] })).toBeNull();
    expect(p.decisions(step(s, { type: 'dice', count: 1 }))).toEqual([]);
  });

});

/** Plays `turns` turns through the module with the coach's first choice; mean and standard error of the penalty. */
function simulate(o: ShutTheBoxOptions, turns: number, seed: number, policy = policyFor(o)): { mean: number; se: number; optimum: number; shut: number } {
  const random = seededRandom(seed);
  const penalties: number[] = [];
  let state = shutTheBox.setup(['A', 'B'], { ...o, rounds: 20 });
  while (penalties.length < turns) {
    if (state.over) state = shutTheBox.setup(['A', 'B'], { ...o, rounds: 20 });
    const best = policy.decisions(state)[0];
    const request = shutTheBox.diceRequest(state);
    const actions: ShutTheBoxAction[] =
      best && best.actions.length > 0 ? [...best.actions] : request ? [{ type: 'roll', values: Array.from({ length: request.count }, () => 1 + Math.floor(random() * 6)) }] : [];
    if (actions.length === 0) throw new Error('stuck');
    for (const a of actions) {
      const before = state;
      state = step(state, a);
      if (state.last !== before.last && state.last) penalties.push(state.last.penalty);
    }
  }
  return { ...meanAndError(penalties), optimum: policy.optimum, shut: penalties.filter((p) => p === 0).length / turns };
}

describe('Shut the Box coach: simulated turns match the solved value', () => {
  const cases: Array<[string, Partial<ShutTheBoxOptions>]> = [
    ['booklet', {}],
    ['any combination', { closeRule: 'anyCombination' }],
    ['booklet, permanent one die, partial use', { oneDieChoice: 'permanent', partialUse: true }],
    ['booklet, sum or pair after 7-8-9', { twoDiceAfterTopClosed: 'sumOrPair', oneDieUnlock: '8,9' }],
  ];
  for (const [name, o] of cases) {
    it(name, () => {
      const sim = simulate(opts(o), 20000, 48);
      expectAgrees(sim, sim.optimum);
    });
  }
  it('shuts the box 9.76% of the time playing for the shut (any combination)', () => {
    const { shut } = simulate(COMMON, 20000, 49, shutTheBoxChancePolicy(COMMON, shutTheBoxCoach.solve(COMMON)));
    expectChance(shut, 20000, 956177159 / 9795520512);
  });
});
