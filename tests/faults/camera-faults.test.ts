/**
 * Camera faults during play: no frames (the stream ended), the device gone
 * (and back), black frames, a frozen frame. Each must end in a fault status
 * on the scoreboard's feed that names the problem, with the game exactly as
 * it was; once the fault clears, the next roll is read and the game goes on.
 * The real camera code (OpenCV VideoCapture on a video file) stands in for
 * the webcam where it can; `checkedCamera` is what `serve` puts around a
 * real camera.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom, createSimulator, openVideoCamera, type Camera, type Frame } from '../../src/hardware/index.js';
import cv from '../../src/hardware/opencv.js';
import { renderTray, throwDice, DEFAULT_TRAY } from '../../src/hardware/simulator/index.js';
import { Table, type TableGame } from '../../src/table.js';
import { checkedCamera, createDiceReader } from '../../src/vision/index.js';
import { watchScoreboard, type Scoreboard } from './scoreboard.js';

let dir = '';
let video = '';
/** The dice in each frame of the video, sorted. */
const truths: number[][] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-camera-faults-'));
  video = join(dir, 'tray.avi');
  const writer = new cv.VideoWriter(video, cv.VideoWriter.fourcc('MJPG'), 5, new cv.Size(DEFAULT_TRAY.width, DEFAULT_TRAY.height));
  const rng = new SeededRandom(404);
  for (let i = 0; i < 2; i++) {
    const dice = throwDice(rng, 5, ['red']);
    truths.push(dice.map((d) => d.value).sort());
    writer.write(cv.imdecode(renderTray(dice, DEFAULT_TRAY, { noiseSeed: i + 1 })));
  }
  writer.release();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(camera: Camera, sim = createSimulator({ seed: 9, colours: ['red'] })): Promise<{ table: Table; board: Scoreboard; game: TableGame }> {
  const table = new Table({ tower: sim.tower, camera, reader: createDiceReader() });
  const board = await watchScoreboard(table);
  cleanups.push(() => board.close());
  return { table, board, game: table.create('dice-poker', ['Ann']) };
}

const sorted = (xs: readonly number[]) => [...xs].sort();

/** The roll is refused with a 503, the scoreboard shows a fault naming `problem`, and the game is as it was. */
async function faults(table: Table, board: Scoreboard, id: string, problem: RegExp): Promise<void> {
  const before = table.get(id);
  await expect(table.roll(id)).rejects.toMatchObject({ statusCode: 503 });
  await expect.poll(() => board.shown()).toMatchObject({ state: 'fault', gameId: id, message: expect.stringMatching(problem) });
  expect(table.get(id)).toBe(before);
}

/** The next roll is read and applied; the scoreboard is back to ready and has the new roll. */
async function resumes(table: Table, board: Scoreboard, id: string): Promise<TableGame> {
  const rolls = table.get(id).rolls.length;
  const after = await table.roll(id);
  expect(after.rolls).toHaveLength(rolls + 1);
  await expect.poll(() => board.shown()).toMatchObject({ state: 'ready' });
  await expect.poll(() => board.rollCounts.get(id)?.at(-1)).toBe(rolls + 1);
  return after;
}

describe('camera faults end in a clear status and the game goes on', () => {
  it('no frames (the stream ends), then the device gone, then back', async () => {
    const camera = await openVideoCamera({ source: video });
    cleanups.push(() => camera.close());
    const { table, board, game } = await rig(checkedCamera(camera));
    expect(sorted((await table.roll(game.id)).rolls[0]!.values)).toEqual(truths[0]);
    expect(sorted((await table.roll(game.id)).rolls[1]!.values)).toEqual(truths[1]);
    await faults(table, board, game.id, /gave no frame/);
    renameSync(video, `${video}.away`); // unplugged
    await faults(table, board, game.id, /does not exist \(unplugged/);
    renameSync(`${video}.away`, video); // plugged back: the camera is opened again
    const after = await resumes(table, board, game.id);
    expect(sorted(after.rolls[2]!.values)).toEqual(truths[0]);
  });

  it('black frames (the light is off), then the light back on', async () => {
    const sim = createSimulator({ seed: 3, colours: ['red'] });
    const black = cv.imencode('.jpg', new cv.Mat(720, 1280, cv.CV_8UC3).setTo(new cv.Vec3(2, 2, 2)));
    let lightOff = true;
    const camera: Camera = { capture: async () => (lightOff ? { image: black, width: 1280, height: 720, capturedAt: Date.now() } : sim.camera.capture()) };
    const { table, board, game } = await rig(checkedCamera(camera), sim);
    await faults(table, board, game.id, /picture is black .*light off/);
    lightOff = false;
    const after = await resumes(table, board, game.id);
    expect(sorted(after.rolls[0]!.values)).toEqual(sorted(sim.truth().map((d) => d.value)));
  });

  it('a frozen frame is refused, not read as a new roll of the same dice', async () => {
    const sim = createSimulator({ seed: 4, colours: ['red'] });
    let frozen: Frame | null = null;
    let freeze = false;
    const camera: Camera = {
      async capture() {
        if (freeze && frozen) return { ...frozen, capturedAt: Date.now() };
        frozen = await sim.camera.capture();
        return frozen;
      },
    };
    const { table, board, game } = await rig(checkedCamera(camera, { refuseRepeats: true }), sim);
    await table.roll(game.id);
    freeze = true;
    await faults(table, board, game.id, /same picture again \(frozen\)/);
    freeze = false;
    const after = await resumes(table, board, game.id);
    expect(sorted(after.rolls[1]!.values)).toEqual(sorted(sim.truth().map((d) => d.value)));
  });
});
