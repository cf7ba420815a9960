// Bluff and Bluffi drawn for people, shared by the big screen (bluff-table.js)
// and the phones (bluff-phone.js): dice with the star drawn as a star, each cup
// as a count, the round's bids as a list, and the moves: the bid chosen with two
// steppers (count, face) and buttons in plain words.
import { PIPS, h, s } from './dom.js';
import { t } from './i18n.js';
import { itemLabel, itemValue, panelLabel } from './board-words.js';

/** Every text of these screens, in one place: the words are in i18n/*.json under `bluff`. */
export const TEXT = {
  yourDice: t('bluff.yourDice'),
  notThrown: t('bluff.notThrown'),
  onlyYou: t('bluff.onlyYou'),
  cups: t('bluff.cups'),
  dice: (count) => t('bluff.dice', { count }),
  counters: (count) => t('bluff.counters', { count }),
  out: t('bluff.out'),
  holdsCup: t('bluff.holdsCup'),
  bidNow: t('bluff.bidNow'),
  bidBy: (bid, name) => t('bluff.bidBy', { bid, name }),
  noBid: t('bluff.noBid'),
  bidsThisRound: t('bluff.bidsThisRound'),
  claimNow: t('bluff.claimNow'),
  noClaim: t('bluff.noClaim'),
  claimsThisRound: t('bluff.claimsThisRound'),
  count: t('bluff.count'),
  face: t('bluff.face'),
  total: t('bluff.total'),
  fewer: t('bluff.fewer'),
  more: t('bluff.more'),
  previous: t('bluff.previous'),
  next: t('bluff.next'),
  bid: (bid) => t('bluff.bid', { bid }),
  bidOf: (count, face, star) => (star ? t('bluff.bidStars', { count }) : t('bluff.bidFaces', { count, face })),
  challenge: t('bluff.challenge'),
  challengeFor: (name) => t('bluff.challengeFor', { name }),
  stackedFor: (name) => t('bluff.stackedFor', { name }),
  show: (face) => t('bluff.show', { face }),
  showDie: (number) => t('bluff.showDie', { number }),
  keepHidden: t('bluff.keepHidden'),
  keepHiddenFor: (name) => t('bluff.keepHiddenFor', { name }),
  announce: (total) => t('bluff.announce', { total }),
  accept: t('bluff.accept'),
  acceptFor: (name) => t('bluff.acceptFor', { name }),
  callBluffi: t('bluff.callBluffi'),
  callBluffiFor: (name) => t('bluff.callBluffiFor', { name }),
  waiting: (name) => t('bluff.waiting', { name }),
  hiddenDie: t('bluff.hiddenDie'),
  star: t('bluff.star'),
};

export const isBluffing = (game) => game?.game === 'bluff' || game?.game === 'bluffi';

/** True for a die showing Bluff's star: its dice have a star in place of the 6 (the face of the server's star bids). */
const isStar = (game, value) => game.game === 'bluff' && value === 6;
const faceWord = (game, value) => (isStar(game, value) ? '★' : String(value));

/** A die showing `value`; in Bluff a 6 is the star. */
export function bluffDie(game, value, className = 'bluff-die') {
  const star = isStar(game, value);
  return s(
    'svg',
    { viewBox: '0 0 100 100', class: `${className}${star ? ' star' : ''}`, 'data-value': value ?? '', role: 'img', 'aria-label': value === null ? TEXT.hiddenDie : star ? TEXT.star : String(value) },
    s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16 }),
    star ? s('polygon', { points: starPoints(50, 52, 36, 15), class: 'star-mark' }) : (PIPS[value] ?? []).map(([cx, cy]) => s('circle', { cx, cy, r: 9.5 })),
  );
}

