// The shown game's board as the generic shape draws it: the scorecard (rows, a score's choice buttons, totals) or
// the table (a row per player, a column per value), the turn and status line, the panels (items, tiles, dots), and
// the round for the top bar. Las Vegas has its own board (las-vegas-board.js).
import { $, h } from './dom.js';
import { t, tOr } from './i18n.js';
import { isBluffing } from './bluff-ui.js';
import { isOver } from './game-view.js';
import { columnLabel, itemLabel, itemValue, panelLabel, statusLine } from './board-words.js';

/** The first panel item that is the round (its id), for the top bar. */
export function roundItem(board) {
  for (const panel of board.panels ?? []) {
    for (const item of panel.items ?? []) if (item.id === 'round' && item.value !== null && item.value !== undefined && item.value !== '') return item;
  }
  return null;
}

/** The board's round ("3", "3 of 13", "3 (to 100)"; the games' English) in the page's language. */
export function roundWords(value) {
  const [, round, of, to] = /^(\d+)(?: of (\d+)| \(to (\d+)\))?$/.exec(String(value)) ?? [];
  if (round === undefined) return t('scoreboard.round', { round: value });
  return of ? t('scoreboard.roundOf', { round, of }) : to ? t('scoreboard.roundTo', { round, to }) : t('scoreboard.round', { round });
}

/** A scorecard row's usual name in the page's language ("Chance", "Sattuma"), by its id; a bonus keeps its threshold ("(63+)"), which follows the options. */
function rowName(game, row) {
  const threshold = / (\(\d+\+\))$/.exec(row.label)?.[1];
  const name = tOr(`games.${game.game}.rows.${row.id}`, row.label);
  return threshold && name !== row.label ? `${name} ${threshold}` : name;
}

/** The status without the leading "Name: " when the name is shown above it. */
function statusText(game, name) {
  const status = statusLine(game, game.board);
  if (name && status.startsWith(`${name}: `)) {
    const rest = status.slice(name.length + 2);
    return rest.charAt(0).toUpperCase() + rest.slice(1);
  }
  return status;
}

/** The classes shared by a player's cells: current column, winner. */
function playerClasses(game) {
  const b = game.board;
  const winners = new Set(game.result?.winners ?? []);
  const isCurrent = (p) => !isOver(game) && p === b.current;
  return { winners, isCurrent, cls: (p, extra = '') => `${extra}${isCurrent(p) ? ' current' : ''}${winners.has(p) ? ' winner' : ''}`.trim() };
}

function playerName(name, winner) {
  return h('span', { class: 'player-name', title: name }, winner ? h('span', { class: 'crown', 'aria-label': t('scoreboard.winner') }, '★ ') : null, name);
}

/** The scorecard; the current player's open rows are buttons that score the points shown. `ctx`: `busy` (the tower is rolling), `act(action)`. */
export function renderScorecard(game, ctx) {
  const b = game.board;
  const rows = b.rows ?? [];
  const choices = new Map((b.choices ?? []).map((c) => [c.row, c.points]));
  const { winners, isCurrent, cls } = playerClasses(game);
  const lastTotal = rows.map((r) => r.kind).lastIndexOf('total');

  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      h('th', { class: 'label-col', scope: 'col' }, ''),
      b.players.map((pl, p) =>
        h('th', { scope: 'col', class: cls(p, 'player-col'), 'data-testid': `player-${p}`, 'data-current': isCurrent(p) ? 'true' : 'false' }, playerName(pl.name, winners.has(p))),
      ),
    ),
  );

  const scoreCell = (row, pl, p) => {
    const value = pl.cells?.[row.id];
    const testid = `cell-${p}-${row.id}`;
    if (value !== null && value !== undefined) {
      return h('td', { class: cls(p, 'cell filled'), 'data-testid': testid, 'data-state': 'filled', 'data-points': value }, value);
    }
    if (isCurrent(p) && choices.has(row.id)) {
      const points = choices.get(row.id);
      return h(
        'td',
        { class: cls(p, 'cell choice'), 'data-testid': testid, 'data-state': 'choice', 'data-points': points },
        h(
          'button',
          {
            type: 'button',
            class: `choice-button${points === 0 ? ' zero' : ''}`,
            disabled: ctx.busy,
            title: t('scoreboard.scoreIn', { points, row: rowName(game, row) }),
            onclick: () => ctx.act({ type: 'score', category: row.id }),
          },
          points,
        ),
      );
    }
    return h('td', { class: cls(p, 'cell empty'), 'data-testid': testid, 'data-state': 'empty' }, '');
  };

  const computedCell = (row, pl, p, i) => {
    const value = pl.cells?.[row.id];
    const testid = row.kind === 'total' && i === lastTotal ? `total-${p}` : `cell-${p}-${row.id}`;
    return h('td', { class: cls(p, 'cell computed'), 'data-testid': testid, 'data-points': value ?? '' }, value ?? '');
  };

  const body = h(
    'tbody',
    {},
    rows.map((row, i) => {
      // A computed row followed by a score row closes a section of the card.
      const next = rows[i + 1];
      const sectionEnd = row.kind !== 'score' && next && next.kind === 'score';
      return h(
        'tr',
        { class: `row ${row.kind}${sectionEnd ? ' section-end' : ''}`, 'data-row': row.id, 'data-kind': row.kind },
        h('th', { scope: 'row', class: 'label-col' }, rowName(game, row)),
        b.players.map((pl, p) => (row.kind === 'score' ? scoreCell(row, pl, p) : computedCell(row, pl, p, i))),
      );
    }),
  );
  const table = $('scorecard');
  table.replaceChildren(head, body);
  table.dataset.players = String(b.players.length);
  table.dataset.rows = String(rows.length);
  // Long cards (20+ rows) shrink their type so the total row stays on screen.
  table.style.setProperty('--rows', String(Math.max(rows.length, 1)));
}

