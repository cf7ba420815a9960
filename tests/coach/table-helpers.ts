/**
 * The coach at the table, for any coached game: a table whose tower throws
 * seeded dice (or the values a test names), the app over it, and the moves a
 * test makes through the API — ask for a hint, carry out a ranked decision,
 * play on with the coach's best, let bots play a game out.
 */
import { expect } from 'vitest';
import { Table, type BotLevel, type TableGame } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { CoachLibrary } from '../../src/coach/library.js';
import { findCoach, type AnyCoach, type RankedDecision } from '../../src/coach/index.js';
import { SeededRandom, type Camera, type Frame, type Tower } from '../../src/hardware/index.js';
import type { DiceReader } from '../../src/vision/index.js';

export const TOKEN = 'coach-test-operator-token-0123456789';
export const auth = { authorization: `Bearer ${TOKEN}` };

const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };

/** A tower whose camera "reads" seeded random dice, as many as the tower was asked to throw. */
export function seededDice(seed: number): { tower: Tower; camera: Camera; reader: DiceReader } {
  const random = new SeededRandom(seed);
  let count = 0;
  return {
    tower: { kind: 'test', roll: async (n: number) => void (count = n) },
    camera: { capture: async () => frame },
    reader: {
      read: async () => ({
        dice: Array.from({ length: count }, (_, i) => ({ value: 1 + Math.floor(random.next() * 6), colour: 'red', center: { x: i, y: 0 }, box: [], size: 8, confidence: 1 })),
        valid: true,
        problems: [],
        width: 10,
        height: 10,
        ms: 1,
      }),
    },
  };
}

export type Decision = RankedDecision<{ type: string }>;

export interface HintBody {
  readonly seat: number | null;
  readonly optimum: number;
  readonly decisions: Decision[];
}

export interface AnalysisBody {
  readonly over: boolean;
  readonly players: ReadonlyArray<{ readonly seat: number; readonly decisions: number; readonly totalLoss: number }>;
  readonly decisions: ReadonlyArray<{ readonly step: number; readonly seat: number; readonly chosen: { readonly key: string }; readonly best: { readonly key: string }; readonly loss: number }>;
  readonly skipped: ReadonlyArray<{ readonly step: number; readonly reason: string }>;
}

/** The real coach of `game`, solving in this thread; share one between tables to solve once. */
export const coachOf = (game: string): CoachLibrary => new CoachLibrary({ coaches: { [game]: findCoach(game) as AnyCoach }, cacheDir: null, inWorker: false });

export interface TableChoices {
  /** The seeded dice thrown where a test names none. */
  readonly seed?: number;
  readonly bots?: readonly number[];
  readonly levels?: Readonly<Record<number, BotLevel>>;
  /** A coach to share (a big solve done once); default: a new one. */
  readonly coach?: CoachLibrary;
}

/** A table with the real coach of `game`, the app over it and a game at it. */
export function coachTable(game: string, players: readonly string[], options: Record<string, unknown>, { seed = 1, bots = [], levels = {}, coach = coachOf(game) }: TableChoices = {}) {
  const table = new Table({ ...seededDice(seed), botDelayMs: 0, coach });
  const app = buildApp({ table, version: 'test', operatorToken: TOKEN });
  const id = table.create(game, players, options, bots, levels).id;
  return { app, table, coach, id };
}

type Setup = ReturnType<typeof coachTable>;

const over = ({ table, id }: Setup): boolean => {
  const game = table.get(id);
  return table.definition(game).result(game.state) !== null;
};

/** Throws for the player to move: these values, or the seeded dice. */
export async function roll({ app, id }: Setup, values?: number[]): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: auth, payload: values ? { values } : {} });
  expect(res.statusCode, res.body).toBe(200);
}

/** The operator's hint now (the decisions open, best first). */
export async function hint({ app, id }: Setup): Promise<HintBody> {
  const res = await app.inject({ method: 'GET', url: `/api/games/${id}/hint`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as HintBody;
}

export async function analysis({ app, id }: Setup): Promise<AnalysisBody> {
  const res = await app.inject({ method: 'GET', url: `/api/games/${id}/analysis` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AnalysisBody;
}

/** The decision named `key` among the hint's, which must be there. */
export function pick(h: HintBody, key: string): Decision {
  const found = h.decisions.find((d) => d.key === key);
  if (!found) throw new Error(`no decision ${key} among ${h.decisions.map((d) => d.key).join(', ')}`);
  return found;
}

/**
 * Carries out a ranked decision through the API: its actions, then the throw
 * when the throw is what carries it out — an empty list ("throw now"), or a
 * keep whose dice are now held (the state after it ranks the same decision
 * with nothing left to do) — with these values or the seeded dice.
 */
export async function carryOut(setup: Setup, decision: Decision, values?: number[]): Promise<void> {
  const { app, table, coach, id } = setup;
  for (const action of decision.actions) {
    const res = await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, headers: auth, payload: action });
    expect(res.statusCode, res.body).toBe(200);
  }
  const game = table.get(id);
  const policy = await coach.policy(game.game, { ...table.definition(game).defaultOptions, ...game.options });
  const thrown = decision.actions.length === 0 || policy.decisions(game.state).some((d) => d.key === decision.key && d.actions.length === 0);
  if (thrown) await roll(setup, values);
}

/**
 * Plays on with the coach's best decision, throwing seeded dice where nothing
 * is to be decided, until the game is over or `until` says stop; a forced step
 * outside the dice (nothing ranked, no throw asked for) is the game's first legal action.
 */
export async function playOn(setup: Setup, until: () => boolean = () => false): Promise<void> {
  const { app, table, id } = setup;
  for (let guard = 0; guard < 2000; guard++) {
    if (over(setup) || until()) return;
    const h = await hint(setup);
    const best = h.decisions[0];
    if (best) {
      await carryOut(setup, best);
      continue;
    }
    const game = table.get(id);
    const def = table.definition(game);
    if (def.diceRequest(game.state)) await roll(setup);
    else {
      const res = await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, headers: auth, payload: def.legalActions(game.state)[0] });
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  throw new Error('the game did not end');
}

/** Waits for a game of bots only to end by itself. */
export async function botsPlayOut(table: Table, id: string): Promise<TableGame> {
  await expect.poll(() => table.definition(table.get(id)).result(table.get(id).state) !== null, { timeout: 120_000, interval: 20 }).toBe(true);
  return table.get(id);
}
