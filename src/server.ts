/**
 * Composition root: wires hardware → vision → games → api and listens.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHandTower, createSimulator, DIE_COLOURS, isCameraDevice, openFolderCamera, openVideoCamera, refusedSettingNotes, refusedSettings, type Camera, type DieColour, type Tower, type VideoCamera } from './hardware/index.js';
import { checkedCamera, checkSettleConfig, DEFAULT_SETTLE_CONFIG, settlingPipeline } from './vision/index.js';
import { calibratedConfig } from './vision/calibrate.js';
import { DEFAULT_TRAY } from './hardware/simulator/index.js';
import { calibratedReader } from './vision/calibrate-steps.js';
import { Table, TableError } from './table.js';
import { openStore, type GameStore } from './storage/index.js';
import { describeRecord, recordHealth, type RecordReport } from './storage/record-check.js';
import { loadExportSigner, type ExportSigner } from './audit/export-signing.js';
import { buildApp } from './api/app.js';
import { TestRolls } from './setup/test-rolls.js';
import { cameraToUse, readCameraChoice } from './setup/camera-choice.js';
import { anglesToUse, readTrayAngles, writeTrayAngles } from './setup/tray-angles.js';
import { readSerialChoice, serialToUse, TowerLink, writeSerialChoice } from './setup/tower-link.js';
import type { FirmataTower } from './hardware/firmata-tower.js';
import type { SetupHardware } from './api/setup-routes.js';
import { createOperatorToken, readOperatorToken, writeOperatorToken } from './api/operator-token.js';
import { errorText } from './error-text.js';
import { createIntegrations, type Integrations } from './integrations/index.js';
import { hostname } from 'node:os';
import { CoachLibrary } from './coach/library.js';
import { COACHES } from './coach/index.js';

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
   * tower mechanism means dice thrown by hand. Absent: the camera chosen on
   * the setup page (camera.json in the data directory), else the simulator.
   */
  readonly camera?: string;
  /** The tower's serial port: null (no tower board), 'auto' (find the Arduino by USB id) or a device path; absent: the one connected on the setup page (serial.json), else none. */
  readonly serial?: string | null;
  /** Tray servo angles (degrees; absent: those set on the setup page, tray.json, else 150 and 30) and timings (ms) of a roll cycle on a real tower. */
  readonly towerTip?: number;
  readonly towerRest?: number;
  readonly towerHoldMs: number;
  readonly towerReturnMs: number;
  /** Tray light level 0-255 on a real tower. */
  readonly light: number;
  /** Data directory: the game store (SQLite) and the camera frames. */
  readonly dataDir: string;
  /** A live camera's reading waits until the tray has been still this long, ms (default 600). */
  readonly stillMs?: number;
  /** ...and reports a jam when it is not still within this time, ms (default 8000). */
  readonly settleTimeoutMs?: number;
  /** ...and then reads this many still frames, which must agree (default 3). */
  readonly agreeFrames?: number;
  /** A camera device's fixed exposure (V4L2: 100 µs steps) and white balance (kelvin); null or absent: the setup page's saved one, else the driver's automatic one. */
  readonly exposure?: number | null;
  readonly whiteBalance?: number | null;
  /**
   * The proxies in front of the server (Fastify's `trustProxy`): addresses,
   * subnets or loopback/linklocal/uniquelocal, comma-separated. Their
   * X-Forwarded-For then names the client, so the rate limits count per real
   * client. Absent: the connection's address counts.
   */
  readonly trustProxy?: string | undefined;
  /** An MQTT broker to publish the events to (mqtt://host:port), and the tower's name in its topics (default: the host name). */
  readonly mqtt?: string | null;
  readonly mqttName?: string;
  /** The coach's tables kept in memory at most, MiB (past it the least recently used are dropped and reloaded from their file). */
  readonly coachMemoryMiB?: number;
  /** Webhook retries: the first pause, ms, doubled each time (default 5 s); tests make it short. */
  readonly webhookRetryMs?: number;
}

/**
 * The hardware the options name: the simulator; a real camera over dice thrown
 * by hand; or a real camera over a tower board on a serial port.
 */
async function hardware(config: ServeConfig & { readonly camera: string; readonly serial: string | null }): Promise<{ tower: Tower; camera: Camera; video?: VideoCamera | null; description: string; close: () => Promise<void>; live?: boolean }> {
  if (config.camera === 'sim') {
    if (config.serial) throw new Error('a tower board (--serial, or the one connected on /setup.html) needs a real camera (--camera 0, /dev/video0...): the simulated camera only sees simulated dice');
    const sim = createSimulator({ seed: config.seed, colours: config.colours, rollMs: config.rollMs });
    return { tower: sim.tower, camera: sim.camera, description: `simulated tower, seed ${config.seed}`, close: async () => {} };
  }
  const source = /^\d+$/.test(config.camera) ? Number(config.camera) : config.camera;
  const isFolder = !isCameraDevice(source) && typeof source === 'string' && statSync(source, { throwIfNoEntry: false })?.isDirectory();
  if (isFolder && (config.exposure != null || config.whiteBalance != null)) throw new Error('--exposure and --white-balance set a camera device; a folder of images has neither');
  const video = isFolder ? null : await openVideoCamera({ source, width: 1280, height: 720, exposure: config.exposure ?? null, whiteBalance: config.whiteBalance ?? null });
  for (const warning of video ? refusedSettings(config, video) : []) process.stderr.write(`dice-tower: warning: ${warning}\n`);
  const device = video ?? openFolderCamera(source as string);
  // A live stream (not a folder of stills) is read only once the dice have settled.
  const live = !isFolder;
  // A camera device's frames always differ a little (sensor noise): the same picture twice means it froze. A replayed file may repeat one.
  const camera = checkedCamera(device, { refuseRepeats: isCameraDevice(source) });
  // Dice thrown by hand until a tower board is connected (TowerLink, below).
  return { tower: createHandTower(), camera, video, description: `camera ${config.camera}`, close: async () => video?.close(), live };
}

