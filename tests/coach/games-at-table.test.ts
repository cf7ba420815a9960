/**
 * Every coached game at the table, through the real API: a hint in a position
 * whose best move is known by hand, the analysis of a short game with one
 * known mistake (its loss is the solver's own, as the hint ranked it), and a
 * strong bot that plays a game out making only the policy's best moves.
 * (Shut the Box has the same at length in coach-at-table.test.ts; the solvers'
 * values against simulated games are in each game's own test file.)
 *
 * The big scorecard solves take half a minute each, so two games play with a
 * reduced option set: Yatzy in forced order (the same solver, a few thousand
 * states) and Dice Poker with one throw a turn (all 2.1 M card states with the
 * upper bonus tracked, one throw pass each: about half the default solve).
 * Yatzy's default solve is tested in yatzy.test.ts; Dice Poker's default rules
 * are solved by no test (dice-poker.test.ts leaves out the bonus), so its
 * one-throw solve here is also simulated against its optimum.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, dicePoker, type DicePokerAction, type DicePokerState } from '../../src/games/dice-poker.js';
import type { Policy } from '../../src/coach/types.js';
import { seededRandom } from '../games/harness.js';
import { expectAgrees } from './agreement.js';
import { simulate } from './scorecard-helpers.js';
import { analysis, botsPlayOut, carryOut, coachOf, coachTable, hint, pick, playOn, roll, type Decision } from './table-helpers.js';

/** Carries out `decision`, remembering its loss as the hint ranked it. */
async function decide(setup: ReturnType<typeof coachTable>, losses: number[], decision: Decision, values?: number[]): Promise<void> {
  losses.push(decision.loss);
  await carryOut(setup, decision, values);
}

/** The analysis of a game in which the one mistake made is `mistake`, at the first decision reviewed for its seat. */
async function expectOneMistake(setup: ReturnType<typeof coachTable>, seat: number, mistake: Decision, best: string): Promise<void> {
  const a = await analysis(setup);
  expect(a.skipped).toEqual([]);
  expect(mistake.loss).toBeGreaterThan(0);
  // The costliest decision first: the mistake, with the loss the hint gave it (the solver's best value minus its value).
  expect(a.decisions[0]).toMatchObject({ seat, chosen: { key: mistake.key }, best: { key: best } });
  expect(a.decisions[0]?.loss).toBeCloseTo(mistake.loss, 12);
  expect(a.decisions.slice(1).every((d) => d.loss === 0)).toBe(true);
  expect(a.players[seat]?.totalLoss).toBeCloseTo(mistake.loss, 12);
}

/** A game of bots, the first `strong` seats strong, the rest simple: they make decisions, and every one is the policy's best (no loss). */
async function strongBotPlaysBest(game: string, players: string[], options: Record<string, unknown>, seed: number, { strong = 1, insideSolve = true, coach = coachOf(game) } = {}): Promise<void> {
  const levels = Object.fromEntries(players.slice(0, strong).map((_, seat) => [seat, 'strong' as const]));
  const setup = coachTable(game, players, options, { seed, bots: players.map((_, i) => i), levels, coach });
  await botsPlayOut(setup.table, setup.id);
  const a = await analysis(setup);
  expect(a.over).toBe(true);
  if (insideSolve) expect(a.skipped).toEqual([]);
  const strongSeats = a.players.slice(0, strong);
  expect(strongSeats.reduce((n, p) => n + p.decisions, 0)).toBeGreaterThan(0);
  for (const p of strongSeats) expect(p.totalLoss).toBe(0);
  // The simple bot, where there is one, is no oracle: it loses something.
  if (strong < players.length) expect(a.players.slice(strong).reduce((sum, p) => sum + p.totalLoss, 0)).toBeGreaterThan(0);
  setup.table.close();
}

describe('Yatzy at the table (forced order)', () => {
  const options = { forcedOrder: true };

  it('hints to score five 1s in Ones at once', async () => {
    // Forced order: Ones is the only row open. Five 1s score its most, 5, and leave the same card as any
    // re-throw would (Ones filled), with the highest upper total: every re-throw can only do as well or worse.
    const setup = coachTable('yatzy', ['Solo'], options);
    await roll(setup, [1, 1, 1, 1, 1]);
    const h = await hint(setup);
    expect(h.decisions[0]).toMatchObject({ key: 'score:ones', label: 'Score 5 in Ones', loss: 0 });
    expect(h.decisions.slice(1).every((d) => d.key.startsWith('keep:') && d.loss > 0)).toBe(true);
  });

  it('reviews a game where five 1s were thrown again', async () => {
    const setup = coachTable('yatzy', ['Solo'], options, { seed: 2 });
    await roll(setup, [1, 1, 1, 1, 1]);
    const mistake = pick(await hint(setup), 'keep:none');
    await carryOut(setup, mistake);
    await playOn(setup);
    await expectOneMistake(setup, 0, mistake, 'score:ones');
  });

  it('a strong bot plays a game out on the best moves only', () => strongBotPlaysBest('yatzy', ['Robo', 'Simple'], options, 3));
});

