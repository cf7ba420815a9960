// Live scoreboard of the dice tower: plain ES module, no build step.
// State comes in over the WebSocket (/ws); the operator's clicks go to the
// REST API, whose replies are applied too (newest game version wins).

const SVG_NS = 'http://www.w3.org/2000/svg';
const MAX_PLAYERS = 6;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;
const TOAST_MS = 8000;

const state = {
  /** @type {Map<string, any>} game id → GameView */
  games: new Map(),
  /** @type {any} */
  tower: null,
  /** Game id pinned by ?game= or the selector; null follows the latest game. */
  pinned: new URL(location.href).searchParams.get('game'),
  connected: false,
  everConnected: false,
  /** The operator asked for the new-game form while a game is shown. */
  creating: false,
  /** A roll request is in flight from this page. */
  rolling: false,
};

const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`scoreboard: #${id} missing from index.html`);
  return el;
};

// ---------------------------------------------------------------------------
// DOM helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'object' ? c : String(c))));
  return el;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'object' ? c : String(c))));
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.setAttribute('class', v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

// ---------------------------------------------------------------------------
// Die faces

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 28], [72, 28], [28, 50], [72, 50], [28, 72], [72, 72]],
};

function dieFace(value) {
  const pips = PIPS[value];
  return s(
    'svg',
    { viewBox: '0 0 100 100', class: 'die-face', 'aria-hidden': 'true' },
    s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 17, class: pips ? 'die-body' : 'die-body empty' }),
    pips ? pips.map(([cx, cy]) => s('circle', { cx, cy, r: 9.5, class: 'pip' })) : s('text', { x: 50, y: 52, class: 'die-unknown' }, '?'),
  );
}

// ---------------------------------------------------------------------------
// REST

