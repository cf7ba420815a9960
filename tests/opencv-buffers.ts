import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import cv from '../src/hardware/opencv.js';

// V8's collector on demand, to free what earlier code left to it before counting.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * OpenCV buffers allocated and not freed while `work` ran, after freeing what
 * earlier code left to the collector. (Counted, not summed in bytes:
 * opencv4nodejs's byte total drifts for buffers it frees at another size than
 * it allocated them.) A buffer left to V8's collector counts as external
 * memory until a full collection finds its handle: code that leaves some
 * behind on every frame sets off full collections, and their pauses, every
 * few frames.
 */
export async function buffersHeldAfter(work: () => unknown): Promise<number> {
  collectGarbage();
  const before = cv.getMemMetrics();
  await work();
  const after = cv.getMemMetrics();
  return after.NumAllocations - after.NumDeAllocations - (before.NumAllocations - before.NumDeAllocations);
}
