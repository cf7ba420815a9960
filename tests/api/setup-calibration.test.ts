/**
 * The setup page's calibration and camera routes through the real app: an
 * empty-tray shot and a dice shot from the camera make calibration.json as
 * `dice-tower calibrate` does (the same file, the same warnings), a tray region
 * set by hand is kept with its marks measured again, and the next roll reads
 * with it; the camera's fixed settings are set, their refusal named, and kept
 * in camera.json for the next start.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE, type SetupHardware } from '../../src/api/setup-routes.js';
import { DEFAULT_TRAY, renderTray, type SimDie } from '../../src/hardware/simulator/index.js';
import { rimmedFloor, RIM } from '../../src/hardware/simulator/floors.js';
import { createHandTower, type Camera, type Frame } from '../../src/hardware/index.js';
import { calibratedConfig, readCalibrationFile } from '../../src/vision/calibrate.js';
import { calibratedReader, calibrationFile } from '../../src/vision/calibrate-steps.js';
import { Table } from '../../src/table.js';
import { translate } from '../../src/api/public/i18n-core.js';
import { CAMERA_FILE, cameraToUse, readCameraChoice } from '../../src/setup/camera-choice.js';

const TOKEN = 'setup-calibration-operator-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const floor = rimmedFloor();
const die = (value: number, x: number, y: number, colour: SimDie['colour'] = 'red'): SimDie => ({ value, colour, x, y, size: DEFAULT_TRAY.dieSize, angle: 12 });
const frameOf = (dice: readonly SimDie[], seed: number): Frame => ({ image: renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed, floor }), width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height, capturedAt: Date.now() });
const REDS = [die(3, 400, 300), die(5, 640, 360), die(2, 880, 420)];

/** A camera that shows what the test puts in the tray. */
function trayCamera(): Camera & { show: (dice: readonly SimDie[]) => void } {
  let dice: readonly SimDie[] = [];
  let seed = 1;
  return { show: (next) => (dice = next), capture: async () => frameOf(dice, seed++) };
}

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-calibration-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function appWith(camera: ReturnType<typeof trayCamera>, hardware: Partial<SetupHardware> = {}) {
  const reader = calibratedReader(dir, (c) => calibratedConfig(c));
  const table = new Table({ tower: createHandTower(), camera, reader });
  return { reader, app: buildApp({ table, version: 'test', operatorToken: TOKEN, setupHardware: { ...NO_SETUP_HARDWARE, camera, cameraSource: '/dev/video0', dataDir: dir, ...hardware } }, { logger: false }) };
}