/** The table: a row per player (out, current, winner), a column per value the game shows. */
export function renderTable(game) {
  const b = game.board;
  // Bluff's cups are drawn as counts beside the dice (bluff-table.js), not as a row of '?'.
  const columns = (b.columns ?? []).filter((c) => !(isBluffing(game) && c.id === 'cup'));
  const { winners, isCurrent, cls } = playerClasses(game);
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      h('th', { class: 'label-col', scope: 'col' }, t('scoreboard.player')),
      columns.map((c) => h('th', { scope: 'col', class: 'value-col', 'data-column': c.id }, columnLabel(game, c))),
    ),
  );
  const body = h(
    'tbody',
    {},
    b.players.map((pl, p) =>
      h(
        'tr',
        {
          class: cls(p, `player-row${pl.out ? ' out' : ''}`),
          'data-testid': `player-${p}`,
          'data-current': isCurrent(p) ? 'true' : 'false',
          'data-out': pl.out ? 'true' : 'false',
        },
        h('th', { scope: 'row', class: 'label-col' }, playerName(pl.name, winners.has(p)), pl.out ? h('span', { class: 'out-tag' }, t('scoreboard.out')) : null),
        columns.map((c) => {
          const v = pl.values?.[c.id];
          return h('td', { class: 'cell', 'data-testid': `value-${p}-${c.id}` }, v === null || v === undefined ? '' : v);
        }),
      ),
    ),
  );
  const table = $('table-board');
  table.replaceChildren(head, body);
  table.dataset.players = String(b.players.length);
  table.dataset.columns = String(columns.length);
}

// --- turn and panels ---------------------------------------------------------------

/** Whose turn it is and the status line under it (hidden once the game is over). */
export function renderTurn(game) {
  const b = game.board;
  const over = isOver(game);
  $('turn').hidden = over;
  if (over) return;
  const player = b.current === null || b.current === undefined ? null : b.players[b.current];
  const cp = $('current-player');
  cp.textContent = player ? player.name : '';
  cp.hidden = !player;
  cp.dataset.index = player ? String(b.current) : '';
  const status = $('status');
  status.textContent = statusText(game, player?.name);
  status.classList.toggle('alone', !player);
}

/** "2 of 3" with a small total: drawn as dots too. */
function dotsFor(value) {
  const m = /^(\d+) of (\d+)$/.exec(String(value ?? ''));
  if (!m) return null;
  const used = Number(m[1]);
  const all = Number(m[2]);
  if (all < 2 || all > 6 || used > all) return null;
  return h('span', { class: 'dots', 'aria-hidden': 'true' }, Array.from({ length: all }, (_, i) => h('span', { class: i < used ? 'dot used' : 'dot' })));
}

/** The board's panels with items: labelled values, or tiles when every item is open or closed (Shut the Box). */
export function renderPanels(game) {
  const b = game.board;
  const el = $('throw-info');
  const panels = (b.panels ?? []).filter((panel) => (panel.items ?? []).length > 0);
  el.hidden = panels.length === 0;
  el.replaceChildren(
    ...panels.map((panel) => {
      const tiles = panel.items.every((item) => item.state === 'open' || item.state === 'closed');
      return h(
        'section',
        { class: `board-panel${tiles ? ' tiles' : ''}`, 'data-testid': `panel-${panel.id}`, 'data-panel': panel.id },
        h('div', { class: 'panel-label' }, panelLabel(game, panel)),
        h(
          'div',
          { class: 'panel-items' },
          panel.items.map((item, i) => {
            const hasValue = item.value !== null && item.value !== undefined && item.value !== '';
            const attrs = { class: `item${item.state ? ` ${item.state}` : ''}`, 'data-testid': `panel-${panel.id}-${i}`, 'data-state': item.state ?? '' };
            const [label, value] = [itemLabel(game, item), itemValue(game, item)];
            if (tiles) return h('div', { ...attrs, class: `${attrs.class} tile`, title: `${label}: ${item.state}` }, h('span', { class: 'tile-label' }, label), hasValue ? h('span', { class: 'tile-value' }, value) : null);
            return h('div', attrs, h('span', { class: 'item-label' }, label), h('span', { class: 'item-value' }, hasValue ? String(value) : '—', dotsFor(item.value)));
          }),
        ),
      );
    }),
  );
}
