// The players page: everyone who has played here, and one player's games, wins and best scores per game
// (GET /api/players, /api/players/:name: worked out from the games on record).
import { h } from './dom.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang);
const gameName = (g) => t(`games.${g.game}.name`);

async function getJson(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body && typeof body.message === 'string' ? body.message : t('players.serverAnswered', { status: res.status }));
  return body;
}

function drawList(players, chosen) {
  $('player-list').replaceChildren(
    players.length === 0
      ? h('p', { class: 'big-note' }, t('players.nobody'))
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
                ` · ${t('players.gamesWins', { games: t('players.games', { count: p.games }), wins: t('players.wins', { count: p.wins }) })}`,
              ),
            ),
          ),
        ),
  );
}

function drawPlayer(p) {
  $('player-view').replaceChildren(
    h('h2', { 'data-testid': 'player-name' }, p.name),
    h('p', { 'data-testid': 'player-summary' }, t('players.summary', { played: t('players.played', { count: p.games }), finished: p.finished, won: p.wins, when: when(p.lastPlayedAt) })),
    h(
      'table',
      { class: 'fair-table', 'data-testid': 'player-games' },
      h('thead', {}, h('tr', {}, h('th', {}, t('common.game')), h('th', {}, t('players.colPlayed')), h('th', {}, t('players.colFinished')), h('th', {}, t('players.colWins')), h('th', {}, t('players.colBest')))),
      h(
        'tbody',
        {},
        ...p.byGame.map((g) =>
          h(
            'tr',
            { 'data-testid': `player-game-${g.game}` },
            h('th', {}, gameName(g)),
            h('td', { class: 'num' }, g.played),
            h('td', { class: 'num' }, g.finished),
            h('td', { class: 'num' }, g.wins),
            h('td', { class: 'num', title: g.lowWins ? t('players.lowWinsTitle') : '' }, g.best === null ? '—' : g.lowWins ? t('players.lowWins', { score: g.best }) : String(g.best)),
          ),
        ),
      ),
    ),
    h('h3', {}, t('players.recent')),
    h(
      'ul',
      { class: 'session-games', 'data-testid': 'player-recent' },
      ...p.recent.map((r) =>
        h(
          'li',
          {},
          h('a', { href: `history.html?game=${encodeURIComponent(r.id)}` }, `${gameName(r)}: ${r.players.join(', ')}`),
          ` · ${[t(`players.state.${r.state}`), r.won ? t('players.won') : null, r.score, when(r.at)].filter((x) => x !== null).join(' · ')}`,
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
