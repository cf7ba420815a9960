/**
 * Every registered game, created through the API and played to its end with
 * the simulated tower: every throw goes tower → camera frame → vision → game,
 * and the decisions are the game's own bot's, sent through /actions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSimulator } from '../../src/hardware/index.js';
import { DEFAULT_TRAY } from '../../src/hardware/simulator/index.js';
import { createDiceReader, DEFAULT_VISION_CONFIG } from '../../src/vision/index.js';
import { GAMES, type AnyGameDef } from '../../src/games/index.js';
import { ALL_MODULES } from '../../src/games/las-vegas.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { seededRandom } from '../games/harness.js';

let app: FastifyInstance;
let table: Table;

beforeAll(async () => {
  const sim = createSimulator({ seed: 99, colours: ['white', 'red', 'blue'] });
  // The simulator's tray is the calibration: a normal die's edge tells big dice from normal ones (as `serve` does).
  table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader({ ...DEFAULT_VISION_CONFIG, dieSize: DEFAULT_TRAY.dieSize }) });
  app = buildApp({ table, version: 'test' });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

/** Steps a game may take here; a longer game is a bug (or a bot that never finishes). */
const MAX_STEPS = 3000;

/** Every game with default options; Las Vegas also with three players and every module (its issue's "done when"). */
const CASES: Array<{ def: AnyGameDef; label: string; players?: number; options?: Record<string, unknown> }> = [
  ...(Object.values(GAMES) as AnyGameDef[]).map((def) => ({ def, label: def.id })),
  {
    def: GAMES['las-vegas'],
    label: 'las-vegas, 3 players, every module',
    players: 3,
    options: ALL_MODULES,
  },
];

describe.each(CASES)('$label on the simulated tower', ({ def, players: seats, options }) => {
  it('is created through the API and played to the end', async () => {
    const range = def.playerRange ? def.playerRange(options ?? {}) : { min: def.minPlayers, max: def.maxPlayers };
    const players = Array.from({ length: seats ?? Math.max(range.min, Math.min(2, range.max)) }, (_, i) => `Player ${i + 1}`);
    const created = await app.inject({ method: 'POST', url: '/api/games', payload: { game: def.id, players, options: options ?? {} } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const random = seededRandom(7);
    let view = created.json();
    let towerRolls = 0;
    for (let step = 0; view.result === null; step++) {
      expect(step, `${def.id} still not over after ${MAX_STEPS} steps`).toBeLessThan(MAX_STEPS);
      const choice = def.bot(table.get(id).state, random);
      const res =
        choice === null
          ? await app.inject({ method: 'POST', url: `/api/games/${id}/roll` })
          : await app.inject({ method: 'POST', url: `/api/games/${id}/actions`, payload: choice });
      expect(res.statusCode, res.body).toBe(200);
      if (choice === null) towerRolls++;
      view = res.json();
    }
    expect(towerRolls).toBeGreaterThan(0);
    expect(view.result.scores).toHaveLength(players.length);
    expect(table.get(id).rolls.every((r) => r.source === 'tower')).toBe(true);
  }, 600_000); // every throw renders and reads a 1280x720 frame
});
