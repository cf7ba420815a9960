/**
 * A whole Las Vegas game with three players and every module, played through
 * the routes the scoreboard and the private pages use: each throw goes
 * tower → camera → reader → coloured-dice match → game. The tower and reader
 * are fakes that read exactly the dice the game asked for, in a shuffled
 * order with seeded values, and now and then one colour unsure (so re-rolls
 * happen on cue); tests/e2e plays it on the simulator with real vision.
 * Cards are played from the seat's private page; the public view never shows a hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Camera, Frame, HopperDie, Tower } from '../../src/hardware/index.js';
import type { DiceReader, DieReading } from '../../src/vision/index.js';
import { ALL_MODULES, lasVegas, type LasVegasState } from '../../src/games/las-vegas.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { seededRandom } from '../games/harness.js';

const random = seededRandom(2026);
let asked: readonly HopperDie[] = [];
let reads = 0;
const tower: Tower = {
  kind: 'fake',
  async roll(_count, dice) {
    asked = dice ?? [];
  },
};
const frame: Frame = { image: Buffer.from('jpeg'), width: 10, height: 10, capturedAt: 0 };
const camera: Camera = { capture: async () => frame };
const reader: DiceReader = {
  async read() {
    reads++;
    const dice = asked.map(
      (d, i): DieReading => ({
        value: 1 + Math.floor(random() * 6),
        colour: d.colour,
        // Now and then one colour reads unsure: the table must throw again.
        colourConfident: !(i === 0 && reads % 17 === 5),
        sizeClass: d.size,
        center: { x: i, y: 0 },
        box: [],
        size: d.size === 'big' ? 14 : 10,
        confidence: 1,
      }),
    );
    dice.sort(() => random() - 0.5);
    return { dice, valid: true, problems: [], width: 10, height: 10, ms: 1 };
  },
};

let app: FastifyInstance;
let table: Table;

beforeAll(async () => {
  table = new Table({ tower, camera, reader, maxAttempts: 3 });
  app = buildApp({ table, version: 'test' });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});


describe('Las Vegas through the API', () => {
  it('three players and every module play a whole game on the (fake-read) tower; cards are played from the private pages', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'las-vegas', players: ['Ann', 'Bob', 'Cat'], options: { ...ALL_MODULES, deckSeed: 77 } } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const seats = (await app.inject(`/api/games/${id}/seats`)).json() as Array<{ path: string }>;
    const token = (seat: number) => new URLSearchParams(seats[seat]!.path.split('?')[1]).get('token') ?? '';
    let view = created.json();
    let cardsPlayed = 0;
    let towerRolls = 0;
    for (let step = 0; view.result === null; step++) {
      expect(step).toBeLessThan(3000);
      const state = table.get(id).state as LasVegasState;
      // The public view shows no hand and offers no card.
      expect(view.state.players.every((p: { cards: unknown[] }) => p.cards.every((c) => c === null))).toBe(true);
      expect(view.actions.some((a: { type: string; earlyPayout?: boolean }) => a.type === 'playCard' || a.earlyPayout === true)).toBe(false);
      const choice = lasVegas.bot(state, random);
      let res;
      if (choice === null) {
        res = await app.inject({ method: 'POST', url: `/api/games/${id}/roll` });
        towerRolls++;
      } else if (choice.type === 'playCard' || (choice.type === 'place' && choice.earlyPayout === true)) {
        const seat = state.current;
        // Another seat cannot play for this one.
        const other = (seat + 1) % 3;
        const refused = await app.inject({ method: 'POST', url: `/api/games/${id}/seats/${other}/actions?token=${encodeURIComponent(token(other))}`, payload: choice });
        expect(refused.statusCode).toBe(403);
        res = await app.inject({ method: 'POST', url: `/api/games/${id}/seats/${seat}/actions?token=${encodeURIComponent(token(seat))}`, payload: choice });
        cardsPlayed++;
      } else {
        res = await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, payload: choice });
      }
      expect(res.statusCode, res.body).toBe(200);
      view = choice !== null && (choice.type === 'playCard' || (choice.type === 'place' && choice.earlyPayout === true)) ? (await app.inject(`/api/games/${id}`)).json() : res.json();
    }
    expect(view.result.scores).toHaveLength(3);
    expect(towerRolls).toBeGreaterThan(30);
    expect(cardsPlayed).toBeGreaterThan(3);
    const game = table.get(id);
    expect(game.rolls.every((r) => r.source === 'tower' && r.dice !== undefined)).toBe(true);
    expect(game.rolls.some((r) => r.attempts > 1)).toBe(true);
    // The board shows casinos (and the slot machine) with bills and dice, money, round and turn.
    expect(view.board.panels.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(['round', 'casino1', 'casino6', 'slotMachine', 'lastPayouts']));
    expect(view.board.columns.map((c: { id: string }) => c.id)).toEqual(['colour', 'money', 'bills', 'dice', 'reminder', 'cards']);
  }, 120_000);

  it('a seat sees its own cards on its private page, not the others\'', async () => {
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'las-vegas', players: ['Ann', 'Bob'], options: { actionCards: true, bonusCards: true } } });
    const id = created.json().id as string;
    const seats = (await app.inject(`/api/games/${id}/seats`)).json() as Array<{ path: string }>;
    const mine = (await app.inject(seats[0]!.path.replace('/player.html?game=' + id + '&seat=0&token=', `/api/games/${id}/seats/0?token=`))).json();
    expect(mine.state.players[0].cards).toHaveLength(2);
    expect(mine.state.players[0].cards.every((c: string | null) => typeof c === 'string')).toBe(true);
    expect(mine.state.players[1].cards).toEqual([null, null]);
    expect(mine.state.players[1].bonus).toEqual([null, null]);
  });
});
