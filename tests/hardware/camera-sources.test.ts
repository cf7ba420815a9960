import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cv from '../../src/hardware/opencv.js';
import { isCameraDevice, openFolderCamera, openVideoCamera, refusedSettings } from '../../src/hardware/camera-sources.js';
import { openVideoSource } from '../../src/hardware/video-capture.js';
import type { CameraRequest } from '../../src/hardware/camera-process.js';
import { buffersHeldAfter } from '../opencv-buffers.js';

// Every camera process started, to kill one as a crashing driver would.
const forked = vi.hoisted(() => [] as ChildProcess[]);
vi.mock('node:child_process', async (actual) => {
  const real = await actual<typeof import('node:child_process')>();
  return {
    ...real,
    fork: (...args: Parameters<typeof real.fork>) => {
      const child = real.fork(...args);
      forked.push(child);
      return child;
    },
  };
});

let dir: string;

/** A frame whose blue level tells which one it is. */
const numbered = (i: number) => new cv.Mat(240, 320, cv.CV_8UC3).setTo(new cv.Vec3(40 * i, 80, 120));
const blueOf = (jpeg: Buffer) => (cv.imdecode(jpeg).at(120, 160) as unknown as { x: number }).x;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dice-tower-camera-'));
  const video = new cv.VideoWriter(join(dir, 'roll.avi'), cv.VideoWriter.fourcc('MJPG'), 10, new cv.Size(320, 240));
  for (let i = 0; i < 4; i++) video.write(numbered(i));
  video.release();
  for (let i = 0; i < 3; i++) cv.imwrite(join(dir, `frame-${i}.png`), numbered(i));
  writeFileSync(join(dir, 'notes.txt'), 'not an image');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('video camera (VideoCapture, in a process of its own)', () => {
  it('replays a video file frame by frame as JPEG frames, then reports the end', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const frame = await camera.capture();
      expect([frame.width, frame.height]).toEqual([320, 240]);
      seen.push(blueOf(frame.image));
    }
    // MJPG is lossy: the levels come back within a few steps.
    seen.forEach((b, i) => expect(Math.abs(b - 40 * i)).toBeLessThan(8));
    await expect(camera.capture()).rejects.toMatchObject({ code: 'camera/no_frame' });
    await camera.close();
  });

  it('stamps a video file\'s frames with its own clock (10 frames a second: 100 ms apart, however fast they are read)', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    const times: number[] = [];
    for (let i = 0; i < 4; i++) times.push((await camera.capture()).capturedAt);
    await camera.close();
    for (let i = 1; i < 4; i++) expect(Math.abs((times[i] as number) - (times[i - 1] as number) - 100)).toBeLessThan(1);
  });

  it('starts a video file\'s clock again from the time it is opened again after its end, not in the past', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    let last = 0;
    for (let i = 0; i < 4; i++) last = (await camera.capture()).capturedAt;
    await expect(camera.capture()).rejects.toMatchObject({ code: 'camera/no_frame' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = (await camera.capture()).capturedAt;
    await camera.close();
    expect(again).toBeGreaterThan(last - 300);
    expect(again).toBeGreaterThan(Date.now() - 1000);
  });

  it('says which fixed settings the driver refused (a video file takes neither)', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi'), exposure: 100, whiteBalance: 4000 });
    expect(camera.settings).toEqual({ exposure: false, whiteBalance: false });
    expect(refusedSettings({ exposure: 100, whiteBalance: 4000 }, camera)).toEqual([
      'the camera did not take the fixed exposure 100: it stays automatic',
      'the camera did not take the fixed white balance 4000 K: it stays automatic',
    ]);
    // Not asked for, not refused.
    expect(refusedSettings({ exposure: null }, camera)).toEqual([]);
    await camera.close();
  });

  it('sets the fixed settings on an open camera through its process, says what the driver took, and goes on capturing', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    const first = await camera.capture();
    expect(await camera.adjust({ exposure: 250, whiteBalance: 4500 })).toEqual({ exposure: false, whiteBalance: false });
    expect(camera.settings).toEqual({ exposure: false, whiteBalance: false });
    expect(refusedSettings({ exposure: 250, whiteBalance: null }, camera)).toEqual(['the camera did not take the fixed exposure 250: it stays automatic']);
    // Back to automatic: nothing fixed, nothing refused.
    expect(await camera.adjust({ exposure: null, whiteBalance: null })).toEqual({ exposure: false, whiteBalance: false });
    const next = await camera.capture();
    expect(next.capturedAt).toBeGreaterThan(first.capturedAt);
    await camera.close();
  });

  it('takes /dev/videoN and the stable names under /dev/v4l/ for camera devices, anything else for a video file', () => {
    for (const device of [0, 2, '/dev/video0', '/dev/v4l/by-id/usb-Logitech_C920-video-index0', '/dev/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0']) expect(isCameraDevice(device)).toBe(true);
    for (const file of ['roll.avi', '/home/me/roll.mp4', '/dev/shm/roll.mp4']) expect(isCameraDevice(file)).toBe(false);
  });

  it('rejects a capture in progress when the camera is closed, and the closed camera\'s process ends by itself', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    const child = forked.at(-1) as ChildProcess;
    // The capture is sent and its answer never comes: it is under way when the camera is closed.
    const send = child.send.bind(child);
    const sent = vi.spyOn(child, 'send').mockImplementation(((message: CameraRequest) => message.kind === 'capture' || send(message)) as typeof child.send);
    const outcome = camera.capture().catch((err: unknown) => err);
    await vi.waitFor(() => expect(sent).toHaveBeenCalledWith({ kind: 'capture', id: 0 }));
    await camera.close();
    expect(await outcome).toMatchObject({ code: 'camera/lost', message: expect.stringContaining('was closed') });
    // It ended when asked (the video freed), not killed after CLOSE_WAIT_MS.
    expect([child.exitCode, child.signalCode]).toEqual([0, null]);
    await expect(camera.capture()).rejects.toMatchObject({ code: 'camera/lost', message: expect.stringContaining('was closed') });
    await camera.close();
  });

  it('keeps the server answering while a camera takes its time to open, and gives the camera up as hung after openTimeoutMs', async () => {
    // Opening a FIFO blocks until something writes to it, as a hung V4L2 device blocks its open.
    const fifo = join(dir, 'slow-camera');
    execFileSync('mkfifo', [fifo]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const opening = openVideoCamera({ source: fifo, openTimeoutMs: 3000 }).catch((err: unknown) => err);
    try {
      await expect.poll(() => ticks, { timeout: 3000 }).toBeGreaterThanOrEqual(20);
    } finally {
      clearInterval(ticker);
    }
    expect(await opening).toMatchObject({ code: 'camera/not_found', message: `camera ${fifo} did not open within 3 s: its driver hangs (unplug it and plug it back)` });
    // Its process, blocked in the open, is killed.
    const child = forked.at(-1) as ChildProcess;
    await vi.waitFor(() => expect(child.signalCode).toBe('SIGKILL'));
  });

  it('closed while it opens the camera again, fails the capture waiting on it and kills the process blocked in the open', async () => {
    const video = join(dir, 'reopened.avi');
    copyFileSync(join(dir, 'roll.avi'), video);
    const camera = await openVideoCamera({ source: video });
    const first = forked.at(-1) as ChildProcess;
    first.kill('SIGKILL'); // the driver crashed
    await vi.waitFor(() => expect(first.signalCode).toBe('SIGKILL'));
    // The camera is back as one whose open hangs.
    rmSync(video);
    execFileSync('mkfifo', [video]);
    const outcome = camera.capture().catch((err: unknown) => err);
    await vi.waitFor(() => expect(forked.at(-1)).not.toBe(first));
    const reopening = forked.at(-1) as ChildProcess;
    await camera.close();
    expect(await outcome).toMatchObject({ code: 'camera/lost', message: expect.stringContaining('was closed') });
    expect(reopening.signalCode).toBe('SIGKILL');
  });

  it('opens the camera again in a new process when its process dies, after failing the capture it owed', async () => {
    const camera = await openVideoCamera({ source: join(dir, 'roll.avi') });
    const pending = camera.capture();
    // Killed as the capture is asked for (as when the driver crashes).
    forked.at(-1)?.kill('SIGKILL');
    await expect(pending).rejects.toMatchObject({ code: 'camera/lost', message: expect.stringContaining('process stopped') });
    // Opened again, from the video's start.
    expect(Math.round(blueOf((await camera.capture()).image) / 40)).toBe(0);
    await camera.close();
  });

  it('names the camera it cannot open', async () => {
    await expect(openVideoCamera({ source: join(dir, 'missing.avi') })).rejects.toMatchObject({ code: 'camera/not_found', message: expect.stringMatching(/missing\.avi does not exist/) });
    await expect(openVideoCamera({ source: '/dev/video97' })).rejects.toMatchObject({ code: 'camera/not_found', message: expect.stringMatching(/video97 does not exist/) });
  });
});

