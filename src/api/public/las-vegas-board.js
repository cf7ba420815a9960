// The Las Vegas board (issue #46): the casinos are the main view, each with its
// bills and the dice on it in their players' colours (big dice bigger, neutral
// white, chasers purple); the slot machine; each player's money and bills won.
// A casino is clicked to place the dice of its value there; a die on a casino is
// clicked to chase it away. Drawn from the game's public state and board only.
import { h } from './dom.js';
import { dieFace } from './die-faces.js';
import { lang, t } from './i18n.js';
import { itemLabel, itemValue } from './board-words.js';
import { landingRoll, setLanding } from './dice-motion.js';

/** Every text of the board, in one place: the words are in i18n/*.json under `lasVegas`. */
const TEXT = {
  casino: (number) => t('lasVegas.casino', { number }),
  slotMachine: t('lasVegas.slotMachine'),
  placeHere: (value, count) => t('lasVegas.placeHere', { value, count }),
  placeValue: (value) => t('lasVegas.placeValue', { value }),
  chase: (colour, value) => t('lasVegas.chase', { colour: { key: `common.diceLooks.${colour}` }, value }),
  noBills: t('lasVegas.noBills'),
  billsWon: t('lasVegas.billsWon'),
  diceLeft: (count) => t('lasVegas.diceLeft', { count }),
  secretColour: t('lasVegas.secretColour'),
  throwEmpty: t('lasVegas.throwEmpty'),
  throwTitle: (name) => t('lasVegas.throwTitle', { name }),
  rolling: t('common.towerRolling'),
  colour: (colour) => t('lasVegas.colour', { colour: { key: `common.diceLooks.${colour}` } }),
  lastScoring: t('lasVegas.lastScoring'),
  reminder: t('lasVegas.reminder'),
  // The public screen never shows a hand: only how many cards are held.
  cards: (count) => t('lasVegas.cardsHidden', { count }),
  bill: (thousands) => t('lasVegas.bill', { thousands }),
  colourful: t('lasVegas.colourful'),
  money: (n) => t('lasVegas.money', { amount: n.toLocaleString(lang === 'en' ? 'en-US' : lang) }),
  round: t('lasVegas.round'),
  earlyPayout: t('lasVegas.earlyPayout'),
  opponentColours: t('lasVegas.opponentColours'),
  billsByColour: t('lasVegas.billsByColour'),
};

const SLOT_MACHINE = 7;

/** One die in its colour; `big` draws it larger. */
function colouredDie(value, colour, { big = false, extra = '', attrs = {} } = {}) {
  return h(
    'span',
    { class: `lv-die colour-${colour || 'unknown'}${big ? ' big' : ''}${extra}`, 'data-colour': colour, 'data-big': big ? 'true' : 'false', 'data-value': value ?? '', ...attrs },
    dieFace(value, 'lv-die-face'),
  );
}

/** A bill ({ value, colourful }, the board's data) as a chip: "$60k". */
const billChip = (bill) =>
  h('span', { class: `lv-bill${bill.colourful ? ' colourful' : ''}`, 'data-testid': 'lv-bill', 'data-value': bill.value }, bill.colourful ? TEXT.colourful : TEXT.bill(bill.value / 1000));

/** The players: swatch, name, money, bills won, dice left; the one to act marked. */
function players(game) {
  const { board, state } = game;
  return h(
    'ol',
    { class: 'lv-players', 'data-testid': 'lv-players' },
    state.players.map((p, i) => {
      const colours = p.colour ? [p.colour] : p.secretColours.filter((c) => c !== null);
      const mine = board.lasVegas.players[i];
      return h(
        'li',
        { class: `lv-player${board.current === i && !game.result ? ' current' : ''}`, 'data-testid': `lv-player-${i}`, 'data-colour': p.colour },
        h(
          'span',
          { class: 'lv-swatches' },
          colours.length > 0
            ? colours.map((c) => h('span', { class: `lv-swatch colour-${c}`, 'data-testid': `lv-swatch-${i}`, 'data-colour': c, title: TEXT.colour(c), 'aria-label': TEXT.colour(c) }))
            : h('span', { class: 'lv-swatch secret', 'data-testid': `lv-swatch-${i}`, title: TEXT.secretColour, 'aria-label': TEXT.secretColour }, '?'),
        ),
        h('span', { class: 'lv-name' }, p.name),
        h('span', { class: 'lv-money', 'data-testid': `lv-money-${i}`, 'data-money': mine.money }, TEXT.money(mine.money)),
        h('span', { class: 'lv-won', title: TEXT.billsWon, 'data-testid': `lv-won-${i}` }, mine.bills.map(billChip)),
        state.mode === 'standard' && !game.result ? h('span', { class: 'lv-left' }, TEXT.diceLeft(p.hand.length)) : null,
        state.options.bonusCards ? h('span', { class: 'lv-reminder', title: TEXT.reminder, 'data-testid': `lv-reminder-${i}` }, dieFace(p.reminder, 'lv-reminder-face')) : null,
        state.options.actionCards && p.cards.length > 0 ? h('span', { class: 'lv-cards', 'data-testid': `lv-cards-${i}` }, TEXT.cards(p.cards.length)) : null,
      );
    }),
  );
}

