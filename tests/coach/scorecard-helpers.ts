/**
 * Shared checks for the scorecard coaches (Yatzy, Dice Poker, Cameroon):
 * whole solitaire games played through the real game module with the
 * coach's best decision, the shape of `decisions`, and the Bellman identity
 * between a decision's value and the decisions that follow it.
 */
import { expect } from 'vitest';
import { isInvalid } from '../../src/games/types.js';
import { meanAndError } from './agreement.js';
import type { GameDef } from '../../src/games/types.js';
import type { Policy } from '../../src/coach/types.js';
import type { ScorecardActionLike, ScorecardStateLike } from '../../src/coach/scorecard-policy.js';

type AnyState = ScorecardStateLike<string> & { readonly options: unknown };
type AnyAction = ScorecardActionLike<string>;
type AnyGame = GameDef<AnyState, AnyAction, unknown>;
type AnyPolicy = Policy<AnyState, AnyAction>;

export function step<S, A extends { type: string }>(game: GameDef<S, A, unknown>, state: S, action: A): S {
  const next = game.apply(state, action);
  if (isInvalid(next)) throw new Error(`refused ${JSON.stringify(action)}: ${next.message}`);
  return next;
}

/** Throws the dice the state asks for, from `random`. */
export function throwDice<S, A extends { type: string }>(game: GameDef<S, A, unknown>, state: S, random: () => number): S {
  const request = game.diceRequest(state);
  if (request === null) throw new Error('no throw requested');
  const values = Array.from({ length: request.count }, () => 1 + Math.floor(random() * 6));
  return step(game, state, { type: 'roll', values } as unknown as A);
}

/** Plays the decision: its actions, then the throw unless it scored. */
export function play<S, A extends { type: string }>(game: GameDef<S, A, unknown>, state: S, actions: readonly A[], random: () => number): S {
  let s = state;
  for (const a of actions) s = step(game, s, a);
  const scored = actions.some((a) => a.type === 'score');
  return scored ? s : throwDice(game, s, random);
}

/** One whole solitaire game with the coach's best decision each time; the final total. */
export function playOut<S extends AnyState, A extends AnyAction, O>(game: GameDef<S, A, O>, policy: Policy<S, A>, options: O, random: () => number): number {
  let s = game.setup(['Solo'], options);
  while (!s.over) {
    if (s.throwsTaken === 0) {
      s = throwDice(game, s, random);
      continue;
    }
    const best = policy.decisions(s)[0];
    if (best === undefined) throw new Error('no decision in a state that needs one');
    s = play(game, s, best.actions, random);
  }
  const result = game.result(s);
  return result?.scores[0] ?? NaN;
}

/** Mean and standard error of the final score of `n` simulated games. */
export function simulate<S extends AnyState, A extends AnyAction, O>(game: GameDef<S, A, O>, policy: Policy<S, A>, options: O, n: number, random: () => number) {
  return meanAndError(Array.from({ length: n }, () => playOut(game, policy, options, random)));
}

/** States met along games where every decision is picked at random (a spread of cards and dice). */
export function randomStates<S extends AnyState, A extends AnyAction, O>(game: GameDef<S, A, O>, policy: Policy<S, A>, options: O, games: number, random: () => number): S[] {
  const out: S[] = [];
  for (let g = 0; g < games; g++) {
    let s = game.setup(['A', 'B'], options);
    while (!s.over) {
      if (s.throwsTaken === 0) {
        s = throwDice(game, s, random);
        continue;
      }
      out.push(s);
      const open = policy.decisions(s);
      // Mostly good moves, some random ones, so cards fill in varied ways.
      const pick = random() < 0.5 ? open[0] : open[Math.floor(random() * open.length)];
      if (pick === undefined) throw new Error('no decision');
      s = play(game, s, pick.actions, random);
    }
  }
  return out;
}

/** Multisets of `n` dice with their probabilities. */
export function outcomes(n: number): { dice: number[]; p: number }[] {
  const out: { dice: number[]; p: number }[] = [];
  const fact = [1, 1, 2, 6, 24, 120];
  const walk = (face: number, left: number, dice: number[], ways: number): void => {
    if (face === 6) {
      const all = [...dice, ...Array<number>(left).fill(6)];
      out.push({ dice: all, p: ways / (fact[left] ?? 1) / 6 ** n });
      return;
    }
    for (let k = 0; k <= left; k++) walk(face + 1, left - k, [...dice, ...Array<number>(k).fill(face)], ways / (fact[k] ?? 1));
  };
  walk(1, n, [], fact[n] ?? 1);
  return out;
}

/**
 * Checks the decisions of `state`: sorted, loss 0 first, keys unique, every
 * decision's actions legal in the game, the held dice of a keep matching its
 * key, and `committed` naming the decision back (none for a forced row).
 */
export function checkDecisions<S extends AnyState, A extends AnyAction>(game: GameDef<S, A, unknown>, policy: Policy<S, A>, state: S): void {
  const ds = policy.decisions(state);
  expect(ds.length).toBeGreaterThan(0);
  expect(ds[0]?.loss).toBe(0);
  expect(new Set(ds.map((d) => d.key)).size).toBe(ds.length);
  for (let i = 1; i < ds.length; i++) {
    expect((ds[i - 1]?.value ?? 0) >= (ds[i]?.value ?? 0)).toBe(true);
    expect(ds[i]?.loss).toBeCloseTo((ds[0]?.value ?? 0) - (ds[i]?.value ?? 0), 9);
  }
  for (const d of ds) {
    let s = state;
    for (const a of d.actions) s = step(game, s, a);
    if (d.key.startsWith('score:')) {
      expect(d.actions).toHaveLength(1);
      // A row that is the only decision open (the last throw, one row left) is forced: it commits nothing.
      expect(policy.committed(state, d.actions[0] as A)).toBe(ds.length > 1 ? d.key : null);
      continue;
    }
    expect(d.key.startsWith('keep:')).toBe(true);
    const kept = s.dice.flatMap((v, i) => (s.held[i] && v !== null ? [v] : [])).sort((a, b) => a - b);
    expect(d.key).toBe(kept.length === 0 ? 'keep:none' : `keep:${kept.join(',')}`);
    const request = game.diceRequest(s);
    expect(request?.count).toBe(5 - kept.length);
    expect(policy.committed(s, { type: 'roll', values: Array<number>(5 - kept.length).fill(1) } as unknown as A)).toBe(d.key);
  }
}

/**
 * The Bellman identity: a decision's value equals the mean, over what the
 * dice do next, of the best decision value that follows (for a score in a
 * one-player game, over the next turn's first throw). Checks the tables,
 * the Joker model and the game's own scoring agree.
 */
export function checkBellman<S extends AnyState, A extends AnyAction>(game: GameDef<S, A, unknown>, policy: Policy<S, A>, state: S, which: 'best' | 'all' = 'best'): void {
  const ds = policy.decisions(state);
  for (const d of which === 'best' ? ds.slice(0, 1) : ds) {
    let s = state;
    for (const a of d.actions) s = step(game, s, a);
    if (s.over) {
      expect(d.value).toBeCloseTo(game.result(s)?.scores[state.current] ?? NaN, 6);
      continue;
    }
    const n = game.diceRequest(s)?.count ?? 0;
    let mean = 0;
    for (const o of outcomes(n)) {
      const next = step(game, s, { type: 'roll', values: o.dice } as unknown as A);
      mean += o.p * (policy.decisions(next)[0]?.value ?? NaN);
    }
    expect(mean).toBeCloseTo(d.value, 6);
  }
}

export type { AnyGame, AnyPolicy };
