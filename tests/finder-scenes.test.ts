import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cv from '../src/hardware/opencv.js';
import { finderScene } from '../scripts/finder-scenes.js';

const SCRIPT = fileURLToPath(new URL('../scripts/finder-scenes.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

describe('finderScene', () => {
  it('gives the same image and labels for the same seed, whatever was made in between', () => {
    const first = finderScene(7);
    for (let seed = 100; seed < 103; seed++) finderScene(seed);
    const again = finderScene(7);
    expect(again.dice).toEqual(first.dice);
    expect(again.image.getData().equals(first.image.getData())).toBe(true);
    expect(finderScene(8).image.getData().equals(first.image.getData())).toBe(false);
  });

  it('makes BGR frames of the sizes asked for, with every box inside the frame and around its top face', () => {
    let dice = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { image, dice: labelled } = finderScene(seed);
      expect(image.type).toBe(cv.CV_8UC3);
      expect(Math.max(image.cols, image.rows)).toBeGreaterThanOrEqual(320);
      expect(Math.max(image.cols, image.rows)).toBeLessThanOrEqual(1600);
      expect(labelled.length).toBeLessThanOrEqual(30);
      for (const d of labelled) {
        const [x0, y0, x1, y1] = d.box;
        expect(Number.isInteger(x0) && Number.isInteger(y0) && Number.isInteger(x1) && Number.isInteger(y1)).toBe(true);
        expect(x0).toBeGreaterThanOrEqual(0);
        expect(y0).toBeGreaterThanOrEqual(0);
        expect(x1).toBeLessThanOrEqual(image.cols);
        expect(y1).toBeLessThanOrEqual(image.rows);
        expect(x1).toBeGreaterThan(x0);
        expect(y1).toBeGreaterThan(y0);
        expect(d.value).toBeGreaterThanOrEqual(1);
        expect(d.value).toBeLessThanOrEqual(6);
        expect(d.top.size).toBeGreaterThan(5);
        // A top face's centre inside the frame lies in its die's box (give or take the rounding).
        if (d.top.x >= 0 && d.top.y >= 0 && d.top.x < image.cols && d.top.y < image.rows) {
          expect(d.top.x).toBeGreaterThanOrEqual(x0 - 1);
          expect(d.top.x).toBeLessThanOrEqual(x1 + 1);
          expect(d.top.y).toBeGreaterThanOrEqual(y0 - 1);
          expect(d.top.y).toBeLessThanOrEqual(y1 + 1);
        }
      }
      dice += labelled.length;
    }
    expect(dice).toBeGreaterThan(40);
  });
});

describe('scripts/finder-scenes.ts', () => {
  it('writes the scenes and their labels as a photo set', { timeout: 60_000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'finder-scenes-')), 'set');
    let stderr = '';
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(TSX, [SCRIPT, '--out', out, '--count', '3', '--seed', '11'], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', resolve);
    });
    expect(code, stderr).toBe(0);
    const labels = JSON.parse(readFileSync(join(out, 'labels.json'), 'utf8')) as {
      source: Record<string, string>;
      images: Array<{ file: string; width: number; height: number; dice: Array<{ value: number; box: number[] }>; unflat: number[][] }>;
    };
    expect(labels.source).toEqual({ repo: 'dice-tower/simulator', commit: '', license: 'MIT', attribution: 'synthetic' });
    expect(labels.images.map((i) => i.file)).toEqual(['images/scene-11.jpg', 'images/scene-12.jpg', 'images/scene-13.jpg']);
    for (const [i, image] of labels.images.entries()) {
      expect(existsSync(join(out, image.file))).toBe(true);
      const scene = finderScene(11 + i);
      expect([image.width, image.height]).toEqual([scene.image.cols, scene.image.rows]);
      expect(image.dice).toEqual(scene.dice.filter((d) => d.flat).map((d) => ({ value: d.value, box: d.box })));
      expect(image.unflat).toEqual(scene.dice.filter((d) => !d.flat).map((d) => d.box));
      // The JPEG written is the scene's own image.
      expect(cv.imread(join(out, image.file)).getData().equals(scene.image.getData())).toBe(true);
    }
  });
});
