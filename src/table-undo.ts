/**
 * Undo: which decisions `POST /api/games/:id/undo` takes back, or why it is
 * refused. Pure: it takes the game's rules and its applied steps.
 *
 * "The last decision" is the last step applied, when that step is a decision
 * (hold, score, bid, close boxes...). A roll is a physical throw: it is never
 * taken back (a misread one is corrected), and a decision with a roll after
 * it cannot be taken back either, as the throw was made in the position that
 * decision left. That also covers a decision after which a secret throw was
 * made. A decision that showed another player's secret dice (a challenge that
 * lifts the cups, dice shown face up) is refused too: what was seen cannot be
 * unseen.
 *
 * With `throughBots` (the default) a bot's decisions are taken back together
 * with the person's decision before them: a host pressing undo means their
 * own move, and a bot's move taken back alone would be made again at once.
 */
import { actingSeat, isInvalid, type AnyGameDef } from './games/index.js';
import { effectiveValues, rollAction, type ReplayStep } from './table-replay.js';
import type { CorrectionRecord, RollRecord } from './table.js';

export interface UndoDecision {
  /** The seat that made the decision (null: no seat was acting). */
  readonly seat: number | null;
  readonly action: { readonly type: string };
}

export type UndoPlan =
  /** The decisions to take back, newest first. */
  | { readonly undone: readonly UndoDecision[] }
  | { readonly refused: { readonly code: string; readonly message: string } };

/** What planUndo needs of a game. */
export interface UndoGame {
  readonly players: readonly string[];
  readonly bots: readonly number[];
  readonly options: Readonly<Record<string, unknown>>;
  readonly state: unknown;
}

type Applied = Extract<ReplayStep, { kind: 'action' | 'roll' }>;

const refuse = (code: string, message: string): UndoPlan => ({ refused: { code, message } });

