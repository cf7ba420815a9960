/**
 * The `dice-tower read` and `dice-tower calibrate` commands: the reader and
 * the calibration from the command line. Errors are thrown as plain
 * sentences; `cli.ts` prints them and exits non-zero.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type cv from './hardware/opencv.js';
import { DIE_COLOURS } from './hardware/types.js';
import { openVideoCamera, refusedSettings } from './hardware/camera-sources.js';
import { annotate } from './vision/annotate.js';
import { calibratedConfig, readCalibrationFile, type Calibration } from './vision/calibrate.js';
import { calibrateInto, calibrationFile, loadImage, writeImage } from './vision/calibrate-steps.js';
import { decodeFrame, readDiceInImage } from './vision/read-dice.js';
import type { DiceReading } from './vision/types.js';
import { cameraSettings } from './cli-options.js';

export const READ_USAGE = `  read IMAGE   Read the dice in a photo of the tray
               --json             print the reading as JSON
               --annotate FILE    write the image with every die outlined and labelled (.png, .jpg)
               --expect N         the number of dice that should be there
               --calibration FILE (default <data dir>/calibration.json when it exists)
  calibrate    Measure the tray and the dice, write <data dir>/calibration.json
               --image FILE | --camera SOURCE   the empty tray, from a photo or a camera
               --dice COLOUR=FILE ...           a photo of each colour's dice lying flat
               --exposure N, --white-balance K  fix the camera's settings, as serve does
               --data DIR                       [DICE_TOWER_DATA] (default ./data)
`;

const round = (v: number) => Math.round(v * 10) / 10;

/** The reading as the CLI prints it: `size` is the size class, `edge` the measured edge in pixels. */
export function readingJson(reading: DiceReading) {
  return {
    dice: reading.dice.map((d) => ({
      value: d.value,
      color: d.colour,
      colorConfident: d.colourConfident ?? false,
      size: d.sizeClass ?? null,
      edge: round(d.size),
      center: { x: round(d.center.x), y: round(d.center.y) },
      box: d.box.map((p) => ({ x: round(p.x), y: round(p.y) })),
      confidence: Math.round(d.confidence * 1000) / 1000,
      lab: d.lab ? { L: round(d.lab.L), a: round(d.lab.a), b: round(d.lab.b) } : null,
    })),
    valid: reading.valid,
    problems: reading.problems,
    issues: (reading.issues ?? []).map((i) => i.code),
    ms: round(reading.ms),
  };
}

