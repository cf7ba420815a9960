// The toast a page shows a refusal or a failure in (its HTML's #toast, #toast-message, #toast-code): for a few
// seconds, a newer one replacing it, a click putting it away. The scoreboard, the history and the operator's pages.
import { $ } from './dom.js';

const TOAST_MS = 8000;

let timer = 0;

/** Shows a message (and the server's code, if any). */
export function toast(message, code) {
  const el = $('toast');
  $('toast-message').textContent = message;
  $('toast-code').textContent = code ? String(code) : '';
  el.hidden = false;
  if (!el.dataset.dismissable) {
    el.dataset.dismissable = 'true';
    el.addEventListener('click', () => (el.hidden = true));
  }
  window.clearTimeout(timer);
  timer = window.setTimeout(() => (el.hidden = true), TOAST_MS);
}
