// The winner's moment (issue #46): when a game ends, a screen over the board
// with the winner, the final standings and a Rematch button (same players and
// options, POST /api/games/:id/rematch), a new game, or a look at the final board.
import { h } from './dom.js';
import { t } from './i18n.js';
import { standings } from './standings.js';

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
  ended: t('winner.ended'),
};

/** Games whose winner screen was put aside on this page, to look at the final board. */
const dismissed = new Set();


/** A game ended without a result (`POST /end`): a short notice instead of a winner, with the reason given. */
function endedNotice(el, game, ctx) {
  return h(
    'div',
    { class: 'winner-card ended' },
    h('div', { class: 'winner-line', id: 'winner-title', 'data-testid': 'winner' }, TEXT.ended),
    game.ended.reason ? h('p', { class: 'ended-reason', 'data-testid': 'ended-reason' }, game.ended.reason) : null,
    h('div', { class: 'winner-actions' }, h('button', { type: 'button', class: 'button', onclick: () => ctx.newGame() }, TEXT.newGame), hideButton(game, el)),
  );
}

/** Puts the screen aside for this game, to look at the board. */
function dismiss(game, el) {
  dismissed.add(game.id);
  el.hidden = true;
}

const hideButton = (game, el) => h('button', { type: 'button', class: 'button ghost', 'data-testid': 'show-final-board', onclick: () => dismiss(game, el) }, TEXT.showBoard);

/**
 * Draws the screen into `el` for a finished `game`, or a notice for one ended
 * without a result (hides it otherwise). `ctx`:
 * `api(path)` POSTs as the operator (null on a refusal, which it shows),
 * `operator` (the Rematch button needs the operator), `pin(id)` shows a game,
 * `newGame()` opens the new-game form, `scoreText(i)` a seat's score as the
 * game shows it (money in Las Vegas).
 */
export function renderWinnerScreen(el, game, ctx) {
  const result = game.result;
  el.hidden = !(result || game.ended) || dismissed.has(game.id);
  if (el.hidden) return;
  // Drawn once per finished game: a redraw would start the cheer over.
  const key = `${game.id}:${game.version}:${ctx.operator}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  // It covers the page: a modal dialog, focused, put aside with Escape.
  el.setAttribute('role', 'dialog');
  el.setAttribute('aria-modal', 'true');
  el.setAttribute('aria-labelledby', 'winner-title');
  el.tabIndex = -1;
  el.onkeydown = (e) => e.key === 'Escape' && dismiss(game, el);
  el.replaceChildren(result ? winnerCard(el, game, ctx) : endedNotice(el, game, ctx));
  el.focus();
}

function winnerCard(el, game, ctx) {
  const result = game.result;
  const names = game.board.players.map((p) => p.name);
  const winners = (result.winners ?? []).map((i) => names[i]);
  const rows = standings(names, result, game.lowScoreWins === true);
  return h(
    'div',
    { class: 'winner-card' },
    h('div', { class: 'eyebrow' }, TEXT.eyebrow),
    h('div', { class: 'winner-line', id: 'winner-title', 'data-testid': 'winner' }, winners.length === 1 ? TEXT.wins(winners[0]) : winners.length > 1 ? TEXT.shared(winners) : TEXT.none),
    h(
      'ol',
      { class: 'ranking', 'data-testid': 'standings' },
      rows.map((r, k) =>
        h(
          'li',
          { class: r.won ? 'won' : '', 'data-testid': `final-${r.i}`, 'data-place': r.place, style: `--k:${k}` },
          h('span', { class: 'rank-place' }, TEXT.place(r.place)),
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
      hideButton(game, el),
    ),
  );
}
