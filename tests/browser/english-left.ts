/**
 * English left on a page shown in another language (issue #46): the English phrases looked for are read from the
 * language files (every fixed part of a text with {parameters}), not written in the tests, so a string left unkeyed
 * in a module shows up as its English words.
 */
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Texts } from '../../src/api/public/i18n-core.js';

export const texts = (lang: string): Texts => JSON.parse(readFileSync(join(import.meta.dirname, '../../src/api/public/i18n', `${lang}.json`), 'utf8'));

/** Every text of a file by its dotted key; plural forms are several texts. */
function leaves(node: Texts, prefix = ''): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, [v]);
    else if (typeof (v as { other?: unknown }).other === 'string') out.set(key, Object.values(v as Record<string, string>));
    else for (const [kk, vv] of leaves(v as Texts, key)) out.set(kk, vv);
  }
  return out;
}

/**
 * The English a page in `lang` must not show: each fixed part between {parameters} of an English text whose
 * words in `lang` differ, when it holds a word of four letters or more and is no part of any text of `lang`
 * (names such as "Yatzy" or "Bonus" are the same in both).
 */
export function englishPhrases(lang: string): string[] {
  const other = leaves(texts(lang));
  const theirs = [...other.values()].flat().join('\n').toLowerCase();
  const phrases = new Set<string>();
  for (const [key, forms] of leaves(texts('en'))) {
    if (JSON.stringify(forms) === JSON.stringify(other.get(key))) continue;
    for (const form of forms)
      for (const part of form.split(/\{\w+\}/)) {
        const phrase = part.replace(/^[\s:;,.·—–()"'!?…+-]+|[\s:;,.·—–()"'!?…+]+$/g, '');
        if (/\p{L}{4,}/u.test(phrase) && !theirs.includes(phrase.toLowerCase())) phrases.add(phrase);
      }
  }
  return [...phrases];
}

/**
 * The `phrases` in the page's visible text, as whole words, each with the words around it. `hide`: elements
 * hidden before the page is read (words not yet keyed); the page is not used after.
 */
export async function englishOn(page: Page, phrases: readonly string[], hide: readonly string[] = []): Promise<string[]> {
  const visible = await page.evaluate((selectors) => {
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selectors.join(',') || ':not(*)'))) el.style.display = 'none';
    // What a person sees and what a screen reader or a tooltip says.
    const attrs = Array.from(document.querySelectorAll('[title],[aria-label],[placeholder],[alt]')).flatMap((el) => ['title', 'aria-label', 'placeholder', 'alt'].map((a) => el.getAttribute(a) ?? ''));
    return [document.title, document.body.innerText, ...attrs].join('\n');
  }, [...hide]);
  return phrases.flatMap((phrase) => {
    const at = new RegExp(`(^|[^\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').exec(visible);
    return at ? [`${phrase} in "…${visible.slice(Math.max(0, at.index - 30), at.index + phrase.length + 30).replace(/\s+/g, ' ')}…"`] : [];
  });
}