describe('video source (the camera process\'s reads)', () => {
  it('opens a device again within the capture when its old handle reads nothing (unplugged and plugged back), and says when it cannot', () => {
    // A modelled V4L2 device: a handle opened before an unplug reads empty frames; opening fails while it is unplugged (the binding throws a string).
    let generation = 0;
    let plugged = true;
    const opened: number[] = [];
    const released: number[] = [];
    class FakeDevice {
      readonly generation = generation;
      constructor() {
        if (!plugged) throw 'VideoCapture::New - failed to open capture';
        opened.push(this.generation);
      }
      set() {
        return false;
      }
      get() {
        return 0;
      }
      read() {
        return this.generation === generation && plugged ? numbered(2) : new cv.Mat();
      }
      release() {
        released.push(this.generation);
      }
    }
    const real = cv.VideoCapture;
    (cv as { VideoCapture: unknown }).VideoCapture = FakeDevice;
    try {
      const source = openVideoSource({ source: 0 });
      expect(Math.round(blueOf(source.capture().image) / 40)).toBe(2);
      generation++; // unplugged and plugged back
      expect(Math.round(blueOf(source.capture().image) / 40)).toBe(2);
      expect(opened).toEqual([0, 1]);
      expect(released).toEqual([0]);
      plugged = false;
      generation++;
      expect(() => source.capture()).toThrow(expect.objectContaining({ code: 'camera/not_found', message: expect.stringContaining('camera 0 cannot be opened: unplugged, or in use by another program') }));
      source.close();
      expect(released).toEqual([0, 1]);
      expect(() => source.capture()).toThrow(expect.objectContaining({ code: 'camera/lost', message: expect.stringContaining('was closed') }));
    } finally {
      (cv as { VideoCapture: unknown }).VideoCapture = real;
    }
  });
});

