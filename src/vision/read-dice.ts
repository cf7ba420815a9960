import cv from '../hardware/opencv.js';
import type { Frame } from '../hardware/types.js';
import { FACE_INPUT_SIDE, faceInput, loadFaceClassifier, MODEL_DIR, type FaceClassifier, type FaceGuess } from './face-classifier.js';
import { colourDistance, DEFAULT_PALETTE, nearestColour, type Lab } from './palette.js';
import { VisionError, type DiceReader, type DiceReading, type DieReading, type Point } from './types.js';
import { boxCentre, boxSides, DEFAULT_SCENE_CONFIG, judgeScene, trayCorners, type Region, type SceneConfig, type TrayRegion } from './validity.js';
import { decodeImage } from '../hardware/image-bytes.js';

/** Something on the empty tray's floor that stands out from it as a die or a pip would (a printed logo, a stain, a screw head), as the calibration's empty-tray shot shows it: its upright box and its area in the foreground mask, frame pixels, and how its box looks. */
export interface TrayMark extends Region {
  readonly area: number;
  /** Mean colour of each cell of the box, squares of about 16 pixels, row by row, in the empty tray (`cellColours`). */
  readonly cells: readonly Lab[];
}

/**
 * Every tunable of the reader, with its unit and which way to turn it.
 * Calibration (a later step) fills `palette` from the user's own dice.
 */
export interface VisionConfig extends SceneConfig {
  /** The tray's own marks (calibration): where a mark's box looks as it did in the empty tray, cell by cell, it is floor. Empty: none known. */
  readonly trayMarks: readonly TrayMark[];
  /** The tray floor's corners where its rim meets it (calibration), as marks: looked for, with the marks, only to tell a moved camera. Empty: none known. */
  readonly trayCorners: readonly TrayMark[];
  /** Weighted Lab distance from the tray floor above which a pixel is part of a die. Raise it when felt texture or shadows show up as dice; lower it when dark dice on a dark tray are missed. */
  readonly foregroundThreshold: number;
  /** Lightness gradient (8-bit Lab L per pixel of the frame shrunk by `maskScale`, Sobel) above which a pixel is part of an outline; what outlines enclose is foreground too. Lower it when white dice on a white floor are missed; raise it when floor texture shows up as dice. 0 turns it off. */
  readonly edgeThreshold: number;
  /** How much darker-than-floor lightness counts in the foreground test (0-1). Lower it when shadows are taken for dice; raise it when dark grey dice on a light floor are missed. */
  readonly darkerWeight: number;
  /** How many L* units darker than the floor a shadow may be: darkness beyond it is a dark die's, and each unit beyond counts `beyondShadowWeight` more. Lower it when black dice on a light floor are missed; raise it when deep shadows are taken for dice. */
  readonly shadowDepth: number;
  /** See `shadowDepth`. 0 turns the deeper-than-shadow test off. */
  readonly beyondShadowWeight: number;
  /** How much brighter-than-floor lightness counts in the foreground test (0-1). Raise it when white dice on a light floor are missed; lower it when glare on the floor shows up as dice. */
  readonly brighterWeight: number;
  /** The colour and outline tests run on the frame shrunk by this factor (the colour distances are grown back and thresholded at full size, so blob outlines stay smooth). 2 is about four times cheaper than 1; set 1 when dice are only a few times `dieSizeMin` across and close together (shrinking blurs the gaps between them). */
  readonly maskScale: number;
  /** The floor is estimated on the frame shrunk by this factor (counted from the full frame, not the mask's). Raise it for speed on large frames. */
  readonly floorScale: number;
  /** Median window of the floor estimate, in shrunken pixels (odd). Raise it when big dice or crowded trays leak into the floor estimate. */
  readonly floorKernel: number;
  /** Weighted Lab distance (as `foregroundThreshold`) from the whole frame's floor colour below which a pixel is floor whatever the local floor: where dice crowd a dark rim or corner, the local estimate takes their colour and the floor beside them would stand out. Lower it when pale dice are missed; 0 turns it off (a floor of two tones). */
  readonly overallFloorThreshold: number;
  /** Lab gradient (sum over L, a and b, per pixel, Sobel) above which a pixel is a seam between touching dice that no cut of the blob's depth parts. Lower it when dice pressed together stay merged; raise it when marbled dice are cut apart. 0 turns it off. */
  readonly seamThreshold: number;
  /** Size (mean side) over the frame's median die's above which a blob taken for one die is tried as dice pressed together (cut at its seams). */
  readonly clusterRatio: number;
  /** Smallest die cut at seams, as a share of the frame's median die (a side face cut off a die is smaller). */
  readonly seamMinSize: number;
  /** How near (as the smaller over the larger) to the frame's median die a die cut at seams from a blob that is not all dice must be. */
  readonly seamSizeMatch: number;
  /** Most dice (in areas of the frame's median die) a blob cut at its seams may cover. */
  readonly clusterMaxDice: number;
  /** Smallest and largest die edge in pixels. Widen when the camera sits lower or higher. */
  readonly dieSizeMin: number;
  readonly dieSizeMax: number;
  /** Longest/shortest side of a die's box above which the blob is not one die lying flat. */
  readonly maxAspect: number;
  /** Share of its box a die's blob must fill (a square fills ~0.95, rounded corners ~0.9; a square cluster of dice less). Raise it when a square cluster of touching dice passes as one die; lower it when single dice are cut apart. */
  readonly minFill: number;
  /** Depths (share of the blob's deepest point) at which a blob that is not one die is cut to part touching dice. Add deeper cuts when touching dice stay merged. */
  readonly splitDepths: readonly number[];
  /** Share of its largest part's box by which a blob may exceed its parts' boxes and still be cut whole into them. Lower it when a small die pressed against a larger one is missed. */
  readonly splitLeftover: number;
  /** A piece of a blob outside every part's box that is compact (longest/shortest side of its box at most `pieceMaxAspect`, filling at least `pieceMinFill` of it) and at least `dieSizeMin` wide is most of a die the cut did not part: the larger part's box is squared away from that piece and the piece taken as a die, else the cut is not taken. Raise the fill or lower the aspect when shadows or side faces left over keep blobs from being cut; the reverse when a small die pressed against a larger one is lost. */
  readonly pieceMaxAspect: number;
  /** See `pieceMaxAspect`: the share of its box such a piece must fill. */
  readonly pieceMinFill: number;
  /** Most dice in a row side by side that a bar-shaped blob is cut into (2 or more; below 2 turns it off). */
  readonly maxRow: number;
  /** Look for dice that only their pips give away (a white die on a light floor): a face's layout of pip-sized specks outside every die found. Such a die is kept only when its pips are counted clearly and the classifier is sure of the same value. */
  readonly findByPips: boolean;
  /** For `findByPips`: also take a lone pip-sized speck, with no other speck on the face around it, as a die's 1 when a die's outline surrounds it (a grey edge in at least three quarters of the directions, between about a third and four fifths of a die out): a white die's 1 on a light floor. A spot on the floor has no outline, and a side face's pip beside its die has the floor on its far side. Kept, like any die found by its pips, only when its pip is counted clearly and the classifier is sure of a 1. */
  readonly findLoneOnes: boolean;
  /** For `findByPips`: where a speck too large or too ragged for a pip lies outside every die found (a white die's pips joined by bits of its faint outline), the dark pips around it are looked for as dark round spots: grey level below its surroundings (black-hat) by more than this, out of 255. Lower it for faint pips; 0 turns it off. */
  readonly darkPipContrast: number;
  /** For `darkPipContrast`: a dark spot too large for one pip, but at most 0.7 of the frame's median die across, may be two or three pips blurred together (a small white die's 6, whose pips' gaps are half as dark as the pips): it is thresholded again at twice, then three times that contrast (a level above 255 is skipped), and the first that parts two pips or more inside the spot gives them. */
  readonly partBlurredPips: boolean;
  /** How far from square (share of the side) each die of such a row may be. Raise it when rows of touching dice stay merged; lower it when single long objects are cut into dice. */
  readonly rowSquareness: number;
  /** Share of its box a row of dice must fill (higher than `minFill`: a die seen with a side face, or a cable, also makes a bar). */
  readonly rowMinFill: number;
  /** Side of the upright face patch the pips are counted on, pixels. */
  readonly facePatch: number;
  /** Share of the face, at each edge, ignored when counting pips (bevel, rounded corners). */
  readonly faceInset: number;
  /** How much lightness counts against hue in the pip contrast map (the thresholds are in its units). Pips differ from the body mostly in lightness, marbled bodies mostly in hue: 2 reads more marbled dice of nell-byler but makes some plain 1s and 2s doubtful. */
  readonly pipLightnessWeight: number;
  /** Lab distances from the face colour above which a pixel belongs to a pip, each tried in turn. Add lower ones for low-contrast pips, higher ones when pips run together. */
  readonly pipThresholds: readonly number[];
  /** Shares of the face's strongest contrast also tried as pip thresholds when below the fixed ones, and the lowest threshold allowed. Lower the floor for faint pips; raise it when marbled bodies give false pips. */
  readonly pipRelativeThresholds: readonly number[];
  readonly pipThresholdFloor: number;
  /** Pip area as a share of the face area, smallest and largest accepted. */
  readonly pipAreaMin: number;
  readonly pipAreaMax: number;
  /** Longest/shortest side of a pip's box above which it is a side face's foreshortened pip, not a top pip. */
  readonly pipMaxElongation: number;
  /** A pip's area as a share of its convex hull's, smallest accepted (a disc fills it). Raise it when letters or logos are read as pips. */
  readonly pipMinSolidity: number;
  /** How far a lone pip may be from the face centre to be a 1, as a share of the face. */
  readonly oneCentreTolerance: number;
  /** Pips smaller than this share of the second-largest pip are ignored. Lower it when small-pip faces lose pips. */
  readonly pipSizeSpread: number;
  /** How far a pip may be from its layout cell, as a share of the layout's pitch. Raise it for strong perspective. */
  readonly layoutTolerance: number;
  /** Distance of the outer pips from the face centre along an axis, as a share of the face, smallest and largest accepted. Widen it when loose die boxes reject good faces. */
  readonly pitchMin: number;
  readonly pitchMax: number;
  /** How far the pips' centroid may be from the face centre, as a share of the face. Raise it when top faces sit off-centre in their blob. */
  readonly layoutCentreTolerance: number;
  /** Confidence factor for each pip shed to reach a valid layout. Lower it when shedding leads to wrong values. */
  readonly shedPenalty: number;
  /** Confidence factor when blobs of the wrong size or shape were seen on the face. */
  readonly strayPenalty: number;
  /** How far (degrees) a 2's to 5's outer pips may be from the face's diagonals. Raise it when dice boxes sit turned against the faces. */
  readonly diagonalTolerance: number;
  /** Pitch of a lone pip's would-be grid (where a 3's or 5's other pips sit), as a share of the face. */
  readonly onePitch: number;
  /** Radius of the disc sampled at each pip and pip spot, as a share of the pip's radius. */
  readonly gridProbe: number;
  /** An empty pip-grid point whose contrast exceeds this share of the faintest read pip's makes the value doubtful. Lower it for fewer wrong values. */
  readonly emptyGridRatio: number;
  /** The same for a lone pip read as a 1 (stricter: a face with faint pips around one strong pip must not pass as a 1). */
  readonly oneEmptyGridRatio: number;
  /** Confidence factor for a doubtful empty grid point. */
  readonly emptyGridPenalty: number;
  /** Below this confidence a die's pip count is not trusted on its own (null unless the classifier reads the face). */
  readonly minConfidence: number;
  /** Read faces with the trained face classifier too (src/vision/face-classifier.ts), and the folder of its model files. */
  readonly useClassifier: boolean;
  readonly classifierModel: string;
  /** Classifier probability (over the 8 views) at which its value replaces a clear pip count it disagrees with, rather than making the die unreadable: pips of a side face counted in, or a box cut short of the face, give clear counts that are wrong. Above 1 turns it off. */
  readonly classifierOverrule: number;
  /** Classifier probability at which it reads a face the pips could not. Raise it for fewer wrong values. */
  readonly classifierAlone: number;
  /** Read a face left unreadable, which the classifier takes for a die's face, again in a box turned to its edges' main direction (a round die's box, or one cut at seams, may sit turned against its face). The value is kept only when the pips are counted clearly there and the classifier is sure of the same value. So is a die found by its pips whose face is not confirmed in its box (turned as its layout of specks, which a pip the mask lost turns wrong). */
  readonly rereadTurned: boolean;
  /** Read a face left unreadable, which the classifier takes for a die's face and whose box is far from square (a side face taken in, seen at a slant), again in the square at each end of its box. The value is kept only when one end's pips are counted clearly and the classifier is sure of the same value, and that end's centre is inside no other blob's box (a neighbour, already read as its own die). */
  readonly rereadSquared: boolean;
  /** Search the objects (blobs that are not all dice: dice pressed together, a die against a cocked one), and the blobs taken for one die at least 1.75 times the typical one (a square cluster no cut parted; a Las Vegas big die is 1.4), for dice not found in them: a window of the median die's size is read at points a quarter of a die apart inside each such box, where the foreground fills most of it and no die is read nearby (at most 400 windows, 40 read in full at each window size; larger windows at 40 places at most, `searchLarger`). A die is kept only when its pips are counted clearly and the classifier is sure of the same value, and again so in a window centred on its pips and turned to the edges there; none where windows read different values; none inside the box of a die read (part of that die's face). An unreadable blob in which two or more dice are found is replaced by them, and its box is an object for the validity rules. Needs the classifier (`useClassifier`). */
  readonly searchObjects: boolean;
  /** For `searchObjects`: window sides, as multiples of the median die (above 1, at most 2: a window twice a die takes in its neighbours), at which the search looks again, in turn, where a window's plain view named a face but no die was confirmed near it (at the 40 surest such places; each size looks only where the size before it named a face). Among mixed dice a die pressed in an object may be larger than the frame's median die: a window of the median size sees part of its face (one column of a turned 6 is a clear 3), which the confirmation refuses, and the die is missed. Empty turns it off. */
  readonly searchLarger: readonly number[];
  /** One view's probability of "no face" that settles a face without a clear pip count (no 8-view pass): most such blobs are tray parts, shadows and clusters. */
  readonly classifierNoFace: number;
  readonly palette: Readonly<Record<string, Lab>>;
  /** How much lightness counts against hue (0-1) when a die's colour is named from the palette: light falls unevenly, hue less so. */
  readonly colourLightnessWeight: number;
}

