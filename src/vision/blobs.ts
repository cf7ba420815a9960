/**
 * Finding the dice through the foreground mask: the tray floor under each
 * pixel and the pixels that stand out from it (`foregroundMask`: cut to a
 * calibrated tray, with what sharp outlines enclose, the tray's untouched
 * marks cleared), its blobs cut into dice (at rising depths, at colour seams,
 * as rows), the dice only their pips give away (`diceByPips`), and the
 * objects searched for dice no blob gave (`searchObjects`). In: a BGR frame
 * and the config; out: the dice's boxes, the objects that are not all dice,
 * where to search and the median die size (`findDieBlobs`), then the dice the
 * search confirmed. Nothing else in the reader uses what is only here.
 */
import cv from '../hardware/opencv.js';
import { contains, corners, toBlob, type Blob } from './box.js';
import { checkVisionConfig, type VisionConfig } from './config.js';
import { medianLab, uprightFace } from './face.js';
import { FACE_INPUT_SIDE, faceInput, type FaceClassifier } from './face-classifier.js';
import { BLACK, filledMat, KERNEL_3, median, Scratch } from './mats.js';
import type { Lab } from './palette.js';
import { clearUntouchedMarks } from './tray-marks.js';
import type { DieReading, Point } from './types.js';
import { boxCentre, boxSides, trayCorners, type Region, type TrayRegion } from './validity.js';
import { boxToEdges, faceInsetOf, isPipLayout, readConfirmed, readTurned, type Pip, type Reread } from './value.js';

const KERNEL_5 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(5, 5));
// Sums a 3-channel Mat's channels into one (Mat.transform).
const CHANNEL_SUM = new cv.Mat([[1, 1, 1]], cv.CV_32F);

/**
 * Step 1a: the tray floor as seen under each pixel (`local`): a median over a
 * window much larger than a die, computed on a shrunken copy (Lab, same size
 * as `lab`). A local estimate follows uneven light, vignetting and a floor of
 * two tones. `overall` is the median colour of the whole frame, or of the
 * calibrated tray region (`floorOnly`).
 */
function estimateFloor(lab: cv.Mat, cfg: VisionConfig, scratch: Scratch): { local: cv.Mat; overall: Lab } {
  const f = cfg.floorScale / cfg.maskScale;
  const shrunk = scratch.add(lab.resize(Math.max(1, Math.round(lab.rows / f)), Math.max(1, Math.round(lab.cols / f)), 0, 0, cv.INTER_AREA));
  const { small, overall } = cfg.tray ? floorOnly(shrunk, cfg.tray, shrunk.cols / (lab.cols * cfg.maskScale), scratch) : { small: shrunk, overall: medianLab(shrunk, 1) };
  const local = scratch.add(scratch.add(small.medianBlur(cfg.floorKernel)).resize(lab.rows, lab.cols, 0, 0, cv.INTER_LINEAR));
  return { local, overall };
}

/**
 * The floor's colour over a calibrated tray region of `small` (a frame shrunk
 * by `scale`; dice cover far less than half of it), and `small` with what lies
 * beyond the region painted that colour. Near the rim, the floor's median would
 * otherwise take in the rim's colour, and the floor beside it, a die's shadow
 * there, stand out as objects (simulator, rim drawn into the floor: 7 of 300
 * throws). Mirrored floor instead counts a die at the edge twice. Within a
 * window of the rim, the estimate is then partly the region's overall colour
 * rather than the floor's there (a vignette's darker edge counts as shadow).
 */
function floorOnly(small: cv.Mat, tray: TrayRegion, scale: number, scratch: Scratch): { small: cv.Mat; overall: Lab } {
  // A turned tray's median is taken over the upright box inside it, and what lies beyond its turned box is painted.
  const inside = uprightInside(tray);
  const x0 = Math.min(small.cols - 1, Math.ceil(inside.x * scale));
  const y0 = Math.min(small.rows - 1, Math.ceil(inside.y * scale));
  const x1 = Math.max(x0 + 1, Math.min(small.cols, Math.floor((inside.x + inside.width) * scale)));
  const y1 = Math.max(y0 + 1, Math.min(small.rows, Math.floor((inside.y + inside.height) * scale)));
  const floor = scratch.add(scratch.add(small.getRegion(new cv.Rect(x0, y0, x1 - x0, y1 - y0))).copy());
  const overall = medianLab(floor, 1);
  const colour = new cv.Vec3((overall.L * 255) / 100, overall.a + 128, overall.b + 128);
  if (!tray.turn) return { small: scratch.add(floor.copyMakeBorder(y0, small.rows - y1, x0, small.cols - x1, cv.BORDER_CONSTANT, colour)), overall };
  const painted = scratch.add(small.copy());
  // A filled polygon keeps every pixel its edge passes through: grown by a pixel, what is painted takes in every shrunk pixel
  // that holds some rim, as the upright box's whole pixels do.
  // setTo returns a second handle on the pixels: released at once, so that the scratch's release frees them.
  painted.setTo(colour, scratch.add(beyondTurnedTray(small.rows, small.cols, tray, scale, scratch).dilate(KERNEL_3))).release();
  return { small: painted, overall };
}

