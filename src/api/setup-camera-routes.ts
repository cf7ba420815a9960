/**
 * The setup page's camera and calibration routes (operator only): the fixed
 * exposure and white balance set on the camera the server runs and saved
 * with the chosen camera (src/setup/camera-choice.ts); the calibration made
 * step by step from the camera's frames as `dice-tower calibrate` makes it
 * (src/vision/calibrate-steps.ts), which the next roll reads with.
 */
import type { FastifyInstance } from 'fastify';
import type { Camera, CameraSettings, FixedSettings } from '../hardware/index.js';
import { refusedSettingNotes } from '../hardware/camera-sources.js';
import { note, NoteSchema, type Note } from '../note.js';
import { DIE_COLOURS } from '../hardware/types.js';
import { GAMES } from '../games/index.js';
import { readCalibrationFile, type Calibration } from '../vision/calibrate.js';
import { calibrateInto, calibrationFile, setTrayRegion, type CalibrationStep } from '../vision/calibrate-steps.js';
import { decodeFrame } from '../vision/read-dice.js';
import { CAMERA_FILE, EXPOSURE_RANGE, readCameraChoice, WHITE_BALANCE_RANGE, writeCameraChoice } from '../setup/camera-choice.js';
import { TableError, type Table } from '../table.js';
import { errorText } from '../error-text.js';
import type { Guard } from './setup-routes.js';

/** What these routes need of the server's camera. */
export interface SetupCamera {
  /** The camera as the server opened it, for the calibration shots; null: none. */
  readonly camera: Camera | null;
  readonly cameraSource: string;
  /** The fixed settings it was opened with (null: automatic), and those the driver refused then. */
  readonly fixed: FixedSettings;
  readonly refused: readonly Note[];
  /** Sets the fixed settings on a camera device or video file (through its process); null for the simulator and a folder. */
  readonly adjust: ((asked: FixedSettings) => Promise<CameraSettings>) | null;
  /** Where camera.json, calibration.json and the empty-tray shot are kept; null: nowhere (an app built without one, in tests). */
  readonly dataDir: string | null;
}

const errors = { 400: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 422: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };
const region = { type: 'object', required: ['x', 'y', 'width', 'height'], properties: { x: { type: 'number' }, y: { type: 'number' }, width: { type: 'number' }, height: { type: 'number' } } } as const;
const trayRegion = { ...region, properties: { ...region.properties, turn: { type: 'number' } } } as const;
const nullableSetting = (range: { min: number; max: number }) => ({ type: ['integer', 'null'], minimum: range.min, maximum: range.max }) as const;

const CameraReply = {
  type: 'object',
  required: ['source', 'exposure', 'whiteBalance', 'adjustable', 'refused', 'saved'],
  properties: {
    source: { type: 'string' },
    exposure: { type: ['integer', 'null'] },
    whiteBalance: { type: ['integer', 'null'] },
    adjustable: { type: 'boolean' },
    refused: { type: 'array', items: NoteSchema },
    saved: { type: ['object', 'null'], properties: { source: { type: 'string' }, exposure: { type: ['integer', 'null'] }, whiteBalance: { type: ['integer', 'null'] } } },
    note: NoteSchema,
  },
} as const;