/** A five-pointed star's outline around (cx, cy). */
function starPoints(cx, cy, outer, inner) {
  return Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

/** The dice `seat` holds in the view it was given (null: not thrown or not visible to this view). */
export function cupOf(game, seat) {
  const st = game.state;
  if (game.game === 'bluffi') return st.dice.some((d) => d !== null) ? [...st.dice] : [];
  const n = st.players[seat]?.dice ?? 0;
  return Array.from({ length: n }, (_, i) => st.dice[seat * st.cupSize + i] ?? null);
}

/** Each player with their cup as a count (Bluff) or their counters and who holds the cup (Bluffi); dice shown face up are drawn. */
export function cupStrip(game) {
  const st = game.state;
  const current = game.result ? null : game.board.current;
  return h(
    'ul',
    { class: 'bluff-cups', 'data-testid': 'bluff-cups', 'aria-label': TEXT.cups },
    st.players.map((p, seat) => {
      const count = game.game === 'bluff' ? p.dice : p.counters;
      const shown = game.game === 'bluff' ? cupOf(game, seat).filter((d, i) => d !== null && st.shown[seat * st.cupSize + i]) : [];
      const out = game.game === 'bluff' && p.dice === 0;
      return h(
        'li',
        { class: `bluff-cup${seat === current ? ' current' : ''}${out ? ' out' : ''}`, 'data-testid': `cup-${seat}`, 'data-count': count },
        h('span', { class: 'cup-name' }, p.name),
        h('span', { class: 'cup-count', 'data-testid': `cup-count-${seat}` }, out ? TEXT.out : game.game === 'bluff' ? TEXT.dice(count) : TEXT.counters(count)),
        game.game === 'bluffi' && seat === current ? h('span', { class: 'cup-note' }, TEXT.holdsCup) : null,
        shown.length ? h('span', { class: 'cup-shown' }, shown.map((d) => bluffDie(game, d, 'bluff-die small'))) : null,
      );
    }),
  );
}

const panelOf = (game, id) => (game.board.panels ?? []).find((p) => p.id === id);

/** The standing bid and the round's bids as a readable list, then the last challenge. */
export function bidBoard(game) {
  const bluff = game.game === 'bluff';
  const history = panelOf(game, bluff ? 'bids' : 'claims')?.items ?? [];
  const standing = history[history.length - 1];
  const challenge = panelOf(game, 'challenge');
  return h(
    'section',
    { class: 'bluff-bids', 'data-testid': 'bluff-bids' },
    h('h2', {}, bluff ? TEXT.bidNow : TEXT.claimNow),
    h('p', { class: 'bid-now', 'data-testid': 'bid-now' }, standing ? TEXT.bidBy(itemValue(game, standing), standing.label) : bluff ? TEXT.noBid : TEXT.noClaim),
    history.length
      ? [
          h('h2', {}, bluff ? TEXT.bidsThisRound : TEXT.claimsThisRound),
          h('ol', { class: 'bid-list', 'data-testid': 'bid-list' }, history.map((item) => h('li', {}, h('span', { class: 'bidder' }, item.label), ' ', h('span', { class: 'bid' }, String(itemValue(game, item)))))),
        ]
      : null,
    challenge
      ? h(
          'details',
          { class: 'last-challenge', 'data-testid': 'last-challenge' },
          h('summary', {}, panelLabel(game, challenge)),
          h('dl', {}, challenge.items.flatMap((item) => [h('dt', {}, itemLabel(game, item)), h('dd', {}, String(itemValue(game, item) ?? '—'))])),
        )
      : null,
  );
}

/** The steppers' choices, kept per game across updates (the feed redraws often). */
const picks = new Map();

function stepper(label, value, onStep, testid, words = [TEXT.fewer, TEXT.more]) {
  return h(
    'div',
    { class: 'stepper', 'data-testid': testid },
    h('span', { class: 'stepper-label' }, label),
    h('button', { type: 'button', class: 'step', 'aria-label': `${label}: ${words[0]}`, 'data-testid': `${testid}-down`, onclick: () => onStep(-1) }, '−'),
    h('output', { class: 'stepper-value', 'data-testid': `${testid}-value` }, value),
    h('button', { type: 'button', class: 'step', 'aria-label': `${label}: ${words[1]}`, 'data-testid': `${testid}-up`, onclick: () => onStep(1) }, '+'),
  );
}

/**
 * Steppers over the open moves only: each choice is `{action, values, shown}`, one value (and its text) per
 * stepper, and stepper i steps among the values open with those chosen before it, so every pick is a move that
 * exists. The pick is kept until the round's list of bids (`made`) changes.
 */
function picker(game, made, choices, steppers, button, send, redraw) {
  const key = `${game.id}:${game.state.round}:${made}`;
  const before = picks.get(game.id);
  const kept = before?.key === key ? choices.find((c) => c.values.every((v, i) => v === before.choice.values[i])) : undefined;
  const pick = { key, choice: kept ?? choices[0] };
  picks.set(game.id, pick);
  const same = (c, from, to) => c.values.slice(from, to).every((v, j) => v === pick.choice.values[from + j]);
  const step = (i, d) => {
    const open = choices.filter((c) => same(c, 0, i));
    const list = [...new Set(open.map((c) => c.values[i]))].sort((a, b) => a - b);
    const value = list[Math.min(list.length - 1, Math.max(0, list.indexOf(pick.choice.values[i]) + d))];
    const next = open.filter((c) => c.values[i] === value);
    // Later steppers keep their value when it is still open with this one.
    pick.choice = next.find((c) => same(c, i + 1)) ?? next[0];
    redraw();
  };
  const chosen = pick.choice;
  return h(
    'div',
    { class: 'bid-picker', 'data-testid': 'bid-picker' },
    steppers.map(([label, testid, words], i) => stepper(label, chosen.shown[i], (d) => step(i, d), testid, words)),
    h('button', { type: 'button', class: 'button primary move', 'data-testid': button.testid, onclick: () => send(chosen.action) }, button.label(chosen)),
  );
}

/** Bluff's open bids by (count, face), as the server describes each (its field's quantity, a star bid or not). */
function bidPicker(game, bids, send, redraw) {
  const choices = bids.map((a) => ({ action: a, values: [a.quantity, a.face], shown: [a.quantity, a.star ? '★' : String(a.face)] }));
  const steppers = [[TEXT.count, 'bid-count'], [TEXT.face, 'bid-face', [TEXT.previous, TEXT.next]]];
  const label = (c) => TEXT.bid(TEXT.bidOf(c.action.quantity, c.action.face, c.action.star));
  return picker(game, game.state.bids.length, choices, steppers, { testid: 'bid-button', label }, send, redraw);
}

function announcePicker(game, totals, send, redraw) {
  const choices = totals.map((a) => ({ action: a, values: [a.total], shown: [a.total] }));
  return picker(game, game.state.claims.length, choices, [[TEXT.total, 'claim-total']], { testid: 'announce-button', label: (c) => TEXT.announce(c.action.total) }, send, redraw);
}

/**
 * The moves open to `seat` (null: the operator, who may make them all) as
 * steppers and plain buttons; null when there are none. `send(action)` makes
 * a move, `redraw()` draws again after a stepper moved.
 */
export function moveControls(game, seat, send, redraw) {
  if (game.result || game.ended) return null;
  const mine = (game.actions ?? []).filter((_, i) => seat === null || game.actors?.[i] === seat);
  if (mine.length === 0) return null;
  const name = (s) => game.players[s] ?? '';
  const button = (action, label, testid, kind = 'move') => h('button', { type: 'button', class: `button ${kind}`, 'data-testid': testid, onclick: () => send(action) }, label);
  const parts = [];
  if (game.game === 'bluff') {
    const bids = mine.filter((a) => a.type === 'bid');
    if (bids.length) parts.push(bidPicker(game, bids, send, redraw));
    for (const a of mine) {
      if (a.type === 'challenge') parts.push(button(a, seat === null ? TEXT.challengeFor(name(game.board.current)) : TEXT.challenge, 'challenge-button', 'danger move'));
      // A stacked throw is the operator's alone (GameDef.operatorActions): never on a phone.
      if (a.type === 'rethrow') parts.push(button(a, TEXT.stackedFor(name(game.state.lastThrow?.seat)), 'rethrow-button'));
      if (a.type === 'keepHidden') parts.push(button(a, seat === null ? TEXT.keepHiddenFor(name(game.board.current)) : TEXT.keepHidden, 'keep-hidden-button'));
      if (a.type === 'show') {
        const value = game.state.dice[a.dice[0]];
        const n = a.dice[0] - game.board.current * game.state.cupSize + 1;
        parts.push(button(a, value === null || value === undefined ? TEXT.showDie(n) : TEXT.show(faceWord(game, value)), `show-button-${a.dice[0]}`));
      }
    }
  } else {
    const totals = mine.filter((a) => a.type === 'announce');
    if (totals.length) parts.push(announcePicker(game, totals, send, redraw));
    for (const a of mine) {
      if (a.type === 'accept') parts.push(button(a, seat === null ? TEXT.acceptFor(name(game.board.current)) : TEXT.accept, 'accept-button'));
      if (a.type === 'challenge') {
        const own = seat !== null || a.by === game.board.current;
        parts.push(button(a, own ? TEXT.callBluffi : TEXT.callBluffiFor(name(a.by)), `challenge-button${own ? '' : `-${a.by}`}`, 'danger move'));
      }
    }
  }
  return h('div', { class: 'bluff-moves', 'data-testid': 'bluff-moves' }, parts);
}
