export * from './types.js';
export { SeededRandom } from './random.js';
export { createSimulator, type Simulator, type SimulatorOptions } from './simulator/index.js';
