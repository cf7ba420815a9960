/**
 * The pages' texts (src/api/public/i18n/*.json, one file per language): every language has every key of
 * English and no other, with the same {parameters} and the plural forms its language needs; every key the
 * pages use and every game, option and feed line has its English words; and words are put together as the
 * pages do (i18n-core.js).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAMES, type AnyGameDef } from '../../src/games/index.js';
import { MOVE_TYPES } from '../../src/games/feed-words.js';
import { LANGUAGES, choiceWords, isPlural, lookup, pickLanguage, translate, type Texts } from '../../src/api/public/i18n-core.js';

const PUBLIC = join(import.meta.dirname, '../../src/api/public');
const texts = (lang: string): Texts => JSON.parse(readFileSync(join(PUBLIC, 'i18n', `${lang}.json`), 'utf8'));
const en = texts('en');
const OTHERS = Object.keys(LANGUAGES).filter((l) => l !== 'en');

type Leaf = string | Record<string, string>;
const isPluralNode = (v: unknown): v is Record<string, string> => isPlural(v);

/** Every text of a file by its dotted key (plural forms are one text). */
function leaves(node: Texts, prefix = ''): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  for (const [k, v] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string' || isPluralNode(v)) out.set(key, v as Leaf);
    else for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}
const forms = (leaf: Leaf) => (typeof leaf === 'string' ? [leaf] : Object.values(leaf));
const params = (leaf: Leaf) => [...new Set(forms(leaf).flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
/** The plural categories a language uses for whole numbers (Czech: one, few, other; 'many' is for fractions). */
const categories = (lang: string) => [...new Set(Array.from({ length: 200 }, (_, n) => new Intl.PluralRules(lang).select(n)))].sort();

const englishLeaves = leaves(en);

describe('the language files', () => {
  it('are English, Finnish, Czech and Greek, one file each', () => {
    expect(readdirSync(join(PUBLIC, 'i18n')).sort()).toEqual(['cs.json', 'el.json', 'en.json', 'fi.json']);
  });

  it.each(OTHERS)('%s has every English key and no other', (lang) => {
    const keys = [...leaves(texts(lang)).keys()];
    expect(englishLeaves.size).toBeGreaterThan(300);
    expect({ missing: [...englishLeaves.keys()].filter((k) => !keys.includes(k)), extra: keys.filter((k) => !englishLeaves.has(k)) }).toEqual({ missing: [], extra: [] });
  });

  it.each(Object.keys(LANGUAGES))('%s: the same {parameters} as English in every text, no empty text, and every plural form its language needs', (lang) => {
    const problems: string[] = [];
    for (const [key, leaf] of leaves(texts(lang))) {
      const english = englishLeaves.get(key);
      if (english === undefined) continue;
      if (JSON.stringify(params(leaf)) !== JSON.stringify(params(english))) problems.push(`${key}: {${params(leaf).join('}, {')}} where English has {${params(english).join('}, {')}}`);
      if (forms(leaf).some((f) => f.trim() === '')) problems.push(`${key}: empty`);
      if (typeof leaf !== 'string') {
        if (!params(english).includes('count')) problems.push(`${key}: plural forms without a {count} to choose them`);
        const missing = categories(lang).filter((c) => !(c in leaf));
        if (missing.length) problems.push(`${key}: no plural form for ${missing.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the keys the pages use', () => {
  const files = readdirSync(PUBLIC).filter((f) => /\.(js|html)$/.test(f));
  const used = new Map<string, string>();
  for (const file of files) {
    const source = readFileSync(join(PUBLIC, file), 'utf8');
    for (const m of source.matchAll(/\b(?:t|tOr)\(\s*'([^']+)'/g)) used.set(m[1] as string, file);
    for (const m of source.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)) used.set(m[1] as string, file);
  }

  it('are found (the scan sees the pages)', () => {
    expect(used.get('history.choose')).toBe('history.html');
    expect(used.get('feed.heading')).toBe('table-feed.js');
    expect(used.size).toBeGreaterThan(100);
  });

  it('every t(…) and data-i18n key in the public JS and HTML has English words', () => {
    expect([...used].filter(([key]) => typeof lookup(en, key) !== 'string' && !isPluralNode(lookup(en, key))).map(([key, file]) => `${file}: ${key}`)).toEqual([]);
  });

  it('every line of the table feed (src/games/feed-words.ts) has English words', () => {
    const source = readFileSync(join(import.meta.dirname, '../../src/games/feed-words.ts'), 'utf8');
    const keys = [...source.matchAll(/\btext\(\s*'(\w+)'/g), ...source.matchAll(/\?\s*'(\w+)'\s*:\s*'(\w+)'/g)].flatMap((m) => m.slice(1)).map((k) => `feed.${k}`);
    expect(keys).toContain('feed.shut');
    expect(keys.filter((k) => !englishLeaves.has(k))).toEqual([]);
    // The common words for the other games' decisions: one line per action type.
    expect(MOVE_TYPES.map((type) => `feed.moves.${type}`).filter((k) => !englishLeaves.has(k))).toEqual([]);
  });

  it('every row of every scorecard game has its name, by the row id (the feed and the scorecard use them)', () => {
    const missing: string[] = [];
    for (const def of Object.values(GAMES) as AnyGameDef[]) {
      const board = def.board(def.setup(Array.from({ length: Math.max(def.minPlayers, 2) }, (_, i) => `P${i}`), {}));
      if (board.kind === 'scorecard') for (const row of board.rows) if (typeof lookup(en, `games.${def.id}.rows.${row.id}`) !== 'string') missing.push(`${def.id}.${row.id}`);
    }
    expect(missing).toEqual([]);
  });

  it('the games\' texts name only games, options, values and value parts the catalog has', () => {
    const problems: string[] = [];
    for (const lang of Object.keys(LANGUAGES)) {
      const games = (texts(lang).games ?? {}) as Record<string, { options?: Record<string, { values?: Record<string, string>; parts?: Record<string, string> }> }>;
      for (const [id, game] of Object.entries(games)) {
        const def = (GAMES as Record<string, AnyGameDef>)[id];
        if (!def) problems.push(`${lang}: ${id}: no such game`);
        for (const [name, option] of Object.entries(game.options ?? {})) {
          const spec = def?.optionSpecs.find((s) => s.name === name);
          if (!spec) problems.push(`${lang}: ${id}.${name}: no such option`);
          const choices = spec?.type === 'choice' ? spec.choices : [];
          for (const value of Object.keys(option.values ?? {})) if (!choices.includes(value)) problems.push(`${lang}: ${id}.${name}: no such value '${value}'`);
          for (const part of Object.keys(option.parts ?? {})) if (!choices.some((c) => c.split(',').includes(part))) problems.push(`${lang}: ${id}.${name}: no value has a part '${part}'`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * What a language's own file lacks for the catalog's games (src/games/index.ts): each game's name and rule
 * summary, each option's label and description, and each choice value in words: its own text, or, for a list
 * value ("2,5", "421,11x,triple,ladder,other"), a text for every part that is not a number.
 */
function missingGameWords(own: Texts): string[] {
  const missing: string[] = [];
  const has = (key: string) => typeof lookup(own, key) === 'string';
  for (const def of Object.values(GAMES) as AnyGameDef[]) {
    for (const part of ['name', 'rules']) if (!has(`games.${def.id}.${part}`)) missing.push(`games.${def.id}.${part}`);
    for (const spec of def.optionSpecs) {
      const key = `games.${def.id}.options.${spec.name}`;
      for (const part of ['label', 'description']) if (!has(`${key}.${part}`)) missing.push(`${key}.${part}`);
      if (spec.type !== 'choice') continue;
      for (const c of spec.choices) {
        if (has(`${key}.values.${c}`)) continue;
        for (const part of c.split(',')) if (!/^\d+$/.test(part) && !has(`${key}.parts.${part}`)) missing.push(`${key}.values.${c}`);
      }
    }
  }
  return [...new Set(missing)];
}

describe('every game in every language (#46)', () => {
  it.each(Object.keys(LANGUAGES))('%s: every game\'s name and rule summary, every option\'s label, description and values in its own words', (lang) => {
    expect(missingGameWords(texts(lang))).toEqual([]);
  });

  it('a key taken out of a file is found missing (the check can fail)', () => {
    const fi = texts('fi') as unknown as { games: Record<string, { name?: string; options: Record<string, { description?: string; values?: Record<string, string>; parts?: Record<string, string> }> }> };
    delete fi.games['ten-thousand']!.options.hotDice!.description;
    delete fi.games.bouncer!.options.endTie!.values!.noWinner;
    delete fi.games['four-two-one']!.options.categoryOrder!.parts!.ladder;
    delete fi.games.slam!.name;
    const missing = missingGameWords(fi as unknown as Texts);
    expect(missing).toContain('games.ten-thousand.options.hotDice.description');
    expect(missing).toContain('games.bouncer.options.endTie.values.noWinner');
    expect(missing).toContain('games.four-two-one.options.categoryOrder.values.421,11x,triple,ladder,other');
    expect(missing).toContain('games.slam.name');
  });

  it('a value is shown in the language\'s words: its own text, or a list of its parts ("2 ja 5", not "2,5")', () => {
    const [fi, cs] = [texts('fi'), texts('cs')];
    expect(choiceWords(fi, en, 'fi', 'games.yatzy.options.endTie', 'noWinner')).toBe(lookup(fi, 'games.yatzy.options.endTie.values.noWinner'));
    expect(choiceWords(fi, en, 'fi', 'games.drop-dead.options.deadFaces', '2,5')).toBe('2 ja 5');
    expect(choiceWords(cs, en, 'cs', 'games.shut-the-box.options.oneDieUnlock', '7,8,9')).toMatch(/^7, 8 a\s9$/);
    const order = choiceWords(fi, en, 'fi', 'games.four-two-one.options.categoryOrder', '421,11x,triple,ladder,other');
    expect(order).toBe(`4-2-1, 1-1-x, ${lookup(fi, 'games.four-two-one.options.categoryOrder.parts.triple')}, ${lookup(fi, 'games.four-two-one.options.categoryOrder.parts.ladder')} ja ${lookup(fi, 'games.four-two-one.options.categoryOrder.parts.other')}`);
    expect(order).toContain('tikapuut'); // the booklet's word for a run
  });
});

describe('putting a text in words', () => {
  const cs = texts('cs');
  it('fills in parameters, lists in the language\'s way, and a text given as a parameter', () => {
    expect(translate(en, en, 'en', 'feed.shut', { name: 'Ann', boxes: [3, 6, 9] })).toBe('Ann shut 3, 6 and 9');
    expect(translate(en, en, 'en', 'feed.bid', { name: 'Ann', bid: { key: 'feed.bidDice', params: { count: 4, face: 5 } } })).toBe('Ann bid 4 × 5');
    expect(translate(en, en, 'en', 'feed.wins', { name: { key: 'feed.theTable', params: {} } })).toBe('The table wins!');
    expect(translate(cs, en, 'cs', 'feed.shareWin', { names: ['Jana', 'Petr'] })).toMatch(/^Jana a\sPetr se dělí o vítězství$/); // Czech joins with 'a' (and a no-break space)
  });

  it('chooses the plural form by {count} with the language\'s rules', () => {
    expect(translate(en, en, 'en', 'feed.lostLives', { name: 'Ben', count: 1 })).toBe('Ben lost a life');
    expect(translate(en, en, 'en', 'feed.lostLives', { name: 'Ben', count: 2 })).toBe('Ben lost 2 lives');
    const csForms = lookup(cs, 'feed.lostDice') as Record<string, string>;
    expect(translate(cs, en, 'cs', 'feed.lostDice', { name: 'Petr', count: 3 })).toBe(csForms.few?.replace('{name}', 'Petr').replace('{count}', '3'));
    expect(translate(cs, en, 'cs', 'feed.lostDice', { name: 'Petr', count: 5 })).toBe(csForms.other?.replace('{name}', 'Petr').replace('{count}', '5'));
  });

  it('falls back to English, then to the key itself, and leaves an unknown {parameter} as it is', () => {
    expect(translate({}, en, 'fi', 'feed.moves.stop', { name: 'Ann' })).toBe('Ann stopped');
    expect(translate({}, {}, 'fi', 'feed.nothing')).toBe('feed.nothing');
    expect(translate(en, en, 'en', 'feed.moves.stop')).toBe('{name} stopped');
  });

  it('picks the first wanted language it has, by its base (fi-FI is fi), else English', () => {
    expect(pickLanguage([null, 'de-DE', 'cs-CZ', 'fi'])).toBe('cs');
    expect(pickLanguage(['el'])).toBe('el');
    expect(pickLanguage(['de', 'sv'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });
});
