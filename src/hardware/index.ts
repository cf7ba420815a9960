export * from './types.js';
export { SeededRandom } from './random.js';
export { createSimulator, type Simulator, type SimulatorOptions } from './simulator/index.js';
export { createHandTower } from './hand-tower.js';
export { isCameraDevice, openFolderCamera, openVideoCamera, refusedSettingNotes, refusedSettings, type CameraSettings, type FixedSettings, type VideoCamera, type VideoCameraOptions } from './camera-sources.js';
export type { HardwareTower, TowerEvents, TowerEventName } from './tower.js';
