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

const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** Whether a node of the texts is a set of plural forms (only plural categories, 'other' among them) rather than a group of keys, which may have an 'other' of its own (421's kinds of throw). */
export const isPlural = (node) => node !== null && typeof node === 'object' && typeof node.other === 'string' && Object.keys(node).every((k) => PLURAL_CATEGORIES.has(k));

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
  if (Array.isArray(v)) return listText(lang, v.map((x) => value(texts, fallback, lang, x)));
  if (v !== null && typeof v === 'object' && Array.isArray(v.anyOf)) return listText(lang, v.anyOf.map((x) => value(texts, fallback, lang, x)), 'disjunction');
  if (v !== null && typeof v === 'object' && typeof v.key === 'string') return translate(texts, fallback, lang, v.key, v.params ?? {});
  return String(v);
}

/** Words joined as a list of the language: "3, 6 and 9" (British English, no comma before the 'and'), "3, 6 ja 9"; or "3, 6 or 9" as a disjunction. */
export function listText(lang, items, type = 'conjunction') {
  return new Intl.ListFormat(lang === 'en' ? 'en-GB' : lang, { type }).format(items.map(String));
}

/**
 * A choice option's value in words, `key` being the option's ("games.yatzy.options.endTie"): the value's own
 * text (`<key>.values.<value>`); else a value that is a list ("2,5", "421,11x,triple,ladder,other") as a list
 * of the language with each part's text (`<key>.parts.<part>`) or the part itself (a number is its own word):
 * "2 ja 5", not "2,5", which reads as a decimal in Finnish and Czech.
 */
export function choiceWords(texts, fallback, lang, key, value) {
  const own = (k, otherwise) => {
    const text = translate(texts, fallback, lang, k);
    return text === k ? otherwise : text;
  };
  return own(`${key}.values.${value}`, null) ?? listText(lang, String(value).split(',').map((part) => own(`${key}.parts.${part}`, part)));
}

/** The first of the wanted languages (saved choice, then the browser's, e.g. "fi-FI") that has texts, else English. */
export function pickLanguage(wanted) {
  for (const tag of wanted) {
    const base = String(tag ?? '').toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return 'en';
}
