import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/index.js';
import type { InvalidAction } from '../../src/games/index.js';
import {
  SHUT_THE_BOX_DEFAULT_OPTIONS,
  SHUT_MAX_PENALTY,
  shutCloseOptions,
  shutOneDieUnlocked,
  shutPartialOptions,
  shutTheBox,
} from '../../src/games/shut-the-box.js';
import type { ShutTheBoxAction, ShutTheBoxOptions, ShutTheBoxState } from '../../src/games/shut-the-box.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: ShutTheBoxState, action: ShutTheBoxAction): ShutTheBoxState {
  const next = shutTheBox.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: ShutTheBoxState, action: unknown): InvalidAction {
  const next = shutTheBox.apply(state, action as ShutTheBoxAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): ShutTheBoxAction => ({ type: 'roll', values });
const close = (...boxes: number[]): ShutTheBoxAction => ({ type: 'close', boxes });

/** Ann's turn (Ann and Bo playing) with only these boxes open. */
function withOpen(open: number[], options: Partial<ShutTheBoxOptions> = {}): ShutTheBoxState {
  return { ...shutTheBox.setup(['ann', 'bo'], options), open };
}

const closes = (s: ShutTheBoxState): number[][] =>
  shutTheBox.legalActions(s).flatMap((a) => (a.type === 'close' ? [[...a.boxes]] : []));

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9];

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 [S] 5-3 on 1-9: close 8 (sum); closing 5 and 3 was also legal', () => {
    let s = step(withOpen(ALL), roll(5, 3));
    expect(closes(s)).toEqual([[8], [3, 5]]);
    s = step(s, close(8));
    expect(s.open).toEqual([1, 2, 3, 4, 5, 6, 7, 9]);
    expect(s.phase).toBe('throw');
    expect(s.current).toBe(0);
  });
  it('#2 [S] 6-5 with 8 closed: sum 11 has no box, the pair is forced', () => {
    let s = step(withOpen([1, 2, 3, 4, 5, 6, 7, 9]), roll(6, 5));
    expect(closes(s)).toEqual([[5, 6]]);
    s = step(s, close(6, 5));
    expect(s.open).toEqual([1, 2, 3, 4, 7, 9]);
  });
  it('#3 [S] 2-6 with 1,2,3,4,7,9 open: no use, the turn ends with penalty 26', () => {
    const s = step(withOpen([1, 2, 3, 4, 7, 9]), roll(2, 6));
    expect(s.players[0]!.penalties).toEqual([26]);
    expect(s.current).toBe(1);
    expect(s.open).toEqual(ALL);
  });
  it('#4 [S] same with partialUse: close 2, the turn ends with penalty 24', () => {
    let s = step(withOpen([1, 2, 3, 4, 7, 9], { partialUse: true }), roll(2, 6));
    expect(s.current).toBe(0);
    expect(closes(s)).toEqual([[2]]);
    s = step(s, close(2));
    expect(s.players[0]!.penalties).toEqual([24]);
    expect(s.current).toBe(1);
  });
  it('#5 [S] a first throw of 5-5 ends the turn with 45', () => {
    const s = step(shutTheBox.setup(['ann', 'bo']), roll(5, 5));
    expect(s.players[0]!.total).toBe(45);
    expect(s.last).toEqual({ player: 0, penalty: 45, dice: [5, 5] });
  });
  it('#6 [S] a first throw of 6-6 ends the turn with 45', () => {
    const s = step(shutTheBox.setup(['ann', 'bo']), roll(6, 6));
    expect(s.players[0]!.total).toBe(SHUT_MAX_PENALTY);
  });
  it('#7 [D] 4-4 on 1-9: only the sum, close 8', () => {
    const s = step(withOpen(ALL), roll(4, 4));
    expect(closes(s)).toEqual([[8]]);
    expect(refuse(s, close(4)).code).toBe('game/illegal_close');
    expect(step(s, close(8)).open).toEqual([1, 2, 3, 4, 5, 6, 7, 9]);
  });
  it('#8 [D] one die 3 with 1,2,3 open closes 3', () => {
    let s = step(withOpen([1, 2, 3]), { type: 'dice', count: 1 });
    expect(shutTheBox.diceRequest(s)).toEqual({ count: 1, slots: [0], player: 0, secret: false });
    s = step(s, roll(3));
    expect(s.dice).toEqual([3, null]);
    s = step(s, close(3));
    expect(s.open).toEqual([1, 2]);
  });
  it('#9 [D] two dice 1-2 with 1,2,3 open: pairOnly closes 1 and 2; sumOrPair also allows 3', () => {
    const s = step(withOpen([1, 2, 3]), roll(1, 2));
    expect(closes(s)).toEqual([[1, 2]]);
    expect(step(s, close(1, 2)).open).toEqual([3]);
    const loose = step(withOpen([1, 2, 3], { twoDiceAfterTopClosed: 'sumOrPair' }), roll(1, 2));
    expect(closes(loose)).toEqual([[3], [1, 2]]);
  });
  it('#10 [D] two dice 2-2 with 1,2,3 open: no use under pairOnly, penalty 6', () => {
    const s = step(withOpen([1, 2, 3]), roll(2, 2));
    expect(s.players[0]!.penalties).toEqual([6]);
    expect(s.current).toBe(1);
  });
});

