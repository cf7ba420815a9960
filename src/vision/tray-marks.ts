/**
 * The tray's own marks (`TrayMark`: a printed logo, a stain, a screw head, as
 * the calibration's empty-tray shot shows them, cell by cell) and the rim's
 * corners, in a frame: the cells of each mark that look as they did in the
 * empty tray are cleared from the foreground mask (`clearUntouchedMarks`); a
 * moved camera is told by where the marks lie now (`markMovedBy`,
 * `cameraMovedBy`); and the share of a die's box over marks of its own colour
 * is measured (`ownColourShare`). In: a BGR frame, the calibrated marks, a
 * die's box and colour; out: the mask cleared in place, offsets, shares.
 */
import cv from '../hardware/opencv.js';
import { colourDistance, type Lab } from './palette.js';
import type { Point } from './types.js';
import type { Region } from './validity.js';
import { BLACK, median, Scratch } from './mats.js';

/** Something on the empty tray's floor that stands out from it as a die or a pip would (a printed logo, a stain, a screw head), as the calibration's empty-tray shot shows it: its upright box and its area in the foreground mask, frame pixels, and how its box looks. */
export interface TrayMark extends Region {
  readonly area: number;
  /** Mean colour of each cell of the box, squares of about 16 pixels, row by row, in the empty tray (`cellColours`). */
  readonly cells: readonly Lab[];
}

// A tray mark's box is cut into cells, squares of about this many pixels (a die's pip fills about a third of one on dice 64 px
// wide, as the simulated tower sees them; a seventh on dice 40 px wide). A cell whose mean colour is within this weighted Lab
// distance of the empty tray's (lightness counting half, as room light and a die's shadow change it) shows the mark untouched:
// it is floor. A die lying on or in a mark changes the cells it covers (by its body, or, on a mark of its own colour, by its
// pips), and they stay foreground.
const TRAY_MARK_CELL = 16;
const TRAY_MARK_COLOUR = 15;
const TRAY_MARK_LIGHTNESS = 0.5;
// How far (pixels, each way) a mark is looked for from where the calibration saw it: a camera knocked, or settling on its mount.
// A mark moved by a pixel or two changes the cells along its edges by more than a third of `TRAY_MARK_COLOUR` (its edges would be
// left in the mask), so below that the mark is taken where it was, and above it is looked for.
export const TRAY_MARK_REACH = 6;
const TRAY_MARK_STILL = TRAY_MARK_COLOUR / 3;
// When a roll is refused, the tray's marks are looked for this far, to tell a moved camera: every 8 pixels, then every 4 and
// every 2 around the best. A mark is found moved only where it fits clearly better than 8 pixels or more away (a line of wood
// grain or a scratch fits all along itself), and the camera only when two marks or more are found moved alike (`cameraMovedBy`).
const TRAY_MARK_LOOK = 48;
// A rim's corner moved further than this (pixels) has brought the rim into the calibrated region, which lies about 4 pixels
// inside a rim square to the camera (calibrate.ts): the rolls are refused for it, and the camera is named.
export const TRAY_CORNER_STILL = 4;
// How many marks (the largest) are looked for so: each takes 1-4 ms.
export const TRAY_MARKS_LOOKED_FOR = 6;
const TRAY_MARK_APART = 8;

/** How many cells a tray mark's box is cut into across and down. */
function markGrid(box: Region): { across: number; down: number } {
  return { across: Math.max(1, Math.ceil(box.width / TRAY_MARK_CELL)), down: Math.max(1, Math.ceil(box.height / TRAY_MARK_CELL)) };
}

/** The number of cells `cellColours` gives for a tray mark's box. */
export function markCells(box: Region): number {
  const { across, down } = markGrid(box);
  return across * down;
}

/** The mean colour of each cell of a tray mark's box (row by row) in a BGR frame. */
export function cellColours(image: cv.Mat, box: Region): Lab[] {
  const inside = box.x >= 0 && box.y >= 0 && box.width >= 1 && box.height >= 1 && box.x + box.width <= image.cols && box.y + box.height <= image.rows;
  if (!inside) throw new RangeError(`the tray mark's box ${box.width}x${box.height} at (${box.x}, ${box.y}) is not inside the ${image.cols}x${image.rows} frame`);
  const scratch = new Scratch();
  try {
    // Only the box is turned into Lab.
    return colourCells(scratch.add(scratch.add(image.getRegion(new cv.Rect(box.x, box.y, box.width, box.height))).cvtColor(cv.COLOR_BGR2Lab)), markGrid(box));
  } finally {
    scratch.release();
  }
}

