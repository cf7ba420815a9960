import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DieColour } from '../../src/hardware/types.js';
import { DEFAULT_TRAY, renderTray } from '../../src/hardware/simulator/index.js';
import { calibrate, calibratedConfig, readCalibrationFile } from '../../src/vision/calibrate.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { DOT, markedFloor, RING, SCRATCH, SQUARE } from './marked-tray.js';

const floor = markedFloor();
const emptyShot = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor }));
const calibration = calibrate(emptyShot, {}, 'empty-tray.png', new Date(0));
const die = (value: number, colour: DieColour, x: number, y: number, angle = 10) => ({ value, colour, x, y, size: 64, angle });
// Away from every mark: in each scene, so a scene never reads as an empty tray.
const red2 = die(2, 'red', 300, 300);

function read(dice: ReturnType<typeof die>[], withMarks: boolean) {
  const frame = decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 3, floor }));
  const cfg = calibratedConfig(calibration);
  const reading = readDiceInImage(frame, withMarks ? cfg : { ...cfg, trayMarks: [] }, dice.length);
  return { valid: reading.valid, codes: reading.issues?.map((i) => i.code) ?? [], dice: reading.dice.map((d) => ({ value: d.value, x: Math.round(d.center.x), y: Math.round(d.center.y) })) };
}

/** The dice as the reader should give them, in its reading order (left to right here: no two share a column). */
const truth = (dice: ReturnType<typeof die>[]) =>
  [...dice].sort((a, b) => a.x - b.x).map((d) => ({ value: d.value, x: expect.closeTo(d.x, -1), y: expect.closeTo(d.y, -1) }));

describe('tray marks from the empty-tray shot', () => {
  it('finds each mark on a marked floor, and none on plain felt', () => {
    const centres = calibration.trayMarks.map((m) => ({ x: m.x + m.width / 2, y: m.y + m.height / 2 }));
    const near = (p: { x: number; y: number }) => centres.some((c) => Math.hypot(c.x - p.x, c.y - p.y) <= 4);
    expect(calibration.trayMarks).toHaveLength(4);
    for (const p of [RING, { x: SQUARE.x + SQUARE.side / 2, y: SQUARE.y + SQUARE.side / 2 }, DOT, { x: (SCRATCH.from.x + SCRATCH.to.x) / 2, y: (SCRATCH.from.y + SCRATCH.to.y) / 2 }]) expect(near(p)).toBe(true);
    // The square is dark, the scratch light: each mark's colour is its own.
    const square = calibration.trayMarks.find((m) => Math.abs(m.x - SQUARE.x) <= 3);
    const scratch = calibration.trayMarks.find((m) => Math.abs(m.x - SCRATCH.from.x) <= 6);
    expect(square?.lab.L).toBeLessThan(25);
    expect(scratch?.lab.L).toBeGreaterThan(45);
    expect(calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4 })), {}, 'empty-tray.png', new Date(0)).trayMarks).toEqual([]);
  });

  it('without them every roll on the marked tray is refused; with them the dice alone are read', () => {
    expect(read([red2], false)).toMatchObject({ valid: false, codes: expect.arrayContaining(['object', 'unreadable', 'too_many']) });
    expect(read([red2], true)).toEqual({ valid: true, codes: [], dice: truth([red2]) });
  });

  it('reads a die lying on a mark, or pressed against one, and never the mark', () => {
    const scenes = {
      'on the dot': [die(5, 'white', DOT.x, DOT.y)],
      // Dark as the dot, but far larger.
      'black, on the dot': [die(3, 'black', DOT.x, DOT.y, 30)],
      'covering the square': [die(4, 'white', SQUARE.x + 30, SQUARE.y + 30, 0)],
      'inside the ring': [die(6, 'blue', RING.x, RING.y)],
      'against the ring': [die(6, 'blue', RING.x + 70, RING.y)],
      'across the scratch': [die(1, 'red', 360, 620)],
    };
    for (const [name, dice] of Object.entries(scenes)) {
      const roll = [...dice, red2];
      expect({ name, ...read(roll, true) }).toEqual({ name, valid: true, codes: [], dice: truth(roll) });
    }
  });

  it('refuses the roll, rather than read a mark, when a die hides a mark of its own size and colour or lies half on one', () => {
    // A black die exactly over the black square looks like the square alone: a die too few.
    expect(read([die(4, 'black', SQUARE.x + 30, SQUARE.y + 30, 0), red2], true)).toMatchObject({ valid: false, codes: ['too_few'] });
    // Half on the square: the die is read, the square is no die, but the blob of both is an object.
    const half = read([die(3, 'white', SQUARE.x + 75, SQUARE.y + 40), red2], true);
    expect(half).toMatchObject({ valid: false, codes: ['object'] });
    expect(half.dice.map((d) => d.value)).toEqual([2, 3]);
  });

  it('loads a calibration file written before marks were measured as having none, and refuses bad marks', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dice-marks-')), 'calibration.json');
    const { trayMarks: _, ...older } = calibration;
    writeFileSync(file, JSON.stringify(older));
    expect(readCalibrationFile(file)).toEqual({ ...older, trayMarks: [] });
    writeFileSync(file, JSON.stringify({ ...older, trayMarks: [{ x: 1, y: 2, width: 3, height: 4, area: 5 }] }));
    expect(() => readCalibrationFile(file)).toThrow(/calibration\.json is not a dice-tower calibration \(bad tray marks\)/);
  });

  it('renders only a floor of the tray\'s size', () => {
    expect(() => renderTray([], DEFAULT_TRAY, { noiseSeed: 1, floor: Buffer.alloc(30) })).toThrow(/the floor has 30 bytes, not the 1280x720 tray's 2764800/);
  });
});
