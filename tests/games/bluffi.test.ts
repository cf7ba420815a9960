import { describe, it, expect } from 'vitest';
import { GameSetupError, isInvalid } from '../../src/games/types.js';
import type { InvalidAction, TableBoard } from '../../src/games/types.js';
import { DEFAULT_OPTIONS, OPTION_SPECS, bluffi, chanceAtLeast, judgeBluffi, maySee, minimumAnnouncement } from '../../src/games/bluffi.js';
import type { BluffiAction, BluffiOptions, BluffiState } from '../../src/games/bluffi.js';
import { checkContract, playBotGame, replay } from './harness.js';

// ---------------------------------------------------------------------------
// Helpers

function step(state: BluffiState, action: BluffiAction): BluffiState {
  const next = bluffi.apply(state, action);
  if (isInvalid(next)) throw new Error(`unexpected refusal ${next.code}: ${next.message}`);
  return next;
}

function refuse(state: BluffiState, action: unknown): InvalidAction {
  const next = bluffi.apply(state, action as BluffiAction);
  if (!isInvalid(next)) throw new Error(`expected a refusal for ${JSON.stringify(action)}`);
  return next;
}

const roll = (...values: number[]): BluffiAction => ({ type: 'roll', values });
const announce = (total: number): BluffiAction => ({ type: 'announce', total });
const ACCEPT: BluffiAction = { type: 'accept' };
const BLUFFI: BluffiAction = { type: 'challenge' };
const counters = (s: BluffiState): number[] => s.players.map((p) => p.counters);
const table = (s: BluffiState): TableBoard => bluffi.board(s) as TableBoard;

/** A, B and C (or the first n of them) after an open throw-off that A wins; A is to throw. */
function started(options: Partial<BluffiOptions> = {}, n = 3): BluffiState {
  let s = bluffi.setup(['A', 'B', 'C', 'D'].slice(0, n), options);
  s = step(s, roll(6, 6, 6));
  for (let i = 1; i < n; i++) s = step(s, roll(1, 2, 3));
  return s;
}

/** A throws `dice` and announces `total`. */
const aAnnounces = (s: BluffiState, total: number, ...dice: number[]) => step(step(s, roll(...dice)), announce(total));

// ---------------------------------------------------------------------------
// Spec "Examples to test"

describe('spec examples', () => {
  it('#1 A: 9 with 2-3-4, B calls "Bluffi!": true, A gives 1 to B (A 4, B 6); new round', () => {
    const s = step(aAnnounces(started(), 9, 2, 3, 4), BLUFFI);
    expect(counters(s)).toEqual([4, 6, 5]);
    expect(s.lastChallenge).toMatchObject({ announced: 9, dice: [2, 3, 4], total: 9, truthful: true, giver: 0, receiver: 1 });
    expect(s.phase).toBe('throw');
    expect(s.round).toBe(2);
    expect(s.announcement).toBeNull();
    expect(judgeBluffi([2, 3, 4], 9, 0, 1)).toEqual({ total: 9, truthful: true, giver: 0, receiver: 1 });
  });
  it('#2 A: 9 with 1-2-4 (7), B calls "Bluffi!": a lie, B gives 1 to A (B 4, A 6); new round', () => {
    const s = step(aAnnounces(started(), 9, 1, 2, 4), BLUFFI);
    expect(counters(s)).toEqual([6, 4, 5]);
    expect(s.lastChallenge).toMatchObject({ total: 7, truthful: false, giver: 1, receiver: 0 });
    expect(s.phase).toBe('throw');
    expect(s.announcement).toBeNull();
  });
  it('#3 A: 9, B accepts: A pays 1 into the pot (A 4); B throws and must announce 10 or more', () => {
    let s = step(aAnnounces(started(), 9, 5, 5, 5), ACCEPT);
    expect(counters(s)).toEqual([4, 5, 5]);
    expect(s.pot).toBe(1);
    expect(bluffi.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 1, secret: true });
    s = step(s, roll(1, 1, 2));
    expect(refuse(s, announce(9)).code).toBe('game/announce_too_low');
    expect(bluffi.legalActions(s)[0]).toEqual(announce(10));
    s = step(s, announce(10));
    expect(s).toMatchObject({ phase: 'respond', announcement: 10, announcer: 1, current: 2 });
  });
  it('#4 A: 12 with 6-6-6 (18), B calls "Bluffi!": true (≥), A gives 1 to B', () => {
    const s = step(aAnnounces(started(), 12, 6, 6, 6), BLUFFI);
    expect(counters(s)).toEqual([4, 6, 5]);
    expect(s.lastChallenge).toMatchObject({ total: 18, truthful: true });
  });
  it('#5 B: 18, C to respond: C cannot accept and must call "Bluffi!"', () => {
    let s = step(aAnnounces(started(), 10, 4, 4, 4), ACCEPT);
    s = step(step(s, roll(1, 1, 1)), announce(18));
    expect(s.current).toBe(2);
    expect(bluffi.legalActions(s)).toEqual([{ type: 'challenge', by: 2 }]);
    expect(refuse(s, ACCEPT).code).toBe('game/must_challenge');
    expect(bluffi.bot(s, () => 0)).toEqual({ type: 'challenge', by: 2 });
    expect(table(bluffi.playerView(s, null)).status).toBe('C: call "Bluffi!" on B\'s 18 (nothing beats it)');
    s = step(s, BLUFFI);
    expect(counters(s)).toEqual([4, 6, 4]); // B lied: C gives 1 to B
  });
  it('#6 A has 1 counter, A: 10, B accepts: A pays the last counter and wins', () => {
    let s = started();
    s = { ...s, players: s.players.map((p, i) => (i === 0 ? { ...p, counters: 1 } : p)) };
    s = step(aAnnounces(s, 10, 1, 1, 1), ACCEPT);
    expect(s.over).toBe(true);
    expect(bluffi.result(s)).toEqual({ winners: [0], scores: [0, 5, 5] });
    expect(bluffi.diceRequest(s)).toBeNull();
    expect(bluffi.legalActions(s)).toEqual([]);
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/over');
    expect(table(s).status).toBe('Game over: A wins');
  });
});