/** The mean colour of each of `across` x `down` equal cells of a Lab patch, row by row (area averaging: one native call). */
function colourCells(lab: cv.Mat, { across, down }: { across: number; down: number }): Lab[] {
  const cells = lab.resize(down, across, 0, 0, cv.INTER_AREA);
  const data = cells.getData();
  cells.release();
  return Array.from({ length: across * down }, (_, k) => ({ L: ((data[3 * k] as number) * 100) / 255, a: (data[3 * k + 1] as number) - 128, b: (data[3 * k + 2] as number) - 128 }));
}

/**
 * Step 1d': clears from the foreground mask (in place) each cell of the tray's
 * marks that looks as it did in the empty tray: the mark's untouched parts
 * are floor, and a die lying on a mark or pressed against it keeps the cells
 * it changes. The camera may have moved a few pixels since the calibration:
 * a mark whose cells are not all as they were is looked for at offsets up to
 * `TRAY_MARK_REACH`, and its cells are judged where it fits best.
 */
export function clearUntouchedMarks(image: cv.Mat, mask: cv.Mat, marks: readonly TrayMark[]): void {
  for (const mark of marks) {
    const grid = markGrid(mark);
    // A calibration file edited by hand may hold a mark whose cells do not fit its box: that mark is not trusted.
    if (grid.across * grid.down !== mark.cells.length) continue;
    const scratch = new Scratch();
    try {
      const fitAt = markFitter(image, mark, grid, TRAY_MARK_REACH, scratch);
      let best = fitAt(0, 0);
      if (best === null) continue;
      if (best.worst > TRAY_MARK_STILL) {
        // Every second offset: a mark found a pixel off changes its cells little, and its cells are cleared a pixel wider.
        for (let dy = -TRAY_MARK_REACH; dy <= TRAY_MARK_REACH; dy += 2) {
          for (let dx = -TRAY_MARK_REACH; dx <= TRAY_MARK_REACH; dx += 2) {
            const tried = fitAt(dx, dy);
            if (tried && tried.fit < best.fit) best = tried;
          }
        }
      }
      clearCells(mask, mark, grid, best);
    } finally {
      scratch.release();
    }
  }
}

interface MarkFit {
  readonly dx: number;
  readonly dy: number;
  /** Each cell's distance from the empty tray's. */
  readonly distances: readonly number[];
  /** The largest of them. */
  readonly worst: number;
  /** How well the mark fits there, lower is better: the more cells untouched, and the closer, the better (a die on a mark changes some cells wherever the mark is taken to be). */
  readonly fit: number;
}

/**
 * Measures a mark moved by (dx, dy), up to `reach` each way (null beyond the
 * frame): the mark's box and the reach around it are turned into Lab once,
 * shrunk `shrink` times first when given (a coarse look: cells measured on
 * the shrunk copy, placed to the nearest of its pixels).
 */
function markFitter(image: cv.Mat, mark: TrayMark, grid: { across: number; down: number }, reach: number, scratch: Scratch, shrink = 1): (dx: number, dy: number) => MarkFit | null {
  const [left, top] = [Math.max(0, mark.x - reach), Math.max(0, mark.y - reach)];
  const width = Math.min(image.cols, mark.x + mark.width + reach) - left;
  const height = Math.min(image.rows, mark.y + mark.height + reach) - top;
  const region = scratch.add(image.getRegion(new cv.Rect(left, top, width, height)));
  const shrunk = shrink === 1 ? region : scratch.add(region.resize(Math.max(1, Math.round(height / shrink)), Math.max(1, Math.round(width / shrink)), 0, 0, cv.INTER_AREA));
  const lab = scratch.add(shrunk.cvtColor(cv.COLOR_BGR2Lab));
  const [boxWidth, boxHeight] = [Math.max(1, Math.round(mark.width / shrink)), Math.max(1, Math.round(mark.height / shrink))];
  return (dx, dy) => {
    const [x, y] = [Math.round((mark.x + dx - left) / shrink), Math.round((mark.y + dy - top) / shrink)];
    if (x < 0 || y < 0 || x + boxWidth > lab.cols || y + boxHeight > lab.rows) return null;
    const now = colourCells(scratch.add(lab.getRegion(new cv.Rect(x, y, boxWidth, boxHeight))), grid);
    const distances = mark.cells.map((then, k) => colourDistance(then, now[k] as Lab, TRAY_MARK_LIGHTNESS));
    return { dx, dy, distances, worst: Math.max(...distances), fit: distances.reduce((sum, d) => sum + Math.min(d, 2 * TRAY_MARK_COLOUR), 0) };
  };
}