describe('folder camera', () => {
  it('replays the images of a folder in name order, and loops', async () => {
    const camera = openFolderCamera(dir);
    const levels = [];
    for (let i = 0; i < 4; i++) levels.push(blueOf((await camera.capture()).image));
    expect(levels.map((b) => Math.round(b / 40))).toEqual([0, 1, 2, 0]);
  });

  it('stops at the end when not looping, and refuses a folder without images', async () => {
    const camera = openFolderCamera(dir, false);
    for (let i = 0; i < 3; i++) await camera.capture();
    await expect(camera.capture()).rejects.toMatchObject({ code: 'camera/no_frame' });
    const empty = mkdtempSync(join(tmpdir(), 'dice-tower-empty-'));
    expect(() => openFolderCamera(empty)).toThrow(/holds no images/);
    expect(() => openFolderCamera(join(dir, 'nope'))).toThrow(/cannot read the image folder/);
    rmSync(empty, { recursive: true });
  });
});

describe('a replayed folder with a broken image', () => {
  it.each([
    ['empty', () => Buffer.alloc(0), 'it is empty (0 bytes)'],
    ['cut short', () => cv.imencode('.jpg', numbered(1)).subarray(0, 300), 'the JPEG data stops before its end'],
    ['not an image', () => Buffer.from('these are not pixels'), 'OpenCV cannot decode it'],
  ] as const)('fails the capture with camera/no_frame, naming the file and the problem (%s)', async (_, bytes, problem) => {
    const folder = mkdtempSync(join(tmpdir(), 'dice-tower-broken-'));
    writeFileSync(join(folder, 'a.jpg'), bytes());
    const camera = openFolderCamera(folder);
    await expect(camera.capture()).rejects.toMatchObject({ code: 'camera/no_frame', message: expect.stringContaining(`${join(folder, 'a.jpg')} is not a readable image: ${problem}`) });
    rmSync(folder, { recursive: true });
  });
});

describe('capturing frees every OpenCV buffer it allocates (a live camera captures 30 a second)', () => {
  it('a video camera (its process\'s reads), dropping a stale frame before each', async () => {
    const source = openVideoSource({ source: join(dir, 'roll.avi'), staleFrames: 1 });
    source.capture();
    expect(await buffersHeldAfter(() => source.capture())).toBe(0);
    source.close();
  });

  it('a folder of images', async () => {
    const camera = openFolderCamera(dir);
    await camera.capture();
    expect(await buffersHeldAfter(() => camera.capture())).toBe(0);
  });
});
