// The players page: everyone who has played here, and one player's games, wins and best scores per game
// (GET /api/players, /api/players/:name: worked out from the games on record).
import { h } from './dom.js';

const $ = (id) => document.getElementById(id);
const when = (ms) => new Date(ms).toLocaleString();
const STATE_WORDS = { playing: 'in play', over: 'finished', ended: 'ended without a result' };

async function getJson(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body && typeof body.message === 'string' ? body.message : `The server answered ${res.status}.`);
  return body;
}

function drawList(players, chosen) {
  $('player-list').replaceChildren(
    players.length === 0
      ? h('p', { class: 'big-note' }, 'Nobody has played yet.')
      : h(
          'ul',
          { class: 'session-games' },
          ...players.map((p) =>
            h(
              'li',
              {},
              h(
                'a',
                { href: `?name=${encodeURIComponent(p.name)}`, class: p.name === chosen ? 'chosen' : '', 'data-testid': `player-${p.name}` },
                h('strong', {}, p.name),
                ` · ${p.games} game${p.games === 1 ? '' : 's'}, ${p.wins} win${p.wins === 1 ? '' : 's'}`,
              ),
            ),
          ),
        ),
  );
}

function drawPlayer(p) {
  $('player-view').replaceChildren(
    h('h2', { 'data-testid': 'player-name' }, p.name),
    h('p', { 'data-testid': 'player-summary' }, `${p.games} game${p.games === 1 ? '' : 's'} played, ${p.finished} finished, ${p.wins} won. Last played ${when(p.lastPlayedAt)}.`),
    h(
      'table',
      { class: 'fair-table', 'data-testid': 'player-games' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Played'), h('th', {}, 'Finished'), h('th', {}, 'Wins'), h('th', {}, 'Best score'))),
      h(
        'tbody',
        {},
        ...p.byGame.map((g) =>
          h(
            'tr',
            { 'data-testid': `player-game-${g.game}` },
            h('th', {}, g.name),
            h('td', { class: 'num' }, g.played),
            h('td', { class: 'num' }, g.finished),
            h('td', { class: 'num' }, g.wins),
            h('td', { class: 'num', title: g.lowWins ? 'the lowest score wins this game' : '' }, g.best === null ? '—' : `${g.best}${g.lowWins ? ' (low wins)' : ''}`),
          ),
        ),
      ),
    ),
    h('h3', {}, 'Recent games'),
    h(
      'ul',
      { class: 'session-games', 'data-testid': 'player-recent' },
      ...p.recent.map((r) =>
        h(
          'li',
          {},
          h('a', { href: `history.html?game=${encodeURIComponent(r.id)}` }, `${r.name}: ${r.players.join(', ')}`),
          ` · ${STATE_WORDS[r.state] ?? r.state}${r.won ? ' · won' : ''}${r.score === null ? '' : ` · ${r.score}`} · ${when(r.at)}`,
        ),
      ),
    ),
  );
}

async function main() {
  const chosen = new URLSearchParams(location.search).get('name');
  try {
    const players = await getJson('/api/players');
    drawList(players, chosen);
    if (chosen) drawPlayer(await getJson(`/api/players/${encodeURIComponent(chosen)}`));
  } catch (err) {
    $('player-view').replaceChildren(h('p', { class: 'big-note', role: 'alert', 'data-testid': 'player-error' }, err instanceof Error ? err.message : String(err)));
  }
}

main();
