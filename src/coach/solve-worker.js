// Worker thread entry for a long solve: the sources are TypeScript, run through
// tsx here as in the main thread (bin/dice-tower.js), then the job takes over.
import { register } from 'tsx/esm/api';

register();
await import('./solve-job.ts');
