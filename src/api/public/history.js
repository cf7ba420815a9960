// History: the sessions (server runs) and their games; one game's rolls
// stepped through with their camera frames and readings; export and import.
import { drawOutlines } from './reading-overlay.js';
import { h, SVG_NS } from './dom.js';
import { analysisSection } from './coach-view.js';
import { t } from './i18n.js';
import { toast } from './toast.js';

const TOKEN_KEY = 'dice-tower-operator-token';
const token = () => localStorage.getItem(TOKEN_KEY) ?? '';
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const view = { game: params.get('game'), roll: Number(params.get('roll')) || null, data: null, analysisFor: null, analysis: null };

async function getJson(path, auth = false) {
  const res = await fetch(path, auth && token() ? { headers: { authorization: `Bearer ${token()}` } } : {});
  const body = await res.json().catch(() => null);
  if (!res.ok) throw Object.assign(new Error(body?.message ?? `${res.status} ${res.statusText}`), { code: body?.code });
  return body;
}

const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang);
// The game's name in the page's language (the record keeps the English one).
const gameName = (g) => t(`games.${g.game}.name`);
const wonBy = (g) => t('history.wonBy', { names: g.winners.map((w) => g.players[w]) });

async function loadList() {
  const { sessions, games } = await getJson('/api/history');
  const groups = [...sessions].reverse().map((s) => ({ title: t('history.session', { id: s.id, when: when(s.startedAt) }), games: games.filter((g) => g.session === s.id) }));
  const loose = games.filter((g) => g.session === null);
  if (loose.length) groups.push({ title: t('history.loose'), games: loose });
  $('sessions').replaceChildren(
    ...groups
      .filter((g) => g.games.length > 0)
      .map((group) =>
        h(
          'section',
          { class: 'session', 'data-testid': 'session' },
          h('h2', {}, group.title),
          ...group.games.map((g) =>
            h(
              'a',
              { class: 'game-link', href: `?game=${g.id}`, 'data-testid': `history-game-${g.id}`, 'aria-current': String(g.id === view.game), onclick: (e) => (e.preventDefault(), open(g.id, null)) },
              `${gameName(g)}: ${g.players.join(', ')}`,
              h('small', {}, [when(g.createdAt), t('history.rolls', { count: g.rollCount }), g.correctionCount ? t('history.corrected', { count: g.correctionCount }) : null, g.over ? wonBy(g) : g.ended ? t('history.endedWithoutResult') : null].filter(Boolean).join(' · ')),
            ),
          ),
        ),
      ),
  );
  if (games.length === 0) $('sessions').replaceChildren(h('p', { class: 'big-note' }, t('history.noGames')));
}

async function open(id, roll) {
  view.game = id;
  try {
    view.data = await getJson(`/api/games/${encodeURIComponent(id)}/rolls`);
  } catch (err) {
    toast(err.message, err.code);
    return;
  }
  const count = view.data.rolls.length;
  view.roll = roll && roll >= 1 && roll <= count ? roll : count || null;
  for (const a of document.querySelectorAll('.game-link')) a.setAttribute('aria-current', String(a.dataset.testid === `history-game-${id}`));
  renderGame();
}

function go(seq) {
  if (!view.data || seq < 1 || seq > view.data.rolls.length) return;
  view.roll = seq;
  renderGame();
}

