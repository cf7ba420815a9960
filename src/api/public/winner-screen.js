// The winner's moment (issue #46): when a game ends, a screen over the board
// with the winner, the final standings and a Rematch button (same players and
// options, POST /api/games/:id/rematch), a new game, or a look at the final board.
import { h } from './dom.js';
import { t } from './i18n.js';

/** Every text of the screen, in one place: the words are in i18n/*.json under `winner`. */
const TEXT = {
  eyebrow: t('common.gameOver'),
  wins: (name) => t('winner.wins', { name }),
  shared: (names) => t('winner.shared', { names }),
  none: t('winner.none'),
  rematch: (players) => t('winner.rematch', { players }),
  newGame: t('winner.newGame'),
  showBoard: t('winner.showBoard'),
  place: (number) => t('winner.place', { number }),
};

/** Games whose winner screen was put aside on this page, to look at the final board. */
const dismissed = new Set();

/**
 * The standings: winners first, then by score the way the winners' scores point
 * (low-wins games too); ties keep seat order. Pure, for the tests too.
 */
export function standings(names, result) {
  const scores = result.scores ?? [];
  const winners = result.winners ?? [];
  const best = winners.length ? scores[winners[0]] : undefined;
  const lowWins = typeof best === 'number' && scores.every((x) => x >= best) && scores.some((x) => x > best);
  return names
    .map((name, i) => ({ name, i, score: scores[i], won: winners.includes(i) }))
    .sort((x, y) => Number(y.won) - Number(x.won) || (lowWins ? -1 : 1) * ((y.score ?? 0) - (x.score ?? 0)) || x.i - y.i);
}

/**
 * Draws the screen into `el` for a finished `game` (hides it otherwise). `ctx`:
 * `api(path)` POSTs as the operator (null on a refusal, which it shows),
 * `operator` (the Rematch button needs the operator), `pin(id)` shows a game,
 * `newGame()` opens the new-game form, `scoreText(i)` a seat's score as the
 * game shows it (money in Las Vegas).
 */
export function renderWinnerScreen(el, game, ctx) {
  const result = game.result;
  el.hidden = !result || dismissed.has(game.id);
  if (el.hidden) return;
  // Drawn once per finished game: a redraw would start the cheer over.
  const key = `${game.id}:${game.version}:${ctx.operator}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const names = game.board.players.map((p) => p.name);
  const winners = (result.winners ?? []).map((i) => names[i]);
  const rows = standings(names, result);
  el.replaceChildren(
    h(
      'div',
      { class: 'winner-card' },
      h('div', { class: 'eyebrow' }, TEXT.eyebrow),
      h('div', { class: 'winner-line', 'data-testid': 'winner' }, winners.length === 1 ? TEXT.wins(winners[0]) : winners.length > 1 ? TEXT.shared(winners) : TEXT.none),
      h(
        'ol',
        { class: 'ranking', 'data-testid': 'standings' },
        rows.map((r, k) =>
          h(
            'li',
            { class: r.won ? 'won' : '', 'data-testid': `final-${r.i}`, style: `--k:${k}` },
            h('span', { class: 'rank-place' }, TEXT.place(k + 1)),
            h('span', { class: 'rank-name' }, r.name),
            h('span', { class: 'rank-score' }, ctx.scoreText ? ctx.scoreText(r.i) : (r.score ?? '')),
          ),
        ),
      ),
      h(
        'div',
        { class: 'winner-actions' },
        ctx.operator
          ? h(
              'button',
              {
                type: 'button',
                class: 'button primary',
                'data-testid': 'rematch-button',
                onclick: async () => {
                  const created = await ctx.api(`/api/games/${encodeURIComponent(game.id)}/rematch`);
                  if (created) ctx.pin(created.id);
                },
              },
              TEXT.rematch(game.players),
            )
          : null,
        h('button', { type: 'button', class: 'button', onclick: () => ctx.newGame() }, TEXT.newGame),
        h(
          'button',
          {
            type: 'button',
            class: 'button ghost',
            'data-testid': 'show-final-board',
            onclick: () => {
              dismissed.add(game.id);
              el.hidden = true;
            },
          },
          TEXT.showBoard,
        ),
      ),
    ),
  );
}