/** The board on `port` driven as the options and the saved angles say, connected and lit (johnny-five is loaded only then: it is slow to load). */
function boardOpener(config: ServeConfig): (port: string) => Promise<FirmataTower> {
  return async (port) => {
    const { FirmataTower } = await import('./hardware/firmata-tower.js');
    const { serialTransport } = await import('./hardware/serial-ports.js');
    // Read at each connect: the angles may have been set on the page since the start.
    const angles = anglesToUse(config, readTrayAngles(config.dataDir));
    const tower = new FirmataTower({ openTransport: serialTransport({ path: port }), ...angles, holdMs: config.towerHoldMs, returnTimeoutMs: config.towerReturnMs });
    try {
      await tower.connect();
      await tower.setLight(config.light);
    } catch (err) {
      await tower.close();
      throw err;
    }
    return tower;
  };
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

export async function serve(options: ServeConfig) {
  // The camera and its settings, the tray's angles, the board's port: the options, else those saved from the setup page (a bad
  // camera.json, tray.json or serial.json stops the start, naming it).
  const chosen = cameraToUse(options, readCameraChoice(options.dataDir));
  readTrayAngles(options.dataDir);
  const serial = serialToUse(options.serial, readSerialChoice(options.dataDir));
  const config = { ...options, camera: chosen.source, exposure: chosen.exposure, whiteBalance: chosen.whiteBalance, serial };
  // Settings are checked before any hardware is opened.
  const settle = {
    ...DEFAULT_SETTLE_CONFIG,
    stillMs: config.stillMs ?? DEFAULT_SETTLE_CONFIG.stillMs,
    timeoutMs: config.settleTimeoutMs ?? DEFAULT_SETTLE_CONFIG.timeoutMs,
    agreeFrames: config.agreeFrames ?? DEFAULT_SETTLE_CONFIG.agreeFrames,
  };
  checkSettleConfig(settle);
  // An unusable token (empty, short, unreadable) stops the start here, before any hardware is opened.
  const knownToken = readOperatorToken(config.dataDir);
  const { tower, camera: rawCamera, video, description, close, live } = await hardware(config);
  // Calibration (dice-tower calibrate, the setup page) when there is one, followed as it is made again; the simulator's own
  // die size otherwise.
  let baseReader;
  try {
    baseReader = calibratedReader(config.dataDir, (calibration) => {
      const visionConfig = calibratedConfig(calibration);
      return calibration === null && config.camera === 'sim' ? { ...visionConfig, dieSize: DEFAULT_TRAY.dieSize } : visionConfig;
    });
  } catch (err) {
    await close();
    throw err;
  }
  const { camera, reader } = live ? settlingPipeline(rawCamera, baseReader, settle) : { camera: rawCamera, reader: baseReader };
  let store: GameStore;
  let exportSigner: ExportSigner;
  try {
    store = openStore(config.dataDir);
  } catch (err) {
    await close();
    throw err;
  }
  try {
    // The key exports are signed with: made at the first start, kept 0600 beside the log.
    exportSigner = loadExportSigner(config.dataDir);
  } catch (err) {
    store.close();
    await close();
    throw err;
  }
  // The record check (chain, frames, head file, and the findings kept in record-problem.json) before anything is
  // replayed or added. A problem is not hidden: stderr, /api/health and every page's banner say it, the games it
  // touches are marked and never exported, and it is kept (record-problem.json) so that no later write washes it
  // out: every start reports it until the operator removes that file. A finding that cannot be kept stops the start.
  let record: RecordReport;
  try {
    record = store.checkRecord();
  } catch (err) {
    store.close();
    await close();
    throw err;
  }
  if (!record.ok) process.stderr.write(`dice-tower: warning: the record in ${config.dataDir} was changed outside dice-tower: ${describeRecord(record)}\n`);
  const coach = new CoachLibrary({
    coaches: COACHES,
    cacheDir: join(config.dataDir, 'coach'),
    ...(config.coachMemoryMiB ? { memoryBudget: config.coachMemoryMiB * 1024 * 1024 } : {}),
    onProgress: coachProgressLine(),
    onWarning: (message) => process.stderr.write(`dice-tower: warning: ${message}\n`),
  });
  const table = new Table({ tower, camera, reader, botSeed: config.seed, store, coach });
  table.markUnverified(record.unverifiedGames);
  // One session per server run: the history groups games by it.
  store.startSession(Date.now(), PACKAGE_VERSION);
  for (const problem of table.restoreProblems) process.stderr.write(`dice-tower: warning: ${problem}\n`);
  // None yet: a new one, kept (readable by its owner only) in the data directory the store has made.
  const token = knownToken ?? createOperatorToken(config.dataDir);
  const saveOperatorToken = (next: string) => {
    if (token.source === 'environment') throw new TableError('auth/token_from_env', 'The operator token comes from DICE_TOWER_TOKEN; change it there and restart.', 409);
    try {
      writeOperatorToken(token.file, next);
    } catch (err) {
      throw new TableError('auth/token_not_saved', `The new token could not be kept (${errorText(err)}); the old one still works.`, 503);
    }
  };
  // This tower's accuracy tally (accuracy.json): a file that is not one stops the start, naming it.
  let testRolls: TestRolls;
  try {
    testRolls = new TestRolls(table, { dataDir: config.dataDir });
  } catch (err) {
    table.close();
    store.close();
    await close();
    throw err;
  }
  // The tower's board, connected now and on the setup page: --serial must connect (or the start stops); a port saved on the
  // page that does not answer is said and the server starts without it.
  const link = new TowerLink(table, tower, {
    openBoard: boardOpener(options),
    light: config.light,
    saveAngles: (angles) => writeTrayAngles(config.dataDir, angles),
    savePort: (port) => writeSerialChoice(config.dataDir, { port }),
  });
  if (serial !== null) {
    try {
      await link.connect(serial, false);
    } catch (err) {
      if (options.serial === undefined) {
        process.stderr.write(`dice-tower: warning: the board saved on /setup.html was not connected: ${errorText(err)}\n`);
      } else {
        table.close();
        store.close();
        await close();
        throw err;
      }
    }
  }
  // The event stream (caught up with the game log first), API keys, webhooks and MQTT: src/integrations.
  let integrations: Integrations;
  try {
    const retry = config.webhookRetryMs;
    integrations = createIntegrations({
      table, dbPath: store.dbPath, version: PACKAGE_VERSION,
      mqtt: config.mqtt ? { url: config.mqtt, tower: config.mqttName ?? hostname() } : undefined,
      ...(retry === undefined ? {} : { webhooks: { backoff: (n: number) => Math.min(retry * 2 ** (n - 1), 600_000) } }),
    });
  } catch (err) {
    table.close();
    store.close();
    await close();
    throw err;
  }
  // The setup page's view of the hardware: the camera as opened (its preview), the board as connected now.
  const setupHardware: SetupHardware = {
    camera: rawCamera,
    cameraSource: config.camera,
    fixed: { exposure: config.exposure, whiteBalance: config.whiteBalance },
    refused: video ? refusedSettingNotes(config, video) : [],
    adjust: video ? (asked) => video.adjust(asked) : null,
    dataDir: config.dataDir,
    link,
  };
  const app = buildApp(
    { table, version: PACKAGE_VERSION, operatorToken: token.value, rateLimitPerMinute: 600, authFailures: {}, saveOperatorToken, record: recordHealth(record), exportSigner, integrations, testRolls, setupHardware },
    { logger: { level: config.logLevel }, ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }) },
  );
  // Hooks must be added before listening (Fastify refuses them after).
  app.addHook('onClose', async () => {
    coach.close();
    await integrations.close();
    await link.close();
    await close();
    store.close();
  });
  await app.listen({ port: config.port, host: config.host });
  // Ready to stop cleanly before anyone is told the server is up.
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const { port } = app.server.address() as { port: number };
  // A plain line for the person at the console; the JSON log is for machines.
  const restored = table.list().length;
  const board = link.serial();
  const rolledBy = board === null ? (config.camera === 'sim' ? '' : ', dice thrown by hand') : `, tower on ${board === 'auto' ? 'the Arduino found by USB id' : board}`;
  process.stdout.write(
    `dice-tower ${PACKAGE_VERSION}: scoreboard on http://${shown}:${port}/ (${description}${rolledBy}${baseReader.calibration() ? ', calibrated' : ''}; ${restored} game${restored === 1 ? '' : 's'} restored from ${config.dataDir}; Ctrl+C stops)\n`,
  );
  // Shown once, when it is made: the operator opens this link on the screen that runs the games.
  if (token.created) {
    process.stdout.write(`Operator link (keep it private; the token is in ${token.file}): http://${shown}:${port}/?token=${token.value}\n`);
  }

  return app;
}

/** A line on stderr as a solve starts, every tenth of the way, and at its end (solves of a minute or more are worth following). */
function coachProgressLine(): (game: string, done: number, total: number) => void {
  const shown = new Map<string, number>();
  return (game, done, total) => {
    const tenth = total > 0 ? Math.floor((10 * done) / total) : 0;
    if (shown.get(game) === tenth) return;
    shown.set(game, tenth);
    process.stderr.write(`dice-tower: coach: solving ${game}, ${tenth * 10} %\n`);
  };
}
