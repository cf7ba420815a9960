// Types of dice-motion.js for the TypeScript that uses it (its tests).

export function landingRoll(game: { readonly id: string; readonly lastRoll?: { readonly seq: number } | null }, now?: number): number | null;
export function setLanding<E extends HTMLElement>(el: E, since: number | null): E;
