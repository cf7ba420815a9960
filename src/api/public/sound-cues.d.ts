// Types of sound-cues.js for the TypeScript that uses it (its tests).

/** What a game looked like when last seen: enough to tell which change a cue is for. */
export interface SeenGame {
  readonly rollCount: number;
  readonly stepCount: number;
  readonly version: number;
  readonly over: boolean;
}

export function cueFor(before: SeenGame | null | undefined, game: { readonly rollCount: number; readonly stepCount: number; readonly version: number; readonly result: unknown }): 'roll' | 'score' | 'win' | null;
