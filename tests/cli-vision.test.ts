import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cv from '../src/hardware/opencv.js';
import { SeededRandom } from '../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../src/hardware/simulator/index.js';
import { rimmedFloor } from '../src/hardware/simulator/floors.js';

const BIN = fileURLToPath(new URL('../bin/dice-tower.js', import.meta.url));
const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));
/** An empty data directory: no calibration unless a test writes one. */
const emptyData = () => mkdtempSync(join(tmpdir(), 'dice-tower-data-'));

/** Runs the bin with `args`; resolves with its exit code and output. */
function run(args: string[], data = emptyData()): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DICE_TOWER_DATA: data } });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += String(c)));
    proc.stderr.on('data', (c) => (err += String(c)));
    proc.on('close', (code) => resolve({ code, out, err }));
  });
}

interface JsonDie {
  value: number | null;
  color: string;
  size: 'normal' | 'big' | null;
  center: { x: number; y: number };
  box: { x: number; y: number }[];
  confidence: number;
}

describe('dice-tower read', () => {
  it('prints the reading as JSON: every die with value, colour, size, centre, box and confidence', { timeout: 120_000 }, async () => {
    const truth = JSON.parse(readFileSync(fixture('las-vegas/lv-black.json'), 'utf8')) as { dice: { value: number; colour: string; sizeClass: string; x: number; y: number }[] };
    const { code, out } = await run(['read', fixture('las-vegas/lv-black.jpg'), '--json', '--expect', String(truth.dice.length)]);
    expect(code).toBe(0);
    const reading = JSON.parse(out) as { dice: JsonDie[]; valid: boolean; problems: string[]; ms: number };
    expect(reading.valid).toBe(true);
    expect(reading.problems).toEqual([]);
    expect(reading.ms).toBeGreaterThan(0);
    expect(reading.dice).toHaveLength(truth.dice.length);
    for (const t of truth.dice) {
      const d = reading.dice.find((r) => Math.hypot(r.center.x - t.x, r.center.y - t.y) < 16);
      // Without a calibration the size is told from the other dice: this throw has the big black die.
      expect(d && { value: d.value, color: d.color, size: d.size }).toEqual({ value: t.value, color: t.colour, size: t.sizeClass });
      expect(d?.box).toHaveLength(4);
      expect(d?.confidence).toBeGreaterThan(0.5);
    }
  });

  it('says why a roll is invalid', { timeout: 120_000 }, async () => {
    const { code, out } = await run(['read', fixture('scenes/cocked-1.jpg'), '--json', '--expect', '3']);
    expect(code).toBe(0);
    const reading = JSON.parse(out) as { valid: boolean; problems: string[] };
    expect(reading.valid).toBe(false);
    expect(reading.problems[0]).toMatch(/the red die at \(\d+, \d+\) is cocked/);
    const plain = await run(['read', fixture('scenes/empty-1.jpg'), '--expect', '3']);
    expect(plain.out).toContain('invalid: the tray is empty: expected 3 dice');
  });

  it('writes the image with every die outlined and labelled (--annotate)', { timeout: 120_000 }, async () => {
    const out = join(emptyData(), 'annotated.png');
    const { code } = await run(['read', fixture('las-vegas/lv-red.jpg'), '--annotate', out]);
    expect(code).toBe(0);
    const original = cv.imread(fixture('las-vegas/lv-red.jpg'));
    const annotated = cv.imread(out);
    expect([annotated.cols, annotated.rows]).toEqual([original.cols, original.rows]);
    // The outline is drawn in pure green (BGR 60, 220, 60) round each die: count such pixels near each die.
    const truth = JSON.parse(readFileSync(fixture('las-vegas/lv-red.json'), 'utf8')) as { dice: { x: number; y: number; size: number }[] };
    const green = annotated.inRange(new cv.Vec3(40, 200, 40), new cv.Vec3(80, 240, 80));
    for (const d of truth.dice) {
      const half = Math.round(d.size);
      const around = green.getRegion(new cv.Rect(Math.max(0, Math.round(d.x) - half), Math.max(0, Math.round(d.y) - half), 2 * half, 2 * half));
      expect(around.countNonZero()).toBeGreaterThan(d.size * 2);
    }
    expect(original.inRange(new cv.Vec3(40, 200, 40), new cv.Vec3(80, 240, 80)).countNonZero()).toBe(0);
  });

  it('refuses a missing file, a file that is not an image and a missing argument, exiting non-zero', { timeout: 120_000 }, async () => {
    const missing = await run(['read', '/nonexistent/tray.jpg', '--json']);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain("cannot read image '/nonexistent/tray.jpg': no such file");
    expect(missing.out).toBe('');
    const text = join(emptyData(), 'notes.jpg');
    writeFileSync(text, 'these are not pixels');
    const notImage = await run(['read', text]);
    expect(notImage.code).not.toBe(0);
    expect(notImage.err).toContain('is not a readable image');
    const none = await run(['read']);
    expect(none.code).not.toBe(0);
    expect(none.err).toContain('read needs one image');
    const badAnnotate = await run(['read', fixture('las-vegas/lv-red.jpg'), '--annotate', 'out.gif']);
    expect(badAnnotate.err).toContain('--annotate needs a .png or .jpg');
  });

  it('refuses an empty image and a JPEG cut short, naming the problem, and says when the annotated image cannot be written', { timeout: 120_000 }, async () => {
    const dir = emptyData();
    const empty = join(dir, 'empty.jpg');
    writeFileSync(empty, '');
    const emptyRun = await run(['read', empty, '--json']);
    expect(emptyRun.code).toBe(1);
    expect(emptyRun.err).toContain(`'${empty}' is not a readable image: it is empty (0 bytes)`);
    const cut = join(dir, 'cut.jpg');
    const whole = readFileSync(fixture('las-vegas/lv-red.jpg'));
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    const cutRun = await run(['read', cut, '--json']);
    expect(cutRun.code).toBe(1);
    expect(cutRun.err).toContain('the JPEG data stops before its end');
    expect(cutRun.out).toBe('');
    const nowhere = join(dir, 'no-such-folder', 'out.png');
    const annotateRun = await run(['read', fixture('las-vegas/lv-red.jpg'), '--annotate', nowhere]);
    expect(annotateRun.code).toBe(1);
    expect(annotateRun.err).toContain(`cannot write '${nowhere}'`);
  });
});