// ---------------------------------------------------------------------------
// Pure rules and options

describe('rules and options', () => {
  it('closeOptions under the booklet rule', () => {
    expect(shutCloseOptions(ALL, [3, 4])).toEqual([[7], [3, 4]]);
    expect(shutCloseOptions(ALL, [6, 4])).toEqual([[4, 6]]);
    expect(shutCloseOptions([1, 2], [2])).toEqual([[2]]);
    expect(shutCloseOptions([1, 2], [5])).toEqual([]);
  });

  it('closeRule anyCombination allows any open boxes adding up to the throw', () => {
    const any = { ...SHUT_THE_BOX_DEFAULT_OPTIONS, closeRule: 'anyCombination' as const };
    expect(shutCloseOptions(ALL, [5, 5], any)).toEqual([[1, 2, 3, 4], [1, 2, 7], [1, 3, 6], [1, 4, 5], [1, 9], [2, 3, 5], [2, 8], [3, 7], [4, 6]]);
    // 5-5 is a dead throw under the booklet rule, not under the common one.
    const s = step(shutTheBox.setup(['ann', 'bo'], { closeRule: 'anyCombination' }), roll(5, 5));
    expect(s.phase).toBe('close');
    expect(step(s, close(1, 9)).open).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(shutCloseOptions([1, 2, 4], [3], any)).toEqual([[1, 2]]);
  });

  it('oneDieUnlock changes which boxes unlock one die', () => {
    const s = withOpen([1, 2, 3, 4, 5, 6, 7]);
    expect(shutOneDieUnlocked(s.open, s.options)).toBe(false);
    expect(refuse(s, { type: 'dice', count: 1 }).code).toBe('game/one_die_locked');
    const eightNine = withOpen([1, 2, 3, 4, 5, 6, 7], { oneDieUnlock: '8,9' });
    expect(shutTheBox.legalActions(eightNine)).toEqual([{ type: 'dice', count: 1 }]);
    expect(shutTheBox.diceRequest(step(eightNine, { type: 'dice', count: 1 }))?.count).toBe(1);
    // pairOnly follows the same unlock: with 8-9 closed 3-4 may no longer close 7.
    expect(shutCloseOptions([1, 2, 3, 4, 5, 6, 7], [3, 4], eightNine.options)).toEqual([[3, 4]]);
    expect(shutCloseOptions([1, 2, 3, 4, 5, 6, 7], [3, 4])).toEqual([[7], [3, 4]]);
    expect(() => shutTheBox.setup(['ann', 'bo'], { oneDieUnlock: '7,9' })).toThrow(/oneDieUnlock/);
  });

  it('oneDieChoice perThrow asks again before every throw; permanent keeps one die', () => {
    let s = step(withOpen([1, 2, 3, 4]), { type: 'dice', count: 1 });
    s = step(step(s, roll(4)), close(4));
    expect(s.oneDie).toBe(false);
    expect(shutTheBox.diceRequest(s)?.count).toBe(2);
    expect(shutTheBox.legalActions(s)).toEqual([{ type: 'dice', count: 1 }]);

    let p = step(withOpen([1, 2, 3, 4], { oneDieChoice: 'permanent' }), { type: 'dice', count: 1 });
    expect(shutTheBox.legalActions(p)).toEqual([]);
    expect(refuse(p, { type: 'dice', count: 2 }).code).toBe('game/one_die_kept');
    p = step(step(p, roll(4)), close(4));
    expect(shutTheBox.diceRequest(p)?.count).toBe(1);
    // Per throw, the player may go back to two dice.
    const back = step(step(withOpen([1, 2, 3, 4]), { type: 'dice', count: 1 }), { type: 'dice', count: 2 });
    expect(shutTheBox.diceRequest(back)?.count).toBe(2);
  });

  it('partialUse: doubles and blocked sums close nothing; only the open die of a pair', () => {
    const opts = { ...SHUT_THE_BOX_DEFAULT_OPTIONS, partialUse: true };
    expect(shutPartialOptions(ALL, [5, 5], opts)).toEqual([]);
    expect(shutPartialOptions([1, 2, 3, 4, 7, 9], [2, 6], opts)).toEqual([[2]]);
    expect(shutPartialOptions([1, 2, 3, 4, 7, 9], [2, 6])).toEqual([]);
    expect(shutPartialOptions([1, 9], [5, 6], opts)).toEqual([]);
    expect(shutPartialOptions(ALL, [5, 3], opts)).toEqual([]);
  });

  it('rounds gives each player several turns and adds the penalties', () => {
    let s = shutTheBox.setup(['ann', 'bo'], { rounds: 2 });
    s = step(s, roll(6, 6));
    s = step(s, roll(5, 5));
    expect(s.round).toBe(2);
    expect(s.over).toBe(false);
    s = step(step(s, roll(4, 5)), close(9));
    s = step(s, roll(6, 6)); // ann: 45 + 36
    s = step(s, roll(6, 6)); // bo: 45 + 45
    expect(s.over).toBe(true);
    expect(s.players.map((p) => p.penalties)).toEqual([[45, 36], [45, 45]]);
    expect(shutTheBox.result(s)).toEqual({ winners: [0], scores: [81, 90] });
    const one = step(step(shutTheBox.setup(['ann', 'bo']), roll(6, 6)), roll(6, 6));
    expect(one.over).toBe(true);
  });

  it('endTie: shared gives every lowest player the win; noWinner gives nobody', () => {
    const play = (o: Partial<ShutTheBoxOptions>) => step(step(shutTheBox.setup(['ann', 'bo'], o), roll(6, 6)), roll(5, 5));
    expect(shutTheBox.result(play({}))).toEqual({ winners: [0, 1], scores: [45, 45] });
    expect(shutTheBox.result(play({ endTie: 'noWinner' }))).toEqual({ winners: [], scores: [45, 45] });
    expect(shutTheBox.board(play({ endTie: 'noWinner' })).status).toMatch(/nobody/);
  });

  it('closing every box ends the turn with 0', () => {
    let s = step(withOpen([2]), { type: 'dice', count: 1 });
    s = step(step(s, roll(2)), close(2));
    expect(s.players[0]!.penalties).toEqual([0]);
    expect(s.current).toBe(1);
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('asks for two dice of the current player, then waits for a close', () => {
    let s = shutTheBox.setup(['ann', 'bo', 'cy']);
    expect(shutTheBox.diceRequest(s)).toEqual({ count: 2, slots: [0, 1], player: 0, secret: false });
    expect(shutTheBox.legalActions(s)).toEqual([]);
    s = step(s, roll(1, 2));
    expect(shutTheBox.diceRequest(s)).toBeNull();
    expect(shutTheBox.board(s).status).toBe('ann: close 3 or 1+2');
    s = step(s, close(3));
    s = step(s, roll(6, 6));
    expect(shutTheBox.diceRequest(s)?.player).toBe(1);
    expect(s.players[0]!.penalties).toEqual([42]);
  });

  it('refuses bad rolls, closes and actions with their codes', () => {
    let s = shutTheBox.setup(['ann', 'bo']);
    expect(refuse(s, roll(1)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 7)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(0, 1)).code).toBe('game/bad_die_value');
    expect(refuse(s, { type: 'roll', values: [1, '2'] }).code).toBe('game/bad_die_value');
    expect(refuse(s, close(3)).code).toBe('game/not_closing');
    expect(refuse(s, { type: 'dice', count: 3 }).code).toBe('game/bad_dice_count');
    expect(refuse(s, { type: 'shut' }).code).toBe('game/unknown_action');
    expect(refuse(s, null).code).toBe('game/unknown_action');
    s = step(s, roll(3, 4));
    expect(refuse(s, roll(1, 2)).code).toBe('game/no_roll_expected');
    expect(refuse(s, close()).code).toBe('game/bad_boxes');
    expect(refuse(s, { type: 'close', boxes: 'seven' }).code).toBe('game/bad_boxes');
    expect(refuse(s, close(1, 6)).code).toBe('game/illegal_close');
    expect(refuse(s, close(7, 7)).code).toBe('game/illegal_close');
    expect(refuse(s, { type: 'dice', count: 1 }).code).toBe('game/not_throwing');
    expect(step(s, close(4, 3)).open).toEqual([1, 2, 5, 6, 7, 8, 9]);
  });

  it('refuses everything once the game is over', () => {
    const s = step(step(shutTheBox.setup(['ann', 'bo']), roll(6, 6)), roll(6, 6));
    expect(shutTheBox.result(s)).not.toBeNull();
    expect(shutTheBox.diceRequest(s)).toBeNull();
    expect(shutTheBox.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2)).code).toBe('game/over');
    expect(shutTheBox.board(s).current).toBeNull();
  });

  it('draws the boxes and totals on the board', () => {
    const s = step(step(withOpen(ALL), roll(5, 3)), close(8));
    const b = shutTheBox.board(shutTheBox.playerView(s, null));
    expect(b.kind).toBe('table');
    expect(b.panels[0]!.items.map((i) => i.state)).toEqual(['open', 'open', 'open', 'open', 'open', 'open', 'open', 'closed', 'open']);
    expect(b.status).toBe('ann: throw two dice');
    expect(shutTheBox.board(withOpen([1, 2])).status).toBe('ann: throw two dice (one die allowed)');
  });
});