const CalibrationReply = {
  type: 'object',
  required: ['calibration', 'coloursNeeded', 'warnings', 'kept'],
  properties: {
    calibration: {
      type: ['object', 'null'],
      properties: {
        createdAt: { type: 'string' },
        frame: { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
        tray: { type: ['object', 'null'], properties: trayRegion.properties },
        marks: { type: 'array', items: region },
        corners: { type: 'array', items: region },
        emptyTray: { type: 'boolean' },
        dieSize: { type: ['number', 'null'] },
        colours: { type: 'array', items: { type: 'string' } },
      },
    },
    coloursNeeded: { type: 'array', items: { type: 'string' } },
    warnings: { type: 'array', items: NoteSchema },
    kept: { type: 'array', items: NoteSchema },
  },
} as const;

/** The colours some game in the catalog needs the camera to tell apart, in the palette's order. */
const coloursNeeded = (): string[] => {
  const needed = new Set(Object.values(GAMES).flatMap((game) => game.dice.colours));
  return DIE_COLOURS.filter((colour) => needed.has(colour));
};

const boxOf = ({ x, y, width, height }: { x: number; y: number; width: number; height: number }) => ({ x, y, width, height });

/** The calibration as the page draws it: the tray region, the marks and rim corners the reader ignores, what was measured. */
function calibrationView(calibration: Calibration | null, step?: CalibrationStep) {
  return {
    calibration: calibration && {
      createdAt: calibration.createdAt,
      frame: calibration.frame,
      tray: calibration.tray,
      marks: calibration.trayMarks.map(boxOf),
      corners: calibration.trayCorners.map(boxOf),
      emptyTray: calibration.emptyTray !== null,
      dieSize: calibration.dieSize,
      colours: Object.keys(calibration.palette),
    },
    coloursNeeded: coloursNeeded(),
    warnings: step?.warnings ?? [],
    kept: step?.kept ?? [],
  };
}

export function registerSetupCameraRoutes(api: FastifyInstance, table: Table, hw: SetupCamera, operator: Guard): void {
  const dataDir = (): string => {
    if (hw.dataDir === null) throw new TableError('setup/no_data_dir', 'This server keeps no data directory to save the camera or the calibration in.', 404);
    return hw.dataDir;
  };
  let asked: FixedSettings = hw.fixed;
  let refused: readonly Note[] = hw.refused;

  const cameraView = () => {
    // A camera.json broken while the server runs is said, not a failed page: the next start would stop on it.
    let saved = null;
    let problem: Note | null = null;
    try {
      saved = hw.dataDir === null ? null : readCameraChoice(hw.dataDir);
    } catch (err) {
      problem = note('setup/camera_choice_unreadable', errorText(err), { error: errorText(err) });
    }
    const said = problem ?? (hw.adjust === null ? note('setup/camera_fixed', 'This camera has no exposure or white balance to set (the simulator, or a folder of images).') : null);
    return { source: hw.cameraSource, ...asked, adjustable: hw.adjust !== null, refused, saved, ...(said === null ? {} : { note: said }) };
  };

  api.get('/api/setup/camera', { ...operator, schema: { response: { 200: CameraReply } } }, async () => cameraView());

  api.put<{ Body: FixedSettings }>(
    '/api/setup/camera',
    {
      ...operator,
      schema: {
        body: { type: 'object', required: ['exposure', 'whiteBalance'], additionalProperties: false, properties: { exposure: nullableSetting(EXPOSURE_RANGE), whiteBalance: nullableSetting(WHITE_BALANCE_RANGE) } },
        response: { 200: CameraReply, ...errors },
      },
    },
    async (request) => {
      if (hw.adjust === null) throw new TableError('setup/camera_not_adjustable', `The camera ${hw.cameraSource} has no exposure or white balance to set (the simulator, or a folder of images).`, 409, { source: hw.cameraSource });
      if (table.tower().state === 'rolling') throw new TableError('setup/tower_rolling', 'The tower is rolling: set the camera once the roll is read.', 409);
      const dir = dataDir();
      const next = { exposure: request.body.exposure, whiteBalance: request.body.whiteBalance };
      let taken: CameraSettings;
      try {
        taken = await hw.adjust(next);
      } catch (err) {
        throw new TableError('setup/camera_fault', `The camera did not take the settings: ${errorText(err)}`, 503, { error: errorText(err) });
      }
      asked = next;
      refused = refusedSettingNotes(next, { settings: taken });
      try {
        writeCameraChoice(dir, { source: hw.cameraSource, ...next });
      } catch (err) {
        throw new TableError('setup/not_saved', `The camera took the settings, but they could not be kept in ${CAMERA_FILE} (${errorText(err)}): the next start will not use them.`, 503, { error: errorText(err) });
      }
      return cameraView();
    },
  );

  /** One frame of the camera, decoded; refused while the tower rolls (the roll needs the camera). */
  const shot = async () => {
    if (!hw.camera) throw new TableError('setup/no_camera', 'This server has no camera to calibrate.', 404);
    if (table.tower().state === 'rolling') throw new TableError('setup/tower_rolling', 'The tower is rolling: take the shot once the roll is read.', 409);
    try {
      return decodeFrame((await hw.camera.capture()).image);
    } catch (err) {
      throw new TableError('setup/camera_fault', `The camera gave no frame to calibrate from: ${errorText(err)}`, 503, { error: errorText(err) });
    }
  };
  /** A calibration step; what it cannot measure (no tray floor, no dice in the shot...) is refused in its own words. */
  const step = (make: () => CalibrationStep) => {
    try {
      const made = make();
      return calibrationView(made.calibration, made);
    } catch (err) {
      throw new TableError('setup/calibration_failed', `The calibration was not changed: ${errorText(err)}`, 422, { error: errorText(err) });
    }
  };

  api.get('/api/setup/calibration', { ...operator, schema: { response: { 200: CalibrationReply, ...errors } } }, async () => {
    try {
      return calibrationView(hw.dataDir === null ? null : readCalibrationFile(calibrationFile(hw.dataDir)));
    } catch (err) {
      return { ...calibrationView(null), warnings: [note('calibration/unreadable', errorText(err), { error: errorText(err) })] };
    }
  });

  api.post(
    '/api/setup/calibration/empty-tray',
    { ...operator, schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: {} }, response: { 200: CalibrationReply, ...errors } } },
    async () => {
      const dir = dataDir();
      const empty = await shot();
      try {
        return step(() => calibrateInto(dir, empty, {}));
      } finally {
        empty.release();
      }
    },
  );

  api.put<{ Body: { x: number; y: number; width: number; height: number; turn?: number } }>(
    '/api/setup/calibration/tray',
    {
      ...operator,
      schema: {
        body: {
          type: 'object',
          required: ['x', 'y', 'width', 'height'],
          additionalProperties: false,
          properties: { x: { type: 'integer', minimum: 0 }, y: { type: 'integer', minimum: 0 }, width: { type: 'integer', minimum: 1 }, height: { type: 'integer', minimum: 1 }, turn: { type: 'number', minimum: -45, maximum: 45 } },
        },
        response: { 200: CalibrationReply, ...errors },
      },
    },
    async (request) => {
      const { x, y, width, height, turn } = request.body;
      const dir = dataDir();
      return step(() => setTrayRegion(dir, { x, y, width, height, ...(turn ? { turn } : {}) }));
    },
  );

  api.post<{ Body: { colour: string } }>(
    '/api/setup/calibration/dice',
    {
      ...operator,
      schema: {
        body: { type: 'object', required: ['colour'], additionalProperties: false, properties: { colour: { type: 'string', enum: [...DIE_COLOURS] } } },
        response: { 200: CalibrationReply, ...errors },
      },
    },
    async (request) => {
      const dir = dataDir();
      const dice = await shot();
      try {
        return step(() => calibrateInto(dir, null, { [request.body.colour]: dice }));
      } finally {
        dice.release();
      }
    },
  );
}
