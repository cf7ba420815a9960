// What a game view offers the scoreboard, read from the shape every game sends: whether it is over, whether it is
// drawn on the Las Vegas board, the dice it lets the operator hold, and the decisions left for buttons.
import { isBluffing } from './bluff-ui.js';
import { boardDecision } from './las-vegas-board.js';

export const isOver = (game) => Boolean(game.result);

/** Las Vegas is drawn on its own board (las-vegas-board.js), not the generic table. */
export const isLasVegas = (game) => game.game === 'las-vegas' && Boolean(game.state?.casinos);

export const holdActions = (game) => (game.actions ?? []).filter((a) => a.type === 'hold' || a.type === 'release');

/** The die in this slot can be held or released now. */
export const canToggle = (game, slot) => holdActions(game).some((a) => Array.isArray(a.dice) && a.dice.includes(slot));

/** The actions drawn as buttons: everything the dice, the scorecard and the Las Vegas board do not already offer (bluffing games: bluff-table.js). */
export function decisionActions(game) {
  const b = game.board;
  if (isBluffing(game)) return [];
  return (game.actions ?? []).filter((a) => {
    if (a.type === 'hold' || a.type === 'release') return false;
    if (a.type === 'score' && b.kind === 'scorecard') return false;
    if (isLasVegas(game) && boardDecision(a)) return false;
    return true;
  });
}
