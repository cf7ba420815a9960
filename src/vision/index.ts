export * from './types.js';
export { DEFAULT_PALETTE, nearestColour, rgbToLab, type Lab } from './palette.js';
export { createDiceReader, decodeFrame, readDiceInImage, DEFAULT_VISION_CONFIG, type VisionConfig } from './read-dice.js';
export { checkedCamera, meanBrightness, type CameraCheckOptions } from './camera-checks.js';
