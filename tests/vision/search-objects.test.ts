import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/hardware/index.js';
import cv from '../../src/hardware/opencv.js';
import { DEFAULT_TRAY, LAS_VEGAS_COLOURS, lasVegasHopper, renderTray, throwDice, throwHopper } from '../../src/hardware/simulator/index.js';
import { findDieBlobs, SEARCH_MAX_READS, SEARCH_MAX_WINDOWS, searchObjects } from '../../src/vision/blobs.js';
import { DEFAULT_VISION_CONFIG } from '../../src/vision/config.js';
import { decodeFrame, readDiceInImage } from '../../src/vision/read-dice.js';
import { classifierFor } from '../../src/vision/value.js';
import type { DieReading } from '../../src/vision/types.js';
import { findingPhoto, inBox, readValues, valuesIn, type Box } from './finding-photos.js';

describe('the objects searched for dice no blob gave', () => {
  // A crowd of dice pressed together; not every die is read (a die-finding fixture), so the found die and the absence of wrong values are checked.
  const { image, labelled } = findingPhoto('nell-byler-IMG_20191209_095447');
  const hiddenTwo: Box = [226, 365, 258, 397];
  const darkSixes: Box[] = [
    [249, 340, 291, 381],
    [247, 381, 295, 429],
  ];

  it('finds the 2 pressed between two dark 6s, which is missed without the search', () => {
    expect(valuesIn(image, hiddenTwo, DEFAULT_VISION_CONFIG)).toEqual([2]);
    expect(valuesIn(image, hiddenTwo, { ...DEFAULT_VISION_CONFIG, searchObjects: false })).toEqual([]);
  });

  it("reads the two 6s, larger than the frame's median die, only in windows larger than it (searchLarger)", () => {
    // In a window of the median die's size each 6 shows part of its face (a clear 3), which the confirmation refuses. (A sliver
    // of the lower 6 cut off as a blob of its own stays unreadable: the roll is still refused, as the dice are pressed together.)
    for (const six of darkSixes) {
      expect(valuesIn(image, six, DEFAULT_VISION_CONFIG)).toContain(6);
      expect(valuesIn(image, six, { ...DEFAULT_VISION_CONFIG, searchLarger: [] })).not.toContain(6);
    }
  });

  it("keeps each die it found in a box centred on its pips (read again there), not in the window's box", () => {
    // The window lies on the search's grid, a few pixels off the die: a larger one, kept as the die's box, would reach its neighbours.
    const boxCentre = (box: readonly { x: number; y: number }[]) => ({ x: box.reduce((s, p) => s + p.x, 0) / box.length, y: box.reduce((s, p) => s + p.y, 0) / box.length });
    const found = readDiceInImage(image, DEFAULT_VISION_CONFIG).dice.filter((d) => [hiddenTwo, ...darkSixes].some((box) => inBox(box, d.center)) && d.value !== null);
    expect(found.map((d) => d.value).sort()).toEqual([2, 6, 6]);
    for (const die of found) {
      const c = boxCentre(die.box);
      expect(Math.hypot(c.x - die.center.x, c.y - die.center.y)).toBeLessThan(1);
    }
  });

  it('tells no size class for the die it found (its size is its window\'s, not measured)', () => {
    const found = readDiceInImage(image, DEFAULT_VISION_CONFIG).dice.filter((d) => inBox(hiddenTwo, d.center));
    expect(found.map((d) => d.sizeClass)).toEqual([null]);
  });

  it("reads no 3 on a dark 6's column (three pips on a diagonal of a window square to the frame), nor any die with a value its label does not have", () => {
    const { read, wrong } = readValues(image, labelled);
    expect(wrong).toEqual([]);
    expect(read.filter((d) => darkSixes.some((box) => inBox(box, d.center)) && d.value !== 6)).toEqual([]);
    expect(read.length).toBeGreaterThanOrEqual(9);
  });
});

describe('a die the search reads only in a window turned to its edges', () => {
  const { image, labelled } = findingPhoto('nell-byler-IMG_20191208_111304');
  const turnedFour: Box = [284, 244, 323, 283];

  it('finds the 4 pressed among other dice, which stays missed without the turned window (rereadTurned)', () => {
    expect(valuesIn(image, turnedFour, DEFAULT_VISION_CONFIG)).toEqual([4]);
    expect(valuesIn(image, turnedFour, { ...DEFAULT_VISION_CONFIG, rereadTurned: false })).toEqual([]);
  });

  it('adds no wrong reading: the same dice are read wrongly with the search off', () => {
    expect(readValues(image, labelled).wrong).toEqual(readValues(image, labelled, { ...DEFAULT_VISION_CONFIG, searchObjects: false }).wrong);
  });
});

