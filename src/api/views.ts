/**
 * What the API and the scoreboard see of a game: plain JSON built from the
 * table's record, with a board laid out for the game being played.
 */
import { RESERVED_GAMES, actionSeats, type AnyGameDef } from '../games/index.js';
import { gameResult, type BotLevel, type RollRecord, type Table, type TableGame } from '../table.js';
import { effectiveValues } from '../table-replay.js';
import { feedProgress, type FeedEntry, type FeedProgress } from '../games/feed-words.js';
import type { DieReading } from '../vision/index.js';

export interface RollView {
  readonly seq: number;
  /** The values the game uses: the reading, or the latest correction. */
  readonly values: readonly number[];
  /** What was read (or typed in), when a correction changed it; else null. */
  readonly read: readonly number[] | null;
  /** The corrected values in the reading's order, when a correction changed a camera reading of plain dice; else null. */
  readonly readingValues: readonly number[] | null;
  /** Every correction of this roll: who, when, why, from what to what. */
  readonly corrections: ReadonlyArray<{ by: string; at: number; reason: string; from: readonly number[]; values: readonly number[] }>;
  readonly slots: readonly number[];
  readonly source: 'tower' | 'manual';
  readonly attempts: number;
  readonly at: number;
  /** What vision saw, for the outlines on the scoreboard (tower rolls only). */
  readonly reading: {
    readonly width: number;
    readonly height: number;
    readonly ms: number;
    readonly dice: readonly DieView[];
  } | null;
}

/**
 * A die read, as the pages draw it (reading-overlay.js): its box's corners in
 * order around it as one flat list, `[x1, y1, x2, y2, …]`, in whole frame
 * pixels; its label goes over their mean. Corners as `{"x","y"}` objects with
 * tenths, and a centre besides, were a third of a roll's bytes on the feed.
 */
export interface DieView {
  readonly value: number | null;
  readonly colour: string;
  readonly box: readonly number[];
  readonly confidence: number;
}

export const dieView = (d: DieReading): DieView => ({
  value: d.value,
  colour: d.colour,
  box: d.box.flatMap((p) => [Math.round(p.x), Math.round(p.y)]),
  confidence: Math.round(d.confidence * 1000) / 1000,
});

/**
 * URL of a roll's camera frame (tower rolls only; the server keeps the last 20). `seatQuery` lets a seat see its own
 * secret roll's. In a game's view it is in `recentRolls`, not again in `lastRoll` (the same roll): 80 bytes a roll on the feed.
 */
export const frameUrl = (game: TableGame, roll: RollRecord, seatQuery = ''): string | null =>
  roll.source === 'tower' ? `/api/games/${game.id}/rolls/${roll.seq}/frame.jpg${seatQuery}` : null;

export function rollView(game: TableGame, roll: RollRecord): RollView {
  const corrections = game.corrections.filter((c) => c.roll === roll.seq);
  return {
    seq: roll.seq,
    values: effectiveValues(roll, game.corrections),
    read: corrections.length > 0 ? roll.values : null,
    /**
     * The corrected values in the order of `reading.dice`, for the "read → corrected"
     * labels on the frame, when a correction changed a camera reading: the same order
     * as `values` for plain dice; unknown (null) for coloured dice, which the table
     * orders by the request. Null otherwise: each die's label is then its `value`
     * (sent on every roll, this copy of `values` was some 40 bytes of the feed's).
     */
    readingValues: corrections.length > 0 && roll.reading && !roll.dice ? effectiveValues(roll, game.corrections) : null,
    corrections: corrections.map(({ by, at, reason, from, values }) => ({ by, at, reason, from, values })),
    slots: roll.request.slots,
    source: roll.source,
    attempts: roll.attempts,
    at: roll.at,
    reading: roll.reading
      ? {
          width: roll.reading.width,
          height: roll.reading.height,
          ms: Math.round(roll.reading.ms * 10) / 10,
          dice: roll.reading.dice.map(dieView),
        }
      : null,
  };
}

/** Entries of the table feed in a game's view. */
const FEED_ENTRIES = 8;
/** The feed of each game version (a game object is replaced on every change), worked out once for every viewer. */
const feeds = new WeakMap<TableGame, FeedEntry[]>();
/** Where each game's feed got to, so the next version reads only its new steps. */
const progress = new Map<string, FeedProgress>();
function feedOf(def: AnyGameDef, game: TableGame): FeedEntry[] {
  let feed = feeds.get(game);
  if (!feed) {
    const next = feedProgress(def, game, progress.get(game.id) ?? null, FEED_ENTRIES);
    if (next) progress.set(game.id, next);
    feed = [...(next?.entries ?? [])];
    feeds.set(game, feed);
  }
  return feed;
}

/** Rolls in the scoreboard's history strip. */
const RECENT_ROLLS = 12;

