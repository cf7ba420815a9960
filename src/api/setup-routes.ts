/**
 * The setup page's routes (/setup.html, operator only): test rolls judged by
 * the operator and this tower's accuracy tally (src/setup/test-rolls.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_TEST_DICE, type TestRolls } from '../setup/test-rolls.js';
import { firmwareNote, listCameras, listSerialPorts, type CameraDevice } from '../setup/devices.js';
import type { PortInfoLike } from '../hardware/serial-ports.js';
import { TableError, type Table } from '../table.js';
import { errorText } from '../error-text.js';
import { FlashJob, type Flasher } from '../setup/flash-job.js';
import { PORT_PATTERN, type BoardLink } from '../setup/tower-link.js';
import { trayAnglesProblem, type TrayAngles } from '../setup/tray-angles.js';
import type { RouteAccess } from './app.js';
import { AccuracyTallySchema, DieViewSchema } from './schemas.js';
import { dieView } from './views.js';
import { note, NoteSchema } from '../note.js';
import { registerSetupCameraRoutes, type SetupCamera } from './setup-camera-routes.js';

export type Guard = { onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void>; config: { access: RouteAccess } };

const errors = { 400: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };


const TestRollReply = {
  type: 'object',
  required: ['id', 'count', 'attempts', 'valid', 'problems', 'issues', 'frameUrl', 'reading'],
  properties: {
    id: { type: 'string' },
    count: { type: 'integer' },
    attempts: { type: 'integer' },
    valid: { type: 'boolean' },
    problems: { type: 'array', items: { type: 'string' } },
    issues: { type: 'array', items: { type: 'string' } },
    frameUrl: { type: 'string' },
    reading: {
      type: 'object',
      properties: {
        width: { type: 'number' },
        height: { type: 'number' },
        dice: {
          type: 'array',
          items: DieViewSchema,
        },
      },
    },
  },
} as const;

/** What the setup page is told of the hardware the server runs with (server.ts builds it). */
export interface SetupHardware extends SetupCamera {
  /** The tower's board, connected and disconnected on the page (src/setup/tower-link.ts); null: this server drives none. */
  readonly link: BoardLink | null;
  /** Lists serial ports (tests); SerialPort.list by default. */
  readonly listPorts?: () => Promise<readonly PortInfoLike[]>;
  /** Lists video devices (tests); /dev/video* with sysfs names by default. */
  readonly listCameras?: () => CameraDevice[];
  /** Flashes the firmware (tests: a fake avrdude); hardware/flash.ts's flashFirmware by default. */
  readonly flash?: Flasher;
}

/** An app built without hardware (tests): no camera, no board, no data directory. */
export const NO_SETUP_HARDWARE: SetupHardware = { camera: null, cameraSource: 'unknown', fixed: { exposure: null, whiteBalance: null }, refused: [], adjust: null, dataDir: null, link: null };

/** The shipped firmware through avrdude (loaded on use: serialport is a native module). */
const defaultFlasher: Flasher = async (port, onProgress) => {
  const { flashFirmware } = await import('../hardware/flash.js');
  return flashFirmware({ port, onProgress });
};

const FlashStatusReply = {
  type: 'object',
  required: ['state', 'port', 'lines', 'error', 'code'],
  properties: {
    state: { type: 'string', enum: ['idle', 'running', 'done', 'failed'] },
    port: { type: ['string', 'null'] },
    lines: { type: 'array', items: { type: 'string' } },
    error: { type: ['string', 'null'] },
    code: { type: ['string', 'null'] },
    startedAt: { type: ['number', 'null'] },
    endedAt: { type: ['number', 'null'] },
  },
} as const;

const TowerReply = {
  type: 'object',
  properties: {
    kind: { type: 'string' }, state: { type: 'string' }, message: { type: 'string' }, serial: { type: ['string', 'null'] },
    connected: { type: 'boolean' }, firmware: { type: ['string', 'null'] }, version: { type: ['string', 'null'] }, mode: { type: ['string', 'null'] }, path: { type: ['string', 'null'] },
    tipAngle: { type: 'integer' }, restAngle: { type: 'integer' }, light: { type: 'integer' }, trayInPlace: { type: ['boolean', 'null'] }, lastButtonAt: { type: ['number', 'null'] }, note: NoteSchema,
  },
} as const;

const DevicesReply = {
  type: 'object',
  properties: {
    cameras: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, index: { type: 'integer' }, name: { type: ['string', 'null'] } } } },
    camera: { type: 'object', properties: { source: { type: 'string' }, preview: { type: 'boolean' } } },
    ports: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, usbId: { type: ['string', 'null'] }, manufacturer: { type: ['string', 'null'] }, arduino: { type: ['string', 'null'] }, description: { type: 'string' } } },
    },
    portsProblem: { ...NoteSchema, type: ['object', 'null'] },
    tower: TowerReply,
  },
} as const;