describe('a die left unreadable in its blob that the search reads', () => {
  // The 1 seen at a slant with a side face below it (read by the squared re-read, which is off here so that the search reads it).
  const { image } = findingPhoto('nell-byler-IMG_20191208_111548');
  const slantedOne: Box = [219, 126, 260, 167];
  const unsquared = { ...DEFAULT_VISION_CONFIG, rereadSquared: false };

  it('takes the value found, instead of being read twice (once unreadable)', () => {
    expect(valuesIn(image, slantedOne, unsquared)).toEqual([1]);
    expect(valuesIn(image, slantedOne, { ...unsquared, searchObjects: false })).toEqual([null]);
  });

  it('keeps its long box, so that the roll is still refused for a die seen cocked', () => {
    const near = (reading: ReturnType<typeof readDiceInImage>) => (reading.issues ?? []).filter((issue) => issue.at && Math.hypot(issue.at.x - 240, issue.at.y - 150) < 30).map((issue) => issue.code);
    expect(near(readDiceInImage(image, unsquared))).toContain('cocked');
    expect(near(readDiceInImage(image, { ...unsquared, searchObjects: false }))).toContain('cocked');
  });
});

describe('a die a window may see only part of', () => {
  // Session 23's model read this 2 as 2 in some windows and, in one that sees one of its pips alone, as 1, so it was left
  // unreadable; the model retrained in session 24 reads it as 2 in every window. The rule that gives no die where windows
  // read different values is tested apart from any model in search-finds.test.ts.
  const { image, labelled } = findingPhoto('nell-byler-IMG_20191208_111446');
  const twoSeenInPart: Box = [515, 192, 562, 238];

  it('is never read as 1: it is read as its value, or left unreadable', () => {
    const values = valuesIn(image, twoSeenInPart, DEFAULT_VISION_CONFIG);
    expect(values).toHaveLength(1);
    expect([2, null]).toContain(values[0]);
  });

  it('and no die of the photo is read with a value its label does not have', () => {
    const { read, wrong } = readValues(image, labelled);
    expect(wrong).toEqual([]);
    expect(read.length).toBeGreaterThanOrEqual(14);
  });
});

describe('a window of an object on bare floor', () => {
  it("reads no 1 on a speck of dirt on the floor inside an object's box (a window must be mostly foreground)", () => {
    const { image } = findingPhoto('nell-byler-IMG_20191208_111316');
    const speck: Box = [170, 420, 200, 455];
    expect(valuesIn(image, speck, DEFAULT_VISION_CONFIG)).toEqual([]);
  });
});

describe('an object smaller than a die both ways', () => {
  // A cream 2 whose mask holds only the bright part of its face, and a black 3 against the dark wall: each an object of 18-19 px
  // among dice of about 30, which cannot fill 60 % of a window.
  const cream = findingPhoto('nell-byler-IMG_20191208_111718');
  const creamTwo: Box = [193, 350, 224, 382];
  const black = findingPhoto('nell-byler-IMG_20191208_111316');
  const blackThree: Box = [419, 121, 448, 151];

  it('is searched in one window, at its centre', () => {
    expect(findDieBlobs(cream.image, DEFAULT_VISION_CONFIG).searchAt.filter((p) => inBox(creamTwo, p))).toHaveLength(1);
    expect(findDieBlobs(black.image, DEFAULT_VISION_CONFIG).searchAt.filter((p) => inBox(blackThree, p))).toHaveLength(1);
  });

  it('is not searched when a side of its box is shorter than the smallest die (a thin piece of shadow or cable); a window on one that is no die reads nothing', () => {
    const tray = { ...DEFAULT_TRAY, width: 640, height: 640, dieSize: 40 };
    const frame = decodeFrame(renderTray(throwDice(new SeededRandom(3), 5, ['red', 'blue', 'green', 'red', 'blue'], tray), tray, { noiseSeed: 1 }));
    // On bare floor: a dark bar 31×7 px, and a dark L of two such arms 25 px long (a box of 24×24, among dice of about 44).
    const dark = new cv.Vec3(40, 40, 40);
    frame.drawRectangle(new cv.Point2(100, 560), new cv.Point2(130, 566), dark, -1);
    frame.drawRectangle(new cv.Point2(80, 150), new cv.Point2(104, 156), dark, -1);
    frame.drawRectangle(new cv.Point2(80, 150), new cv.Point2(86, 174), dark, -1);
    const { objects, searchAt } = findDieBlobs(frame, DEFAULT_VISION_CONFIG);
    expect(objects).toHaveLength(2);
    const near = (x: number, y: number) => searchAt.filter((p) => Math.hypot(p.x - x, p.y - y) < 20).length;
    expect([near(115, 563), near(92, 162), searchAt.length]).toEqual([0, 1, 1]);
    expect(readDiceInImage(frame).dice.map((d) => d.value)).toEqual([2, 4, 3, 3, 2]);
  });

  it('reads the die there, which is missed with the search off', () => {
    expect(valuesIn(cream.image, creamTwo, DEFAULT_VISION_CONFIG)).toEqual([2]);
    expect(valuesIn(cream.image, creamTwo, { ...DEFAULT_VISION_CONFIG, searchObjects: false })).toEqual([]);
    expect(valuesIn(black.image, blackThree, DEFAULT_VISION_CONFIG)).toEqual([3]);
    expect(valuesIn(black.image, blackThree, { ...DEFAULT_VISION_CONFIG, searchObjects: false })).toEqual([]);
  });
});

