// When the read dice of a roll "land" on the screen (issue #46): the views are
// redrawn from scratch on every update, so a roll is drawn landing only while it
// is new, and later redraws show it at rest. The motion itself is CSS
// (atmosphere.css), which drops it under prefers-reduced-motion.

/** How long a new roll is drawn landing (the CSS animation's length). */
const LANDING_MS = 700;

/** The roll each game showed when this page first saw it (-1: none): the table as it was, not a roll falling. */
const firstLook = new Map();
/** When each new roll was first seen here: "game:seq" → ms. */
const seen = new Map();

/** True while the game's last roll is new on this page. */
export function landingRoll(game, now = performance.now()) {
  if (!firstLook.has(game.id)) firstLook.set(game.id, game.lastRoll?.seq ?? -1);
  const seq = game.lastRoll?.seq;
  if (seq === undefined || seq === firstLook.get(game.id)) return false;
  const key = `${game.id}:${seq}`;
  if (!seen.has(key)) seen.set(key, now);
  return now - seen.get(key) < LANDING_MS;
}
