/**
 * Replay: a game's state derived from its setup and its steps in order. Used to
 * restore games at start, to apply a correction (the corrected roll's values
 * replace the read ones and every later step is applied again), to take back
 * decisions (an undo drops them again), and to check an imported game. Pure.
 */
import { isInvalid, type AnyGameDef } from './games/index.js';
import type { CorrectionRecord, RollRecord } from './table.js';
import type { GameEndedPayload, GameUndoPayload } from './storage/events.js';
import { canonicalJson } from './storage/canonical-json.js';
import { errorText } from './error-text.js';

export type ReplayStep =
  | { readonly kind: 'action'; readonly action: { readonly type: string }; readonly at: number }
  | { readonly kind: 'roll'; readonly roll: RollRecord; readonly at: number }
  | { readonly kind: 'correction'; readonly correction: CorrectionRecord; readonly at: number }
  | { readonly kind: 'undo'; readonly undo: GameUndoPayload; readonly at: number }
  | { readonly kind: 'ended'; readonly ended: GameEndedPayload; readonly at: number };

/** A game put away without a result: by whom, why, when. */
export type EndedRecord = GameEndedPayload & { readonly at: number };

export interface Replayed {
  readonly state: unknown;
  /** The actions applied, rolls with their corrected values. */
  readonly actions: ReadonlyArray<{ readonly type: string }>;
  /** The rolls as recorded (read values; corrections are separate). */
  readonly rolls: readonly RollRecord[];
  readonly corrections: readonly CorrectionRecord[];
  /** Decisions taken back by undo events, and how many undo events there were (the game's version counts both). */
  readonly undone: number;
  readonly undos: number;
  /** Set when the game was ended without a result. */
  readonly ended: EndedRecord | null;
  readonly updatedAt: number;
  /** The first step the rules (or the log's own order) refused; replay stopped before it. */
  readonly problem: { readonly index: number; readonly message: string } | null;
}

/**
 * The action a roll applies, with the values it is taken to have (read or
 * corrected). Coloured dice keep their colour and size; a correction changes
 * their values only (in the order of `values`, the request's order).
 */
export function rollAction(roll: RollRecord, values: readonly number[]): { type: string } {
  const dice = roll.dice?.map((d, i) => ({ ...d, value: values[i] ?? d.value }));
  return { type: 'roll', values, ...(dice ? { dice } : {}) } as { type: string };
}

/** The values roll `seq` is taken to have: its latest correction, else what was read. */
export function effectiveValues(roll: RollRecord, corrections: readonly CorrectionRecord[]): readonly number[] {
  for (let i = corrections.length - 1; i >= 0; i--) if (corrections[i]?.roll === roll.seq) return corrections[i]!.values;
  return roll.values;
}

/**
 * Applies `steps` from the game's setup. Corrections apply to their roll
 * wherever they sit in the log (they are recorded after it), so every later
 * step sees the corrected dice. An undo takes back the decisions it names,
 * which must be the last ones applied (never a roll). Nothing is applied
 * after the game was ended. Stops at the first refused step.
 */
export function replay(def: AnyGameDef, players: readonly string[], options: Readonly<Record<string, unknown>>, steps: readonly ReplayStep[], createdAt: number): Replayed {
  const corrections = steps.flatMap((s) => (s.kind === 'correction' ? [s.correction] : []));
  const rollCount = steps.filter((s) => s.kind === 'roll').length;
  let initial: unknown;
  try {
    initial = def.setup(players, options);
  } catch (err) {
    return { state: null, actions: [], rolls: [], corrections: [], undone: 0, undos: 0, ended: null, updatedAt: createdAt, problem: { index: -1, message: `the setup is refused: ${errorText(err)}` } };
  }
  // The applied actions with the state after each: an undo pops them, so the state before is at hand.
  const applied: Array<{ readonly action: { type: string }; readonly kind: 'action' | 'roll'; readonly seq: number; readonly state: unknown }> = [];
  const rolls: RollRecord[] = [];
  const seen: CorrectionRecord[] = [];
  let undone = 0;
  let undos = 0;
  let ended: EndedRecord | null = null;
  let updatedAt = createdAt;
  const current = () => (applied.length ? applied[applied.length - 1]!.state : initial);
  const result = (problem: Replayed['problem']): Replayed => ({ state: current(), actions: applied.map((a) => a.action), rolls, corrections: seen, undone, undos, ended, updatedAt, problem });
  const stop = (index: number, message: string): Replayed => result({ index, message });
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'correction') {
      const c = step.correction;
      const roll = c.roll >= 1 && c.roll <= rollCount ? c.roll : null;
      if (roll === null) return stop(index, `the correction names roll ${c.roll}, which there is not`);
      seen.push(c);
      updatedAt = step.at;
      continue;
    }
    if (ended) return stop(index, `the game was ended (by ${ended.by}) before this ${step.kind}`);
    if (step.kind === 'ended') {
      ended = { ...step.ended, at: step.at };
      updatedAt = step.at;
      continue;
    }
    if (step.kind === 'undo') {
      if (step.undo.undone.length === 0) return stop(index, 'the undo takes back nothing');
      for (const { action } of step.undo.undone) {
        const last = applied.at(-1);
        if (!last) return stop(index, `the undo takes back '${action.type}', but no decision is left to take back`);
        if (last.kind === 'roll') return stop(index, `the undo would take back roll ${last.seq}, and a roll is never taken back`);
        if (canonicalJson(last.action) !== canonicalJson(action)) return stop(index, `the undo names '${action.type}', but the last decision applied was '${last.action.type}'`);
        applied.pop();
        undone += 1;
      }
      undos += 1;
      updatedAt = step.at;
      continue;
    }
    let action = step.kind === 'action' ? step.action : null;
    if (step.kind === 'roll') {
      if (step.roll.seq !== rolls.length + 1) return stop(index, `roll ${step.roll.seq} comes where roll ${rolls.length + 1} should`);
      const values = effectiveValues(step.roll, corrections);
      if (values.length !== step.roll.values.length) return stop(index, `roll ${step.roll.seq} is corrected to ${values.length} values, it had ${step.roll.values.length}`);
      action = rollAction(step.roll, values);
    }
    if (!action) continue;
    const next = def.apply(current(), action);
    if (isInvalid(next)) return stop(index, next.message);
    applied.push({ action, kind: step.kind === 'roll' ? 'roll' : 'action', seq: step.kind === 'roll' ? step.roll.seq : 0, state: next });
    if (step.kind === 'roll') rolls.push(step.roll);
    updatedAt = step.at;
  }
  return result(null);
}

/** The version a replayed game is at: one per change since it was created (every step applied or taken back, correction, undo and end). */
export function replayedVersion(r: Replayed): number {
  return 1 + r.actions.length + r.undone + r.corrections.length + r.undos + (r.ended ? 1 : 0);
}
