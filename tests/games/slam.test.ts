import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/index.js';
import type { InvalidAction } from '../../src/games/index.js';
import { SLAM_DEFAULT_OPTIONS, scoreSlamThrow, slam } from '../../src/games/slam.js';
import type { SlamAction, SlamOptions, SlamState } from '../../src/games/slam.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: SlamState, action: SlamAction): SlamState {
  const next = slam.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: SlamState, action: unknown): InvalidAction {
  const next = slam.apply(state, action as SlamAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): SlamAction => ({ type: 'roll', values });

/** Ann to throw (Ann, Bo and Cy playing) with slam number `s` and Ann on `score` (scenario fixture). */
function annOn(s: number, score: number, options: Partial<SlamOptions> = {}): SlamState {
  const st = step(slam.setup(['ann', 'bo', 'cy'], options), roll(s));
  return { ...st, players: st.players.map((p, i) => (i === 0 ? { ...p, score } : p)) };
}

const scores = (s: SlamState) => s.players.map((p) => p.score);

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] slam 3, score 0: [3,1,5] +1, [2,3,6] +1, [1,4,6] ends the turn with 2', () => {
    let s = step(annOn(3, 0), roll(3, 1, 5));
    expect(s.players[0]!.score).toBe(1);
    expect(s.current).toBe(0);
    s = step(s, roll(2, 3, 6));
    expect(s.players[0]!.score).toBe(2);
    s = step(s, roll(1, 4, 6));
    expect(s.players[0]!.score).toBe(2);
    expect(s.current).toBe(1);
  });
  it('#2 [S] score 14, a little slam: 19 > 15, no points, the turn ends at 14', () => {
    const s = step(annOn(2, 14), roll(2, 2, 6));
    expect(s.players[0]!.score).toBe(14);
    expect(s.current).toBe(1);
    expect(scoreSlamThrow(14, 2, [2, 2, 6])).toMatchObject({ score: 14, overshoot: true, again: false });
  });
  it('#3 [S] slam 4, score 7, [4,4,4]: grand slam, 15, finished', () => {
    const s = step(annOn(4, 7), roll(4, 4, 4));
    expect(s.players[0]).toEqual({ name: 'ann', score: 15, place: 1 });
    expect(s.current).toBe(1);
  });
  it('#4 [D] slam 6, score 10, [6,6,2]: little slam to 15, finished', () => {
    const s = step(annOn(6, 10), roll(6, 6, 2));
    expect(s.players[0]).toMatchObject({ score: 15, place: 1 });
  });
  it('#5 [D] slam 2, score 14, [2,5,5]: +1 to 15, finished', () => {
    const s = step(annOn(2, 14), roll(2, 5, 5));
    expect(s.players[0]).toMatchObject({ score: 15, place: 1 });
    expect(s.current).toBe(1);
  });
  it('#6 [D] slam 5, score 11, [5,5,1]: 16 > 15, no points, the turn ends at 11', () => {
    const s = step(annOn(5, 11), roll(5, 5, 1));
    expect(s.players[0]).toMatchObject({ score: 11, place: null });
    expect(s.current).toBe(1);
  });
  it('#7 [D] three players, two finished: the remaining player loses, game over', () => {
    let s = step(annOn(4, 0), roll(4, 4, 4)); // ann finishes
    s = step(s, roll(4, 4, 4)); // bo finishes
    expect(s.over).toBe(true);
    expect(s.loser).toBe(2);
    expect(slam.result(s)).toEqual({ winners: [0], scores: [15, 15, 0] });
    expect(slam.board(s).status).toBe('Game over: cy loses');
    expect(slam.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/over');
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('target sets the finishing score and the grand slam', () => {
    const s = step(annOn(4, 7, { target: 21 }), roll(4, 4, 4));
    expect(s.players[0]).toMatchObject({ score: 21, place: 1 });
    expect(step(annOn(2, 14, { target: 21 }), roll(2, 2, 6)).players[0]!.score).toBe(19);
  });
  it('littleSlamPoints sets the little slam', () => {
    expect(step(annOn(6, 0), roll(6, 6, 1)).players[0]!.score).toBe(5);
    expect(step(annOn(6, 0, { littleSlamPoints: 3 }), roll(6, 6, 1)).players[0]!.score).toBe(3);
  });
  it('exactTarget false: passing the target finishes instead of cancelling', () => {
    const s = step(annOn(2, 14, { exactTarget: false }), roll(2, 2, 6));
    expect(s.players[0]).toMatchObject({ score: 19, place: 1 });
  });
  it('endWhen firstFinisher: the first to finish wins and the game ends', () => {
    const s = step(annOn(4, 7, { endWhen: 'firstFinisher' }), roll(4, 4, 4));
    expect(s.over).toBe(true);
    expect(s.loser).toBeNull();
    expect(slam.result(s)).toEqual({ winners: [0], scores: [15, 0, 0] });
    expect(slam.board(s).status).toBe('Game over: ann wins');
    expect(step(annOn(4, 7), roll(4, 4, 4)).over).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('starts with one die for the slam number, thrown by the starter', () => {
    let s = slam.setup(['ann', 'bo']);
    expect(slam.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    expect(slam.board(s).status).toBe('ann: throw one die for the slam number');
    expect(refuse(s, roll(3, 3, 3)).code).toBe('game/wrong_dice_count');
    s = step(s, roll(3));
    expect(s.slam).toBe(3);
    expect(slam.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    expect(slam.legalActions(s)).toEqual([]);
  });
  it('finished players leave the rotation', () => {
    let s = step(slam.setup(['ann', 'bo', 'cy']), roll(5));
    s = step(s, roll(1, 2, 3)); // ann: nothing
    s = step(s, roll(5, 5, 5)); // bo finishes
    expect(s.current).toBe(2);
    s = step(s, roll(1, 2, 3)); // cy: nothing
    expect(s.current).toBe(0);
    s = step(s, roll(1, 2, 3));
    expect(s.current).toBe(2); // bo is skipped
    const b = slam.board(s);
    if (b.kind !== 'table') throw new Error('Slam draws a table');
    expect(b.players.map((p) => p.out)).toEqual([false, true, false]);
    expect(b.players[1]!.values).toEqual({ score: 15, place: 1 });
  });
  it('refuses bad rolls and actions with their codes', () => {
    const s = annOn(3, 0);
    expect(refuse(s, roll(3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: {} }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(3, 3, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(3, 3, '3' as unknown as number)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'stop' }).code).toBe('game/unknown_action');
    expect(refuse(s, 'roll').code).toBe('game/unknown_action');
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts at 0 points with no slam number and the defaults', () => {
    const s = slam.setup(['ann', 'bo']);
    expect(s.options).toEqual(SLAM_DEFAULT_OPTIONS);
    expect(s.slam).toBeNull();
    expect(scores(s)).toEqual([0, 0]);
  });
  it.each([
    [{ target: 0 }, 'target'],
    [{ littleSlamPoints: 2.5 }, 'littleSlamPoints'],
    [{ exactTarget: 'on' }, 'exactTarget'],
    [{ endWhen: 'never' }, 'endWhen'],
    [{ slamNumber: 3 }, 'slamNumber'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => slam.setup(['ann', 'bo'], options as Partial<SlamOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
  it('takes 2 to 8 players', () => {
    expect(() => slam.setup(['ann'])).toThrow(/2 to 8/);
    expect(() => slam.setup(Array.from({ length: 9 }, (_, i) => `p${i}`))).toThrow(GameSetupError);
  });
});

// ---------------------------------------------------------------------------
// Whole games

/** A cheap check for per-state invariants (expect() is slow over thousands of states). */
function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Scores never fall; finished players never throw again and hold the target; the slam number never changes. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as SlamState;
  for (const p of s.players) {
    if (s.options.exactTarget) must(p.score <= s.options.target, 'never past the target');
    if (p.place !== null && s.options.exactTarget) must(p.score === s.options.target, 'finished players hold the target');
  }
  if (!s.over) must(s.players[s.current]!.place === null, 'finished players never throw');
  if (previous === null) return;
  const prev = previous as SlamState;
  if (prev.slam !== null) must(s.slam === prev.slam, 'the slam number never changes');
  s.players.forEach((p, i) => {
    const before = prev.players[i]!;
    must(p.score >= before.score, 'scores never fall');
    if (before.place !== null) must(p.score === before.score && p.place === before.place, 'finished players stay as they were');
  });
}

describe('whole games', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(slam, 300, {}, invariants);
  });
  it('bot games with non-default options keep the contract', () => {
    checkContract(slam, 100, { target: 25, littleSlamPoints: 4, exactTarget: false, endWhen: 'firstFinisher' }, invariants);
  });
  it('a state survives JSON and a hand-made action list replays', () => {
    const actions: SlamAction[] = [roll(6), roll(6, 1, 2), roll(6, 6, 3), roll(2, 3, 4), roll(6, 6, 6)];
    const final = replay(slam, ['ann', 'bo'], {}, actions) as SlamState;
    expect(JSON.parse(JSON.stringify(final))).toEqual(final);
    expect(final.over).toBe(true);
    expect(final.loser).toBe(0);
    expect(slam.result(final)).toEqual({ winners: [1], scores: [6, 15] });
    const game = playBotGame(slam, ['a', 'b', 'c', 'd'], 3);
    expect(replay(slam, ['a', 'b', 'c', 'd'], {}, game.actions)).toEqual(game.final);
  });
});