/** "score chance", "close 3,6": a decision as a refusal names it. */
export function describeDecision(action: { readonly type: string }): string {
  const args = Object.entries(action).filter(([k]) => k !== 'type').map(([, v]) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  return [action.type, ...args].join(' ');
}

/**
 * The states after each applied step (index i: after `applied[i]`), with the
 * setup's state first at index -1 (returned as `initial`). `secretShift`
 * changes one roll's values (each face moved on by one) to see what depends on them.
 * `refusedAt`: the first step the rules refuse (a changed secret roll can make a later step illegal), else null.
 */
function statesOf(def: AnyGameDef, game: UndoGame, applied: readonly Applied[], corrections: readonly CorrectionRecord[], shiftRoll: number | null): { initial: unknown; after: unknown[]; refusedAt: number | null } {
  const initial = def.setup(game.players, game.options);
  const after: unknown[] = [];
  let state = initial;
  for (const [index, step] of applied.entries()) {
    let action = step.kind === 'action' ? step.action : null;
    if (step.kind === 'roll') {
      const values = effectiveValues(step.roll, corrections);
      action = rollAction(step.roll, step.roll.seq === shiftRoll ? values.map((v) => (v % 6) + 1) : values);
    }
    const next = def.apply(state, action as { type: string });
    if (isInvalid(next)) return { initial, after, refusedAt: index };
    state = next;
    after.push(state);
  }
  return { initial, after, refusedAt: null };
}

/**
 * Who (a seat, or the room as `null`) would have seen a secret roll through the
 * decision at `index`: their view after it depends on a roll their view
 * before it did not. Found by moving that roll's faces on by one and
 * replaying: what changes in a view is what that view shows of it.
 */
function revealedBy(def: AnyGameDef, game: UndoGame, applied: readonly Applied[], corrections: readonly CorrectionRecord[], index: number): { viewer: number | null; roll: RollRecord } | null {
  const prefix = applied.slice(0, index + 1);
  const secretRolls = prefix.flatMap((s) => (s.kind === 'roll' && s.roll.request.secret ? [s.roll] : []));
  if (secretRolls.length === 0) return null;
  const base = statesOf(def, game, prefix, corrections, null);
  if (base.refusedAt !== null) return null;
  const before = index === 0 ? base.initial : base.after[index - 1];
  const after = base.after[index];
  const viewers: Array<number | null> = [null, ...game.players.map((_, seat) => seat)];
  for (const roll of secretRolls) {
    const shifted = statesOf(def, game, prefix, corrections, roll.seq);
    // Other dice make an earlier step illegal: this roll cannot be judged this way (and the decision did not depend on it alone).
    if (shifted.refusedAt !== null && shifted.refusedAt < index) continue;
    for (const viewer of viewers) {
      if (viewer === roll.request.player) continue;
      const view = (s: unknown) => JSON.stringify(def.playerView(s, viewer));
      // The rules refuse the decision with other dice: its being legal told the table something of them.
      if (shifted.refusedAt === index) return { viewer, roll };
      const shiftedBefore = index === 0 ? shifted.initial : shifted.after[index - 1];
      if (view(before) === view(shiftedBefore) && view(after) !== view(shifted.after[index])) return { viewer, roll };
    }
  }
  return null;
}

/** Which decisions an undo takes back now, or why it cannot. `steps` are the game's applied steps (corrections anywhere among them). */
export function planUndo(def: AnyGameDef, game: UndoGame, steps: readonly ReplayStep[], throughBots: boolean): UndoPlan {
  const result = def.result(game.state);
  if (result) return refuse('undo/game_over', 'The game is over; a finished game\'s moves are not taken back (start a rematch instead).');
  const applied = steps.filter((s): s is Applied => s.kind === 'action' || s.kind === 'roll');
  const corrections = steps.flatMap((s) => (s.kind === 'correction' ? [s.correction] : []));
  if (applied.length === 0) return refuse('undo/nothing', 'Nothing to undo: nothing has been played in this game yet.');
  const states = statesOf(def, game, applied, corrections, null);
  if (states.refusedAt !== null) return refuse('undo/nothing', `Nothing to undo: step ${states.refusedAt + 1} of this game does not replay.`);
  const name = (seat: number | null) => (seat === null ? 'the table' : (game.players[seat] ?? `seat ${seat}`));
  const everySeatIsBot = game.players.every((_, seat) => game.bots.includes(seat));
  const undone: UndoDecision[] = [];
  for (let index = applied.length - 1; index >= 0; index--) {
    const step = applied[index]!;
    if (step.kind === 'roll') {
      const values = effectiveValues(step.roll, corrections);
      const shown = step.roll.request.secret ? 'a secret throw' : values.join(' ');
      const what = undone.length === 0 ? 'The last step was' : `${name(undone.at(-1)!.seat)}'s move came right after`;
      const fix = undone.length === 0 ? ' Correct it if the camera misread it.' : ' Undo with "throughBots": false to take back the bot\'s move alone (the bot will decide again).';
      return refuse('undo/after_roll', `${what} roll ${step.roll.seq} (${shown}): a roll is never taken back, so the decision before it cannot be undone.${fix}`);
    }
    const seat = actingSeat(def, index === 0 ? states.initial : states.after[index - 1]);
    const seen = revealedBy(def, game, applied, corrections, index);
    if (seen) {
      const to = seen.viewer === null ? 'the whole table' : name(seen.viewer);
      return refuse('undo/secret_revealed', `Taking back ${name(seat)}'s '${describeDecision(step.action)}' is refused: it showed ${to} the secret throw of ${name(seen.roll.request.player)} (roll ${seen.roll.seq}), and what was seen cannot be unseen.`);
    }
    undone.push({ seat, action: step.action });
    const bot = seat !== null && game.bots.includes(seat);
    if (!throughBots || !bot || everySeatIsBot) return { undone };
  }
  // Only bot decisions back to the start: take back what there is.
  return { undone };
}
