// Live scoreboard of the dice tower: plain ES module, no build step.
// State comes in over the WebSocket (/ws); the operator's clicks go to the
// REST API, whose replies are applied too (newest game version wins).

import { PIPS, SVG_NS } from './dom.js';
import { drawOutlines } from './reading-overlay.js';
import { renderTrust } from './trust.js';
import { renderCoach } from './coach-view.js';
import { renderGameControls } from './game-controls.js';
import { offerRecentNames } from './recent-names.js';
import { renderTableFeed } from './table-feed.js';
import { lang, t, tOr } from './i18n.js';
import { renderBluffTable } from './bluff-table.js';
import { isBluffing } from './bluff-ui.js';
import { renderLasVegasBoard, boardDecision } from './las-vegas-board.js';
import { columnLabel, itemLabel, itemValue, panelLabel, statusLine } from './board-words.js';
import { renderWinnerScreen } from './winner-screen.js';
import { cueSounds, soundOn, soundToggle } from './sounds.js';
import { landingRoll, setLanding } from './dice-motion.js';
import { liveGames } from './view-patch.js';
import { operatorToken } from './operator-page.js';

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
  /** @type {any[] | null} the games the server offers (GET /api/games/catalog); null until loaded. */
  catalog: null,
  /** The catalog could not be loaded (shown in the setup form, retried on reconnect). */
  catalogError: '',
  catalogLoading: false,
  /** The option chosen in each drop-down of actions ("game:type" → index), kept across updates. */
  picks: new Map(),
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

/** A die showing `value`; null (not thrown, or hidden in a cup) draws a blank face. */
function dieFace(value) {
  const pips = PIPS[value];
  const known = value !== null && value !== undefined;
  return s(
    'svg',
    { viewBox: '0 0 100 100', class: 'die-face', 'aria-hidden': 'true' },
    s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 17, class: known ? 'die-body' : 'die-body empty' }),
    pips ? pips.map(([cx, cy]) => s('circle', { cx, cy, r: 9.5, class: 'pip' })) : known ? s('text', { x: 50, y: 53, class: 'die-number' }, String(value)) : null,
  );
}

// ---------------------------------------------------------------------------
// REST

// The operator's token arrived in the link and was kept by operator-link.js; the operator's own pages (setting up
// the tower) are offered to the operator alone.
document.getElementById('setup-link').hidden = !operatorToken();

async function api(path, body) {
  const init = { method: 'POST', headers: {} };
  if (operatorToken()) init.headers.authorization = `Bearer ${operatorToken()}`;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    toast(t('scoreboard.unreachable', { error: err instanceof Error ? err.message : String(err) }));
    return null;
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    toast(data && typeof data.message === 'string' ? data.message : t('scoreboard.serverAnswered', { status: `${res.status} ${res.statusText}` }), data && data.code);
    return null;
  }
  if (data && typeof data.id === 'string') upsertGame(data);
  return data;
}

const gamePath = (game, action) => `/api/games/${encodeURIComponent(game.id)}/${action}`;

/** Sends one of the game's actions ({type, ...}) through the generic endpoint. */
const act = (game, action) => api(gamePath(game, 'actions'), action);

