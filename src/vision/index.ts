export * from './types.js';
export { DEFAULT_PALETTE, nearestColour, rgbToLab, type Lab } from './palette.js';
export { createDiceReader, decodeFrame, readDiceInImage } from './read-dice.js';
export { DEFAULT_VISION_CONFIG, type VisionConfig } from './config.js';
export { checkedCamera, meanBrightness, type CameraCheckOptions } from './camera-checks.js';
export { awaitStill, BAD_FRAMES_SKIPPED, checkSettleConfig, DEFAULT_SETTLE_CONFIG, readAgreeing, settlingPipeline, type SettleConfig } from './settle.js';
export { DEFAULT_SCENE_CONFIG, judgeScene, type Region, type SceneConfig, type TrayRegion } from './validity.js';
export { DEFAULT_SIZE_CONFIG, sizeClasses, type SizeConfig } from './size.js';
