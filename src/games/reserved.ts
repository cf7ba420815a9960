/**
 * Games of the rule book whose rules are not available (rules/README.md: "do
 * not implement"). Their ids are reserved and shown as "rules unavailable":
 * nothing is invented for them until the booklet's text turns up.
 */
export interface ReservedGame {
  readonly id: string;
  readonly name: string;
  readonly reason: string;
}

const NO_SOURCE = 'No source text: the booklet transcript holds only its title, and no identifiable public rules exist.';
const WEAK = 'Only a low-confidence candidate game exists; the booklet text is needed.';

export const RESERVED_GAMES: readonly ReservedGame[] = [
  { id: 'cops-and-robbers', name: 'Cops and Robbers (Rosvo ja poliisi)', reason: WEAK },
  { id: 'lightning-strike', name: 'Lightning strike (Salamanisku)', reason: NO_SOURCE },
  { id: 'finish', name: 'Finish', reason: NO_SOURCE },
  { id: 'pay-the-rent', name: 'Pay the rent (Maksa vuokra)', reason: NO_SOURCE },
  { id: 'dice-roulette', name: 'Dice roulette (Nopparuletti)', reason: `${WEAK} The bets and payout table must come from the booklet.` },
  { id: 'high-dice', name: 'High Dice', reason: 'Two unrelated public games share the name; the booklet text is needed to know which.' },
  { id: 'killer', name: 'Killer', reason: NO_SOURCE },
  { id: 'lucky-dice', name: 'Lucky Dice', reason: NO_SOURCE },
  { id: 'five-aces', name: 'Five Aces (Viisi ässää)', reason: WEAK },
  { id: 'easy-money', name: 'Easy Money', reason: NO_SOURCE },
];

export function findReserved(id: string): ReservedGame | null {
  return RESERVED_GAMES.find((g) => g.id === id) ?? null;
}