describe('Dice Poker at the table (one throw a turn)', () => {
  const options = { maxThrows: 1 };
  // One solve for the three tests (about 16 s on one core).
  const coach = coachOf('dice-poker');

  it('hints to score five 6s in Poker', { timeout: 180_000 }, async () => {
    // Poker scores 50 only for five alike (a one-in-1296 throw), and a filled Poker opens the 100-point
    // bonus for every later five alike; any other row takes at most 30 from these dice.
    const setup = coachTable('dice-poker', ['Solo'], options, { coach });
    await roll(setup, [6, 6, 6, 6, 6]);
    const h = await hint(setup);
    expect(h.decisions[0]).toMatchObject({ key: 'score:poker', loss: 0 });
    expect(h.decisions.every((d) => d.key.startsWith('score:'))).toBe(true);
  });

  it('reviews a game where five 6s went into Sixes', { timeout: 180_000 }, async () => {
    const setup = coachTable('dice-poker', ['Solo'], options, { seed: 2, coach });
    await roll(setup, [6, 6, 6, 6, 6]);
    const mistake = pick(await hint(setup), 'score:sixes');
    await carryOut(setup, mistake);
    await playOn(setup);
    await expectOneMistake(setup, 0, mistake, 'score:poker');
  });

  it('a strong bot plays a game out on the best moves only', { timeout: 180_000 }, () => strongBotPlaysBest('dice-poker', ['Robo', 'Simple'], options, 3, { coach }));

  it('plays as well as it says with the bonus tracked: simulated mean within 4 standard errors', { timeout: 180_000 }, async () => {
    const o = { ...DEFAULT_OPTIONS, ...options };
    const policy = (await coach.policy('dice-poker', o)) as Policy<DicePokerState, DicePokerAction>;
    expectAgrees(simulate(dicePoker, policy, o, 1500, seededRandom(13)), policy.optimum);
  });
});

describe('Cameroon at the table', () => {
  it('hints to score five 6s as Cameroon', async () => {
    // The five-alike row scores 50 or nothing and five alike is rare; Sixes, the best other row, takes 30.
    const setup = coachTable('cameroon', ['Solo'], {});
    await roll(setup, [6, 6, 6, 6, 6]);
    const h = await hint(setup);
    expect(h.decisions[0]).toMatchObject({ key: 'score:cameroon', loss: 0 });
    expect(pick(h, 'score:sixes').loss).toBeGreaterThan(0);
  });

  it('reviews a game where five 6s went into Sixes', async () => {
    const setup = coachTable('cameroon', ['Solo'], {}, { seed: 2 });
    await roll(setup, [6, 6, 6, 6, 6]);
    const mistake = pick(await hint(setup), 'score:sixes');
    await carryOut(setup, mistake);
    await playOn(setup);
    await expectOneMistake(setup, 0, mistake, 'score:cameroon');
  });

  it('a strong bot plays a game out on the best moves only', () => strongBotPlaysBest('cameroon', ['Robo', 'Simple'], {}, 3));
});

describe('Mexico at the table', () => {
  // One life each: the round's loser loses the game.
  const options = { lives: 1 };

  /** Ann throws 6-5 and plays the coach's best; Ben throws 6-4. */
  async function benOnSixFour(seed: number) {
    const setup = coachTable('mexico', ['Ann', 'Ben'], options, { seed });
    await roll(setup, [6, 5]);
    await carryOut(setup, (await hint(setup)).decisions[0] as Decision);
    await roll(setup, [6, 4]);
    return setup;
  }

  it("hints Ben to throw again on 6-4 against Ann's 6-5", async () => {
    // Stopping on 6-4 below 6-5 loses the last life for sure; a throw wins at least with a pair or Mexico (8/36).
    const setup = await benOnSixFour(1);
    const h = await hint(setup);
    expect(h.seat).toBe(1);
    expect(h.decisions.map((d) => d.key)).toEqual(['throw', 'stop']);
    expect(pick(h, 'stop').value).toBe(0);
    expect(pick(h, 'throw').value).toBeGreaterThanOrEqual(8 / 36);
  });

  it('reviews the game Ben lost by stopping on 6-4', async () => {
    const setup = await benOnSixFour(2);
    const mistake = pick(await hint(setup), 'stop');
    await carryOut(setup, mistake);
    const a = await analysis(setup);
    expect(a.over).toBe(true);
    await expectOneMistake(setup, 1, mistake, 'throw');
  });

  it('a strong bot plays a game out on the best moves only', () => strongBotPlaysBest('mexico', ['Robo', 'Simple'], {}, 3));
});