// ---------------------------------------------------------------------------
// Setup

describe('setup', () => {
  it('starts with every box open and the defaults', () => {
    const s = shutTheBox.setup(['ann', 'bo']);
    expect(s.options).toEqual(SHUT_THE_BOX_DEFAULT_OPTIONS);
    expect(s.open).toEqual(ALL);
    expect(Object.keys(s.options).sort()).toEqual(shutTheBox.optionSpecs.map((o) => o.name).sort());
  });
  it.each([
    [{ closeRule: 'any' }, 'closeRule'],
    [{ twoDiceAfterTopClosed: true }, 'twoDiceAfterTopClosed'],
    [{ oneDieChoice: 'never' }, 'oneDieChoice'],
    [{ partialUse: 'no' }, 'partialUse'],
    [{ rounds: 0 }, 'rounds'],
    [{ endTie: 'split' }, 'endTie'],
    [{ round: 2 }, 'round'],
  ])('rejects %j naming %s', (options, name) => {
    const call = () => shutTheBox.setup(['ann', 'bo'], options as Partial<ShutTheBoxOptions>);
    expect(call).toThrow(GameSetupError);
    expect(call).toThrow(name);
  });
  it('takes 2 to 6 players', () => {
    expect(() => shutTheBox.setup(['ann'])).toThrow(/2 to 6/);
    expect(() => shutTheBox.setup(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toThrow(GameSetupError);
  });
});

// ---------------------------------------------------------------------------
// Whole games

/** A cheap check for per-state invariants (expect() is slow over thousands of states). */
function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}

/** Invariants: boxes only close within a turn; a finished turn scores 45 − closed; totals add up. */
function invariants(state: unknown, previous: unknown | null): void {
  const s = state as ShutTheBoxState;
  for (const p of s.players) must(p.total === p.penalties.reduce((a, b) => a + b, 0), 'total is the sum of the penalties');
  if (previous === null) return;
  const prev = previous as ShutTheBoxState;
  const turnsBefore = prev.players.reduce((n, p) => n + p.penalties.length, 0);
  const turnsAfter = s.players.reduce((n, p) => n + p.penalties.length, 0);
  if (turnsAfter === turnsBefore) {
    must(s.current === prev.current, 'the turn passes only when scored');
    must(s.open.every((b) => prev.open.includes(b)), 'closed boxes never reopen within a turn');
  } else {
    must(turnsAfter === turnsBefore + 1, 'one turn scored at a time');
    const scored = s.players[prev.current]!.penalties.at(-1)!;
    // The last throw may still close boxes before the turn is scored.
    must(scored <= prev.open.reduce((a, b) => a + b, 0), 'penalty is at most the open boxes');
    must(s.open.length === 9, 'every box reopens for the next turn');
  }
}

describe('whole games', () => {
  it('300 bot games keep the contract and the invariants', () => {
    checkContract(shutTheBox, 300, {}, invariants);
  });
  it('bot games with non-default options keep the contract', () => {
    checkContract(shutTheBox, 100, { closeRule: 'anyCombination', oneDieChoice: 'permanent', rounds: 3, endTie: 'noWinner' }, invariants);
    checkContract(shutTheBox, 100, { partialUse: true, twoDiceAfterTopClosed: 'sumOrPair', oneDieUnlock: '4,5,6,7,8,9' }, invariants);
  });
  it('the bot uses one die when that is likelier to be usable', () => {
    const s = withOpen([1, 2]);
    expect(shutTheBox.bot(s, () => 0)).toEqual({ type: 'dice', count: 1 });
    expect(shutTheBox.bot(step(s, { type: 'dice', count: 1 }), () => 0)).toBeNull();
  });
  it('a state survives JSON and a hand-made action list replays', () => {
    const actions: ShutTheBoxAction[] = [roll(5, 3), close(8), roll(6, 5), close(5, 6), roll(2, 6), roll(6, 6)];
    const final = replay(shutTheBox, ['ann', 'bo'], {}, actions) as ShutTheBoxState;
    expect(JSON.parse(JSON.stringify(final))).toEqual(final);
    expect(final.over).toBe(true);
    expect(shutTheBox.result(final)).toEqual({ winners: [0], scores: [26, 45] });
    const game = playBotGame(shutTheBox, ['ann', 'bo', 'cy'], 7);
    expect(replay(shutTheBox, ['ann', 'bo', 'cy'], {}, game.actions)).toEqual(game.final);
  });
});
