// The host's game management on the scoreboard: undo (the button and the Z key)
// and ending a game without a result (the rematch is on the winner screen).
import { h } from './dom.js';

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
    h('button', { type: 'button', class: 'button small ghost', 'data-testid': 'undo-button', title: 'Take back the last move (Z)', onclick: () => undo() }, 'Undo last move (Z)'),
    h('button', { type: 'button', class: 'button small ghost', 'data-testid': 'end-game-button', title: 'End this game without a result; it stays in the history', onclick: () => endGame() }, 'End game'),
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
  const words = reply.undone.map((u) => `${u.player ?? 'the table'}'s ${decisionWords(u.action)}`).join(' and ');
  bar().querySelector('[data-testid="undo-note"]').textContent = `Took back ${words}.`;
}

async function endGame() {
  if (!current) return;
  const { game, ctx } = current;
  if (!window.confirm(`End ${game.name} (${game.players.join(', ')}) without a result? It stays in the history.`)) return;
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
