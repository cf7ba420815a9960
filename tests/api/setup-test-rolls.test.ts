/**
 * Test rolls and this tower's accuracy through app.inject: the simulated tower
 * throws, the reading comes back with its frame, the operator confirms or
 * corrects each die, and the tally (right, unreadable, wrong, re-rolls) is
 * kept in accuracy.json and shown on /api/health.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { ACCURACY_FILE, EMPTY_TALLY, judge, TestRolls, type AccuracyTally, type TestRollView } from '../../src/setup/test-rolls.js';

const TOKEN = 'setup-test-operator-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let dir: string;
let table: Table;
let app: FastifyInstance;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-'));
  const sim = createSimulator({ seed: 4, colours: ['white'], rollMs: 0 });
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN, testRolls: new TestRolls(table, { dataDir: dir }) });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const testRoll = async (count: number): Promise<TestRollView> => {
  const res = await app.inject({ method: 'POST', url: '/api/setup/test-rolls', headers: auth, payload: { count } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const verdict = (id: string, values: number[]) => app.inject({ method: 'POST', url: `/api/setup/test-rolls/${id}/verdict`, headers: auth, payload: { values } });
const health = async () => (await app.inject('/api/health')).json() as { accuracy: AccuracyTally };

describe('judging a test roll', () => {
  it('counts each die read right, wrong, or unreadable; dice not seen are unreadable; 0 marks a "die" that was none', () => {
    expect(judge([1, 2, 3], [1, 2, 3], 3)).toEqual({ right: 3, unreadable: 0, wrong: 0 });
    expect(judge([1, null, 3], [1, 5, 4], 3)).toEqual({ right: 1, unreadable: 1, wrong: 1 });
    expect(judge([6, 6], [6, 6], 4)).toEqual({ right: 2, unreadable: 2, wrong: 0 });
    expect(judge([6, 2, 2], [6, 0, 2], 2)).toEqual({ right: 2, unreadable: 0, wrong: 1 });
    expect(() => judge([1, 2], [1], 2)).toThrow('Give one value per die read: 2 read, 1 given.');
    expect(() => judge([1], [7], 1)).toThrow('A die shows 1 to 6 (0: not a die); got 7.');
  });
});

describe('test rolls through the API', () => {
  it('ten test rolls, confirmed or corrected, make the tally that /api/health shows and accuracy.json keeps', async () => {
    expect((await health()).accuracy).toEqual(EMPTY_TALLY);
    let expected = { rolls: 0, dice: 0, right: 0, unreadable: 0, wrong: 0, rerolls: 0 };
    for (let n = 0; n < 10; n++) {
      const roll = await testRoll(3);
      expect(roll.frameUrl).toBe(`/api/setup/test-rolls/${roll.id}/frame.jpg`);
      const read = roll.reading.dice.map((d) => d.value);
      // Every third roll the operator corrects the first die (as if it was misread); the others are confirmed.
      const truth = read.map((v, i) => (v === null ? 1 : n % 3 === 0 && i === 0 ? (v % 6) + 1 : v));
      const res = await verdict(roll.id, truth);
      expect(res.statusCode, res.body).toBe(200);
      const outcome = judge(read, truth, 3);
      expect(res.json().outcome).toEqual(outcome);
      expected = {
        rolls: expected.rolls + 1, dice: expected.dice + 3, right: expected.right + outcome.right, unreadable: expected.unreadable + outcome.unreadable,
        wrong: expected.wrong + outcome.wrong, rerolls: expected.rerolls + roll.attempts - 1,
      };
    }
    expect(expected.wrong).toBeGreaterThanOrEqual(4);
    const tally = (await health()).accuracy;
    expect(tally).toMatchObject(expected);
    expect(tally.right + tally.wrong + tally.unreadable).toBe(30);
    expect(JSON.parse(readFileSync(join(dir, ACCURACY_FILE), 'utf8'))).toEqual(tally);
    // A restart reads it back.
    expect(new TestRolls(table, { dataDir: dir }).tally()).toEqual(tally);
  });

  it('serves the frame of a test roll to the operator only, until it is judged', async () => {
    const roll = await testRoll(2);
    const frame = await app.inject({ url: `${roll.frameUrl}?operator=${TOKEN}` });
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    expect((await app.inject({ url: roll.frameUrl })).statusCode).toBe(401);
    expect((await verdict(roll.id, roll.reading.dice.map((d) => d.value ?? 1))).statusCode).toBe(200);
    const again = await verdict(roll.id, roll.reading.dice.map((d) => d.value ?? 1));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'setup/no_such_test_roll' });
    expect((await app.inject({ url: roll.frameUrl, headers: auth })).statusCode).toBe(404);
  });

  it('refuses a verdict of the wrong length, a count out of 1-30, and a test roll while the tower is rolling for a game', async () => {
    const roll = await testRoll(2);
    const short = await verdict(roll.id, [1]);
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(`Give one value per die read: ${roll.reading.dice.length} read, 1 given.`);
    for (const count of [0, 31]) expect((await app.inject({ method: 'POST', url: '/api/setup/test-rolls', headers: auth, payload: { count } })).statusCode).toBe(400);
    // A tower whose cycle ends only when the test says so: a game's roll is under way when the test roll is asked for.
    const slow = createSimulator({ seed: 4, colours: ['white'], rollMs: 0 });
    let finish = () => {};
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const tower = { kind: 'gated', roll: async (count: number) => { await gate; await slow.tower.roll(count); } };
    const slowTable = new Table({ tower, camera: slow.camera, reader: createDiceReader() });
    const slowApp = buildApp({ table: slowTable, version: 'test' });
    const game = slowTable.create('dice-poker', ['Ann']);
    const rolling = slowTable.roll(game.id);
    const busy = await slowApp.inject({ method: 'POST', url: '/api/setup/test-rolls', payload: { count: 2 } });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'tower/busy', message: 'The tower is rolling for a game; try the test roll when it is done.' });
    finish();
    await rolling;
    await slowApp.close();
  });

  it('starts the tally again on reset, and refuses to start on an accuracy.json that is not one', async () => {
    const roll = await testRoll(1);
    await verdict(roll.id, roll.reading.dice.map((d) => d.value ?? 1));
    expect((await health()).accuracy.rolls).toBe(1);
    const reset = await app.inject({ method: 'POST', url: '/api/setup/accuracy/reset', headers: auth });
    expect(reset.json()).toEqual(EMPTY_TALLY);
    expect((await health()).accuracy).toEqual(EMPTY_TALLY);
    writeFileSync(join(dir, ACCURACY_FILE), '{"rolls":"many"}');
    expect(() => new TestRolls(table, { dataDir: dir })).toThrow(/accuracy\.json does not hold an accuracy tally .*move it away to start again/);
  });
});