export const DEFAULT_VISION_CONFIG: VisionConfig = Object.freeze({
  ...DEFAULT_SCENE_CONFIG,
  trayMarks: [],
  trayCorners: [],
  foregroundThreshold: 22,
  edgeThreshold: 40,
  darkerWeight: 0.45,
  shadowDepth: 30,
  beyondShadowWeight: 1,
  brighterWeight: 2.5,
  maskScale: 2,
  floorScale: 8,
  floorKernel: 15,
  overallFloorThreshold: 11,
  seamThreshold: 160,
  clusterRatio: 1.35,
  seamMinSize: 0.6,
  clusterMaxDice: 10,
  seamSizeMatch: 0.8,
  dieSizeMin: 16,
  dieSizeMax: 200,
  maxAspect: 1.5,
  minFill: 0.72,
  splitDepths: [0.35, 0.5, 0.65, 0.8],
  splitLeftover: 0.2,
  pieceMaxAspect: 2.5,
  pieceMinFill: 0.6,
  maxRow: 3,
  findByPips: true,
  findLoneOnes: true,
  darkPipContrast: 50,
  partBlurredPips: true,
  rowSquareness: 0.2,
  rowMinFill: 0.75,
  facePatch: 80,
  faceInset: 0.08,
  pipLightnessWeight: 1,
  pipThresholds: [38, 50, 65, 85, 110],
  pipRelativeThresholds: [0.4, 0.55, 0.7],
  pipThresholdFloor: 16,
  pipAreaMin: 0.006,
  pipAreaMax: 0.06,
  pipMaxElongation: 1.8,
  pipMinSolidity: 0.9,
  oneCentreTolerance: 0.2,
  pipSizeSpread: 0.4,
  layoutTolerance: 0.35,
  pitchMin: 0.1,
  pitchMax: 0.42,
  layoutCentreTolerance: 0.25,
  shedPenalty: 0.7,
  strayPenalty: 0.8,
  diagonalTolerance: 25,
  onePitch: 0.27,
  gridProbe: 0.6,
  emptyGridRatio: 0.5,
  oneEmptyGridRatio: 0.35,
  emptyGridPenalty: 0.5,
  minConfidence: 0.6,
  useClassifier: true,
  classifierModel: MODEL_DIR,
  // Held out on both nell-byler halves with two seeds each, 0.9 reads 4 dice more than 0.99 (all on half 0), none wrongly (BENCHMARKS.md, session 21).
  classifierOverrule: 0.9,
  // The mean over 8 views is seldom as sure as one view: held out, 0.95 left right readings unreadable (BENCHMARKS.md, session 16).
  classifierAlone: 0.85,
  rereadTurned: true,
  rereadSquared: true,
  searchObjects: true,
  // In-sample on nell-byler: 1.2 and 1.4 find two green 6s pressed among smaller dice, and a black 3 that the median size just missed;
  // 1.25 alone the 6s; more sizes (1.1-1.5 in steps of 0.1, 1.6) no die more; a smaller window (0.75) reads part of a 6 as a 1
  // (BENCHMARKS.md, session 31).
  searchLarger: [1.2, 1.4],
  classifierNoFace: 0.99,
  palette: DEFAULT_PALETTE,
  colourLightnessWeight: 0.45,
});