describe('a patterned object (a sheet of dots) in the tray', () => {
  const tray = { ...DEFAULT_TRAY, width: 640, height: 640, dieSize: 40 };
  const frame = decodeFrame(renderTray(throwDice(new SeededRandom(3), 5, ['red', 'blue', 'green', 'red', 'blue'], tray), tray, { noiseSeed: 1 }));
  // A white sheet of 300×280 pixels dotted every 9 pixels, lying over the tray's middle: 577 places for a window without the cap.
  frame.drawRectangle(new cv.Point2(170, 180), new cv.Point2(470, 460), new cv.Vec3(235, 235, 235), -1);
  for (let y = 185; y < 460; y += 9) for (let x = 175; x < 470; x += 9) frame.drawCircle(new cv.Point2(x, y), 2, new cv.Vec3(30, 30, 30), -1);

  it('is searched in at most SEARCH_MAX_WINDOWS windows, and the reading still comes back', () => {
    const { searchAt, objects } = findDieBlobs(frame, DEFAULT_VISION_CONFIG);
    expect(objects.length).toBeGreaterThan(0);
    expect(searchAt).toHaveLength(SEARCH_MAX_WINDOWS);
    expect(readDiceInImage(frame, DEFAULT_VISION_CONFIG).valid).toBe(false);
  });

  it('is looked at again in larger windows at no more than SEARCH_MAX_READS places a size, however many windows show a face', () => {
    // A classifier that takes every window for a 3: every window of the sheet shows a face, few are confirmed by their pips.
    const plainBatches: number[] = [];
    const everyWindowAThree = {
      classify(inputs: readonly cv.Mat[], symmetric?: boolean) {
        if (!symmetric) plainBatches.push(inputs.length);
        return inputs.map(() => ({ value: 3, probability: 0.9 }));
      },
    };
    const cfg = { ...DEFAULT_VISION_CONFIG, searchLarger: [1.2, 1.4] };
    const { searchAt, typical } = findDieBlobs(frame, cfg);
    searchObjects(frame, searchAt, typical, [], everyWindowAThree, cfg);
    expect(plainBatches).toEqual([SEARCH_MAX_WINDOWS, SEARCH_MAX_READS, SEARCH_MAX_READS]);
  });

  it('is not searched when it lies beyond a calibrated tray region: the reader cuts its mask there (nothing beyond is part of the roll)', () => {
    expect(findDieBlobs(frame, { ...DEFAULT_VISION_CONFIG, tray: { x: 0, y: 0, width: 160, height: 160 } }).searchAt).toEqual([]);
  });
});