describe('Busted at the table', () => {
  // Two counters each: a player goes out at the first placement, so two are left at once.
  const options = { countersPerPlayer: 2 };

  /** Ann puts her 2 counters on field 6 and is out; Ben throws 6 and takes them: 4 counters to Cy's 2, an empty board. */
  async function benTookField6(seed: number) {
    const setup = coachTable('busted', ['Ann', 'Ben', 'Cy'], options, { seed });
    await roll(setup, [3, 3]);
    await roll(setup, [2, 4]);
    return setup;
  }

  it('hints Ben to stop: Cy cannot place without going out', async () => {
    // Cy has 2 counters and the board is empty: every sum of 3-12 asks for at least 3 counters (7 puts them in
    // prison), and a 2 or 12 sweeps nothing and forces a throw that does the same. Stopping wins for sure.
    const setup = await benTookField6(1);
    const h = await hint(setup);
    expect(h.seat).toBe(1);
    expect(h.decisions.map((d) => d.key)).toEqual(['stop', 'throw']);
    expect(pick(h, 'stop').value).toBeCloseTo(1, 12);
    expect(pick(h, 'throw').loss).toBeGreaterThan(0);
  });

  it('reviews the game Ben lost by throwing on: a 7 sent his 4 counters to prison', async () => {
    const setup = await benTookField6(2);
    const mistake = pick(await hint(setup), 'throw');
    await carryOut(setup, mistake, [3, 4]);
    const a = await analysis(setup);
    expect(a.over).toBe(true);
    await expectOneMistake(setup, 1, mistake, 'stop');
  });

  // Three strong seats (whichever two are left, both are the coach's): the simple way until two are left
  // (skipped in the analysis), then the coach's best. At 20 counters each about half the games give the coach a
  // decision to review (51 % of 1 000; the others end while a part placement lies outside the prison, or never
  // offer a choice inside the solve: scripts/busted-endgame-share.ts, COACH.md), so ten seeds are summed, not one
  // picked to pass, and every decision reviewed in any of them must lose nothing.
  it('strong bots play the last two of three on the best moves only, over ten seeds', { timeout: 120_000 }, async () => {
    const coach = coachOf('busted');
    const players = ['Robo', 'Robo 2', 'Robo 3'];
    let reviewed = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const setup = coachTable('busted', players, { countersPerPlayer: 20 }, { seed, bots: [0, 1, 2], levels: { 0: 'strong', 1: 'strong', 2: 'strong' }, coach });
      await botsPlayOut(setup.table, setup.id);
      const a = await analysis(setup);
      expect(a.over).toBe(true);
      for (const p of a.players) expect(p.totalLoss).toBe(0);
      reviewed += a.players.reduce((n, p) => n + p.decisions, 0);
      setup.table.close();
    }
    expect(reviewed).toBeGreaterThan(0);
  });
});

describe('10 000 at the table', () => {
  /** Four 1s set aside (2000), then a 5 from the two dice thrown: 2050 with one die left. */
  async function on2050(seed: number, losses: number[]) {
    const setup = coachTable('ten-thousand', ['Ann', 'Ben'], {}, { seed });
    await roll(setup, [1, 1, 1, 1, 2, 3]);
    await decide(setup, losses, pick(await hint(setup), 'keep:1,1,1,1'));
    await decide(setup, losses, pick(await hint(setup), 'throw'), [5, 3]);
    await decide(setup, losses, pick(await hint(setup), 'keep:5'));
    return setup;
  }

  it('hints to bank 2050 with one die left', async () => {
    // One die scores only on a 1 or a 5 (one time in three), for 100 or 50 more and a fresh turn on top
    // (hot dice), worth far less than the 2050 it risks.
    const setup = await on2050(1, []);
    const h = await hint(setup);
    expect(h.decisions.map((d) => d.key)).toEqual(['bank', 'throw']);
    expect(pick(h, 'bank').value).toBe(2050);
    expect(pick(h, 'throw').loss).toBeGreaterThan(1000);
  });

  it('reviews a turn where 2050 was thrown away on one die', async () => {
    const losses: number[] = [];
    const setup = await on2050(2, losses);
    const mistake = pick(await hint(setup), 'throw');
    await carryOut(setup, mistake, [2]);
    // The throw missed: Ann busts and Ben is to throw. Ann decided three times (the 5 was the only keep: no decision).
    const a = await analysis(setup);
    expect(a.over).toBe(false);
    expect(a.skipped).toEqual([]);
    expect(a.players[0]?.decisions).toBe(3);
    expect(a.decisions[0]).toMatchObject({ seat: 0, chosen: { key: 'throw' }, best: { key: 'bank' } });
    expect(a.decisions[0]?.loss).toBeCloseTo(mistake.loss, 9);
    expect(a.players[0]?.totalLoss).toBeCloseTo([...losses, mistake.loss].reduce((s, l) => s + l, 0), 9);
  });

  // The last round is a race the coach stays out of: the strong bot plays it the simple way (skipped in the analysis).
  it('a strong bot plays a game out on the best moves only', () => strongBotPlaysBest('ten-thousand', ['Robo', 'Simple'], { target: 3000 }, 3, { insideSolve: false }));
});
