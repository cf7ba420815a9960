/**
 * Plays whole games with the game's own bot and seeded dice, checking the
 * contract every game must keep at every step. Shared by the contract test
 * over every registered game and by the per-game tests.
 */
import fc from 'fast-check';
import { isInvalid, type AnyGameDef, type GameResult } from '../../src/games/index.js';

/** mulberry32: a tiny seeded generator, so a failing seed replays exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlayedGame {
  readonly result: GameResult;
  readonly actions: ReadonlyArray<{ type: string }>;
  readonly states: readonly unknown[];
  readonly final: unknown;
}

/** Most steps a game may take before the harness calls it stuck. */
const MAX_STEPS = 20_000;

/**
 * Plays one game to its end. Throws, naming the seed and step, when the game
 * throws, refuses its own bot's move, gets stuck or runs forever. `onState`
 * sees every state (for game-specific invariants).
 */
export function playBotGame(
  def: AnyGameDef,
  players: readonly string[],
  seed: number,
  options: Record<string, unknown> = {},
  onState?: (state: unknown, previous: unknown | null) => void,
): PlayedGame {
  const random = seededRandom(seed);
  let state = def.setup(players, options);
  const actions: Array<{ type: string }> = [];
  const states: unknown[] = [state];
  onState?.(state, null);
  for (let step = 0; step < MAX_STEPS; step++) {
    const result = def.result(state);
    if (result) return { result, actions, states, final: state };
    const where = `${def.id} seed ${seed} step ${step}`;
    const request = def.diceRequest(state);
    const legal = def.legalActions(state);
    if (request === null && legal.length === 0) throw new Error(`${where}: not over, but no roll is asked for and no action is legal`);
    const choice = def.bot(state, random);
    let action: { type: string };
    if (choice === null) {
      if (request === null) throw new Error(`${where}: the bot asked to throw, but the game asks for no roll`);
      action = { type: 'roll', values: Array.from({ length: request.count }, () => 1 + Math.floor(random() * 6)) } as { type: string };
    } else {
      action = choice;
    }
    const next = def.apply(state, action);
    if (isInvalid(next)) throw new Error(`${where}: the game refused ${JSON.stringify(action)}: ${next.code} ${next.message}`);
    onState?.(next, state);
    actions.push(action);
    states.push(next);
    state = next;
  }
  throw new Error(`${def.id} seed ${seed}: no end after ${MAX_STEPS} steps`);
}

/** Re-applies a recorded action list from setup. */
export function replay(def: AnyGameDef, players: readonly string[], options: Record<string, unknown>, actions: ReadonlyArray<{ type: string }>): unknown {
  let state = def.setup(players, options);
  for (const action of actions) {
    const next = def.apply(state, action);
    if (isInvalid(next)) throw new Error(`replay refused ${JSON.stringify(action)}: ${next.message}`);
    state = next;
  }
  return state;
}

const isPlainJson = (x: unknown) => JSON.stringify(JSON.parse(JSON.stringify(x))) === JSON.stringify(x);

/** The seat counts `options` can be played with: the game's own range for them, or its fixed one. */
export function seats(def: AnyGameDef, options: Record<string, unknown> = {}): { min: number; max: number } {
  return def.playerRange ? def.playerRange(options) : { min: def.minPlayers, max: def.maxPlayers };
}

/**
 * The contract as one check over `runs` bot-played games (seeds and seat
 * counts drawn by fast-check, reproducibly): each ends with a valid result,
 * never throws, never gets stuck, its bot only makes legal moves; on a
 * sample, every state is plain JSON and the history replays to the same
 * state. `onState` adds the game's own invariants.
 */
export function checkContract(
  def: AnyGameDef,
  runs: number,
  options: Record<string, unknown> = {},
  onState?: (state: unknown, previous: unknown | null) => void,
): void {
  let checkedReplays = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: seats(def, options).min, max: Math.min(seats(def, options).max, 6) }), (seed, n) => {
      const players = Array.from({ length: n }, (_, i) => `P${i + 1}`);
      const game = playBotGame(def, players, seed, options, onState);
      const { winners, scores } = game.result;
      if (scores.length !== n) throw new Error(`${def.id} seed ${seed}: ${scores.length} scores for ${n} players`);
      if (winners.some((w) => !(w >= 0 && w < n)) || new Set(winners).size !== winners.length) {
        throw new Error(`${def.id} seed ${seed}: bad winners ${JSON.stringify(winners)}`);
      }
      if (checkedReplays < 20 || seed % 50 === 0) {
        checkedReplays++;
        if (!game.states.every(isPlainJson)) throw new Error(`${def.id} seed ${seed}: a state is not plain JSON`);
        const again = replay(def, players, options, game.actions);
        if (JSON.stringify(again) !== JSON.stringify(game.final)) throw new Error(`${def.id} seed ${seed}: replay gives another state`);
        // The public board can be drawn at every step of a sampled game.
        for (const s of game.states) def.board(def.playerView(s, null));
      }
    }),
    { numRuns: runs, seed: 20261130 },
  );
}