function renderGame() {
  const { game, rolls } = view.data;
  const url = new URL(location.href);
  url.searchParams.set('game', game.id);
  if (view.roll) url.searchParams.set('roll', String(view.roll));
  history.replaceState(null, '', url);
  const roll = rolls[(view.roll ?? 1) - 1] ?? null;
  const frame = roll?.frameUrl
    ? h('div', { class: 'frame', style: `--ar:${roll.reading?.width ?? 16} / ${roll.reading?.height ?? 9}` }, h('img', { src: roll.frameUrl, alt: t('history.frameAlt', { seq: roll.seq }), 'data-testid': 'history-frame' }), document.createElementNS(SVG_NS, 'svg'))
    : h('div', { class: 'no-frame' }, roll ? (roll.secret ? t('history.secretThrow') : roll.source === 'manual' ? t('history.typedNoFrame') : t('history.noFrameKept')) : t('history.noRolls'));
  const svg = frame.querySelector?.('svg');
  if (svg && roll?.reading) {
    svg.setAttribute('class', 'overlay');
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.dataset.testid = 'history-overlay';
    drawOutlines(svg, roll.reading, roll.slots, roll.readingValues);
  }
  const facts = roll
    ? h(
        'dl',
        { class: 'roll-facts', 'data-testid': 'roll-facts' },
        h('dt', {}, t('history.roll')),
        h('dd', { 'data-testid': 'roll-seq' }, t('history.rollOf', { seq: roll.seq, total: rolls.length })),
        h('dt', {}, t('history.player')),
        h('dd', {}, game.players[roll.player] ?? ''),
        h('dt', {}, t('history.dice')),
        h('dd', { 'data-testid': 'roll-values' }, roll.values ? roll.values.join(' ') : t('history.secret')),
        roll.read ? [h('dt', {}, t('history.readByCamera')), h('dd', { class: 'corrected', 'data-testid': 'roll-read' }, roll.read.join(' '))] : null,
        ...roll.corrections.map((c) => [h('dt', {}, t('history.correction')), h('dd', { class: 'corrected', 'data-testid': 'roll-correction' }, t('history.correctionText', { from: c.from.join(' '), to: c.values.join(' '), by: c.by, when: when(c.at), reason: c.reason }))]),
        h('dt', {}, t('history.how')),
        h('dd', {}, roll.source === 'manual' ? t('history.typedIn') : [t('history.tower', { count: roll.attempts }), roll.reading ? t('history.readIn', { ms: Math.round(roll.reading.ms) }) : null].filter(Boolean).join(', ')),
        h('dt', {}, t('history.when')),
        h('dd', {}, when(roll.at)),
      )
    : h('p', {}, t('history.noRollsYet'));
  $('game-view').replaceChildren(
    h('h2', { 'data-testid': 'history-title' }, `${gameName(game)}: ${game.players.join(', ')}`),
    h('p', { class: 'setup-note' }, `${when(game.createdAt)} · ${game.over ? wonBy(game) : game.ended ? t('history.endedWithoutResult') : t('history.notFinished')}`),
    h(
      'div',
      { class: 'roll-nav' },
      h('button', { class: 'button small', type: 'button', 'data-testid': 'prev-roll', disabled: !roll || roll.seq <= 1, onclick: () => go(view.roll - 1) }, t('history.previous')),
      h('button', { class: 'button small', type: 'button', 'data-testid': 'next-roll', disabled: !roll || roll.seq >= rolls.length, onclick: () => go(view.roll + 1) }, t('history.next')),
      token() ? h('button', { class: 'button small ghost', type: 'button', 'data-testid': 'export-game', onclick: () => exportGame(game.id) }, t('history.export')) : null,
      h('a', { class: 'button small ghost', href: `/?game=${game.id}` }, t('history.openOnScoreboard')),
    ),
    h('div', { class: 'roll-viewer' }, h('div', {}, frame), facts),
    h('div', { class: 'roll-list', 'data-testid': 'roll-list' }, ...rolls.map((r) => h('button', { class: 'button small ghost', type: 'button', 'aria-current': String(r.seq === view.roll), onclick: () => go(r.seq) }, r.corrections.length ? `${r.seq}✎` : String(r.seq)))),
  );
  // The coach's review of the game's decisions, when it has solved this game (once per game opened, not per roll stepped).
  if (view.analysisFor !== game.id) {
    view.analysisFor = game.id;
    view.analysis = null;
    void analysisSection(game.id)
      .then((section) => {
        view.analysis = section;
        if (section && view.game === game.id) $('game-view').append(section);
      })
      .catch((err) => toast(err.message));
  } else if (view.analysis) $('game-view').append(view.analysis);
}

async function exportGame(id) {
  try {
    const exp = await getJson(`/api/games/${encodeURIComponent(id)}/export`, true);
    const a = h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(exp, null, 1)], { type: 'application/json' })), download: `dice-tower-${id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    toast(err.message, err.code);
  }
}

$('import-form').hidden = !token();
$('import-file').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  let body;
  try {
    body = JSON.parse(await file.text());
  } catch {
    toast(t('history.notJson', { file: file.name }));
    return;
  }
  const res = await fetch('/api/games/import', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` }, body: JSON.stringify(body) });
  const reply = await res.json().catch(() => null);
  if (!res.ok) {
    toast(reply?.message ?? `${res.status} ${res.statusText}`, reply?.code);
    return;
  }
  await loadList();
  await open(reply.id, null);
});

document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowLeft') go((view.roll ?? 1) - 1);
  if (e.key === 'ArrowRight') go((view.roll ?? 0) + 1);
});

loadList()
  .then(() => (view.game ? open(view.game, view.roll) : undefined))
  .catch((err) => toast(err.message, err.code));
