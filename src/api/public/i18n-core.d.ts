// Types of i18n-core.js for the tests that put texts in words as the pages do.
export type Texts = { readonly [key: string]: string | Texts };
export type Param = string | number | readonly Param[] | { readonly anyOf: readonly Param[] } | { readonly key: string; readonly params?: Readonly<Record<string, Param>> };
export const LANGUAGES: Readonly<Record<string, string>>;
export function lookup(texts: Texts, key: string): unknown;
export function isPlural(node: unknown): boolean;
export function translate(texts: Texts, fallback: Texts, lang: string, key: string, params?: Readonly<Record<string, Param>>): string;
export function listText(lang: string, items: readonly (string | number)[]): string;
export function choiceWords(texts: Texts, fallback: Texts, lang: string, key: string, value: string): string;
export function pickLanguage(wanted: readonly (string | null | undefined)[]): string;
