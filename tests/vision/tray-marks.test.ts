import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DieColour } from '../../src/hardware/types.js';
import { DIE_COLOURS, SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { calibrate, calibratedConfig, measureDice, readCalibrationFile } from '../../src/vision/calibrate.js';
import cv from '../../src/hardware/opencv.js';
import { decodeFrame, DEFAULT_VISION_CONFIG, readDiceInImage } from '../../src/vision/index.js';
import { cameraMovedBy, cellColours, markCells, markMovedBy, ownColourShare } from '../../src/vision/tray-marks.js';
import { colourDistance, type Lab } from '../../src/vision/palette.js';
import { DOT, GRAIN, GRAIN_LENGTH, grainFloor, LOGO, markedFloor, RING, SCRATCH, speckledFloor, SQUARE } from '../../src/hardware/simulator/floors.js';

const floor = markedFloor();
const emptyShot = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor }));
const calibration = calibrate(emptyShot, {}, 'empty-tray.png', new Date(0));
const die = (value: number, colour: DieColour, x: number, y: number, angle = 10) => ({ value, colour, x, y, size: 64, angle });
// Away from every mark: in each scene, so a scene never reads as an empty tray.
const red2 = die(2, 'red', 300, 300);

function read(dice: ReturnType<typeof die>[], withMarks: boolean, on = floor) {
  const frame = decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 3, floor: on }));
  const cfg = calibratedConfig(calibration);
  const reading = readDiceInImage(frame, withMarks ? cfg : { ...cfg, trayMarks: [] }, dice.length);
  return { valid: reading.valid, codes: reading.issues?.map((i) => i.code) ?? [], dice: reading.dice.map((d) => ({ value: d.value, x: Math.round(d.center.x), y: Math.round(d.center.y) })) };
}

function readingOf(frame: cv.Mat, count: number) {
  const reading = readDiceInImage(frame, calibratedConfig(calibration), count);
  return { valid: reading.valid, codes: reading.issues?.map((i) => i.code) ?? [] };
}

/** Within `within` pixels of `centre`: a die read where it lies. */
const near = (centre: number, within: number) => expect.toSatisfy((v: number) => Math.abs(v - centre) <= within);
/** The dice as the reader should give them, in its reading order (left to right here: no two share a column), each centre within a quarter of a die. */
const truth = (dice: ReturnType<typeof die>[]) =>
  [...dice].sort((a, b) => a.x - b.x).map((d) => ({ value: d.value, x: near(d.x, d.size / 4), y: near(d.y, d.size / 4) }));

