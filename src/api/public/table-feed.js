// The table feed on the scoreboard: the game's recent steps (the view's `feed`: a text key and its parameters each)
// in words of the page's language, newest last, and a mark on each bot seat's name.
import { h } from './dom.js';
import { t } from './i18n.js';

function section() {
  let el = document.getElementById('table-feed');
  if (el) return el;
  el = h('section', { id: 'table-feed', class: 'table-feed', 'data-testid': 'table-feed', 'aria-live': 'polite' });
  document.getElementById('turn')?.after(el);
  return el;
}

/** Draws the feed of the shown game and marks its bot seats (the board is drawn again on every change, so the marks are too). */
export function renderTableFeed(game) {
  const el = section();
  const feed = game.feed ?? [];
  el.hidden = feed.length === 0;
  const signature = `${game.id}:${game.version}`;
  if (el.dataset.signature !== signature) {
    el.dataset.signature = signature;
    el.replaceChildren(
      h('div', { class: 'eyebrow' }, t('feed.heading')),
      h(
        'ol',
        { class: 'feed-lines' },
        ...feed.map((e, i) =>
          h('li', { class: `feed-line${e.seat === null ? ' consequence' : ''}${i === feed.length - 1 ? ' newest' : ''}`, 'data-testid': `feed-${i}` }, e.bot ? h('span', { class: 'bot-mark', title: t('feed.botTitle') }, t('feed.bot')) : null, t(e.key, e.params)),
        ),
      ),
    );
  }
  for (const seat of game.bots ?? []) {
    const head = document.querySelector(`[data-testid="player-${seat}"]`);
    if (head && !head.querySelector('.bot-mark')) {
      const level = game.botLevels?.[seat] ?? 'simple';
      head.append(h('span', { class: 'bot-mark', 'data-testid': `bot-mark-${seat}`, title: t('feed.botSeat', { level: { key: `feed.botLevels.${level}` } }) }, level === 'strong' ? `${t('feed.bot')} ★` : t('feed.bot')));
    }
  }
}
