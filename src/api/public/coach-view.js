// The coach on the pages: a seat's hints on the scoreboard (the operator turns
// the coach on per seat; off by default, never for games with secret throws)
// and a game's analysis on the history page.
import { h } from './dom.js';
import { operatorToken as token } from './operator-page.js';
import { t, tOr } from './i18n.js';

/** A value in the units of its measure: points, or a probability in per cent. */
export function formatValue(measure, value, signed = false) {
  const probability = measure === 'probability' || measure === 'winProbability';
  const text = probability ? `${(value * 100).toFixed(1)} %` : value.toFixed(2);
  return signed && value > 0 ? `−${text}` : text;
}

/** What a measure is called (coach.measure.*), or its own name for one the texts do not know. */
const measureWords = (measure) => tOr(`coach.measure.${measure}`, measure);

async function getJson(path) {
  const res = await fetch(path, token() ? { headers: { authorization: `Bearer ${token()}` } } : {});
  const body = await res.json().catch(() => null);
  return { ok: res.ok, status: res.status, body };
}

// --- scoreboard: hints ------------------------------------------------------------

const coachKey = (gameId) => `dice-tower-coach:${gameId}`;
/** The seats whose coach the operator turned on for this game (kept in this browser). */
const coachedSeats = (gameId) => new Set(JSON.parse(localStorage.getItem(coachKey(gameId)) ?? '[]'));
function setCoached(gameId, seat, on) {
  const seats = coachedSeats(gameId);
  if (on) seats.add(seat);
  else seats.delete(seat);
  localStorage.setItem(coachKey(gameId), JSON.stringify([...seats]));
}

/** The last hint fetched, by game and version, so a redraw does not ask again. */
let shown = { key: '', node: null };

/**
 * Draws the coach panel into `panel` for `game` (a GameView): switches per seat
 * and, for the player to move when their coach is on, the open decisions best
 * first with their value and loss. `redraw` is called when a switch changes.
 */
export function renderCoach(panel, game, catalogEntry, redraw) {
  const coached = catalogEntry?.botLevels?.includes('strong') === true;
  panel.hidden = !token() || !coached || game.secretThrows || Boolean(game.result);
  if (panel.hidden) return;
  const seats = coachedSeats(game.id);
  const current = game.board?.current ?? null;
  const switches = h(
    'div',
    { class: 'coach-switches' },
    h('span', { class: 'coach-title' }, t('coach.title')),
    ...game.players.map((name, seat) =>
      h(
        'label',
        { class: 'coach-switch' },
        h('input', { type: 'checkbox', 'data-testid': `coach-seat-${seat}`, checked: seats.has(seat), onchange: (e) => (setCoached(game.id, seat, e.target.checked), redraw()) }),
        ` ${name}`,
      ),
    ),
  );
  const list = h('div', { class: 'coach-hints', 'data-testid': 'coach-hints' });
  panel.replaceChildren(switches, list);
  if (current === null || !seats.has(current)) return;
  const key = `${game.id}:${game.version}:${current}`;
  if (shown.key === key && shown.node) {
    list.replaceWith(shown.node);
    return;
  }
  list.textContent = t('coach.thinking');
  void getJson(`/api/games/${encodeURIComponent(game.id)}/hint`).then(({ ok, status, body }) => {
    let node;
    if (ok) node = hintList(body);
    else node = h('div', { class: 'coach-hints', 'data-testid': 'coach-hints' }, body?.message ?? (status === 503 ? t('coach.working') : t('coach.answered', { status })));
    if (status === 503) setTimeout(redraw, 3000);
    else shown = { key, node };
    if (list.isConnected) list.replaceWith(node);
  });
}

function hintList(hint) {
  if (hint.decisions.length === 0) return h('div', { class: 'coach-hints', 'data-testid': 'coach-hints' }, t('coach.nothingToDecide'));
  return h(
    'div',
    { class: 'coach-hints', 'data-testid': 'coach-hints' },
    h('p', { class: 'coach-note' }, t('coach.bestFirst', { name: hint.player, measure: measureWords(hint.measure) })),
    h(
      'ol',
      {},
      ...hint.decisions.slice(0, 5).map((d, i) =>
        h(
          'li',
          { class: i === 0 ? 'best' : '', 'data-testid': 'coach-hint' },
          h('span', { class: 'coach-label' }, d.label),
          h('span', { class: 'coach-value' }, formatValue(hint.measure, d.value)),
          h('span', { class: 'coach-loss' }, d.loss > 0 ? formatValue(hint.measure, d.loss, true) : t('coach.best')),
        ),
      ),
    ),
  );
}

// --- history: analysis ------------------------------------------------------------

/** The analysis of a game for the history page (a note when there is none). */
export async function analysisSection(gameId) {
  const section = h('section', { class: 'analysis', 'data-testid': 'analysis' }, h('h3', {}, t('coach.analysis')));
  const { ok, status, body } = await getJson(`/api/games/${encodeURIComponent(gameId)}/analysis`);
  if (!ok) {
    // No coach for this game: nothing to show. Still solving, or a secret game still running: say so.
    if (status === 409 && body?.code === 'coach/unavailable') return null;
    section.append(h('p', { class: 'setup-note', 'data-testid': 'analysis-note' }, body?.message ?? t('coach.answered', { status })));
    return section;
  }
  const m = body.measure;
  section.append(
    // Verhoeff's proficiency scale is for scorecard games (points lost per decision).
    h('p', { class: 'setup-note' }, [t('coach.against', { measure: measureWords(m) }), m === 'expectedScore' ? t('coach.expert') : null].filter(Boolean).join(' ')),
    h(
      'table',
      { class: 'analysis-players', 'data-testid': 'analysis-players' },
      h('thead', {}, h('tr', {}, h('th', {}, t('history.player')), h('th', {}, t('coach.decisions')), h('th', {}, t('coach.lostInAll')), h('th', {}, t('coach.lostPerDecision')))),
      h('tbody', {}, ...body.players.map((p) => h('tr', {}, h('td', {}, p.name), h('td', {}, String(p.decisions)), h('td', {}, formatValue(m, p.totalLoss)), h('td', {}, formatValue(m, p.meanLoss))))),
    ),
  );
  const costly = body.decisions.filter((d) => d.loss > 1e-9).slice(0, 10);
  section.append(
    costly.length === 0
      ? h('p', { 'data-testid': 'analysis-perfect' }, t('coach.perfect'))
      : h(
          'ol',
          { class: 'analysis-mistakes', 'data-testid': 'analysis-mistakes' },
          ...costly.map((d) =>
            h(
              'li',
              { 'data-testid': 'analysis-mistake' },
              h('strong', {}, body.players[d.seat]?.name ?? t('feed.seat', { number: d.seat + 1 })),
              `: ${t('coach.mistake', { chosen: d.chosen.label, chosenValue: formatValue(m, d.chosen.value), best: d.best.label, bestValue: formatValue(m, d.best.value) })}, `,
              h('span', { class: 'coach-loss' }, t('coach.lost', { value: formatValue(m, d.loss) })),
            ),
          ),
        ),
  );
  if (body.skipped.length > 0) section.append(h('p', { class: 'setup-note' }, t('coach.skipped', { count: body.skipped.length })));
  return section;
}
