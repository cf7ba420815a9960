/**
 * Players across games: games played, wins and best scores per game, worked
 * out from the table's games (replayed from the log) each time they are
 * asked for, so there is no second record to drift from the first. Pure.
 * Names are matched without regard to case or surrounding spaces ("anna" and
 * "Anna " are one player, shown as last spelled); bot seats are not players.
 */

/** What the tally needs of a game. */
export interface PlayedGame {
  readonly id: string;
  /** The rules' id and name. */
  readonly game: string;
  readonly name: string;
  /** The rules' own fact (GameDef.lowScoreWins). */
  readonly lowScoreWins: boolean;
  readonly players: readonly string[];
  readonly bots: readonly number[];
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The result once over (scores by seat), else null. */
  readonly result: { readonly winners: readonly number[]; readonly scores: readonly number[] } | null;
  /** Ended without a result. */
  readonly ended: boolean;
}

export interface PlayerGameStats {
  readonly game: string;
  readonly name: string;
  readonly played: number;
  readonly finished: number;
  readonly wins: number;
  /** The best final score in a finished game: the highest, or the lowest where the lowest wins (Shut the Box). Null before a finished game. */
  readonly best: number | null;
  readonly lowWins: boolean;
}

export interface PlayerSummary {
  readonly name: string;
  /** Games with this player at a seat (in play, finished and ended). */
  readonly games: number;
  readonly finished: number;
  readonly wins: number;
  readonly lastPlayedAt: number;
}

export interface PlayerGameEntry {
  readonly id: string;
  readonly game: string;
  readonly name: string;
  readonly seat: number;
  readonly players: readonly string[];
  readonly at: number;
  readonly state: 'playing' | 'over' | 'ended';
  readonly won: boolean;
  readonly score: number | null;
}

export interface PlayerDetail extends PlayerSummary {
  readonly byGame: readonly PlayerGameStats[];
  /** Newest first. */
  readonly recent: readonly PlayerGameEntry[];
}

/** The key a name is matched by. */
export const playerKey = (name: string) => name.trim().toLocaleLowerCase();

/** Every seat a person sat at, newest game first, by player key. */
function seatsByPlayer(games: readonly PlayedGame[]): Map<string, PlayerGameEntry[]> {
  const out = new Map<string, PlayerGameEntry[]>();
  for (const g of [...games].sort((a, b) => b.createdAt - a.createdAt)) {
    g.players.forEach((player, seat) => {
      if (g.bots.includes(seat) || playerKey(player) === '') return;
      const entry: PlayerGameEntry = {
        id: g.id, game: g.game, name: g.name, seat, players: g.players, at: g.updatedAt,
        state: g.ended ? 'ended' : g.result ? 'over' : 'playing',
        won: g.result?.winners.includes(seat) ?? false,
        score: g.result?.scores[seat] ?? null,
      };
      const list = out.get(playerKey(player)) ?? [];
      list.push(entry);
      out.set(playerKey(player), list);
    });
  }
  return out;
}

function summaryOf(name: string, entries: readonly PlayerGameEntry[]): PlayerSummary {
  return {
    name,
    games: entries.length,
    finished: entries.filter((e) => e.state === 'over').length,
    wins: entries.filter((e) => e.won).length,
    lastPlayedAt: Math.max(...entries.map((e) => e.at)),
  };
}

/** The name as last spelled at a seat. */
function spelling(games: readonly PlayedGame[], entries: readonly PlayerGameEntry[]): string {
  const last = entries[0];
  const game = last && games.find((g) => g.id === last.id);
  return (game?.players[last!.seat] ?? '').trim();
}

/** Every player, the one who played last first (the new-game form offers them in this order). */
export function playerList(games: readonly PlayedGame[]): PlayerSummary[] {
  return [...seatsByPlayer(games).values()].map((entries) => summaryOf(spelling(games, entries), entries)).sort((a, b) => b.lastPlayedAt - a.lastPlayedAt || a.name.localeCompare(b.name));
}

/** One player's record, or null when nobody of that name has played. */
export function playerDetail(games: readonly PlayedGame[], name: string): PlayerDetail | null {
  const entries = seatsByPlayer(games).get(playerKey(name));
  if (!entries) return null;
  const byId = new Map<string, PlayerGameStats>();
  for (const e of [...entries].reverse()) {
    const game = games.find((g) => g.id === e.id)!;
    const prev = byId.get(e.game) ?? { game: e.game, name: e.name, played: 0, finished: 0, wins: 0, best: null, lowWins: false };
    const low = game.lowScoreWins;
    const score = e.state === 'over' ? e.score : null;
    const best = score === null ? prev.best : prev.best === null ? score : low ? Math.min(prev.best, score) : Math.max(prev.best, score);
    byId.set(e.game, { ...prev, played: prev.played + 1, finished: prev.finished + (e.state === 'over' ? 1 : 0), wins: prev.wins + (e.won ? 1 : 0), best, lowWins: low });
  }
  const byGame = [...byId.values()].sort((a, b) => b.played - a.played || a.name.localeCompare(b.name));
  return { ...summaryOf(spelling(games, entries), entries), byGame, recent: entries.slice(0, 50) };
}
