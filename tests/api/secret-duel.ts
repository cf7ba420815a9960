/** A tiny two-seat game with secret throws, for the tests of private views. */
import { invalid, type AnyGameDef } from '../../src/games/index.js';

interface Duel {
  readonly options: Record<string, never>;
  readonly players: readonly string[];
  readonly dice: readonly (number | null)[];
  readonly thrown: number;
  readonly revealed: boolean;
}

/** Each seat throws one die in secret; then the dice are revealed; the higher die wins. */
export const secretDuel: AnyGameDef = {
  id: 'secret-duel',
  name: 'Secret duel',
  minPlayers: 2,
  maxPlayers: 2,
  defaultOptions: {},
  summary: 'Test game: each of two players throws one die in secret, then both are revealed and the higher die wins.',
  dice: { count: 1, colours: [], sizes: [] },
  secretThrows: true,
  optionSpecs: [],
  setup: (players: readonly string[]): Duel => ({ options: {}, players, dice: [null, null], thrown: 0, revealed: false }),
  diceRequest: (s: Duel) => (s.thrown < 2 ? { count: 1, slots: [s.thrown], player: s.thrown, secret: true } : null),
  apply(s: Duel, a: { type: string; values?: number[] }) {
    if (a.type === 'roll' && s.thrown < 2 && a.values?.length === 1) {
      return { ...s, dice: s.dice.map((d, i) => (i === s.thrown ? (a.values?.[0] ?? null) : d)), thrown: s.thrown + 1 };
    }
    if (a.type === 'reveal' && s.thrown === 2 && !s.revealed) return { ...s, revealed: true };
    return invalid('game/illegal', `no ${a.type} now`);
  },
  legalActions: (s: Duel) => (s.thrown === 2 && !s.revealed ? [{ type: 'reveal' }] : []),
  result: (s: Duel) => {
    if (!s.revealed) return null;
    const [a, b] = s.dice as [number, number];
    return { winners: a === b ? [0, 1] : a > b ? [0] : [1], scores: [a, b] };
  },
  playerView: (s: Duel, viewer: number | null) => (s.revealed ? s : { ...s, dice: s.dice.map((d, i) => (i === viewer ? d : null)) }),
  board: (s: Duel) => ({
    kind: 'table',
    status: s.revealed ? 'Revealed' : `Seat ${s.thrown + 1} throws in secret`,
    say: { key: 'games.secret-duel.status.throw', params: {} },
    current: s.thrown < 2 ? s.thrown : null,
    dice: s.dice,
    held: [false, false],
    columns: [{ id: 'die', label: 'Die' }],
    players: s.players.map((name, i) => ({ name, values: { die: s.dice[i] ?? null }, out: false })),
    panels: [],
  }),
  bot: () => null,
};