/**
 * A game as `viewer` may see it: the public (null) sees no secret die, a seat
 * sees its own (the game's `playerView` decides). The last roll is shown only
 * if it was public or thrown by the viewer. `seatToken` goes into the frame
 * URL of a seat's own secret roll.
 */
export function gameView(table: Table, game: TableGame, viewer: number | null = null, seatToken?: string) {
  const def = table.definition(game);
  const last = game.rolls[game.rolls.length - 1];
  const visible = def.playerView(game.state, viewer);
  const actions = def.legalActions(def.secretHands ? visible : game.state);
  const lastVisible = last && (!last.request.secret || last.request.player === viewer);
  const seatQuery = viewer !== null && seatToken ? `?seat=${viewer}&token=${encodeURIComponent(seatToken)}` : '';
  return {
    id: game.id,
    game: game.game,
    name: def.name,
    players: game.players,
    bots: game.bots,
    botLevels: game.botLevels,
    /** Some throws are secret: each player follows their own dice on their private page. */
    secretThrows: def.secretThrows === true,
    lowScoreWins: def.lowScoreWins === true,
    /** Whether each seat has opened its private page (its QR code is then taken down). */
    seatsClaimed: table.seatClaims(game.id),
    viewer,
    version: game.version,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
    request: def.diceRequest(game.state),
    result: gameResult(table, game),
    board: def.board(visible),
    /** The decisions open now (hold, score, bid...), for buttons; with secret hands only those the viewer may know of. */
    actions,
    /** The seat that makes each of `actions` (games/acting-seat.ts), so a private page offers only its own. */
    actors: actionSeats(def, game.state, actions),
    /** The last roll, if the viewer may see it: then also the last of `recentRolls`, which holds its `frameUrl`. */
    lastRoll: last && lastVisible ? rollView(game, last) : null,
    /** The last rolls this viewer may see, oldest first, for the history strip (thumbnails of their frames). */
    recentRolls: game.rolls
      .filter((r) => !r.request.secret || r.request.player === viewer)
      .slice(-RECENT_ROLLS)
      .map((r) => ({
        seq: r.seq,
        player: r.request.player,
        values: effectiveValues(r, game.corrections),
        corrected: game.corrections.some((c) => c.roll === r.seq),
        frameUrl: frameUrl(game, r, seatQuery),
      })),
    rollCount: game.rolls.length,
    /** Steps applied (rolls and decisions): a correction leaves it, an undo lowers it (the page's sounds tell a move from them). */
    stepCount: game.actions.length,
    /** Set when the game was ended without a result (kept in the history, gone from the picker). */
    ended: game.ended ?? null,
    /** The recent steps in words (src/games/feed-words.ts): only what the whole room may see. */
    feed: feedOf(def, game),
    state: visible,
    // Only when true: the record check at start found this game's events or frames changed outside dice-tower.
    ...(table.isUnverified(game.id) ? { unverified: true } : {}),
  };
}

/**
 * Links to the seats' private pages, each with its token, for the seats whose
 * page has not been opened yet (claim once: a claimed link is no longer shown).
 */
export function seatLinks(table: Table, game: TableGame) {
  const claims = table.seatClaims(game.id);
  return table.seatTokensOf(game.id).map((token, seat) => ({
    seat,
    name: game.players[seat] ?? '',
    claimed: claims[seat] === true,
    path: claims[seat] ? null : `/player.html?game=${game.id}&seat=${seat}&token=${encodeURIComponent(token)}`,
  }));
}

/** The catalog entry of a game: what it is, who can play, what dice, which options. */
export function catalogEntry(def: AnyGameDef, botLevels: readonly BotLevel[] = ['simple']) {
  return {
    id: def.id,
    name: def.name,
    minPlayers: def.minPlayers,
    maxPlayers: def.maxPlayers,
    summary: def.summary,
    dice: def.dice,
    secretThrows: def.secretThrows === true,
    available: true,
    options: def.optionSpecs,
    /** The levels a bot seat may play at (`strong`: the coach's optimal policy, for the games it has solved). */
    botLevels,
  };
}

/** Every playable game, then the reserved ids whose rules are unavailable (listed, not playable). */
export const catalog = (table: Table) => [
  ...table.catalog().map((def) => catalogEntry(def, table.botLevelsFor(def.id))),
  ...RESERVED_GAMES.map((g) => ({
    id: g.id,
    name: g.name,
    minPlayers: 0,
    maxPlayers: 0,
    summary: `Rules unavailable. ${g.reason}`,
    secretThrows: false,
    available: false,
    reason: g.reason,
    dice: { count: 0, colours: [], sizes: [] },
    options: [],
    botLevels: [],
  })),
];

export type GameView = ReturnType<typeof gameView>;
