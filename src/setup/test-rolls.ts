/**
 * Test rolls and this tower's accuracy: the operator throws N dice (the tower,
 * or by hand), sees the reading drawn over its frame, and confirms it or puts
 * each misread die right. The running tally — dice read right, unreadable,
 * wrong, and the re-rolls the tower needed — is kept in the data directory
 * (accuracy.json) and shown on /api/health and the setup page: the figure a
 * tower owner trusts.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { readTextIfThere, writeFileAtomic } from '../storage/atomic-file.js';
import { TableError, type Table } from '../table.js';
import type { DiceReading, DieReading } from '../vision/index.js';

export const ACCURACY_FILE = 'accuracy.json';
/** Dice in one test roll: as many as a game throws at most. */
export const MAX_TEST_DICE = 30;
/** Throws a test roll may take while the reading is refused, as a game's roll does. */
const MAX_ATTEMPTS = 3;
/** Test rolls waiting for the operator's verdict, with their frames (the oldest go first). */
const PENDING_KEPT = 10;

/** This tower's record over every judged test roll. */
export interface AccuracyTally {
  readonly rolls: number;
  /** Dice thrown in judged test rolls. */
  readonly dice: number;
  /** Read with the right value. */
  readonly right: number;
  /** Not read at all: seen without a value, or not seen. */
  readonly unreadable: number;
  /** Read with a wrong value, or something read as a die that was none. */
  readonly wrong: number;
  /** Extra throws the tower needed because the reading was refused. */
  readonly rerolls: number;
  /** When the last verdict was given (ms since the epoch), or null. */
  readonly updatedAt: number | null;
}

export const EMPTY_TALLY: AccuracyTally = { rolls: 0, dice: 0, right: 0, unreadable: 0, wrong: 0, rerolls: 0, updatedAt: null };

/** What the operator says each read die really shows, in the reading's order: 1-6, or 0 for "not a die". */
export type Verdict = readonly number[];

/**
 * How one test roll went, from what was read, what the operator says each read
 * die shows, and how many dice were thrown: dice not seen at all count as
 * unreadable; a die read as another value, or a "die" that was none, as wrong.
 */
export function judge(read: readonly (number | null)[], truth: Verdict, thrown: number): { right: number; unreadable: number; wrong: number } {
  if (truth.length !== read.length) throw new TableError('setup/bad_verdict', `Give one value per die read: ${read.length} read, ${truth.length} given.`, 400);
  const bad = truth.find((v) => !Number.isInteger(v) || v < 0 || v > 6);
  if (bad !== undefined) throw new TableError('setup/bad_verdict', `A die shows 1 to 6 (0: not a die); got ${bad}.`, 400);
  let right = 0;
  let unreadable = 0;
  let wrong = 0;
  truth.forEach((value, i) => {
    const seen = read[i] ?? null;
    if (value === 0) wrong++;
    else if (seen === null) unreadable++;
    else if (seen === value) right++;
    else wrong++;
  });
  const realDice = truth.filter((v) => v > 0).length;
  unreadable += Math.max(0, thrown - realDice);
  return { right, unreadable, wrong };
}

/** The tally with one judged roll added. */
export function addToTally(tally: AccuracyTally, outcome: { right: number; unreadable: number; wrong: number }, thrown: number, attempts: number, at: number): AccuracyTally {
  return {
    rolls: tally.rolls + 1,
    dice: tally.dice + thrown,
    right: tally.right + outcome.right,
    unreadable: tally.unreadable + outcome.unreadable,
    wrong: tally.wrong + outcome.wrong,
    rerolls: tally.rerolls + Math.max(0, attempts - 1),
    updatedAt: at,
  };
}

