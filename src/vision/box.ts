/**
 * A die's box in the frame, as the finding gives it and the face reading
 * takes it (`Blob`): a rotated rectangle, its corners in order around it and
 * its mean side (`toBlob`, `corners`), and whether a point lies inside such a
 * box (`contains`). Pure geometry: rectangles and points in, boxes and
 * answers out.
 */
import cv from '../hardware/opencv.js';
import type { Point } from './types.js';

/** Corners of a rotated rectangle, in order around it. */
export function corners(rect: cv.RotatedRect): Point[] {
  const rad = (rect.angle * Math.PI) / 180;
  const ux = { x: (Math.cos(rad) * rect.size.width) / 2, y: (Math.sin(rad) * rect.size.width) / 2 };
  const uy = { x: (-Math.sin(rad) * rect.size.height) / 2, y: (Math.cos(rad) * rect.size.height) / 2 };
  const c = rect.center;
  return [
    { x: c.x - ux.x - uy.x, y: c.y - ux.y - uy.y },
    { x: c.x + ux.x - uy.x, y: c.y + ux.y - uy.y },
    { x: c.x + ux.x + uy.x, y: c.y + ux.y + uy.y },
    { x: c.x - ux.x + uy.x, y: c.y - ux.y + uy.y },
  ];
}

export interface Blob {
  readonly rect: cv.RotatedRect;
  readonly box: Point[];
  readonly size: number;
  /** Share of its box the blob fills (1 for parts of split blobs); a die lying on another fills less. */
  readonly fill?: number;
  /** Cut out of a cluster at colour seams: its box is less sure (it may hold part of a neighbour), so only a pip count the classifier confirms reads it. */
  readonly seamCut?: boolean;
  /** Found by its pips alone (`diceByPips`): kept only when the pips are counted clearly and the classifier is sure of the same value. */
  readonly byPips?: boolean;
}

/** A blob of a rotated rectangle: its corners as the box, its mean side as the size. */
export function toBlob(rect: cv.RotatedRect): Blob {
  return { rect, box: corners(rect), size: (rect.size.width + rect.size.height) / 2 };
}

/** Whether a point lies inside a convex polygon (corners in order around it). */
export function contains(box: readonly Point[], p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < box.length; i++) {
    const a = box[i] as Point;
    const b = box[(i + 1) % box.length] as Point;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}
