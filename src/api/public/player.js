// The private player page: this seat's own dice (secret throws included),
// opened from the link or QR code the scoreboard gives each player. The token
// in the URL is the key; the page refetches its view whenever the game changes.

import { PIPS, SVG_NS } from './dom.js';

const params = new URLSearchParams(location.search);
const gameId = params.get('game') ?? '';
const seat = Number(params.get('seat'));
const token = params.get('token') ?? '';

const $ = (id) => document.getElementById(id);

function svg(tag, attrs, children = []) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function dieFace(value) {
  const pips = PIPS[value] ?? [];
  const face = svg('svg', { viewBox: '0 0 100 100', class: value ? 'die' : 'die hidden', 'data-value': value ?? '' }, [
    svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16 }),
    ...pips.map(([cx, cy]) => svg('circle', { cx, cy, r: 9.5 })),
  ]);
  return face;
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

function render(view) {
  $('game-name').textContent = view.name;
  $('player-name').textContent = view.players[seat] ?? '';
  $('status').textContent = view.result ? 'Game over' : view.board.status;
  // Own dice: the state as this seat sees it; the board's dice are the table's.
  const dice = $('dice');
  dice.replaceChildren(...view.board.dice.map((d) => dieFace(d)));
  const table = $('table');
  const board = view.board;
  const rows = board.kind === 'table' ? board.columns : board.rows.filter((r) => r.kind === 'total');
  const head = el('tr');
  head.append(el('th', ''), ...rows.map((c) => el('th', c.label)));
  const body = board.players.map((p, i) => {
    const tr = el('tr', undefined, [i === board.current ? 'current' : '', p.out ? 'out' : ''].join(' ').trim());
    const values = board.kind === 'table' ? p.values : p.cells;
    tr.append(el('td', p.name), ...rows.map((c) => el('td', values[c.id] ?? '–')));
    return tr;
  });
  const t = el('table');
  t.append(head, ...body);
  const panels = board.panels.map((panel) => {
    const div = el('div', undefined, 'panel');
    div.append(`${panel.label}: `, ...panel.items.map((item) => el('b', `${item.label}${item.value !== undefined && item.value !== null ? ` ${item.value}` : ''}  `)));
    return div;
  });
  table.replaceChildren(t, ...panels);
  // Secret cards are played from here: the actions of this seat's own view, on its turn.
  const mine = board.current === seat && !view.result ? (view.actions ?? []).filter((a) => a.type === 'playCard' || a.earlyPayout === true) : [];
  $('actions').replaceChildren(
    ...mine.map((a) => {
      const button = el('button', actionText(a), 'action');
      button.type = 'button';
      button.dataset.action = JSON.stringify(a);
      button.addEventListener('click', () => play(a).catch((err) => showError(String(err))));
      return button;
    }),
  );
}

/** "play reroll slots 1,3", "place 4 earlyPayout": the action's fields as words. */
function actionText(action) {
  const parts = Object.entries(action)
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => (v === true ? k : `${k} ${Array.isArray(v) ? v.join(',') : v}`));
  return [action.type === 'playCard' ? 'play' : action.type, ...parts].join(' ');
}

async function play(action) {
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/actions?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  const body = await res.json();
  if (!res.ok) showError(body.message ?? `Error ${res.status}`);
  else render(body);
}

async function refresh() {
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}?token=${encodeURIComponent(token)}`);
  const body = await res.json();
  if (!res.ok) {
    showError(body.message ?? `Error ${res.status}`);
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
    $('status').textContent = 'Connection lost — reconnecting…';
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10_000);
  });
}

if (!gameId || !Number.isInteger(seat) || !token) showError('This link is incomplete: open the link or QR code the scoreboard gave you.');
else connect();