export async function readCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { json: { type: 'boolean' }, annotate: { type: 'string' }, expect: { type: 'string' }, calibration: { type: 'string' }, data: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new Error(`read needs one image, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}`);
  const file = positionals[0] as string;
  const expected = values.expect === undefined ? undefined : Number(values.expect);
  if (expected !== undefined && !(Number.isInteger(expected) && expected >= 0 && expected <= 100)) throw new Error(`--expect must be a whole number from 0 to 100, got '${values.expect}'`);
  if (values.annotate !== undefined && !/\.(png|jpe?g)$/i.test(values.annotate)) throw new Error(`--annotate needs a .png or .jpg file name, got '${values.annotate}'`);
  if (values.calibration !== undefined && !existsSync(values.calibration)) throw new Error(`calibration file '${values.calibration}' does not exist`);
  const calibration = readCalibrationFile(values.calibration ?? calibrationFile(values.data ?? process.env.DICE_TOWER_DATA ?? 'data'));
  const image = loadImage(file);
  const started = performance.now();
  const reading = readDiceInImage(image, calibratedConfig(calibration), expected);
  const result = { ...reading, ms: performance.now() - started };
  if (values.annotate !== undefined) writeImage(values.annotate, annotate(image, result));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(readingJson(result))}\n`);
  } else {
    for (const d of result.dice) {
      process.stdout.write(`${d.value ?? '?'}  ${d.colour}${d.colourConfident ? '' : ' (colour unsure)'}  ${d.sizeClass ?? 'size?'}  at (${Math.round(d.center.x)}, ${Math.round(d.center.y)})  confidence ${d.confidence.toFixed(2)}\n`);
    }
    process.stdout.write(result.valid ? `valid: ${result.dice.length} dice (${round(result.ms)} ms)\n` : `invalid: ${result.problems.join('; ')}\n`);
  }
  return 0;
}

const MARKS_SHOWN = 6;

/** The tray marks, for people: how many, and where the first few are. */
function marksText(calibration: Calibration): string {
  const marks = calibration.trayMarks;
  if (marks.length === 0) return 'none';
  const shown = marks.slice(0, MARKS_SHOWN).map((m) => `${m.width}x${m.height} at (${Math.round(m.x + m.width / 2)}, ${Math.round(m.y + m.height / 2)})`);
  return `${marks.length}: ${shown.join(', ')}${marks.length > MARKS_SHOWN ? ', ...' : ''}`;
}

export async function calibrateCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { image: { type: 'string' }, camera: { type: 'string' }, dice: { type: 'string', multiple: true }, data: { type: 'string' }, exposure: { type: 'string' }, 'white-balance': { type: 'string' } },
    strict: true,
  });
  if (values.image !== undefined && values.camera !== undefined) throw new Error('give the empty tray either as --image or as --camera, not both');
  const fixed = cameraSettings(values);
  if (values.camera === undefined && (fixed.exposure !== null || fixed.whiteBalance !== null)) throw new Error('--exposure and --white-balance set the camera: use them with --camera');
  const dataDir = values.data ?? process.env.DICE_TOWER_DATA ?? 'data';
  const shots: Record<string, cv.Mat> = {};
  for (const spec of values.dice ?? []) {
    const match = /^([a-z]+)=(.+)$/.exec(spec);
    if (!match) throw new Error(`--dice needs COLOUR=IMAGE, got '${spec}'`);
    const [, colour, file] = match as unknown as [string, string, string];
    if (!(DIE_COLOURS as readonly string[]).includes(colour)) throw new Error(`unknown die colour '${colour}': choose from ${DIE_COLOURS.join(', ')}`);
    shots[colour] = loadImage(file);
  }
  let empty: cv.Mat | null = null;
  if (values.image !== undefined) empty = loadImage(values.image);
  if (values.camera !== undefined) {
    const source = /^\d+$/.test(values.camera) ? Number(values.camera) : values.camera;
    const camera = await openVideoCamera({ source, width: 1280, height: 720, ...fixed });
    for (const warning of refusedSettings(fixed, camera)) process.stderr.write(`dice-tower: warning: ${warning}\n`);
    try {
      empty = decodeFrame((await camera.capture()).image);
    } finally {
      await camera.close();
    }
  }
  const { file, calibration, kept, warnings } = calibrateInto(dataDir, empty, shots);
  const t = calibration.tray;
  process.stdout.write(
    [
      `calibration written to ${file}`,
      ...(kept.length > 0 ? [`  kept from the earlier calibration: ${kept.map((k) => k.message).join('; ')}`] : []),
      `  frame ${calibration.frame.width}x${calibration.frame.height}; tray ${t ? `${t.width}x${t.height} at (${t.x}, ${t.y})${t.turn ? `, turned ${Math.abs(t.turn).toFixed(2)}° ${t.turn > 0 ? 'clockwise' : 'anticlockwise'}` : ''}` : 'fills the frame'}`,
      `  normal die edge ${calibration.dieSize === null ? 'not measured (no dice shots)' : `${round(calibration.dieSize)} px`}`,
      ...Object.entries(calibration.palette).map(([name, lab]) => `  ${name}: L ${round(lab.L)}, a ${round(lab.a)}, b ${round(lab.b)}`),
      `  tray marks the reader ignores: ${marksText(calibration)}`,
      `  rim corners, looked for with the marks to tell a moved camera: ${calibration.trayCorners.length > 0 ? calibration.trayCorners.length : 'none (no rim in view on two sides)'}`,
      ...warnings.map((warning) => `  warning: ${warning.message}`),
    ].join('\n') + '\n',
  );
  return 0;
}
