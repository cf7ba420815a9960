/**
 * Composition root: wires hardware → vision → games → api and listens.
 */
import { readFileSync } from 'node:fs';
import { statSync } from 'node:fs';
import { createHandTower, createSimulator, DIE_COLOURS, openFolderCamera, openVideoCamera, type Camera, type DieColour, type Tower } from './hardware/index.js';
import { createDiceReader } from './vision/index.js';
import { Table } from './table.js';
import { buildApp } from './api/app.js';

export interface ServeConfig {
  readonly port: number;
  readonly host: string;
  /** Seed of the simulated tower; a fixed seed replays the same throws. */
  readonly seed: number;
  /** Colours of the simulated dice, used in turn. */
  readonly colours: readonly DieColour[];
  /** How long a simulated roll cycle takes, ms (a real tower takes a few seconds). */
  readonly rollMs: number;
  readonly logLevel: string;
  /**
   * The camera: 'sim' (the simulated tower's camera), a device index or
   * /dev/videoN, a video file or a folder of images. A real camera with no
   * tower mechanism means dice thrown by hand.
   */
  readonly camera: string;
}

/** The hardware the options name: the simulator, or a real camera over dice thrown by hand. */
function hardware(config: ServeConfig): { tower: Tower; camera: Camera; description: string } {
  if (config.camera === 'sim') {
    const sim = createSimulator({ seed: config.seed, colours: config.colours, rollMs: config.rollMs });
    return { tower: sim.tower, camera: sim.camera, description: `simulated tower, seed ${config.seed}` };
  }
  const source = /^\d+$/.test(config.camera) ? Number(config.camera) : config.camera;
  const isFolder = typeof source === 'string' && !source.startsWith('/dev/') && statSync(source, { throwIfNoEntry: false })?.isDirectory();
  const camera = isFolder ? openFolderCamera(source) : openVideoCamera({ source, width: 1280, height: 720 });
  return { tower: createHandTower(), camera, description: `camera ${config.camera}, dice thrown by hand` };
}

export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export function parseColours(text: string): DieColour[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !(DIE_COLOURS as readonly string[]).includes(n));
  if (names.length === 0 || bad.length > 0) {
    throw new Error(`unknown die colour ${bad.map((b) => `'${b}'`).join(', ') || "''"}: choose from ${DIE_COLOURS.join(', ')}`);
  }
  return names as DieColour[];
}

export async function serve(config: ServeConfig) {
  const { tower, camera, description } = hardware(config);
  const table = new Table({ tower, camera, reader: createDiceReader(), botSeed: config.seed });
  const app = buildApp({ table, version: PACKAGE_VERSION }, { logger: { level: config.logLevel } });
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const { port } = app.server.address() as { port: number };
  // A plain line for the person at the console; the JSON log is for machines.
  process.stdout.write(`dice-tower ${PACKAGE_VERSION}: scoreboard on http://${shown}:${port}/ (${description}; Ctrl+C stops)\n`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return app;
}
