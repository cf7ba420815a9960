import { describe, expect, it } from 'vitest';
import { DEFAULT_VISION_CONFIG, readDiceInImage } from '../../src/vision/read-dice.js';
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

  it('tells no size class for the die it found (it was given the median die size)', () => {
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

describe('a window of an object on bare floor', () => {
  it("reads no 1 on a speck of dirt on the floor inside an object's box (the windows must be mostly the object's)", () => {
    const { image } = findingPhoto('nell-byler-IMG_20191208_111316');
    const speck: Box = [170, 420, 200, 455];
    expect(valuesIn(image, speck, DEFAULT_VISION_CONFIG)).toEqual([]);
  });
});