/**
 * Where a mark that does not fit within `still` (`TRAY_MARK_REACH`) lies, when it lies
 * further (up to `TRAY_MARK_LOOK`) and fits there clearly better than
 * `TRAY_MARK_APART` or more from it (at the first, coarse offsets); else null
 * (a die on it, or a mark too plain to place).
 */
export function markMovedBy(image: cv.Mat, mark: TrayMark, still = TRAY_MARK_REACH): Point | null {
  const grid = markGrid(mark);
  const scratch = new Scratch();
  try {
    // The coarse look on a copy shrunk 4 times (an 8-pixel step is 2 of its pixels): at full size a 154-pixel mark took 9 ms.
    const coarseAt = markFitter(image, mark, grid, TRAY_MARK_LOOK, scratch, 4);
    const fitAt = markFitter(image, mark, grid, TRAY_MARK_LOOK, scratch);
    const coarse: MarkFit[] = [];
    for (let dy = -TRAY_MARK_LOOK; dy <= TRAY_MARK_LOOK; dy += TRAY_MARK_APART) {
      for (let dx = -TRAY_MARK_LOOK; dx <= TRAY_MARK_LOOK; dx += TRAY_MARK_APART) {
        const tried = coarseAt(dx, dy);
        if (tried) coarse.push(tried);
      }
    }
    const roughly = coarse.reduce<MarkFit | null>((b, f) => (b === null || f.fit < b.fit ? f : b), null);
    let best = roughly && fitAt(roughly.dx, roughly.dy);
    if (!best) return null;
    for (const step of [4, 2]) {
      const around = best;
      for (let dy = -step; dy <= step; dy += step) {
        for (let dx = -step; dx <= step; dx += step) {
          const tried = fitAt(around.dx + dx, around.dy + dy);
          if (tried && tried.fit < best.fit) best = tried;
        }
      }
    }
    const found = best;
    if (Math.max(Math.abs(found.dx), Math.abs(found.dy)) <= still) return null;
    // Best at the edge of what can be looked at (the frame's edge, or the farthest look) may be best only there: a rim's corner
    // near the frame's top, moved further up than its box can follow, fitted best at the last offset inside (4 px off).
    const beside = [{ dx: -2, dy: 0 }, { dx: 2, dy: 0 }, { dx: 0, dy: -2 }, { dx: 0, dy: 2 }];
    if (beside.some(({ dx, dy }) => fitAt(found.dx + dx, found.dy + dy) === null)) return null;
    // Placed: at every offset 8 pixels or more away, some cell differs clearly (by a third of the colour bound, and by twice as much
    // as any cell differs at the best).
    const elsewhere = Math.max(TRAY_MARK_STILL, 2 * found.worst);
    const apart = (f: MarkFit) => Math.max(Math.abs(f.dx - found.dx), Math.abs(f.dy - found.dy)) >= TRAY_MARK_APART;
    return coarse.every((f) => !apart(f) || f.worst > elsewhere) ? { x: found.dx, y: found.dy } : null;
  } finally {
    scratch.release();
  }
}

/**
 * How far the camera has moved since the calibration, as the tray's marks
 * and its rim's corners show it (frame pixels the tray appears shifted by), or null: two marks or
 * more found beyond reach (`markMovedBy`), all within 4 pixels of their
 * median offset. One mark found elsewhere may be a like mark beside it.
 */
export function cameraMovedBy(moved: readonly Point[]): Point | null {
  if (moved.length < 2) return null;
  const at = { x: median(moved.map((p) => p.x)), y: median(moved.map((p) => p.y)) };
  return moved.every((p) => Math.max(Math.abs(p.x - at.x), Math.abs(p.y - at.y)) <= 4) ? at : null;
}

// A die of a mark's colour on it or beside it is not told from the mark: only its pips stand out, and the part of it seen reads
// as a part of its value. Such a die is left unreadable when more than `TRAY_MARK_OWN` of its box, grown about its centre to
// `TRAY_MARK_BESIDE` times the frame's median die, lies over cells of a mark within `TRAY_MARK_COLOUR` of its body's colour. On
// the test floor without this, black dice swept over its dark square and logo were read wrong in 21 of 1 130 rolls taken as
// valid. Single black dice thrown near the marks: the parts read wrong at 0.13-0.58 (0.09 with the box not grown), those read
// right at 0-0.5; dice of other colours at 0.
export const TRAY_MARK_BESIDE = 1.5;
export const TRAY_MARK_OWN = 0.1;

