/**
 * A corner of a TURNED tray region dragged on the setup page (Debian's Chromium through playwright-core): the camera
 * sees a tray wholly in view and turned 25° against it, the empty tray's shot calibrates a region turned with it, and
 * the bottom right corner (in the tray's own axes) is dragged inward along the tray's sides. The region saved in
 * calibration.json keeps its turn, its opposite corner stays put and the dragged corner lies where it was let go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cv from '../../src/hardware/opencv.js';
import { createSimulator, type Camera } from '../../src/hardware/index.js';
import { feltBackground, renderTray, type TrayGeometry } from '../../src/hardware/simulator/index.js';
import { createDiceReader } from '../../src/vision/index.js';
import { trayCorners, turnPoint, type TrayRegion } from '../../src/vision/validity.js';
import { Table } from '../../src/table.js';
import { buildApp } from '../../src/api/app.js';
import { NO_SETUP_HARDWARE } from '../../src/api/setup-routes.js';

const TOKEN = 'setup-calibrate-turned-operator-token';
const TRAY: TrayGeometry = { width: 640, height: 480, dieSize: 40 };
/** The tray floor: 340×220 px about the frame's middle, turned 25° clockwise as the camera sees it; wood all round. */
const FLOOR = { centre: { x: 320, y: 240 }, width: 340, height: 220, turn: 25 };
/** How far the corner is dragged, along the tray's own sides (in, and up). */
const DRAG = { along: -50, across: -35 };

let dir = '';
let app: FastifyInstance;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** The empty tray as the camera sees it: felt inside the turned floor, wood outside (as floors.ts paintRim paints a rim). */
function turnedTrayFrame(): Buffer {
  const image = new cv.Mat(Buffer.from(feltBackground(TRAY)), TRAY.height, TRAY.width, cv.CV_8UC3);
  const { centre, width, height, turn } = FLOOR;
  const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => turnPoint({ x: centre.x + (u! * width) / 2, y: centre.y + (v! * height) / 2 }, centre, turn));
  const floor = new cv.Mat(TRAY.height, TRAY.width, cv.CV_8U, 0);
  floor.drawFillPoly([corners.map((p) => new cv.Point2(Math.round(p.x), Math.round(p.y)))], new cv.Vec3(255, 255, 255));
  image.setTo(new cv.Vec3(40, 90, 150), floor.bitwiseNot());
  return renderTray([], TRAY, { noiseSeed: 3, floor: image.getData() });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-setup-turned-'));
  const image = turnedTrayFrame();
  const camera: Camera = { capture: async () => ({ image, width: TRAY.width, height: TRAY.height, capturedAt: Date.now() }) };
  const sim = createSimulator({ seed: 2, colours: ['white'], rollMs: 0 });
  const table = new Table({ tower: sim.tower, camera, reader: createDiceReader() });
  app = buildApp({ table, version: 'test', operatorToken: TOKEN, setupHardware: { ...NO_SETUP_HARDWARE, camera, cameraSource: 'turned-tray.jpg', dataDir: dir } }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1400 } })).newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 50 });
const saved = () => (JSON.parse(readFileSync(join(dir, 'calibration.json'), 'utf8')) as { tray: TrayRegion }).tray;
const near = (p: { x: number; y: number }, q: { x: number; y: number }) => Math.hypot(p.x - q.x, p.y - q.y);

describe('a turned tray on the setup page', () => {
  it('keeps the turn and the opposite corner when a corner is dragged, and saves the corner where it was let go', async () => {
    await page.goto(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/setup.html?token=${TOKEN}`);
    await poll(async () => Number((await page.getByTestId('preview').getAttribute('data-frames')) ?? 0)).toBeGreaterThanOrEqual(1);
    await page.getByTestId('empty-shot').click();
    await poll(() => page.getByTestId('tray-region').count()).toBe(1);
    const before = saved();
    // The region is turned with the tray (to a degree), as the page draws it.
    expect(Math.abs((before.turn ?? 0) - FLOOR.turn)).toBeLessThan(1);
    expect(Number(await page.getByTestId('tray-region').getAttribute('data-turn'))).toBe(before.turn);
    const corners = trayCorners(before);

    // The bottom right corner (the tray's own), dragged along the tray's sides: in the frame, that move turned with the tray.
    const overlay = (await page.getByTestId('calibration-overlay').boundingBox())!;
    const toScreen = (p: { x: number; y: number }) => ({ x: overlay.x + (p.x / TRAY.width) * overlay.width, y: overlay.y + (p.y / TRAY.height) * overlay.height });
    const handle = (await page.getByTestId('tray-corner-2').boundingBox())!;
    // The handle is drawn on the corner.
    expect(near({ x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }, toScreen(corners[2]!))).toBeLessThan(2);
    const target = turnPoint({ x: corners[2]!.x + DRAG.along, y: corners[2]!.y + DRAG.across }, corners[2]!, before.turn ?? 0);
    const [from, to] = [toScreen(corners[2]!), toScreen(target)];
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2);
    await page.mouse.move(to.x, to.y);
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/setup/calibration/tray'));
    await page.mouse.up();
    expect((await sent).status()).toBe(200);

    const after = saved();
    expect(after.turn).toBe(before.turn);
    const moved = trayCorners(after);
    // Whole pixels of the region and of the screen's scale: within 2 px of where they should be.
    expect(near(moved[0]!, corners[0]!)).toBeLessThanOrEqual(2);
    expect(near(moved[2]!, target)).toBeLessThanOrEqual(2);
    // The sides shrank by the drag, in the tray's own axes.
    expect(Math.abs(after.width - (before.width + DRAG.along))).toBeLessThanOrEqual(2);
    expect(Math.abs(after.height - (before.height + DRAG.across))).toBeLessThanOrEqual(2);
    // The page draws what was saved.
    expect(await page.getByTestId('tray-region').getAttribute('data-region')).toBe(`${after.x},${after.y},${after.width},${after.height}`);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