/** An upright box inside a (turned, by less than 45°) tray region, for the floor's median: between its corners. */
function uprightInside(tray: TrayRegion): Region {
  if (!tray.turn) return tray;
  const [topLeft, topRight, bottomRight, bottomLeft] = trayCorners(tray) as [Point, Point, Point, Point];
  const [x0, y0] = [Math.max(topLeft.x, bottomLeft.x), Math.max(topLeft.y, topRight.y)];
  const [x1, y1] = [Math.min(topRight.x, bottomRight.x), Math.min(bottomLeft.y, bottomRight.y)];
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** An 8-bit mask of a frame shrunk by `scale` (1: the frame), 255 beyond a turned tray region's box and 0 inside it. */
function beyondTurnedTray(rows: number, cols: number, tray: TrayRegion, scale: number, scratch: Scratch): cv.Mat {
  const beyond = scratch.add(filledMat(rows, cols, cv.CV_8U, 255));
  beyond.drawFillPoly([trayCorners(tray).map((p) => new cv.Point2(Math.round(p.x * scale), Math.round(p.y * scale)))], new cv.Vec3(0, 0, 0));
  return beyond;
}

/**
 * Step 1b: how far each pixel is from the floor under it (8-bit, saturating).
 * Darker than the floor counts less than brighter (shadows are darker floor),
 * except darkness deeper than a shadow's (a black die on a light floor).
 */
function floorDistance(channels: readonly [cv.Mat, cv.Mat, cv.Mat], floor: cv.Mat, cfg: VisionConfig, scratch: Scratch): cv.Mat {
  const [L, a, b] = channels;
  const [L0, a0, b0] = floor.splitChannels().map((m) => scratch.add(m)) as [cv.Mat, cv.Mat, cv.Mat];
  // 8-bit L is in 1/2.55 units of L*; a and b are already in L*a*b* units.
  const darker = scratch.add(L0.sub(L));
  const lightness = scratch.add(scratch.add(L.sub(L0)).addWeighted(cfg.brighterWeight / 2.55, darker, cfg.darkerWeight / 2.55, 0));
  // convertTo saturates: the darkness beyond a shadow's, scaled, or 0.
  const beyondShadow = scratch.add(darker.convertTo(cv.CV_8U, cfg.beyondShadowWeight / 2.55, -cfg.shadowDepth * cfg.beyondShadowWeight));
  const withA = scratch.add(scratch.add(lightness.add(beyondShadow)).addWeighted(1, scratch.add(a.absdiff(a0)), 1, 0));
  return scratch.add(withA.addWeighted(1, scratch.add(b.absdiff(b0)), 1, 0));
}

/** `floorDistance` from a floor of one colour, with scalar operations (cheaper than a floor image). */
function flatFloorDistance(channels: readonly [cv.Mat, cv.Mat, cv.Mat], floor: Lab, cfg: VisionConfig, scratch: Scratch): cv.Mat {
  const [L, a, b] = channels;
  const L0 = (floor.L * 255) / 100;
  // convertTo saturates: each term is the positive part of a scaled difference; convertScaleAbs gives |x - v|.
  const brighter = cfg.brighterWeight / 2.55;
  const darker = cfg.darkerWeight / 2.55;
  const beyond = cfg.beyondShadowWeight / 2.55;
  const lightness = scratch.add(scratch.add(L.convertTo(cv.CV_8U, brighter, -L0 * brighter)).add(scratch.add(L.convertTo(cv.CV_8U, -darker, L0 * darker))));
  const withBeyond = scratch.add(lightness.add(scratch.add(L.convertTo(cv.CV_8U, -beyond, (L0 - cfg.shadowDepth * 2.55) * beyond))));
  const withA = scratch.add(withBeyond.add(scratch.add(a.convertScaleAbs(1, -(floor.a + 128)))));
  return scratch.add(withA.add(scratch.add(b.convertScaleAbs(1, -(floor.b + 128)))));
}

/** A blob is one die lying flat when it is die-sized, about square and compact (it fills most of its box). */
function isOneDie(contour: cv.Contour, rect: cv.RotatedRect, cfg: VisionConfig): boolean {
  const long = Math.max(rect.size.width, rect.size.height);
  const short = Math.min(rect.size.width, rect.size.height);
  if (short < cfg.dieSizeMin || long > cfg.dieSizeMax || long / short > cfg.maxAspect) return false;
  return contour.area / (long * short) >= cfg.minFill;
}

/**
 * Step 1c: dice touching each other (or a die touching the tray wall) form one
 * blob. Its distance transform, cut at rising depths, falls apart into one core
 * per die; each core grown back by the cut depth is a die. `whole` is false
 * when no cut gives only die-shaped parts: `parts` are then the die-shaped
 * cores found at any cut (dice against a wall, a shadow or a cocked die), or
 * the dice of a blob shaped like a row of them.
 */
function splitTouching(contour: cv.Contour, cfg: VisionConfig): { parts: Blob[]; whole: boolean; deepest: number } {
  const r = contour.boundingRect();
  if (r.width < cfg.dieSizeMin || r.height < cfg.dieSizeMin) return { parts: [], whole: false, deepest: 0 };
  const pad = 2;
  const shifted = contour.getPoints().map((p) => new cv.Point2(p.x - r.x + pad, p.y - r.y + pad));
  const filled = filledMat(r.height + 2 * pad, r.width + 2 * pad, cv.CV_8U, 0);
  filled.drawContours([shifted], 0, new cv.Vec3(255, 255, 255), -1);
  const dist = filled.distanceTransform(cv.DIST_L2, 3);
  filled.release();
  try {
    return splitAtDepths(contour, r, pad, dist, cfg);
  } finally {
    dist.release();
  }
}

/** splitTouching's cuts of the blob's distance transform `dist` (the blob's box `r` padded by `pad`). */
function splitAtDepths(contour: cv.Contour, r: cv.Rect, pad: number, dist: cv.Mat, cfg: VisionConfig): { parts: Blob[]; whole: boolean; deepest: number } {
  const deepest = dist.minMaxLoc().maxVal;
  if (deepest * 2 < cfg.dieSizeMin * 0.8) return { parts: [], whole: false, deepest };
  // Each die is taken at the shallowest cut that parts it from the rest: small dice vanish at deep cuts that larger dice in the same blob need.
  const parts: Blob[] = [];
  const origin = new cv.Point2(r.x - pad, r.y - pad);
  for (const share of cfg.splitDepths) {
    const depth = deepest * share;
    const cut = dist.threshold(depth, 255, cv.THRESH_BINARY);
    const cut8 = cut.convertTo(cv.CV_8U);
    const cores = cut8.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    cut.release();
    cut8.release();
    let whole = true;
    for (const core of cores) {
      if (core.area < 4) continue;
      const c = core.minAreaRect();
      const rect = new cv.RotatedRect(
        new cv.Point2(c.center.x + r.x - pad, c.center.y + r.y - pad),
        new cv.Size(c.size.width + 2 * depth, c.size.height + 2 * depth),
        c.angle,
      );
      if (parts.some((part) => contains(part.box, rect.center))) continue; // a die taken at a shallower cut
      const long = Math.max(rect.size.width, rect.size.height);
      const short = Math.min(rect.size.width, rect.size.height);
      if (short < cfg.dieSizeMin || long > cfg.dieSizeMax || long / short > cfg.maxAspect) whole = false;
      else parts.push(toBlob(rect));
    }
    if (!whole || parts.length === 0 || leavesDie(contour, parts, cfg)) continue;
    const pieces = diePieces(dist, parts, origin, cfg);
    if (pieces.length === 0) return { parts, whole: true, deepest };
    const pressed = partPressed(dist, parts, pieces, origin, cfg);
    if (pressed) return { parts: pressed, whole: true, deepest };
  }
  // Dice side by side in a row have no neck to cut at: the cores stay one long bar.
  const row = rowOfDice(contour, cfg);
  return { parts: row.length > parts.length ? row : parts, whole: false, deepest };
}

/** Whether the blob is larger than its parts by much of a die: a smaller die pressed against a larger one vanishes at the cut that parts the larger. */
function leavesDie(contour: cv.Contour, parts: readonly Blob[], cfg: VisionConfig): boolean {
  const covered = parts.reduce((sum, part) => sum + part.rect.size.width * part.rect.size.height, 0);
  const largest = Math.max(...parts.map((part) => part.rect.size.width * part.rect.size.height));
  return contour.area - covered > largest * cfg.splitLeftover;
}

/** The blob (`dist`, its distance transform, whose pixel (0, 0) lies at `origin` in the frame) less the boxes, as an 8-bit mask the caller releases. */
function outsideBoxes(dist: cv.Mat, blobs: readonly Blob[], origin: Point): cv.Mat {
  const inside = dist.threshold(0, 255, cv.THRESH_BINARY);
  const rest = inside.convertTo(cv.CV_8U);
  inside.release();
  // One box at a time: where boxes drawn together overlap, fillPoly leaves a hole.
  for (const blob of blobs) rest.drawFillPoly([blob.box.map((p) => new cv.Point2(Math.round(p.x - origin.x), Math.round(p.y - origin.y)))], new cv.Vec3(0, 0, 0));
  return rest;
}

/**
 * The pieces of the blob outside the parts' boxes that may be most of a die
 * (in frame coordinates): compact, at least a smallest die wide. A smaller die
 * pressed flat against a larger one reaches into the larger one's core at the
 * cuts that part nothing else, so the larger one's box takes in part of it and
 * covers as much as the blob's area, while the rest of the smaller die stays
 * outside every box. Shadows, rims and side faces left over are thin or ragged.
 */
function diePieces(dist: cv.Mat, parts: readonly Blob[], origin: Point, cfg: VisionConfig): cv.Contour[] {
  const rest = outsideBoxes(dist, parts, origin);
  try {
    return rest.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE, new cv.Point2(origin.x, origin.y)).filter((piece) => {
      const { width, height } = piece.minAreaRect().size;
      const short = Math.min(width, height);
      return short >= cfg.dieSizeMin && Math.max(width, height) <= short * cfg.pieceMaxAspect && piece.area >= width * height * cfg.pieceMinFill;
    });
  } finally {
    rest.release();
  }
}

/**
 * A cut whose parts leave most of a die outside their boxes (`diePieces`):
 * a part's core reaches into a smaller die pressed flat against it, and its
 * box, long that way, takes in part of that die. Each part is cut to a square
 * at the end of its box away from the largest such piece; what the squares
 * leave of the blob, where it is one die, is that die. Null unless that
 * leaves no piece that may be a die.
 */
