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
import { TOWER_PINS } from '../../src/hardware/tower-protocol.js';
import { createSimulator } from '../../src/hardware/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { readSerialChoice, serialToUse, SERIAL_FILE, writeSerialChoice } from '../../src/setup/tower-link.js';
import { anglesToUse, readTrayAngles, TRAY_FILE, writeTrayAngles } from '../../src/setup/tray-angles.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table } from '../../src/table.js';
import { FakeFirmataBoard, type FakeBoardOptions } from './fake-firmata-board.js';
import { FAKE_PORT, fakeBoardLink } from './fake-board-link.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ANGLES = { tipAngle: 140, restAngle: 30, light: 200 };

const TIMINGS = { holdMs: 120, returnTimeoutMs: 300, heartbeatMs: 200, answerTimeoutMs: 1000, readyTimeoutMs: 1000, reportVersionTimeoutMs: 100, reconnect: false, buttonDebounceMs: 20 } as const;

async function appOn(options: FakeBoardOptions, connect = true) {
  const dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-board-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const board = new FakeFirmataBoard(options);
  cleanups.push(() => board.dispose());
  // The table starts with the simulator; the board is connected through the setup page's link. Made before the board is
  // connected: loading the reader's models holds the event loop longer than the board's answer timeout.
  const sim = createSimulator({ seed: 3, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
  const { link, towers } = fakeBoardLink(table, sim.tower, board, { tipAngle: ANGLES.tipAngle, restAngle: ANGLES.restAngle, ...TIMINGS }, {
    light: ANGLES.light, saveAngles: (angles) => writeTrayAngles(dir, angles), savePort: (port) => writeSerialChoice(dir, { port }),
  });
  cleanups.push(() => link.close());
  const app = buildApp({ table, version: 'test', setupHardware: { ...NO_SETUP_HARDWARE, link } });
  cleanups.push(() => app.close());
  await app.ready();
  if (connect) await link.connect(FAKE_PORT);
  return { board, app, dir, towers };
}

describe('the tower on the setup page', () => {
  it('shows stock StandardFirmata with its version and a note, hears the button, and tips the tray to the tip angle and back', async () => {
    const { board, app } = await appOn({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
    const shown = (await app.inject('/api/setup/tower')).json();
    expect(shown).toMatchObject({ connected: true, firmware: 'StandardFirmata.ino', version: '2.5', mode: 'host-driven', path: '/dev/ttyFAKE0', tipAngle: 140, restAngle: 30, light: 200, lastButtonAt: null });
    expect(shown.note).toMatchObject({ code: 'firmware/standard_firmata', message: expect.stringMatching(/^Stock StandardFirmata: it works, with fewer safety features/) });
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
    expect((await app.inject('/api/setup/tower')).json()).toMatchObject({ firmware: 'Blink.ino', version: '2.5', note: { code: 'firmware/unknown', message: 'An unknown firmware ("Blink.ino"): flash the dice-tower firmware (dice-tower flash).', params: { firmware: 'Blink.ino' } } });
    const sim = createSimulator({ seed: 3, colours: ['white'], rollMs: 0 });
    const bare = buildApp({ table: new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() }), version: 'test' });
    const refused = await bare.inject({ method: 'POST', url: '/api/setup/tower/test-tip' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'setup/no_board', message: 'No tower board is connected: there is no tray to tip.' });
    await bare.close();
  });

  it('connects the board on a chosen port at run time and disconnects it, the games kept; keeps the choice for the next start', async () => {
    const { board, app, dir, towers } = await appOn({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] }, false);
    expect((await app.inject('/api/setup/tower')).json()).toMatchObject({ kind: 'simulated', serial: null, firmware: null, note: { code: 'setup/board_none', message: expect.stringMatching(/^No tower board/) } });
    const game = (await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'dice-poker', players: ['Ann'] } })).json();

    const missing = await app.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: '/dev/ttyACM9' } });
    expect(missing.statusCode).toBe(503);
    expect(missing.json()).toMatchObject({
      code: 'setup/connect_failed', message: 'No board could be connected on /dev/ttyACM9: Error: No such file or directory, cannot open /dev/ttyACM9',
      params: { port: '/dev/ttyACM9', error: 'Error: No such file or directory, cannot open /dev/ttyACM9' },
    });
    expect(readSerialChoice(dir)).toBeNull();
    const junk = await app.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: '/etc/passwd' } });
    expect(junk.statusCode).toBe(400);

    const connected = await app.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: FAKE_PORT } });
    expect(connected.statusCode).toBe(200);
    expect(connected.json()).toMatchObject({ kind: 'firmata', state: 'ready', message: `Tower connected on ${FAKE_PORT}`, serial: FAKE_PORT, connected: true, firmware: 'StandardFirmata.ino', version: '2.5' });
    expect(readSerialChoice(dir)).toEqual({ port: FAKE_PORT });
    expect(board.openPort).not.toBeNull();
    const again = await app.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: FAKE_PORT } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'setup/board_connected', message: `A board is already connected on ${FAKE_PORT}: disconnect it first.` });
    // The table rolls with the board now: a game's roll tips the tray (the simulated camera then reads an empty tray: refused).
    const tips = board.tips;
    await app.inject({ method: 'POST', url: `/api/games/${game.id}/roll`, payload: {} });
    expect(board.tips).toBeGreaterThan(tips);

    const flash = await app.inject({ method: 'POST', url: '/api/setup/flash', payload: {} });
    expect(flash.json()).toMatchObject({ code: 'setup/board_in_use', message: expect.stringContaining('disconnect the board on this page first') });

    const disconnected = await app.inject({ method: 'POST', url: '/api/setup/tower/disconnect', payload: {} });
    expect(disconnected.statusCode).toBe(200);
    expect(disconnected.json()).toMatchObject({ kind: 'simulated', message: 'Tower board disconnected', serial: null, firmware: null });
    expect(board.openPort).toBeNull();
    expect(towers.length).toBe(1);
    expect(readSerialChoice(dir)).toEqual({ port: null });
    // The game is still there and rolls with the simulator again.
    const rolled = await app.inject({ method: 'POST', url: `/api/games/${game.id}/roll`, payload: {} });
    expect(rolled.statusCode).toBe(200);
    expect((await app.inject(`/api/games/${game.id}`)).json().id).toBe(game.id);
    const twice = await app.inject({ method: 'POST', url: '/api/setup/tower/disconnect', payload: {} });
    expect(twice.json()).toMatchObject({ code: 'setup/no_board', message: 'No tower board is connected.' });

    // serve's port: --serial when given (null: none), else the saved one, else none; a bad serial.json is named.
    expect(serialToUse(undefined, null)).toBeNull();
    expect(serialToUse(undefined, { port: FAKE_PORT })).toBe(FAKE_PORT);
    expect(serialToUse('auto', { port: FAKE_PORT })).toBe('auto');
    expect(serialToUse(null, { port: FAKE_PORT })).toBeNull();
    writeFileSync(join(dir, SERIAL_FILE), JSON.stringify({ port: 'COM3' }));
    expect(() => readSerialChoice(dir)).toThrow(/serial\.json is not a serial port choice \(port "COM3" is neither auto, a \/dev path nor null\)/);
  });

  it('holds the tower\'s lock through a test tip: a disconnect and a roll are refused until the tray is back', async () => {
    const { board, app } = await appOn({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
    const game = (await app.inject({ method: 'POST', url: '/api/games', payload: { game: 'dice-poker', players: ['Ann'] } })).json();
    const tipping = app.inject({ method: 'POST', url: '/api/setup/tower/test-tip', payload: {} });
    // The tray on its way out (the servo sent to the tip angle); the tip holds it there for holdMs.
    await expect.poll(() => board.servoWrites().map((w) => w.value), { timeout: 2000, interval: 5 }).toContain(ANGLES.tipAngle);
    const disconnect = await app.inject({ method: 'POST', url: '/api/setup/tower/disconnect', payload: {} });
    expect(disconnect.statusCode).toBe(409);
    expect(disconnect.json()).toMatchObject({ code: 'setup/tip_running', message: 'A test tip is under way: change the tower once the tray is back.' });
    expect(board.openPort).not.toBeNull();
    const roll = await app.inject({ method: 'POST', url: `/api/games/${game.id}/roll`, payload: {} });
    expect(roll.statusCode).toBe(409);
    expect(roll.json()).toMatchObject({ code: 'tower/busy' });
    const tipAgain = await app.inject({ method: 'POST', url: '/api/setup/tower/test-tip', payload: {} });
    expect(tipAgain.json()).toMatchObject({ code: 'setup/tower_rolling' });

    // The tip ends as it began, on the board still connected; then the disconnect goes through.
    const tipped = await tipping;
    expect(tipped.statusCode).toBe(200);
    expect(tipped.json()).toMatchObject({ state: 'ready', connected: true, serial: FAKE_PORT });
    expect(board.servoWrites().map((w) => w.value)).toEqual([30, 140, 30]);
    expect((await app.inject({ method: 'POST', url: '/api/setup/tower/disconnect', payload: {} })).statusCode).toBe(200);
    expect(board.openPort).toBeNull();
  });

  it('refuses a board beside the simulated camera, and on a server that drives none', async () => {
    const sim = createSimulator({ seed: 3, colours: ['white'], rollMs: 0 });
    const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader() });
    const board = new FakeFirmataBoard({ firmwareName: 'StandardFirmata.ino', firmwareVersion: [2, 5] });
    const { link } = fakeBoardLink(table, sim.tower, board, TIMINGS);
    const simCamera = buildApp({ table, version: 'test', setupHardware: { ...NO_SETUP_HARDWARE, cameraSource: 'sim', link } });
    const refused = await simCamera.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: FAKE_PORT } });
    expect(refused.json()).toMatchObject({ code: 'setup/needs_camera', message: expect.stringMatching(/^A tower board needs a real camera/) });
    expect(board.ports).toEqual([]);
    await simCamera.close();
    const none = buildApp({ table, version: 'test' });
    expect((await none.inject({ method: 'POST', url: '/api/setup/tower/connect', payload: { port: FAKE_PORT } })).json()).toMatchObject({ code: 'setup/no_link' });
    await none.close();
  });
});
