import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/hardware/index.js';
import { DEFAULT_TRAY, LAS_VEGAS_COLOURS, renderTray, throwDice } from '../../src/hardware/simulator/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate, calibratedConfig, findTrayCorners, findTrayFloor, readCalibrationFile } from '../../src/vision/calibrate.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/index.js';
import { markMovedBy } from '../../src/vision/tray-marks.js';
import { besideRim, paintRim, RIM, rimmedFloor } from '../../src/hardware/simulator/floors.js';
import cv from '../../src/hardware/opencv.js';
import { trayCorners, turnPoint } from '../../src/vision/validity.js';

// A tray whose wooden rim is in view all round, as a camera over a real tray sees it, calibrated from its empty shot.
const floor = rimmedFloor();
const calibration = calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor })), {}, 'empty-tray.png', new Date(0));
const cfg = calibratedConfig(calibration);
const die = (value: number, x: number, y: number, angle = 10) => ({ value, colour: 'red' as const, x, y, size: 64, angle });

function read(dice: ReturnType<typeof die>[]) {
  const reading = readDiceInImage(decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 3, floor })), cfg, dice.length);
  return { valid: reading.valid, codes: reading.issues?.map((i) => i.code) ?? [], values: reading.dice.map((d) => d.value) };
}

describe('a tray with its rim in view', () => {
  it('reads random throws on the floor inside the rim exactly', () => {
    // The rim drawn into the floor (textured and lit as the felt is), and a plain rim painted over the frame (its edge sharp all round).
    const painted = calibratedConfig(calibrate(paintRim(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4 }))), {}, 'empty-tray.png', new Date(0)));
    expect(calibration.tray).not.toBeNull();
    // The rim's grain along the floor's edge is no mark on the floor (without cutting the mask at the tray: 226 specks).
    expect(calibration.trayMarks).toEqual([]);
    // Thrown onto the floor up to the rim: a die may land against it.
    const floorSize = { width: DEFAULT_TRAY.width - RIM.left - RIM.right, height: DEFAULT_TRAY.height - RIM.top - RIM.bottom, dieSize: 64 };
    const values = (xs: readonly (number | null)[]) => [...xs].sort();
    for (let seed = 300; seed < 330; seed++) {
      const count = 1 + (seed % 6);
      const dice = throwDice(new SeededRandom(seed), count, LAS_VEGAS_COLOURS, floorSize).map((d) => ({ ...d, x: d.x + RIM.left, y: d.y + RIM.top }));
      const onFloor = readDiceInImage(decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed, floor })), cfg, count);
      const underPaint = readDiceInImage(paintRim(decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed }))), painted, count);
      for (const [rim, reading] of [['drawn', onFloor], ['painted', underPaint]] as const) {
        expect({ seed, rim, valid: reading.valid, values: values(reading.dice.map((d) => d.value)) }).toEqual({ seed, rim, valid: true, values: values(dice.map((d) => d.value)) });
      }
    }
  });

  it('reads a tray turned against the frame, or with rounded corners: the region it takes lies on the floor', () => {
    const inner = { width: DEFAULT_TRAY.width - RIM.left - RIM.right - 160, height: DEFAULT_TRAY.height - RIM.top - RIM.bottom - 160, dieSize: 64 };
    const values = (xs: readonly (number | null)[]) => [...xs].sort();
    for (const shape of [{ turn: 1 }, { turn: -2 }, { cornerRadius: 40 }, { turn: 1.5, cornerRadius: 40 }]) {
      const shaped = rimmedFloor({ x: 0, y: 0 }, shape);
      const turned = calibratedConfig(calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor: shaped })), {}, 'empty-tray.png', new Date(0)));
      for (let seed = 400; seed < 406; seed++) {
        const count = 1 + (seed % 6);
        // Dice at least 80 pixels from the rim: the region lies inside the floor, up to about 40 pixels in where the floor is turned most.
        const dice = throwDice(new SeededRandom(seed), count, LAS_VEGAS_COLOURS, inner).map((d) => ({ ...d, x: d.x + RIM.left + 80, y: d.y + RIM.top + 80 }));
        const reading = readDiceInImage(decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed, floor: shaped })), turned, count);
        expect({ shape, seed, valid: reading.valid, values: values(reading.dice.map((d) => d.value)) }).toEqual({ shape, seed, valid: true, values: values(dice.map((d) => d.value)) });
      }
    }
  });

  it('refuses a roll with a die lying partly on the rim, naming each part seen on the floor as partly outside the tray', () => {
    const inside = die(3, 400, 300);
    // Half on the left rim, a third on the bottom rim, and a quarter at the top right corner.
    for (const onRim of [die(6, RIM.left, 400, 0), die(6, RIM.left + 4, 300, 30), die(5, 700, DEFAULT_TRAY.height - RIM.bottom - 10, 0), die(4, DEFAULT_TRAY.width - RIM.right, RIM.top, 0)]) {
      const reading = readDiceInImage(decodeFrame(renderTray([inside, onRim], DEFAULT_TRAY, { noiseSeed: 3, floor })), cfg, 2);
      expect({ onRim, valid: reading.valid, first: reading.issues?.[0]?.code }).toEqual({ onRim, valid: false, first: 'outside' });
      // The die inside is read; whatever is seen of the other is judged partly outside, as a die cut by the frame's edge is.
      const isInside = (p: { x: number; y: number }) => Math.hypot(p.x - inside.x, p.y - inside.y) < 16;
      expect({ onRim, inside: reading.dice.filter((d) => isInside(d.center)).map((d) => d.value) }).toEqual({ onRim, inside: [3] });
      const outside = reading.issues?.filter((i) => i.code === 'outside' && i.at !== undefined && !isInside(i.at)).length ?? 0;
      const others = reading.dice.filter((d) => !isInside(d.center));
      expect({ onRim, outside: outside >= Math.max(1, others.length) }).toEqual({ onRim, outside: true });
    }
  });

  it('reads a die lying against the rim on every side, upright or turned, and refuses one lying over it', () => {
    // Upright or turned, touching the rim or 4 pixels from it.
    const placings = [0, 3, 10, 25, 45].flatMap((angle) => [0, 4].map((gap) => ({ angle, gap })));
    expect(byRim(placings).filter((r) => !r.exact)).toEqual([]);
    // Over the rim by 16 or 24 pixels at its farthest point: the edge hides more of it than the region's inset does, or its corner
    // reaches far past. (Turned 10° and 12 pixels over, it is over by 6 on average, and read.)
    const over = [0, 10, 25, 45].flatMap((angle) => [-16, -24].map((gap) => ({ angle, gap })));
    expect(byRim(over).filter((r) => r.valid)).toEqual([]);
  });

  it('reads a die lying against a rim turned against the camera, and refuses one lying over it: the region turns with the tray', () => {
    // An upright region inside a floor turned 1.5° lies up to 25 px inside the rim (of these 40 placings, 2 were read at 1.5°, 7 at -1°).
    for (const turn of [1.5, -1]) {
      const shape = { turn };
      const shaped = rimmedFloor({ x: 0, y: 0 }, shape);
      const turned = calibrate(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor: shaped })), {}, 'empty-tray.png', new Date(0));
      expect(turned.tray?.turn).toBeCloseTo(turn, 1);
      expect(turned.trayCorners.length).toBe(4);
      const placings = [0, 3, 10, 25, 45].flatMap((angle) => [0, 4].map((gap) => ({ angle, gap })));
      expect(byRim(placings, { floor: shaped, cfg: calibratedConfig(turned), shape }).filter((r) => !r.exact)).toEqual([]);
      const over = [0, 10, 25, 45].flatMap((angle) => [-16, -24].map((gap) => ({ angle, gap })));
      expect(byRim(over, { floor: shaped, cfg: calibratedConfig(turned), shape }).filter((r) => r.valid)).toEqual([]);
    }
  });

  it('places a turned region on the floor wherever the tray lies in the frame, with its corner marks at its corners', () => {
    // A floor 700×360 far from the frame's middle (its centre 180 px left and 60 px up): a region turned about the wrong centre
    // would lie off it, over the rim.
    for (const turn of [2, -3]) {
      const wood = new cv.Vec3(40, 90, 150);
      const image = new cv.Mat(720, 1280, cv.CV_8UC3, [40, 90, 150]);
      const centre = { x: 460, y: 300 };
      const floorCorners = [[-350, -180], [350, -180], [350, 180], [-350, 180]].map(([u, v]) => turnPoint({ x: centre.x + u!, y: centre.y + v! }, centre, turn));
      const points = (ps: readonly { x: number; y: number }[]) => [ps.map((p) => new cv.Point2(Math.round(p.x), Math.round(p.y)))];
      image.drawFillPoly(points(floorCorners), new cv.Vec3(60, 120, 60));
      const { region, inView } = findTrayFloor(image);
      expect({ turn: Math.round((region?.turn ?? 0) * 10) / 10, inView }).toEqual({ turn, inView: true });
      const corners = trayCorners(region!);
      const inside = new cv.Mat(720, 1280, cv.CV_8U, 0);
      inside.drawFillPoly(points(corners), new cv.Vec3(255, 255, 255));
      expect(image.inRange(wood, wood).bitwiseAnd(inside).countNonZero()).toBe(0);
      // Each corner a few pixels in from the floor's (4-8 px in from each side).
      expect(corners.map((p, i) => Math.hypot(p.x - floorCorners[i]!.x, p.y - floorCorners[i]!.y) < 12)).toEqual([true, true, true, true]);
      // The marks that tell a moved camera lie about the turned corners (top left, top right, bottom left, bottom right).
      const marks = findTrayCorners(image, region).map((m) => ({ x: m.x + m.width / 2, y: m.y + m.height / 2 }));
      const expected = [corners[0]!, corners[1]!, corners[3]!, corners[2]!];
      expect(marks.map((m, i) => Math.hypot(m.x - expected[i]!.x, m.y - expected[i]!.y) <= 1)).toEqual([true, true, true, true]);
    }
  });

  /** Rolls of a 3 in the middle and a 5 laid by each side of the rim, `gap` pixels from it (negative: over it), turned `angle` against it. */
  function byRim(placings: readonly { angle: number; gap: number }[], tray: { floor: Buffer; cfg: typeof cfg; shape: Parameters<typeof rimmedFloor>[1] } = { floor, cfg, shape: {} }) {
    const rolls: { at: string; valid: boolean; exact: boolean; codes: string }[] = [];
    for (const { angle, gap } of placings) {
      for (const at of besideRim(gap, angle, 64, tray.shape)) {
        const dice = [die(3, 640, 200, 5), die(5, at.x, at.y, at.angle)];
        const frame = decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 3, floor: tray.floor }));
        const found = readDiceInImage(frame, tray.cfg, dice.length);
        const reading = { valid: found.valid, codes: found.issues?.map((i) => i.code) ?? [], values: found.dice.map((d) => d.value) };
        rolls.push({ at: `${at.side} ${angle}° ${gap} px`, valid: reading.valid, exact: reading.valid && [...reading.values].sort().join() === '3,5', codes: reading.codes.join() });
      }
    }
    return rolls;
  }

  it('reads a dark die near the rim: the floor\'s colour beside the rim is the floor\'s, not the rim\'s', () => {
    // With the rim taken into the floor's median, the floor beside it and a die's shadow there stood out as objects
    // (15 of these 48 rolls refused, black dice most).
    const missed: string[] = [];
    for (const colour of ['black', 'grey', 'green'] as const) {
      for (const gap of [8, 12, 16, 20]) {
        const near = [
          { x: 500, y: DEFAULT_TRAY.height - RIM.bottom - gap - 32 },
          { x: DEFAULT_TRAY.width - RIM.right - gap - 32, y: 400 },
          { x: 700, y: RIM.top + gap + 32 },
          { x: RIM.left + gap + 32, y: 300 },
        ];
        for (const at of near) {
          const dice = [die(3, 640, 300, 5), { ...die(5, at.x, at.y, 2), colour }];
          const reading = readDiceInImage(decodeFrame(renderTray(dice, DEFAULT_TRAY, { noiseSeed: 11 + gap, floor })), cfg, 2);
          if (!reading.valid || reading.dice.map((d) => d.value).sort().join() !== '3,5') missed.push(`${colour} at (${at.x}, ${at.y}): ${reading.problems.join('; ')}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('tells how far the floor reaches beyond the region on a round-cornered tray, not on a turned one (calibrate warns of it)', () => {
    const beyond = (shape: Parameters<typeof rimmedFloor>[1]) => findTrayFloor(decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor: rimmedFloor({ x: 0, y: 0 }, shape) }))).beyond;
    expect(beyond({})).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    // A corner of radius 40 px keeps the box 12 px in (0.29 of it).
    expect(beyond({ cornerRadius: 40 })).toEqual({ left: 12, top: 12, right: 12, bottom: 12 });
    // Turned 1°, a side of 1 100 px runs 19 px across, and an upright box lay 20 px inside the floor; turned with the tray, only
    // the outline's steps on the shrunk copy (4 px) lie beyond it.
    const turned = beyond({ turn: 1 });
    expect(Math.max(turned.left, turned.top, turned.right, turned.bottom)).toBeLessThanOrEqual(5);
  });

  it('takes a die lying wholly on the rim as no die in the tray', () => {
    expect(read([die(3, 400, 300), die(2, 40, 300)])).toEqual({ valid: false, codes: ['too_few'], values: [3] });
  });

  it('says the camera has moved when the rim lies off where the calibration saw it, and how far', () => {
    // A tray with no marks: its rim's four corners are what is looked for.
    expect(calibration.trayCorners.map((c) => [c.x + c.width / 2, c.y + c.height / 2])).toEqual([
      [RIM.left + 4, RIM.top + 4],
      [DEFAULT_TRAY.width - RIM.right - 4, RIM.top + 4],
      [RIM.left + 4, DEFAULT_TRAY.height - RIM.bottom - 4],
      [DEFAULT_TRAY.width - RIM.right - 4, DEFAULT_TRAY.height - RIM.bottom - 4],
    ]);
    const roll = [die(3, 400, 300), die(5, 900, 500)];
    for (const moved of [{ x: 14, y: 0 }, { x: -20, y: 10 }, { x: 30, y: -24 }, { x: -46, y: 8 }]) {
      const shifted = roll.map((d) => ({ ...d, x: d.x + moved.x, y: d.y + moved.y }));
      const reading = readDiceInImage(decodeFrame(renderTray(shifted, DEFAULT_TRAY, { noiseSeed: 5, floor: rimmedFloor(moved) })), cfg, roll.length);
      expect({ moved, first: reading.issues?.[0]?.code }).toEqual({ moved, first: 'camera_moved' });
      const [, x, y] = /lies about (-?\d+) px across and (-?\d+) px down/.exec(reading.problems[0] ?? '') ?? [];
      expect({ moved, x: Math.abs(Number(x) - moved.x) <= 2, y: Math.abs(Number(y) - moved.y) <= 2 }).toEqual({ moved, x: true, y: true });
    }
    // Not moved: a roll refused for a die on the rim, in the calibration's light or another, is refused for that alone.
    for (const light of [1, 0.75, 1.25]) {
      const frame = decodeFrame(renderTray([...roll, die(6, RIM.left, 400, 0)], DEFAULT_TRAY, { noiseSeed: 6, floor }));
      const lit = frame.convertTo(frame.type, light, 0);
      const codes = readDiceInImage(lit, cfg, 3).issues?.map((i) => i.code) ?? [];
      expect({ light, first: codes[0], moved: codes.includes('camera_moved') }).toEqual({ light, first: 'outside', moved: false });
    }
  });

  it('takes a rim corner moved more than 4 pixels (the region\'s inset) as moved: a refused roll then names the camera', () => {
    const movedBy = (moved: { x: number; y: number }) => {
      const frame = decodeFrame(renderTray([die(3, 400, 300)], DEFAULT_TRAY, { noiseSeed: 7, floor: rimmedFloor(moved) }));
      return calibration.trayCorners.map((corner) => markMovedBy(frame, corner, 4));
    };
    expect(movedBy({ x: 6, y: 0 })).toEqual(Array.from({ length: 4 }, () => ({ x: 6, y: 0 })));
    expect(movedBy({ x: -2, y: 4 })).toEqual([null, null, null, null]);
    // A tray mark is not taken as moved so soon: the reader clears a mark found up to 6 pixels off.
    const frame = decodeFrame(renderTray([die(3, 400, 300)], DEFAULT_TRAY, { noiseSeed: 7, floor: rimmedFloor({ x: 6, y: 0 }) }));
    expect(calibration.trayCorners.map((corner) => markMovedBy(frame, corner))).toEqual([null, null, null, null]);
    // Moved 6 pixels, a roll refused for a die on the rim names the camera first.
    const onRim = decodeFrame(renderTray([die(3, 400, 300), die(6, RIM.left + 6, 400, 0)], DEFAULT_TRAY, { noiseSeed: 7, floor: rimmedFloor({ x: 6, y: 0 }) }));
    expect(readDiceInImage(onRim, cfg, 2).issues?.[0]?.code).toBe('camera_moved');
  });

  it('finds the floor\'s corners only where a rim meets it on both sides', () => {
    const frame = decodeFrame(renderTray([], DEFAULT_TRAY, { noiseSeed: 4, floor }));
    const centres = (tray: Parameters<typeof findTrayCorners>[1]) => findTrayCorners(frame, tray).map((c) => [c.x + c.width / 2, c.y + c.height / 2]);
    expect(centres(null)).toEqual([]);
    // A rim on the left and at the top only: one corner; on the left only: none (a straight side fits all along itself).
    expect(centres({ x: 100, y: 52, width: 1180, height: 668 })).toEqual([[100, 52]]);
    expect(centres({ x: 100, y: 0, width: 1180, height: 720 })).toEqual([]);
    // A corner near the frame's edge keeps the part of its box inside the frame.
    expect(findTrayCorners(frame, { x: 20, y: 10, width: 1200, height: 700 })[0]).toMatchObject({ x: 0, y: 0, width: 52, height: 42 });
  });

  it('loads a calibration file without corners (written before them) with none, and refuses bad ones', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dice-rim-')), 'calibration.json');
    const { trayCorners: _, ...older } = calibration;
    writeFileSync(file, JSON.stringify(older));
    expect(readCalibrationFile(file)).toEqual({ ...older, trayCorners: [] });
    writeFileSync(file, JSON.stringify({ ...older, trayCorners: [{ x: 1, y: 2, width: 64, height: 64, area: 5, cells: [] }] }));
    expect(() => readCalibrationFile(file)).toThrow(/calibration\.json is not a dice-tower calibration \(bad tray corners, or one beyond the 1280x720 frame\)/);
    // A box beyond the frame (a file edited by hand) is refused when loaded, not when a refused roll looks for it.
    const corner = calibration.trayCorners[0] as (typeof calibration.trayCorners)[number];
    writeFileSync(file, JSON.stringify({ ...older, trayCorners: [{ ...corner, x: 1250 }] }));
    expect(() => readCalibrationFile(file)).toThrow(/bad tray corners, or one beyond the 1280x720 frame/);
    writeFileSync(file, JSON.stringify({ ...older, tray: { x: 100, y: 52, width: 1096, height: 700 } }));
    expect(() => readCalibrationFile(file)).toThrow(/bad tray region, or one beyond the 1280x720 frame/);
    // A turned region loads with its turn; one whose turned corners leave the frame, or turned past 45°, is refused.
    const turned = { x: 104, y: 56, width: 1088, height: 616, turn: 1.5 };
    writeFileSync(file, JSON.stringify({ ...older, tray: turned }));
    expect(readCalibrationFile(file)?.tray).toEqual(turned);
    for (const tray of [{ ...turned, turn: 10 }, { ...turned, turn: 50, width: 600, height: 600 }, { ...turned, turn: '1.5' }]) {
      writeFileSync(file, JSON.stringify({ ...older, tray }));
      expect(() => readCalibrationFile(file)).toThrow(/bad tray region, or one beyond the 1280x720 frame/);
    }
    writeFileSync(file, JSON.stringify({ ...older, frame: { width: 0, height: 720 } }));
    expect(() => readCalibrationFile(file)).toThrow(/is not a dice-tower calibration \(bad frame size\)/);
  });
});
