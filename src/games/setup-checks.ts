/** Validation every game's `setup` shares: player lists and options against their specs. */
import { GameSetupError, type OptionSpec } from './types.js';
import { show } from './dice.js';

/**
 * Options with their defaults filled in, each checked against its spec.
 * Throws GameSetupError naming the option for an unknown name or a bad value.
 */
export function resolveOptions<O>(game: string, specs: readonly OptionSpec[], given: unknown): O {
  const out: Record<string, unknown> = {};
  for (const spec of specs) out[spec.name] = spec.default;
  if (given === undefined || given === null) return out as O;
  if (typeof given !== 'object' || Array.isArray(given)) throw new GameSetupError(`${game} options must be an object.`);
  for (const [name, value] of Object.entries(given)) {
    const spec = specs.find((s) => s.name === name);
    // A misspelt option would otherwise silently fall back to its default.
    if (!spec) {
      const known = specs.map((s) => s.name).join(', ') || 'none';
      throw new GameSetupError(`Unknown ${game} option "${name}" (options: ${known}).`);
    }
    if (value === undefined) continue;
    const bad = (want: string) => new GameSetupError(`Option ${name} must be ${want}; got ${show(value)}.`);
    switch (spec.type) {
      case 'boolean':
        if (typeof value !== 'boolean') throw bad('true or false');
        break;
      case 'choice':
        if (typeof value !== 'string' || !spec.choices.includes(value)) throw bad(`one of ${spec.choices.map((c) => `'${c}'`).join(', ')}`);
        break;
      case 'integer':
      case 'number': {
        const range = `${spec.min !== undefined ? ` from ${spec.min}` : ''}${spec.max !== undefined ? ` up to ${spec.max}` : ''}`;
        const want = `${spec.type === 'integer' ? 'a whole number' : 'a number'}${range}`;
        if (typeof value !== 'number' || !Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) throw bad(want);
        if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) throw bad(want);
        break;
      }
    }
    out[name] = value;
  }
  return out as O;
}

/** Checks a player list: the game's seat range, non-empty names, no name twice. */
export function checkPlayers(game: string, players: unknown, min: number, max: number): void {
  if (!Array.isArray(players)) throw new GameSetupError('Players must be a list of names.');
  if (players.length < min || players.length > max) {
    throw new GameSetupError(`${game} takes ${min === max ? min : `${min} to ${max}`} players; got ${players.length}.`);
  }
  const seen = new Set<string>();
  players.forEach((name: unknown, i) => {
    if (typeof name !== 'string' || name.trim() === '') throw new GameSetupError(`Player ${i + 1} needs a non-empty name.`);
    if (seen.has(name)) throw new GameSetupError(`Player name "${name}" is used twice.`);
    seen.add(name);
  });
}
