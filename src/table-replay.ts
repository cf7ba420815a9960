/**
 * Replay: a game's state derived from its setup and its steps in order. Used to
 * restore games at start, to apply a correction (the corrected roll's values
 * replace the read ones and every later step is applied again), and to check
 * an imported game. Pure.
 */
import { isInvalid, type AnyGameDef } from './games/index.js';
import type { CorrectionRecord, RollRecord } from './table.js';
import { errorText } from './error-text.js';

export type ReplayStep =
  | { readonly kind: 'action'; readonly action: { readonly type: string }; readonly at: number }
  | { readonly kind: 'roll'; readonly roll: RollRecord; readonly at: number }
  | { readonly kind: 'correction'; readonly correction: CorrectionRecord; readonly at: number };

export interface Replayed {
  readonly state: unknown;
  /** The actions applied, rolls with their corrected values. */
  readonly actions: ReadonlyArray<{ readonly type: string }>;
  /** The rolls as recorded (read values; corrections are separate). */
  readonly rolls: readonly RollRecord[];
  readonly corrections: readonly CorrectionRecord[];
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
 * step sees the corrected dice. Stops at the first refused step.
 */
export function replay(def: AnyGameDef, players: readonly string[], options: Readonly<Record<string, unknown>>, steps: readonly ReplayStep[], createdAt: number): Replayed {
  const corrections = steps.flatMap((s) => (s.kind === 'correction' ? [s.correction] : []));
  const rollCount = steps.filter((s) => s.kind === 'roll').length;
  let state: unknown;
  try {
    state = def.setup(players, options);
  } catch (err) {
    return { state: null, actions: [], rolls: [], corrections: [], updatedAt: createdAt, problem: { index: -1, message: `the setup is refused: ${errorText(err)}` } };
  }
  const actions: Array<{ type: string }> = [];
  const rolls: RollRecord[] = [];
  const seen: CorrectionRecord[] = [];
  let updatedAt = createdAt;
  const stop = (index: number, message: string): Replayed => ({ state, actions, rolls, corrections: seen, updatedAt, problem: { index, message } });
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'correction') {
      const c = step.correction;
      const roll = c.roll >= 1 && c.roll <= rollCount ? c.roll : null;
      if (roll === null) return stop(index, `the correction names roll ${c.roll}, which there is not`);
      seen.push(c);
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
    const next = def.apply(state, action);
    if (isInvalid(next)) return stop(index, next.message);
    state = next;
    actions.push(action);
    if (step.kind === 'roll') rolls.push(step.roll);
    updatedAt = step.at;
  }
  return { state, actions, rolls, corrections: seen, updatedAt, problem: null };
}