describe('calibrating from the setup page', () => {
  it('measures the empty tray and a colour\'s dice into calibration.json, takes a tray region set by hand, and the next read uses it', async () => {
    const camera = trayCamera();
    const { app, reader } = appWith(camera);
    expect((await app.inject({ url: '/api/setup/calibration', headers: auth })).json()).toMatchObject({ calibration: null, warnings: [] });

    // A die left in the "empty" tray: calibrated all the same, with the CLI's warning in words.
    camera.show([die(4, 900, 500)]);
    const leftIn = (await app.inject({ method: 'POST', url: '/api/setup/calibration/empty-tray', headers: auth })).json();
    expect(leftIn.warnings).toEqual([
      { code: 'calibration/die_left', message: expect.stringMatching(/^the empty tray shows a 4 at \(9\d\d, 5\d\d\); if a die was left there, take it out and calibrate again/), params: { value: 4, x: expect.any(Number), y: expect.any(Number) } },
    ]);
    expect(leftIn.warnings[0].message).toContain(`at (${leftIn.warnings[0].params.x}, ${leftIn.warnings[0].params.y})`);

    camera.show([]);
    const empty = await app.inject({ method: 'POST', url: '/api/setup/calibration/empty-tray', headers: auth });
    expect(empty.statusCode).toBe(200);
    const found = empty.json().calibration;
    expect(empty.json().warnings).toEqual([]);
    // The region lies on the floor inside the rim, a few pixels in.
    expect(found.tray.x).toBeGreaterThanOrEqual(RIM.left);
    expect(found.tray.x).toBeLessThan(RIM.left + 12);
    expect(found.tray.y).toBeGreaterThanOrEqual(RIM.top);
    expect(found.tray.x + found.tray.width).toBeLessThanOrEqual(DEFAULT_TRAY.width - RIM.right);
    expect(found).toMatchObject({ emptyTray: true, dieSize: null, colours: [], frame: { width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height } });
    expect(existsSync(join(dir, 'empty-tray.png'))).toBe(true);

    camera.show(REDS);
    const reds = (await app.inject({ method: 'POST', url: '/api/setup/calibration/dice', headers: auth, payload: { colour: 'red' } })).json();
    expect(reds.calibration.colours).toEqual(['red']);
    expect(reds.calibration.dieSize).toBeGreaterThan(DEFAULT_TRAY.dieSize * 0.85);
    expect(reds.calibration.dieSize).toBeLessThan(DEFAULT_TRAY.dieSize * 1.15);
    // The setup page words each note by its code, in every language: no English, every parameter filled in.
    const english = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/api/public/i18n/en.json'), 'utf8'));
    for (const lang of ['fi', 'cs', 'el']) {
      const own = JSON.parse(readFileSync(join(import.meta.dirname, `../../src/api/public/i18n/${lang}.json`), 'utf8'));
      for (const note of [...leftIn.warnings, ...reds.kept]) {
        const key = `setup.codes.${note.code.replace('/', '.')}`;
        const words = translate(own, {}, lang, key, note.params);
        expect(words, `${lang} ${key}`).not.toBe(key);
        expect(words).not.toBe(translate(english, {}, 'en', key, note.params));
        expect(words).not.toMatch(/[{}]|setup\./);
      }
    }
    expect(reds.kept).toEqual([{ code: 'calibration/kept_tray', message: 'the tray region and its rim corners', params: { parts: [{ key: 'setup.kept.trayRegion' }, { key: 'setup.kept.rimCorners' }] } }]);
    expect(reds.calibration.tray).toEqual(found.tray);

    // A shot without dice is refused in words, and the calibration stays as it was.
    camera.show([]);
    const none = await app.inject({ method: 'POST', url: '/api/setup/calibration/dice', headers: auth, payload: { colour: 'blue' } });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'setup/calibration_failed', message: expect.stringMatching(/no dice found in the shot: lay the dice flat on the tray, apart from each other/) });
    expect(Object.keys(readCalibrationFile(calibrationFile(dir))?.palette ?? {})).toEqual(['red']);

    // The region pulled in to the left half (a corner dragged): kept, and a die now right of it is no longer read.
    const half = { x: found.tray.x, y: found.tray.y, width: 560, height: found.tray.height };
    camera.show([die(6, 300, 360), die(1, 1000, 360)]);
    const before = await reader.read(await camera.capture());
    expect(before.dice.map((d) => d.value).sort()).toEqual([1, 6]);
    const set = await app.inject({ method: 'PUT', url: '/api/setup/calibration/tray', headers: auth, payload: half });
    expect(set.statusCode).toBe(200);
    expect(set.json().calibration.tray).toEqual(half);
    expect(readCalibrationFile(calibrationFile(dir))?.tray).toEqual(half);
    const after = await reader.read(await camera.capture());
    expect(after.dice.map((d) => d.value)).toEqual([6]);

    // A region beyond the frame is refused, naming it.
    const beyond = await app.inject({ method: 'PUT', url: '/api/setup/calibration/tray', headers: auth, payload: { x: 1000, y: 0, width: 400, height: 300 } });
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().message).toMatch(/the tray region 400x300 at \(1000, 0\) reaches beyond the 1280x720 frame/);
    await app.close();
  });

  it('refuses a tray region before any empty-tray shot, and a colour it does not know', async () => {
    const { app } = appWith(trayCamera());
    const set = await app.inject({ method: 'PUT', url: '/api/setup/calibration/tray', headers: auth, payload: { x: 100, y: 100, width: 500, height: 400 } });
    expect(set.statusCode).toBe(422);
    expect(set.json().message).toMatch(/there is no empty-tray shot to set the tray region on/);
    const bad = await app.inject({ method: 'POST', url: '/api/setup/calibration/dice', headers: auth, payload: { colour: 'mauve' } });
    expect(bad.statusCode).toBe(400);
    await app.close();
  });
});