describe('dice-tower calibrate', () => {
  it('warns when the tray floor reaches well beyond the region the reader looks in (round corners, a turned tray not wholly in view), not for a square or turned tray', { timeout: 120_000 }, async () => {
    const work = emptyData();
    const outputs: string[][] = [];
    // The last tray runs off the frame's left edge (its rim there out of view): its region stays upright.
    const trays = [['square', {}, 0], ['turned', { turn: 1 }, 0], ['round', { cornerRadius: 40 }, 0], ['cut', { turn: 1 }, -90]] as const;
    for (const [name, shape, across] of trays) {
      const empty = join(work, `empty-${name}.jpg`);
      writeFileSync(empty, renderTray([], DEFAULT_TRAY, { noiseSeed: 1, floor: rimmedFloor({ x: across, y: 0 }, shape) }));
      const cal = await run(['calibrate', '--image', empty], emptyData());
      expect(cal.code).toBe(0);
      outputs.push(cal.out.split('\n').filter((line) => line.includes('warning') || line.includes('; tray ')));
    }
    expect(outputs[0]).toEqual(['  frame 1280x720; tray 1096x624 at (100, 52)']);
    expect(outputs[1]).toEqual([expect.stringMatching(/^ {2}frame 1280x720; tray \d+x\d+ at \(\d+, \d+\), turned 1\.0\d° clockwise$/)]);
    expect(outputs[2]).toEqual([
      expect.stringMatching(/^ {2}frame 1280x720; tray/),
      '  warning: the tray floor reaches up to 12 px beyond the region the reader looks in, on the left, top, right and bottom sides (its corners are round): a die lying against the rim there may be cut short and re-rolled',
    ]);
    expect(outputs[3]).toEqual([
      expect.stringMatching(/^ {2}frame 1280x720; tray \d+x\d+ at \(\d+, \d+\)$/),
      expect.stringMatching(/^ {2}warning: the tray floor reaches up to \d+ px beyond the region the reader looks in, on the .* \(the tray is not wholly in view, and turned against the camera or its corners are round\): a die lying against the rim there may be cut short and re-rolled; bring the whole tray into view \(or turn the camera square to it\) and calibrate again$/),
    ]);
  });

  it('writes the calibration that read then uses (the die size tells a lone die normal)', { timeout: 120_000 }, async () => {
    const data = emptyData();
    const work = emptyData();
    const empty = join(work, 'empty.jpg');
    writeFileSync(empty, renderTray([], DEFAULT_TRAY, { noiseSeed: 1 }));
    const shots: string[] = [];
    for (const colour of ['red', 'white'] as const) {
      const file = join(work, `${colour}.jpg`);
      writeFileSync(file, renderTray(throwDice(new SeededRandom(colour.length), 6, [colour]), DEFAULT_TRAY, { noiseSeed: 2 }));
      shots.push('--dice', `${colour}=${file}`);
    }
    const lone = join(work, 'lone.jpg');
    writeFileSync(lone, renderTray(throwDice(new SeededRandom(5), 1, ['white']), DEFAULT_TRAY, { noiseSeed: 3 }));

    const before = await run(['read', lone, '--json'], data);
    expect((JSON.parse(before.out) as { dice: JsonDie[] }).dice[0]?.size).toBeNull();

    const cal = await run(['calibrate', '--image', empty, ...shots], data);
    expect(cal.err).toBe('');
    expect(cal.code).toBe(0);
    expect(cal.out).toContain(`calibration written to ${join(data, 'calibration.json')}`);
    expect(cal.out).toMatch(/normal die edge \d+(\.\d)? px/);
    expect(cal.out).toContain('tray marks the reader ignores: none');
    expect(cal.out).toContain('rim corners, looked for with the marks to tell a moved camera: none (no rim in view on two sides)');
    expect(cal.out).not.toContain('warning');
    const written = JSON.parse(readFileSync(join(data, 'calibration.json'), 'utf8')) as { palette: Record<string, unknown>; dieSize: number; emptyTray: string };
    expect(Object.keys(written.palette).sort()).toEqual(['red', 'white']);
    expect(existsSync(join(data, written.emptyTray))).toBe(true);

    const after = await run(['read', lone, '--json'], data);
    expect((JSON.parse(after.out) as { dice: JsonDie[] }).dice[0]?.size).toBe('normal');

    // A photo of another size than the calibration's frames: refused, naming both sizes, rather than read against a tray in the wrong place.
    const phone = join(work, 'phone.jpg');
    writeFileSync(phone, renderTray(throwDice(new SeededRandom(6), 1, ['white'], { ...DEFAULT_TRAY, width: 640, height: 480 }), { ...DEFAULT_TRAY, width: 640, height: 480 }, { noiseSeed: 4 }));
    const other = await run(['read', phone, '--json'], data);
    expect(other.code).not.toBe(0);
    expect(other.out).toBe('');
    expect(other.err).toContain('the frame is 640x480, but the tray was calibrated on 1280x720 frames');
  });

  it('warns of a die left in the empty tray, which it would take for a mark of the tray', { timeout: 120_000 }, async () => {
    const data = emptyData();
    const empty = join(emptyData(), 'empty.jpg');
    writeFileSync(empty, renderTray([{ value: 4, colour: 'white', x: 400, y: 250, size: 64, angle: 0 }], DEFAULT_TRAY, { noiseSeed: 1 }));
    const cal = await run(['calibrate', '--image', empty], data);
    expect(cal.err).toBe('');
    expect(cal.code).toBe(0);
    expect(cal.out).toMatch(/tray marks the reader ignores: 1: \d+x\d+ at \((399|400|401), (249|250|251)\)\n/);
    expect(cal.out).toMatch(/warning: the empty tray shows a 4 at \((399|400|401), (249|250|251)\); if a die was left there, take it out and calibrate again/);
  });

  it('takes the empty tray from a camera (a video file stands in for the webcam)', { timeout: 120_000 }, async () => {
    const data = emptyData();
    const file = join(emptyData(), 'tray.avi');
    const frame = cv.imdecode(renderTray([], DEFAULT_TRAY, { noiseSeed: 4 }));
    // A wooden rim along the left: the tray floor starts at x = 160.
    frame.drawRectangle(new cv.Point2(0, 0), new cv.Point2(159, 719), new cv.Vec3(40, 90, 150), -1);
    const writer = new cv.VideoWriter(file, cv.VideoWriter.fourcc('MJPG'), 10, new cv.Size(1280, 720), true);
    for (let i = 0; i < 3; i++) writer.write(frame);
    writer.release();
    const cal = await run(['calibrate', '--camera', file], data);
    expect(cal.err).toBe('');
    const written = JSON.parse(readFileSync(join(data, 'calibration.json'), 'utf8')) as { tray: { x: number; width: number } | null; dieSize: number | null };
    expect(Math.abs((written.tray?.x ?? 0) - 160)).toBeLessThanOrEqual(8);
    expect(written.tray?.width).toBeGreaterThan(1100);
    expect(written.dieSize).toBeNull();
    expect(cal.out).toContain('normal die edge not measured (no dice shots)');

    // Dice shots added one colour at a time keep the tray and the colours shot before.
    for (const colour of ['red', 'blue'] as const) {
      const shot = join(emptyData(), `${colour}.jpg`);
      writeFileSync(shot, renderTray(throwDice(new SeededRandom(colour.length), 5, [colour]), DEFAULT_TRAY, { noiseSeed: 5 }));
      const added = await run(['calibrate', '--dice', `${colour}=${shot}`], data);
      expect(added.err).toBe('');
      expect(added.out).toContain(colour === 'red' ? 'kept from the earlier calibration: the tray region' : 'kept from the earlier calibration: the tray region; the colour red');
    }
    const merged = JSON.parse(readFileSync(join(data, 'calibration.json'), 'utf8')) as { tray: { x: number } | null; dieSize: number | null; palette: Record<string, unknown> };
    expect(merged.tray).toEqual(written.tray);
    expect(Object.keys(merged.palette).sort()).toEqual(['blue', 'red']);
    expect(merged.dieSize).toBeGreaterThan(40);
  });

  it('refuses an unknown colour, a shot without dice, and two sources at once', { timeout: 120_000 }, async () => {
    const work = emptyData();
    const empty = join(work, 'empty.jpg');
    writeFileSync(empty, renderTray([], DEFAULT_TRAY, { noiseSeed: 1 }));
    const colour = await run(['calibrate', '--image', empty, '--dice', `orange=${empty}`]);
    expect(colour.code).not.toBe(0);
    expect(colour.err).toContain("unknown die colour 'orange'");
    const noDice = await run(['calibrate', '--image', empty, '--dice', `red=${empty}`]);
    expect(noDice.code).not.toBe(0);
    expect(noDice.err).toContain('no dice found in the shot');
    const both = await run(['calibrate', '--image', empty, '--camera', '0']);
    expect(both.err).toContain('either as --image or as --camera');
  });
});
