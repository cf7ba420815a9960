/**
 * The board's words as text keys: the server knows no language, the page puts
 * these in its own (src/api/public/board-words.js). Shared words sit under
 * `board.*` in the page's texts, a game's own under `games.<game>.*`.
 */
import type { BoardText, BoardValue } from './types.js';

type Params = Readonly<Record<string, BoardValue>>;

/** A status line every game may use ("Game over: Ann wins"): `board.status.<key>`. */
export const boardSay = (key: string, params: Params = {}): BoardText => ({ key: `board.status.${key}`, params });

/** A game's own status line: `games.<game>.status.<key>`. */
export const gameSay = (game: string, key: string, params: Params = {}): BoardText => ({ key: `games.${game}.status.${key}`, params });

/** A value in words every game may use: `board.values.<key>` ("yes", "3 of 13"). */
export const valueSay = (key: string, params: Params = {}): BoardText => ({ key: `board.values.${key}`, params });

/** A game's own value in words: `games.<game>.values.<key>`. */
export const gameValue = (game: string, key: string, params: Params = {}): BoardText => ({ key: `games.${game}.values.${key}`, params });

/** "Game over: Ann wins" / "Game over: Ann and Ben share the win", with the winning score where given. */
export const winnersSay = (names: readonly string[], score?: string | number): BoardText =>
  score === undefined ? boardSay(names.length > 1 ? 'gameOverShareWin' : 'gameOverWins', { names }) : boardSay(names.length > 1 ? 'gameOverShareWinWith' : 'gameOverWinsWith', { names, score });
