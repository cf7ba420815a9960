// Bluff and Bluffi on the big screen: each player's cup as a count instead of
// a row of blank dice, and the operator's moves as steppers and plain buttons
// instead of the generic list of every possible bid.
import { h } from './dom.js';
import { cupStrip, isBluffing, moveControls } from './bluff-ui.js';

/** The section, made once beside the dice (the page's HTML is shared with the other games). */
function section() {
  let el = document.getElementById('bluff-table');
  if (el) return el;
  el = h('section', { id: 'bluff-table', class: 'bluff-table', 'data-testid': 'bluff-table' });
  document.getElementById('dice')?.after(el);
  return el;
}

/**
 * Draws the cups and the moves for a bluffing game (the scoreboard leaves out
 * its own dice and decisions then); for any other game it hides itself.
 * `busy`: the tower is rolling. `send(action)` makes a move as the operator;
 * `redraw()` draws the page again.
 */
export function renderBluffTable(game, busy, send, redraw) {
  const el = section();
  el.hidden = !isBluffing(game) || Boolean(game.result);
  if (el.hidden) return;
  el.replaceChildren(cupStrip(game), moveControls(game, null, send, redraw) ?? '');
  // While the tower rolls the moves wait, as the other games' buttons do.
  for (const button of el.querySelectorAll('button')) button.disabled ||= busy;
}
