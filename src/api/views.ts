/**
 * What the API and the scoreboard see of a game: plain JSON built from the
 * table's record, with a board laid out for the game being played.
 */
import { GAMES, type AnyGameDef } from '../games/index.js';
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

/**
 * A game as everyone may see it: secret dice of every player hidden (the
 * game's public `playerView`), so nothing served here can leak a cup.
 */
export function gameView(table: Table, game: TableGame) {
  const def = table.definition(game);
  const last = game.rolls[game.rolls.length - 1];
  const visible = def.playerView(game.state, null);
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
    board: def.board(visible),
    /** The decisions open now (hold, score, bid...), for buttons and bots. */
    actions: def.legalActions(game.state),
    lastRoll: last && !last.request.secret ? rollView(game, last) : null,
    rollCount: game.rolls.length,
    state: visible,
  };
}

/** The catalog entry of a game: what it is, who can play, what dice, which options. */
export function catalogEntry(def: AnyGameDef) {
  return {
    id: def.id,
    name: def.name,
    minPlayers: def.minPlayers,
    maxPlayers: def.maxPlayers,
    summary: def.summary,
    dice: def.dice,
    options: def.optionSpecs,
  };
}

export const catalog = () => (Object.values(GAMES) as AnyGameDef[]).map(catalogEntry);

export type GameView = ReturnType<typeof gameView>;
