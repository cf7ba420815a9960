/**
 * The setup page's tower routes against a scripted board (stock
 * StandardFirmata 2.5, or firmware it does not know) driven by the real
 * FirmataTower: the firmware's name and version, the note on it, the tray's
 * angles and light, the tray sensor and the button heard live, and a test tip that moves the
 * servo to the tip angle and back to rest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';
import { FirmataTower } from '../../src/hardware/firmata-tower.js';
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { boardSetup } from '../../src/setup/board.js';
import { anglesToUse, readTrayAngles, TRAY_FILE, writeTrayAngles } from '../../src/setup/tray-angles.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table } from '../../src/table.js';
import { FakeFirmataBoard, type FakeBoardOptions } from './fake-firmata-board.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ANGLES = { tipAngle: 140, restAngle: 30, light: 200 };

async function appOn(options: FakeBoardOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-board-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const board = new FakeFirmataBoard(options);
  cleanups.push(() => board.dispose());
  const tower = new FirmataTower({ openTransport: board.openTransport, ...ANGLES, holdMs: 120, returnTimeoutMs: 300, heartbeatMs: 200, answerTimeoutMs: 1000, readyTimeoutMs: 1000, reportVersionTimeoutMs: 100, reconnect: false, buttonDebounceMs: 20 });
  cleanups.push(() => tower.close());
  // The table rolls with the simulator: these routes speak to the board alone. Made before the board is connected: loading the
  // reader's models holds the event loop longer than the board's answer timeout.
  const sim = createSimulator({ seed: 3, colours: ['white'], rollMs: 0 });
  const app = buildApp({ table: new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() }), version: 'test', setupHardware: { ...NO_SETUP_HARDWARE, serial: '/dev/ttyFAKE0', board: boardSetup(tower, ANGLES.light, (angles) => writeTrayAngles(dir, angles)) } });
  cleanups.push(() => app.close());
  await app.ready();
  await tower.connect();
  return { board, app, dir };
}

describe('the tower on the setup page', () => {
  it('shows stock StandardFirmata with its version and a note, hears the button, and tips the tray to the tip angle and back', async () => {
    const { board, app } = await appOn({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
    const shown = (await app.inject('/api/setup/tower')).json();
    expect(shown).toMatchObject({ connected: true, firmware: 'StandardFirmata.ino', version: '2.5', mode: 'host-driven', path: '/dev/ttyFAKE0', tipAngle: 140, restAngle: 30, light: 200, lastButtonAt: null });
    expect(shown.note).toMatch(/^Stock StandardFirmata: it works, with fewer safety features/);
    // The tray sensor, live: the fake board's tray starts in its seat (low), and is lifted out of it.
    await expect.poll(async () => (await app.inject('/api/setup/tower')).json().trayInPlace, { timeout: 2000 }).toBe(true);
    board.setInput(TOWER_PINS.TRAY_SENSOR, 1);
    await expect.poll(async () => (await app.inject('/api/setup/tower')).json().trayInPlace, { timeout: 2000 }).toBe(false);
    board.setInput(TOWER_PINS.TRAY_SENSOR, 0);
    await expect.poll(async () => (await app.inject('/api/setup/tower')).json().trayInPlace, { timeout: 2000 }).toBe(true);

    // A press: the pulled-up pin goes low.
    board.setInput(TOWER_PINS.BUTTON, 1);
    board.setInput(TOWER_PINS.BUTTON, 0);
    await expect.poll(async () => (await app.inject('/api/setup/tower')).json().lastButtonAt, { timeout: 2000 }).toEqual(expect.any(Number));
    board.setInput(TOWER_PINS.BUTTON, 1);

    const tipsBefore = board.tips;
    const tip = await app.inject({ method: 'POST', url: '/api/setup/tower/test-tip' });
    expect(tip.statusCode).toBe(200);
    expect(board.tips).toBe(tipsBefore + 1);
    expect(board.servoWrites().map((w) => w.value)).toEqual([30, 140, 30]);
  });

  it('sets the tray\'s angles for the next tip and keeps them in tray.json for the next start; refuses angles that cannot work', async () => {
    const { board, app, dir } = await appOn({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
    const set = await app.inject({ method: 'PUT', url: '/api/setup/tower/angles', payload: { tipAngle: 120, restAngle: 40 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ tipAngle: 120, restAngle: 40 });
    expect(readTrayAngles(dir)).toEqual({ tipAngle: 120, restAngle: 40 });
    // The tray at rest moved to the new rest angle at once (the board's tray seat follows it), then a tip to the new angle.
    await expect.poll(async () => (await app.inject('/api/setup/tower')).json().trayInPlace, { timeout: 2000 }).toBe(true);
    expect((await app.inject({ method: 'POST', url: '/api/setup/tower/test-tip' })).statusCode).toBe(200);
    expect(board.servoWrites().map((w) => w.value)).toEqual([30, 40, 120, 40]);

    const same = await app.inject({ method: 'PUT', url: '/api/setup/tower/angles', payload: { tipAngle: 90, restAngle: 90 } });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 'setup/bad_angles', message: "The tray's angles were not changed: the tip and rest angles are both 90°: the tray would never move." });
    expect((await app.inject({ method: 'PUT', url: '/api/setup/tower/angles', payload: { tipAngle: 200, restAngle: 30 } })).statusCode).toBe(400);
    expect(readTrayAngles(dir)).toEqual({ tipAngle: 120, restAngle: 40 });

    // serve's angles: each option, else the saved one, else the default.
    expect(anglesToUse({}, null)).toEqual({ tipAngle: 150, restAngle: 30 });
    expect(anglesToUse({}, { tipAngle: 120, restAngle: 40 })).toEqual({ tipAngle: 120, restAngle: 40 });
    expect(anglesToUse({ towerTip: 160 }, { tipAngle: 120, restAngle: 40 })).toEqual({ tipAngle: 160, restAngle: 40 });
    writeFileSync(join(dir, TRAY_FILE), JSON.stringify({ tipAngle: 120, restAngle: 'low' }));
    expect(() => readTrayAngles(dir)).toThrow(/tray\.json is not a pair of tray angles \(restAngle low is not a whole number of degrees from 0 to 180\)/);
  });

  it('names a firmware it does not know, and refuses a test tip without a board', async () => {
    const { app } = await appOn({ firmwareName: 'Blink.ino', firmwareVersion: [2, 5] });
    expect((await app.inject('/api/setup/tower')).json()).toMatchObject({ firmware: 'Blink.ino', version: '2.5', note: 'An unknown firmware ("Blink.ino"): flash the dice-tower firmware (dice-tower flash).' });
    const sim = createSimulator({ seed: 3, colours: ['white'], rollMs: 0 });
    const bare = buildApp({ table: new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() }), version: 'test' });
    const refused = await bare.inject({ method: 'POST', url: '/api/setup/tower/test-tip' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'setup/no_board', message: expect.stringMatching(/no tower board/) });
    await bare.close();
  });
});
