// Games and their actions in the page's language: a game's name, an action's button words and its arguments
// as a person reads them ("bid 3 × 5", "shut 4+5", "⚀ ⚄"), and a code name made readable ("twoPairs" → "Two pairs").
import { tOr } from './i18n.js';

/** "maxThrows" → "Max throws", "twoPairs" → "Two pairs". */
export function humanize(name) {
  const words = String(name)
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A game's name in the page's language (the server's own name for a game the texts do not know). */
export const gameName = (game) => tOr(`games.${game.game}.name`, game.name);

/** An action type in plain words ("keep hidden"), for its buttons. */
export const actionName = (type) => tOr(`actions.${type}`, humanize(type).toLowerCase());

/** Unicode die faces ⚀..⚅ for values 1..6. */
const DIE_GLYPHS = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

function argText(key, value, dice) {
  // `dice` arguments are slot indices (as in hold/release): show the faces they point at.
  if (key === 'dice' && Array.isArray(value) && value.every((v) => Number.isInteger(v))) {
    return value.map((i) => (typeof dice?.[i] === 'number' ? (DIE_GLYPHS[dice[i]] ?? String(dice[i])) : `#${i + 1}`)).join(' ');
  }
  if (Array.isArray(value)) return value.map((v) => argText(key, v, dice)).join('+');
  if (typeof value === 'boolean') return value ? humanize(key).toLowerCase() : `no ${humanize(key).toLowerCase()}`;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The arguments of an action as a person reads them: "3 × 5", "4+5", "⚀ ⚄". */
export function argsLabel(action, dice) {
  const args = Object.entries(action).filter(([k, v]) => k !== 'type' && v !== undefined);
  const numbers = args.every(([, v]) => typeof v === 'number');
  const parts = args.map(([k, v]) => argText(k, v, dice));
  return numbers && parts.length === 2 ? parts.join(' × ') : parts.join(' ');
}

/**
 * A person's label for an action: its type plus its arguments, e.g.
 * {type:'stop'} → "stop", {type:'bid', count:3, face:5} → "bid 3 × 5",
 * {type:'shut', boxes:[4,5]} → "shut 4+5".
 */
export function actionLabel(action, dice) {
  const name = actionName(action.type);
  const args = argsLabel(action, dice);
  return args ? `${name} ${args}` : name;
}