/** A tally read back from its file; a file that is not one is refused with why, never read as zeros. */
export function parseTally(text: string, path: string): AccuracyTally {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON; move it away to start the accuracy tally again`);
  }
  const v = value as Record<string, unknown>;
  const counts = ['rolls', 'dice', 'right', 'unreadable', 'wrong', 'rerolls'] as const;
  if (typeof value !== 'object' || value === null || counts.some((k) => !Number.isInteger(v[k]) || (v[k] as number) < 0)) {
    throw new Error(`${path} does not hold an accuracy tally (${counts.join(', ')}: whole numbers); move it away to start again`);
  }
  return { ...(Object.fromEntries(counts.map((k) => [k, v[k]])) as Record<(typeof counts)[number], number>), updatedAt: typeof v.updatedAt === 'number' ? v.updatedAt : null };
}

/** A test roll as the setup page shows it: the reading to draw over its frame. */
export interface TestRollView {
  readonly id: string;
  readonly count: number;
  readonly attempts: number;
  readonly valid: boolean;
  readonly problems: readonly string[];
  /** The same reasons as codes (the reader's issues, validity.ts), for the page to word; empty from a reader without codes. */
  readonly issues: readonly string[];
  readonly frameUrl: string;
  /** The dice as read (the API sends each as the pages draw it, api/views.ts `dieView`). */
  readonly reading: {
    readonly width: number;
    readonly height: number;
    readonly dice: readonly DieReading[];
  };
}

interface PendingRoll {
  readonly id: string;
  readonly count: number;
  readonly attempts: number;
  readonly image: Buffer;
  readonly reading: DiceReading;
}

export interface TestRollsOptions {
  /** Where the tally is kept (accuracy.json); none: in memory only. */
  readonly dataDir?: string | null;
  readonly now?: () => number;
}

export class TestRolls {
  private tallyNow: AccuracyTally;
  private readonly pending = new Map<string, PendingRoll>();
  private readonly file: string | null;
  private readonly now: () => number;

  constructor(
    private readonly table: Table,
    options: TestRollsOptions = {},
  ) {
    this.file = options.dataDir ? join(options.dataDir, ACCURACY_FILE) : null;
    this.now = options.now ?? Date.now;
    const text = this.file ? readTextIfThere(this.file) : null;
    this.tallyNow = text === null || this.file === null ? EMPTY_TALLY : parseTally(text, this.file);
  }

  tally(): AccuracyTally {
    return this.tallyNow;
  }

  /** Throws `count` dice and reads them, throwing again (up to 3 throws) while the reading is refused, as a game's roll would. */
  async roll(count: number): Promise<TestRollView> {
    if (!Number.isInteger(count) || count < 1 || count > MAX_TEST_DICE) throw new TableError('setup/bad_count', `A test roll throws 1 to ${MAX_TEST_DICE} dice; got ${count}.`, 400, { max: MAX_TEST_DICE, count });
    let thrown = await this.table.throwForTest(count);
    let attempts = 1;
    while (!thrown.reading.valid && attempts < MAX_ATTEMPTS) {
      thrown = await this.table.throwForTest(count);
      attempts++;
    }
    const roll: PendingRoll = { id: randomUUID(), count, attempts, image: thrown.image, reading: thrown.reading };
    this.pending.set(roll.id, roll);
    for (const old of this.pending.keys()) if (this.pending.size > PENDING_KEPT) this.pending.delete(old);
    return view(roll);
  }

  /** The frame of a test roll waiting for its verdict. */
  frame(id: string): Buffer {
    return this.get(id).image;
  }

  /** The operator's verdict on a test roll (what each read die really shows): counted once in the tally, which is saved. */
  verdict(id: string, truth: Verdict): { readonly outcome: { right: number; unreadable: number; wrong: number }; readonly tally: AccuracyTally } {
    const roll = this.get(id);
    const outcome = judge(
      roll.reading.dice.map((d) => d.value),
      truth,
      roll.count,
    );
    const next = addToTally(this.tallyNow, outcome, roll.count, roll.attempts, this.now());
    this.save(next);
    this.pending.delete(id);
    return { outcome, tally: next };
  }

  /** Starts the tally again (the camera was moved, the dice changed). */
  reset(): AccuracyTally {
    this.save(EMPTY_TALLY);
    this.pending.clear();
    return EMPTY_TALLY;
  }

  private save(tally: AccuracyTally): void {
    if (this.file) {
      try {
        writeFileAtomic(this.file, Buffer.from(`${JSON.stringify(tally, null, 2)}\n`));
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        throw new TableError('setup/write_failed', `The accuracy tally could not be saved to ${this.file} (${error}); it is unchanged.`, 503, { file: this.file, error });
      }
    }
    this.tallyNow = tally;
  }

  private get(id: string): PendingRoll {
    const roll = this.pending.get(id);
    if (!roll) throw new TableError('setup/no_such_test_roll', `There is no test roll '${id}' waiting for a verdict (judged already, or one of the older ones no longer kept).`, 404, { id });
    return roll;
  }
}

function view(roll: PendingRoll): TestRollView {
  const { reading } = roll;
  return {
    id: roll.id,
    count: roll.count,
    attempts: roll.attempts,
    valid: reading.valid,
    problems: reading.problems,
    issues: (reading.issues ?? []).map((issue) => issue.code),
    frameUrl: `/api/setup/test-rolls/${roll.id}/frame.jpg`,
    reading: {
      width: reading.width,
      height: reading.height,
      dice: reading.dice,
    },
  };
}
