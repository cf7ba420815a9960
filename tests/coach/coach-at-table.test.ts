/**
 * The coach at the table: the solve cache, hints and analysis through the API,
 * strong bots, the catalog's levels. Uses the Shut the Box coach (its solve
 * takes milliseconds); the solvers themselves have their own tests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Table, type TableGame } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { CoachLibrary } from '../../src/coach/library.js';
import { shutTheBoxCoach } from '../../src/coach/shut-the-box.js';
import { TOKEN, auth, seededDice } from './table-helpers.js';
import type { AnyCoach } from '../../src/coach/index.js';
import { mexico, shutTheBox } from '../../src/games/index.js';
import { mexicoCoach } from '../../src/coach/mexico.js';
import { encodeTables } from '../../src/coach/table-file.js';
import { cameroonCoach } from '../../src/coach/cameroon.js';
import { CAMEROON_DEFAULT_OPTIONS } from '../../src/games/cameroon.js';

const coaches = { 'shut-the-box': shutTheBoxCoach as unknown as AnyCoach };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-coach-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the coach library', () => {
  it('solves in a worker thread, caches the tables on disk and loads them at the next start', async () => {
    const first = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach') });
    const full = { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' };
    expect(first.status('shut-the-box', full).state).toBe('solving');
    const policy = await first.policy('shut-the-box', full);
    expect(policy.optimum).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'coach'))).toHaveLength(1);
    first.close();

    const warnings: string[] = [];
    const second = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), onWarning: (m) => warnings.push(m) });
    // From the cache: loaded in the background (status never blocks), the same optimum, no solve.
    expect(second.status('shut-the-box', full)).toEqual({ state: 'loading' });
    expect((await second.policy('shut-the-box', full)).optimum).toBe(policy.optimum);
    expect(warnings).toEqual([]);
  });

  it('solves again, with a warning naming the file, when the cache file is damaged', async () => {
    const full = shutTheBox.defaultOptions;
    const first = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false });
    const optimum = (await first.policy('shut-the-box', full)).optimum;
    const [file] = readdirSync(join(dir, 'coach'));
    const path = join(dir, 'coach', file as string);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 20));
    const warnings: string[] = [];
    const second = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false, onWarning: (m) => warnings.push(m) });
    expect((await second.policy('shut-the-box', full)).optimum).toBe(optimum);
    expect(warnings.join('\n')).toMatch(new RegExp(`${file}.*cannot be used.*solving shut-the-box again`));
    // ...and the cache is good again.
    const third = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false, onWarning: (m) => warnings.push(m) });
    expect(third.status('shut-the-box', full).state).toBe('loading');
    expect((await third.policy('shut-the-box', full)).optimum).toBe(optimum);
    expect(warnings).toHaveLength(1);
  });

  it('solves again when a cache file under the right key holds tables of another layout (a solver changed)', async () => {
    const full = shutTheBox.defaultOptions;
    const first = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false });
    const optimum = (await first.policy('shut-the-box', full)).optimum;
    const [file] = readdirSync(join(dir, 'coach'));
    const key = (file as string).replace('.tables.gz', '');
    writeFileSync(join(dir, 'coach', file as string), encodeTables('shut-the-box', key, { arrays: { penalty: new Float64Array(3) }, facts: {} }));
    const warnings: string[] = [];
    const second = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false, onWarning: (m) => warnings.push(m) });
    expect((await second.policy('shut-the-box', full)).optimum).toBe(optimum);
    expect(warnings.join('\n')).toMatch(/cannot be used: Shut the Box tables lack .*solving shut-the-box again/);
  });

  it('shares one solve between options that differ only where the tables do not (ties, rounds)', () => {
    const library = new CoachLibrary({ coaches, cacheDir: join(dir, 'coach'), inWorker: false });
    library.status('shut-the-box', shutTheBox.defaultOptions);
    library.status('shut-the-box', { ...shutTheBox.defaultOptions, rounds: 5, endTie: 'noWinner' });
    expect(readdirSync(join(dir, 'coach'))).toHaveLength(1);
    library.status('shut-the-box', { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' });
    expect(readdirSync(join(dir, 'coach'))).toHaveLength(2);
  });

  it('solves one ruleset at a time in the worker: the others wait their turn, first asked first solved', async () => {
    const progressOf: string[] = [];
    const library = new CoachLibrary({ coaches: { ...coaches, cameroon: cameroonCoach as unknown as AnyCoach }, cacheDir: null, onProgress: (game) => progressOf.push(game) });
    expect(library.status('shut-the-box', shutTheBox.defaultOptions)).toMatchObject({ state: 'solving', queued: false });
    expect(library.status('cameroon', CAMEROON_DEFAULT_OPTIONS)).toMatchObject({ state: 'solving', queued: true });
    const both = await Promise.all([library.policy('cameroon', CAMEROON_DEFAULT_OPTIONS), library.policy('shut-the-box', shutTheBox.defaultOptions)]);
    expect(both.map((p) => p.measure)).toEqual([cameroonCoach.measure, shutTheBoxCoach.measure]);
    // Every progress report of Shut the Box came before Cameroon's first: never two solves at once.
    expect(progressOf.lastIndexOf('shut-the-box')).toBeLessThan(progressOf.indexOf('cameroon'));
    expect(progressOf).toContain('cameroon');
    library.close();
  });

  it('refuses the queued solves when closed, saying so', async () => {
    const library = new CoachLibrary({ coaches: { ...coaches, cameroon: cameroonCoach as unknown as AnyCoach }, cacheDir: null });
    library.status('shut-the-box', shutTheBox.defaultOptions);
    const queued = library.policy('cameroon', CAMEROON_DEFAULT_OPTIONS);
    library.close();
    await expect(queued).rejects.toThrow('The coach was closed before this solve began.');
  });

  it('keeps the tables under its memory budget, dropping the least recently used and loading them again from the cache file', async () => {
    let solves = 0;
    let restores = 0;
    const counted = {
      ...shutTheBoxCoach,
      solve: (...args: Parameters<typeof shutTheBoxCoach.solve>) => (solves++, shutTheBoxCoach.solve(...args)),
      restore: (...args: Parameters<typeof shutTheBoxCoach.restore>) => (restores++, shutTheBoxCoach.restore(...args)),
    };
    const rules = [shutTheBox.defaultOptions, { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' }, { ...shutTheBox.defaultOptions, partialUse: true }];
    const [a, b, c] = rules;
    // One table's bytes, from a library without a budget.
    const probe = new CoachLibrary({ coaches, cacheDir: null, inWorker: false });
    probe.status('shut-the-box', a);
    const oneTable = probe.memory().bytes;
    expect(oneTable).toBeGreaterThan(0);

    const cacheDir = join(dir, 'coach');
    const library = new CoachLibrary({ coaches: { 'shut-the-box': counted as unknown as AnyCoach }, cacheDir, inWorker: false, memoryBudget: 2.5 * oneTable });
    const optimumA = (await library.policy('shut-the-box', a)).optimum;
    const [keyA] = library.memory().kept;
    await library.policy('shut-the-box', b);
    const [, keyB] = library.memory().kept;
    expect(library.memory()).toMatchObject({ tables: 2, bytes: 2 * oneTable, kept: [keyA, keyB] });
    // A is used again, so B is now the least recently used: the third table drops B, not A (first in would be A).
    expect(library.status('shut-the-box', a).state).toBe('ready');
    expect(library.memory().kept).toEqual([keyB, keyA]);
    await library.policy('shut-the-box', c);
    const keyC = library.memory().kept[1];
    expect(solves).toBe(3);
    expect(library.memory()).toMatchObject({ tables: 2, bytes: 2 * oneTable, kept: [keyA, keyC] });
    // B comes back from its cache file, without a solve: its file is read (a second restore of B's tables), and A, now the least recent, is dropped.
    const fileB = join(cacheDir, `${keyB}.tables.gz`);
    const restoresBefore = restores;
    expect(library.status('shut-the-box', b).state).toBe('loading');
    await library.policy('shut-the-box', b);
    expect(solves).toBe(3);
    expect(restores).toBe(restoresBefore + 1);
    expect(library.memory().kept).toEqual([keyC, keyB]);
    // Dropped again (C, A used) and its file removed, B must be solved again: proof the reload above came from the file.
    await library.policy('shut-the-box', c);
    await library.policy('shut-the-box', a);
    expect(library.memory().kept).toEqual([keyC, keyA]);
    rmSync(fileB);
    await library.policy('shut-the-box', b);
    expect(solves).toBe(4);
    expect(library.memory().kept).toEqual([keyA, keyB]);
    expect((await library.policy('shut-the-box', a)).optimum).toBe(optimumA);
    expect(solves).toBe(4);
  });

  it('never drops a table that has no cache file to load it again from', async () => {
    const rules = [shutTheBox.defaultOptions, { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' }];
    const probe = new CoachLibrary({ coaches, cacheDir: null, inWorker: false });
    probe.status('shut-the-box', rules[0]);
    const oneTable = probe.memory().bytes;
    // Without a data directory each drop would be a new solve, and two rulesets would re-solve each other for ever.
    const library = new CoachLibrary({ coaches, cacheDir: null, inWorker: false, memoryBudget: 1.5 * oneTable });
    for (const options of rules) await library.policy('shut-the-box', options);
    expect(library.memory()).toMatchObject({ tables: 2, bytes: 2 * oneTable, budget: 1.5 * oneTable });
  });

  it('solves again when its cache file cannot be read, and keeps those tables however full the budget', async () => {
    const cacheDir = join(dir, 'coach');
    await new CoachLibrary({ coaches, cacheDir, inWorker: false }).policy('shut-the-box', shutTheBox.defaultOptions);
    const [file] = readdirSync(cacheDir);
    const path = join(cacheDir, file as string);
    // A directory where the file was: it can be neither read nor written.
    rmSync(path);
    mkdirSync(path);
    const warnings: string[] = [];
    const library = new CoachLibrary({ coaches, cacheDir, inWorker: false, memoryBudget: 1, onWarning: (m) => warnings.push(m) });
    expect(library.status('shut-the-box', shutTheBox.defaultOptions).state).toBe('loading');
    expect((await library.policy('shut-the-box', shutTheBox.defaultOptions)).optimum).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(new RegExp(`cannot read .*${file}.*solving shut-the-box again`));
    expect(warnings[1]).toMatch(/cannot cache shut-the-box's tables/);
    // Not in a file, so not dropped even past a 1-byte budget, though another table came in.
    await library.policy('shut-the-box', { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' });
    expect(library.memory().tables).toBe(2);
  });

  it("keeps 96 MiB of tables by default: every coached game's default tables together (BENCHMARKS.md, bench:solves)", () => {
    const library = new CoachLibrary({ coaches, cacheDir: null });
    expect(library.memory().budget).toBe(96 * 1024 * 1024);
    // Yatzy, Dice Poker, Cameroon, Shut the Box, Mexico, Busted, 10 000.
    const defaults = [16_780_000, 33_550_000, 10_000, 20_000, 14_490_000, 18_080_000, 40_000];
    expect(library.memory().budget).toBeGreaterThan(defaults.reduce((a, b) => a + b, 0));
  });

  it('answers 503 loading, with Retry-After, while tables are read back from their file, and the hint once they are there', async () => {
    const cacheDir = join(dir, 'coach');
    await new CoachLibrary({ coaches, cacheDir, inWorker: false }).policy('shut-the-box', shutTheBox.defaultOptions);
    const coach = new CoachLibrary({ coaches, cacheDir, inWorker: false });
    const table = new Table({ ...seededDice(3), botDelayMs: 0, coach });
    const app = buildApp({ table, version: 'test', operatorToken: TOKEN });
    const id = (await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'shut-the-box', players: ['Ann', 'Ben'] } })).json().id as string;
    await app.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: auth, payload: { values: [3, 4] } });
    const loading = await app.inject({ method: 'GET', url: `/api/games/${id}/analysis` });
    expect(loading.statusCode).toBe(503);
    expect(loading.json().code).toBe('coach/loading');
    expect(loading.headers['retry-after']).toBe('2');
    await coach.policy('shut-the-box', shutTheBox.defaultOptions);
    expect((await app.inject({ method: 'GET', url: `/api/games/${id}/hint`, headers: auth })).statusCode).toBe(200);
    const health = (await app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.coach).toEqual({ tables: 1, bytes: coach.memory().bytes, budget: 96 * 1024 * 1024 });
    expect(health.coach.bytes).toBeGreaterThan(0);
    await app.close();
  });

  it('reports a worker solve whose tables the solver cannot use as failed, and starts the next queued solve', async () => {
    const refusing = { ...shutTheBoxCoach, restore: () => { throw new Error('these tables do not fit'); } };
    const library = new CoachLibrary({ coaches: { 'shut-the-box': refusing as unknown as AnyCoach, cameroon: cameroonCoach as unknown as AnyCoach }, cacheDir: join(dir, 'coach') });
    const refused = library.policy('shut-the-box', shutTheBox.defaultOptions);
    const queued = library.policy('cameroon', CAMEROON_DEFAULT_OPTIONS);
    await expect(refused).rejects.toThrow("The shut-the-box solve's tables could not be used: these tables do not fit");
    expect((await queued).measure).toBe(cameroonCoach.measure);
    // Nothing cached for the refused tables, and a later request tries again (a new solve, not the failure kept).
    expect(readdirSync(join(dir, 'coach')).filter((f) => f.startsWith('shut-the-box'))).toEqual([]);
    expect(library.status('shut-the-box', shutTheBox.defaultOptions)).toMatchObject({ state: 'solving' });
    await expect(library.policy('shut-the-box', shutTheBox.defaultOptions)).rejects.toThrow('could not be used');
    library.close();
  });

  it('fails the running worker solve and the queued ones when closed during a solve', async () => {
    const library = new CoachLibrary({ coaches: { ...coaches, cameroon: cameroonCoach as unknown as AnyCoach }, cacheDir: null });
    const running = library.policy('shut-the-box', shutTheBox.defaultOptions);
    const queued = library.policy('cameroon', CAMEROON_DEFAULT_OPTIONS);
    expect(library.status('shut-the-box', shutTheBox.defaultOptions)).toMatchObject({ state: 'solving', queued: false });
    library.close();
    await Promise.all([
      expect(running).rejects.toThrow('The shut-the-box solve stopped before the end.'),
      expect(queued).rejects.toThrow('The coach was closed before this solve began.'),
    ]);
    expect(library.memory().tables).toBe(0);
  });

  it('solves three queued rulesets in the order they were asked for', async () => {
    const rules = [shutTheBox.defaultOptions, { ...shutTheBox.defaultOptions, partialUse: true }, { ...shutTheBox.defaultOptions, closeRule: 'anyCombination' }];
    const library = new CoachLibrary({ coaches, cacheDir: null });
    const order: number[] = [];
    // Asked 0, 2, 1: solved 0, 2, 1 (not in the order of the rules nor of their keys).
    const asked = [0, 2, 1];
    await Promise.all(asked.map((i) => library.policy('shut-the-box', rules[i]).then(() => order.push(i))));
    expect(order).toEqual(asked);
    library.close();
  });

  it('starts nothing after it is closed', () => {
    const library = new CoachLibrary({ coaches, cacheDir: null });
    library.close();
    expect(library.status('shut-the-box', shutTheBox.defaultOptions)).toEqual({ state: 'failed', reason: 'The coach is closed.' });
  });

  it('says why a game has no coach', () => {
    const library = new CoachLibrary({ coaches, cacheDir: null });
    expect(library.status('bluff', {})).toEqual({ state: 'unavailable', reason: 'The coach has no solver for bluff.' });
  });
});

describe('hints and analysis through the API', () => {
  async function setUp() {
    const coach = new CoachLibrary({ coaches, cacheDir: null, inWorker: false });
    const table = new Table({ ...seededDice(3), botDelayMs: 0, coach });
    const app = buildApp({ table, version: 'test', operatorToken: TOKEN });
    const create = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'shut-the-box', players: ['Ann', 'Ben'] } });
    expect(create.statusCode).toBe(201);
    return { app, table, coach, id: create.json().id as string };
  }

  it('ranks the closes open after a throw, best first, for the operator and for the seat to move only', async () => {
    const { app, table, id } = await setUp();
    await app.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: auth, payload: { values: [3, 4] } });
    const hint = await app.inject({ method: 'GET', url: `/api/games/${id}/hint`, headers: auth });
    expect(hint.statusCode).toBe(200);
    const body = hint.json();
    expect(body).toMatchObject({ seat: 0, player: 'Ann', measure: shutTheBoxCoach.measure });
    expect(body.decisions.length).toBeGreaterThan(1);
    expect(body.decisions[0].loss).toBe(0);
    for (let i = 1; i < body.decisions.length; i++) expect(body.decisions[i].loss).toBeGreaterThanOrEqual(body.decisions[i - 1].loss);
    // Every ranked decision is a legal move of the game.
    for (const d of body.decisions) for (const action of d.actions) expect(table.definition(table.get(id)).legalActions(table.get(id).state)).toContainEqual(action);

    const tokens = table.seatTokensOf(id);
    const own = await app.inject({ method: 'GET', url: `/api/games/${id}/hint?seat=0&token=${tokens[0]}` });
    expect(own.statusCode).toBe(200);
    expect(own.json().decisions).toEqual(body.decisions);
    const other = await app.inject({ method: 'GET', url: `/api/games/${id}/hint?seat=1&token=${tokens[1]}` });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toMatch(/not Ben's turn/);
    const wrong = await app.inject({ method: 'GET', url: `/api/games/${id}/hint?seat=0&token=nope` });
    expect(wrong.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/games/${id}/hint` })).statusCode).toBe(401);
  });

  it('reviews every decision after the game: the worst choice made is the costliest mistake', async () => {
    const { app, table, id } = await setUp();
    const worst: Array<{ key: string; loss: number }> = [];
    // Both players always take the worst decision the coach ranks; a forced close or a throw with nothing to choose decides nothing.
    const roll = async () => expect((await app.inject({ method: 'POST', url: `/api/games/${id}/roll`, headers: auth })).statusCode).toBe(200);
    for (let guard = 0; guard < 200 && !table.definition(table.get(id)).result(table.get(id).state); guard++) {
      const hint = (await app.inject({ method: 'GET', url: `/api/games/${id}/hint`, headers: auth })).json();
      const last = hint.decisions[hint.decisions.length - 1];
      if (hint.decisions.length > 1) worst.push({ key: last.key, loss: last.loss });
      for (const action of last?.actions ?? []) expect((await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, headers: auth, payload: action })).statusCode).toBe(200);
      // A choice of dice is carried out by the throw that follows it.
      if (!last || last.actions.length === 0 || last.key.startsWith('dice:')) await roll();
    }
    const analysis = await app.inject({ method: 'GET', url: `/api/games/${id}/analysis` });
    expect(analysis.statusCode).toBe(200);
    const body = analysis.json();
    expect(body.over).toBe(true);
    expect(body.skipped).toEqual([]);
    const total = worst.reduce((s, w) => s + w.loss, 0);
    const reviewed = body.decisions.reduce((s: number, d: { loss: number }) => s + d.loss, 0);
    expect(reviewed).toBeCloseTo(total, 9);
    expect(body.decisions[0].loss).toBeCloseTo(Math.max(...worst.map((w) => w.loss)), 9);
    expect(body.players.map((p: { decisions: number }) => p.decisions).reduce((a: number, b: number) => a + b, 0)).toBe(worst.length);
    expect(worst.some((w) => w.loss > 0)).toBe(true);
  });

  it('answers with what to do when there is no coach', async () => {
    const { app } = await setUp();
    const bluff = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'bluff', players: ['Ann', 'Ben'] } });
    const hint = await app.inject({ method: 'GET', url: `/api/games/${bluff.json().id}/hint`, headers: auth });
    expect(hint.statusCode).toBe(409);
    expect(hint.json()).toMatchObject({ code: 'coach/unavailable', message: expect.stringContaining('no solver for bluff') });
    const analysis = await app.inject({ method: 'GET', url: `/api/games/${bluff.json().id}/analysis` });
    expect(analysis.statusCode).toBe(409);
    expect(analysis.json().message).toMatch(/secret throws: its analysis opens when the game is over/);
  });

  it('lists the bot levels in the catalog and refuses a strong bot where there is none', async () => {
    const { app } = await setUp();
    const catalog = (await app.inject({ method: 'GET', url: '/api/games/catalog' })).json() as Array<{ id: string; botLevels: string[] }>;
    expect(catalog.find((g) => g.id === 'shut-the-box')?.botLevels).toEqual(['simple', 'strong']);
    expect(catalog.find((g) => g.id === 'bluff')?.botLevels).toEqual(['simple']);
    const refused = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'bluff', players: ['Ann', 'Ben'], bots: [{ seat: 1, level: 'strong' }] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'table/no_strong_bot', message: expect.stringContaining('no solver for bluff') });
    const badLevel = await app.inject({ method: 'POST', url: '/api/games', headers: auth, payload: { game: 'shut-the-box', players: ['Ann', 'Ben'], bots: [{ seat: 1, level: 'grandmaster' }] } });
    expect(badLevel.statusCode).toBe(400);
  });
});

describe('the strong bot', () => {
  /** Plays a whole game of bots through the table; returns it once over. */
  async function playOut(table: Table, id: string): Promise<TableGame> {
    for (let i = 0; i < 500; i++) {
      const game = table.get(id);
      if (table.definition(game).result(game.state)) return game;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the bots did not finish the game');
  }

  it('plays every decision the coach ranks best, so its analysis shows no loss; the simple bot loses some', async () => {
    const coach = new CoachLibrary({ coaches, cacheDir: null, inWorker: false });
    const table = new Table({ ...seededDice(11), botDelayMs: 0, coach });
    const game = table.create('shut-the-box', ['Strong', 'Simple'], { rounds: 3 }, [0, 1], { 0: 'strong' });
    expect(game.botLevels).toEqual({ 0: 'strong', 1: 'simple' });
    const over = await playOut(table, game.id);
    const app = buildApp({ table, version: 'test' });
    const analysis = (await app.inject({ method: 'GET', url: `/api/games/${over.id}/analysis` })).json();
    const [strong, simple] = analysis.players;
    expect(strong.decisions).toBeGreaterThan(0);
    expect(strong.totalLoss).toBe(0);
    expect(simple.decisions).toBeGreaterThan(0);
    expect(simple.totalLoss).toBeGreaterThan(0);
    table.close();
  });

  it('moves once its tables are solved even when the game changed while it waited for them', async () => {
    // A worker solve takes a while: the operator throws for the bot meanwhile (its first throw of the round).
    const coach = new CoachLibrary({ coaches: { mexico: mexicoCoach as unknown as AnyCoach }, cacheDir: null });
    const table = new Table({ ...seededDice(4), botDelayMs: 0, coach });
    const game = table.create('mexico', ['Robo', 'Ann'], {}, [0], { 0: 'strong' });
    await new Promise((r) => setTimeout(r, 20));
    expect(coach.status('mexico', mexico.defaultOptions).state).toBe('solving');
    const thrown = await table.roll(game.id, [6, 5]);
    // The bot decides on 6 5 (stop or throw again) by itself once the tables are there.
    await expect.poll(() => table.get(game.id).version, { timeout: 30_000, interval: 50 }).toBeGreaterThan(thrown.version);
    table.close();
    coach.close();
  });

  it('keeps its level in the record: after a restart the strong bot is still strong', async () => {
    const { openStore } = await import('../../src/storage/index.js');
    const store = openStore(join(dir, 'data'));
    const coach = new CoachLibrary({ coaches, cacheDir: null, inWorker: false });
    const table = new Table({ ...seededDice(5), botDelayMs: 60_000, coach, store });
    const game = table.create('shut-the-box', ['Ann', 'Robo'], {}, [1], { 1: 'strong' });
    table.close();
    store.close();
    const again = openStore(join(dir, 'data'));
    const restored = new Table({ ...seededDice(5), botDelayMs: 60_000, coach, store: again });
    expect(restored.get(game.id).botLevels).toEqual({ 1: 'strong' });
    restored.close();
    again.close();
  });
});
