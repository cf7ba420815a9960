/**
 * What the API and the scoreboard see of a game: plain JSON built from the
 * table's record, with a board laid out for the game being played.
 */
import {
  CATEGORIES,
  CATEGORY_LABELS,
  UPPER_CATEGORIES,
  scoreChoices,
  totals,
  type DicePokerState,
} from '../games/index.js';
import { gameResult, type RollRecord, type Table, type TableGame } from '../table.js';

export interface RollView {
  readonly seq: number;
  readonly values: readonly number[];
  readonly slots: readonly number[];
  readonly source: 'tower' | 'manual';
  readonly attempts: number;
  readonly at: number;
  /** URL of the camera frame, while the server keeps it (tower rolls only). */
  readonly frameUrl: string | null;
  /** What vision saw, for the outlines on the scoreboard (tower rolls only). */
  readonly reading: {
    readonly width: number;
    readonly height: number;
    readonly ms: number;
    readonly dice: ReadonlyArray<{ value: number | null; colour: string; center: { x: number; y: number }; box: ReadonlyArray<{ x: number; y: number }>; confidence: number }>;
  } | null;
}

function rollView(game: TableGame, roll: RollRecord): RollView {
  return {
    seq: roll.seq,
    values: roll.values,
    slots: roll.request.slots,
    source: roll.source,
    attempts: roll.attempts,
    at: roll.at,
    frameUrl: roll.source === 'tower' ? `/api/games/${game.id}/rolls/${roll.seq}/frame.jpg` : null,
    reading: roll.reading
      ? {
          width: roll.reading.width,
          height: roll.reading.height,
          ms: Math.round(roll.reading.ms * 10) / 10,
          dice: roll.reading.dice.map((d) => ({ value: d.value, colour: d.colour, center: d.center, box: d.box, confidence: d.confidence })),
        }
      : null,
  };
}

/** The scorecard board of Dice Poker. */
function dicePokerBoard(state: DicePokerState) {
  const current = state.players[state.current];
  const thrown = state.dice.every((d) => d !== null) ? (state.dice as number[]) : null;
  return {
    kind: 'scorecard' as const,
    rows: CATEGORIES.map((id) => ({ id, label: CATEGORY_LABELS[id], section: (UPPER_CATEGORIES as readonly string[]).includes(id) ? 'upper' : 'lower' })),
    players: state.players.map((p) => ({ name: p.name, card: p.card, totals: totals(p, state.options) })),
    current: state.current,
    round: state.round,
    rounds: state.options.turns,
    throwsTaken: state.throwsTaken,
    maxThrows: state.options.maxThrows,
    dice: state.dice,
    held: state.held,
    over: state.over,
    /** Rows the current player may score now, with the points each gives. */
    choices: thrown && current && !state.over ? scoreChoices(current.card, thrown, state.options) : [],
  };
}

export function gameView(table: Table, game: TableGame) {
  const def = table.definition(game);
  const last = game.rolls[game.rolls.length - 1];
  return {
    id: game.id,
    game: game.game,
    name: def.name,
    players: game.players,
    version: game.version,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
    request: def.diceRequest(game.state),
    result: gameResult(table, game),
    board: game.game === 'dice-poker' ? dicePokerBoard(game.state as DicePokerState) : null,
    lastRoll: last ? rollView(game, last) : null,
    rollCount: game.rolls.length,
    state: game.state,
  };
}

export type GameView = ReturnType<typeof gameView>;
