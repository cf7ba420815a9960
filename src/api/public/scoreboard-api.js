// The scoreboard's REST calls: a POST with the operator's token, and the toast where a refusal or an unreachable
// server is shown (the page goes on; the caller gets null).
import { $ } from './dom.js';
import { t } from './i18n.js';
import { operatorToken } from './operator-page.js';

const TOAST_MS = 8000;

let toastTimer = 0;

/** Shows a message (and the server's code) for a few seconds; a newer one replaces it. */
export function toast(message, code) {
  $('toast-message').textContent = message;
  $('toast-code').textContent = code ? String(code) : '';
  $('toast').hidden = false;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => ($('toast').hidden = true), TOAST_MS);
}
$('toast').addEventListener('click', () => ($('toast').hidden = true));

/** POSTs `body` (none: no body) to `path` as the operator: the reply's JSON, or null after a toast saying why. */
export async function post(path, body) {
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
  return data;
}

/** A game's endpoint: `/api/games/<id>/<action>`. */
export const gamePath = (game, action) => `/api/games/${encodeURIComponent(game.id)}/${action}`;
