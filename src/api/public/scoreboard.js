// Live scoreboard of the dice tower: plain ES module, no build step. This module is the wiring: the page's state,
// the WebSocket feed, which game is shown, and one render() that calls each part's renderer (the other modules,
// one job each; ARCHITECTURE.md lists them). The operator's clicks go to the REST API, whose replies are applied
// too (newest game version wins).

import { $, h } from './dom.js';
import { t } from './i18n.js';
import { gamePath, post } from './scoreboard-api.js';
import { decisionActions, isLasVegas, isOver } from './game-view.js';
import { gameName } from './game-words.js';
import { renderPanels, renderScorecard, renderTable, renderTurn, roundItem, roundWords } from './game-board.js';
import { renderDecisions } from './decisions.js';
import { renderDice, renderRollControls, wireRollControls } from './roll-area.js';
import { renderCamera } from './camera-frame.js';
import { renderTower } from './tower-status.js';
import { renderSeatLinks } from './seat-links.js';
import { fetchCatalog, renderSetup, wireNewGameForm } from './new-game-form.js';
import { wireOperatorKeys } from './operator-keys.js';
import { renderTrust } from './trust.js';
import { renderCoach } from './coach-view.js';
import { renderGameControls } from './game-controls.js';
import { renderTableFeed } from './table-feed.js';
import { renderBluffTable } from './bluff-table.js';
import { renderLasVegasBoard } from './las-vegas-board.js';
import { renderWinnerScreen } from './winner-screen.js';
import { cueSounds, soundOn, soundToggle } from './sounds.js';
import { liveGames } from './view-patch.js';
import { operatorToken } from './operator-page.js';

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

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

// The operator's token arrived in the link and was kept by operator-link.js; the operator's own pages (setting up
// the tower) are offered to the operator alone.
$('setup-link').hidden = !operatorToken();

// ---------------------------------------------------------------------------
// REST: a reply that is a game view is taken like one from the feed.

async function api(path, body) {
  const data = await post(path, body);
  if (data && typeof data.id === 'string') upsertGame(data);
  return data;
}

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

async function loadCatalog() {
  if (state.catalogLoading) return;
  state.catalogLoading = true;
  try {
    state.catalog = await fetchCatalog();
    state.catalogError = '';
  } catch (err) {
    state.catalogError = t('scoreboard.catalogError', { error: err instanceof Error ? err.message : String(err) });
  } finally {
    state.catalogLoading = false;
  }
  render();
}

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
    $('connection-detail').textContent = left > 0 ? t('scoreboard.nextTryIn', { seconds: left }) : t('scoreboard.trying');
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
// Rendering

function render() {
  renderConnection();
  renderTower(state.connected ? state.tower : null, state.everConnected);
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

  if (view === 'setup') {
    const missingPin = state.pinned !== null && !state.games.has(state.pinned) ? state.pinned : null;
    renderSetup(game, { creating: state.creating, missingPin, catalog: state.catalog, catalogError: state.catalogError });
  }
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
  // One tower serves every game: busy while it rolls or this page waits for a roll.
  const busy = state.rolling || state.tower?.state === 'rolling';
  const send = (action) => act(game, action);
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
  if (b.kind === 'scorecard') renderScorecard(game, { busy, act: send });
  else if (lasVegas) renderLasVegasBoard($('las-vegas-board'), game, { act: send, busy });
  else renderTable(game);
  renderTurn(game);
  if (lasVegas) $('throw-info').hidden = true;
  else renderPanels(game);
  renderDice(game, { busy, act: send });
  const decisions = decisionActions(game);
  renderRollControls(game, decisions, busy);
  renderDecisions(game, decisions, { busy, act: send, picks: state.picks });
  renderBluffTable(game, busy, send, render);
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
  renderSeatLinks(game, operatorToken());
  renderCoach($('coach'), game, (state.catalog ?? []).find((g) => g.id === game.game), render);
  renderTrust(game, { tower: state.connected ? state.tower : null, api, operator: operatorToken() !== '' });
  renderGameControls(game, { api, operator: operatorToken() !== '', pin, upsert: upsertGame });
  renderTableFeed(game);
}

function renderConnection() {
  const lost = state.everConnected && !state.connected;
  $('connection').hidden = !lost;
  document.body.classList.toggle('offline', lost);
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

// ---------------------------------------------------------------------------

wireNewGameForm({
  catalog: () => state.catalog,
  redraw: render,
  open: () => {
    state.creating = true;
    render();
  },
  cancel: () => {
    state.creating = false;
    render();
  },
  create: (body) => api('/api/games', body),
  created: (game) => {
    state.creating = false;
    if (state.pinned) pin(game.id);
    else render();
  },
});
wireRollControls({ shownGame, roll });
wireOperatorKeys({ shownGame, roll });
soundToggle($('sound-toggle'));
render();
connect();