function partPressed(dist: cv.Mat, parts: readonly Blob[], pieces: readonly cv.Contour[], origin: Point, cfg: VisionConfig): Blob[] | null {
  const scratch = new Scratch();
  try {
    const largest = pieces.reduce<cv.Contour | null>((best, piece) => (best && best.area >= piece.area ? best : piece), null);
    if (!largest) return null;
    const squares = parts.map((part) => squareFrom(part.rect, Math.min(part.rect.size.width, part.rect.size.height), largest.minAreaRect().center));
    const dice = scratch
      .add(scratch.add(outsideBoxes(dist, squares, origin)).morphologyEx(KERNEL_3, cv.MORPH_OPEN))
      .findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE, new cv.Point2(origin.x, origin.y))
      .flatMap((piece) => {
        const rect = piece.minAreaRect();
        // The squares, a little too large where the dice meet, take a strip of this die: it is as wide as its long side.
        const away = (b: Blob) => Math.hypot(b.rect.center.x - rect.center.x, b.rect.center.y - rect.center.y);
        const nearest = squares.reduce((q, b) => (away(b) < away(q) ? b : q));
        return isOneDie(piece, rect, cfg) ? [squareFrom(rect, Math.max(rect.size.width, rect.size.height), nearest.rect.center)] : [];
      });
    const all = [...squares, ...dice];
    return dice.length > 0 && diePieces(dist, all, origin, cfg).length === 0 ? all : null;
  } finally {
    scratch.release();
  }
}

/** A box made a square of side `side`, its sides away from the point `p` kept where they are: cut down or grown at the end towards `p`. */
function squareFrom(rect: cv.RotatedRect, side: number, p: Point): Blob {
  const { width, height } = rect.size;
  const rad = (rect.angle * Math.PI) / 180;
  // The box's width runs along its angle (as in rowOfDice).
  const axes = [
    { x: Math.cos(rad), y: Math.sin(rad), grow: side - width },
    { x: -Math.sin(rad), y: Math.cos(rad), grow: side - height },
  ];
  const c = rect.center;
  const centre = axes.reduce<Point>((q, a) => {
    const shift = (Math.sign((p.x - c.x) * a.x + (p.y - c.y) * a.y) * a.grow) / 2;
    return { x: q.x + a.x * shift, y: q.y + a.y * shift };
  }, c);
  return toBlob(new cv.RotatedRect(new cv.Point2(centre.x, centre.y), new cv.Size(side, side), rect.angle));
}

/** The middle of an upright rectangle. */
function centreOf(r: cv.Rect): Point {
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

/**
 * Dice touching side by side make a blob like a bar: its box is a row of n
 * about square parts and it fills the box like one die. Each square is a die.
 * Empty when the blob is not such a row.
 */
function rowOfDice(contour: cv.Contour, cfg: VisionConfig): Blob[] {
  const rect = contour.minAreaRect();
  const { width, height } = rect.size;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const n = Math.round(long / short);
  if (n < 2 || n > cfg.maxRow || short < cfg.dieSizeMin || short > cfg.dieSizeMax) return [];
  // Each part must be about square, and the row as full as one die's box (an L or a diagonal pair is not a row).
  if (Math.abs(long / n / short - 1) > cfg.rowSquareness || contour.area < long * short * cfg.rowMinFill) return [];
  const rad = (rect.angle * Math.PI) / 180;
  // The box's width runs along its angle: the long axis is that way or turned a quarter.
  const axis = width >= height ? { x: Math.cos(rad), y: Math.sin(rad) } : { x: -Math.sin(rad), y: Math.cos(rad) };
  const step = long / n;
  const parts: Blob[] = [];
  for (let i = 0; i < n; i++) {
    const offset = (i - (n - 1) / 2) * step;
    const centre = new cv.Point2(rect.center.x + axis.x * offset, rect.center.y + axis.y * offset);
    const size = width >= height ? new cv.Size(step, height) : new cv.Size(width, step);
    parts.push(toBlob(new cv.RotatedRect(centre, size, rect.angle)));
  }
  return parts;
}

/**
 * Step 1d: pixels of a BGR frame that are not tray floor (8-bit mask, the
 * frame's size). Exported for debugging overlays. The colour distances are
 * computed on the frame shrunk by `maskScale` (only that is turned into Lab)
 * and grown back before they are thresholded: colour changes slowly inside a
 * die, and a grown distance crosses the threshold close to where the
 * full-size one would (simulator, 160 dice: boxes 0.6 px larger on average).
 */
export function foregroundMask(image: cv.Mat, cfg: VisionConfig): cv.Mat {
  const scratch = new Scratch();
  try {
    checkVisionConfig(cfg);
    const scale = cfg.maskScale;
    const shrunk = scale === 1 ? image : scratch.add(image.resize(Math.round(image.rows / scale), Math.round(image.cols / scale), 0, 0, cv.INTER_AREA));
    const small = scratch.add(shrunk.cvtColor(cv.COLOR_BGR2Lab));
    const full = (m: cv.Mat) => (scale === 1 ? m : scratch.add(m.resize(image.rows, image.cols, 0, 0, cv.INTER_LINEAR)));
    // Split once: the floor test uses every channel, the outline test the lightness.
    const channels = small.splitChannels().map((m) => scratch.add(m)) as [cv.Mat, cv.Mat, cv.Mat];
    const { local, overall } = estimateFloor(small, cfg, scratch);
    let mask = full(floorDistance(channels, local, cfg, scratch)).threshold(cfg.foregroundThreshold, 255, cv.THRESH_BINARY);
    if (cfg.overallFloorThreshold > 0) {
      // Where dice crowd a dark tray's rim or corner, the local estimate takes their colour and the floor beside them stands out: floor like the frame's floor is floor too.
      const unlikeFrameFloor = scratch.add(full(flatFloorDistance(channels, overall, cfg, scratch)).threshold(cfg.overallFloorThreshold, 255, cv.THRESH_BINARY));
      const unlikeLocalFloor = scratch.add(mask);
      mask = unlikeLocalFloor.bitwiseAnd(unlikeFrameFloor);
    }
    if (cfg.edgeThreshold > 0) addOutlined(channels[0], mask, cfg, scratch);
    // Shrunk, no opening or closing: the grown distances leave no specks, and closing merged dice lying a few pixels apart (nell-byler half 1: 4 more missed). At full size, specks are opened away and gaps closed.
    if (scale === 1) mask = scratch.add(scratch.add(mask).morphologyEx(KERNEL_3, cv.MORPH_OPEN)).morphologyEx(KERNEL_5, cv.MORPH_CLOSE);
    if (cfg.tray) cutToTray(mask, cfg.tray, scratch);
    return mask;
  } finally {
    scratch.release();
  }
}

/**
 * Clears `mask` (in place) beyond a calibrated tray region. The tray's rim
 * differs from its floor all round and meets the frame's edges: left in the
 * mask, its outline holds every die on the floor inside one object, and no
 * roll is read. A die cut by the region's edge is judged partly outside the
 * tray (validity.ts), as one cut by the frame's edge.
 */
function cutToTray(mask: cv.Mat, tray: TrayRegion, scratch: Scratch): void {
  if (tray.turn) {
    mask.setTo(0, beyondTurnedTray(mask.rows, mask.cols, tray, 1, scratch)).release();
    return;
  }
  const [right, bottom] = [tray.x + tray.width, tray.y + tray.height];
  const beyond = [
    [0, 0, mask.cols, tray.y],
    [0, bottom, mask.cols, mask.rows],
    [0, 0, tray.x, mask.rows],
    [right, 0, mask.cols, mask.rows],
  ] as const;
  for (const [x0, y0, x1, y1] of beyond) if (x1 > x0 && y1 > y0) mask.drawRectangle(new cv.Point2(x0, y0), new cv.Point2(x1 - 1, y1 - 1), BLACK, -1);
}

/**
 * Step 1e: adds to `mask` (in place, full size) what sharp lightness edges
 * enclose in `L` (the frame shrunk by `maskScale`). A white die on a light
 * floor barely differs from it in colour, but its outline and pips are sharp
 * edges; closed up and filled, they give the die's shape.
 */
function addOutlined(L: cv.Mat, mask: cv.Mat, cfg: VisionConfig, scratch: Scratch): void {
  const scale = cfg.maskScale;
  const dx = scratch.add(scratch.add(L.sobel(cv.CV_16S, 1, 0, 3)).convertScaleAbs(0.5, 0));
  const dy = scratch.add(scratch.add(L.sobel(cv.CV_16S, 0, 1, 3)).convertScaleAbs(0.5, 0));
  const gradient = scratch.add(dx.addWeighted(1, dy, 1, 0));
  // Outlines have small gaps. Shrinking the frame bridges them; at full size they are closed (closing the shrunken edges too merges neighbouring dice's outlines: nell-byler half 1, 5 more missed).
  const outlines = scratch.add(gradient.threshold(cfg.edgeThreshold, 255, cv.THRESH_BINARY));
  const edges = scale === 1 ? scratch.add(outlines.morphologyEx(KERNEL_5, cv.MORPH_CLOSE)) : outlines;
  // Only die-sized outlines: the tray's rim or a cable encloses far more than a die. A die is convex: fill its hull (outlines have gaps on the lit side).
  const hulls: cv.Point2[][] = [];
  for (const c of edges.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE)) {
    const r = c.boundingRect();
    const long = Math.max(r.width, r.height) * scale;
    const short = Math.min(r.width, r.height) * scale;
    if (long > cfg.dieSizeMax || short < cfg.dieSizeMin * 0.7) continue;
    // Where the colour test already found something, its shape is better than the outline's (which takes in shadows).
    const inFrame = new cv.Rect(r.x * scale, r.y * scale, Math.min(r.width * scale, mask.cols - r.x * scale), Math.min(r.height * scale, mask.rows - r.y * scale));
    // A region is a view: left to the collector, it would keep the whole mask alive.
    if (scratch.add(mask.getRegion(inFrame)).countNonZero() > inFrame.width * inFrame.height * 0.2) continue;
    // A shrunken pixel p covers frame pixels p * scale to p * scale + scale - 1: the hull's low side takes the first, its high side the last.
    const hull = c.convexHull().getPoints();
    const middle = centreOf(r);
    const grown = (p: number, mid: number) => p * scale + (p + 0.5 > mid ? scale - 1 : 0);
    hulls.push(scale === 1 ? hull : hull.map((p) => new cv.Point2(grown(p.x, middle.x), grown(p.y, middle.y))));
  }
  if (hulls.length > 0) mask.drawContours(hulls, -1, new cv.Vec3(255, 255, 255), -1);
}

