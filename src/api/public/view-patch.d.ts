// Types of view-patch.js for the TypeScript that uses it (the feed's tests, the benchmarks).
import type { PatchOp, WireOp } from '../view-diff.js';
import type { GameView } from '../views.js';

export function applyPatch<T>(doc: T, ops: readonly PatchOp[]): T;
export function fromWire(op: unknown): PatchOp;
export type { WireOp };

export interface LiveGames {
  readonly games: Map<string, { seq: number; view: GameView }>;
  take(message: { readonly type: string; readonly [field: string]: unknown }): { game?: GameView; resync?: string };
}
export function liveGames(): LiveGames;
