/**
 * The seats of a rematch: the same players, bots and bot levels, the first
 * seat moved on to the next player. None of the rule sources says who starts
 * the next game, so the deal passes on as between rounds: the player after
 * the last first player starts, and everyone keeps their neighbours. Pure.
 */
import type { BotLevel } from './table.js';

export interface Seating {
  readonly players: readonly string[];
  readonly bots: readonly number[];
  readonly botLevels: Readonly<Record<number, BotLevel>>;
}

export function rematchSeats(game: Seating): Seating {
  const n = game.players.length;
  // Old seat s sits at (s - 1 + n) % n: seat 1 becomes the first seat.
  const moved = (seat: number) => (seat - 1 + n) % n;
  const players = game.players.map((_, seat) => game.players[(seat + 1) % n] as string);
  const bots = game.bots.map(moved).sort((a, b) => a - b);
  const botLevels = Object.fromEntries(Object.entries(game.botLevels).map(([seat, level]) => [moved(Number(seat)), level]));
  return { players, bots, botLevels };
}