/**
 * Step 1f: a blob that does not split into dice at any depth, cut along its
 * seams (strong Lab gradient: the crevice between two dice, or where one die's
 * colour meets another's) and each piece taken as a die or split again.
 */
function cutAtSeams(image: cv.Mat, contour: cv.Contour, cfg: VisionConfig): { dice: Blob[]; whole: boolean } {
  const pad = 2;
  const b = contour.boundingRect();
  const x0 = Math.max(0, b.x - pad);
  const y0 = Math.max(0, b.y - pad);
  const r = new cv.Rect(x0, y0, Math.min(image.cols, b.x + b.width + pad) - x0, Math.min(image.rows, b.y + b.height + pad) - y0);
  const scratch = new Scratch();
  try {
    // |dL| + |da| + |db| (Sobel, halved), summed over the channels in one pass.
    const region = scratch.add(scratch.add(image.getRegion(r)).cvtColor(cv.COLOR_BGR2Lab));
    const dx = scratch.add(scratch.add(region.sobel(cv.CV_16S, 1, 0, 3)).convertScaleAbs(0.5, 0));
    const dy = scratch.add(scratch.add(region.sobel(cv.CV_16S, 0, 1, 3)).convertScaleAbs(0.5, 0));
    const gradient = scratch.add(scratch.add(dx.addWeighted(1, dy, 1, 0)).transform(CHANNEL_SUM));
    const seams = scratch.add(gradient.threshold(cfg.seamThreshold, 255, cv.THRESH_BINARY));
    const shifted = contour.getPoints().map((p) => new cv.Point2(p.x - r.x, p.y - r.y));
    const filled = scratch.add(filledMat(r.height, r.width, cv.CV_8U, 0));
    filled.drawContours([shifted], 0, new cv.Vec3(255, 255, 255), -1);
    const pieces = scratch.add(scratch.add(filled.sub(seams)).morphologyEx(KERNEL_3, cv.MORPH_OPEN));
    const blobs: Blob[] = [];
    let whole = true;
    const minArea = cfg.dieSizeMin * cfg.dieSizeMin * 0.5;
    for (const piece of pieces.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE, new cv.Point2(r.x, r.y))) {
      if (piece.area < minArea) continue;
      const rect = piece.minAreaRect();
      if (isOneDie(piece, rect, cfg)) {
        blobs.push({ ...toBlob(rect), fill: piece.area / Math.max(1, rect.size.width * rect.size.height) });
        continue;
      }
      const split = splitTouching(piece, cfg);
      blobs.push(...split.parts);
      whole &&= split.whole;
    }
    return { dice: blobs.map((blob) => ({ ...blob, seamCut: true })), whole };
  } finally {
    scratch.release();
  }
}

/** What step 1 finds in a frame. */
export interface DieBlobs {
  readonly blobs: Blob[];
  /** Blobs that are not all dice (their boxes). */
  readonly objects: Point[][];
  /** Where the search reads windows (step 1h). */
  readonly searchAt: Point[];
  /** The blobs' median size. */
  readonly typical: number;
}

/** Step 1: the dice-shaped blobs that stand out from the tray floor of a BGR frame (and the dice only their pips give away), and the blobs that do not fit. */
export function findDieBlobs(image: cv.Mat, cfg: VisionConfig): DieBlobs {
  const mask = foregroundMask(image, cfg);
  try {
    return blobsInMask(image, mask, cfg);
  } finally {
    mask.release();
  }
}

/** findDieBlobs on the foreground mask. */
function blobsInMask(image: cv.Mat, mask: cv.Mat, cfg: VisionConfig): DieBlobs {
  clearUntouchedMarks(image, mask, cfg.trayMarks);
  const contours = mask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  const minArea = cfg.dieSizeMin * cfg.dieSizeMin * 0.5;
  const large: cv.Contour[] = [];
  // Too small for a die: noise, or the pips of a die whose body is the floor's colour.
  const specks: { contour: cv.Contour; area: number }[] = [];
  for (const contour of contours) {
    const area = contour.area;
    if (area < minArea) specks.push({ contour, area });
    else large.push(contour);
  }
  const { blobs, objects } = diceOfBlobs(image, large, cfg);
  const all = cfg.findByPips ? [...blobs, ...diceByPips(image, specks, blobs, cfg)] : blobs;
  const typical = median(all.map((blob) => blob.size));
  // A blob taken for one die far larger than the typical die (more than a Las Vegas big die) may be a square cluster of dice that no cut parted: searched too.
  const clusters = all.filter((blob) => blob.size >= typical * SEARCH_CLUSTER).map((blob) => blob.box);
  const searchAt = cfg.searchObjects && cfg.useClassifier ? searchWindows(mask, [...objects, ...clusters], typical, cfg.dieSizeMin) : [];
  return { blobs: all, objects, searchAt, typical };
}