describe('a square cluster of dice taken for one large die', () => {
  const { image, labelled } = findingPhoto('nell-byler-IMG_20191208_112404');
  const pressed: Box[] = [
    [250, 216, 284, 251],
    [266, 256, 299, 289],
    [307, 241, 334, 268],
  ];
  const cluster: Box = [235, 209, 341, 302];

  it('is searched: the 3, 4 and 4 pressed together are read, and missed with the search off', () => {
    expect(pressed.map((box) => valuesIn(image, box, DEFAULT_VISION_CONFIG))).toEqual([[3], [4], [4]]);
    expect(pressed.map((box) => valuesIn(image, box, { ...DEFAULT_VISION_CONFIG, searchObjects: false }).filter((v) => v !== null))).toEqual([[], [], []]);
  });

  it('is replaced by the dice found in it: no unreadable die is left there, and it counts as an object', () => {
    expect(valuesIn(image, cluster, DEFAULT_VISION_CONFIG)).not.toContain(null);
    expect(valuesIn(image, cluster, { ...DEFAULT_VISION_CONFIG, searchObjects: false })).toContain(null);
    const reading = readDiceInImage(image, DEFAULT_VISION_CONFIG);
    expect(reading.valid).toBe(false);
    expect((reading.issues ?? []).some((issue) => issue.at !== undefined && inBox(cluster, issue.at))).toBe(true);
  });

  it('adds no die with a value its label does not have', () => {
    const { read, wrong } = readValues(image, labelled);
    expect(wrong).toEqual([]);
    expect(read.length).toBeGreaterThanOrEqual(22);
  });

  it('is not searched when it lies beyond a calibrated tray region (the mask is cut there)', () => {
    const inCluster = (cfg: typeof DEFAULT_VISION_CONFIG) => findDieBlobs(image, cfg).searchAt.filter((p) => inBox(cluster, p));
    expect(inCluster(DEFAULT_VISION_CONFIG).length).toBeGreaterThan(0);
    expect(inCluster({ ...DEFAULT_VISION_CONFIG, tray: { x: 0, y: 0, width: 160, height: 160 } })).toEqual([]);
  });
});

describe('a die the search reads inside the box of a die read', () => {
  // A white 1 rendered alone, searched in one window: found; with a die read whose box takes it in (its centre more than 0.7 of a die away, so not "near"), not.
  const tray = { width: 640, height: 480, dieSize: 64 };
  const one = { value: 1, colour: 'white' as const, x: 320, y: 240, size: 64, angle: 0 };
  const frame = decodeFrame(renderTray([one, { value: 3, colour: 'red', x: 120, y: 120, size: 64, angle: 20 }, { value: 5, colour: 'blue', x: 520, y: 380, size: 64, angle: 40 }], tray, { noiseSeed: 2 }));
  const classifier = classifierFor(DEFAULT_VISION_CONFIG);
  const search = (dice: DieReading[]) => {
    if (classifier === null) throw new Error('the shipped face classifier did not load');
    return searchObjects(frame, [{ x: one.x, y: one.y }], 64, dice, classifier, DEFAULT_VISION_CONFIG).map((f) => f.value);
  };
  const readDie = (value: number | null): DieReading => {
    const c = { x: one.x + 60, y: one.y + 60 };
    const half = 110;
    return { value, colour: 'white', center: c, size: 2 * half, confidence: 1, box: [{ x: c.x - half, y: c.y - half }, { x: c.x + half, y: c.y - half }, { x: c.x + half, y: c.y + half }, { x: c.x - half, y: c.y + half }] };
  };

  it('is found on its own', () => {
    expect(search([])).toEqual([1]);
  });

  it('is part of that die (one pip of a big face reads as a 1): not a die of its own', () => {
    expect(search([readDie(4)])).toEqual([]);
  });

  it('inside an unreadable die it is still found (it may be that die, read in a poor box)', () => {
    expect(search([readDie(null)])).toEqual([1]);
  });
});

describe('Las Vegas big dice', () => {
  // 1.4 times a normal die, each read as one die: not searched as clusters (every window would lie near a big die once it is read, and be read in vain).
  it('give no search window in the first 20 simulated Las Vegas throws', () => {
    const windows = [];
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new SeededRandom(seed);
      const truth = throwHopper(rng, lasVegasHopper(rng, LAS_VEGAS_COLOURS[seed % LAS_VEGAS_COLOURS.length] ?? 'red'));
      windows.push(findDieBlobs(decodeFrame(renderTray(truth, DEFAULT_TRAY, { noiseSeed: seed * 31 })), DEFAULT_VISION_CONFIG).searchAt.length);
    }
    expect(windows).toEqual(Array(20).fill(0));
  });
});
