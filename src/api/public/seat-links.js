// Games with secret throws: a QR code per open seat, which opens that player's private page on their phone.
import { $, h } from './dom.js';
import { t } from './i18n.js';
import { isOver } from './game-view.js';

/** Drawn again only when the open seats change; `operator`: the operator's token ('' when none), which the codes carry. */
export function renderSeatLinks(game, operator) {
  const section = $('seat-links');
  const open = (game.seatsClaimed ?? []).map((claimed, seat) => (claimed ? -1 : seat)).filter((seat) => seat >= 0);
  section.hidden = !game.secretThrows || isOver(game) || open.length === 0;
  // Claim once: a seat's code comes down as soon as its page is opened, so nobody else can pick it up later.
  const signature = `${game.id}:${open.join(',')}`;
  if (section.hidden || section.dataset.signature === signature) return;
  section.dataset.signature = signature;
  $('seat-codes').replaceChildren(
    ...open.map((seat) =>
      h(
        'figure',
        { class: 'seat-code' },
        h('img', { src: `/api/games/${game.id}/seats/${seat}/qr.svg${operator ? `?operator=${encodeURIComponent(operator)}` : ''}`, alt: t('scoreboard.qrAlt', { name: game.players[seat] }), 'data-testid': `seat-qr-${seat}` }),
        h('figcaption', {}, game.players[seat]),
      ),
    ),
  );
}