/** 8 x 8 points spread over a die's box, grown about its centre to `size` when smaller. */
function pointsOver(box: readonly Point[], size: number): Point[] {
  const [a, b, c, d] = box as [Point, Point, Point, Point];
  const centre = { x: (a.x + c.x) / 2, y: (a.y + c.y) / 2 };
  const side = Math.min(Math.hypot(b.x - a.x, b.y - a.y), Math.hypot(d.x - a.x, d.y - a.y));
  const grow = Math.max(1, size / Math.max(1, side));
  const points: Point[] = [];
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      const [u, v] = [(i + 0.5) / 8, (j + 0.5) / 8];
      points.push({ x: centre.x + grow * (a.x + (b.x - a.x) * u + (d.x - a.x) * v - centre.x), y: centre.y + grow * (a.y + (b.y - a.y) * u + (d.y - a.y) * v - centre.y) });
    }
  }
  return points;
}

const inRegion = (p: Point, r: Region) => p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height;

/**
 * The share of a die's box, grown about its centre to `size` when smaller,
 * over cells of the tray's marks whose empty-tray colour is within
 * `TRAY_MARK_COLOUR` of the die's body: there the die is not told from the
 * mark, and the reader sees only its pips.
 */
export function ownColourShare(box: readonly Point[], body: Lab, size: number, marks: readonly TrayMark[]): number {
  const alike = (p: Point) =>
    marks.some((mark) => {
      if (!inRegion(p, mark)) return false;
      const { across, down } = markGrid(mark);
      const cell = mark.cells[Math.min(down - 1, Math.floor(((p.y - mark.y) * down) / mark.height)) * across + Math.min(across - 1, Math.floor(((p.x - mark.x) * across) / mark.width))];
      return cell !== undefined && colourDistance(cell, body, TRAY_MARK_LIGHTNESS) <= TRAY_MARK_COLOUR;
    });
  return pointsOver(box, size).filter(alike).length / 64;
}

/** Clears from the mask the cells of a mark moved by (dx, dy) whose distance is within `TRAY_MARK_COLOUR`. */
function clearCells(mask: cv.Mat, box: Region, { across, down }: { across: number; down: number }, moved: { dx: number; dy: number; distances: readonly number[] }): void {
  const edgeX = (k: number) => box.x + moved.dx + Math.round((box.width * k) / across);
  const edgeY = (k: number) => box.y + moved.dy + Math.round((box.height * k) / down);
  const distance = (row: number, col: number) => (row >= 0 && row < down && col >= 0 && col < across ? (moved.distances[row * across + col] as number) : 0);
  // With the mark where it was, a cell changed a little beside one a die covers is the die's edge over part of it: kept, or the
  // die would lose that strip (a green 6 half on the dark logo lost its lower row of pips and read as a 3). A mark found moved
  // changes the cells along its edges a little too: there it is not told from a die's edge.
  const inPlace = moved.dx === 0 && moved.dy === 0;
  const touched = (row: number, col: number) => inPlace && [-1, 0, 1].some((dr) => [-1, 0, 1].some((dc) => distance(row + dr, col + dc) > TRAY_MARK_COLOUR));
  for (let row = 0; row < down; row++) {
    // Each run of untouched cells along a row at once, a pixel more on each side (the mark found a pixel off, or moved by a fraction of one).
    let from: number | null = null;
    for (let col = 0; col <= across; col++) {
      const d = distance(row, col);
      const untouched = col < across && d <= TRAY_MARK_COLOUR && !(d > TRAY_MARK_STILL && touched(row, col));
      if (untouched && from === null) from = col;
      if (untouched || from === null) continue;
      mask.drawRectangle(new cv.Rect(edgeX(from) - 1, edgeY(row) - 1, edgeX(col) - edgeX(from) + 2, edgeY(row + 1) - edgeY(row) + 2), BLACK, -1);
      from = null;
    }
  }
}

/**
 * How far the camera has moved since the calibration, told by the largest
 * marks (the surest to place) and the rim's corners (a tray with no marks, or
 * one, has them: a rim's straight side alone fits all along itself); null
 * when not seen to have moved. Costs a search per mark: the reader looks only
 * when a roll is refused (a moved camera's marks are left in what it sees).
 */
export function cameraMovedIn(image: cv.Mat, trayMarks: readonly TrayMark[], trayCorners: readonly TrayMark[]): Point | null {
  const marks = [...trayMarks].sort((p, q) => q.area - p.area).slice(0, TRAY_MARKS_LOOKED_FOR);
  const looks = [...marks.map((mark) => ({ mark, still: TRAY_MARK_REACH })), ...trayCorners.map((mark) => ({ mark, still: TRAY_CORNER_STILL }))];
  return looks.length >= 2 ? cameraMovedBy(looks.flatMap(({ mark, still }) => markMovedBy(image, mark, still) ?? [])) : null;
}