describe('pure helpers', () => {
  it('the first announcement of a round is 3 or more, later ones beat the last; nothing beats 18', () => {
    expect(minimumAnnouncement(null)).toBe(3);
    expect(minimumAnnouncement(9)).toBe(10);
    expect(minimumAnnouncement(18)).toBeNull();
  });
  it('chanceAtLeast follows the three-dice distribution', () => {
    expect(chanceAtLeast(3)).toBe(1);
    expect(chanceAtLeast(18)).toBeCloseTo(1 / 216);
    expect(chanceAtLeast(11)).toBeCloseTo(0.5);
  });
  it('a challenge that loses the giver their last counter wins them the game', () => {
    let s = started();
    s = { ...s, players: s.players.map((p, i) => (i === 1 ? { ...p, counters: 1 } : p)) };
    s = step(aAnnounces(s, 12, 1, 1, 1), BLUFFI); // a lie: B, who was right, gives their last counter
    expect(bluffi.result(s)).toEqual({ winners: [1], scores: [6, 0, 5] });
  });
});

// ---------------------------------------------------------------------------
// Options

describe('options', () => {
  it('match the spec table', () => {
    expect(OPTION_SPECS.map((o) => [o.name, o.default])).toEqual([
      ['challengeBy', 'nextPlayer'],
      ['nextRoundStarter', 'challenger'],
      ['countersPerPlayer', 5],
    ]);
    expect(bluffi.setup(['A', 'B']).options).toEqual(DEFAULT_OPTIONS);
  });

  it("challengeBy 'anyone' lets any player but the announcer call", () => {
    const s = aAnnounces(started(), 9, 2, 3, 4);
    expect(refuse(s, { type: 'challenge', by: 2 }).code).toBe('game/not_your_turn');
    expect(bluffi.legalActions(s)).toEqual([ACCEPT, { type: 'challenge', by: 1 }]);
    const any = aAnnounces(started({ challengeBy: 'anyone' }), 9, 2, 3, 4);
    expect(bluffi.legalActions(any)).toEqual([ACCEPT, { type: 'challenge', by: 1 }, { type: 'challenge', by: 2 }]);
    expect(refuse(any, { type: 'challenge', by: 0 }).code).toBe('game/not_your_turn');
    expect(refuse(any, { type: 'challenge', by: 3 }).code).toBe('game/bad_player');
    const after = step(any, { type: 'challenge', by: 2 });
    expect(counters(after)).toEqual([4, 5, 6]);
    expect(after.lastChallenge?.challenger).toBe(2);
    expect(after.current).toBe(2); // the challenger opens by default
  });

  it('nextRoundStarter: the challenger by default, else the side that was wrong or right', () => {
    const starter = (o: Partial<BluffiOptions>, ...dice: number[]) => step(aAnnounces(started(o), 9, ...dice), BLUFFI).current;
    // True announcement: A was right, B wrong.
    expect(starter({}, 2, 3, 4)).toBe(1);
    expect(starter({ nextRoundStarter: 'loser' }, 2, 3, 4)).toBe(1);
    expect(starter({ nextRoundStarter: 'winner' }, 2, 3, 4)).toBe(0);
    // A bluff: B was right, A wrong.
    expect(starter({}, 1, 2, 4)).toBe(1);
    expect(starter({ nextRoundStarter: 'loser' }, 1, 2, 4)).toBe(0);
    expect(starter({ nextRoundStarter: 'winner' }, 1, 2, 4)).toBe(1);
  });

  it('countersPerPlayer sets the starting counters', () => {
    expect(counters(bluffi.setup(['A', 'B']))).toEqual([5, 5]);
    const s = started({ countersPerPlayer: 2 }, 2);
    expect(counters(s)).toEqual([2, 2]);
    const won = step(step(step(step(step(s, roll(1, 1, 1)), announce(3)), ACCEPT), roll(1, 1, 1)), announce(4));
    expect(counters(won)).toEqual([1, 2]);
    expect(step(step(step(won, ACCEPT), roll(2, 2, 2)), announce(5)).players[0]!.counters).toBe(1);
    expect(bluffi.result(step(step(step(step(won, ACCEPT), roll(2, 2, 2)), announce(5)), ACCEPT))).toEqual({ winners: [0], scores: [0, 1] });
  });
});