/**
 * Throws `VisionError('vision/bad_config')` naming the first setting the
 * reader cannot work with (settings that would crash OpenCV or silently make
 * every die unreadable). Cheap: every read checks it.
 */
export function checkVisionConfig(cfg: VisionConfig): void {
  const bad = (message: string): never => {
    throw new VisionError('vision/bad_config', `vision config: ${message}`);
  };
  const whole = (x: number, least: number) => Number.isInteger(x) && x >= least;
  if (!whole(cfg.floorScale, 1)) bad(`floorScale must be a whole number of at least 1, got ${cfg.floorScale}`);
  if (!whole(cfg.maskScale, 1) || cfg.floorScale < cfg.maskScale) bad(`maskScale must be a whole number from 1 to floorScale (${cfg.floorScale}), got ${cfg.maskScale}`);
  if (!whole(cfg.floorKernel, 3) || cfg.floorKernel % 2 === 0) bad(`floorKernel must be an odd whole number of at least 3, got ${cfg.floorKernel}`);
  if (!(cfg.dieSizeMin > 0 && cfg.dieSizeMin < cfg.dieSizeMax)) bad(`dieSizeMin (${cfg.dieSizeMin}) must be above 0 and below dieSizeMax (${cfg.dieSizeMax})`);
  if (!(cfg.shadowDepth >= 0 && cfg.beyondShadowWeight >= 0)) bad(`shadowDepth and beyondShadowWeight must be 0 or more, got ${cfg.shadowDepth} and ${cfg.beyondShadowWeight}`);
  if (!whole(cfg.facePatch, 16)) bad(`facePatch must be a whole number of pixels, at least 16, got ${cfg.facePatch}`);
  if (!(cfg.faceInset >= 0 && cfg.faceInset < 0.5)) bad(`faceInset must be from 0 to below 0.5 (a share of the face at each edge), got ${cfg.faceInset}`);
  if (cfg.pipThresholds.length === 0 || cfg.pipThresholds.some((t) => !(t > 0))) bad(`pipThresholds must be one or more numbers above 0, got [${cfg.pipThresholds.join(', ')}]`);
  if (cfg.searchLarger.some((k) => !(k > 1 && k <= 2))) bad(`searchLarger must be multiples of the median die above 1 and at most 2, got [${cfg.searchLarger.join(', ')}]`);
  if (cfg.splitDepths.some((d) => !(d > 0 && d < 1))) bad(`splitDepths must be shares between 0 and 1, got [${cfg.splitDepths.join(', ')}]`);
  if (!(cfg.darkPipContrast >= 0 && cfg.darkPipContrast < 256)) bad(`darkPipContrast must be from 0 (off) to 255 grey levels, got ${cfg.darkPipContrast}`);
}

/** Median of the 8-bit values counted in a 256-bin histogram. */
function histogramMedian(hist: Uint32Array, count: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v] as number;
    if (seen * 2 > count) return v;
  }
  return 255;
}

/**
 * Intermediate Mats freed together once a step is done. opencv4nodejs counts
 * every Mat's memory against V8's heap, so a frame's worth of full-size
 * intermediates left to the garbage collector sets off a full collection
 * every frame or two (about a third of the reader's time).
 */
export class Scratch {
  private readonly mats: cv.Mat[] = [];
  /** `mat`, to be freed by `release`. */
  add<T extends cv.Mat>(mat: T): T {
    this.mats.push(mat);
    return mat;
  }
  release(): void {
    for (const mat of this.mats) mat.release();
    this.mats.length = 0;
  }
}

/**
 * A new Mat with every pixel set to `value`. (Filling through the constructor
 * is ~100x slower; and setTo returns a second handle on the same pixels, which
 * is dropped here so that releasing the result frees them, not the collector.)
 */
export function filledMat(rows: number, cols: number, type: number, value: number | cv.Vec3): cv.Mat {
  const mat = new cv.Mat(rows, cols, type);
  mat.setTo(value).release();
  return mat;
}

// Histograms reused by medianLab (one per channel): no allocation per die.
const HISTOGRAMS = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;

/** Median colour of an 8-bit Lab image (L scaled to 0-255, a and b offset by 128) over a sampling grid. */
function medianLab(lab: cv.Mat, step: number): Lab {
  const data = lab.getData();
  // Read once: a Mat's rows and cols are calls into the native addon, too slow for every pixel.
  const rows = lab.rows;
  const cols = lab.cols;
  const [hL, ha, hb] = HISTOGRAMS;
  hL.fill(0);
  ha.fill(0);
  hb.fill(0);
  let count = 0;
  for (let y = 0; y < rows; y += step) {
    for (let x = 0; x < cols; x += step) {
      const i = (y * cols + x) * 3;
      const L = data[i] as number;
      const a = data[i + 1] as number;
      const b = data[i + 2] as number;
      hL[L] = (hL[L] as number) + 1;
      ha[a] = (ha[a] as number) + 1;
      hb[b] = (hb[b] as number) + 1;
      count++;
    }
  }
  if (count === 0) return { L: 0, a: 0, b: 0 };
  return { L: (histogramMedian(hL, count) * 100) / 255, a: histogramMedian(ha, count) - 128, b: histogramMedian(hb, count) - 128 };
}

/** Map of how far each pixel's colour (8-bit Lab) is from `ref` (8-bit, saturating). */
export function distanceMap(lab: cv.Mat, ref: Lab, lightnessWeight: number): cv.Mat {
  const scratch = new Scratch();
  try {
    const refMat = scratch.add(filledMat(lab.rows, lab.cols, cv.CV_8UC3, new cv.Vec3((ref.L * 255) / 100, ref.a + 128, ref.b + 128)));
    const [dL, da, db] = scratch.add(lab.absdiff(refMat)).splitChannels().map((m) => scratch.add(m)) as [cv.Mat, cv.Mat, cv.Mat];
    // 8-bit L is in 1/2.55 units of L*; a and b are already in L*a*b* units.
    return scratch.add(dL.addWeighted(lightnessWeight / 2.55, da, 1, 0)).addWeighted(1, db, 1, 0);
  } finally {
    scratch.release();
  }
}

/** Corners of a rotated rectangle, in order around it. */
function corners(rect: cv.RotatedRect): Point[] {
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

const KERNEL_3 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(3, 3));
const KERNEL_5 = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(5, 5));
// Sums a 3-channel Mat's channels into one (Mat.transform).
const CHANNEL_SUM = new cv.Mat([[1, 1, 1]], cv.CV_32F);

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

