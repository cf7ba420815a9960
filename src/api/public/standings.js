// A finished game's standings (issue #46): pure, shared by the winner screen and its tests.

/**
 * The standings: winners first, then by score, highest first or lowest first
 * where the lowest wins (the game's own `lowScoreWins`); ties keep seat order
 * and share their place (1., 1., 3.). Pure.
 */
export function standings(names, result, lowScoreWins = false) {
  const scores = result.scores ?? [];
  const winners = result.winners ?? [];
  const sign = lowScoreWins ? -1 : 1;
  const rows = names
    .map((name, i) => ({ name, i, score: scores[i], won: winners.includes(i) }))
    .sort((x, y) => Number(y.won) - Number(x.won) || sign * ((y.score ?? 0) - (x.score ?? 0)) || x.i - y.i);
  // Winners share first place (a shared win); the others share a place on an equal score.
  const tied = (x, y) => (x.won && y.won) || (!x.won && !y.won && x.score === y.score);
  let place = 0;
  return rows.map((r, k) => ({ ...r, place: k > 0 && tied(rows[k - 1], r) ? place : (place = k + 1) }));
}
