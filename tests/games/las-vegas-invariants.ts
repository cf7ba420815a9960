/**
 * Las Vegas invariants checked at every step of bot and random games (spec 8):
 * bills and dice conserved, chasers never left on a casino, one bill per
 * colour per casino, placements where the rules put them.
 */
import {
  ALL_COLOURS,
  OWN_DICE,
  bankMoney,
  billMoney,
  billsOfGame,
  casinoCounts,
  chasersPerPlayer,
  isChaserSlot,
  moneyOf,
  SLOT_MACHINE,
  type LasVegasState,
} from '../../src/games/las-vegas.js';

/** Plain checks, not vitest assertions: they run at every step of thousands of games. */
function check(ok: boolean, what: string, s: LasVegasState): void {
  if (!ok) throw new Error(`Las Vegas invariant broken: ${what} (round ${s.round}, phase ${s.phase}, seat ${s.current})`);
}
const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export function checkInvariants(raw: unknown, rawPrevious: unknown | null): void {
  const s = raw as LasVegasState;
  const p = rawPrevious as LasVegasState | null;
  // Every bill of the game is in exactly one place, and the money adds up.
  const all = billsOfGame(s.options);
  const bills = [
    ...(s.deck as number[]),
    ...s.discard,
    ...s.casinos.flatMap((c) => c.bills),
    ...s.players.flatMap((pl) => pl.bills),
    ...Object.values(s.colourBills).flat(),
  ];
  const seen = new Uint8Array(all.length + 16);
  for (const b of bills) seen[b] = (seen[b] ?? 0) + 1;
  check(bills.length === all.length && all.every((b) => seen[b] === 1), 'every bill is in exactly one place', s);
  check(bankMoney(s) + billMoney(s).reduce((a, b) => a + b, 0) === moneyOf(all), 'money is conserved', s);
  // A bill once claimed stays with its player («Swap Bill» aside, which trades one).
  if (p && !s.options.actionCards) s.players.forEach((pl, i) => check(same(pl.bills.slice(0, p.players[i]!.bills.length), p.players[i]!.bills), 'won bills stay won', s));
  if (s.options.bonusCards) for (const pl of s.players) check(pl.reminder >= 1 && pl.reminder <= 6, 'reminder die shows 1-6', s);
  if (s.mode === 'standard') standardDice(s, p);
  else colourDice(s);
  // No colour wins two bills from one casino in one scoring (secret colours pays colours over the round).
  if (s.mode !== 'secretColours') {
    const keys = s.lastPayouts.filter((x) => x.colour !== null).map((x) => `${x.round}:${x.casino}:${x.colour}`);
    check(new Set(keys).size === keys.length, 'no colour wins two bills from one casino', s);
  }
}

function standardDice(s: LasVegasState, p: LasVegasState | null): void {
  const chasers = chasersPerPlayer(s.options, s.players.length);
  s.players.forEach((pl, seat) => {
    // Every die is in its owner's hand, on exactly one casino, or (a spent chaser) on the Summary card.
    const onCasinos = s.casinos.flatMap((c) => c.dice.filter((d) => d.seat === seat).map((d) => d.slot));
    const spent = s.setAside.filter((d) => d.seat === seat).map((d) => d.slot);
    const dice = [...pl.hand, ...onCasinos, ...spent].sort((a, b) => a - b);
    check(same(dice, Array.from({ length: OWN_DICE + s.whitePerPlayer }, (_, i) => i)), `seat ${seat}'s dice are each in one place`, s);
    for (const c of s.casinos) for (const d of c.dice) if (d.seat === seat) check(d.colour === (d.slot >= 8 ? 'white' : pl.colour), 'placed dice keep their colour', s);
    for (const slot of spent) check(isChaserSlot(s, slot), 'only chasers are spent', s);
    // Scoring weight of a seat's own colour: its normal dice, plus one for the big die counting twice.
    const own = (slot: number): boolean => slot < 8 && !isChaserSlot(s, slot);
    const inHand = pl.hand.filter(own).length + (s.options.bigDice && pl.hand.includes(0) ? 1 : 0);
    const placed = s.casinos.reduce((a, c) => a + (casinoCounts(c, s.options.bigDice)[pl.colour] ?? 0), 0);
    check(inHand + placed === 8 - chasers + (s.options.bigDice ? 1 : 0), 'own dice weigh 8, the big die two', s);
  });
  // Chasers never remain on a casino or the slot machine (spec 8).
  for (const c of s.casinos) for (const d of c.dice) check(!(d.seat !== null && isChaserSlot(s, d.slot)), 'no chaser stays on a casino', s);
  // Dice on the slot machine keep their face (its tie-break adds them up).
  for (const d of s.casinos[SLOT_MACHINE - 1]?.dice ?? []) check(d.value !== undefined && d.value >= 1 && d.value <= 6, 'slot machine dice keep a face', s);
  const spare = [...s.casinos.flatMap((c) => c.dice), ...s.setAside].filter((d) => d.seat === null).map((d) => d.slot).sort((a, b) => a - b);
  const inPlay = s.phase !== 'over' && s.phase !== 'spareThrow';
  check(same(spare, inPlay ? Array.from({ length: s.spareWhite }, (_, i) => 8 + i) : []), 'spare white dice are on the casinos or set aside', s);
  // A chase moves exactly one die off the chaser's casino, back to its owner's hand.
  if (p && p.phase === 'chase' && p.chase && s.round === p.round && s.phase !== 'over') {
    const casino = p.chase.casino - 1;
    check(s.casinos[casino]!.dice.length === p.casinos[casino]!.dice.length - 1, 'a chase removes one die', s);
  }
  // Without action cards, a placement moves the thrown dice of one value onto that value's casino or the slot machine.
  if (p && p.phase === 'place' && s.round === p.round && s.phase !== 'over' && !s.options.actionCards) {
    const moved = s.casinos.flatMap((c, i) => c.dice.slice(p.casinos[i]!.dice.length).map((d) => ({ d, casino: i + 1 })));
    if (!s.options.chaserDice) check(moved.length > 0, 'a placement places dice', s);
    for (const { d, casino } of moved) {
      check(d.seat === p.current, 'the thrower places', s);
      check(p.thrown[d.slot] === (casino === SLOT_MACHINE ? d.value : casino), 'dice go to the casino of their face or the slot machine', s);
    }
    check(new Set(moved.map((m) => m.casino)).size === (moved.length > 0 ? 1 : 0), 'one casino per placement', s);
  }
  // Thrown dice are dice in hand.
  if (s.phase === 'place') s.thrown.forEach((v, slot) => v !== null && check(s.players[s.current]!.hand.includes(slot), 'thrown dice are in hand', s));
}

/** Solo and secret colours: pool, later groups, casinos and dice set aside on won bills hold every die. */
function colourDice(s: LasVegasState): void {
  const total = s.mode === 'solo' ? 7 * OWN_DICE + s.options.soloOwnDice : ALL_COLOURS.length * OWN_DICE;
  const left = s.pool.reduce((a, b) => a + b, 0) + s.groups.reduce((a, g) => a + g.reduce((x, y) => x + y, 0), 0);
  const placed = s.casinos.reduce((a, c) => a + c.dice.length, 0) + s.setAside.length;
  if (s.phase === 'over') return;
  const preThrow = s.phase === 'spareThrow' ? (s.mode === 'solo' ? s.options.soloPreplacedColours * OWN_DICE : 16) : 0;
  check(left + placed + preThrow === total, 'every die of the colours is in the pool, a later group, on a casino or on a won bill', s);
  for (const n of s.pool) check(n >= 0, 'pool counts are not negative', s);
}
