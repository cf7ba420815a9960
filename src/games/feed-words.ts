/**
 * The table feed: a game's recent steps in words a host reads ("Robo scored
 * 25 in Chance with 6 6 6 5 2", "Ben lost a life", "Anna bid 4 × 5"),
 * derived from the game's applied actions by replaying them. Pure.
 *
 * Each line is a text key and its parameters (`feed.*` in
 * src/api/public/i18n/*.json), put in words on the page in the viewer's
 * language (table-feed.js): the server knows no language.
 *
 * One describer per game family (scorecard games, Shut the Box, Bluff),
 * common words for the other games' decisions (MOVES), and words every game gets from its state: lives lost, a player
 * out, the winner. The words use what the whole room may see only: a secret
 * throw is "threw in secret", a secret card game's move names its kind only.
 */
import { actingSeat } from './acting-seat.js';
import { isInvalid, type AnyGameDef } from './index.js';
import type { Board } from './types.js';

/** A parameter of a line: a name or number, a list ("3, 6 and 9"), or a text of its own (a bid, "the table"). */
export type FeedValue = string | number | readonly FeedValue[] | FeedText;

/** A text key (`feed.*`) and its parameters. */
export interface FeedText {
  readonly key: string;
  readonly params: Readonly<Record<string, FeedValue>>;
}

export interface FeedEntry extends FeedText {
  /** The step's number in the game (1, 2, ...: applied actions and rolls). */
  readonly n: number;
  /** The seat that made it (null: the table). */
  readonly seat: number | null;
  readonly bot: boolean;
}

/** What the feed needs of a game. */
export interface FeedGame {
  readonly players: readonly string[];
  readonly bots: readonly number[];
  readonly options: Readonly<Record<string, unknown>>;
  /** Every action applied, rolls included (`{type:'roll', values}`), in order. */
  readonly actions: ReadonlyArray<{ readonly type: string }>;
  /** The rolls in order, for whether each was secret. */
  readonly rolls: ReadonlyArray<{ readonly request: { readonly secret: boolean } }>;
}

/** A step as a describer sees it. */
interface Step {
  readonly def: AnyGameDef;
  readonly name: (seat: number | null) => FeedValue;
  readonly seat: number | null;
  readonly action: { readonly type: string } & Readonly<Record<string, unknown>>;
  readonly before: unknown;
  readonly after: unknown;
}

/** Words for one step, '' for none, or null to use the common ones. */
type Describer = (step: Step) => FeedText | '' | null;

const text = (key: string, params: Record<string, FeedValue> = {}): FeedText => ({ key: `feed.${key}`, params });

const publicBoard = (def: AnyGameDef, state: unknown): Board => def.board(def.playerView(state, null));

/** Scorecard games: "Robo scored 25 in Chance with 6 6 6 5 2"; holding and releasing are left out (too many to read). */
const scorecard: Describer = ({ def, name, seat, action, before, after }) => {
  if (action.type === 'hold' || action.type === 'release') return '';
  if (action.type !== 'score' || seat === null) return null;
  const b = publicBoard(def, before);
  const a = publicBoard(def, after);
  if (a.kind !== 'scorecard' || b.kind !== 'scorecard') return null;
  const row = String(action.category);
  // The row by its id: each language has its usual name for it (games.<id>.rows.* in the pages' texts).
  const label: FeedText = { key: `games.${def.id}.rows.${row}`, params: {} };
  const points = a.players[seat]?.cells[row];
  const dice = b.dice.filter((d): d is number => d !== null);
  return dice.length ? text('scoredWith', { name: name(seat), count: points ?? 0, row: label, dice: dice.join(' ') }) : text('scored', { name: name(seat), count: points ?? 0, row: label });
};

const shutTheBox: Describer = ({ name, seat, action }) => {
  if (action.type === 'close' && Array.isArray(action.boxes)) return text('shut', { name: name(seat), boxes: action.boxes as number[] });
  return null;
};

/** "4 × 5", "2 × ★": a Bluff bid (the star is the 6). */
const bidWords = (bid: { quantity: number; face: number }) => text('bidDice', { count: bid.quantity, face: bid.face === 6 ? '★' : bid.face });