describe('the camera\'s settings from the setup page', () => {
  it('sets them on the camera, names what the driver refused, and keeps them in camera.json', async () => {
    const asked: unknown[] = [];
    const { app } = appWith(trayCamera(), {
      fixed: { exposure: null, whiteBalance: null },
      // A driver that takes the white balance and not the exposure.
      adjust: async (settings) => {
        asked.push(settings);
        return { exposure: false, whiteBalance: true };
      },
    });
    const res = await app.inject({ method: 'PUT', url: '/api/setup/camera', headers: auth, payload: { exposure: 250, whiteBalance: 4500 } });
    expect(res.statusCode).toBe(200);
    expect(asked).toEqual([{ exposure: 250, whiteBalance: 4500 }]);
    expect(res.json()).toMatchObject({ exposure: 250, whiteBalance: 4500, refused: [{ code: 'camera/exposure_refused', message: 'the camera did not take the fixed exposure 250: it stays automatic', params: { value: 250 } }], saved: { source: '/dev/video0', exposure: 250, whiteBalance: 4500 } });
    expect(readCameraChoice(dir)).toEqual({ source: '/dev/video0', exposure: 250, whiteBalance: 4500 });
    // A camera.json broken meanwhile is named on the page, which still answers.
    writeFileSync(join(dir, CAMERA_FILE), '{');
    expect((await app.inject({ url: '/api/setup/camera', headers: auth })).json()).toMatchObject({ saved: null, note: { code: 'setup/camera_choice_unreadable', message: expect.stringMatching(/camera\.json is not valid JSON/) } });
    const bad = await app.inject({ method: 'PUT', url: '/api/setup/camera', headers: auth, payload: { exposure: 0, whiteBalance: null } });
    expect(bad.statusCode).toBe(400);
    await app.close();
  });

  it('refuses settings for a camera that has none', async () => {
    const { app } = appWith(trayCamera());
    const res = await app.inject({ method: 'PUT', url: '/api/setup/camera', headers: auth, payload: { exposure: 100, whiteBalance: null } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('setup/camera_not_adjustable');
    await app.close();
  });

  it('starts with the saved camera and settings unless the options say otherwise; names a bad camera.json', () => {
    const saved = { source: '/dev/video2', exposure: 300, whiteBalance: 5000 };
    expect(cameraToUse({}, null)).toEqual({ source: 'sim', exposure: null, whiteBalance: null });
    expect(cameraToUse({}, saved)).toEqual(saved);
    expect(cameraToUse({ exposure: 120, whiteBalance: null }, saved)).toEqual({ ...saved, exposure: 120 });
    // Another camera on the command line: the saved settings were for the saved one.
    expect(cameraToUse({ camera: '/dev/video0' }, saved)).toEqual({ source: '/dev/video0', exposure: null, whiteBalance: null });
    writeFileSync(join(dir, CAMERA_FILE), JSON.stringify({ source: '/dev/video0', exposure: 'bright', whiteBalance: null }));
    expect(() => readCameraChoice(dir)).toThrow(/camera\.json is not a camera choice \(exposure bright is not null nor a whole number from 1 to 100000\)/);
    expect(readFileSync(join(dir, CAMERA_FILE), 'utf8')).toContain('bright');
  });
});