// The search for dice in objects, as shares of the frame's median die: the windows' spacing; the share of a window the foreground
// must fill (a window on bare floor reads a speck of dirt as a 1: nell-byler half 1, 8 phantoms); how near a die read a window, or
// a die found, may lie (dice side by side are about 1 apart). Then the least probability of the likeliest value (not "no face") in
// a window's plain view for it to be read in full (held out, in the search's first version, 0.5 read the same dice as reading every
// window in full, 0.8 fewer). And the most windows, and windows read in full, in one frame: on the shared photos at most 321 and
// 35, but a patterned object (a sheet of dots) gives hundreds or thousands, and each window read in full takes about 2.5 ms (a
// simulated frame with a dotted sheet is read in 100-130 ms with these caps, 5 ms without the search).
const SEARCH_STEP = 0.25;
// The least size (over the median die) of a blob taken for one die that is searched as a cluster: a square of four dice is about 2, a
// Las Vegas big die 1.4 (BIG_DIE_SCALE; it would be searched in vain, every window near it once it is read).
const SEARCH_CLUSTER = 1.75;
const SEARCH_FILL = 0.6;
const SEARCH_APART = 0.7;
const SEARCH_FACE = 0.5;
export const SEARCH_MAX_WINDOWS = 400;
export const SEARCH_MAX_READS = 40;

/**
 * Step 1h: where the objects (blobs that are not all dice) and the clusters
 * taken for one large die (`objects`: their boxes) are searched for dice
 * (searchObjects): the centres of windows of the frame's median die size,
 * a quarter of a die apart (one in the middle of a side shorter than a die),
 * inside a box and mostly foreground (`mask`; a box smaller than a die both
 * ways, each side at least `smallest`, is searched at its centre whatever
 * its fill). At most `SEARCH_MAX_WINDOWS`,
 * the first boxes' first.
 */
function searchWindows(mask: cv.Mat, objects: readonly Point[][], typical: number, smallest: number): Point[] {
  if (typical <= 0 || objects.length === 0) return [];
  const half = typical / 2;
  const step = typical * SEARCH_STEP;
  // Counted from one pass over the boxes' part of the mask, not natively window by window: a native count takes about 5 µs, and an
  // object as large as the tray has thousands of window centres (nell-byler IMG_20191208_111316: about 4 200). On the 48 nell-byler
  // photos with objects this step took 425 ms in all, 88 ms this way.
  const xs = objects.flatMap((object) => object.map((p) => p.x));
  const ys = objects.flatMap((object) => object.map((p) => p.y));
  // Every window lies within half a window of a box.
  const left = Math.max(0, Math.floor(Math.min(...xs) - half - 1));
  const top = Math.max(0, Math.floor(Math.min(...ys) - half - 1));
  const right = Math.min(mask.cols, Math.ceil(Math.max(...xs) + half + 1));
  const bottom = Math.min(mask.rows, Math.ceil(Math.max(...ys) + half + 1));
  if (right <= left || bottom <= top) return [];
  // A region is a view (released at once: left to the collector, it would keep the whole mask alive); its copy is a Mat of its own.
  const region = mask.getRegion(new cv.Rect(left, top, right - left, bottom - top));
  const part = region.copy();
  region.release();
  const foreground = foregroundCounter(part);
  part.release();
  const filled = (x: number, y: number) => {
    const x0 = Math.max(left, Math.round(x - half));
    const y0 = Math.max(top, Math.round(y - half));
    const x1 = Math.min(right, Math.round(x + half));
    const y1 = Math.min(bottom, Math.round(y + half));
    if (x1 <= x0 || y1 <= y0) return false;
    return foreground(x0 - left, y0 - top, x1 - left, y1 - top) >= SEARCH_FILL * (x1 - x0) * (y1 - y0);
  };
  // Window centres along one side of an object's box, from `low` to `high`.
  const along = (low: number, high: number) => {
    if (high - low < typical) return [(low + high) / 2];
    const at: number[] = [];
    for (let c = low + half; c <= high - half; c += step) at.push(c);
    return at;
  };
  const centres: Point[] = [];
  for (const object of objects) {
    if (centres.length >= SEARCH_MAX_WINDOWS) return centres;
    // An object whose box is smaller than a die both ways cannot fill a window: a die's face of which the mask holds a part (the
    // cream 2 of nell-byler IMG_20191208_111718, its bright part; a black 3 against the dark wall of IMG_20191208_111316). It is
    // searched at its centre alone, when both its sides are at least `dieSizeMin` (a thin piece of shadow or cable is not).
    const sides = boxSides(object);
    if (Math.max(...sides) < typical) {
      if (Math.min(...sides) >= smallest) centres.push(boxCentre(object));
      continue;
    }
    const xs = object.map((p) => p.x);
    const ys = object.map((p) => p.y);
    const columns = along(Math.min(...xs), Math.max(...xs));
    for (const y of along(Math.min(...ys), Math.max(...ys))) {
      for (const x of columns) {
        if (centres.length >= SEARCH_MAX_WINDOWS) return centres;
        if (contains(object, { x, y }) && filled(x, y)) centres.push({ x, y });
      }
    }
  }
  return centres;
}

/**
 * The number of foreground (non-zero) pixels of an 8-bit, one-channel `mask`
 * in the rectangle [x0, x1) × [y0, y1), for any number of rectangles: a
 * summed-area table of the mask, built in one pass.
 */
export function foregroundCounter(mask: cv.Mat): (x0: number, y0: number, x1: number, y1: number) => number {
  const { rows, cols } = mask;
  const data = mask.getData();
  if (mask.type !== cv.CV_8UC1 || data.length !== rows * cols) throw new Error(`foregroundCounter: needs a continuous 8-bit one-channel mask, got type ${mask.type}, ${data.length} bytes for ${cols}x${rows}`);
  const width = cols + 1;
  // sums[(y + 1) * width + x + 1]: the foreground pixels in [0, x] × [0, y].
  const sums = new Uint32Array(width * (rows + 1));
  for (let y = 0; y < rows; y++) {
    let row = 0;
    for (let x = 0; x < cols; x++) {
      if (data[y * cols + x] !== 0) row++;
      sums[(y + 1) * width + x + 1] = (sums[y * width + x + 1] as number) + row;
    }
  }
  const at = (x: number, y: number) => sums[y * width + x] as number;
  return (x0, y0, x1, y1) => at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0);
}

