// The private player page: this seat's own dice (secret throws included),
// opened from the link or QR code the scoreboard gives each player. The token
// in the URL is the key; the page refetches its view whenever the game changes.

import { h } from './dom.js';
import { dieFace } from './die-faces.js';
import { isBluffing } from './bluff-ui.js';
import { bluffPhone } from './bluff-phone.js';
import { t, tOr } from './i18n.js';
import { columnLabel, itemLabel, itemValue, panelLabel, statusLine } from './board-words.js';

const params = new URLSearchParams(location.search);
const gameId = params.get('game') ?? '';
const seat = Number(params.get('seat'));
const token = params.get('token') ?? '';

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

/** The last view drawn, drawn again when a move fails. */
let shown = null;
/** True while a move is on its way: the moves stay disabled, so a double tap is not a second move. */
let sending = false;

function render(view) {
  shown = view;
  $('game-name').textContent = tOr(`games.${view.game}.name`, view.name);
  $('player-name').textContent = view.players[seat] ?? '';
  $('status').textContent = view.result ? t('common.gameOver') : statusLine(view, view.board);
  const bluffing = isBluffing(view);
  $('bluff').hidden = !bluffing;
  $('generic').hidden = bluffing;
  if (bluffing) $('bluff').replaceChildren(...bluffPhone(view, seat, (a) => play(a).catch((err) => showError(String(err))), () => render(view)).filter(Boolean));
  else renderGeneric(view);
  // A feed update may redraw the page while a move is on its way.
  if (sending) for (const button of document.querySelectorAll('#bluff button, #actions button')) button.disabled = true;
}

/** Any other game: this seat's dice, the table, each panel as a list, and the seat's own moves (Las Vegas cards). */
function renderGeneric(view) {
  // Own dice: the state as this seat sees it; the board's dice are the table's.
  $('dice').replaceChildren(...view.board.dice.map((d) => dieFace(d, d ? 'die' : 'die hidden')));
  const board = view.board;
  const rows = board.kind === 'table' ? board.columns : board.rows.filter((r) => r.kind === 'total');
  const values = (p) => (board.kind === 'table' ? p.values : p.cells);
  const table = h(
    'table',
    {},
    h('tr', {}, h('th', {}, ''), rows.map((c) => h('th', {}, board.kind === 'table' ? columnLabel(view, c) : tOr(`games.${view.game}.rows.${c.id}`, c.label)))),
    board.players.map((p, i) =>
      h('tr', { class: [i === board.current ? 'current' : '', p.out ? 'out' : ''].join(' ').trim() || null }, h('td', {}, p.name), rows.map((c) => h('td', {}, String(values(p)[c.id] ?? '–')))),
    ),
  );
  const panels = board.panels
    .filter((panel) => panel.items.length > 0)
    .map((panel) => h('section', { class: 'panel' }, h('h3', {}, panelLabel(view, panel)), h('dl', {}, panel.items.flatMap((item) => [h('dt', {}, itemLabel(view, item)), h('dd', {}, String(itemValue(view, item) ?? '—'))]))));
  $('table').replaceChildren(table, ...panels);
  // Secret cards are played from here (the rest of a Las Vegas turn is the table's).
  const mine = (view.actions ?? []).filter((a, i) => view.actors?.[i] === seat && (a.type === 'playCard' || a.earlyPayout === true));
  $('actions').replaceChildren(...mine.map((a) => h('button', { type: 'button', class: 'action', 'data-action': JSON.stringify(a), onclick: () => play(a).catch((err) => showError(String(err))) }, actionText(a))));
}

/** A seat's own move in words of the page's language: the card by its name and what it is played on ("Take Back · dice 1 and 3"). */
function actionText(action) {
  if (action.type !== 'playCard') return t(action.slotMachine ? 'player.earlyPayoutSlot' : 'player.earlyPayout', { value: action.value });
  const details = [
    action.casino === undefined ? null : t('player.onCasino', { number: action.casino }),
    action.slots === undefined ? null : t('player.dice', { dice: action.slots.map((slot) => slot + 1) }),
    action.slot === undefined ? null : t('player.turnDie', { die: action.slot + 1, face: action.to }),
    action.value === undefined ? null : t('player.value', { value: action.value }),
  ];
  return [t('player.play', { card: { key: `lasVegas.cardNames.${action.card}` } }), ...details.filter(Boolean)].join(' · ');
}

/** A new Idempotency-Key for one tap (crypto.randomUUID needs https, which a phone on the venue's network may not have). */
const tapKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Makes one move: ignored while another is on its way; sent again once, with the same key, when the network drops it. */
async function play(action) {
  if (sending) return;
  sending = true;
  if (shown) render(shown);
  const key = tapKey();
  const send = () =>
    fetch(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/actions?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(action),
    });
  try {
    const res = await send().catch(send);
    const body = await res.json();
    sending = false;
    showError(res.ok ? '' : body.message ?? t('player.error', { status: res.status }));
    render(res.ok ? body : shown);
  } finally {
    if (sending) {
      sending = false;
      if (shown) render(shown);
    }
  }
}

async function refresh() {
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}?token=${encodeURIComponent(token)}`);
  const body = await res.json();
  if (!res.ok) {
    showError(body.message ?? t('player.error', { status: res.status }));
    return;
  }
  showError('');
  render(body);
}

let backoff = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.addEventListener('open', () => {
    backoff = 500;
    refresh().catch((err) => showError(String(err)));
  });
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    // The page reads its seat's view over REST; a change of its game on the (public) feed says when.
    const changed = message.type === 'game' ? message.game.id : message.type === 'patch' ? message.gameId : null;
    if (changed === gameId) refresh().catch((err) => showError(String(err)));
  });
  ws.addEventListener('close', () => {
    $('status').textContent = t('player.reconnecting');
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10_000);
  });
}

if (!gameId || !Number.isInteger(seat) || !token) showError(t('player.incompleteLink'));
else connect();
