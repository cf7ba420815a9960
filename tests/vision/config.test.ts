import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVisionConfig, DEFAULT_VISION_CONFIG, type VisionConfig } from '../../src/vision/config.js';
import { createDiceReader } from '../../src/vision/read-dice.js';

describe('vision settings', () => {
  it('accepts the defaults', () => {
    expect(() => checkVisionConfig(DEFAULT_VISION_CONFIG)).not.toThrow();
  });

  it.each([
    ['floorScale', { floorScale: 0 }, 'floorScale must be a whole number of at least 1, got 0'],
    ['floorKernel', { floorKernel: 4 }, 'floorKernel must be an odd whole number of at least 3, got 4'],
    ['dieSizeMin', { dieSizeMin: 300 }, 'dieSizeMin (300) must be above 0 and below dieSizeMax (200)'],
    ['shadowDepth', { shadowDepth: -5 }, 'shadowDepth and beyondShadowWeight must be 0 or more, got -5 and 1'],
    ['beyondShadowWeight', { beyondShadowWeight: Number.NaN }, 'shadowDepth and beyondShadowWeight must be 0 or more, got 30 and NaN'],
    ['facePatch', { facePatch: 8 }, 'facePatch must be a whole number of pixels, at least 16, got 8'],
    ['faceInset', { faceInset: 0.5 }, 'faceInset must be from 0 to below 0.5'],
    ['pipThresholds', { pipThresholds: [] }, 'pipThresholds must be one or more numbers above 0, got []'],
    ['splitDepths', { splitDepths: [0.5, 1.2] }, 'splitDepths must be shares between 0 and 1, got [0.5, 1.2]'],
    ['searchLarger', { searchLarger: [1.2, 0.8] }, 'searchLarger must be multiples of the median die above 1 and at most 2, got [1.2, 0.8]'],
    ['searchLarger', { searchLarger: [1.2, 2.5] }, 'searchLarger must be multiples of the median die above 1 and at most 2, got [1.2, 2.5]'],
    ['darkPipContrast', { darkPipContrast: -1 }, 'darkPipContrast must be from 0 (off) to 255 grey levels, got -1'],
  ] as [string, Partial<VisionConfig>, string][])('refuses a bad %s, naming it', (_, bad, message) => {
    expect(() => checkVisionConfig({ ...DEFAULT_VISION_CONFIG, ...bad })).toThrow(expect.objectContaining({ code: 'vision/bad_config', message: expect.stringContaining(message) }));
  });

  it('a reader fails when it is made, not at the first roll: a bad setting, a missing model', () => {
    expect(() => createDiceReader({ ...DEFAULT_VISION_CONFIG, floorKernel: 4 })).toThrow(expect.objectContaining({ code: 'vision/bad_config' }));
    const empty = mkdtempSync(join(tmpdir(), 'no-model-'));
    expect(() => createDiceReader({ ...DEFAULT_VISION_CONFIG, classifierModel: empty })).toThrow(expect.objectContaining({ code: 'vision/no_model' }));
    expect(() => createDiceReader({ ...DEFAULT_VISION_CONFIG, finderModel: join(empty, 'die-finder.onnx') })).toThrow(expect.objectContaining({ code: 'vision/no_model', message: expect.stringContaining('die finder') }));
    // Without the classifier and the finder no model is needed.
    expect(() => createDiceReader({ ...DEFAULT_VISION_CONFIG, classifierModel: empty, useClassifier: false, finderModel: null })).not.toThrow();
  });
});
