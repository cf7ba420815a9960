import type { Frame } from '../hardware/types.js';

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** One die as read from a frame. */
export interface DieReading {
  /** Pips on the top face, 1-6; null when the face could not be read. */
  readonly value: number | null;
  /** Nearest palette colour name. */
  readonly colour: string;
  /**
   * False when the measured colour is too near two palette colours to name one
   * with confidence (games where colour decides ownership must not use the die).
   * Absent from readers that do not judge it: treat as not confident.
   */
  readonly colourConfident?: boolean;
  /** Measured colour of the top face in CIE Lab (L 0-100, a and b about -128..127). */
  readonly lab?: { readonly L: number; readonly a: number; readonly b: number };
  /** Size class (Las Vegas big dice); null when it cannot be told. Absent: not judged. */
  readonly sizeClass?: 'normal' | 'big' | null;
  /** Centre of the top face, frame pixels. */
  readonly center: Point;
  /** Corners of the top face's rotated box, frame pixels, in order around the box. */
  readonly box: readonly Point[];
  /** Edge length of the top face, pixels. */
  readonly size: number;
  /** 0-1: how sure the reader is of the value (and colour). */
  readonly confidence: number;
}

/** Why a reading is invalid, as a code for programs (the sentence is in `problems`). */
export type ReadingIssueCode = 'camera_moved' | 'cocked' | 'stacked' | 'outside' | 'object' | 'unreadable' | 'too_few' | 'too_many' | 'empty' | 'unsettled';

export interface ReadingIssue {
  readonly code: ReadingIssueCode;
  /** The sentence shown to people; the same as the matching entry of `problems`. */
  readonly message: string;
  /** Where in the frame, when the issue is one die or object. */
  readonly at?: Point;
}

/** Everything read from one frame. Dice are ordered left to right, then top to bottom. */
export interface DiceReading {
  readonly dice: readonly DieReading[];
  /** False when the roll must not be used (unreadable die, wrong count...); see `problems`. */
  readonly valid: boolean;
  /** Reasons the roll is invalid, each a sentence naming the problem (the gravest first). */
  readonly problems: readonly string[];
  /** The same reasons with codes, in the same order. Absent from readers that do not give codes. */
  readonly issues?: readonly ReadingIssue[];
  readonly width: number;
  readonly height: number;
  /** Time spent reading, ms. */
  readonly ms: number;
}

/** Reads the dice in a camera frame. Implementations may change their internals freely. */
export interface DiceReader {
  /**
   * Reads every die in the frame. `expectedCount`, when given, makes a
   * different number of dice an invalid roll. Rejects only when the frame
   * itself cannot be decoded (`VisionError` with code `vision/bad_frame`), or
   * is not the size the tray was calibrated on (`vision/calibration_mismatch`).
   */
  read(frame: Frame, expectedCount?: number): Promise<DiceReading>;
}

export class VisionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'VisionError';
  }
}
