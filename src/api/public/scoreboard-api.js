// The scoreboard's REST calls: a POST with the operator's token; a refusal or an unreachable server is shown in
// the toast (the page goes on; the caller gets null).
import { t } from './i18n.js';
import { operatorToken } from './operator-page.js';
import { toast } from './toast.js';

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