// ---------------------------------------------------------------------------
// Turn flow and refusals

describe('turn flow', () => {
  it('starts with an open throw-off; the highest total starts, the tied throw again', () => {
    let s = bluffi.setup(['A', 'B', 'C']);
    expect(bluffi.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    expect(bluffi.legalActions(s)).toEqual([]);
    s = step(s, roll(6, 5, 4));
    expect(bluffi.playerView(s, null).dice).toEqual([6, 5, 4]);
    s = step(step(s, roll(1, 1, 1)), roll(5, 6, 4));
    expect(s.contenders).toEqual([0, 2]);
    expect(bluffi.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 0, secret: false });
    s = step(step(s, roll(1, 2, 3)), roll(2, 2, 3));
    expect(s).toMatchObject({ phase: 'throw', current: 2, round: 1 });
    expect(bluffi.diceRequest(s)).toEqual({ count: 3, slots: [0, 1, 2], player: 2, secret: true });
    s = step(s, roll(3, 3, 3));
    expect(bluffi.legalActions(s)).toHaveLength(16);
    expect(table(bluffi.playerView(s, null)).status).toBe('C: announce a total of 3 to 18');
    s = step(s, announce(9));
    expect(s.current).toBe(0); // clockwise wraps round
    expect(table(bluffi.playerView(s, null)).status).toBe('A: accept C\'s 9 or call "Bluffi!"');
  });

  it('refuses bad throws, out-of-phase moves and unknown actions with their codes', () => {
    let s = started();
    expect(refuse(s, roll(1, 2)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 3, 4)).code).toBe('game/wrong_dice_count');
    expect(refuse(s, { type: 'roll', values: 'x' }).code).toBe('game/wrong_dice_count');
    expect(refuse(s, roll(1, 2, 0)).code).toBe('game/bad_die_value');
    expect(refuse(s, roll(1, 2, 3.5)).code).toBe('game/bad_die_value');
    expect(refuse(s, announce(9)).code).toBe('game/not_announcing');
    expect(refuse(s, ACCEPT).code).toBe('game/not_responding');
    expect(refuse(s, BLUFFI).code).toBe('game/not_responding');
    expect(refuse(s, { type: 'pass' }).code).toBe('game/unknown_action');
    expect(refuse(s, undefined).code).toBe('game/unknown_action');
    s = step(s, roll(1, 2, 3));
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/no_throw_now');
    expect(refuse(s, announce(2)).code).toBe('game/bad_announcement');
    expect(refuse(s, announce(19)).code).toBe('game/bad_announcement');
    expect(refuse(s, { type: 'announce', total: '9' }).code).toBe('game/bad_announcement');
    expect(refuse(s, ACCEPT).code).toBe('game/not_responding');
    s = step(s, announce(9));
    expect(refuse(s, announce(10)).code).toBe('game/not_announcing');
    expect(refuse(s, roll(1, 2, 3)).code).toBe('game/no_throw_now');
  });

  it('refuses setups with the wrong number of players or bad options', () => {
    expect(() => bluffi.setup(['A'])).toThrow(GameSetupError);
    expect(() => bluffi.setup(['A', 'B', 'C', 'D', 'E'])).toThrow(GameSetupError);
    expect(() => bluffi.setup(['A', 'B'], { countersPerPlayer: 0 })).toThrow(/countersPerPlayer/);
    expect(() => bluffi.setup(['A', 'B'], { challengeBy: 'me' as 'anyone' })).toThrow(GameSetupError);
  });

  it('every listed action is accepted, never roll', () => {
    for (const s of [aAnnounces(started({ challengeBy: 'anyone' }, 4), 9, 2, 3, 4), step(started(), roll(1, 2, 3))]) {
      const actions = bluffi.legalActions(s);
      expect(actions.some((a) => a.type === 'roll')).toBe(false);
      for (const a of actions) expect(isInvalid(bluffi.apply(s, a))).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------
// Secrecy

describe('secret throws', () => {
  it('only the thrower sees the dice; the accepter may peek before re-throwing; the call reveals them', () => {
    let s = step(started(), roll(2, 3, 4));
    expect(bluffi.playerView(s, 0).dice).toEqual([2, 3, 4]);
    expect(bluffi.playerView(s, 1).dice).toEqual([null, null, null]);
    expect(bluffi.playerView(s, null).dice).toEqual([null, null, null]);
    expect(table(bluffi.playerView(s, null)).dice).toEqual([null, null, null]);
    s = step(step(s, announce(9)), ACCEPT);
    expect(bluffi.playerView(s, 1).dice).toEqual([2, 3, 4]); // the peek
    expect(bluffi.playerView(s, 2).dice).toEqual([null, null, null]);
    expect(bluffi.playerView(s, null).dice).toEqual([null, null, null]);
    s = step(s, roll(6, 6, 5));
    expect(bluffi.playerView(s, 1).dice).toEqual([6, 6, 5]);
    expect(bluffi.playerView(s, 0).dice).toEqual([null, null, null]);
    s = step(step(s, announce(17)), BLUFFI);
    const pub = bluffi.playerView(s, null);
    expect(pub.lastChallenge).toMatchObject({ dice: [6, 6, 5], total: 17, truthful: true });
    expect(table(pub).panels.find((p) => p.id === 'challenge')?.items).toContainEqual(expect.objectContaining({ label: 'Dice', value: '6-6-5 = 17', state: 'highlight' }));
  });

  it('property: over many bot games no view or public board holds a die the viewer may not see', () => {
    let checked = 0;
    const check = (raw: unknown) => {
      const s = raw as BluffiState;
      for (const viewer of [null, ...s.players.map((_, i) => i)]) {
        const view = bluffi.playerView(s, viewer);
        const sees = maySee(s, viewer);
        if (JSON.stringify(view.dice) !== JSON.stringify(sees ? s.dice : [null, null, null])) throw new Error(`view of ${viewer} leaks or loses dice`);
        if (!sees) {
          const altered: BluffiState = { ...s, dice: s.dice.map((d) => (d === null ? d : (d % 6) + 1)) };
          if (JSON.stringify(bluffi.board(bluffi.playerView(altered, viewer))) !== JSON.stringify(bluffi.board(view))) throw new Error(`the board for ${viewer} depends on hidden dice`);
        }
      }
      // Secret throws are seen by the thrower.
      if (s.phase === 'announce' && !maySee(s, s.current)) throw new Error('the announcer cannot see their own throw');
      if (s.phase === 'respond' && s.visibleTo !== 'everyone' && s.visibleTo.includes(s.current)) throw new Error('the responder sees the throw');
      checked++;
    };
    for (let seed = 1; seed <= 60; seed++) playBotGame(bluffi, ['A', 'B', 'C', 'D'].slice(0, 2 + (seed % 3)), seed, seed % 2 ? { challengeBy: 'anyone' } : {}, check);
    expect(checked).toBeGreaterThan(1000);
  });

  it('the bot decides from its own view: dice it may not see do not change its move', () => {
    for (let seed = 1; seed <= 30; seed++) {
      for (const raw of playBotGame(bluffi, ['A', 'B', 'C'], seed).states) {
        const s = raw as BluffiState;
        if (s.over || maySee(s, s.current)) continue;
        const altered: BluffiState = { ...s, dice: s.dice.map((d) => (d === null ? d : (d % 6) + 1)) };
        expect(bluffi.bot(altered, () => 0.4)).toEqual(bluffi.bot(s, () => 0.4));
      }
    }
  });
});

// ---------------------------------------------------------------------------
// Invariants over bot games

function invariants(raw: unknown, prevRaw: unknown | null): void {
  const s = raw as BluffiState;
  const fail = (what: string) => {
    throw new Error(`round ${s.round}: ${what}`);
  };
  const total = s.players.length * s.options.countersPerPlayer;
  if (s.players.reduce((a, p) => a + p.counters, 0) + s.pot !== total) fail('counters in hands + pot differ from the start');
  if (s.players.some((p) => p.counters < 0)) fail('negative counters');
  if (!s.over && s.players.some((p) => p.counters === 0)) fail('a player has no counters but the game goes on');
  if (s.over && s.players[s.current]!.counters !== 0) fail('the winner still has counters');
  if (prevRaw === null) return;
  const prev = prevRaw as BluffiState;
  if (s.pot < prev.pot) fail('the pot shrank');
  if (!s.over && prev.round === s.round && prev.announcement !== null && s.announcement !== prev.announcement) {
    if (s.announcement === null || s.announcement <= prev.announcement) fail('an announcement did not increase');
  }
}

describe('bot games', () => {
  it('keep the contract and the invariants (300 games)', () => {
    checkContract(bluffi, 300, {}, invariants);
  });
  it('keep them with non-default options (100 games)', () => {
    checkContract(bluffi, 100, { challengeBy: 'anyone', nextRoundStarter: 'loser', countersPerPlayer: 3 }, invariants);
  });
});

// ---------------------------------------------------------------------------
// Serialisation and replay

describe('state', () => {
  it('survives a JSON round-trip', () => {
    const s = step(aAnnounces(started(), 9, 2, 3, 4), ACCEPT);
    const back = JSON.parse(JSON.stringify(s)) as BluffiState;
    expect(back).toEqual(s);
    expect(bluffi.playerView(back, 1)).toEqual(bluffi.playerView(s, 1));
  });

  it('replays a hand-made action list', () => {
    const actions: BluffiAction[] = [
      roll(3, 3, 3), // throw-off: A 9
      roll(6, 6, 1), // B 13: B starts
      roll(4, 4, 4),
      announce(12),
      ACCEPT, // B pays: 4
      roll(1, 1, 1),
      announce(13),
      BLUFFI, // A lied: B gives 1 to A (who was wrong)
      roll(5, 5, 5),
      announce(15),
    ];
    const s = replay(bluffi, ['A', 'B'], {}, actions) as BluffiState;
    expect(counters(s)).toEqual([6, 3]);
    expect(s.pot).toBe(1);
    expect(s).toMatchObject({ phase: 'respond', announcer: 1, announcement: 15, current: 0, round: 2 });
    expect(s.lastChallenge).toMatchObject({ announcer: 0, challenger: 1, total: 3, truthful: false });
  });
});

describe("the round's announcements (the players' list)", () => {
  it('builds up over a round with each announcer and is cleared by a "Bluffi!" call', () => {
    let s = aAnnounces(started(), 9, 2, 3, 4);
    s = step(step(step(s, ACCEPT), roll(6, 5, 1)), announce(12));
    expect(s.claims).toEqual([
      { seat: 0, total: 9 },
      { seat: 1, total: 12 },
    ]);
    expect(table(s).panels.find((p) => p.id === 'claims')?.items).toMatchObject([
      { label: 'A', value: 9 },
      { label: 'B', value: 12 },
    ]);
    s = step(s, BLUFFI);
    expect(s.round).toBe(2);
    expect(s.claims).toEqual([]);
  });
});
