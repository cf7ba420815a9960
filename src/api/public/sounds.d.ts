// Types of sounds.js for the TypeScript that uses it (its tests).

export function cueSounds(game: unknown, enabled: boolean): void;
export function soundOn(fallback?: boolean): boolean;
export function soundToggle(button: HTMLElement): void;
export function audioState(): string;