/** Step 1 for the blobs of at least a die's minimum area: the dice in them, and the blobs that are not all dice. */
function diceOfBlobs(image: cv.Mat, contours: readonly cv.Contour[], cfg: VisionConfig): { blobs: Blob[]; objects: Point[][] } {
  // The dice of each blob, with its outline and whether they are all of it: some may be dice pressed together (below).
  const found: { dice: Blob[]; contour: cv.Contour; whole: boolean; deepest: number }[] = [];
  const objects: Point[][] = [];
  for (const contour of contours) {
    const rect = contour.minAreaRect();
    if (isOneDie(contour, rect, cfg)) {
      found.push({ dice: [{ ...toBlob(rect), fill: contour.area / Math.max(1, rect.size.width * rect.size.height) }], contour, whole: true, deepest: 0 });
      continue;
    }
    const { parts, whole, deepest } = splitTouching(contour, cfg);
    found.push({ dice: parts, contour, whole, deepest });
    if (whole || Math.max(rect.size.width, rect.size.height) < cfg.dieSizeMin) continue;
    // Not all dice: its die-shaped parts are read, and the blob is an object for the validity rules (a cocked die, a wall, a shadow).
    objects.push(corners(rect));
  }
  const sizes = found.flatMap((f) => f.dice.map((d) => d.size));
  if (cfg.seamThreshold <= 0 || sizes.length < 3) return { blobs: found.flatMap((f) => f.dice), objects };
  // Dice pressed together have no neck to cut at, but a seam (a dark crevice, a change of colour): a blob that is not all dice, and a
  // square cluster that passed as one die far larger than the frame's typical die, are cut at their seams into dice of the typical size.
  const typical = median(sizes);
  // A piece cut at seams smaller than this is a side face cut off a die, not a die.
  const dieSized = (die: Blob) => die.size >= typical * cfg.seamMinSize;
  const blobs: Blob[] = [];
  for (const { dice, contour, whole, deepest } of found) {
    if (whole) {
      // Cut once per blob, however many of its dice are clusters.
      let seamPieces: Blob[] | null = null;
      for (const die of dice) {
        const cluster = die.size > typical * cfg.clusterRatio && fewDice(contour, typical, cfg);
        const cut = cluster ? (seamPieces ??= cutAtSeams(image, contour, cfg).dice).filter((part) => dieSized(part) && contains(die.box, part.rect.center)) : [];
        if (cut.length < 2) {
          blobs.push(die);
          continue;
        }
        blobs.push(...cut);
        // The dice pressed together may lie on one another: the reading stays in doubt.
        objects.push(die.box);
      }
      continue;
    }
    // Seams only take pixels away: a blob too thin for a die of the typical size (a cable, a shadow) holds none.
    if (!fewDice(contour, typical, cfg) || deepest * 2 < typical * cfg.seamMinSize) {
      blobs.push(...dice);
      continue;
    }
    const { dice: pieces, whole: allDice } = cutAtSeams(image, contour, cfg);
    // Cut into nothing but dice (a cable's label has seams too, but not all its pieces are dice).
    const cut = allDice ? pieces.filter(dieSized) : [];
    if (cut.length > dice.length) {
      blobs.push(...cut);
      continue;
    }
    blobs.push(...dice);
    // A die pressed against what is not a die (a cocked die, a shadow): its piece is taken when it has the typical die's size and is not a die found already.
    const near = (die: Blob) => die.size >= typical * cfg.seamSizeMatch && die.size * cfg.seamSizeMatch <= typical;
    const fresh = (die: Blob) => !dice.some((part) => contains(part.box, die.rect.center) || contains(die.box, part.rect.center));
    blobs.push(...pieces.filter((die) => near(die) && fresh(die)));
  }
  return { blobs, objects };
}

// diceByPips, as shares of the frame's median die: the largest speck that may be a pip; how far from a face's centre its pips
// lie (at most about 0.4, a corner's; a neighbouring die's nearest pip, dice touching, about 0.6); and how near a found die's
// centre a face may be (over the two dice's mean size: dice lying side by side are about 1 apart; a side face of a found die,
// seen obliquely, 0.65-0.75 on matteop65).
const PIP_SPECK_MAX = 0.35;
// The smallest ragged speck (over the median die's area) searched for dark pips: about one pip's area (a pip is about 0.15 of the
// side across); a smaller ragged speck is grain or a scratch.
const RAGGED_SPECK_MIN = 0.02;
// The dark-spot search's kernel, over the median die's side: a little wider than a pip (about 0.2 of the side).
const DARK_PIP_KERNEL = 0.3;
// How near a dark pip (over the median die's side) a speck is taken for the same pip or a bit of outline beside it: pips of a
// face are at least about 0.25 apart.
const DARK_PIP_REACH = 0.2;
const FACE_RADIUS = 0.5;
const PIP_GROUP_APART = 0.8;
// findLoneOnes: where a lone speck's die outline is looked for (over the median die's side: a die's edge lies 0.5-0.7 from its
// centre, turned or not), how strong a grey edge must be (Sobel, 3x3, on a lightly blurred grey), and in what share of 36
// directions. Measured on nell-byler and matteop65 (BENCHMARKS.md, session 25): a white die's lone 1 on the light board has
// edges at 40 or more in 97-100 % of directions, bare board and floor in none (their gradient mostly under 10), and a side
// face's lone pip beside its die, on matteop65, in 58 %.
const LONE_OUTLINE_REACH = [0.35, 0.8] as const;
const LONE_OUTLINE_EDGE = 40;
const LONE_OUTLINE_SHARE = 0.75;

/**
 * Step 1g: dice that neither the colour test nor the outline test found (a
 * white die on a light floor) still show their pips as specks in the mask.
 * Round, pip-sized specks outside every die found are grouped into faces:
 * every face of 2-6 pips has two (opposite corners) whose midpoint is its
 * centre, so each midpoint of two specks is tried as a centre, with the specks
 * within `FACE_RADIUS` of it. A group in a face's layout, not beside a die
 * found or sharing a speck with a larger face, is taken as a die of the
 * frame's median size turned as its layout is. A speck left alone, with no
 * other on the face around it, is taken as a 1 when a die's outline surrounds
 * it (`findLoneOnes`). The reader keeps such a die only when its face's pips
 * are counted clearly and the classifier is sure of the same value
 * (readDiceInImage).
 */
