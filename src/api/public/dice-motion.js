// When the read dice of a roll "land" on the screen (issue #46): the views are
// redrawn from scratch on every update, so a roll is drawn landing only while it
// is new, and later redraws show it at rest. A redraw while it lands goes on
// where the motion was (a negative animation-delay), not from the top. The
// motion itself is CSS (atmosphere.css), which drops it under prefers-reduced-motion.

/** How long a new roll is drawn landing (the CSS animation's length). */
const LANDING_MS = 700;

/**
 * The game shown, as this page saw it: its roll when first shown (the table as
 * it was, not a roll falling; -1 none) and its newest roll with when it was
 * first seen. Only the shown game is kept: another game shown starts afresh.
 */
let shown = null;

/** Ms since the game's last roll was first seen here while it is new and landing; null when there is none. */
export function landingRoll(game, now = performance.now()) {
  const seq = game.lastRoll?.seq ?? -1;
  if (shown?.id !== game.id) shown = { id: game.id, firstSeq: seq, seq, at: now };
  if (seq === shown.firstSeq) return null;
  if (seq !== shown.seq) shown = { ...shown, seq, at: now };
  const since = now - shown.at;
  return since < LANDING_MS ? since : null;
}

/** Sets the landing dice in `el` where their motion is by now (atmosphere.css subtracts it from their delay). */
export function setLanding(el, since) {
  el.style.setProperty('--landing-since', `${Math.round(since ?? 0)}ms`);
  return el;
}
