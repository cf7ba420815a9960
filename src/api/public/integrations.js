// The integrations page: the operator's API keys and webhooks (their last status), and the event stream as it comes.
import { h } from './dom.js';
import { api, operatorToken as token } from './operator-page.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

const when = (ms) => (ms ? new Date(ms).toLocaleString(document.documentElement.lang) : '');

async function showKeys() {
  const { keys } = await api('GET', '/api/keys');
  $('keys').replaceChildren(
    ...keys.map((k) =>
      h('tr', { class: k.revokedAt ? 'revoked' : '', 'data-testid': `key-${k.id}` },
        h('td', {}, h('code', {}, k.id)), h('td', {}, k.name), h('td', {}, k.scopes.join(', ')), h('td', {}, when(k.createdAt)),
        h('td', {}, k.revokedAt ? t('integrations.revokedAt', { when: when(k.revokedAt) }) : h('button', { class: 'button small ghost', onclick: () => revokeKey(k) }, t('integrations.revoke'))),
      ),
    ),
  );
}

async function revokeKey(key) {
  if (!confirm(t('integrations.revokeConfirm', { name: key.name }))) return;
  await api('POST', `/api/keys/${key.id}/revoke`);
  await showKeys();
}

async function showHooks() {
  const { webhooks } = await api('GET', '/api/webhooks');
  $('hooks').replaceChildren(
    ...webhooks.map((w) =>
      h('tr', { class: w.removedAt ? 'revoked' : '', 'data-testid': `hook-${w.id}` },
        h('td', {}, w.url), h('td', {}, w.types.join(', ')),
        h('td', {}, w.last ? `${w.last.status ?? t('integrations.noAnswer')}${w.last.error ? ` (${w.last.error})` : ''}, ${when(w.last.at)}` : t('integrations.nothingSent')),
        h('td', {}, `${w.deliveries.pending} / ${w.deliveries.delivered} / ${w.deliveries.failed}`),
        h('td', {}, w.removedAt ? t('integrations.removed') : h('button', { class: 'button small ghost', onclick: () => removeHook(w) }, t('integrations.remove'))),
      ),
    ),
  );
}

async function removeHook(hook) {
  if (!confirm(t('integrations.removeConfirm', { url: hook.url }))) return;
  await api('POST', `/api/webhooks/${hook.id}/remove`);
  await showHooks();
}

$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const scopes = [...document.querySelectorAll('input[name=scope]:checked')].map((c) => c.value);
  const { key, token: made } = await api('POST', '/api/keys', { name: $('key-name').value, scopes });
  $('key-made').hidden = false;
  $('key-made').replaceChildren(t('integrations.keyMade', { name: key.name }), h('code', { 'data-testid': 'key-token' }, made));
  $('key-form').reset();
  await showKeys();
});

$('hook-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const types = $('hook-types').value.split(',').map((type) => type.trim()).filter(Boolean);
  const { hook, secret } = await api('POST', '/api/webhooks', { url: $('hook-url').value, types });
  $('hook-made').hidden = false;
  $('hook-made').replaceChildren(t('integrations.hookMade', { url: hook.url }), h('code', { 'data-testid': 'hook-secret' }, secret));
  $('hook-form').reset();
  await showHooks();
});

/** The last events, newest first (the stream from now on, as the operator sees it: secret throws hidden). */
function tail() {
  const list = $('events');
  const source = new EventSource(`/api/events?operator=${encodeURIComponent(token())}`);
  source.onmessage = null;
  const add = (message) => {
    const e = JSON.parse(message.data);
    const what = e.type === 'roll.settled' ? (e.data.values ? e.data.values.join(' ') : t('history.secret')) : e.type === 'tower.status' ? e.data.message : e.type === 'roll.refused' ? e.data.reasons.join('; ') : '';
    list.prepend(h('li', {}, `#${e.seq} ${new Date(e.at).toLocaleTimeString(document.documentElement.lang)} ${e.type} ${what}`));
    while (list.children.length > 50) list.lastChild.remove();
  };
  for (const type of ['game.created', 'game.action', 'game.undone', 'roll.started', 'roll.refused', 'roll.settled', 'roll.corrected', 'game.ended', 'game.abandoned', 'tower.status', 'table.notice']) source.addEventListener(type, add);
}

if (!token()) $('no-token').hidden = false;
else {
  await Promise.all([showKeys(), showHooks()]);
  tail();
  setInterval(() => void showHooks().catch(() => undefined), 10_000);
}
