/**
 * The dice reader's settings: `VisionConfig` (every tunable, with its unit
 * and which way to turn it), its defaults (`DEFAULT_VISION_CONFIG`), and
 * `checkVisionConfig`, which refuses with `vision/bad_config` the settings
 * the reader cannot work with. In: a config; out: nothing, or that error.
 */
import { join } from 'node:path';
import { MODEL_DIR } from './face-classifier.js';
import { FINDER_MODEL } from './find.js';
import { DEFAULT_PALETTE, type Lab } from './palette.js';
import type { TrayMark } from './tray-marks.js';
import { VisionError } from './types.js';
import { DEFAULT_SCENE_CONFIG, type SceneConfig } from './validity.js';

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
  /**
   * The learned die finder's model file (src/vision/find.ts), asked where the
   * reader found something that is no die it can read: an unreadable "die"
   * that the classifier is sure is no die's face, and an object holding no die
   * read, are dropped unless the finder is sure of a die there (a board's
   * fastener, a tray's corner, wood grain). Null: not asked, all are reported.
   */
  readonly finderModel: string | null;
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
  finderModel: join(MODEL_DIR, FINDER_MODEL),
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
