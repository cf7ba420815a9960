// A player's phone in Bluff and Bluffi: their own dice only (stars as stars),
// the standing bid and the round's bids as a list, their moves on their turn,
// and everyone's cup as a count.
import { h } from './dom.js';
import { TEXT, bidBoard, bluffDie, cupOf, cupStrip, moveControls } from './bluff-ui.js';

/** The phone's page for `seat` in this view (the seat's own view of the game). */
export function bluffPhone(view, seat, send, redraw) {
  const own = cupOf(view, seat);
  const thrown = own.some((d) => d !== null);
  return [
    h(
      'section',
      { class: 'own-dice' },
      h('h2', {}, TEXT.yourDice),
      thrown
        ? h('div', { class: 'dice', 'data-testid': 'own-dice' }, own.map((d) => bluffDie(view, d)))
        : h('p', { class: 'hint', 'data-testid': 'own-dice-empty' }, TEXT.notThrown),
      h('p', { class: 'hint' }, TEXT.onlyYou),
    ),
    moveControls(view, seat, send, redraw) ?? (view.result ? null : h('p', { class: 'hint waiting', 'data-testid': 'waiting' }, TEXT.waiting(view.players[view.board.current] ?? ''))),
    bidBoard(view),
    cupStrip(view),
  ];
}
