import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cv from '../../src/hardware/opencv.js';
import { SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, LAS_VEGAS_COLOURS, renderTray, throwDice, throwHopper } from '../../src/hardware/simulator/index.js';
import { calibrate, calibratedConfig, findTrayRegion, onTopOf, readCalibrationFile, writeCalibrationFile, type Calibration } from '../../src/vision/calibrate.js';
import { DEFAULT_VISION_CONFIG, decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { nearestColour } from '../../src/vision/palette.js';
import { paintRim, RIM } from '../../src/hardware/simulator/floors.js';

/** A simulator frame with a wooden rim painted around the felt: the tray floor is the inside. */
const withRim = (jpeg: Buffer): cv.Mat => paintRim(decodeFrame(jpeg));

const shot = (colour: (typeof LAS_VEGAS_COLOURS)[number], seed: number) =>
  decodeFrame(renderTray(throwDice(new SeededRandom(seed), 6, [colour]), DEFAULT_TRAY, { noiseSeed: seed }));

describe('calibration from simulator images', () => {
  it('finds the tray floor inside a rim, and none when the felt fills the frame', () => {
    const region = findTrayRegion(withRim(renderTray([], DEFAULT_TRAY, { noiseSeed: 1 })));
    expect(region).not.toBeNull();
    expect(Math.abs((region?.x ?? 0) - RIM.left)).toBeLessThanOrEqual(8);
    expect(Math.abs((region?.y ?? 0) - RIM.top)).toBeLessThanOrEqual(8);
    expect(Math.abs((region?.x ?? 0) + (region?.width ?? 0) - (DEFAULT_TRAY.width - RIM.right))).toBeLessThanOrEqual(8);
    expect(Math.abs((region?.y ?? 0) + (region?.height ?? 0) - (DEFAULT_TRAY.height - RIM.bottom))).toBeLessThanOrEqual(8);
    expect(findTrayRegion(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 2 })))).toBeNull();
  });

  it('refuses a shot with no tray floor in the middle', () => {
    const image = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 3 }));
    image.drawRectangle(new cv.Point2(300, 150), new cv.Point2(980, 570), new cv.Vec3(200, 200, 200), -1);
    image.drawRectangle(new cv.Point2(600, 300), new cv.Point2(680, 420), new cv.Vec3(20, 20, 200), -1);
    expect(() => findTrayRegion(image)).toThrow(/no tray floor found/);
  });

  it('measures each colour and the die size from shots of the dice; the palette it makes reads Las Vegas throws', () => {
    const shots = Object.fromEntries(LAS_VEGAS_COLOURS.map((c, i) => [c, shot(c, 40 + i)]));
    const calibration = calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4 })), shots, 'empty-tray.png', new Date(0));
    expect(calibration).toMatchObject({ version: 1, tray: null, emptyTray: 'empty-tray.png', frame: { width: 1280, height: 720 } });
    expect(calibration.dieSize).toBeGreaterThan(DEFAULT_TRAY.dieSize * 0.95);
    expect(calibration.dieSize).toBeLessThan(DEFAULT_TRAY.dieSize * 1.12);
    // Each measured colour is nearest to its own name in the default palette.
    for (const c of LAS_VEGAS_COLOURS) expect(nearestColour(calibration.palette[c] ?? { L: 0, a: 0, b: 0 }, DEFAULT_VISION_CONFIG.palette, DEFAULT_VISION_CONFIG.colourLightnessWeight).name).toBe(c);
    const cfg = calibratedConfig(calibration);
    const truth = throwHopper(new SeededRandom(77), [
      { colour: 'grey', size: 'normal' },
      { colour: 'white', size: 'normal' },
      { colour: 'black', size: 'big' },
      { colour: 'purple', size: 'normal' },
      { colour: 'blue', size: 'normal' },
    ]);
    const reading = readDiceInImage(decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: 77 })), cfg, truth.length);
    expect(reading.valid).toBe(true);
    const read = (t: (typeof truth)[number]) => reading.dice.find((d) => Math.hypot(d.center.x - t.x, d.center.y - t.y) < 16);
    expect(truth.map((t) => [read(t)?.colour, read(t)?.colourConfident, read(t)?.sizeClass])).toEqual(truth.map((t) => [t.colour, true, t.sizeClass ?? 'normal']));
  });

  it('a calibrated tray region makes a die lying on the rim an invalid roll', () => {
    const empty = withRim(renderTray([], DEFAULT_TRAY, { noiseSeed: 5 }));
    const calibration = calibrate(empty, {}, 'empty-tray.png', new Date(0));
    // A die whose centre is just inside the floor's left edge: half of it lies on the rim.
    const die = { value: 5, colour: 'white' as const, x: RIM.left + 10, y: 360, size: 64, angle: 0 };
    const frame = decodeFrame(renderTray([die], DEFAULT_TRAY, { noiseSeed: 6 }));
    expect(readDiceInImage(frame, calibratedConfig(calibration), 1).issues?.[0]?.code).toBe('outside');
    // Without the calibration the frame shows nothing wrong.
    expect(readDiceInImage(frame, DEFAULT_VISION_CONFIG, 1).valid).toBe(true);
    // A die wholly beyond the tray (on the rim or the table) is not in the tray at all.
    const away = decodeFrame(renderTray([{ ...die, x: 44 }], DEFAULT_TRAY, { noiseSeed: 7 }));
    expect(readDiceInImage(away, DEFAULT_VISION_CONFIG, 1).dice).toHaveLength(1);
    const ignored = readDiceInImage(away, calibratedConfig(calibration), 1);
    expect(ignored.dice).toEqual([]);
    expect(ignored.issues?.map((i) => i.code)).toEqual(['empty']);
  });

  it('refuses a frame of another size than the calibration was made on, naming both sizes', () => {
    const calibration = calibrate(withRim(renderTray([], DEFAULT_TRAY, { noiseSeed: 5 })), {}, 'empty-tray.png', new Date(0));
    const die = { value: 4, colour: 'white' as const, x: 320, y: 240, size: 64, angle: 0 };
    const small = decodeFrame(renderTray([die], { ...DEFAULT_TRAY, width: 640, height: 480 }, { noiseSeed: 8 }));
    expect(() => readDiceInImage(small, calibratedConfig(calibration), 1)).toThrow(expect.objectContaining({ code: 'vision/calibration_mismatch', message: expect.stringContaining('the frame is 640x480, but the tray was calibrated on 1280x720 frames') }));
    // The frame size it was made on is read.
    const same = decodeFrame(renderTray([{ ...die, x: 640, y: 360 }], DEFAULT_TRAY, { noiseSeed: 8 }));
    expect(readDiceInImage(same, calibratedConfig(calibration), 1).dice.map((d) => d.value)).toEqual([4]);
  });

  it('round-trips through its file, and refuses a file that is not a calibration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dice-calibration-'));
    const file = join(dir, 'calibration.json');
    expect(readCalibrationFile(file)).toBeNull();
    const calibration = calibrate(null, { red: shot('red', 9) }, null, new Date(0));
    writeCalibrationFile(file, calibration);
    expect(readCalibrationFile(file)).toEqual(calibration);
    writeFileSync(file, '{"version":1,"palette":{"red":{"L":"x"}}}');
    expect(() => readCalibrationFile(file)).toThrow(/is not a dice-tower calibration \(bad palette\)/);
    writeFileSync(file, 'not json');
    expect(() => readCalibrationFile(file)).toThrow(/is not valid JSON/);
    writeFileSync(file, 'null');
    expect(() => readCalibrationFile(file)).toThrow(/calibration\.json is not a dice-tower calibration \(it holds null, not an object\)/);
    writeFileSync(file, '[]');
    expect(() => readCalibrationFile(file)).toThrow(/is not a dice-tower calibration \(it holds a list, not an object\)/);
  });

  it('is made on top of the earlier one: what was not measured again is kept, for frames of the same size only', () => {
    const lab = (L: number) => ({ L, a: 0, b: 0 });
    const earlier: Calibration = { version: 1, createdAt: '2026-01-01T00:00:00.000Z', frame: { width: 1280, height: 720 }, tray: { x: 160, y: 0, width: 1120, height: 720 }, emptyTray: 'empty-tray.png', trayMarks: [{ x: 300, y: 200, width: 20, height: 18, area: 290, cells: Array.from({ length: 4 }, () => lab(20)) }], trayCorners: [{ x: 128, y: 688, width: 64, height: 32, area: 2048, cells: Array.from({ length: 8 }, () => lab(30)) }], dieSize: 64, palette: { red: lab(40), blue: lab(30) } };
    const blueAgain: Calibration = { ...earlier, createdAt: '2026-01-02T00:00:00.000Z', tray: null, emptyTray: null, trayMarks: [], trayCorners: [], dieSize: 62, palette: { blue: lab(35) } };
    expect(onTopOf(earlier, blueAgain, false)).toEqual({
      calibration: { ...blueAgain, tray: earlier.tray, emptyTray: 'empty-tray.png', trayMarks: earlier.trayMarks, trayCorners: earlier.trayCorners, palette: { red: lab(40), blue: lab(35) } },
      kept: [
        { code: 'calibration/kept_tray', message: 'the tray region, its marks and its rim corners', params: { parts: [{ key: 'setup.kept.trayRegion' }, { key: 'setup.kept.marks' }, { key: 'setup.kept.rimCorners' }] } },
        { code: 'calibration/kept_colours', message: 'the colour red', params: { colours: ['red'] } },
      ],
    });
    // A new empty-tray shot replaces the tray and its marks; without dice shots the die edge is kept.
    const trayAgain: Calibration = { ...blueAgain, tray: null, emptyTray: 'empty-tray.png', dieSize: null, palette: {} };
    expect(onTopOf(earlier, trayAgain, true)).toEqual({ calibration: { ...trayAgain, dieSize: 64, palette: earlier.palette }, kept: [
      { code: 'calibration/kept_die_edge', message: 'the normal die edge', params: {} },
      { code: 'calibration/kept_colours', message: 'the colours red, blue', params: { colours: ['red', 'blue'] } },
    ] });
    // Another resolution: nothing of the earlier one fits.
    const smaller: Calibration = { ...blueAgain, frame: { width: 640, height: 480 } };
    expect(onTopOf(earlier, smaller, false)).toEqual({ calibration: smaller, kept: [] });
    expect(onTopOf(null, blueAgain, false)).toEqual({ calibration: blueAgain, kept: [] });
  });

  it('measures no die cut by the tray\'s edge: its size would be part of a die\'s', () => {
    const earlier = calibrate(withRim(renderTray([], DEFAULT_TRAY, { noiseSeed: 5 })), {}, 'empty-tray.png', new Date(0));
    const edge = earlier.tray?.x ?? 0;
    // One red die on the floor, two across the floor's left edge (the rim not painted, as a shot from a camera that sees past it).
    const red = (x: number, y: number) => ({ value: 2, colour: 'red' as const, x, y, size: 64, angle: 0 });
    const shot = decodeFrame(renderTray([red(640, 360), red(edge, 200), red(edge, 520)], DEFAULT_TRAY, { noiseSeed: 12 }));
    const measured = calibrate(null, { red: shot }, null, new Date(0), earlier).dieSize ?? 0;
    expect(Math.abs(measured - 64)).toBeLessThanOrEqual(6);
  });

  it('measures dice shots given without an empty tray inside the earlier calibration\'s tray, for frames of its size', () => {
    const earlier = calibrate(withRim(renderTray([], DEFAULT_TRAY, { noiseSeed: 5 })), {}, 'empty-tray.png', new Date(0));
    expect(earlier.tray?.x).toBeGreaterThan(60);
    // The floor inside the rim stands out from the rim as a whole, but it is the floor, not a mark on it.
    expect(earlier.trayMarks).toEqual([]);
    // Two red dice on the floor, three white ones beyond its left edge (on the rim, seen without it): most dice in the shot are white.
    const red = (y: number) => ({ value: 3, colour: 'red' as const, x: 640, y, size: 64, angle: 0 });
    const white = (y: number) => ({ value: 4, colour: 'white' as const, x: 44, y, size: 64, angle: 0 });
    const shots = { red: decodeFrame(renderTray([red(260), red(460), white(150), white(360), white(570)], DEFAULT_TRAY, { noiseSeed: 11 })) };
    const colourOf = (calibration: Calibration) => nearestColour(calibration.palette.red ?? { L: 0, a: 0, b: 0 }, DEFAULT_VISION_CONFIG.palette, DEFAULT_VISION_CONFIG.colourLightnessWeight).name;
    expect(colourOf(calibrate(null, shots, null, new Date(0), earlier))).toBe('red');
    expect(calibrate(null, shots, null, new Date(0), earlier).tray).toEqual(earlier.tray);
    // Without it (or with one made for other frames) the white dice are measured too, and outnumber the red.
    expect(colourOf(calibrate(null, shots, null, new Date(0)))).toBe('white');
    expect(colourOf(calibrate(null, shots, null, new Date(0), { ...earlier, frame: { width: 640, height: 480 } }))).toBe('white');
  });

  it('refuses a frame too small to be a view of the tray, naming its size', () => {
    const tiny = new cv.Mat(40, 40, cv.CV_8UC3, [90, 120, 60]);
    expect(() => calibrate(tiny, {}, null, new Date(0))).toThrow(expect.objectContaining({ code: 'vision/bad_frame', message: expect.stringContaining('the frame is 40x40: too small') }));
  });
});