async function api(path, body) {
  const init = { method: 'POST' };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    toast(`Cannot reach the server: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    toast(data && typeof data.message === 'string' ? data.message : `The server answered ${res.status} ${res.statusText}.`, data && data.code);
    return null;
  }
  if (data && typeof data.id === 'string') upsertGame(data);
  return data;
}

const gamePath = (game, action) => `/api/games/${encodeURIComponent(game.id)}/${action}`;

async function roll(game, values) {
  if (state.rolling) return;
  state.rolling = true;
  render();
  try {
    return await api(gamePath(game, 'roll'), values ? { values } : undefined);
  } finally {
    state.rolling = false;
    render();
  }
}

// ---------------------------------------------------------------------------
// Toast

let toastTimer = 0;
function toast(message, code) {
  $('toast-message').textContent = message;
  $('toast-code').textContent = code ? String(code) : '';
  $('toast').hidden = false;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => ($('toast').hidden = true), TOAST_MS);
}
$('toast').addEventListener('click', () => ($('toast').hidden = true));

// ---------------------------------------------------------------------------
// Live feed

let socket = null;
let retries = 0;
let retryTimer = 0;
let countdownTimer = 0;

function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.addEventListener('message', (event) => {
    let msg;
    try {
      msg = JSON.parse(String(event.data));
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    socket = null;
    state.connected = false;
    scheduleReconnect();
    render();
  });
  // An error is always followed by close, which reconnects.
  ws.addEventListener('error', () => ws.close());
}

function scheduleReconnect() {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** retries);
  const delay = Math.round(base * (0.75 + Math.random() * 0.5));
  retries += 1;
  const due = Date.now() + delay;
  const tick = () => {
    const left = Math.max(0, Math.ceil((due - Date.now()) / 1000));
    $('connection-detail').textContent = left > 0 ? ` (next try in ${left} s)` : ' (trying…)';
  };
  tick();
  window.clearInterval(countdownTimer);
  countdownTimer = window.setInterval(tick, 500);
  window.clearTimeout(retryTimer);
  retryTimer = window.setTimeout(() => {
    window.clearInterval(countdownTimer);
    $('connection-detail').textContent = ' (trying…)';
    connect();
  }, delay);
}

function onMessage(msg) {
  if (!msg || typeof msg !== 'object') return;
  switch (msg.type) {
    case 'snapshot':
      state.connected = true;
      state.everConnected = true;
      retries = 0;
      state.games = new Map((msg.games ?? []).map((g) => [g.id, g]));
      state.tower = msg.tower ?? null;
      break;
    case 'game':
      if (msg.game) upsertGame(msg.game, false);
      break;
    case 'tower':
      state.tower = msg.status ?? null;
      break;
    case 'error':
      console.warn('scoreboard: server says', msg.message);
      return;
    default:
      return;
  }
  render();
}

/** Keeps the newest version of a game (feed and REST replies may cross). */
function upsertGame(game, rerender = true) {
  const known = state.games.get(game.id);
  if (known && known.version >= game.version) return;
  state.games.set(game.id, game);
  if (rerender) render();
}

// ---------------------------------------------------------------------------
// Which game is shown

function sortedGames() {
  return [...state.games.values()].sort((a, b) => b.updatedAt - a.updatedAt || b.version - a.version || b.createdAt - a.createdAt);
}

function shownGame() {
  if (state.pinned) return state.games.get(state.pinned) ?? null;
  return sortedGames()[0] ?? null;
}

function pin(id) {
  state.pinned = id || null;
  const url = new URL(location.href);
  if (state.pinned) url.searchParams.set('game', state.pinned);
  else url.searchParams.delete('game');
  window.history.replaceState(null, '', url);
  render();
}

// ---------------------------------------------------------------------------
// Rendering

function render() {
  renderConnection();
  renderTower();
  renderPicker();
  const game = shownGame();
  const view = !state.everConnected ? 'connecting' : !game || state.creating ? 'setup' : game.board?.kind === 'scorecard' ? 'game' : 'unsupported';
  $('main').dataset.view = view;
  $('connecting').hidden = view !== 'connecting';
  $('setup').hidden = view !== 'setup';
  $('game').hidden = view !== 'game';
  $('unsupported').hidden = view !== 'unsupported';
  $('new-game-button').hidden = !(state.everConnected && game && !state.creating);
  document.body.dataset.gameId = game?.id ?? '';

  if (view === 'setup') renderSetup(game);
  if (view === 'unsupported') $('unsupported-title').textContent = `${game.name}: ${game.players.join(', ')}`;
  if (view !== 'game') {
    $('game-title').textContent = game && view !== 'setup' ? game.name : 'Dice Tower';
    $('round-info').textContent = '';
    document.title = 'Dice Tower — Scoreboard';
    return;
  }
  const b = game.board;
  $('game-title').textContent = game.name;
  $('round-info').textContent = b.over ? `Final — ${b.rounds} rounds` : `Round ${b.round} of ${b.rounds}`;
  document.title = `${game.name} — round ${b.round} of ${b.rounds}`;
  const busy = towerBusyFor(game);
  renderScorecard(game, busy);
  renderTurn(game);
  renderDice(game, busy);
  renderControls(game, busy);
  renderCamera(game);
  renderResult(game);
}

/** True while the tower is rolling (one tower serves every game) or this page waits for a roll. */
function towerBusyFor(_game) {
  return state.rolling || state.tower?.state === 'rolling';
}

function renderConnection() {
  const lost = state.everConnected && !state.connected;
  $('connection').hidden = !lost;
  document.body.classList.toggle('offline', lost);
}

function renderTower() {
  const el = $('tower-status');
  // While the feed is down the last status may be stale: say so rather than show it.
  const t = state.connected ? state.tower : null;
  const st = t ? t.state : 'unknown';
  el.dataset.state = st;
  let text;
  if (!t) text = state.everConnected ? 'Tower: no connection' : 'Tower: connecting…';
  else if (st === 'ready') text = t.message || 'Tower ready';
  else if (st === 'rolling') text = `${t.message || 'Rolling'}…`;
  else text = /fault/i.test(t.message) ? t.message : `Tower fault: ${t.message}`;
  el.querySelector('.tower-text').textContent = text;
  el.title = t ? `${t.kind} tower: ${t.message}` : '';
}

function renderPicker() {
  const games = sortedGames();
  const show = games.length > 1 || (state.pinned !== null && !state.games.has(state.pinned));
  $('picker').hidden = !show;
  if (!show) return;
  const select = $('game-select');
  const options = [h('option', { value: '' }, 'Latest game')];
  if (state.pinned && !state.games.has(state.pinned)) options.push(h('option', { value: state.pinned }, 'Unknown game'));
  for (const g of games) {
    const where = g.board?.over ? 'over' : g.board ? `round ${g.board.round}` : '';
    options.push(h('option', { value: g.id }, `${g.name}: ${g.players.join(', ')}${where ? ` (${where})` : ''}`));
  }
  // Rebuild only when the list changed, so an open drop-down is not closed by every update.
  const signature = options.map((o) => `${o.value}=${o.textContent}`).join('\n');
  if (select.dataset.signature !== signature) {
    select.replaceChildren(...options);
    select.dataset.signature = signature;
  }
  select.value = state.pinned ?? '';
}
$('game-select').addEventListener('change', (e) => pin(e.target.value));

// --- setup form ------------------------------------------------------------

function renderSetup(game) {
  const missingPin = state.pinned !== null && !state.games.has(state.pinned);
  $('setup-title').textContent = state.creating ? 'New game' : missingPin ? 'Game not found' : 'No game yet';
  $('setup-note').textContent = missingPin
    ? `There is no game with id ${state.pinned} on this server. Start a new one, or choose another game above.`
    : 'Start a game of Dice Poker: enter the players in turn order.';
  $('cancel-setup').hidden = !(state.creating && game);
  if ($('player-inputs').children.length === 0) {
    addPlayerInput();
    addPlayerInput();
  }
}

function addPlayerInput() {
  const list = $('player-inputs');
  if (list.children.length >= MAX_PLAYERS) return;
  const n = list.children.length + 1;
  list.append(h('li', {}, h('input', { name: 'player', maxlength: 40, placeholder: `Player ${n}`, 'aria-label': `Player ${n}`, 'data-testid': `player-name-${n - 1}` })));
  $('add-player').hidden = list.children.length >= MAX_PLAYERS;
}

$('add-player').addEventListener('click', () => {
  addPlayerInput();
  const inputs = $('player-inputs').querySelectorAll('input');
  inputs[inputs.length - 1]?.focus();
});
$('cancel-setup').addEventListener('click', () => {
  state.creating = false;
  render();
});
$('new-game-button').addEventListener('click', () => {
  state.creating = true;
  render();
  $('player-inputs').querySelector('input')?.focus();
});
$('new-game-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const players = [...$('player-inputs').querySelectorAll('input')].map((i) => i.value.trim()).filter(Boolean);
  if (players.length === 0) {
    toast('Enter at least one player name.');
    return;
  }
  const created = await api('/api/games', { game: 'dice-poker', players });
  if (!created) return;
  state.creating = false;
  for (const input of $('player-inputs').querySelectorAll('input')) input.value = '';
  if (state.pinned) pin(created.id);
  else render();
});

// --- scorecard ---------------------------------------------------------------

function renderScorecard(game, busy) {
  const b = game.board;
  const rows = b.rows;
  const choices = new Map(b.choices.map((c) => [c.category, c.points]));
  const winners = new Set(game.result?.winners ?? []);
  const isCurrent = (p) => !b.over && p === b.current;
  const threshold = game.state?.options?.upperBonusThreshold;

  const colClass = (p, extra = '') => `${extra}${isCurrent(p) ? ' current' : ''}${winners.has(p) ? ' winner' : ''}`.trim();

  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      h('th', { class: 'label-col', scope: 'col' }, ''),
      b.players.map((pl, p) =>
        h(
          'th',
          { scope: 'col', class: colClass(p, 'player-col'), 'data-testid': `player-${p}`, 'data-current': isCurrent(p) ? 'true' : 'false' },
          h('span', { class: 'player-name', title: pl.name }, winners.has(p) ? h('span', { class: 'crown', 'aria-label': 'winner' }, '★ ') : null, pl.name),
        ),
      ),
    ),
  );

  const scoreRow = (row) =>
    h(
      'tr',
      { class: `row ${row.section}`, 'data-row': row.id },
      h('th', { scope: 'row', class: 'label-col' }, row.label),
      b.players.map((pl, p) => {
        const value = pl.card[row.id];
        const testid = `cell-${p}-${row.id}`;
        if (value !== null && value !== undefined) {
          return h('td', { class: colClass(p, 'cell filled'), 'data-testid': testid, 'data-state': 'filled', 'data-points': value }, value);
        }
        if (isCurrent(p) && choices.has(row.id)) {
          const points = choices.get(row.id);
          return h(
            'td',
            { class: colClass(p, 'cell choice'), 'data-testid': testid, 'data-state': 'choice', 'data-points': points },
            h(
              'button',
              {
                type: 'button',
                class: `choice-button${points === 0 ? ' zero' : ''}`,
                disabled: busy,
                title: `Score ${points} in ${row.label}`,
                onclick: () => api(gamePath(game, 'score'), { category: row.id }),
              },
              points,
            ),
          );
        }
        return h('td', { class: colClass(p, 'cell empty'), 'data-testid': testid, 'data-state': 'empty' }, '');
      }),
    );

  const sumRow = (label, cls, testid, value, hint) =>
    h(
      'tr',
      { class: `row ${cls}` },
      h('th', { scope: 'row', class: 'label-col' }, label),
      b.players.map((pl, p) => {
        const v = value(pl);
        const note = hint ? hint(pl) : null;
        return h('td', { class: colClass(p, 'cell'), 'data-testid': `${testid}-${p}`, 'data-points': v }, note ?? v);
      }),
    );

  const upper = rows.filter((r) => r.section === 'upper');
  const lower = rows.filter((r) => r.section !== 'upper');
  const body = h(
    'tbody',
    {},
    upper.map(scoreRow),
    sumRow('Upper total', 'subtotal', 'upper', (pl) => pl.totals.upper),
    sumRow(
      typeof threshold === 'number' ? `Upper bonus (${threshold}+)` : 'Upper bonus',
      'bonus',
      'upper-bonus',
      (pl) => pl.totals.upperBonus,
      (pl) =>
        pl.totals.upperBonus === 0 && typeof threshold === 'number' && !b.over
          ? h('span', { class: 'need', title: `${Math.max(0, threshold - pl.totals.upper)} more upper points earn the bonus` }, `${Math.max(0, threshold - pl.totals.upper)} to go`)
          : null,
    ),
    lower.map(scoreRow),
    sumRow('Poker bonus', 'bonus poker-bonus', 'poker-bonus', (pl) => pl.totals.pokerBonus),
    sumRow('Total', 'total', 'total', (pl) => pl.totals.total),
  );
  $('scorecard').replaceChildren(head, body);
  $('scorecard').dataset.players = String(b.players.length);
  $('game').dataset.players = String(b.players.length);
}

// --- turn, dice, controls ------------------------------------------------------

function renderTurn(game) {
  const b = game.board;
  $('turn').hidden = b.over;
  if (b.over) return;
  const player = b.players[b.current];
  const cp = $('current-player');
  cp.textContent = player ? player.name : '';
  cp.dataset.index = String(b.current);
  const ti = $('throw-info');
  ti.dataset.throws = String(b.throwsTaken);
  ti.dataset.max = String(b.maxThrows);
  ti.replaceChildren(
    b.throwsTaken === 0
      ? h('span', { class: 'throw-main' }, `Throw 1 of ${b.maxThrows} next`)
      : h('span', { class: 'throw-main' }, `Throw ${b.throwsTaken} of ${b.maxThrows}`),
    h('span', { class: 'throw-dots', 'aria-hidden': 'true' }, Array.from({ length: b.maxThrows }, (_, i) => h('span', { class: i < b.throwsTaken ? 'dot used' : 'dot' }))),
  );
}

function canHold(game, busy) {
  const b = game.board;
  return !busy && !b.over && b.throwsTaken > 0 && b.throwsTaken < b.maxThrows;
}

function renderDice(game, busy) {
  const b = game.board;
  $('dice-area').hidden = b.over;
  if (b.over) return;
  const clickable = canHold(game, busy);
  const dice = b.dice.map((value, i) => {
    const held = Boolean(b.held[i]);
    const label = value === null ? `Die ${i + 1}: not thrown` : `Die ${i + 1}: ${value}${held ? ', held' : ''}`;
    return h(
      'button',
      {
        type: 'button',
        class: `die${held ? ' held' : ''}${value === null ? ' blank' : ''}${busy && !held ? ' rolling' : ''}`,
        'data-testid': `die-${i}`,
        'data-value': value ?? '',
        'data-held': held ? 'true' : 'false',
        'aria-pressed': held ? 'true' : 'false',
        'aria-label': label,
        title: clickable ? (held ? 'Click to put back into the next throw' : 'Click to hold') : label,
        disabled: !clickable,
        onclick: () => api(gamePath(game, held ? 'release' : 'hold'), { dice: [i] }),
      },
      dieFace(value),
      h('span', { class: 'held-tag' }, held ? 'HELD' : ''),
    );
  });
  $('dice').replaceChildren(...dice);
}

function renderControls(game, busy) {
  const b = game.board;
  const req = game.request;
  const button = $('roll-button');
  button.disabled = !req || busy;
  button.textContent = busy ? 'Rolling…' : req ? `Roll ${req.count} ${req.count === 1 ? 'die' : 'dice'}` : 'Roll';
  let hint = '';
  if (busy) hint = 'The tower is rolling…';
  else if (!req && b.throwsTaken >= b.maxThrows) hint = 'No throws left: choose a row to score.';
  else if (!req && b.throwsTaken > 0) hint = 'All dice held: release one or score a row.';
  else if (b.throwsTaken > 0) hint = 'Click dice to hold them, or a dim number to score it.';
  else hint = `${b.players[b.current]?.name ?? 'Next player'} to throw.`;
  $('roll-hint').textContent = hint;

  const manual = $('manual');
  manual.hidden = !req;
  const input = $('manual-values');
  const slots = req ? req.slots.map((x) => x + 1).join(', ') : '';
  const placeholder = req ? `${req.count} value${req.count === 1 ? '' : 's'}, e.g. ${'35162'.slice(0, req.count)}` : '';
  if (input.placeholder !== placeholder) input.placeholder = placeholder;
  input.title = req ? `Fills dice ${slots}` : '';
}

$('roll-button').addEventListener('click', () => {
  const game = shownGame();
  if (game) roll(game);
});

$('manual-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const game = shownGame();
  if (!game) return;
  const text = $('manual-values').value.trim();
  const parts = /[\s,;]/.test(text) ? text.split(/[\s,;]+/).filter(Boolean) : [...text];
  const values = parts.map(Number);
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1 || v > 6)) {
    toast('Type the dice values as digits 1 to 6, e.g. 35162 or 3 5 1 6 2.');
    return;
  }
  const done = await roll(game, values);
  if (done) {
    $('manual-values').value = '';
    $('manual').open = false;
  }
});

// Operator keys: R rolls, 1-5 toggle a die (not while typing).
document.addEventListener('keydown', (e) => {
  const target = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  const game = shownGame();
  if (!game || game.board?.kind !== 'scorecard' || $('game').hidden) return;
  if (e.key === 'r' || e.key === 'R') {
    if (!$('roll-button').disabled) roll(game);
  } else if (/^[1-5]$/.test(e.key)) {
    const die = document.querySelector(`[data-testid="die-${Number(e.key) - 1}"]`);
    if (die && !die.disabled) die.click();
  }
});

// --- camera ----------------------------------------------------------------------

let cameraKey = '';

function renderCamera(game) {
  const b = game.board;
  const last = game.lastRoll;
  $('camera').hidden = b.over;
  const key = last ? `${game.id}:${last.seq}` : `${game.id}:none`;
  const caption = $('camera-caption');
  const previousTurn = last && b.throwsTaken === 0;
  caption.textContent = !last
    ? ''
    : `${previousTurn ? 'Previous turn · ' : ''}Roll ${last.seq}: ${last.values.join(' ')}` +
      (last.source === 'manual' ? ' · typed in by hand' : last.reading ? ` · read in ${Math.round(last.reading.ms)} ms${last.attempts > 1 ? ` · ${last.attempts} tower attempts` : ''}` : '');
  $('camera').classList.toggle('stale', Boolean(previousTurn));
  if (key === cameraKey) return;
  cameraKey = key;

  const frame = $('frame');
  const img = $('camera-frame');
  const overlay = $('camera-overlay');
  const noFrame = $('no-frame');
  if (!last || !last.frameUrl) {
    frame.hidden = true;
    img.removeAttribute('src');
    img.dataset.seq = '';
    overlay.replaceChildren();
    overlay.dataset.seq = '';
    noFrame.hidden = false;
    noFrame.textContent = !last ? 'No roll yet' : 'Typed in by hand: no camera frame';
    return;
  }
  const reading = last.reading;
  const width = reading?.width || 1280;
  const height = reading?.height || 720;
  noFrame.hidden = true;
  frame.hidden = false;
  frame.style.setProperty('--ar', `${width} / ${height}`);
  frame.style.setProperty('--ar-num', String(width / height));
  img.dataset.loaded = 'false';
  img.dataset.seq = String(last.seq);
  img.onload = () => (img.dataset.loaded = 'true');
  img.onerror = () => (img.dataset.loaded = 'error');
  img.src = last.frameUrl;

  overlay.setAttribute('viewBox', `0 0 ${width} ${height}`);
  overlay.dataset.seq = String(last.seq);
  const font = Math.round(height * 0.075);
  const outlines = (reading?.dice ?? []).map((d, i) => {
    const points = d.box.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const top = Math.min(...d.box.map((p) => p.y));
    const bottom = Math.max(...d.box.map((p) => p.y));
    // Label above the die, or below it when the die touches the top edge.
    const above = top - font * 0.3 > font;
    const y = above ? top - font * 0.3 : bottom + font * 1.05;
    const slot = last.slots[i];
    return s(
      'g',
      { class: `outline${d.value === null ? ' unread' : ''}`, 'data-testid': 'die-outline', 'data-value': d.value ?? '', 'data-slot': slot ?? '' },
      s('polygon', { points }),
      s('text', { x: d.center.x.toFixed(1), y: y.toFixed(1), 'font-size': font }, d.value === null ? '?' : String(d.value)),
    );
  });
  overlay.replaceChildren(...outlines);
  overlay.dataset.count = String(outlines.length);
}

// --- game over -----------------------------------------------------------------

function renderResult(game) {
  const b = game.board;
  const result = game.result;
  const el = $('result');
  el.hidden = !b.over || !result;
  if (el.hidden) return;
  const scores = result.scores;
  const names = b.players.map((p) => p.name);
  const winners = result.winners.map((i) => names[i]);
  const ranking = names.map((name, i) => ({ name, i, score: scores[i] ?? 0 })).sort((x, y) => y.score - x.score || x.i - y.i);
  el.replaceChildren(
    h('div', { class: 'eyebrow' }, 'Game over'),
    h(
      'div',
      { class: 'winner-line', 'data-testid': 'winner' },
      winners.length === 1 ? `${winners[0]} wins!` : winners.length > 1 ? `Shared win: ${winners.join(' & ')}` : 'No winner',
    ),
    h(
      'ol',
      { class: 'ranking' },
      ranking.map((r) =>
        h('li', { class: result.winners.includes(r.i) ? 'won' : '', 'data-testid': `final-${r.i}` }, h('span', { class: 'rank-name' }, r.name), h('span', { class: 'rank-score' }, r.score)),
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'button primary',
        onclick: () => {
          state.creating = true;
          render();
        },
      },
      'Start a new game',
    ),
  );
}

// ---------------------------------------------------------------------------

render();
connect();
