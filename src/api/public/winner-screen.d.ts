// Types of winner-screen.js for the TypeScript that uses it (its tests).

export function renderWinnerScreen(el: HTMLElement, game: unknown, ctx: unknown): void;