describe('tray marks from the empty-tray shot', () => {
  it('finds each mark on a marked floor, and none on plain felt', () => {
    const centres = calibration.trayMarks.map((m) => ({ x: m.x + m.width / 2, y: m.y + m.height / 2 }));
    const found = (p: { x: number; y: number }) => centres.some((c) => Math.hypot(c.x - p.x, c.y - p.y) <= 4);
    expect(calibration.trayMarks).toHaveLength(5);
    for (const p of [RING, { x: SQUARE.x + SQUARE.side / 2, y: SQUARE.y + SQUARE.side / 2 }, { x: LOGO.x + LOGO.side / 2, y: LOGO.y + LOGO.side / 2 }, DOT, { x: (SCRATCH.from.x + SCRATCH.to.x) / 2, y: (SCRATCH.from.y + SCRATCH.to.y) / 2 }]) expect(found(p)).toBe(true);
    // Each mark's box takes in 4 pixels of floor around it, and keeps how it looks, cell by cell: the square is dark inside a
    // ring of cells half floor; the light scratch runs across its box, with felt in the cells off it.
    const square = calibration.trayMarks.find((m) => Math.abs(m.x - (SQUARE.x - 4)) <= 1);
    const scratch = calibration.trayMarks.find((m) => Math.abs(m.x - (SCRATCH.from.x - 4)) <= 6);
    expect(square).toMatchObject({ y: near(SQUARE.y - 4, 1), width: near(SQUARE.side + 8, 2), height: near(SQUARE.side + 8, 2) });
    expect(square?.cells.length).toBe(25);
    const [corner, middle] = [square?.cells[0]?.L ?? 0, square?.cells[12]?.L ?? 100];
    expect(middle).toBeLessThan(25);
    expect(corner).toBeGreaterThan(middle + 5);
    const lightness = scratch?.cells.map((cell) => cell.L) ?? [];
    expect(Math.max(...lightness) - Math.min(...lightness)).toBeGreaterThan(8);
    expect(calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4 })), {}, 'empty-tray.png', new Date(0)).trayMarks).toEqual([]);
  });

  it('without them every roll on the marked tray is refused; with them the dice alone are read', () => {
    // The die finder drops the logo's object, not the marks the classifier is unsure of.
    expect(read([red2], false)).toMatchObject({ valid: false, codes: expect.arrayContaining(['unreadable', 'too_many']) });
    expect(read([red2], true)).toEqual({ valid: true, codes: [], dice: truth([red2]) });
  });

  it('reads a die lying on a mark, in one, half on one or pressed against one, and never the mark', () => {
    const scenes = {
      'on the dot': [die(5, 'white', DOT.x, DOT.y)],
      // Dark as the dot, and far larger.
      'black, on the dot': [die(3, 'black', DOT.x, DOT.y, 30)],
      'covering the square': [die(4, 'white', SQUARE.x + 30, SQUARE.y + 30, 0)],
      'half on the square': [die(3, 'white', SQUARE.x + 75, SQUARE.y + 40)],
      'inside the ring': [die(6, 'blue', RING.x, RING.y)],
      'against the ring': [die(6, 'blue', RING.x + 70, RING.y)],
      'inside the logo': [die(5, 'white', LOGO.x + 75, LOGO.y + 75, 20)],
      'half on the logo': [die(3, 'white', LOGO.x + LOGO.side, LOGO.y + 40, 15)],
      'across the scratch': [die(1, 'red', 360, 620)],
      // Its edge covers a little of the cells beside it: cleared, they took a strip of the die and a row of pips (read as a 3).
      'on the logo\'s corner': [die(6, 'green', 811, 232, 60)],
    };
    for (const [name, dice] of Object.entries(scenes)) {
      const roll = [...dice, red2];
      expect({ name, ...read(roll, true) }).toEqual({ name, valid: true, codes: [], dice: truth(roll) });
    }
  });

  it('reads every roll on a floor speckled all over, whose specks the mask shows a little wider in some frames', () => {
    const speckled = speckledFloor(60);
    const made = calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor: speckled })), {}, 'empty-tray.png', new Date(0));
    expect(made.trayMarks.length).toBeGreaterThan(40);
    const roll = [die(2, 'red', 300, 300), die(5, 'white', 700, 400, 30)];
    for (const noiseSeed of [10, 11, 12, 13]) {
      const reading = readDiceInImage(decodeFrame(renderTray(roll, DEFAULT_TRAY, { noiseSeed, floor: speckled })), calibratedConfig(made), roll.length);
      expect({ noiseSeed, valid: reading.valid, problems: reading.problems, values: reading.dice.map((d) => d.value) }).toEqual({ noiseSeed, valid: true, problems: [], values: [2, 5] });
    }
  });

  it('reads the same with the camera moved a few pixels since the calibration', () => {
    for (const moved of [{ x: 4, y: 3 }, { x: -5, y: 2 }, { x: 0, y: -6 }, { x: 3, y: -5 }, { x: -3, y: -3 }, { x: 5, y: 5 }]) {
      const on = markedFloor(moved);
      expect({ moved, ...read([red2], true, on) }).toEqual({ moved, valid: true, codes: [], dice: truth([red2]) });
      const roll = [die(6, 'blue', RING.x + 70, RING.y), die(3, 'white', SQUARE.x + 75, SQUARE.y + 40), die(5, 'white', LOGO.x + 75, LOGO.y + 75, 20), red2];
      expect({ moved, ...read(roll, true, on) }).toEqual({ moved, valid: true, codes: [], dice: truth(roll) });
    }
  });

  it('says the camera has moved when the marks lie further off than the reader looks for them, and how far', () => {
    const onMarks = [die(6, 'blue', RING.x + 70, RING.y), die(3, 'white', SQUARE.x + 75, SQUARE.y + 40), red2];
    for (const moved of [{ x: -14, y: 6 }, { x: 20, y: -20 }, { x: 33, y: -12 }, { x: 0, y: -46 }]) {
      for (const roll of [[red2], onMarks]) {
        const frame = decodeFrame(renderTray(roll, DEFAULT_TRAY, { noiseSeed: 3, floor: markedFloor(moved) }));
        const reading = readDiceInImage(frame, calibratedConfig(calibration), roll.length);
        expect(reading.valid).toBe(false);
        // First, as it explains the rest (the marks' edges left as objects).
        expect(reading.issues?.[0]?.code).toBe('camera_moved');
        const [, x, y] = /lies about (-?\d+) px across and (-?\d+) px down from where it was; calibrate again \(dice-tower calibrate\)/.exec(reading.problems[0] ?? '') ?? [];
        expect({ moved, x: Number(x), y: Number(y) }).toEqual({ moved, x: near(moved.x, 2), y: near(moved.y, 2) });
      }
    }
  });

  it('never says so for dice on the marks, other light, or a single mark found elsewhere', () => {
    const roll = [die(6, 'blue', RING.x, RING.y), die(3, 'white', SQUARE.x + 75, SQUARE.y + 40), die(5, 'white', LOGO.x + 75, LOGO.y + 75, 20), die(5, 'white', DOT.x, DOT.y), red2];
    const frame = decodeFrame(renderTray(roll, DEFAULT_TRAY, { noiseSeed: 3, floor }));
    // Refused for another reason (a die too many), with a die on every mark: the marks are looked for, and found where they were.
    expect(readingOf(frame, roll.length - 1)).toEqual({ valid: false, codes: ['too_many'] });
    expect(calibration.trayMarks.map((mark) => markMovedBy(frame, mark))).toEqual([null, null, null, null, null]);
    for (const light of [0.75, 1.25]) {
      const lit = frame.convertTo(cv.CV_8UC3, light, 0);
      expect({ light, ...readingOf(lit, roll.length) }).toMatchObject({ light, codes: expect.not.arrayContaining(['camera_moved']) });
    }
    // The square alone moved (a loose sticker, or like marks side by side): one mark says nothing of the camera.
    const square = calibration.trayMarks.filter((m) => Math.abs(m.x + m.width / 2 - (SQUARE.x + SQUARE.side / 2)) <= 3);
    const moved = decodeFrame(renderTray([red2], DEFAULT_TRAY, { noiseSeed: 3, floor: markedFloor({ x: 20, y: 0 }) }));
    const squareOnly = { ...calibratedConfig(calibration), trayMarks: square };
    expect(markMovedBy(moved, square[0]!)).toEqual({ x: near(20, 2), y: near(0, 2) });
    expect(readDiceInImage(moved, squareOnly, 1).issues?.map((i) => i.code)).toEqual(expect.not.arrayContaining(['camera_moved']));
    expect(readDiceInImage(moved, calibratedConfig(calibration), 1).issues?.[0]?.code).toBe('camera_moved');
    // Two parallel scratches (wood grain), each with a die on one end: each fits all along itself, off the die, and is no sign.
    const grain = grainFloor();
    const grainCalibration = calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor: grain })), {}, 'empty-tray.png', new Date(0));
    expect(grainCalibration.trayMarks).toHaveLength(2);
    for (const along of [10, GRAIN_LENGTH]) {
      const ends = [die(4, 'white', GRAIN[0]!.x + along, GRAIN[0]!.y, 0), die(2, 'red', GRAIN[1]!.x + along, GRAIN[1]!.y + along / 35, 0), die(6, 'blue', 900, 200)];
      const onGrain = decodeFrame(renderTray(ends, DEFAULT_TRAY, { noiseSeed: 3, floor: grain }));
      const cfg = calibratedConfig(grainCalibration);
      expect({ along, moved: grainCalibration.trayMarks.map((mark) => markMovedBy(onGrain, mark)), valid: readDiceInImage(onGrain, cfg, 3).valid }).toEqual({ along, moved: [null, null], valid: true });
    }
    // Marks found moved count when two or more agree, within 4 pixels of their median.
    expect(cameraMovedBy([])).toBeNull();
    expect(cameraMovedBy([{ x: 20, y: 0 }])).toBeNull();
    expect(cameraMovedBy([{ x: 20, y: 0 }, { x: 22, y: -2 }, { x: 20, y: 2 }])).toEqual({ x: 20, y: 0 });
    expect(cameraMovedBy([{ x: 20, y: 0 }, { x: -20, y: 0 }])).toBeNull();
    expect(cameraMovedBy([{ x: 20, y: 0 }, { x: 20, y: 10 }, { x: 20, y: 0 }])).toBeNull();
  });

  it('refuses the roll when a die of a mark\'s own colour lies on it', () => {
    // Exactly over the square: the changed cells around its pips are pieces that are no die.
    const over = read([die(4, 'black', SQUARE.x + 30, SQUARE.y + 30, 0), red2], true);
    expect(over.valid).toBe(false);
    expect(over.dice.filter((d) => d.value !== null)).toEqual(truth([red2]));
    // Inside the logo, only the cells its pips change stay in the mask: too few for a die, or a die's part whose pips are a
    // part of its value (a 4 read as a 2, a 6 as a 3, in rolls taken as valid before the share of the die's box cleared was
    // measured), or half a die beside the logo's corner (read as a 1, cocked or among objects). Each roll is refused.
    const codes = new Set<string>();
    for (const [x, y] of [[40, 40], [60, 80], [50, 110], [110, 110], [80, 45]] as const) {
      for (const value of [2, 4, 6]) {
        for (const angle of [0, 20]) {
          const reading = read([die(value, 'black', LOGO.x + x, LOGO.y + y, angle), red2], true);
          expect({ x, y, value, angle, ...reading }).toMatchObject({ x, y, value, angle, valid: false, dice: expect.arrayContaining(truth([red2])) });
          for (const code of reading.codes) codes.add(code);
        }
      }
    }
    expect([...codes]).toEqual(expect.arrayContaining(['object', 'too_few', 'unreadable']));
    // Half on the square or the logo's corner, the part seen reads as a die (a 3 as a 2, a 2 as a 1, a 5 as a 4, a 6 as a 3):
    // a black die beside a dark mark cannot be read.
    for (const [mark, dx, dy, value] of [[SQUARE, 20, 10, 3], [SQUARE, 30, 30, 2], [LOGO, 130, 130, 5], [LOGO, 130, 130, 6], [SQUARE, 10, 10, 3]] as const) {
      const frame = decodeFrame(renderTray([die(value, 'black', mark.x + dx, mark.y + dy, 25), red2], DEFAULT_TRAY, { noiseSeed: 3 + dx + dy, floor }));
      expect({ dx, dy, value, ...readingOf(frame, 2) }).toEqual({ dx, dy, value, valid: false, codes: expect.arrayContaining(['unreadable']) });
    }
    // Alone, on and beside the logo (its part seen read as a 2, a 3 and a 4): no value is given.
    for (const [noiseSeed, value, x, y, angle] of [[440, 3, 716, 180, 24], [698, 6, 835, 168, 24], [761, 3, 789, 249, 46]] as const) {
      const reading = readDiceInImage(decodeFrame(renderTray([die(value, 'black', x, y, angle)], DEFAULT_TRAY, { noiseSeed, floor })), calibratedConfig(calibration), 1);
      expect({ noiseSeed, valid: reading.valid, values: reading.dice.map((d) => d.value) }).toEqual({ noiseSeed, valid: false, values: expect.toSatisfy((vs: unknown[]) => vs.every((v) => v === null)) });
    }
  });

  it('measures the dice shots without the marks, given with the empty tray or later on top of it', () => {
    const shot = decodeFrame(renderTray([die(2, 'red', 400, 400), die(5, 'red', 900, 300)], DEFAULT_TRAY, { noiseSeed: 9, floor }));
    const red = DEFAULT_VISION_CONFIG.palette.red as Lab;
    for (const made of [calibrate(emptyShot, { red: shot }, 'empty-tray.png', new Date(0)), calibrate(null, { red: shot }, null, new Date(0), calibration)]) {
      expect(colourDistance(made.palette.red as Lab, red, DEFAULT_VISION_CONFIG.colourLightnessWeight)).toBeLessThan(15);
      expect(made.dieSize).toBeCloseTo(64, -1);
    }
    // Measured without the marks (nor the die finder, which drops them too), the dark ones count as dice and pull the colour far from red.
    expect(colourDistance(measureDice(shot, { ...DEFAULT_VISION_CONFIG, trayMarks: [], finderModel: null }).lab, red, DEFAULT_VISION_CONFIG.colourLightnessWeight)).toBeGreaterThan(25);
  });

  it('never misreads a throw on the marked tray: each roll is read exactly, or refused', () => {
    const cfg = calibratedConfig(calibration);
    let refused = 0;
    // Seed 200 176: a green 6 half on the logo's corner, read as a 3 before a die's edge kept the cells beside it.
    for (let seed = 200_150; seed < 200_250; seed++) {
      const rng = new SeededRandom(seed);
      const n = rng.int(1, 6);
      const thrown = throwDice(rng, n, Array.from({ length: n }, () => rng.pick(DIE_COLOURS)));
      const reading = readDiceInImage(decodeFrame(renderTray(thrown, DEFAULT_TRAY, { noiseSeed: seed, floor })), cfg, n);
      if (!reading.valid) refused++;
      else {
        const read = [...reading.dice].sort((a, b) => a.center.x - b.center.x).map((d) => ({ value: d.value, x: Math.round(d.center.x), y: Math.round(d.center.y) }));
        expect({ seed, read }).toEqual({ seed, read: truth(thrown) });
      }
    }
    // Most are read: refusing is no way to pass.
    expect(refused).toBeLessThanOrEqual(5);
  });

  it('measures how much of a die\'s box, grown about its centre, lies over mark cells of its own colour', () => {
    const black = { L: 10, a: 0, b: 0 };
    const mark = { x: 0, y: 0, width: 32, height: 32, area: 900, cells: [black, black, { L: 60, a: 0, b: 0 }, { L: 60, a: 0, b: 0 }] };
    const box = [{ x: 0, y: 0 }, { x: 32, y: 0 }, { x: 32, y: 32 }, { x: 0, y: 32 }];
    expect(ownColourShare(box, black, 32, [mark])).toBe(0.5);
    expect(ownColourShare(box, { L: 50, a: 60, b: 40 }, 32, [mark])).toBe(0);
    // Grown to twice its size, the box reaches beyond the mark: a quarter of it lies over the dark half.
    expect(ownColourShare(box, black, 64, [mark])).toBe(0.125);
    expect(ownColourShare(box, black, 32, [])).toBe(0);
  });

  it('loads a calibration file written before marks were measured as having none, and refuses bad marks', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dice-marks-')), 'calibration.json');
    const { trayMarks: _, ...older } = calibration;
    writeFileSync(file, JSON.stringify(older));
    expect(readCalibrationFile(file)).toEqual({ ...older, trayMarks: [] });
    writeFileSync(file, JSON.stringify({ ...older, trayMarks: [{ x: 1, y: 2, width: 3, height: 4, area: 5 }] }));
    expect(() => readCalibrationFile(file)).toThrow(/calibration\.json is not a dice-tower calibration \(bad tray marks, or one beyond the 1280x720 frame\)/);
  });

  it('measures a mark\'s cells row by row, and refuses a box outside the frame', () => {
    const frame = new cv.Mat(100, 100, cv.CV_8UC3, [200, 200, 200]);
    // A box of 32 x 16 pixels: 2 cells across, 1 down; the right one dark (grey 20 is L* 6.3, grey 200 L* 80.6).
    frame.drawRectangle(new cv.Rect(26, 10, 16, 16), new cv.Vec3(20, 20, 20), -1);
    const [light, dark] = cellColours(frame, { x: 10, y: 10, width: 32, height: 16 });
    expect(light?.L).toBeCloseTo(80.6, 0);
    expect(dark?.L).toBeCloseTo(6.3, 0);
    expect(markCells({ x: 0, y: 0, width: 150, height: 17 })).toBe(20);
    expect(() => cellColours(frame, { x: 90, y: 10, width: 20, height: 10 })).toThrow(/the tray mark's box 20x10 at \(90, 10\) is not inside the 100x100 frame/);
  });

  it('renders only a floor of the tray\'s size', () => {
    expect(() => renderTray([], DEFAULT_TRAY, { noiseSeed: 1, floor: Buffer.alloc(30) })).toThrow(/the floor has 30 bytes, not the 1280x720 tray's 2764800/);
  });
});
