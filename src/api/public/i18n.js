// The page's language: the saved choice, else the browser's (navigator.languages), else English. Texts are in
// i18n/<lang>.json, one file per language; every page imports `t` from here, and elements with a data-i18n key
// (text) or data-i18n-<attribute>="key" (title, placeholder, aria-label, alt) are filled in when the page loads.
// Keying a string: 'Roll' → t('scoreboard.roll'), and the key with its words in each i18n/*.json.
import { LANGUAGES, choiceWords, pickLanguage, translate } from './i18n-core.js';

const SAVED_KEY = 'dice-tower-language';
const ATTRIBUTES = ['title', 'placeholder', 'aria-label', 'alt'];

// A language file that cannot be loaded must not blank the page: its texts fall back to English, then to the
// keys themselves, and the console names the file.
const load = async (code) => {
  try {
    const res = await fetch(`/i18n/${code}.json`);
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    return await res.json();
  } catch (err) {
    console.error(`the texts of language '${code}' (/i18n/${code}.json) could not be loaded: ${err.message}`);
    return {};
  }
};

/** The language the page is shown in (en, fi, cs, el): ?lang= (the overlay in streaming software), the saved choice, the browser's. */
export const lang = pickLanguage([new URLSearchParams(location.search).get('lang'), localStorage.getItem(SAVED_KEY), ...(navigator.languages ?? [navigator.language])]);
// English is the fallback for a text not yet translated (the key test keeps that from shipping).
const [texts, english] = await Promise.all([load(lang), lang === 'en' ? null : load('en')]);

/** The words of `key` in the page's language, with its {parameters} filled in. */
export const t = (key, params) => translate(texts, english ?? texts, lang, key, params);

/** The words of `key`, or `fallback` when there are none (an option's value may have none: a number is its own word). */
export const tOr = (key, fallback, params) => {
  const text = t(key, params);
  return text === key ? fallback : text;
};

/** A choice option's value in words ("they share the win", "2 ja 5"); `key` is the option's: games.<id>.options.<name>. */
export const choiceText = (key, value) => choiceWords(texts, english ?? texts, lang, key, value);

/** Fills in every data-i18n text and attribute under `root`. */
export function applyTexts(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const attr of ATTRIBUTES) for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
}

/** A drop-down of the languages; choosing one saves it and shows the page again in it. */
export function languageSwitch() {
  const select = document.createElement('select');
  select.className = 'language-switch';
  select.dataset.testid = 'language-switch';
  select.setAttribute('aria-label', t('common.language'));
  for (const [code, name] of Object.entries(LANGUAGES)) select.append(new Option(name, code, false, code === lang));
  select.addEventListener('change', () => {
    localStorage.setItem(SAVED_KEY, select.value);
    // ?lang= comes first when the page is opened, so a choice made here drops it.
    const url = new URL(location.href);
    url.searchParams.delete('lang');
    location.replace(url);
  });
  return select;
}

document.documentElement.lang = lang;
applyTexts();
// A page puts its switch where it has room for one: an element with data-language-switch.
for (const slot of document.querySelectorAll('[data-language-switch]')) slot.replaceChildren(languageSwitch());