async function roll(game, values) {
  if (state.rolling) return;
  state.rolling = true;
  render();
  try {
    // Coloured dice (Las Vegas) are typed in the order the request lists them, and sent with their colours.
    const wanted = game.request?.dice;
    const body = values && wanted && wanted.length === values.length ? { dice: wanted.map((d, i) => ({ ...d, value: values[i] })) } : values ? { values } : undefined;
    return await api(gamePath(game, 'roll'), body);
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

/** The games as the feed sent them (whole views and the patches since, by seq). */
const live = liveGames();

function onMessage(msg) {
  if (!msg || typeof msg !== 'object') return;
  const { game, resync } = live.take(msg);
  if (resync) socket?.send(JSON.stringify({ type: 'resync', game: resync }));
  switch (msg.type) {
    case 'snapshot':
      state.connected = true;
      state.everConnected = true;
      retries = 0;
      state.games = new Map((msg.games ?? []).map((g) => [g.id, g]));
      state.tower = msg.tower ?? null;
      if (!state.catalog) loadCatalog();
      break;
    case 'game':
    case 'patch':
      if (!game) return;
      upsertGame(game, false);
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

/** Keeps the newest version of a game (feed and REST replies may cross); the same version may come again with new seat claims. */
function upsertGame(game, rerender = true) {
  const known = state.games.get(game.id);
  if (known && known.version > game.version) return;
  state.games.set(game.id, game);
  if (rerender) render();
}

// ---------------------------------------------------------------------------
// Which game is shown

function sortedGames() {
  // A game ended without a result is put away: the history has it (a pinned one is still shown).
  return [...state.games.values()].filter((g) => !g.ended || g.id === state.pinned).sort((a, b) => b.updatedAt - a.updatedAt || b.version - a.version || b.createdAt - a.createdAt);
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
// Reading a board (every game sends the same generic shape)

const isOver = (game) => Boolean(game.result);

/** "maxThrows" → "Max throws", "twoPairs" → "Two pairs". */
function humanize(name) {
  const words = String(name)
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A game's name in the page's language (the server's own name for a game the texts do not know). */
const gameName = (game) => tOr(`games.${game.game}.name`, game.name);

/** A scorecard row's usual name in the page's language ("Chance", "Sattuma"), by its id; a bonus keeps its threshold ("(63+)"), which follows the options. */
function rowName(game, row) {
  const threshold = / (\(\d+\+\))$/.exec(row.label)?.[1];
  const name = tOr(`games.${game.game}.rows.${row.id}`, row.label);
  return threshold && name !== row.label ? `${name} ${threshold}` : name;
}

/** An action type in plain words ("keep hidden"), for its buttons. */
const actionName = (type) => tOr(`actions.${type}`, humanize(type).toLowerCase());

/** The board's round ("3", "3 of 13", "3 (to 100)"; the games' English) in the page's language. */
function roundWords(value) {
  const [, round, of, to] = /^(\d+)(?: of (\d+)| \(to (\d+)\))?$/.exec(String(value)) ?? [];
  if (round === undefined) return t('scoreboard.round', { round: value });
  return of ? t('scoreboard.roundOf', { round, of }) : to ? t('scoreboard.roundTo', { round, to }) : t('scoreboard.round', { round });
}

/** Unicode die faces ⚀..⚅ for values 1..6. */
const DIE_GLYPHS = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

function argText(key, value, dice) {
  // `dice` arguments are slot indices (as in hold/release): show the faces they point at.
  if (key === 'dice' && Array.isArray(value) && value.every((v) => Number.isInteger(v))) {
    return value.map((i) => (typeof dice?.[i] === 'number' ? (DIE_GLYPHS[dice[i]] ?? String(dice[i])) : `#${i + 1}`)).join(' ');
  }
  if (Array.isArray(value)) return value.map((v) => argText(key, v, dice)).join('+');
  if (typeof value === 'boolean') return value ? humanize(key).toLowerCase() : `no ${humanize(key).toLowerCase()}`;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The arguments of an action as a person reads them: "3 × 5", "4+5", "⚀ ⚄". */
function argsLabel(action, dice) {
  const args = Object.entries(action).filter(([k, v]) => k !== 'type' && v !== undefined);
  const numbers = args.every(([, v]) => typeof v === 'number');
  const parts = args.map(([k, v]) => argText(k, v, dice));
  return numbers && parts.length === 2 ? parts.join(' × ') : parts.join(' ');
}

/**
 * A person's label for an action: its type plus its arguments, e.g.
 * {type:'stop'} → "stop", {type:'bid', count:3, face:5} → "bid 3 × 5",
 * {type:'shut', boxes:[4,5]} → "shut 4+5".
 */
function actionLabel(action, dice) {
  const name = actionName(action.type);
  const args = argsLabel(action, dice);
  return args ? `${name} ${args}` : name;
}

/** The first panel item labelled "Round", for the top bar. */
function roundItem(board) {
  for (const panel of board.panels ?? []) {
    for (const item of panel.items ?? []) if (/^round$/i.test(item.label) && item.value !== null && item.value !== undefined && item.value !== '') return item;
  }
  return null;
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

const holdActions = (game) => (game.actions ?? []).filter((a) => a.type === 'hold' || a.type === 'release');
const canToggle = (game, slot) => holdActions(game).some((a) => Array.isArray(a.dice) && a.dice.includes(slot));

/** Las Vegas is drawn on its own board (las-vegas-board.js), not the generic table. */
const isLasVegas = (game) => game.game === 'las-vegas' && Boolean(game.state?.casinos);

/** The actions drawn as buttons: everything the dice, the scorecard and the Las Vegas board do not already offer (bluffing games: bluff-table.js). */
function decisionActions(game) {
  const b = game.board;
  if (isBluffing(game)) return [];
  return (game.actions ?? []).filter((a) => {
    if (a.type === 'hold' || a.type === 'release') return false;
    if (a.type === 'score' && b.kind === 'scorecard') return false;
    if (isLasVegas(game) && boardDecision(a)) return false;
    return true;
  });
}

// ---------------------------------------------------------------------------
// Rendering

function render() {
  renderConnection();
  renderTower();
  renderPicker();
  const game = shownGame();
  const kind = game?.board?.kind;
  const drawable = kind === 'scorecard' || kind === 'table';
  const view = !state.everConnected ? 'connecting' : !game || state.creating ? 'setup' : drawable ? 'game' : 'unsupported';
  $('main').dataset.view = view;
  $('connecting').hidden = view !== 'connecting';
  $('setup').hidden = view !== 'setup';
  $('game').hidden = view !== 'game';
  $('unsupported').hidden = view !== 'unsupported';
  $('new-game-button').hidden = !(state.everConnected && game && !state.creating);
  document.body.dataset.gameId = game?.id ?? '';
  document.body.dataset.version = String(game?.version ?? ''); // which version is drawn, for the browser tests

  if (view === 'setup') renderSetup(game);
  if (view === 'unsupported') $('unsupported-title').textContent = `${gameName(game)}: ${game.players.join(', ')}`;
  if (view !== 'game') {
    $('game-title').textContent = game && view !== 'setup' ? gameName(game) : t('common.diceTower');
    $('round-info').textContent = '';
    document.title = t('common.titleScoreboard');
    return;
  }
  const b = game.board;
  const round = roundItem(b);
  const roundText = round ? roundWords(round.value) : '';
  $('game-title').textContent = gameName(game);
  $('round-info').textContent = isOver(game) ? t('scoreboard.final') : roundText;
  document.title = `${gameName(game)}${roundText && !isOver(game) ? ` — ${roundText.toLowerCase()}` : ''}`;
  const busy = towerBusyFor(game);
  const n = b.players.length;
  $('game').dataset.players = String(n);
  $('game').dataset.size = n <= 3 ? 'few' : n === 4 ? 'mid' : n <= 6 ? 'many' : 'crowd';
  $('game').dataset.kind = b.kind;
  $('game').dataset.over = String(isOver(game));
  const lasVegas = isLasVegas(game);
  $('game').dataset.game = lasVegas ? 'las-vegas' : '';
  $('scorecard').hidden = b.kind !== 'scorecard';
  $('table-board').hidden = b.kind !== 'table' || lasVegas;
  $('las-vegas-board').hidden = !lasVegas;
  if (b.kind === 'scorecard') renderScorecard(game, busy);
  else if (lasVegas) renderLasVegasBoard($('las-vegas-board'), game, { act: (a) => act(game, a), busy });
  else renderTable(game);
  renderTurn(game);
  if (lasVegas) $('throw-info').hidden = true;
  else renderPanels(game);
  renderDice(game, busy);
  renderControls(game, busy);
  renderBluffTable(game, busy, (action) => act(game, action), render);
  renderCamera(game);
  renderWinnerScreen($('result'), game, {
    api,
    operator: operatorToken() !== '',
    pin,
    newGame: () => {
      state.creating = true;
      render();
    },
    scoreText: lasVegas ? (i) => b.players[i]?.values.money ?? '' : null,
  });
  cueSounds(game, soundOn());
  renderSeatLinks(game);
  renderCoach($('coach'), game, (state.catalog ?? []).find((g) => g.id === game.game), render);
  renderTrust(game, { tower: state.connected ? state.tower : null, api, operator: operatorToken() !== '' });
  renderGameControls(game, { api, operator: operatorToken() !== '', pin, upsert: upsertGame });
  renderTableFeed(game);
}

/**
 * Games with secret throws: a QR code per player opens their private page
 * on their phone. Drawn once per game (the codes never change).
 */
function renderSeatLinks(game) {
  const section = $('seat-links');
  const open = (game.seatsClaimed ?? []).map((claimed, seat) => (claimed ? -1 : seat)).filter((seat) => seat >= 0);
  section.hidden = !game.secretThrows || isOver(game) || open.length === 0;
  // Claim once: a seat's code comes down as soon as its page is opened, so nobody else can pick it up later.
  const signature = `${game.id}:${open.join(',')}`;
  if (section.hidden || section.dataset.signature === signature) return;
  section.dataset.signature = signature;
  $('seat-codes').replaceChildren(
    ...open.map((seat) =>
      h(
        'figure',
        { class: 'seat-code' },
        h('img', { src: `/api/games/${game.id}/seats/${seat}/qr.svg${operatorToken() ? `?operator=${encodeURIComponent(operatorToken())}` : ''}`, alt: t('scoreboard.qrAlt', { name: game.players[seat] }), 'data-testid': `seat-qr-${seat}` }),
        h('figcaption', {}, game.players[seat]),
      ),
    ),
  );
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
  const tower = state.connected ? state.tower : null;
  const st = tower ? tower.state : 'unknown';
  el.dataset.state = st;
  // The status's message is the API's English: ready and a plain roll are worded here; a retry's or a fault's
  // details (from the reader and the hardware) stay as they come.
  const rollingDice = /^Rolling (\d+) dice?$/.exec(tower?.message ?? '');
  let text;
  if (!tower) text = t(state.everConnected ? 'scoreboard.towerNoConnection' : 'scoreboard.towerConnecting');
  else if (st === 'ready') text = t('scoreboard.towerReady');
  else if (st === 'rolling') text = rollingDice ? t('scoreboard.towerRollingDice', { count: Number(rollingDice[1]) }) : `${tower.message || t('scoreboard.rolling')}…`;
  else text = /fault/i.test(tower.message) ? tower.message : t('scoreboard.towerFault', { message: tower.message });
  el.querySelector('.tower-text').textContent = text;
  el.title = text;
}

// --- game selector ------------------------------------------------------------

function renderPicker() {
  const games = sortedGames();
  const show = state.everConnected && (games.length > 1 || state.pinned !== null);
  $('picker').hidden = !show;
  if (!show) return;
  const select = $('game-select');
  const options = [h('option', { value: '' }, t('scoreboard.latestGame'))];
  if (state.pinned && !state.games.has(state.pinned)) options.push(h('option', { value: state.pinned }, t('scoreboard.pinnedNotFound', { id: state.pinned })));
  // Games in play; a finished one only while it is the one shown (its winner screen), the rest are in the history.
  for (const g of games) if (!isOver(g) || g.id === shownGame()?.id) options.push(h('option', { value: g.id }, t(isOver(g) ? 'scoreboard.pickOver' : 'scoreboard.pick', { game: gameName(g), players: g.players.join(', ') })));
  // Rebuild only when something changed, so an open dropdown is not reset by every update.
  const signature = options.map((o) => `${o.value}=${o.textContent}`).join('\n');
  if (select.dataset.signature !== signature) {
    select.replaceChildren(...options);
    select.dataset.signature = signature;
  }
  select.value = state.pinned ?? '';
}
$('game-select').addEventListener('change', (e) => pin(e.target.value));

// --- new-game form ------------------------------------------------------------

async function loadCatalog() {
  if (state.catalogLoading) return;
  state.catalogLoading = true;
  try {
    const res = await fetch('/api/games/catalog');
    if (!res.ok) throw new Error(`the server answered ${res.status} ${res.statusText}`);
    const list = await res.json();
    if (!Array.isArray(list)) throw new Error('the catalog is not a list');
    state.catalog = list;
    state.catalogError = '';
  } catch (err) {
    state.catalogError = t('scoreboard.catalogError', { error: err instanceof Error ? err.message : String(err) });
  } finally {
    state.catalogLoading = false;
  }
  render();
}

/** The catalog entry chosen in the form. */
const chosenEntry = () => (state.catalog ?? []).find((g) => g.id === $('game-picker').value && g.available !== false) ?? null;

function renderSetup(game) {
  const missingPin = state.pinned !== null && !state.games.has(state.pinned);
  $('setup-title').textContent = t(state.creating ? 'scoreboard.newGame' : missingPin ? 'scoreboard.gameNotFound' : 'scoreboard.noGameYet');
  $('setup-note').textContent = missingPin
    ? t('scoreboard.noSuchGame', { id: state.pinned })
    : state.catalogError || t(state.catalog === null ? 'scoreboard.loadingGames' : state.catalog.length === 0 ? 'scoreboard.noGames' : 'scoreboard.setupNote');
  $('cancel-setup').hidden = !(state.creating && game);

  const picker = $('game-picker');
  const catalog = state.catalog ?? [];
  const signature = catalog.map((g) => `${g.id}=${g.name}`).join('\n');
  if (picker.dataset.signature !== signature) {
    const keep = picker.value || game?.game || '';
    // Games whose rules are not available are listed, greyed out, so nobody wonders where they are.
    picker.replaceChildren(
      ...catalog.map((g) =>
        h('option', { value: g.id, disabled: g.available === false, title: g.reason ?? null }, g.available === false ? t('scoreboard.rulesUnavailable', { game: tOr(`reservedGames.${g.id}`, g.name) }) : gameName({ game: g.id, name: g.name })),
      ),
    );
    picker.dataset.signature = signature;
    if (catalog.some((g) => g.id === keep && g.available !== false)) picker.value = keep;
  }
  picker.disabled = catalog.length === 0;
  const entry = chosenEntry();
  if ($('setup').dataset.game !== (entry?.id ?? '')) fillGameForm(entry);
  for (const select of $('player-inputs').querySelectorAll('select[name=bot-level]')) select.hidden = !entry?.botLevels?.includes('strong');
  $('start-game').disabled = !entry;
}

/** Builds the player inputs and option inputs for the chosen game (on first show and when the game changes). */
function fillGameForm(entry) {
  $('setup').dataset.game = entry?.id ?? '';
  $('game-players').textContent = entry
    ? entry.minPlayers === entry.maxPlayers
      ? t('scoreboard.playerCount', { count: entry.minPlayers, dice: diceText(entry.dice) })
      : t('scoreboard.playerRange', { min: entry.minPlayers, max: entry.maxPlayers, dice: diceText(entry.dice) })
    : '';
  $('game-summary').textContent = entry ? tOr(`games.${entry.id}.rules`, entry.summary) : '';
  $('start-game').textContent = entry ? t('scoreboard.startGame', { game: gameName({ game: entry.id, name: entry.name }) }) : t('scoreboard.start');

  // Keep the names already typed; add or trim inputs to fit the game.
  const list = $('player-inputs');
  const names = [...list.querySelectorAll('input[name=player]')].map((i) => i.value);
  const want = entry ? Math.min(entry.maxPlayers, Math.max(entry.minPlayers, 2, names.filter(Boolean).length)) : 2;
  list.replaceChildren();
  for (let i = 0; i < want; i += 1) addPlayerInput(names[i] ?? '');
  updateAddPlayer();

  const options = entry?.options ?? [];
  $('options-note').textContent = options.length ? t('scoreboard.optionsNote') : '';
  $('game-options').hidden = options.length === 0;
  $('option-list').replaceChildren(...options.map((spec) => optionField(entry.id, spec)));
}

function diceText(dice) {
  if (!dice) return '';
  const extra = [...(dice.colours ?? []), ...(dice.sizes ?? [])];
  const count = t('scoreboard.diceCount', { count: dice.count });
  return extra.length ? `${count} (${extra.map((look) => tOr(`common.diceLooks.${look}`, look)).join(', ')})` : count;
}

/** One option input built from its OptionSpec, default filled in; label and values in plain words (i18n/*.json). */
function optionField(game, spec) {
  const words = `games.${game}.options.${spec.name}`;
  const id = `option-${spec.name}`;
  const common = { id, name: spec.name, 'data-testid': id, 'data-type': spec.type };
  let input;
  if (spec.type === 'boolean') {
    input = h('input', { ...common, type: 'checkbox', checked: spec.default === true });
  } else if (spec.type === 'choice') {
    input = h('select', common, (spec.choices ?? []).map((c) => h('option', { value: c, selected: c === spec.default }, tOr(`${words}.values.${c}`, c))));
  } else {
    input = h('input', {
      ...common,
      type: 'number',
      step: spec.type === 'integer' ? 1 : 'any',
      min: spec.min,
      max: spec.max,
      value: spec.default,
      inputmode: spec.type === 'integer' ? 'numeric' : 'decimal',
    });
  }
  input.addEventListener('input', () => markChanged(spec, input));
  input.addEventListener('change', () => markChanged(spec, input));
  const range = spec.type === 'integer' || spec.type === 'number' ? rangeText(spec) : '';
  return h(
    'div',
    { class: `option option-${spec.type}`, 'data-option': spec.name },
    h('label', { for: id, class: 'option-name' }, tOr(`${words}.label`, humanize(spec.name))),
    h('div', { class: 'option-input' }, input),
    // The description is the catalog's English note (value names, rule references): a page in another language shows its own words, or none.
    h('div', { class: 'option-desc' }, tOr(`${words}.description`, lang === 'en' ? spec.description : ''), range ? h('span', { class: 'option-range' }, ` ${range}`) : null),
  );
}

function rangeText(spec) {
  const min = spec.min !== undefined && spec.min !== null;
  const max = spec.max !== undefined && spec.max !== null;
  if (min && max) return spec.min === spec.max ? `(${spec.min})` : `(${spec.min}–${spec.max})`;
  if (min) return t('scoreboard.orMore', { min: spec.min });
  if (max) return t('scoreboard.upTo', { max: spec.max });
  return '';
}

/** The value of an option input, or undefined when it is not a usable value. */
function optionValue(spec, input) {
  if (spec.type === 'boolean') return input.checked;
  if (spec.type === 'choice') return input.value;
  if (input.value.trim() === '') return undefined;
  const n = Number(input.value);
  return Number.isFinite(n) ? n : undefined;
}

function markChanged(spec, input) {
  input.closest('.option')?.classList.toggle('changed', optionValue(spec, input) !== spec.default);
}

function addPlayerInput(value = '') {
  const list = $('player-inputs');
  const n = list.children.length + 1;
  list.append(
    h(
      'li',
      {},
      h('input', { name: 'player', maxlength: 40, value, placeholder: t('scoreboard.playerN', { number: n }), 'aria-label': t('scoreboard.playerN', { number: n }), 'data-testid': `player-name-${n - 1}` }),
      // A bot seat is played by the game's own bot (through the tower), to fill an empty chair.
      h('label', { class: 'bot-seat', title: t('scoreboard.botTitle') }, h('input', { type: 'checkbox', name: 'bot', 'data-testid': `player-bot-${n - 1}` }), ` ${t('feed.bot')}`),
      // Games the coach has solved offer a strong bot: the optimal policy.
      h(
        'select',
        { name: 'bot-level', class: 'bot-level', 'aria-label': t('scoreboard.botLevelOf', { number: n }), 'data-testid': `player-bot-level-${n - 1}`, hidden: !chosenEntry()?.botLevels?.includes('strong') },
        h('option', { value: 'simple' }, t('scoreboard.simpleBot')),
        h('option', { value: 'strong' }, t('scoreboard.strongBot')),
      ),
    ),
  );
}

function updateAddPlayer() {
  const entry = chosenEntry();
  $('add-player').hidden = !entry || $('player-inputs').children.length >= entry.maxPlayers;
}

$('game-picker').addEventListener('change', () => render());
$('add-player').addEventListener('click', () => {
  addPlayerInput();
  updateAddPlayer();
  const inputs = $('player-inputs').querySelectorAll('input[name=player]');
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
  const entry = chosenEntry();
  if (!entry) {
    toast(t('scoreboard.chooseGameFirst'));
    return;
  }
  const strongOffered = entry.botLevels?.includes('strong') === true;
  const seats = [...$('player-inputs').querySelectorAll('li')]
    .map((li) => ({
      name: li.querySelector('input[name=player]')?.value.trim() ?? '',
      bot: li.querySelector('input[name=bot]')?.checked === true,
      level: strongOffered ? (li.querySelector('select[name=bot-level]')?.value ?? 'simple') : 'simple',
    }))
    .filter((seat) => seat.name);
  const players = seats.map((seat) => seat.name);
  const bots = seats.flatMap((seat, i) => (!seat.bot ? [] : seat.level === 'strong' ? [{ seat: i, level: 'strong' }] : [i]));
  if (players.length < entry.minPlayers) {
    toast(t('scoreboard.needsPlayers', { count: entry.minPlayers, game: gameName({ game: entry.id, name: entry.name }) }));
    return;
  }
  // Only the options changed from their defaults go to the server.
  const options = {};
  for (const spec of entry.options ?? []) {
    const input = document.getElementById(`option-${spec.name}`);
    if (!input) continue;
    const value = optionValue(spec, input);
    if (value === undefined) {
      toast(t('scoreboard.needsNumber', { option: tOr(`games.${entry.id}.options.${spec.name}.label`, humanize(spec.name)) }));
      input.focus();
      return;
    }
    if (value !== spec.default) options[spec.name] = value;
  }
  const body = { game: entry.id, players };
  if (Object.keys(options).length > 0) body.options = options;
  if (bots.length > 0) body.bots = bots;
  const created = await api('/api/games', body);
  if (!created) return;
  state.creating = false;
  for (const input of $('player-inputs').querySelectorAll('input[name=player]')) input.value = '';
  for (const input of $('player-inputs').querySelectorAll('input[name=bot]')) input.checked = false;
  $('setup').dataset.game = '';
  if (state.pinned) pin(created.id);
  else render();
});

// --- boards ---------------------------------------------------------------------

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

function renderScorecard(game, busy) {
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
            disabled: busy,
            title: t('scoreboard.scoreIn', { points, row: rowName(game, row) }),
            onclick: () => act(game, { type: 'score', category: row.id }),
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

function renderTable(game) {
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

function renderTurn(game) {
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

function renderPanels(game) {
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
            const [label, value] = [itemLabel(game, item), itemValue(game, item)];
            const hasValue = item.value !== null && item.value !== undefined && item.value !== '';
            const attrs = { class: `item${item.state ? ` ${item.state}` : ''}`, 'data-testid': `panel-${panel.id}-${i}`, 'data-state': item.state ?? '' };
            if (tiles) return h('div', { ...attrs, class: `${attrs.class} tile`, title: `${label}: ${item.state}` }, h('span', { class: 'tile-label' }, label), hasValue ? h('span', { class: 'tile-value' }, value) : null);
            return h('div', attrs, h('span', { class: 'item-label' }, label), h('span', { class: 'item-value' }, hasValue ? String(value) : '—', dotsFor(item.value)));
          }),
        ),
      );
    }),
  );
}

// --- dice, decisions, controls ------------------------------------------------------

function renderDice(game, busy) {
  const b = game.board;
  const over = isOver(game);
  $('dice-area').hidden = over;
  if (over) return;
  const dice = isLasVegas(game) ? [] : (b.dice ?? []);
  const rollingSlots = new Set(game.request?.slots ?? []);
  const landing = landingRoll(game);
  const landed = new Set(landing !== null ? (game.lastRoll?.slots ?? []) : []);
  setLanding($('dice'), landing);
  $('dice').dataset.count = String(dice.length);
  $('dice-area').style.setProperty('--n', String(Math.max(dice.length, 1)));
  // Nothing to see yet (not thrown, or every die in a cup): small blank faces leave room for the rest.
  const allBlank = dice.every((v) => v === null);
  $('dice-area').style.setProperty('--die-min', allBlank ? '2.4rem' : dice.length > 8 ? '2.6rem' : '3.6rem');
  $('dice-area').style.setProperty('--die-max', allBlank && dice.length > 6 ? '3rem' : '5.6rem');
  $('dice').classList.toggle('all-blank', allBlank);
  $('dice').classList.toggle('no-holds', !b.held?.some(Boolean) && holdActions(game).length === 0);
  const faces = dice.map((value, i) => {
    const held = Boolean(b.held?.[i]);
    const clickable = !busy && canToggle(game, i);
    const label = t(value === null ? 'scoreboard.dieHidden' : held ? 'scoreboard.dieHeld' : 'scoreboard.die', { number: i + 1, value });
    return h(
      'button',
      {
        type: 'button',
        class: `die${held ? ' held' : ''}${value === null ? ' blank' : ''}${busy && rollingSlots.has(i) ? ' rolling' : ''}${landed.has(i) && value !== null ? ' landed' : ''}${clickable ? ' clickable' : ''}`,
        'data-testid': `die-${i}`,
        'data-value': value ?? '',
        'data-held': held ? 'true' : 'false',
        'aria-pressed': held ? 'true' : 'false',
        'aria-label': label,
        title: clickable ? t(held ? 'scoreboard.clickRelease' : 'scoreboard.clickHold') : label,
        disabled: !clickable,
        onclick: () => {
          const type = held ? 'release' : 'hold';
          if (holdActions(game).some((a) => a.type === type && a.dice?.includes(i))) act(game, { type, dice: [i] });
        },
      },
      dieFace(value),
      h('span', { class: 'held-tag' }, held ? t('scoreboard.held') : ''),
    );
  });
  $('dice').replaceChildren(...faces);
  // A bluffing game's cups are counts (bluff-table.js), never rows of blank dice.
  $('dice').hidden = dice.length === 0 || isBluffing(game);
}

function renderControls(game, busy) {
  const b = game.board;
  const req = game.request;
  const button = $('roll-button');
  button.hidden = !req && !busy;
  button.disabled = !req || busy;
  button.textContent = busy ? t('scoreboard.rolling') : req ? t('scoreboard.rollDice', { count: req.count }) : t('scoreboard.roll');

  const decisions = decisionActions(game);
  renderDecisions(game, decisions, busy);
  $('decisions').hidden = decisions.length === 0;

  const choices = b.kind === 'scorecard' ? (b.choices ?? []).length : 0;
  const holds = holdActions(game).length > 0;
  const name = b.current !== null && b.current !== undefined ? b.players[b.current]?.name : null;
  const roller = b.players[req?.player]?.name;
  let hint = '';
  if (busy) hint = t('common.towerRolling');
  else if (req && holds && choices) hint = t('scoreboard.hintHoldOrScore');
  else if (req && holds) hint = t('scoreboard.hintHold');
  else if (req && decisions.length) hint = t('scoreboard.hintRollOrChoose');
  else if (req) hint = roller ? t(req.secret ? 'scoreboard.hintSecretRollFor' : 'scoreboard.hintNextRollFor', { name: roller }) : t(req.secret ? 'scoreboard.hintSecretRoll' : 'scoreboard.hintNextRoll');
  else if (choices && holds) hint = t('scoreboard.hintReleaseOrScore');
  else if (choices) hint = t('scoreboard.hintScore');
  else if (decisions.length) hint = name ? t('scoreboard.hintChooseFor', { name }) : t('scoreboard.hintChoose');
  $('roll-hint').textContent = hint;

  const manual = $('manual');
  // A secret throw is never typed in front of the room.
  manual.hidden = !req || req.secret === true;
  const input = $('manual-values');
  const placeholder = req ? t('scoreboard.valuesPlaceholder', { count: req.count, example: '351624351624'.slice(0, Math.min(req.count, 12)) }) : '';
  if (input.placeholder !== placeholder) input.placeholder = placeholder;
  const dieName = (d) => t(d.size === 'big' ? 'scoreboard.bigDie' : 'scoreboard.dieLook', { colour: tOr(`common.diceLooks.${d.colour}`, d.colour) });
  const order = req?.dice ? req.dice.map(dieName).join(', ') : '';
  input.title = !req ? '' : req.dice ? t('scoreboard.inThisOrder', { dice: order }) : t('scoreboard.fillsDice', { dice: req.slots.map((x) => x + 1).join(', ') });
  $('manual-colours').textContent = req?.dice ? t('scoreboard.diceInOrder', { dice: order }) : '';
}

/** A label with its die glyphs (⚀..⚅) in spans, drawn larger than the text around them. */
function withGlyphs(label) {
  return label.split(/([\u2680-\u2685])/u).filter(Boolean).map((part) => (/^[\u2680-\u2685]$/u.test(part) ? h('span', { class: 'glyph' }, part) : part));
}

/** Actions of one type beyond this many go into a drop-down instead of a row of buttons. */
const MAX_BUTTONS_PER_TYPE = 8;

function renderDecisions(game, decisions, busy) {
  const dice = game.board.dice ?? [];
  const groups = new Map();
  for (const a of decisions) {
    if (!groups.has(a.type)) groups.set(a.type, []);
    groups.get(a.type).push(a);
  }
  let index = 0;
  const button = (a, label) =>
    h(
      'button',
      {
        type: 'button',
        class: 'button decision',
        'data-testid': `action-${index++}`,
        'data-type': a.type,
        'data-action': JSON.stringify(a),
        disabled: busy,
        onclick: () => act(game, a),
      },
      label,
    );
  const children = [];
  for (const [type, list] of groups) {
    if (list.length <= MAX_BUTTONS_PER_TYPE) {
      for (const a of list) children.push(button(a, withGlyphs(actionLabel(a, dice))));
      continue;
    }
    // Many choices of one kind (every possible bid...): pick one from a list, then send it.
    const key = `${game.id}:${type}`;
    const select = h(
      'select',
      { class: 'decision-select', 'data-testid': `action-select-${type}`, 'aria-label': t('scoreboard.chooseAction', { action: actionName(type) }), disabled: busy },
      list.map((a, i) => h('option', { value: String(i) }, argsLabel(a, dice) || actionName(type))),
    );
    const previous = state.picks.get(key);
    if (previous !== undefined && Number(previous) < list.length) select.value = previous;
    select.addEventListener('change', () => state.picks.set(key, select.value));
    children.push(
      h(
        'div',
        { class: 'decision-group', 'data-testid': `action-group-${type}` },
        select,
        h(
          'button',
          {
            type: 'button',
            class: 'button decision',
            'data-testid': `action-send-${type}`,
            'data-type': type,
            disabled: busy,
            onclick: () => {
              const a = list[Number(select.value)];
              if (a) act(game, a);
            },
          },
          actionName(type),
        ),
      ),
    );
  }
  $('decisions').replaceChildren(...children);
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

// Operator keys: R rolls, 1-9 toggle a die (not while typing).
document.addEventListener('keydown', (e) => {
  const target = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  const game = shownGame();
  if (!game || $('game').hidden) return;
  if (e.key === 'r' || e.key === 'R') {
    if (!$('roll-button').disabled) roll(game);
  } else if (/^[1-9]$/.test(e.key)) {
    const die = document.querySelector(`[data-testid="die-${Number(e.key) - 1}"]`);
    if (die && !die.disabled) die.click();
  }
});

// --- camera ----------------------------------------------------------------------

let cameraKey = '';
let cameraOutlinesKey = '';

/** " · read 3 4 6, corrected by Kim: the six is a five" — the original reading stays visible. */
function correctionText(roll) {
  const last = roll.corrections?.[roll.corrections.length - 1];
  return last ? ` · ${t('scoreboard.corrected', { read: roll.read.join(' '), by: last.by, reason: last.reason })}` : '';
}

function renderCamera(game) {
  const b = game.board;
  const last = game.lastRoll;
  $('camera').hidden = isOver(game);
  const key = last ? `${game.id}:${last.seq}` : `${game.id}:none`;
  const caption = $('camera-caption');
  // The dice of the last roll are gone from the table: it belongs to an earlier turn.
  const previousTurn = Boolean(last) && (b.dice ?? []).every((v) => v === null);
  caption.textContent = !last
    ? ''
    : `${previousTurn ? `${t('scoreboard.previousTurn')} · ` : ''}${t('scoreboard.rollOf', { seq: last.seq, dice: last.values.join(' ') })}` +
      (last.source === 'manual' ? ` · ${t('scoreboard.typedIn')}` : last.reading ? ` · ${t('scoreboard.readIn', { ms: Math.round(last.reading.ms) })}${last.attempts > 1 ? ` · ${t('scoreboard.towerAttempts', { count: last.attempts })}` : ''}` : '') +
      correctionText(last);
  $('camera').classList.toggle('stale', previousTurn);
  // A correction changes the labels, not the picture: redraw the outlines only.
  const outlinesKey = `${key}:${last?.corrections?.length ?? 0}`;
  if (key === cameraKey) {
    if (outlinesKey !== cameraOutlinesKey && last?.reading) drawOutlines($('camera-overlay'), last.reading, last.slots, last.readingValues);
    cameraOutlinesKey = outlinesKey;
    return;
  }
  cameraKey = key;
  cameraOutlinesKey = outlinesKey;

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
    noFrame.textContent = t(!last ? 'scoreboard.noRollYet' : 'scoreboard.noFrame');
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

  overlay.dataset.seq = String(last.seq);
  drawOutlines(overlay, reading, last.slots, last.readingValues);
}

// ---------------------------------------------------------------------------

offerRecentNames();
soundToggle($('sound-toggle'));
render();
connect();
