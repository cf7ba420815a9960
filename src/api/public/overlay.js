// Overlay for streaming software: the shown game's dice and scores on a
// transparent page, live over the feed. ?game=<id> pins a game; otherwise the
// most recently changed game is shown. Muted unless ?sound=on (a stream mixes its own sound).
import { dieFace } from './die-faces.js';
import { t } from './i18n.js';
import { statusLine } from './board-words.js';
import { cueSounds } from './sounds.js';
import { liveGames } from './view-patch.js';

const pinned = new URLSearchParams(location.search).get('game');
const sound = new URLSearchParams(location.search).get('sound') === 'on';
/** The games as the feed sent them (whole views and the patches since). */
const live = liveGames();
const $ = (id) => document.getElementById(id);

const die = (value, held) => dieFace(value, value ? (held ? 'held' : '') : 'blank');

/** A player's score as one number or text: the scorecard's total, or the table's first column. */
function score(board, i) {
  const p = board.players[i];
  if (board.kind === 'scorecard') {
    const total = board.rows.filter((r) => r.kind === 'total').at(-1);
    return total ? (p.cells[total.id] ?? 0) : '';
  }
  const col = board.columns[0];
  return col ? (p.values[col.id] ?? '') : '';
}

function render() {
  const games = [...live.games.values()].map((g) => g.view);
  const game = pinned ? games.find((g) => g.id === pinned) : games.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  $('overlay').hidden = !game || !game.board;
  if (!game || !game.board) return;
  const b = game.board;
  document.body.dataset.gameId = game.id;
  cueSounds(game, sound);
  $('ov-dice').replaceChildren(...(b.dice ?? []).map((v, i) => die(v, b.held?.[i])));
  $('ov-status').textContent = game.result ? t('overlay.gameOver', { name: t(`games.${game.game}.name`) }) : statusLine(game, b);
  $('ov-scores').replaceChildren(
    ...b.players.map((p, i) => {
      const li = document.createElement('li');
      li.className = i === b.current && !game.result ? 'current' : '';
      li.dataset.testid = `overlay-score-${i}`;
      li.append(p.name, Object.assign(document.createElement('span'), { className: 'score', textContent: String(score(b, i)) }));
      return li;
    }),
  );
}

let backoff = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(event.data);
    const { game, resync } = live.take(msg);
    if (resync) ws.send(JSON.stringify({ type: 'resync', game: resync }));
    if (msg.type === 'snapshot') backoff = 500;
    else if (!game) return;
    render();
  });
  ws.addEventListener('close', () => {
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10_000);
  });
}
connect();
