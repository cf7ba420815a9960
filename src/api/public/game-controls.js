// The host's game management on the scoreboard: undo (the button and the Z key)
// and ending a game without a result (the rematch is on the winner screen).
import { h } from './dom.js';
import { t } from './i18n.js';

let current = null;

/** "close 9", "bid 3 × 5": a decision taken back, as the notice names it. */
function decisionWords(action) {
  const args = Object.entries(action)
    .filter(([k]) => k !== 'type')
    .map(([, v]) => (Array.isArray(v) ? v.join('+') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  return [action.type, ...args].join(' ');
}

/** The bar under the decisions, made once (the page's HTML is shared with other screens). */
function bar() {
  let el = document.getElementById('game-controls');
  if (el) return el;
  el = h(
    'div',
    { id: 'game-controls', class: 'game-controls', 'data-testid': 'game-controls' },
    h('button', { type: 'button', class: 'button small ghost', 'data-testid': 'undo-button', title: t('controls.undoTitle'), onclick: () => undo() }, t('controls.undo')),
    h('button', { type: 'button', class: 'button small ghost', 'data-testid': 'end-game-button', title: t('controls.endTitle'), onclick: () => endGame() }, t('controls.end')),
    h('span', { class: 'game-controls-note', 'data-testid': 'undo-note', role: 'status' }),
  );
  document.getElementById('decisions')?.after(el);
  return el;
}

async function undo() {
  if (!current) return;
  const { game, ctx } = current;
  const reply = await ctx.api(`/api/games/${encodeURIComponent(game.id)}/undo`, {});
  if (!reply) return;
  ctx.upsert(reply.game);
  const moves = reply.undone.map((u) => t('controls.move', { name: u.player ?? t('controls.theTable'), move: decisionWords(u.action) }));
  bar().querySelector('[data-testid="undo-note"]').textContent = t('controls.tookBack', { moves });
}

async function endGame() {
  if (!current) return;
  const { game, ctx } = current;
  if (!window.confirm(t('controls.endConfirm', { name: t(`games.${game.game}.name`), players: game.players.join(', ') }))) return;
  const reply = await ctx.api(`/api/games/${encodeURIComponent(game.id)}/end`, {});
  if (reply) ctx.pin('');
}

/**
 * Draws the controls for the shown game. `ctx`: `api` (POST with the operator's
 * token; null on a refusal, which it shows), `operator`, `pin(id)` (show a game),
 * `upsert(game)` (take a newer view of a game).
 */
export function renderGameControls(game, ctx) {
  // Another game shown: the last undo's note was about the one before.
  if (current?.game.id !== game.id) bar().querySelector('[data-testid="undo-note"]').textContent = '';
  current = { game, ctx };
  const el = bar();
  const playing = !game.result && !game.ended;
  el.hidden = !ctx.operator || !playing;
}

// Z takes back the last move (not while typing), like the button.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'z' && e.key !== 'Z') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
  const button = document.querySelector('[data-testid="undo-button"]');
  if (button && !button.closest('[hidden]')) button.click();
});
