import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/index.js';
import type { InvalidAction } from '../../src/games/index.js';
import { MARTINETTI_DEFAULT_OPTIONS, martinettiCrossCount, martinetti, martinettiTarget, martinettiReachable, martinettiTrack } from '../../src/games/martinetti.js';
import type { MartinettiAction, MartinettiOptions, MartinettiState } from '../../src/games/martinetti.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: MartinettiState, action: MartinettiAction): MartinettiState {
  const next = martinetti.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: MartinettiState, action: unknown): InvalidAction {
  const next = martinetti.apply(state, action as MartinettiAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): MartinettiAction => ({ type: 'roll', values });

/** Ann's turn (Ann and Bo playing) with Ann having crossed `crossed` squares (scenario fixture). */
function annAt(crossed: number, options: Partial<MartinettiOptions> = {}): MartinettiState {
  const s = martinetti.setup(['ann', 'bo'], options);
  return { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, crossed } : p)) };
}

/** Crossed count for a next target on the way up (1..12) or back (11..1) with the default track. */
const up = (target: number) => target - 1;
const back = (target: number) => 12 + (11 - target);

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] target 1, 1-1-4: cross 1 and 2, next target 3, throw again', () => {
    const s = step(annAt(up(1)), roll(1, 1, 4));
    expect(s.lastCrossed).toEqual([1, 2]);
    expect(martinettiTarget(s, 0)).toBe(3);
    expect(s.current).toBe(0);
    expect(martinetti.diceRequest(s)?.player).toBe(0);
  });
  it('#2 [S] target 3, 3-5-6: cross 3 only (reachable 3,5,6,8,9,11,14), throw again', () => {
    expect(martinettiReachable([3, 5, 6])).toEqual([3, 5, 6, 8, 9, 11, 14]);
    const s = step(annAt(up(3)), roll(3, 5, 6));
    expect(s.lastCrossed).toEqual([3]);
    expect(martinettiTarget(s, 0)).toBe(4);
    expect(s.current).toBe(0);
  });
  it('#3 [S] target 4, 1-2-6: 4 is not reachable, nothing crossed, the turn ends', () => {
    expect(martinettiReachable([1, 2, 6])).toEqual([1, 2, 3, 6, 7, 8, 9]);
    const s = step(annAt(up(4)), roll(1, 2, 6));
    expect(s.lastCrossed).toEqual([]);
    expect(martinettiTarget(s, 0)).toBe(4);
    expect(s.current).toBe(1);
  });
  it('#4 [S] target 1, 1-2-4: cross 1 to 7, next target 8', () => {
    const s = step(annAt(up(1)), roll(1, 2, 4));
    expect(s.lastCrossed).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(martinettiTarget(s, 0)).toBe(8);
  });
  it('#5 [D] target 11 on the way up, 5-6-1: cross 11 and 12, the turn ends, next 11 on the way back', () => {
    const s = step(annAt(up(11)), roll(5, 6, 1));
    expect(s.lastCrossed).toEqual([11, 12]);
    expect(s.current).toBe(1);
    expect(martinettiTarget(s, 0)).toBe(11);
    expect(s.players[0]!.crossed).toBe(back(11));
  });
  it('#6 [D] target 11 on the way back, 5-6-3: cross 11, next 10, throw again', () => {
    const s = step(annAt(back(11)), roll(5, 6, 3));
    expect(s.lastCrossed).toEqual([11]);
    expect(martinettiTarget(s, 0)).toBe(10);
    expect(s.current).toBe(0);
  });
  it('#7 [D] target 2 on the way back, 1-1-3: cross 2 and 1, the player wins', () => {
    const s = step(annAt(back(2)), roll(1, 1, 3));
    expect(s.lastCrossed).toEqual([2, 1]);
    expect(martinetti.result(s)).toEqual({ winners: [0], scores: [23, 0] });
    expect(martinetti.diceRequest(s)).toBeNull();
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/over');
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('the default track goes 1..12 and back 11..1', () => {
    expect(martinettiTrack()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });
  it('reuseDice false: every die serves one square at most', () => {
    expect(martinettiCrossCount([1, 2, 4], [1, 2, 3, 4, 5, 6, 7], false)).toBe(2); // 1, 2; 3 would need both again
    expect(martinettiCrossCount([1, 1, 4], [1, 2, 3], false)).toBe(1);
    expect(martinettiCrossCount([2, 1, 3], [1, 2, 3], false)).toBe(3);
    // The dice are shared out to cross the most: 3 = 1+2 would waste them.
    expect(martinettiCrossCount([1, 2, 3], [3, 4], false)).toBe(1);
    expect(martinettiCrossCount([1, 2, 4], [3, 4], false)).toBe(2);
    const s = step(annAt(up(1), { reuseDice: false }), roll(1, 2, 4));
    expect(s.lastCrossed).toEqual([1, 2]);
  });
  it('returnIncludesTwelve: the way back crosses 12 again', () => {
    expect(martinettiTrack({ topSquare: 12, returnIncludesTwelve: true })).toHaveLength(24);
    let s = step(annAt(up(11), { returnIncludesTwelve: true }), roll(5, 6, 1));
    expect(martinettiTarget(s, 0)).toBe(12);
    s = step(step(s, roll(6, 6, 6)), roll(6, 6, 5));
    expect(s.lastCrossed).toEqual([12, 11]);
  });
  it('topSquare sets the turning point', () => {
    expect(martinettiTrack({ topSquare: 4, returnIncludesTwelve: false })).toEqual([1, 2, 3, 4, 3, 2, 1]);
    const s = step(annAt(up(1), { topSquare: 4 }), roll(1, 2, 4));
    expect(s.lastCrossed).toEqual([1, 2, 3, 4]);
    expect(s.current).toBe(1); // crossing the top ends the turn
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('always asks the current player for three dice and offers no decisions', () => {
    let s = martinetti.setup(['ann', 'bo', 'cy']);
    expect(martinetti.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    expect(martinetti.legalActions(s)).toEqual([]);
    s = step(s, roll(2, 3, 5));
    expect(s.current).toBe(1);
    s = step(s, roll(6, 6, 6));
    expect(s.current).toBe(2);
    s = step(s, roll(6, 6, 2));
    expect(s.current).toBe(0);
  });
  it('refuses bad rolls and actions with their codes', () => {
    const s = martinetti.setup(['ann', 'bo']);
    expect(refuse(s, roll(1, 2)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: null }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 1.5)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'cross', square: 1 }).code).toBe('game/unknown_action');
    expect(refuse(s, undefined).code).toBe('game/unknown_action');
  });
  it('draws the track of the current player', () => {
    const s = step(annAt(up(1)), roll(1, 1, 4));
    const b = martinetti.board(martinetti.playerView(s, null));
    if (b.kind !== 'table') throw new Error('Martinetti draws a table');
    expect(b.status).toBe('ann: throw for 3 up');
    expect(b.panels[0]!.items.slice(0, 4).map((i) => i.state)).toEqual(['closed', 'closed', 'active', 'open']);
    expect(b.players[0]!.values).toEqual({ next: '3 up', crossed: '2 of 23' });
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts everyone at square 1 with the defaults', () => {
    const s = martinetti.setup(['ann', 'bo']);
    expect(s.options).toEqual(MARTINETTI_DEFAULT_OPTIONS);
    expect(martinettiTarget(s, 0)).toBe(1);
    expect(martinettiTarget(s, 1)).toBe(1);
  });
  it.each([
    [{ reuseDice: 'yes' }, 'reuseDice'],
    [{ returnIncludesTwelve: 0 }, 'returnIncludesTwelve'],
    [{ topSquare: 19 }, 'topSquare'],
    [{ top: 12 }, 'top'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => martinetti.setup(['ann', 'bo'], options as Partial<MartinettiOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
  it('takes 2 to 8 players', () => {
    expect(() => martinetti.setup(['ann'])).toThrow(/2 to 8/);
  });
});

// ---------------------------------------------------------------------------
// Whole games

/** A cheap check for per-state invariants (expect() is slow over thousands of states). */
function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Progress never goes back; only the thrower moves; the turn passes only on a dead throw or at the top. */
function invariants(state: unknown, previous: unknown | null): void {
  if (previous === null) return;
  const s = state as MartinettiState;
  const prev = previous as MartinettiState;
  s.players.forEach((p, i) => {
    const before = prev.players[i]!.crossed;
    must(i === prev.current ? p.crossed >= before : p.crossed === before, 'only the thrower moves, and only forward');
  });
  if (s.current !== prev.current) {
    must(s.lastCrossed.length === 0 || s.lastCrossed.at(-1) === s.options.topSquare, 'the turn passes on a dead throw or at the top');
  }
}

describe('whole games', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(martinetti, 300, {}, invariants);
  });
  it('bot games with non-default options keep the contract', () => {
    checkContract(martinetti, 100, { reuseDice: false, returnIncludesTwelve: true, topSquare: 15 }, invariants);
  });
  it('a state survives JSON and a hand-made action list replays', () => {
    const actions: MartinettiAction[] = [roll(1, 2, 4), roll(4, 4, 6), roll(1, 1, 1), roll(1, 3, 4)];
    const final = replay(martinetti, ['ann', 'bo'], {}, actions) as MartinettiState;
    expect(JSON.parse(JSON.stringify(final))).toEqual(final);
    expect(final.players.map((p) => p.crossed)).toEqual([8, 1]);
    expect(final.current).toBe(1);
    const game = playBotGame(martinetti, ['a', 'b', 'c'], 5);
    expect(replay(martinetti, ['a', 'b', 'c'], {}, game.actions)).toEqual(game.final);
  });
});