const RollIdParams = { type: 'object', required: ['rollId'], properties: { rollId: { type: 'string', pattern: '^[0-9a-f-]{36}$' } } } as const;

export function registerSetupRoutes(api: FastifyInstance, table: Table, testRolls: TestRolls, hardware: SetupHardware, operator: Guard): void {
  registerSetupCameraRoutes(api, table, hardware, operator);
  /** The tower as the table sees it, and its board as connected now. */
  const serial = () => hardware.link?.serial() ?? null;
  const towerView = () => {
    const board = hardware.link?.boardSetup()?.view() ?? null;
    const said =
      serial() === null
        ? note('setup/board_none', 'No tower board: the tower rolls are simulated or thrown by hand (connect one below).')
        : board?.connected
          ? firmwareNote(board.firmware)
          : note('setup/board_unplugged', 'The board is not connected: check the USB cable.');
    return { ...table.tower(), serial: serial(), firmware: null, version: null, mode: null, path: null, ...board, note: said };
  };
  const link = (): BoardLink => {
    if (hardware.link === null) throw new TableError('setup/no_link', 'This server cannot drive a tower board.', 409);
    return hardware.link;
  };
  api.get('/api/setup/devices', { ...operator, schema: { response: { 200: DevicesReply } } }, async () => {
    let ports: unknown[] = [];
    let portsProblem: ReturnType<typeof note> | null = null;
    try {
      ports = await listSerialPorts(hardware.listPorts);
    } catch (err) {
      // The page still shows the rest; it says why the ports are missing.
      portsProblem = note('setup/ports_unlisted', `The serial ports could not be listed: ${errorText(err)}`, { error: errorText(err) });
    }
    return {
      cameras: (hardware.listCameras ?? listCameras)(),
      camera: { source: hardware.cameraSource, preview: hardware.camera !== null },
      ports,
      portsProblem,
      tower: towerView(),
    };
  });

  api.get('/api/setup/tower', { ...operator, schema: { response: { 200: TowerReply } } }, async () => towerView());

  // The board connected on a port the page lists (or auto): the table rolls with it from the next roll, and the next start
  // connects it too (serial.json; --serial overrides).
  api.post<{ Body: { port: string } }>(
    '/api/setup/tower/connect',
    { ...operator, schema: { body: { type: 'object', required: ['port'], additionalProperties: false, properties: { port: { type: 'string', pattern: PORT_PATTERN } } }, response: { 200: TowerReply, ...errors } } },
    async (request) => {
      if (hardware.cameraSource === 'sim') throw new TableError('setup/needs_camera', 'A tower board needs a real camera: the simulated camera only sees simulated dice. Choose a camera and restart first.', 409);
      await link().connect(request.body.port);
      return towerView();
    },
  );

  // The board let go: the table rolls as it started (simulated or by hand), and the next start connects none.
  api.post(
    '/api/setup/tower/disconnect',
    { ...operator, schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: {} }, response: { 200: TowerReply, ...errors } } },
    async () => {
      await link().disconnect();
      return towerView();
    },
  );

  // The tray tipped and brought back, no dice read: to check the servo's angles and the tray sensor.
  api.post(
    '/api/setup/tower/test-tip',
    { ...operator, schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: {} }, response: { 200: TowerReply, ...errors } } },
    async () => {
      const board = hardware.link?.boardSetup() ?? null;
      if (board === null) throw new TableError('setup/no_board', 'No tower board is connected: there is no tray to tip.', 409);
      // Under the tower's lock: no roll starts and the board is not disconnected while the tray moves.
      await table.tipForTest(async () => {
        try {
          await board.testTip();
        } catch (err) {
          throw new TableError('setup/tip_failed', `The test tip failed: ${errorText(err)}`, 503, { error: errorText(err) });
        }
      });
      return towerView();
    },
  );

  // The tray's angles: used from the next cycle, and kept in tray.json for the next start (--tower-tip/--tower-rest override).
  api.put<{ Body: TrayAngles }>(
    '/api/setup/tower/angles',
    {
      ...operator,
      schema: {
        body: { type: 'object', required: ['tipAngle', 'restAngle'], additionalProperties: false, properties: { tipAngle: { type: 'integer', minimum: 0, maximum: 180 }, restAngle: { type: 'integer', minimum: 0, maximum: 180 } } },
        response: { 200: TowerReply, ...errors },
      },
    },
    async (request) => {
      const board = hardware.link?.boardSetup() ?? null;
      if (board === null) throw new TableError('setup/no_board', 'No tower board is connected: there is no tray to set.', 409);
      const problem = trayAnglesProblem(request.body);
      // The schema holds each angle to 0-180°: what is left to refuse is a tray that would never move (the same two angles).
      if (problem) throw new TableError('setup/bad_angles', `The tray's angles were not changed: ${problem}.`, 400, { ...request.body });
      try {
        board.setAngles(request.body);
      } catch (err) {
        throw new TableError('setup/not_saved', `The angles are used from the next roll, but could not be kept for the next start: ${errorText(err)}`, 503, { error: errorText(err) });
      }
      return towerView();
    },
  );

  // A frame of the camera the server already has, a few times a second; while the tower rolls, the last one (the roll needs the camera).
  let lastPreview: Buffer | null = null;
  api.get(
    '/api/setup/preview.jpg',
    { ...operator, schema: { querystring: { type: 'object', properties: { operator: { type: 'string', maxLength: 100 }, t: { type: 'string', maxLength: 20 } } }, response: errors } },
    async (_request, reply) => {
      const camera = hardware.camera;
      if (!camera) throw new TableError('setup/no_preview', 'This server has no camera to preview.', 404);
      if (table.tower().state !== 'rolling' || lastPreview === null) {
        try {
          lastPreview = (await camera.capture()).image;
        } catch (err) {
          throw new TableError('setup/camera_fault', `The camera gave no frame: ${errorText(err)}`, 503, { error: errorText(err) });
        }
      }
      return reply.type('image/jpeg').header('cache-control', 'no-store').send(lastPreview);
    },
  );

  api.post<{ Body: { count: number } }>(
    '/api/setup/test-rolls',
    {
      ...operator,
      schema: {
        body: { type: 'object', required: ['count'], additionalProperties: false, properties: { count: { type: 'integer', minimum: 1, maximum: MAX_TEST_DICE } } },
        response: { 200: TestRollReply, ...errors },
      },
    },
    async (request) => {
      const roll = await testRolls.roll(request.body.count);
      return { ...roll, reading: { ...roll.reading, dice: roll.reading.dice.map(dieView) } };
    },
  );

  // An <img> cannot send the Authorization header: the page passes ?operator= (operatorOnly reads it).
  api.get<{ Params: { rollId: string } }>(
    '/api/setup/test-rolls/:rollId/frame.jpg',
    { ...operator, schema: { params: RollIdParams, querystring: { type: 'object', properties: { operator: { type: 'string', maxLength: 100 } } }, response: errors } },
    async (request, reply) => reply.type('image/jpeg').header('cache-control', 'no-store').send(testRolls.frame(request.params.rollId)),
  );

  api.post<{ Params: { rollId: string }; Body: { values: number[] } }>(
    '/api/setup/test-rolls/:rollId/verdict',
    {
      ...operator,
      schema: {
        params: RollIdParams,
        body: { type: 'object', required: ['values'], additionalProperties: false, properties: { values: { type: 'array', maxItems: 60, items: { type: 'integer', minimum: 0, maximum: 6 } } } },
        response: {
          200: {
            type: 'object',
            required: ['outcome', 'tally'],
            properties: {
              outcome: { type: 'object', properties: { right: { type: 'integer' }, unreadable: { type: 'integer' }, wrong: { type: 'integer' } } },
              tally: AccuracyTallySchema,
            },
          },
          ...errors,
        },
      },
    },
    async (request) => testRolls.verdict(request.params.rollId, request.body.values),
  );

  // Flashing from the page: only while no board is connected, since the port is then free.
  const flashJob = new FlashJob(hardware.flash ?? defaultFlasher);
  api.post<{ Body: { port?: string } }>(
    '/api/setup/flash',
    {
      ...operator,
      schema: {
        body: { type: ['object', 'null'], additionalProperties: false, properties: { port: { type: 'string', pattern: PORT_PATTERN } } },
        response: { 202: FlashStatusReply, ...errors },
      },
    },
    async (request, reply) => {
      const held = serial();
      if (held !== null) throw new TableError('setup/board_in_use', `The server drives the tower on ${held} and holds its port: disconnect the board on this page first.`, 409, { port: held });
      return reply.status(202).send(flashJob.start(request.body?.port ?? 'auto'));
    },
  );
  api.get('/api/setup/flash', { ...operator, schema: { response: { 200: FlashStatusReply } } }, async () => flashJob.current());

  // No options: the body, if any, is an empty object (so junk sent to it is refused, not ignored).
  api.post(
    '/api/setup/accuracy/reset',
    { ...operator, schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: {} }, response: { 200: AccuracyTallySchema, ...errors } } },
    async () => testRolls.reset(),
  );
}
