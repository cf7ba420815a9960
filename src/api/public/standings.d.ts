// Types of standings.js for the TypeScript that uses it (its tests).

export interface Standing {
  readonly name: string;
  /** The seat. */
  readonly i: number;
  readonly score: number | undefined;
  readonly won: boolean;
  /** 1-based; a tie shares its place. */
  readonly place: number;
}

export function standings(names: readonly string[], result: { readonly winners?: readonly number[]; readonly scores?: readonly number[] }, lowScoreWins?: boolean): Standing[];