const bluff: Describer = ({ name, seat, action, after }) => {
  const s = after as { bid?: { quantity: number; face: number } | null; lastChallenge?: { bid: { quantity: number; face: number; bidder: number }; count: number } | null };
  if (action.type === 'bid' && s.bid) return text('bid', { name: name(seat), bid: bidWords(s.bid) });
  if (action.type === 'challenge' && s.lastChallenge) {
    const c = s.lastChallenge;
    return text('doubted', { name: name(seat), bidder: name(c.bid.bidder), bid: bidWords(c.bid), count: c.count });
  }
  if (action.type === 'show' && Array.isArray(action.dice)) return text('showed', { name: name(seat), count: action.dice.length });
  if (action.type === 'keepHidden') return text('keptHidden', { name: name(seat) });
  return null;
};

/** The describer of a game: by its board's kind for scorecard games, else by its id. */
function describerOf(def: AnyGameDef, board: Board): Describer | null {
  if (board.kind === 'scorecard') return scorecard;
  if (def.id === 'shut-the-box') return shutTheBox;
  if (def.id === 'bluff') return bluff;
  return null;
}

/** The faces on the slots an action names (`dice`: slot indices), as the table saw them before it: "5 5". */
const facesOf = ({ def, action, before }: Step): string => {
  const dice = publicBoard(def, before).dice;
  return ((action.dice as readonly number[] | undefined) ?? []).map((slot) => dice[slot] ?? '?').join(' ');
};

/**
 * The decisions the describers leave to the common words: a line each (`feed.moves.<type>`, with the acting
 * player's {name}) and the parameters it words. A secret-hand game's move gets its kind only: no parameters.
 */
const MOVES: Readonly<Record<string, (step: Step) => Record<string, FeedValue>>> = {
  stop: () => ({}),
  stand: () => ({}),
  bank: () => ({}),
  end: () => ({}),
  place: () => ({}),
  decline: () => ({}),
  accept: () => ({}),
  challenge: () => ({}),
  chase: () => ({}),
  playCard: () => ({}),
  announce: ({ action }) => ({ total: Number(action.total) }),
  dice: ({ action }) => ({ count: Number(action.count) }),
  keep: (step) => ({ dice: facesOf(step) }),
  hold: (step) => ({ dice: facesOf(step) }),
  release: (step) => ({ dice: facesOf(step) }),
  // Bluff's stacked throw: the dice are in a cup, so how many, not which.
  rethrow: ({ action }) => ({ count: ((action.dice as readonly number[] | undefined) ?? []).length }),
};

/** The action types that have common words (each needs its `feed.moves.*` text). */
export const MOVE_TYPES: readonly string[] = Object.keys(MOVES);

/** A decision in the common words; a type without them keeps its own name ("Ann: swap"), which the texts test keeps from shipping. */
function moveWords(step: Step, secret: boolean): FeedText {
  const words = MOVES[step.action.type];
  if (!words) return text('move', { name: step.name(step.seat), move: step.action.type });
  return text(`moves.${step.action.type}`, { name: step.name(step.seat), ...(secret ? {} : words(step)) });
}

/** What changed for everyone, from the states: lives lost, players out, dice lost (Bluff), the winner. */
function consequences(def: AnyGameDef, name: (seat: number | null) => FeedValue, before: unknown, after: unknown): FeedText[] {
  const out: FeedText[] = [];
  const livesOf = (s: unknown) => ((s as { players?: ReadonlyArray<{ lives?: unknown }> }).players ?? []).map((p) => (typeof p.lives === 'number' ? p.lives : null));
  const lb = livesOf(before);
  livesOf(after).forEach((lives, seat) => {
    const was = lb[seat];
    if (lives !== null && was !== null && was !== undefined && lives < was) out.push(text('lostLives', { name: name(seat), count: was - lives }));
  });
  const change = (after as { lastChallenge?: { change?: readonly number[] } | null }).lastChallenge?.change;
  if (change && (before as { lastChallenge?: unknown }).lastChallenge !== (after as { lastChallenge?: unknown }).lastChallenge) {
    change.forEach((d, seat) => {
      if (d < 0) out.push(text('lostDice', { name: name(seat), count: -d }));
      else if (d > 0) out.push(text('gainedDice', { name: name(seat), count: d }));
    });
  }
  const b = publicBoard(def, before);
  const a = publicBoard(def, after);
  if (a.kind === 'table' && b.kind === 'table') a.players.forEach((p, seat) => p.out && !b.players[seat]?.out && out.push(text('out', { name: name(seat) })));
  const result = def.result(after);
  if (result && !def.result(before)) {
    const winners = result.winners.map((w) => name(w));
    out.push(winners.length === 1 ? text('wins', { name: winners[0] ?? '' }) : winners.length > 1 ? text('shareWin', { names: winners }) : text('nobodyWins'));
  }
  return out;
}

