// What the operator's own pages (setup, integrations) share: the operator token kept in this browser, and a JSON
// request that names the server's refusal (in the toast, toast.js).

import { toast } from './toast.js';

const TOKEN_KEY = 'dice-tower-operator-token';

/** The operator token this browser keeps ('' when none). */
export const operatorToken = () => localStorage.getItem(TOKEN_KEY) ?? '';

/** As on the scoreboard: an operator link's ?token= is kept in this browser and leaves the address bar. */
export function keepTokenFromLink() {
  const url = new URL(location.href);
  const fromLink = url.searchParams.get('token');
  if (!fromLink) return;
  localStorage.setItem(TOKEN_KEY, fromLink);
  url.searchParams.delete('token');
  history.replaceState(null, '', url);
}

/**
 * A JSON request as the operator; a refusal is toasted and thrown with the server's message. `word` puts a refusal
 * with a code ({ code, message, params }) in the page's words (this module loads before the translations).
 */
export async function api(method, path, body, word = (refusal) => refusal.message) {
  const res = await fetch(path, { method, headers: { authorization: `Bearer ${operatorToken()}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const shown = typeof data.code === 'string' && typeof data.message === 'string' ? word(data) : (data.message ?? `${method} ${path} answered ${res.status}`);
    toast(shown, data.code ?? '');
    // Already in the toast: a caller's catch need not show it again.
    throw Object.assign(new Error(shown), { toasted: true });
  }
  return data;
}
