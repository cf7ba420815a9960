/**
 * A copy of the frame with every die outlined and labelled (value, colour,
 * big), and the reading's first problem written across the top: what
 * `dice-tower read --annotate` writes, for people checking the reader.
 */
import cv from '../hardware/opencv.js';
import type { DiceReading, DieReading } from './types.js';

const GREEN = new cv.Vec3(60, 220, 60);
const RED = new cv.Vec3(40, 40, 235);
const WHITE = new cv.Vec3(255, 255, 255);
const BLACK = new cv.Vec3(0, 0, 0);

/** The label of a die: its value (? when unreadable), colour and, when known to be big, "big". */
export function dieLabel(d: DieReading): string {
  return [d.value ?? '?', d.colour, d.colourConfident === false ? '(unsure)' : '', d.sizeClass === 'big' ? 'big' : ''].filter(Boolean).join(' ');
}

/** Text with a dark outline, readable on any tray. */
function label(image: cv.Mat, text: string, x: number, y: number, scale: number, colour: cv.Vec3): void {
  const at = new cv.Point2(Math.round(x), Math.round(y));
  image.putText(text, at, cv.FONT_HERSHEY_SIMPLEX, scale, BLACK, 4, cv.LINE_AA);
  image.putText(text, at, cv.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv.LINE_AA);
}

/** Draws the reading onto a copy of `image` (BGR). Dice the reading doubts are outlined in red. */
export function annotate(image: cv.Mat, reading: DiceReading): cv.Mat {
  const out = image.copy();
  const scale = Math.max(0.4, Math.min(1.2, image.cols / 1600));
  for (const d of reading.dice) {
    const doubtful = d.value === null || d.colourConfident === false || reading.issues?.some((i) => i.at && Math.hypot(i.at.x - d.center.x, i.at.y - d.center.y) < d.size / 2);
    const colour = doubtful ? RED : GREEN;
    out.drawPolylines([d.box.map((p) => new cv.Point2(Math.round(p.x), Math.round(p.y)))], true, colour, 2, cv.LINE_AA);
    const top = Math.min(...d.box.map((p) => p.y));
    const bottom = Math.max(...d.box.map((p) => p.y));
    // Above the die, or below it when it lies at the top of the frame.
    label(out, dieLabel(d), d.center.x - d.size / 2, top > 30 * scale + 40 ? top - 6 : bottom + 24 * scale, scale, colour);
  }
  for (const issue of reading.issues ?? []) {
    if (issue.at && !reading.dice.some((d) => Math.hypot(issue.at!.x - d.center.x, issue.at!.y - d.center.y) < d.size / 2)) {
      out.drawCircle(new cv.Point2(Math.round(issue.at.x), Math.round(issue.at.y)), 12, RED, 2, cv.LINE_AA);
    }
  }
  const status = reading.valid ? `valid: ${reading.dice.length} dice` : `INVALID: ${reading.problems[0] ?? ''}`;
  label(out, status, 10, 30 * scale + 8, scale, reading.valid ? WHITE : RED);
  return out;
}