/**
 * Where a feed got to: the state after the actions it has read, so the next
 * version of the game (one action more) costs one step, not the whole game again.
 */
export interface FeedProgress {
  /** The last action read (by identity: a game's actions are kept as they were applied), and how many. */
  readonly last: { readonly type: string } | null;
  readonly count: number;
  readonly rollCount: number;
  readonly state: unknown;
  readonly entries: readonly FeedEntry[];
}

/**
 * The feed of `game`, going on from `prev` when the game's actions still
 * begin with the ones it read (an undo or a correction replays the game,
 * and the feed starts again). Each step is a line; what it caused for
 * everyone (a life lost, the winner) follows as lines credited to nobody.
 */
export function feedProgress(def: AnyGameDef, game: FeedGame, prev: FeedProgress | null, limit = 8): FeedProgress | null {
  const goesOn = prev !== null && prev.count <= game.actions.length && (prev.count === 0 || game.actions[prev.count - 1] === prev.last);
  let state: unknown;
  if (goesOn) state = prev.state;
  else {
    try {
      state = def.setup(game.players, game.options);
    } catch {
      return null;
    }
  }
  const name = (seat: number | null): FeedValue => (seat === null ? text('theTable') : (game.players[seat] ?? text('seat', { number: seat + 1 })));
  const describe = describerOf(def, publicBoard(def, state));
  const entries: FeedEntry[] = goesOn ? [...prev.entries] : [];
  let rollIndex = goesOn ? prev.rollCount : 0;
  const start = goesOn ? prev.count : 0;
  // Only the last steps are put in words (boards are not free to build); the ones before are only applied.
  const from = Math.max(start, game.actions.length - limit * 4);
  let count = start;
  for (let i = start; i < game.actions.length; i++) {
    const action = game.actions[i] as { type: string };
    const after = def.apply(state, action);
    if (isInvalid(after)) break;
    count = i + 1;
    const secret = action.type === 'roll' ? game.rolls[rollIndex++]?.request.secret === true : false;
    if (i < from) {
      state = after;
      continue;
    }
    const seat = actingSeat(def, state);
    const step: Step = { def, name, seat, action: action as Step['action'], before: state, after };
    let line: FeedText | '' | null;
    if (action.type === 'roll') {
      const values = (action as { values?: readonly number[] }).values ?? [];
      line = secret ? text('threwInSecret', { name: name(seat) }) : text('threw', { name: name(seat), dice: values.join(' ') });
    } else if (def.secretHands) {
      // Which card was chosen is the players' business.
      line = moveWords(step, true);
    } else {
      line = describe?.(step) ?? moveWords(step, false);
    }
    const bot = seat !== null && game.bots.includes(seat);
    if (line) entries.push({ n: i + 1, seat, bot, ...line });
    for (const c of consequences(def, name, state, after)) entries.push({ n: i + 1, seat: null, bot: false, ...c });
    state = after;
  }
  return { last: count > 0 ? (game.actions[count - 1] ?? null) : null, count, rollCount: rollIndex, state, entries: entries.slice(-limit) };
}

/** The last `limit` entries of the game's feed, oldest first. */
export function tableFeed(def: AnyGameDef, game: FeedGame, limit = 8): FeedEntry[] {
  return [...(feedProgress(def, game, null, limit)?.entries ?? [])];
}