/** The throw: dice tumbling while the tower rolls, then the read dice, grouped by value, landing. */
function throwRow(game, busy) {
  const { board, state } = game;
  const name = state.players[state.current]?.name ?? '';
  const look = board.diceLook ?? [];
  if (busy && game.request?.dice) {
    return h(
      'div',
      { class: 'lv-throw', 'data-testid': 'lv-throw', 'data-state': 'rolling', 'aria-label': TEXT.rolling },
      game.request.dice.map((d) => colouredDie(null, d.colour, { big: d.size === 'big', extra: ' tumbling' })),
    );
  }
  const thrown = (board.dice ?? []).flatMap((value, slot) => (value === null ? [] : [{ value, slot, look: look[slot] }])).sort((a, b) => a.value - b.value);
  const landing = landingRoll(game);
  const row = h(
    'div',
    { class: 'lv-throw', 'data-testid': 'lv-throw', 'data-state': thrown.length ? 'thrown' : 'empty', 'aria-label': thrown.length ? TEXT.throwTitle(name) : TEXT.throwEmpty },
    thrown.map((d, k) =>
      colouredDie(d.value, d.look?.colour ?? '', {
        big: d.look?.size === 'big',
        // A gap before each new value: the groups a player chooses from.
        extra: `${landing !== null ? ' landed' : ''}${k > 0 && thrown[k - 1].value !== d.value ? ' next-value' : ''}`,
        attrs: { style: `--k:${k}`, 'data-testid': `lv-thrown-${d.slot}` },
      }),
    ),
  );
  return setLanding(row, landing);
}

/** The place actions by casino: casino n → its plain place action; the slot machine → one per value. */
function placeActions(game) {
  const byCasino = new Map();
  for (const a of game.actions ?? []) {
    if (a.type !== 'place' || a.earlyPayout) continue;
    const n = a.slotMachine ? SLOT_MACHINE : a.value;
    if (!byCasino.has(n)) byCasino.set(n, []);
    byCasino.get(n).push(a);
  }
  return byCasino;
}

/** The dice on a casino, grouped by owner so each player's pile reads at a glance. */
function casinoDice(game, casino, n, chases, ctx) {
  const order = (d) => (d.seat === null ? 99 : d.seat);
  const dice = [...casino.dice].sort((a, b) => order(a) - order(b) || (b.big ? 1 : 0) - (a.big ? 1 : 0) || (a.value ?? n) - (b.value ?? n));
  return dice.map((d) => {
    const value = n === SLOT_MACHINE ? (d.value ?? null) : n;
    const chase = chases.find((c) => c.seat === d.seat && c.slot === d.slot);
    if (!chase) return colouredDie(value, d.colour, { big: Boolean(d.big), attrs: { 'data-seat': d.seat ?? '' } });
    return h(
      'button',
      { type: 'button', class: 'lv-chase', 'data-testid': `lv-chase-${d.seat ?? 'x'}-${d.slot}`, title: TEXT.chase(d.colour, value), disabled: ctx.busy, onclick: () => ctx.act(chase) },
      colouredDie(value, d.colour, { big: Boolean(d.big), attrs: { 'data-seat': d.seat ?? '' } }),
    );
  });
}