function diceByPips(image: cv.Mat, specks: readonly { contour: cv.Contour; area: number }[], blobs: readonly Blob[], cfg: VisionConfig): Blob[] {
  if (blobs.length === 0) return []; // no die to take the size from
  const typical = median(blobs.map((blob) => blob.size));
  const radius = typical * FACE_RADIUS;
  const outsideDice = (p: Point) => !blobs.some((blob) => contains(blob.box, p));
  const measured = specks.map((speck) => ({ ...speck, pip: pipOf(speck.contour, speck.area, typical, cfg) }));
  const speckPips = measured.flatMap(({ pip }) => (pip && outsideDice(pip) ? [pip] : []));
  // A speck neither a pip nor noise may be a white die's pips joined by its outline: there, the dark spots are the pips.
  const ragged = measured.filter(({ contour, area, pip }) => !pip && area >= typical * typical * RAGGED_SPECK_MIN && outsideDice(centreOf(contour.boundingRect())));
  const darkPips = cfg.darkPipContrast > 0 ? darkPipsAround(image, ragged, typical, cfg).filter(outsideDice) : [];
  // A dark pip stands for the specks close to it: the pip itself, or a bit of outline beside it.
  const superseded = (p: Point) => darkPips.some((d) => Math.hypot(d.x - p.x, d.y - p.y) < typical * DARK_PIP_REACH);
  const pips = [...speckPips.filter((p) => !superseded(p)), ...darkPips];
  // Every group of specks around a midpoint, once each.
  const groups = new Map<string, number[]>();
  for (let a = 0; a < pips.length; a++) {
    for (let b = a + 1; b < pips.length; b++) {
      const [p, q] = [pips[a] as Pip, pips[b] as Pip];
      if (Math.hypot(p.x - q.x, p.y - q.y) > 2 * radius) continue;
      const mid = { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
      const members = pips.flatMap((pip, k) => (Math.hypot(pip.x - mid.x, pip.y - mid.y) <= radius ? [k] : []));
      if (members.length <= 6) groups.set(members.join(','), members);
    }
  }
  // Larger faces first: a 6's column alone would pass for a 3.
  const taken = new Set<number>();
  const dice: Blob[] = [];
  // A face centred at `p` is not a side face of a die found, nor on a face taken already.
  const besideADie = (p: Point) => {
    const beside = (blob: Blob) => Math.hypot(blob.rect.center.x - p.x, blob.rect.center.y - p.y) < ((blob.size + typical) / 2) * PIP_GROUP_APART;
    return blobs.some(beside) || dice.some(beside);
  };
  for (const members of [...groups.values()].sort((g, h) => h.length - g.length)) {
    if (members.some((k) => taken.has(k))) continue;
    const group = members.map((k) => pips[k] as Pip);
    const centre = { x: group.reduce((sum, p) => sum + p.x, 0) / group.length, y: group.reduce((sum, p) => sum + p.y, 0) / group.length };
    if (besideADie(centre)) continue;
    // A layout's farthest pip is a corner: the die's edges run 45° from it. Checked as the face patch would show it.
    const far = group.reduce((f, p) => (Math.hypot(p.x - centre.x, p.y - centre.y) > Math.hypot(f.x - centre.x, f.y - centre.y) ? p : f));
    const turn = Math.atan2(far.y - centre.y, far.x - centre.x) - Math.PI / 4;
    const zoom = cfg.facePatch / typical;
    const [cos, sin] = [Math.cos(-turn), Math.sin(-turn)];
    const upright = group.map((p) => {
      const dx = (p.x - centre.x) * zoom;
      const dy = (p.y - centre.y) * zoom;
      return { x: cfg.facePatch / 2 + dx * cos - dy * sin, y: cfg.facePatch / 2 + dx * sin + dy * cos, area: p.area * zoom * zoom };
    });
    if (!isPipLayout(upright, cfg.facePatch, cfg)) continue;
    for (const k of members) taken.add(k);
    const rect = new cv.RotatedRect(new cv.Point2(centre.x, centre.y), new cv.Size(typical, typical), (turn * 180) / Math.PI);
    dice.push({ ...toBlob(rect), byPips: true });
  }
  if (!cfg.findLoneOnes) return dice;
  const lone = pips.filter((p, k) => !taken.has(k) && !pips.some((q, j) => j !== k && Math.hypot(q.x - p.x, q.y - p.y) <= radius));
  for (const pip of lone) {
    if (besideADie(pip) || outlineAround(image, pip, typical) < LONE_OUTLINE_SHARE) continue;
    // A 1 has no layout to turn the box by: square to the frame (the classifier reads all 8 turns and mirror images).
    dice.push({ ...toBlob(new cv.RotatedRect(new cv.Point2(pip.x, pip.y), new cv.Size(typical, typical), 0)), byPips: true });
  }
  return dice;
}

/** The share of 36 directions from `p` in which a grey edge (a die's outline) lies within `LONE_OUTLINE_REACH` of the median die `typical`. */
function outlineAround(image: cv.Mat, p: Point, typical: number): number {
  const [near, far] = LONE_OUTLINE_REACH.map((share) => share * typical) as [number, number];
  const reach = Math.ceil(far) + 2;
  const x0 = Math.max(0, Math.floor(p.x) - reach);
  const y0 = Math.max(0, Math.floor(p.y) - reach);
  const x1 = Math.min(image.cols, Math.floor(p.x) + reach + 1);
  const y1 = Math.min(image.rows, Math.floor(p.y) + reach + 1);
  const scratch = new Scratch();
  let edge: Float32Array;
  try {
    const region = scratch.add(image.getRegion(new cv.Rect(x0, y0, x1 - x0, y1 - y0)));
    const smooth = scratch.add(scratch.add(region.cvtColor(cv.COLOR_BGR2GRAY)).gaussianBlur(new cv.Size(3, 3), 0));
    const [gx, gy] = [scratch.add(smooth.sobel(cv.CV_32F, 1, 0)), scratch.add(smooth.sobel(cv.CV_32F, 0, 1))];
    // The squared gradient, compared with the squared threshold. getData copies the pixels: they outlive the Mats.
    const data = scratch.add(scratch.add(gx.hMul(gx)).add(scratch.add(gy.hMul(gy)))).getData();
    edge = new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
  } finally {
    scratch.release();
  }
  let outlined = 0;
  for (let a = 0; a < 36; a++) {
    const [cos, sin] = [Math.cos((a * Math.PI) / 18), Math.sin((a * Math.PI) / 18)];
    for (let r = near; r <= far; r++) {
      const x = Math.round(p.x + r * cos) - x0;
      const y = Math.round(p.y + r * sin) - y0;
      if (x < 0 || y < 0 || x >= x1 - x0 || y >= y1 - y0) continue;
      if ((edge[y * (x1 - x0) + x] as number) >= LONE_OUTLINE_EDGE ** 2) {
        outlined++;
        break;
      }
    }
  }
  return outlined / 36;
}

/** The speck as a pip (its centroid and area), or null when it is too small, too large or not round enough for one. */
function pipOf(speck: cv.Contour, area: number, typical: number, cfg: VisionConfig): Pip | null {
  if (area < typical * typical * cfg.pipAreaMin * 0.5) return null;
  const r = speck.boundingRect();
  // Pip-sized and round, as the face's pip test wants them (grain and scratches are thin).
  const round = Math.max(r.width, r.height) / Math.max(1, Math.min(r.width, r.height)) <= cfg.pipMaxElongation;
  if (!round || Math.max(r.width, r.height) > typical * PIP_SPECK_MAX) return null;
  const m = speck.moments();
  return m.m00 > 0 ? { x: m.m10 / m.m00, y: m.m01 / m.m00, area } : null;
}

/**
 * Step 1g': the dark pips around ragged specks (each speck's box grown by half
 * a die is searched). In a white die on a light floor the pips may be joined
 * into one speck by bits of the die's faint outline; a black-hat of the grey
 * image (darker than the surroundings, over a little more than a pip's width)
 * finds them apart again, thresholded at `darkPipContrast`.
 */
function darkPipsAround(image: cv.Mat, ragged: readonly { contour: cv.Contour }[], typical: number, cfg: VisionConfig): Pip[] {
  const pips: Pip[] = [];
  const windows: cv.Rect[] = [];
  const side = Math.max(3, Math.round(typical * DARK_PIP_KERNEL) | 1);
  const scratch = new Scratch();
  try {
    const kernel = scratch.add(cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(side, side)));
    const pad = Math.round(typical / 2);
    for (const { contour } of ragged) {
      const b = contour.boundingRect();
      // Specks of one die share a window.
      if (windows.some((w) => w.x <= b.x && w.y <= b.y && w.x + w.width >= b.x + b.width && w.y + w.height >= b.y + b.height)) continue;
      const x0 = Math.max(0, b.x - pad);
      const y0 = Math.max(0, b.y - pad);
      const window = new cv.Rect(x0, y0, Math.min(image.cols, b.x + b.width + pad) - x0, Math.min(image.rows, b.y + b.height + pad) - y0);
      windows.push(window);
      const grey = scratch.add(scratch.add(image.getRegion(window)).cvtColor(cv.COLOR_BGR2GRAY));
      const blackHat = scratch.add(grey.morphologyEx(kernel, cv.MORPH_BLACKHAT));
      const spots = scratch.add(blackHat.threshold(cfg.darkPipContrast, 255, cv.THRESH_BINARY));
      for (const spot of spots.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE, new cv.Point2(window.x, window.y))) {
        const single = pipOf(spot, spot.area, typical, cfg);
        const found = single ? [single] : cfg.partBlurredPips ? blurredPips(blackHat, window, spot, typical, cfg, scratch) : [];
        // Overlapping windows find a pip twice.
        for (const pip of found) if (!pips.some((p) => Math.hypot(p.x - pip.x, p.y - pip.y) < 2)) pips.push(pip);
      }
    }
    return pips;
  } finally {
    scratch.release();
  }
}

// partBlurredPips: the multiples of `darkPipContrast` a dark spot larger than a pip is thresholded at again (nell-byler
// IMG_20191208_111718's white 6, 30 px wide: its pips' black-hat is about 200, the gaps between two of them 60-130; a level
// above 255 finds nothing and is skipped). Only a spot of two or three pips is parted (at most this share of the median die
// across; that 6's pairs are 0.43 and 0.53): a larger dark spot is an outline or a seam, whose pieces are no pips.
const BLURRED_PIP_LEVELS = [2, 3] as const;
const BLURRED_SPOT_MAX = 0.7;

