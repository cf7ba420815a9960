// Turning a key and its parameters into words of one language: pure, shared by the pages (i18n.js) and the tests.
// A text is a string with {name} parameters, or plural forms by Intl.PluralRules category ({ one, few, other })
// chosen by the `count` parameter. A parameter may be an array (a list: "Ann, Ben and Cy") or { key, params } (a
// text of its own, translated too: the feed's "The table", a bid), or { anyOf: [...] } (alternatives: "6 and 3 or 9").

/** The languages there are texts for, with their own names (for the switch). */
export const LANGUAGES = { en: 'English', fi: 'Suomi', cs: 'Čeština', el: 'Ελληνικά' };

/** The text of `key` in nested `texts` ("feed.bid" → texts.feed.bid), or undefined. */
export function lookup(texts, key) {
  let node = texts;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** Whether a node of the texts is a set of plural forms rather than a group of keys. */
export const isPlural = (node) => node !== null && typeof node === 'object' && typeof node.other === 'string';

/**
 * `key` in `lang`, from `texts` (that language's) else `fallback` (English's), else the key itself, so a
 * missing text shows where it is missing instead of an empty space.
 */
export function translate(texts, fallback, lang, key, params = {}) {
  let text = lookup(texts, key);
  if (typeof text !== 'string' && !isPlural(text)) text = lookup(fallback, key);
  if (isPlural(text)) text = text[new Intl.PluralRules(lang).select(Number(params.count ?? 0))] ?? text.other;
  if (typeof text !== 'string') return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? value(texts, fallback, lang, params[name]) : whole));
}

function value(texts, fallback, lang, v) {
  // British English, as the texts are written: "3, 6 and 9", no comma before the 'and'.
  if (Array.isArray(v)) return new Intl.ListFormat(lang === 'en' ? 'en-GB' : lang, { type: 'conjunction' }).format(v.map((x) => value(texts, fallback, lang, x)));
  if (v !== null && typeof v === 'object' && Array.isArray(v.anyOf)) return new Intl.ListFormat(lang === 'en' ? 'en-GB' : lang, { type: 'disjunction' }).format(v.anyOf.map((x) => value(texts, fallback, lang, x)));
  if (v !== null && typeof v === 'object' && typeof v.key === 'string') return translate(texts, fallback, lang, v.key, v.params ?? {});
  return String(v);
}

/** The first of the wanted languages (saved choice, then the browser's, e.g. "fi-FI") that has texts, else English. */
export function pickLanguage(wanted) {
  for (const tag of wanted) {
    const base = String(tag ?? '').toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return 'en';
}