/** A casino card: its number as a die, its bills, its dice; clickable when the dice of its value can go there. */
function casinoCard(game, n, places, ctx) {
  const { state, board } = game;
  const casino = state.casinos[n - 1];
  const slot = n === SLOT_MACHINE;
  const actions = places.get(n) ?? [];
  const chases = (game.actions ?? []).filter((a) => a.type === 'chase' && state.chase?.casino === n);
  const thrownHere = (board.dice ?? []).filter((v) => v === n).length;
  // One action: the whole card places; the slot machine with several values offers one button each.
  const single = actions.length === 1 && !ctx.busy ? actions[0] : null;
  const place = single ? () => ctx.act(single) : null;
  const { bills, earlyPayout } = board.lasVegas.casinos[n - 1];
  return h(
    'article',
    {
      class: `lv-casino${slot ? ' slot-machine' : ''}${actions.length ? ' placeable' : ''}${chases.length ? ' chasing' : ''}`,
      'data-testid': `lv-casino-${n}`,
      'data-placeable': actions.length ? 'true' : 'false',
      role: place ? 'button' : null,
      tabindex: place ? '0' : null,
      title: place ? (slot ? TEXT.placeValue(single.value) : TEXT.placeHere(n, thrownHere)) : null,
      onclick: place,
      onkeydown: place ? (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), place()) : null,
    },
    h(
      'header',
      { class: 'lv-casino-head' },
      slot ? h('span', { class: 'lv-slot-icon', 'aria-hidden': 'true' }, '7 7 7') : dieFace(n, 'lv-casino-number'),
      h('span', { class: 'lv-casino-name' }, slot ? TEXT.slotMachine : TEXT.casino(n)),
    ),
    h('div', { class: 'lv-bills', 'data-testid': `lv-bills-${n}` }, bills.length ? bills.map(billChip) : h('span', { class: 'lv-none' }, TEXT.noBills)),
    earlyPayout ? h('div', { class: 'lv-early', 'data-testid': `lv-early-${n}` }, TEXT.earlyPayout) : null,
    h('div', { class: 'lv-pile', 'data-testid': `lv-pile-${n}` }, casinoDice(game, casino, n, chases, ctx)),
    slot && actions.length > 1
      ? h(
          'div',
          { class: 'lv-slot-values' },
          actions.map((a) => h('button', { type: 'button', class: 'lv-slot-value', 'data-testid': `lv-slot-place-${a.value}`, title: TEXT.placeValue(a.value), disabled: ctx.busy, onclick: () => ctx.act(a) }, dieFace(a.value, 'lv-die-face'))),
        )
      : null,
  );
}

const placeName = (casino) => (casino === 0 ? TEXT.round : casino === SLOT_MACHINE ? TEXT.slotMachine : TEXT.casino(casino));

/** The last scoring in one line per place (in the order paid): [[casino, payouts]]. */
function byPlace(payouts) {
  const rows = new Map();
  for (const p of payouts) rows.set(p.casino, [...(rows.get(p.casino) ?? []), p]);
  return [...rows];
}

/** Who a payout went to: the player's name, or a colour nobody plays as its swatch. */
const payee = (game, p) => (p.seat === null ? h('span', { class: `lv-swatch colour-${p.colour}`, 'data-colour': p.colour, title: TEXT.colour(p.colour), 'aria-label': TEXT.colour(p.colour) }) : (game.state.players[p.seat]?.name ?? ''));

/** Solo and secret colours: the money each colour has won (solo is played against it). */
function colourMoney(rows, solo) {
  return [
    h('div', { class: 'lv-info-title' }, solo ? TEXT.opponentColours : TEXT.billsByColour),
    h(
      'ul',
      { class: 'lv-colour-money', 'data-testid': 'lv-colour-money' },
      rows.map((r) => h('li', { 'data-colour': r.colour }, h('span', { class: `lv-swatch colour-${r.colour}`, title: TEXT.colour(r.colour), 'aria-label': TEXT.colour(r.colour) }), ' ', h('span', { 'data-money': r.money }, TEXT.money(r.money)))),
    ),
  ];
}

/** The rest of the game's own panels in one card beside the casinos: start player, deck, chasers spent, colours' money, the last scoring. */
function infoCard(game) {
  const { board } = game;
  // The round panel's first two items (round and turn) are on the status line already.
  const facts = ((board.panels ?? []).find((p) => p.id === 'round')?.items ?? []).slice(2);
  const { payouts, colourMoney: colours } = board.lasVegas;
  return h(
    'aside',
    { class: 'lv-info', 'data-testid': 'lv-info' },
    h('dl', { class: 'lv-facts' }, facts.flatMap((i) => [h('dt', {}, itemLabel(game, i)), h('dd', {}, String(itemValue(game, i) ?? ''))])),
    colours ? colourMoney(colours, game.state.mode === 'solo') : null,
    payouts.length
      ? [
          h('div', { class: 'lv-info-title' }, TEXT.lastScoring),
          h(
            'ul',
            { class: 'lv-payouts', 'data-testid': 'lv-payouts' },
            byPlace(payouts).map(([casino, paid]) => h('li', {}, h('span', { class: 'lv-payout-place' }, placeName(casino)), paid.map((p) => h('span', { class: 'lv-payout' }, payee(game, p), ' ', billChip(p.bill))))),
          ),
        ]
      : null,
  );
}

/**
 * Draws the board of a Las Vegas `game` into `el`. `ctx`: `act(action)` sends a
 * decision, `busy` is true while the tower rolls.
 */
export function renderLasVegasBoard(el, game, ctx) {
  const places = placeActions(game);
  const count = game.state.casinos.length;
  el.replaceChildren(
    players(game),
    throwRow(game, ctx.busy),
    h(
      'div',
      { class: 'lv-casinos' },
      Array.from({ length: count }, (_, i) => casinoCard(game, i + 1, places, ctx)),
      infoCard(game),
    ),
  );
}

/** The decisions the board itself offers (placing by casino, chasing by die): left out of the button row. */
export const boardDecision = (action) => (action.type === 'place' && !action.earlyPayout) || action.type === 'chase';