/** The pips within a dark spot (thresholded `blackHat` of `window`) too large for one pip, parted at a higher contrast; none when none parts them. */
function blurredPips(blackHat: cv.Mat, window: cv.Rect, spot: cv.Contour, typical: number, cfg: VisionConfig, scratch: Scratch): Pip[] {
  const b = spot.boundingRect();
  const across = Math.max(b.width, b.height);
  // Not larger than a pip: too small or not round, a speck of grain or a scratch.
  if (across <= typical * PIP_SPECK_MAX || across > typical * BLURRED_SPOT_MAX) return [];
  const part = scratch.add(blackHat.getRegion(new cv.Rect(b.x - window.x, b.y - window.y, b.width, b.height)));
  for (const level of BLURRED_PIP_LEVELS) {
    if (cfg.darkPipContrast * level > 255) break;
    const strong = scratch.add(part.threshold(cfg.darkPipContrast * level, 255, cv.THRESH_BINARY));
    // Only the spot's own pieces: its box may hold a neighbouring spot, or a corner of one.
    const pips = strong
      .findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE, new cv.Point2(b.x, b.y))
      .flatMap((s) => pipOf(s, s.area, typical, cfg) ?? [])
      .filter((pip) => spot.pointPolygonTest(new cv.Point2(pip.x, pip.y)) >= 0);
    if (pips.length >= 2) return pips;
  }
  return [];
}

/**
 * Whether a blob may be a few dice pressed together: it covers no more than
 * `clusterMaxDice` of the frame's typical dice (a laptop's keys have seams
 * too), nor does its box cover four times that (a tray rim: cutting its box costs time).
 */
function fewDice(contour: cv.Contour, typical: number, cfg: VisionConfig): boolean {
  const r = contour.boundingRect();
  const most = cfg.clusterMaxDice * typical * typical;
  // The box of a few dice in a diagonal row, or of a die pressed against a cable, is a few times their area.
  return contour.area <= most && r.width * r.height <= 4 * most;
}

/** A face read in full in a search window: confirmed there, else (`rereadTurned`) in a box turned to its edges. */
function readInWindow(image: cv.Mat, window: Blob, classifier: FaceClassifier, cfg: VisionConfig): Reread | null {
  return readConfirmed(image, window, classifier, cfg) ?? (cfg.rereadTurned ? readTurned(image, window, classifier, cfg) : null);
}

/** A square box of side `side` centred on `p`, square to the frame. */
function squareAt(p: Point, side: number): Blob {
  return toBlob(new cv.RotatedRect(new cv.Point2(p.x, p.y), new cv.Size(side, side), 0));
}

/**
 * Step 5: dice in the objects, and in the clusters taken for one large die,
 * that no blob gave (`searchObjects`): dice pressed together that no cut
 * parted. Each window (`searchAt`) far from every die read is classified in
 * one plain view, all of a size in one batch; those whose likeliest class is a
 * value (at most `SEARCH_MAX_READS` a size, the surest first) are read in
 * full (confirmed: counted clearly, the classifier sure of the same value;
 * failing that, in a box turned to the edges), and must read the same again
 * centred on the pips they found, in a box turned to the edges there: a window
 * square to the frame over one column of a turned 6 shows three pips on a
 * diagonal, a clear 3. A die so found is kept as read centred on its pips.
 * Where a window's plain view named a face and no die was confirmed near it,
 * the window is read again at the larger sides of `cfg.searchLarger` in turn
 * (a die larger than the median), at the 40 surest such places, one batch a
 * size. Best first, one die per place, none where windows (of any size) read
 * different values, and none inside the box of a die read (`dice`).
 */
export function searchObjects(image: cv.Mat, searchAt: readonly Point[], typical: number, dice: readonly DieReading[], classifier: FaceClassifier, cfg: VisionConfig): Reread[] {
  const apart = typical * SEARCH_APART;
  const near = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y) < apart;
  const read = dice.flatMap((die) => (die.value === null ? [] : [die.center]));
  let at = searchAt.filter((p) => !read.some((q) => near(p, q)));
  const candidates: Reread[] = [];
  for (const side of [1, ...cfg.searchLarger].map((k) => typical * k)) {
    if (at.length === 0) break;
    const { confirmed, faces } = searchWindowsOfSide(image, at, side, classifier, cfg);
    // A larger window that confirms another value near a die an earlier size found leaves that place in doubt (keptSearchFinds).
    candidates.push(...confirmed);
    // Larger windows only where a face was seen and none confirmed (a die larger than this window), at the surest such places: on a
    // sheet of dots every window shows a face, and reading all 400 at each size took 2.6 times as long (412 ms against 160).
    at = faces.filter((p) => !candidates.some((c) => near(p, c.centre))).slice(0, SEARCH_MAX_READS);
  }
  return keptSearchFinds(candidates, dice, apart);
}

/**
 * searchObjects' windows of one side at the points `at`: the faces confirmed,
 * and the points whose window's plain view named a face, surest first. Each
 * size reads up to SEARCH_MAX_READS in full: a budget shared by the sizes is
 * spent by the first on a crowd (one of nell-byler IMG_20191209_095447's green
 * 6s is lost).
 */
function searchWindowsOfSide(image: cv.Mat, at: readonly Point[], side: number, classifier: FaceClassifier, cfg: VisionConfig): { confirmed: Reread[]; faces: Point[] } {
  const windows = at.map((p) => squareAt(p, side));
  // Each window's square inside the face inset, warped straight to the classifier's input size rather than to a face patch first:
  // the search's time down by a third on nell-byler and by 44 % on matteop65, the same dice found.
  const inner = side * (1 - (2 * faceInsetOf(cfg)) / cfg.facePatch);
  const inputs = windows.map((window) => {
    const patch = uprightFace(image, squareAt(window.rect.center, inner), FACE_INPUT_SIDE);
    const input = faceInput(patch, medianLab(patch, 1));
    patch.release();
    return input;
  });
  const views = classifier.classify(inputs);
  for (const input of inputs) input.release();
  const faces = windows
    .flatMap((window, i) => {
      const view = views[i];
      return view !== undefined && view.value > 0 && view.probability >= SEARCH_FACE ? [{ window, probability: view.probability }] : [];
    })
    .sort((p, q) => q.probability - p.probability);
  const confirmed = faces
    .slice(0, SEARCH_MAX_READS)
    .flatMap(({ window }) => {
      const first = readInWindow(image, window, classifier, cfg);
      if (first === null) return [];
      const centred = squareAt(first.centre, side);
      const again = readConfirmed(image, boxToEdges(image, centred, side, cfg) ?? centred, classifier, cfg);
      // Kept as read the second time: centred on its pips, its box turned to its edges there and its colour from that box, not the
      // window's (a larger window takes in more of its neighbours, and its box would reach them).
      return again?.value === first.value ? [again] : [];
    });
  return { confirmed, faces: faces.map(({ window }) => window.rect.center) };
}

/**
 * The dice the search keeps of the faces its windows read in full
 * (`candidates`): the surest first, one per place (none within `apart` of a
 * die read or of one kept), none inside the box of a die read, and none where
 * windows read different values. Pure: the choice is tested apart from the
 * classifier, whose mistakes vary from one trained model to the next.
 */
export function keptSearchFinds<T extends { readonly value: number; readonly confidence: number; readonly centre: Point }>(candidates: readonly T[], dice: readonly Pick<DieReading, 'value' | 'center' | 'box'>[], apart: number): T[] {
  const near = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y) < apart;
  const read = dice.filter((die) => die.value !== null);
  const found: T[] = [];
  for (const candidate of [...candidates].sort((p, q) => q.confidence - p.confidence)) {
    if ([...read.map((die) => die.center), ...found.map((f) => f.centre)].some((p) => near(p, candidate.centre))) continue;
    // Inside the box of a die read: part of that die's face (one pip of a big die's 4 reads as a 1), not a die of its own.
    if (read.some((die) => contains(die.box, candidate.centre))) continue;
    // Windows that read another value here: one of them saw part of a face (a 2's pip alone reads as a 1). The die is in doubt.
    if (candidates.some((other) => other.value !== candidate.value && near(other.centre, candidate.centre))) continue;
    found.push(candidate);
  }
  return found;
}