/** A blob of a rotated rectangle: its corners as the box, its mean side as the size. */
export function toBlob(rect: cv.RotatedRect): Blob {
  return { rect, box: corners(rect), size: (rect.size.width + rect.size.height) / 2 };
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

/** Whether a point lies inside a convex polygon (corners in order around it). */
function contains(box: readonly Point[], p: Point): boolean {
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
const TRAY_MARK_REACH = 6;
const TRAY_MARK_STILL = TRAY_MARK_COLOUR / 3;
// When a roll is refused, the tray's marks are looked for this far, to tell a moved camera: every 8 pixels, then every 4 and
// every 2 around the best. A mark is found moved only where it fits clearly better than 8 pixels or more away (a line of wood
// grain or a scratch fits all along itself), and the camera only when two marks or more are found moved alike (`cameraMovedBy`).
const TRAY_MARK_LOOK = 48;
// A rim's corner moved further than this (pixels) has brought the rim into the calibrated region, which lies about 4 pixels
// inside a rim square to the camera (calibrate.ts): the rolls are refused for it, and the camera is named.
const TRAY_CORNER_STILL = 4;
// How many marks (the largest) are looked for so: each takes 1-4 ms.
const TRAY_MARKS_LOOKED_FOR = 6;
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
function clearUntouchedMarks(image: cv.Mat, mask: cv.Mat, marks: readonly TrayMark[]): void {
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
const TRAY_MARK_BESIDE = 1.5;
const TRAY_MARK_OWN = 0.1;

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

const BLACK = new cv.Vec3(0, 0, 0);

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

/** Median of the numbers (0 for none). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((p, q) => p - q);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A point of the upright face patch back in frame pixels (the patch spans the blob's box, corner 0 at its origin). */
function patchToFrame(blob: Blob, p: Point, side: number): Point {
  const [c0, c1, , c3] = blob.box as [Point, Point, Point, Point];
  const u = p.x / side;
  const v = p.y / side;
  return { x: c0.x + u * (c1.x - c0.x) + v * (c3.x - c0.x), y: c0.y + u * (c1.y - c0.y) + v * (c3.y - c0.y) };
}

/**
 * Step 2: the die's top face in a BGR frame warped upright onto a square patch,
 * in Lab (only the patch is converted, not the frame). Exported for debugging
 * tools, like the stages below.
 */
export function uprightFace(image: cv.Mat, blob: Blob, side: number): cv.Mat {
  // A blob's box is a rotated rectangle, so three corners fix the warp: an affine warp is about a third cheaper than a perspective one.
  const [c0, c1, , c3] = blob.box as [Point, Point, Point, Point];
  const src = [c0, c1, c3].map((p) => new cv.Point2(p.x, p.y));
  const dst = [new cv.Point2(0, 0), new cv.Point2(side, 0), new cv.Point2(0, side)];
  const transform = cv.getAffineTransform(src, dst);
  const face = image.warpAffine(transform, new cv.Size(side, side), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
  transform.release();
  const lab = face.cvtColor(cv.COLOR_BGR2Lab);
  face.release();
  return lab;
}

interface Pip {
  readonly x: number;
  readonly y: number;
  readonly area: number;
}

/**
 * True when the pips form a standard die face: point-symmetric about their
 * centroid with a pip on it exactly when the count is odd, the layout's pitch
 * fits the face and the pips' size, and the centroid sits near the patch centre.
 */
function isPipLayout(pips: readonly Pip[], side: number, cfg: VisionConfig): boolean {
  const n = pips.length;
  if (n < 1 || n > 6) return false;
  const cx = pips.reduce((s, p) => s + p.x, 0) / n;
  const cy = pips.reduce((s, p) => s + p.y, 0) / n;
  const offCentre = Math.hypot(cx - side / 2, cy - side / 2);
  if (offCentre > side * cfg.layoutCentreTolerance) return false;
  // The side of a square of the largest pip's area (about 0.9 of its diameter).
  const pipWidth = Math.sqrt(Math.max(...pips.map((p) => p.area)));
  // A lone pip is a 1 only in the middle of the face (a 1's pip is centred; one pip of a larger face is not).
  if (n === 1) return offCentre <= side * cfg.oneCentreTolerance;
  // The farthest pip is a corner of the layout: it fixes the grid's pitch and turn (the face box may be turned a little).
  const far = pips.reduce((f, p) => (Math.hypot(p.x - cx, p.y - cy) > Math.hypot(f.x - cx, f.y - cy) ? p : f));
  const radius = Math.hypot(far.x - cx, far.y - cy);
  const pitch = radius / Math.SQRT2;
  if (pitch < side * cfg.pitchMin || pitch > side * cfg.pitchMax || pitch < pipWidth * 0.9) return false;
  // Every standard layout is point-symmetric about its centre, with a pip on the centre exactly when the count is odd.
  const tol = Math.max(2, pitch * cfg.layoutTolerance);
  let central = 0;
  for (const p of pips) {
    if (Math.hypot(p.x - cx, p.y - cy) < tol) {
      central++;
      continue;
    }
    if (!pips.some((q) => q !== p && Math.hypot(q.x + p.x - 2 * cx, q.y + p.y - 2 * cy) < tol)) return false;
  }
  if (central !== n % 2) return false;
  // The patch is square to the die's edges: a 2's to 5's outer pips sit on its diagonals (two pips side by side are not a 2).
  if (n <= 5) {
    for (const p of pips) {
      if (Math.hypot(p.x - cx, p.y - cy) < tol) continue;
      const a = Math.atan2(p.y - cy, p.x - cx) - Math.PI / 4;
      const off = Math.abs(a - (Math.PI / 2) * Math.round(a / (Math.PI / 2)));
      if (off > (cfg.diagonalTolerance * Math.PI) / 180) return false;
    }
  }
  // n = 2 or 3: the outer pair is the diagonal, so a count cut short by missed pips (a 6's middle row) does not pass.
  return n > 3 || pips.every((p) => Math.hypot(p.x - cx, p.y - cy) < tol || Math.abs(Math.hypot(p.x - cx, p.y - cy) - radius) < tol);
}

interface PipCount {
  readonly pips: readonly Pip[];
  readonly shed: number;
  readonly stray: number;
}

/** Pips found where the face's distance from its body colour exceeds `threshold`, shed down to a face layout. */
function countPips(dist: cv.Mat, threshold: number, inset: number, cfg: VisionConfig): PipCount {
  const side = cfg.facePatch;
  const last = dist.cols - 1;
  const faceArea = side * side;
  const binary = dist.threshold(threshold, 255, cv.THRESH_BINARY);
  const pipMask = binary.morphologyEx(KERNEL_3, cv.MORPH_OPEN);
  const contours = pipMask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  binary.release();
  pipMask.release();
  const candidates: Pip[] = [];
  let stray = 0;
  for (const c of contours) {
    const r = c.boundingRect();
    // Pips never reach the face's edge; what does is a rounded corner, a side face, felt or a neighbour.
    if (r.x <= 0 || r.y <= 0 || r.x + r.width - 1 >= last || r.y + r.height - 1 >= last) continue;
    const share = c.area / faceArea;
    if (share < cfg.pipAreaMin * 0.5) continue;
    const round = Math.max(r.width, r.height) / Math.max(1, Math.min(r.width, r.height)) <= cfg.pipMaxElongation;
    if (share > cfg.pipAreaMax || share < cfg.pipAreaMin || !round) {
      stray++;
      continue;
    }
    // A pip is a filled disc: letters, logos and glare streaks are not (they leave gaps in their hull).
    if (c.area < cfg.pipMinSolidity * c.convexHull().area) {
      stray++;
      continue;
    }
    const m = c.moments();
    candidates.push({ x: m.m10 / m.m00 + inset, y: m.m01 / m.m00 + inset, area: c.area });
  }
  // Pips of one face have one size (a 1 may be bigger, but it is alone): drop the ones much smaller than the typical pip.
  const typical = [...candidates].sort((p, q) => q.area - p.area)[Math.min(1, candidates.length - 1)]?.area ?? 0;
  let pips = candidates.filter((p) => p.area >= typical * cfg.pipSizeSpread);
  stray += candidates.length - pips.length;
  let shed = 0;
  // Side faces' pips sit at the edge of the patch: shed the outermost until the rest is a face layout.
  while (pips.length > 0 && !isPipLayout(pips, side, cfg)) {
    const far = pips.reduce((f, p) => (Math.hypot(p.x - side / 2, p.y - side / 2) > Math.hypot(f.x - side / 2, f.y - side / 2) ? p : f));
    pips = pips.filter((p) => p !== far);
    shed++;
  }
  // Shedding down to one pip finds a "1" in any face: a lone pip must have been alone from the start.
  if (pips.length === 1 && shed > 0) pips = [];
  return { pips, shed, stray };
}

/** Mean of an 8-bit patch over a disc (patch pixels). */
function discMean(data: Buffer, cols: number, x: number, y: number, radius: number): number {
  const x0 = Math.max(0, Math.floor(x - radius));
  const x1 = Math.min(cols - 1, Math.ceil(x + radius));
  const y0 = Math.max(0, Math.floor(y - radius));
  const y1 = Math.min(cols - 1, Math.ceil(y + radius));
  let sum = 0;
  let count = 0;
  for (let v = y0; v <= y1; v++) {
    for (let u = x0; u <= x1; u++) {
      if ((u - x) ** 2 + (v - y) ** 2 > radius * radius) continue;
      sum += data[v * cols + u] ?? 0;
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * Where the pips of the values a reading could be short of would sit, given
 * the pips read: a 1's corners (3, 5), a 2's centre and other diagonal (3, 4),
 * a 3's other diagonal (5), a 4's or 5's centre and edge midpoints (5, 6).
 */
function missingPipSpots(pips: readonly Pip[], side: number, cfg: VisionConfig): { x: number; y: number }[] {
  const n = pips.length;
  const cx = pips.reduce((s, p) => s + p.x, 0) / n;
  const cy = pips.reduce((s, p) => s + p.y, 0) / n;
  // A valid layout of an odd count has exactly one central pip (isPipLayout): the one nearest the centre, however far off it sits.
  const centreOf = (p: Pip) => Math.hypot(p.x - cx, p.y - cy);
  const central = pips.reduce((c, p) => (centreOf(p) < centreOf(c) ? p : c));
  const outer = n % 2 === 1 ? pips.filter((p) => p !== central) : pips;
  if (n === 1) {
    const d = side * cfg.onePitch;
    return [{ x: cx - d, y: cy - d }, { x: cx + d, y: cy - d }, { x: cx + d, y: cy + d }, { x: cx - d, y: cy + d }];
  }
  if (n === 2 || n === 3) {
    // The other diagonal: the outer pips turned a quarter around the centre.
    const spots = outer.map((p) => ({ x: cx - (p.y - cy), y: cy + (p.x - cx) }));
    return n === 2 ? [...spots, { x: cx, y: cy }] : spots;
  }
  if (n === 4 || n === 5) {
    // Corners in order around the centre; the midpoints of their sides are a 6's middle row (either way round).
    const ring = [...outer].sort((p, q) => Math.atan2(p.y - cy, p.x - cx) - Math.atan2(q.y - cy, q.x - cx));
    const spots = ring.map((p, i) => {
      const q = ring[(i + 1) % ring.length] as Pip;
      return { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    });
    return n === 4 ? [...spots, { x: cx, y: cy }] : spots;
  }
  return [];
}

/**
 * Contrast (mean distance from the body colour) at the faintest pip read, and
 * at the strongest spot where a pip of a larger value would sit. A face read
 * right is plain body there; a missed faint pip (a 6's middle row read as a 4)
 * shows.
 */
function pipEvidence(distData: Buffer, cols: number, inset: number, pips: readonly Pip[], cfg: VisionConfig): { present: number; absent: number } {
  const pipRadius = Math.sqrt(Math.min(...pips.map((p) => p.area)) / Math.PI);
  const radius = Math.max(1.5, pipRadius * cfg.gridProbe);
  let present = Infinity;
  for (const p of pips) present = Math.min(present, discMean(distData, cols, p.x - inset, p.y - inset, radius));
  let absent = 0;
  for (const s of missingPipSpots(pips, cfg.facePatch, cfg)) absent = Math.max(absent, discMean(distData, cols, s.x - inset, s.y - inset, radius));
  return { present, absent };
}

/**
 * The contrast thresholds to count pips at: the fixed ladder, and shares of
 * the face's strongest contrast below it (faint pips: red on dark red, on a
 * marbled body), never under the floor.
 */
function pipThresholds(dist: cv.Mat, cfg: VisionConfig): number[] {
  const blurred = dist.blur(new cv.Size(3, 3));
  const peak = blurred.minMaxLoc().maxVal;
  blurred.release();
  const lowest = cfg.pipThresholds[0] ?? 0;
  const relative = cfg.pipRelativeThresholds.map((share) => Math.round(peak * share)).filter((t) => t >= cfg.pipThresholdFloor && t < lowest);
  return [...new Set([...relative, ...cfg.pipThresholds])].sort((p, q) => p - q);
}

/**
 * Step 3: face colour and pip count on the upright patch. The pips are counted
 * at a ladder of contrast thresholds (merged pips part at higher ones, faint
 * pips only show at lower ones); the largest clean face layout wins, and its
 * empty grid points must be plain body.
 */
export function readFace(face: cv.Mat, cfg: VisionConfig): FaceRead {
  const side = cfg.facePatch;
  const inset = faceInsetOf(cfg);
  const innerSide = side - 2 * inset;
  const view = face.getRegion(new cv.Rect(inset, inset, innerSide, innerSide));
  const inner = view.copy();
  view.release();
  // Pips cover at most ~15% of a face, so the median is the body colour.
  const body = medianLab(inner, 2);
  const dist = distanceMap(inner, body, cfg.pipLightnessWeight);
  let best: PipCount | null = null;
  let bestScore = -Infinity;
  for (const threshold of pipThresholds(dist, cfg)) {
    const count = countPips(dist, threshold, inset, cfg);
    if (count.pips.length === 0) continue;
    // Clean readings first (nothing shed, nothing stray), then more pips: a higher threshold only loses pips.
    const score = (count.shed === 0 && count.stray === 0 ? 100 : 0) + count.pips.length * 10 - count.shed * 3 - count.stray;
    if (score > bestScore) {
      best = count;
      bestScore = score;
    }
    // The thresholds rise: once a reading is clean, the higher ones can only lose pips.
    if (count.shed === 0 && count.stray === 0) break;
  }
  if (best === null) {
    dist.release();
    return { body, pips: 0, confidence: 0, centre: null, inner };
  }
  let confidence = cfg.shedPenalty ** best.shed * (best.stray > 0 ? cfg.strayPenalty : 1);
  const evidence = pipEvidence(dist.getData(), innerSide, inset, best.pips, cfg);
  // A lone pip is the likeliest misreading (the one strong pip of a face whose others are faint): its surroundings must be plainer.
  const ratio = best.pips.length === 1 ? cfg.oneEmptyGridRatio : cfg.emptyGridRatio;
  if (evidence.absent > evidence.present * ratio) confidence *= cfg.emptyGridPenalty;
  dist.release();
  // A face layout is centred on the face: the pips' centroid is the top face's centre (the blob may include side faces).
  const n = best.pips.length;
  const centre = { x: best.pips.reduce((sum, p) => sum + p.x, 0) / n, y: best.pips.reduce((sum, p) => sum + p.y, 0) / n };
  return { body, pips: n, confidence, centre, inner };
}

/** Pixels ignored at each edge of the face patch (bevel, rounded corners): the inner patch starts here. */
function faceInsetOf(cfg: VisionConfig): number {
  return Math.round(cfg.facePatch * cfg.faceInset);
}

/** A face as readFace read it: its body colour, its pip count and how sure that is, the counted pips' centroid, and the patch inside the inset (Lab) for the classifier and topFaceCentre. */
export interface FaceRead {
  readonly body: Lab;
  readonly pips: number;
  readonly confidence: number;
  readonly centre: Point | null;
  readonly inner: cv.Mat;
}

/**
 * The spots that stand out from the body at half the face's strongest contrast
 * (patch coordinates), largest first, at most 18. On a face whose pips fail the
 * layout test they still mark where the top face is: a blob that includes side
 * faces puts the top face's pips off the patch's centre, and the side faces'
 * pips are among the spots too (topFaceSpots tells them apart).
 */
function spotsOf(dist: cv.Mat, inset: number, cfg: VisionConfig): Pip[] {
  const peak = dist.minMaxLoc().maxVal;
  const binary = dist.threshold(Math.max(cfg.pipThresholdFloor, peak / 2), 255, cv.THRESH_BINARY);
  const mask = binary.morphologyEx(KERNEL_3, cv.MORPH_OPEN);
  const contours = mask.findContours(cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  binary.release();
  mask.release();
  const last = dist.cols - 1;
  const spots: Pip[] = [];
  for (const c of contours) {
    const r = c.boundingRect();
    // A spot reaching the patch's edge is a side face, a shadow or the floor, not a pip.
    if (r.x <= 0 || r.y <= 0 || r.x + r.width - 1 >= last || r.y + r.height - 1 >= last || c.area <= 0) continue;
    const m = c.moments();
    spots.push({ x: m.m10 / m.m00 + inset, y: m.m01 / m.m00 + inset, area: c.area });
  }
  // Three faces' pips at most: the top face's and two side faces'.
  return spots.sort((p, q) => q.area - p.area).slice(0, 18);
}

/**
 * The top face's centre on the patch for a die read as `value`: the pips'
 * centroid when they were counted as that value; for a value the classifier
 * read, the centroid of the spots that are the top face's pips; else the
 * patch's centre.
 */
function topFaceCentre(face: FaceRead, value: number, cfg: VisionConfig): Point {
  if (face.centre && face.pips === value) return face.centre;
  const inset = faceInsetOf(cfg);
  const dist = distanceMap(face.inner, face.body, cfg.pipLightnessWeight);
  const spots = spotsOf(dist, inset, cfg);
  dist.release();
  const side = cfg.facePatch;
  if (spots.length < value) return { x: side / 2, y: side / 2 };
  const pips = topFaceSpots(spots, value, side);
  return { x: pips.reduce((sum, p) => sum + p.x, 0) / value, y: pips.reduce((sum, p) => sum + p.y, 0) / value };
}

/**
 * The `value` spots that are the top face's pips: the group of a spot and its
 * nearest spots that lies farthest from every other spot (side faces' pips sit
 * beyond the die's edge from the top face's); on a tie, the group nearer the
 * patch's centre.
 */
function topFaceSpots(spots: readonly Pip[], value: number, side: number): readonly Pip[] {
  if (spots.length === value) return spots;
  const dist = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y);
  const middle = { x: side / 2, y: side / 2 };
  const groups = spots.map((seed) => {
    const byDistance = [...spots].sort((p, q) => dist(seed, p) - dist(seed, q));
    const group = byDistance.slice(0, value);
    const apart = Math.min(...byDistance.slice(value).map((r) => Math.min(...group.map((g) => dist(r, g)))));
    const off = dist(middle, { x: group.reduce((sum, p) => sum + p.x, 0) / value, y: group.reduce((sum, p) => sum + p.y, 0) / value });
    return { group, apart, off };
  });
  // Within a pixel is a tie (two spots alone are equally far apart).
  const farthest = Math.max(...groups.map((g) => g.apart));
  const best = groups.filter((g) => g.apart >= farthest - 1).sort((a, b) => a.off - b.off)[0];
  return best ? best.group : spots.slice(0, value);
}

/**
 * Left to right in columns, then top to bottom in each column: a stable order
 * for the game. A column starts at its leftmost die and takes the dice whose
 * centres are within half a die's width of it. The columns are formed first,
 * so the order is the same whatever order the dice were found in (comparing
 * two dice at a time is not: A may come before B, B before C and C before A).
 */
export function inReadingOrder<T extends { readonly center: { readonly x: number; readonly y: number }; readonly size: number }>(dice: readonly T[]): T[] {
  const byX = [...dice].sort((p, q) => p.center.x - q.center.x || p.center.y - q.center.y);
  const columns: T[][] = [];
  for (const die of byX) {
    const column = columns.at(-1);
    const first = column?.[0];
    if (column && first && die.center.x - first.center.x <= Math.max(first.size, die.size) / 2) column.push(die);
    else columns.push([die]);
  }
  return columns.flatMap((column) => column.sort((p, q) => p.center.y - q.center.y || p.center.x - q.center.x));
}

/**
 * Step 4: a die's value from the pip count and the face classifier. Both must
 * agree when the pips are clear (the classifier may also say it is no die's
 * face), unless the classifier is all but certain of another value; a face the
 * pips cannot read may still be read by a classifier that is very sure of it;
 * otherwise the die is unreadable.
 */
export function decideValue(pips: { readonly pips: number; readonly confidence: number }, guess: FaceGuess | null, cfg: VisionConfig, classifierMayReadAlone = true): { value: number | null; confidence: number } {
  const counted = pips.confidence >= cfg.minConfidence;
  if (guess === null) return counted ? { value: pips.pips, confidence: pips.confidence } : { value: null, confidence: pips.confidence };
  if (counted && guess.value === pips.pips) return { value: pips.pips, confidence: Math.max(pips.confidence, guess.probability) };
  if (counted) {
    // They disagree. A classifier sure over all 8 views is right far more often than the count (held out, at 0.99: nell-byler half 1,
    // 7 of 7; at 0.9, 4 more dice, all right); otherwise the value is in doubt, however unsure the classifier (on the shared photos it
    // is never below 0.6 here). A die cut at seams is read only from a confirmed count.
    if (classifierMayReadAlone && guess.value > 0 && guess.probability >= cfg.classifierOverrule) return { value: guess.value, confidence: guess.probability };
    return { value: null, confidence: Math.min(pips.confidence, 1 - guess.probability) };
  }
  return classifierMayReadAlone && guess.value > 0 && guess.probability >= cfg.classifierAlone ? { value: guess.value, confidence: guess.probability } : { value: null, confidence: 0 };
}

const classifiers = new Map<string, FaceClassifier>();
/** The configured model, loaded on first use. */
export function classifierFor(cfg: VisionConfig): FaceClassifier | null {
  if (!cfg.useClassifier) return null;
  let classifier = classifiers.get(cfg.classifierModel);
  if (!classifier) {
    classifier = loadFaceClassifier(cfg.classifierModel);
    classifiers.set(cfg.classifierModel, classifier);
  }
  return classifier;
}

/**
 * The classifier's guess for each face: one view first; a face whose clear pip
 * count that view confirms is settled, and so is a face without a clear count
 * that view is sure is no face (it stays unreadable); the others (doubt is
 * where mistakes are) get the steadier answer over the 8 rotations and mirror
 * images.
 */
function classifyFaces(classifier: FaceClassifier, faces: readonly { pips: number; confidence: number; body: Lab; inner: cv.Mat }[], cfg: VisionConfig): FaceGuess[] {
  const inputs = faces.map((f) => faceInput(f.inner, f.body));
  const guesses = classifier.classify(inputs);
  const settled = (f: { pips: number; confidence: number }, guess: FaceGuess) =>
    f.confidence >= cfg.minConfidence ? guess.value === f.pips : guess.value === 0 && guess.probability >= cfg.classifierNoFace;
  const doubtful = faces.flatMap((f, i) => (settled(f, guesses[i] as FaceGuess) ? [] : [i]));
  const second = classifier.classify(
    doubtful.map((i) => inputs[i] as cv.Mat),
    true,
    doubtful.map((i) => guesses[i] as FaceGuess),
  );
  doubtful.forEach((i, k) => (guesses[i] = second[k] as FaceGuess));
  for (const input of inputs) input.release();
  return guesses;
}

/** A face turned less than this (degrees) against its box reads the same in a box turned to it. */
const MIN_TURN = 5;

/**
 * How far (degrees, -45 to 45) the edges on a face patch (Lab) are turned
 * against the patch's sides: the gradient's direction times four, so that a
 * square's four sides agree, averaged with the squared magnitude as weight.
 */
export function edgeTurn(face: cv.Mat): number {
  const scratch = new Scratch();
  try {
    const [lightness] = face.splitChannels().map((m) => scratch.add(m)) as [cv.Mat];
    const floats = (m: cv.Mat) => {
      const data = scratch.add(m).getData();
      return new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
    };
    const gx = floats(lightness.sobel(cv.CV_32F, 1, 0, 3));
    const gy = floats(lightness.sobel(cv.CV_32F, 0, 1, 3));
    let cos = 0;
    let sin = 0;
    for (let i = 0; i < gx.length; i++) {
      const x = gx[i] as number;
      const y = gy[i] as number;
      const m2 = x * x + y * y;
      if (m2 === 0) continue;
      // (x + iy)^4 / |g|^2 = |g|^2 e^(4iθ), with no trigonometry per pixel.
      const re = x * x - y * y;
      const im = 2 * x * y;
      cos += (re * re - im * im) / m2;
      sin += (2 * re * im) / m2;
    }
    return (Math.atan2(sin, cos) / 4) * (180 / Math.PI);
  } finally {
    scratch.release();
  }
}

/** A pip count the classifier confirms: counted clearly, and the classifier sure of the same value (the terms on which a die found by its pips is kept). */
function confirmedCount(face: FaceRead, guess: FaceGuess | undefined, cfg: VisionConfig): guess is FaceGuess {
  return guess !== undefined && face.confidence >= cfg.minConfidence && guess.value === face.pips && guess.probability >= cfg.classifierAlone;
}

/**
 * A face left unreadable, read again in a square box turned to its edges: a
 * 2 or 3 whose box sits turned 45° against it has its pips side by side, which
 * is no face's layout. Kept only on the terms of a die found by its pips:
 * counted clearly, and the classifier sure of the same value over its 8 views.
 */
function readTurned(image: cv.Mat, blob: Blob, classifier: FaceClassifier, cfg: VisionConfig): Reread | null {
  const turned = boxToEdges(image, blob, Math.max(blob.rect.size.width, blob.rect.size.height), cfg);
  return turned && readConfirmed(image, turned, classifier, cfg);
}

/** A square of side `side` on the blob's centre, turned to the edges' main direction on its face (edgeTurn); null when they are square to the blob already. */
function boxToEdges(image: cv.Mat, blob: Blob, side: number, cfg: VisionConfig): Blob | null {
  const patch = uprightFace(image, blob, cfg.facePatch);
  const turn = edgeTurn(patch);
  patch.release();
  return Math.abs(turn) < MIN_TURN ? null : toBlob(new cv.RotatedRect(blob.rect.center, new cv.Size(side, side), blob.rect.angle + turn));
}

/** A face read again in another box: its value, how sure, its top face's centre in the frame, its body colour and the box it was read in. */
interface Reread {
  readonly value: number;
  readonly confidence: number;
  readonly centre: Point;
  readonly body: Lab;
  readonly box: Blob;
}

/** The face in `box`, read again: its value when the pips are counted clearly there and the classifier is sure of the same value, else null. */
function readConfirmed(image: cv.Mat, box: Blob, classifier: FaceClassifier, cfg: VisionConfig): Reread | null {
  const upright = uprightFace(image, box, cfg.facePatch);
  const face = readFace(upright, cfg);
  upright.release();
  try {
    if (face.confidence < cfg.minConfidence || face.centre === null) return null;
    const input = faceInput(face.inner, face.body);
    const [guess] = classifier.classify([input], true);
    input.release();
    if (!confirmedCount(face, guess, cfg)) return null;
    return { value: face.pips, confidence: decideValue(face, guess, cfg).confidence, centre: patchToFrame(box, face.centre, cfg.facePatch), body: face.body, box };
  } finally {
    face.inner.release();
  }
}

/** A box at least this much longer than wide is read again as its ends' squares (the figures held out do not change from 1.08 to 1.25). */
const SQUARED_ASPECT = 1.15;

/**
 * A face left unreadable whose box is far from square: seen at a slant, the
 * blob takes in a side face, and the top face is the square at one end of it.
 * Both ends' squares are read, each kept only when confirmed (counted clearly,
 * the classifier sure of the same value); two ends that disagree read nothing.
 */
function readSquared(image: cv.Mat, blob: Blob, classifier: FaceClassifier, cfg: VisionConfig): Reread | null {
  const { width, height } = blob.rect.size;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (long < SQUARED_ASPECT * short) return null;
  // The long side's direction: a RotatedRect's width lies along its angle.
  const angle = (blob.rect.angle * Math.PI) / 180 + (width >= height ? 0 : Math.PI / 2);
  const shift = (long - short) / 2;
  const end = (sign: number) => {
    const centre = new cv.Point2(blob.rect.center.x + sign * shift * Math.cos(angle), blob.rect.center.y + sign * shift * Math.sin(angle));
    return readConfirmed(image, toBlob(new cv.RotatedRect(centre, new cv.Size(short, short), blob.rect.angle)), classifier, cfg);
  };
  const [a, b] = [end(-1), end(1)];
  if (a && b) return a.value === b.value ? (a.confidence >= b.confidence ? a : b) : null;
  return a ?? b;
}

/**
 * A face left unreadable that the classifier takes for a die's face, read again
 * in a better box: turned to its edges (`rereadTurned`), else the square at an
 * end of a long box (`rereadSquared`) whose centre is inside no other blob's box
 * (that end would be a neighbour's face, already read as its own die).
 */
function readAgain(image: cv.Mat, blob: Blob, blobs: readonly Blob[], classifier: FaceClassifier, cfg: VisionConfig): Reread | null {
  const turned = cfg.rereadTurned ? readTurned(image, blob, classifier, cfg) : null;
  if (turned !== null || !cfg.rereadSquared) return turned;
  const squared = readSquared(image, blob, classifier, cfg);
  return squared && !blobs.some((other) => other !== blob && contains(other.box, squared.centre)) ? squared : null;
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

/** A die read whose box is at least this many times the size of a die read whose centre it holds takes in more than one die's face. */
export const HOLDER_RATIO = 1.5;

/**
 * Step 6: the dice read whose boxes hold the centre of another die read at
 * most 1/HOLDER_RATIO their size. Such a box takes in that die and more
 * (nell-byler IMG_20191208_111304: a box over the tray's dark corner and a
 * blue 4 beside it, read as a second 4), so what was read in it is not one
 * die's face: the reader leaves it unreadable, and the roll is refused. Dice
 * lying side by side never hold each other's centres; in a crowd, the box of a
 * die pressed among others may hold a neighbour's, but the two are near one
 * size (in-sample on nell-byler, two dice read right hold a neighbour's centre
 * at 1.24 and 1.28 times its size; the corner's box is 1.77 times the 4's).
 */
export function holdersOfSmallerDice(dice: readonly DieReading[]): Set<DieReading> {
  const read = dice.filter((die) => die.value !== null);
  return new Set(read.filter((die) => read.some((other) => other.size * HOLDER_RATIO <= die.size && contains(die.box, other.center))));
}

/** The smallest frame side the reader and calibration take: the tray floor is estimated on a copy an eighth the size, and the calibration probes the middle of a quarter-size copy over 16 pixels. */
export const MIN_FRAME_SIDE = 64;

/** Throws `vision/bad_frame` for a frame too small to be a camera's view of the tray. */
export function checkFrameSize(image: cv.Mat): void {
  if (image.cols < MIN_FRAME_SIDE || image.rows < MIN_FRAME_SIDE) {
    throw new VisionError('vision/bad_frame', `the frame is ${image.cols}x${image.rows}: too small for a camera's view of the tray (at least ${MIN_FRAME_SIDE}x${MIN_FRAME_SIDE})`);
  }
}

/** Reads every die in a decoded BGR frame. Pure: the frame is not changed. */
export function readDiceInImage(image: cv.Mat, cfg: VisionConfig = DEFAULT_VISION_CONFIG, expectedCount?: number): DiceReading {
  const started = performance.now();
  checkFrameSize(image);
  const calibrated = cfg.trayFrame;
  if (calibrated && (image.cols !== calibrated.width || image.rows !== calibrated.height)) {
    throw new VisionError('vision/calibration_mismatch', `the frame is ${image.cols}x${image.rows}, but the tray was calibrated on ${calibrated.width}x${calibrated.height} frames: calibrate again at this size (dice-tower calibrate), or read without the calibration`);
  }
  const { blobs, objects, searchAt, typical } = findDieBlobs(image, cfg);
  const faces = blobs.map((blob) => {
    const upright = uprightFace(image, blob, cfg.facePatch);
    const face = readFace(upright, cfg);
    upright.release();
    return face;
  });
  // The face patches are freed only at the end: a die the classifier reads is placed by the spots on its patch (topFaceCentre).
  try {
    const classifier = classifierFor(cfg);
    const guesses = classifier ? classifyFaces(classifier, faces, cfg) : [];
    // A die found by its pips alone is a die only when they are counted clearly and the classifier is sure of the same value. Its
    // box is turned as its layout of specks, which a pip the mask lost turns wrong: unconfirmed there, it is read again in a box
    // turned to its edges, on the same terms, and takes that box (`turned`).
    const kept: { blob: Blob; i: number; turned: Reread | null }[] = [];
    blobs.forEach((blob, i) => {
      const guess = guesses[i];
      const aFace = guess !== undefined && guess.value > 0;
      if (!blob.byPips || confirmedCount(faces[i] as FaceRead, guess, cfg)) {
        kept.push({ blob, i, turned: null });
        return;
      }
      const turned = classifier && cfg.rereadTurned && aFace ? readTurned(image, blob, classifier, cfg) : null;
      if (turned) kept.push({ blob, i, turned });
    });
    const dieAt = (value: number | null, body: Lab, center: Point, box: Blob, confidence: number): DieReading => {
      const colour = nearestColour(body, cfg.palette, cfg.colourLightnessWeight);
      return { value, colour: colour.name, lab: body, center, box: box.box, size: box.size, confidence };
    };
    const readings = kept.map(({ blob, i, turned }) => {
      const face = faces[i] as FaceRead;
      const guess = guesses[i] ?? null;
      const decided = decideValue(face, guess, cfg, !blob.seamCut);
      // Most faces left unreadable are blobs the classifier takes for no face (tray parts, shadows): not worth reading again.
      const reread = turned ?? (decided.value === null && classifier && guess !== null && guess.value > 0 ? readAgain(image, blob, blobs, classifier, cfg) : null);
      const { value, confidence } = reread ?? decided;
      // The top face's centre, not the blob's (which may include side faces).
      const centre = reread?.centre ?? (value === null ? { x: blob.rect.center.x, y: blob.rect.center.y } : patchToFrame(blob, topFaceCentre(face, value, cfg), cfg.facePatch));
      return { blob, die: dieAt(value, turned?.body ?? face.body, centre, turned?.box ?? blob, confidence) };
    });
    const found = classifier && searchAt.length > 0 ? searchObjects(image, searchAt, typical, readings.map((r) => r.die), classifier, cfg) : [];
    const holds = (die: DieReading, f: Reread) => die.value === null && contains(die.box, f.centre);
    // An unreadable "die" holding two or more dice the search found was a cluster of dice: they replace it, and its box is an object (they may lie on one another).
    const isCluster = (die: DieReading) => found.filter((f) => holds(die, f)).length >= 2;
    const clusters: (readonly Point[])[] = [];
    const single: typeof readings = [];
    for (const r of readings) {
      if (isCluster(r.die)) clusters.push(r.die.box);
      else single.push(r);
    }
    // A die left unreadable where the search found one was that die in a poor box: it takes the value, and keeps its box, whose shape the validity rules judge (a die seen cocked).
    const placed = single.map(({ blob, die }) => {
      const match = found.find((f) => holds(die, f));
      return { blob, die: match ? { ...die, value: match.value, center: match.centre, confidence: match.confidence } : die };
    });
    const foundAlone = found.filter((f) => !single.some((r) => holds(r.die, f))).map((f) => dieAt(f.value, f.body, f.centre, f.box, f.confidence));
    const holders = holdersOfSmallerDice([...placed.map((r) => r.die), ...foundAlone]);
    // A die on a tray mark of its own colour is in the mask only where its pips changed the mark's cells: what was read is part of its face.
    const onOwnMark = (die: DieReading) => die.lab !== undefined && cfg.trayMarks.length > 0 && ownColourShare(die.box, die.lab, typical * TRAY_MARK_BESIDE, cfg.trayMarks) > TRAY_MARK_OWN;
    const unsure = (die: DieReading): DieReading => (holders.has(die) || onOwnMark(die) ? { ...die, value: null, confidence: 0 } : die);
    const read = placed.map(({ blob, die }) => ({ blob, die: unsure(die) }));
    const fresh = foundAlone.map(unsure);
    const fills = new Map(read.map((r) => [r.die, r.blob.fill ?? 1]));
    // A die found by its pips was given the frame's median size, and one the search found its window's (the median's, or 1.2 or 1.4
    // times it): their size class (a Las Vegas big die) cannot be told.
    const unsized = new Set([...read.filter((r) => r.blob.byPips).map((r) => r.die), ...fresh]);
    // Validity, colour confidence and size class: src/vision/validity.ts.
    const draft = { dice: inReadingOrder([...read.map((r) => r.die), ...fresh]), fills, unsized, objects: [...objects, ...clusters], width: image.cols, height: image.rows };
    const judged = judgeScene(draft, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount);
    // A refused roll may be a moved camera's: its marks' edges are left in the mask. Looked for only then (a roll read well costs
    // nothing more), and only with the largest marks, the surest to place.
    // The rim's corners too: a tray with no marks, or one, has them (a rim's straight side alone fits all along itself).
    const marks = [...cfg.trayMarks].sort((p, q) => q.area - p.area).slice(0, TRAY_MARKS_LOOKED_FOR);
    const looks = [...marks.map((mark) => ({ mark, still: TRAY_MARK_REACH })), ...cfg.trayCorners.map((mark) => ({ mark, still: TRAY_CORNER_STILL }))];
    const moved = !judged.valid && looks.length >= 2 ? cameraMovedBy(looks.flatMap(({ mark, still }) => markMovedBy(image, mark, still) ?? [])) : null;
    const final = moved ? judgeScene({ ...draft, cameraMoved: moved }, cfg.palette, cfg.colourLightnessWeight, cfg, expectedCount) : judged;
    return { ...final, width: image.cols, height: image.rows, ms: performance.now() - started };
  } finally {
    for (const face of faces) face.inner.release();
  }
}

/**
 * Decodes an encoded image (JPEG, PNG...) into a Mat: BGR by default (a grey
 * or RGBA image too), or as `flags` asks (the settle detector's small grey copy).
 */
export function decodeFrame(bytes: Buffer, flags: number = cv.IMREAD_COLOR): cv.Mat {
  const decoded = decodeImage(bytes, flags);
  if ('problem' in decoded) throw new VisionError('vision/bad_frame', `the frame is not a readable image: ${decoded.problem}`);
  return decoded.image;
}

/**
 * The OpenCV dice reader over camera frames. Throws `VisionError` when made
 * with a bad setting (`vision/bad_config`) or without its model
 * (`vision/no_model`, `vision/bad_model`).
 */
export function createDiceReader(cfg: VisionConfig = DEFAULT_VISION_CONFIG): DiceReader {
  // A bad setting or a missing model fails here, when the reader is made, not at a game's first roll.
  checkVisionConfig(cfg);
  classifierFor(cfg);
  return {
    async read(frame: Frame, expectedCount?: number): Promise<DiceReading> {
      const started = performance.now();
      const image = decodeFrame(frame.image);
      try {
        const reading = readDiceInImage(image, cfg, expectedCount);
        return { ...reading, ms: performance.now() - started };
      } finally {
        // Freed now, not by the garbage collector (see Scratch).
        image.release();
      }
    },
  };
}

