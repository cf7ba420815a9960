/**
 * The table: the games being played at the tower, and the roll pipeline that
 * joins the layers: game asks → tower rolls → camera frame → vision → game
 * applies the values → listeners (the WebSocket hub) hear of it.
 *
 * State lives in memory; each game keeps its setup and its ordered action log,
 * so it can be replayed. (Durable storage is a later step.)
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SeededRandom, TowerError, type Camera, type Tower } from './hardware/index.js';
import type { DiceReader, DiceReading } from './vision/index.js';
import type { GameStore } from './storage/index.js';
import { StoreError } from './storage/index.js';
import { GAMES, actingSeat, actionSeat, findReserved, isInvalid, type AnyGameDef, type DiceRequest, type GameResult } from './games/index.js';
import type { CoachLibrary } from './coach/library.js';
import { strongMove } from './coach/strong-bot.js';
import { replay, replayedVersion, effectiveValues, type EndedRecord, type ReplayStep } from './table-replay.js';
import { planUndo, type UndoDecision } from './table-undo.js';
import { didNotTumble, NO_TUMBLE_PROBLEM, type SeenFrame } from './audit/tumble.js';
import { buildExport, exportProblem, type GameExport } from './audit/game-export.js';
import type { EventType, GameCorrectionPayload, NewEvent, PayloadByType } from './storage/index.js';
import { matchReading, orderByRequest, type ColouredDie } from './dice-match.js';
import { errorText } from './error-text.js';

/** A refusal the caller can show: bad request, rule refusal, busy tower, hardware fault. */
export class TableError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number,
    /** The message's parts a page words the code with in its own language (src/note.ts). */
    readonly params?: Readonly<Record<string, string | number>>,
  ) {
    super(message);
    this.name = 'TableError';
  }
}

/** One roll as it was recorded. */
export interface RollRecord {
  readonly seq: number;
  readonly request: DiceRequest;
  readonly values: readonly number[];
  /** The dice with their colour and size, in request order, when the game asked for coloured dice. */
  readonly dice?: readonly ColouredDie[];
  /** `tower` when read by the camera, `manual` when typed in by the operator. */
  readonly source: 'tower' | 'manual';
  /** The vision reading that gave the values (tower rolls only). */
  readonly reading: DiceReading | null;
  /** Tower cycles it took: invalid readings are re-rolled. */
  readonly attempts: number;
  readonly at: number;
}

/** A roll's values put right by the operator, as recorded (the roll's record keeps what was read), with when. */
export type CorrectionRecord = GameCorrectionPayload & { readonly at: number };

export interface TableGame {
  readonly id: string;
  readonly game: string;
  readonly players: readonly string[];
  /** Seats played by the game's bot (empty seats filled by the table). */
  readonly bots: readonly number[];
  /** How well each bot seat plays, by seat: `simple` (the game's own bot) or `strong` (the coach's optimal policy). */
  readonly botLevels: Readonly<Record<number, BotLevel>>;
  readonly options: Readonly<Record<string, unknown>>;
  readonly state: unknown;
  /** Every action applied since setup, in order (rolls included), for replay and audit. */
  readonly actions: readonly { readonly type: string }[];
  readonly rolls: readonly RollRecord[];
  /** Corrections of misread rolls, in the order they were made (the latest of a roll wins). */
  readonly corrections: readonly CorrectionRecord[];
  /** Bumped on every change. */
  readonly version: number;
  /** Set when the game was ended without a result (`end`): kept on record, nothing more is played. */
  readonly ended?: EndedRecord;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** `simple`: the game's own rule-of-thumb bot; `strong`: the coach's optimal policy (games the coach has solved). */
export type BotLevel = 'simple' | 'strong';
export const BOT_LEVELS: readonly BotLevel[] = ['simple', 'strong'];

export type TowerState = 'ready' | 'rolling' | 'fault';

export interface TowerStatus {
  readonly kind: string;
  readonly state: TowerState;
  /** What the tower is doing or what went wrong, for the scoreboard. */
  readonly message: string;
  /** Game the tower is rolling for, if any. */
  readonly gameId: string | null;
}

export type TableEvent =
  | { readonly type: 'game'; readonly game: TableGame }
  | { readonly type: 'tower'; readonly status: TowerStatus }
  /** Something the room should know that is not a change of state (a bot that could not move). */
  | { readonly type: 'notice'; readonly gameId: string; readonly message: string };

/** A tower throw as it happens (the event stream, src/integrations): each one started, and each one refused with why. The roll applied is a `game` event. */
export type RollEvent =
  | { readonly type: 'roll.started'; readonly gameId: string; readonly attempt: number; readonly count: number; readonly player: number; readonly secret: boolean }
  | { readonly type: 'roll.refused'; readonly gameId: string; readonly attempt: number; readonly player: number; readonly secret: boolean; readonly problems: readonly string[]; readonly reading: DiceReading };

export interface TableDeps {
  readonly tower: Tower;
  readonly camera: Camera;
  readonly reader: DiceReader;
  /** How many tower cycles a roll may take before giving up on unreadable results. */
  readonly maxAttempts?: number;
  readonly now?: () => number;
  /** The games that can be played, by id (default: every game of the rules engine). */
  readonly games?: Readonly<Record<string, AnyGameDef>>;
  /**
   * Where every game event and roll is recorded before the table shows it
   * (none: in memory only). Games on record are restored when the table starts.
   */
  readonly store?: GameStore;
  /** Pause before a bot seat moves, ms, so people can follow (0 in tests). */
  readonly botDelayMs?: number;
  /** Seed of the bots' choices. */
  readonly botSeed?: number;
  /** The coach's solved games, for strong bots (none: only simple bots). */
  readonly coach?: CoachLibrary;
}

/** Camera frames kept per game for the scoreboard (most recent rolls). */
const FRAMES_KEPT = 20;
/** What the tower's lock holds during a test roll (no game id looks like this). */
const TEST_ROLL = 'setup:test-roll';
/** What the tower's lock holds during a test tip of the tray (the setup page). */
const TEST_TIP = 'setup:test-tip';

/** Each bot seat's level (simple unless `levels` says otherwise); a level for a seat that is not a bot is refused. */
function levelsOf(bots: readonly number[], levels: Readonly<Record<number, BotLevel>> = {}): Readonly<Record<number, BotLevel>> {
  const out: Record<number, BotLevel> = {};
  for (const [seat, level] of Object.entries(levels)) {
    if (!bots.includes(Number(seat))) throw new TableError('table/bad_bot_seat', `Seat ${seat} has a bot level but is not a bot seat.`, 400);
    if (!BOT_LEVELS.includes(level)) throw new TableError('table/bad_bot_level', `There is no bot level '${String(level)}' (${BOT_LEVELS.join(', ')}).`, 400);
  }
  for (const seat of bots) out[seat] = levels[seat] ?? 'simple';
  return out;
}

/** The levels of a recorded game; levels the log cannot account for are noted and played simple, never a stop at start. */
function restoredLevels(id: string, bots: readonly number[], levels: Readonly<Record<number, BotLevel>> | undefined, problems: string[]): Readonly<Record<number, BotLevel>> {
  try {
    return levelsOf(bots, levels);
  } catch (err) {
    problems.push(`game ${id}: ${errorText(err)}; its bots play simple`);
    return levelsOf(bots);
  }
}

export class Table {
  private readonly games = new Map<string, TableGame>();
  private readonly frames = new Map<string, Map<number, Buffer>>();
  /** Per game, one secret token per seat: the key to that player's private page. */
  private readonly seatTokens = new Map<string, string[]>();
  /**
   * Seats whose private page has been opened: their link is no longer handed
   * out (claim once), so another player cannot pick it up later.
   */
  private readonly seatsClaimed = new Map<string, Set<number>>();
  private readonly listeners = new Set<(e: TableEvent) => void>();
  private towerStatus: TowerStatus;
  /** The game whose roll the tower status reports as failed (a fault of that roll, not of the tower's link). */
  private rollFaultFor: string | null = null;
  private readonly now: () => number;
  /** Games whose bot seat is about to move or moving (one bot step at a time per game). */
  private readonly botTimers = new Map<string, { readonly timer: ReturnType<typeof setTimeout>; readonly version: number } | 'moving'>();
  private readonly botRandom: SeededRandom;
  /** Games whose strong bot was told once that the coach cannot judge its position. */
  private readonly strongBotWarned = new Set<string>();
  private closed = false;

  /**
   * The roll cut short by a lost tower link: made again when the tower is back,
   * but only if nothing happened in that game meanwhile (same version).
   */
  private rollAfterReconnect: { readonly id: string; readonly version: number } | null = null;
  /** The game the tower is rolling for: the lock (the status line is only what people see, and tower events rewrite it). */
  private rollingFor: string | null = null;
  private readonly unsubscribeTower: Array<() => void> = [];
  /** The tower rolling now: the one the table was made with, or another swapped in by `useTower` (the setup page's connect). */
  private rollingTower: Tower;

  constructor(private readonly deps: TableDeps) {
    this.now = deps.now ?? Date.now;
    this.botRandom = new SeededRandom(deps.botSeed ?? 1);
    this.rollingTower = deps.tower;
    this.towerStatus = { kind: deps.tower.kind, state: 'ready', message: 'Tower ready', gameId: null };
    if (deps.store) this.restore(deps.store);
    this.listenToTower();
  }

  /** Games the store could not replay at start (unknown game, refused step), with why. */
  readonly restoreProblems: string[] = [];

  /**
   * Rebuilds every recorded game by replaying its log: setup, then each action
   * and roll in order. A roll that was under way when the process stopped was
   * never recorded, so the game simply waits for it again. Seat tokens are new.
   * Games whose turn is a bot's go on as a live game would (after the bot
   * delay, never synchronously); one whose replay stopped at a refused step
   * stays still: its log holds more than its state shows, and a bot's move
   * would be recorded after a step it cannot account for.
   */
  private restore(store: GameStore): void {
    const resumable: string[] = [];
    for (const stored of store.loadGames()) {
      const { game: gameId, players, bots, botLevels, options, imported } = stored.created.payload;
      const def = this.findGame(gameId);
      if (!def) {
        this.restoreProblems.push(`game ${stored.id}: there is no game called '${gameId}' any more`);
        continue;
      }
      const replayed = replay(def, players, options, stored.steps.map(replayStep), stored.created.at);
      if (replayed.problem) {
        const step = stored.steps[replayed.problem.index];
        if (replayed.problem.index < 0 || replayed.state === null) {
          this.restoreProblems.push(`game ${stored.id}: ${replayed.problem.message}`);
          continue;
        }
        this.restoreProblems.push(`game ${stored.id}: event ${step?.seq ?? '?'} is refused by the rules (${replayed.problem.message}); replay stopped there`);
      } else if (!imported || stored.steps.some((step) => step.at >= imported.at)) {
        // An imported game's bots sleep until it is played on here (importGame does not wake them), after a restart too.
        resumable.push(stored.id);
      }
      const { state, actions, rolls, corrections, updatedAt, ended } = replayed;
      const game: TableGame = {
        id: stored.id, game: gameId, players: [...players], bots: [...bots], botLevels: restoredLevels(stored.id, bots, botLevels, this.restoreProblems), options, state, actions, rolls, corrections,
        version: replayedVersion(replayed), createdAt: stored.created.at, updatedAt, ...(ended ? { ended } : {}),
      };
      this.games.set(game.id, game);
      this.seatTokens.set(game.id, game.players.map(() => randomBytes(18).toString('base64url')));
    }
    for (const id of resumable) this.wakeBot(id);
  }

  /** Records an event before memory changes; a failed write leaves the game as it was and says so. */
  private record(write: (store: GameStore) => void): void {
    if (!this.deps.store) return;
    try {
      write(this.deps.store);
    } catch (err) {
      const detail = err instanceof StoreError ? err.message : errorText(err);
      throw new TableError('store/write_failed', `The game could not be recorded (${detail}); it is paused as it was. Fix the data directory and try again.`, 503);
    }
  }

  /** A real tower's events: its link (the scoreboard says when it is gone), faults, and the roll button. */
  private listenToTower(): void {
    const tower = this.rollingTower;
    if (!tower.on) return;
    this.unsubscribeTower.push(
      tower.on('disconnect', ({ error }) => {
        this.setTower('fault', `Tower disconnected (${error.message}); waiting for it to come back`, this.towerStatus.gameId);
      }),
      tower.on('connect', () => {
        const pending = this.rollAfterReconnect;
        this.rollAfterReconnect = null;
        if (this.rollingFor === null) this.setTower('ready', 'Tower connected', null);
        // The roll the lost link cut short is asked for again, unless the game moved on (dice typed in, another action).
        if (pending && this.games.get(pending.id)?.version === pending.version) void this.roll(pending.id).catch(() => undefined);
      }),
      tower.on('fault', (error) => {
        if (this.rollingFor === null) this.setTower('fault', `Tower fault: ${error.message}`, null);
      }),
      tower.on('button', () => this.rollForButton()),
    );
  }

  /**
   * The tower's button: rolls for the game that waits for a throw (the most
   * recently changed one). Nothing waits, or the tower is busy: a notice says so.
   */
  private rollForButton(): void {
    const waiting = this.list()
      .filter((g) => !this.definition(g).result(g.state) && this.definition(g).diceRequest(g.state) !== null)
      .sort((a, b) => b.updatedAt - a.updatedAt)[0];
    if (!waiting) {
      this.emit({ type: 'notice', gameId: '', message: 'Button pressed, but no game is waiting for a roll.' });
      return;
    }
    void this.roll(waiting.id).catch((err) => {
      this.emit({ type: 'notice', gameId: waiting.id, message: `The button's roll did not happen: ${errorText(err)}` });
    });
  }

  /** Listens to every change; returns the function that stops listening. */
  subscribe(listener: (e: TableEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private readonly rollListeners = new Set<(e: RollEvent) => void>();

  /** Listens to tower throws as they happen (the event stream, src/integrations); returns the function that stops listening. */
  onRoll(listener: (e: RollEvent) => void): () => void {
    this.rollListeners.add(listener);
    return () => this.rollListeners.delete(listener);
  }

  private emitRoll(event: RollEvent): void {
    for (const listener of this.rollListeners) listener(event);
  }

  list(): TableGame[] {
    return [...this.games.values()];
  }

  tower(): TowerStatus {
    return this.towerStatus;
  }

  /**
   * Rolls with `tower` from now on (a board connected or disconnected at run
   * time); the games are untouched. Refused while a roll is under way: the
   * dice of that roll are the old tower's.
   */
  useTower(tower: Tower, message: string): void {
    if (this.rollingFor === TEST_TIP) throw new TableError('setup/tip_running', 'A test tip is under way: change the tower once the tray is back.', 409);
    if (this.rollingFor !== null) throw new TableError('tower/busy', 'The tower is rolling; change it once the dice are read.', 409);
    for (const off of this.unsubscribeTower.splice(0)) off();
    this.rollingTower = tower;
    // A roll waiting for the old tower's link to come back is not the new tower's to make.
    this.rollAfterReconnect = null;
    this.listenToTower();
    this.setTower('ready', message, null);
  }

  get(id: string): TableGame {
    const game = this.games.get(id);
    if (!game) throw new TableError('table/game_not_found', `There is no game with id '${id}'.`, 404);
    return game;
  }

  /** The game with this id, or null. */
  findGame(id: string): AnyGameDef | null {
    const games: Readonly<Record<string, AnyGameDef>> = this.deps.games ?? GAMES;
    return Object.prototype.hasOwnProperty.call(games, id) ? (games[id] ?? null) : null;
  }

  /** The levels a bot may play `gameId` at here: strong too when the coach has solved the game. */
  botLevelsFor(gameId: string): readonly BotLevel[] {
    return this.deps.coach?.games().includes(gameId) ? BOT_LEVELS : ['simple'];
  }

  /** The coach, when this table has one (hints, analysis, strong bots). */
  coach(): CoachLibrary | null {
    return this.deps.coach ?? null;
  }

  /** Every game that can be played here. */
  catalog(): AnyGameDef[] {
    return Object.values(this.deps.games ?? GAMES) as AnyGameDef[];
  }

  definition(game: TableGame): AnyGameDef {
    const def = this.findGame(game.game);
    if (!def) throw new Error(`game '${game.game}' vanished from the registry`);
    return def;
  }

  create(gameId: string, players: readonly string[], options: Record<string, unknown> = {}, bots: readonly number[] = [], levels: Readonly<Record<number, BotLevel>> = {}): TableGame {
    const def = this.findGame(gameId);
    const reserved = def ? null : findReserved(gameId);
    if (reserved) throw new TableError('table/rules_unavailable', `Rules unavailable for ${reserved.name}: ${reserved.reason}`, 400);
    if (!def) throw new TableError('table/unknown_game', `There is no game called '${gameId}'.`, 400);
    const badBot = bots.find((b, i) => !Number.isInteger(b) || b < 0 || b >= players.length || bots.indexOf(b) !== i);
    if (badBot !== undefined) {
      throw new TableError('table/bad_bot_seat', `Bot seat ${badBot} is not one of the ${players.length} seats (0 to ${players.length - 1}), or is named twice.`, 400);
    }
    const botLevels = levelsOf(bots, levels);
    let state: unknown;
    try {
      state = def.setup(players, options);
    } catch (err) {
      throw new TableError('game/bad_setup', errorText(err), 400);
    }
    if (Object.values(botLevels).includes('strong')) this.checkStrongBots(def, options);
    const at = this.now();
    const game: TableGame = { id: randomUUID(), game: gameId, players: [...players], bots: [...bots], botLevels, options, state, actions: [], rolls: [], corrections: [], version: 1, createdAt: at, updatedAt: at };
    const strong = Object.values(botLevels).includes('strong') ? { botLevels } : {};
    this.record((store) => store.appendEvent({ gameId: game.id, type: 'game/created', at, payload: { game: gameId, players: game.players, bots: game.bots, ...strong, options } }));
    this.games.set(game.id, game);
    this.seatTokens.set(game.id, game.players.map(() => randomBytes(18).toString('base64url')));
    this.emit({ type: 'game', game });
    this.wakeBot(game.id);
    return game;
  }

  /**
   * Refuses strong bots the coach cannot play (no solver, options it cannot
   * solve), and starts the solve at once so the tables are ready by the bot's
   * first turn. Positions outside the solve (Mexico with four players, Busted
   * before two players are left) are played by the simple bot, with a notice.
   */
  private checkStrongBots(def: AnyGameDef, options: Readonly<Record<string, unknown>>): void {
    const coach = this.deps.coach;
    if (!coach) throw new TableError('table/no_strong_bot', 'This server runs without the coach: only simple bots can play.', 400);
    const status = coach.status(def.id, { ...def.defaultOptions, ...options });
    if (status.state === 'unavailable' || status.state === 'failed') throw new TableError('table/no_strong_bot', `No strong bot for ${def.name} here: ${status.reason}`, 400);
  }

  /** Stops every pending bot move (on shutdown). */
  close(): void {
    this.closed = true;
    for (const off of this.unsubscribeTower.splice(0)) off();
    for (const pending of this.botTimers.values()) if (pending !== 'moving') clearTimeout(pending.timer);
    this.botTimers.clear();
  }

  /** The seat that must act now (games/acting-seat.ts). */
  private actingSeat(game: TableGame): number | null {
    return actingSeat(this.definition(game), game.state);
  }

  /** If a bot seat must act in this game, lets it move after the bot delay. */
  private wakeBot(id: string): void {
    const game = this.games.get(id);
    if (!game || game.ended || this.closed || game.bots.length === 0 || this.botTimers.has(id)) return;
    const seat = this.actingSeat(game);
    if (seat === null || !game.bots.includes(seat)) return;
    this.armBot(id, game.version, this.deps.botDelayMs ?? 800);
  }

  /** The bot moves after `delayMs` if the game is still at `version` then (nobody moved for it meanwhile). */
  private armBot(id: string, version: number, delayMs: number): void {
    this.botTimers.set(id, { timer: setTimeout(() => void this.botMove(id, version), delayMs), version });
  }

  private async botMove(id: string, version: number): Promise<void> {
    this.botTimers.set(id, 'moving');
    try {
      const game = this.get(id);
      const seat = this.actingSeat(game);
      // Someone acted in the meantime, or it is a person's turn now: the bot does nothing.
      if (game.version !== version || seat === null || !game.bots.includes(seat)) return;
      const choice = await this.botChoice(game, seat);
      // A strong bot may have waited for the coach's tables: it moves only if the game is still where it chose
      // (else the wake below looks again: a change made meanwhile found the bot busy and did not wake it).
      if (this.get(id).version === version) {
        if (choice === null) await this.roll(id);
        else this.act(id, choice);
      }
    } catch (err) {
      // A busy tower is another game's roll: try again shortly. Anything else stops the bot and says why.
      if (err instanceof TableError && err.code === 'tower/busy') {
        this.botTimers.delete(id);
        if (!this.closed) this.armBot(id, version, Math.max(this.deps.botDelayMs ?? 800, 50));
        return;
      }
      this.emit({ type: 'notice', gameId: id, message: `The bot could not move: ${errorText(err)}` });
      return; // until the next change of this game (the operator acts)
    } finally {
      if (this.botTimers.get(id) === 'moving') this.botTimers.delete(id);
    }
    this.wakeBot(id);
  }

  /**
   * What the bot in `seat` does now: the game's own bot, or for a strong bot
   * the first step of the coach's best decision (null: throw). Where the
   * coach cannot judge the position (outside its solve), the game's own bot
   * moves and a notice says so, once per game.
   */
  private async botChoice(game: TableGame, seat: number): Promise<{ type: string } | null> {
    const def = this.definition(game);
    const simple = () => def.bot(game.state, () => this.botRandom.next());
    if ((game.botLevels[seat] ?? 'simple') === 'simple') return simple();
    const coach = this.deps.coach;
    if (!coach) throw new TableError('coach/none', 'This server runs without the coach, so the strong bot cannot play.', 503);
    let move: ReturnType<typeof strongMove>;
    try {
      move = strongMove(def, await coach.policy(game.game, { ...def.defaultOptions, ...game.options }), game.state);
    } catch (err) {
      // The tables could not be had (a failed solve): the game goes on with the simple bot.
      move = { outside: errorText(err) };
    }
    if (move === null || !('outside' in move)) return move;
    if (!this.strongBotWarned.has(game.id)) {
      this.strongBotWarned.add(game.id);
      this.emit({ type: 'notice', gameId: game.id, message: `The strong bot plays the simple way here: ${move.outside}` });
    }
    return simple();
  }

  /** The private-page token of every seat of a game (for the links and QR codes the operator hands out). */
  seatTokensOf(id: string): readonly string[] {
    return this.seatTokens.get(this.get(id).id) ?? [];
  }

  /** Whether each seat's private page has been opened (its link is then no longer handed out). */
  seatClaims(id: string): boolean[] {
    const claimed = this.seatsClaimed.get(this.get(id).id);
    return this.get(id).players.map((_, seat) => claimed?.has(seat) ?? false);
  }

  /**
   * A new token for a seat (a player lost their phone, or someone else opened
   * the link first): the old link stops working and the new one can be handed out.
   */
  reissueSeat(id: string, seat: number): void {
    const game = this.get(id);
    const tokens = this.seatTokens.get(game.id);
    if (!tokens || seat < 0 || seat >= tokens.length) throw new TableError('table/no_such_seat', `Game '${id}' has no seat ${seat}.`, 404);
    tokens[seat] = randomBytes(18).toString('base64url');
    this.seatsClaimed.get(game.id)?.delete(seat);
    this.emit({ type: 'game', game });
  }

  /** Checks a seat's token; throws a 403 TableError naming the seat when it does not match. */
  checkSeat(id: string, seat: number, token: string): TableGame {
    const game = this.get(id);
    const expected = this.seatTokens.get(game.id)?.[seat];
    if (expected === undefined) throw new TableError('table/no_such_seat', `Game '${id}' has no seat ${seat}.`, 404);
    const a = Buffer.from(expected);
    const b = Buffer.from(token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw new TableError('table/bad_seat_token', `That is not the token of seat ${seat}; open the link this player was given.`, 403);
    }
    const claimed = this.seatsClaimed.get(game.id) ?? new Set<number>();
    if (!claimed.has(seat)) {
      claimed.add(seat);
      this.seatsClaimed.set(game.id, claimed);
      // The scoreboard takes the seat's QR code down.
      this.emit({ type: 'game', game });
    }
    return game;
  }

  /**
   * A seat's own decision from its private page (a secret card, a bid, a
   * challenge): only an action the game names this seat for (`actionSeat`:
   * on its turn, or its own stacked throw); the game refuses what its rules
   * do not allow.
   */
  actForSeat(id: string, seat: number, token: string, action: { type: string }): TableGame {
    const game = this.checkSeat(id, seat, token);
    const def = this.definition(game);
    const actor = actionSeat(def, game.state, action);
    if (actor !== seat) {
      const name = (s: number) => game.players[s] ?? `seat ${s}`;
      const why = def.operatorActions?.includes(action.type) ? 'only the operator, who watches the tower, may' : actor === null ? 'the game is over' : `it is ${name(actor)}'s to make`;
      throw new TableError('table/not_your_turn', `${name(seat)} cannot ${action.type} now: ${why}.`, 403);
    }
    return this.act(id, action);
  }

  /** Applies a decision (hold, release, score...). Rolls go through `roll`. */
  act(id: string, action: { type: string }): TableGame {
    if (action.type === 'roll') throw new TableError('table/roll_via_roll', 'Dice values come in through the roll endpoint.', 400);
    const game = this.get(id);
    if (this.rollingFor === id) throw new TableError('tower/busy', 'The tower is rolling for this game; wait for the dice.', 409);
    return this.apply(game, action, null);
  }

  /**
   * Makes the roll the game waits for. With `values` the operator typed the
   * dice in (recorded as manual); without, the tower throws them and the
   * camera reads them, re-rolling when the reading is not valid.
   */
  async roll(id: string, values?: readonly number[], dice?: readonly ColouredDie[]): Promise<TableGame> {
    const game = this.get(id);
    const request = this.definition(game).diceRequest(game.state) as DiceRequest | null;
    if (!request) throw new TableError('game/no_roll_expected', 'This game is not waiting for a roll now (score, hold or release instead).', 409);
    // One physical tower: no second tower roll, and no typed-in roll for the game it is rolling for.
    if (this.rollingFor !== null && (!values || this.rollingFor === id)) {
      throw new TableError('tower/busy', 'The tower is already rolling; wait for that roll to finish.', 409);
    }
    if (dice) {
      // Typed in with their colours (the operator confirms a throw the camera was unsure of).
      if (!request.dice) throw new TableError('table/no_dice_colours', 'This roll does not ask for coloured dice; send values only.', 400);
      const typed = orderByRequest(request.dice, dice);
      if (!typed.ok) throw new TableError('game/wrong_dice', `These dice cannot be applied: ${typed.problems.join('; ')}.`, 400);
      const vals = typed.dice.map((d) => d.value);
      const action = { type: 'roll', values: vals, dice: typed.dice } as { type: string };
      return this.afterManualRoll(id, this.apply(game, action, { request, values: vals, dice: typed.dice, source: 'manual', reading: null, attempts: 0, frame: null }));
    }
    if (values) {
      if (values.length !== request.count) {
        throw new TableError('game/wrong_dice_count', `This roll needs ${request.count} dice values, got ${values.length}.`, 400);
      }
      return this.afterManualRoll(id, this.apply(game, { type: 'roll', values } as { type: string }, { request, values, source: 'manual', reading: null, attempts: 0, frame: null }));
    }
    const maxAttempts = this.deps.maxAttempts ?? 3;
    let lastProblems: readonly string[] = [];
    let rolled = 0;
    this.rollingFor = id;
    try {
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        rolled = attempt;
        this.setTower('rolling', attempt === 1 ? `Rolling ${request.count} dice` : `${lastProblems[0]} — rolling again`, id);
        this.emitRoll({ type: 'roll.started', gameId: id, attempt, count: request.count, player: request.player, secret: request.secret });
        await this.rollingTower.roll(request.count, request.dice);
        const frame = await this.deps.camera.capture();
        const reading = await this.deps.reader.read(frame, request.count);
        const stuck = this.noTumble(reading);
        // Coloured dice are applied only when every colour and size is sure and they are the dice asked for.
        const coloured = reading.valid && !stuck && request.dice ? matchReading(request.dice, reading.dice) : null;
        if (stuck) lastProblems = [stuck];
        else if (coloured && !coloured.ok) lastProblems = coloured.problems;
        else if (reading.valid) {
          const read = coloured?.dice;
          const vals = read ? read.map((d) => d.value) : reading.dice.map((d) => d.value as number);
          const current = this.get(id);
          // Nothing may change the game while its dice are in the air (the lock); if it did, do not apply stale dice.
          if (current.version !== game.version) throw new TableError('table/game_changed', 'The game changed during the roll; its dice were not applied.', 409);
          const updated = this.apply(current, { type: 'roll', values: vals, ...(read ? { dice: read } : {}) } as { type: string }, {
            request, values: vals, ...(read ? { dice: read } : {}), source: 'tower', reading, attempts: attempt, frame: frame.image,
          });
          this.setTower('ready', 'Tower ready', null);
          return updated;
        } else lastProblems = reading.problems;
        // Each refused throw, with why, for the event stream (the valid one has returned above).
        this.emitRoll({ type: 'roll.refused', gameId: id, attempt, player: request.player, secret: request.secret, problems: lastProblems, reading });
        // A camera moved since the calibration refuses every roll until the tray is calibrated again: no use rolling on.
        if (!stuck && !reading.valid && reading.issues?.some((issue) => issue.code === 'camera_moved')) break;
      }
    } catch (err) {
      if (err instanceof TableError) {
        this.setTower('ready', 'Tower ready', null);
        throw err;
      }
      if (err instanceof TowerError && err.code === 'tower/disconnected') this.rollAfterReconnect = { id, version: game.version };
      // Our own errors carry a code and a sentence for the host; anything else (native code's text) is shown as what it is.
      const known = err instanceof Error && typeof (err as { code?: unknown }).code === 'string';
      const error = known ? errorText(err) : `an unexpected error in the tower or camera code (${errorText(err)})`;
      const message = `Tower or camera fault: ${error}`;
      this.setTower('fault', message, id, true);
      throw new TableError('tower/fault', message, 503, { error });
    } finally {
      this.rollingFor = null;
    }
    const confirm = request.dice ? ' Roll again, or type the dice in with their colours on the scoreboard.' : '';
    const message = `No valid reading after ${rolled === 1 ? '1 roll' : `${rolled} rolls`}: ${lastProblems.join('; ')}.${confirm}`;
    this.setTower('fault', message, id, true);
    throw new TableError('vision/no_valid_reading', message, 503);
  }

  /**
   * One throw for no game (the setup page's test rolls, src/setup/test-rolls.ts):
   * the tower throws `count` dice and the camera's frame is read, under the
   * tower's lock, so it never mixes with a game's roll. Nothing is recorded.
   */
  async throwForTest(count: number): Promise<{ readonly image: Buffer; readonly reading: DiceReading }> {
    if (this.rollingFor !== null) throw new TableError('tower/busy', 'The tower is rolling for a game; try the test roll when it is done.', 409);
    this.rollingFor = TEST_ROLL;
    try {
      this.setTower('rolling', `Test roll: ${count} ${count === 1 ? 'die' : 'dice'}`, null);
      await this.rollingTower.roll(count);
      const frame = await this.deps.camera.capture();
      const reading = await this.deps.reader.read(frame, count);
      // The tray has changed: the next game's no-tumble check compares with this frame.
      this.lastSeen = reading;
      this.setTower('ready', 'Tower ready', null);
      return { image: frame.image, reading };
    } catch (err) {
      const message = `Test roll failed: ${errorText(err)}`;
      this.setTower('fault', message, null);
      throw new TableError('tower/fault', message, 503, { error: errorText(err) });
    } finally {
      this.rollingFor = null;
    }
  }

  /**
   * A test tip of the tray (the setup page, src/setup/board.ts) under the
   * tower's lock: no roll starts while the tray moves, and the tower is not
   * swapped under it (a disconnect is refused until the tray is back).
   * Rejects with `tip`'s own error.
   */
  async tipForTest(tip: () => Promise<void>): Promise<void> {
    if (this.rollingFor !== null) throw new TableError('setup/tower_rolling', 'The tower is rolling: test the tip once the roll is read.', 409);
    this.rollingFor = TEST_TIP;
    try {
      this.setTower('rolling', 'Test tip', null);
      await tip();
      this.setTower('ready', 'Tower ready', null);
    } catch (err) {
      this.setTower('fault', `Test tip failed: ${errorText(err)}`, null);
      throw err;
    } finally {
      this.rollingFor = null;
    }
  }

  /**
   * The camera frame of a recorded roll, while it is kept. The frame of a
   * secret roll is shown only to the seat that threw it (`seat`, already
   * checked against its token).
   */
  frame(id: string, seq: number, seat: number | null = null): Buffer {
    const game = this.get(id);
    const roll = game.rolls[seq - 1];
    if (roll?.request.secret && roll.request.player !== seat) {
      throw new TableError('table/secret_frame', `Roll ${seq} was a secret throw; only its player sees its frame.`, 403);
    }
    const frame = this.frames.get(game.id)?.get(seq) ?? this.storedFrame(game.id, seq);
    if (!frame) throw new TableError('table/frame_not_found', `Roll ${seq} of game '${id}' has no camera frame kept.`, 404);
    return frame;
  }

  private apply(
    game: TableGame,
    action: { type: string },
    roll: (Omit<RollRecord, 'seq' | 'at'> & { frame: Buffer | null }) | null,
  ): TableGame {
    if (game.ended) throw endedError(game);
    const next = this.definition(game).apply(game.state, action);
    if (isInvalid(next)) throw new TableError(next.code, next.message, 409);
    const at = this.now();
    let rolls = game.rolls;
    if (roll) {
      const { frame, ...rest } = roll;
      const seq = game.rolls.length + 1;
      const record: RollRecord = { ...rest, seq, at };
      this.record((store) => {
        const path = frame ? store.saveFrame(game.id, seq, frame) : null;
        store.appendEvent({ gameId: game.id, type: 'game/roll', at, payload: { roll: record, frame: path } });
      });
      rolls = [...rolls, record];
      if (frame) this.keepFrame(game.id, seq, frame);
    } else {
      this.record((store) =>
        store.appendEvent({ gameId: game.id, type: 'game/action', at, payload: { action: action as { type: string } & Record<string, unknown> } }),
      );
    }
    const updated: TableGame = { ...game, state: next, actions: [...game.actions, action], rolls, version: game.version + 1, updatedAt: at };
    this.games.set(game.id, updated);
    // A bot move armed for the old state is void; the new state decides who moves next.
    this.cancelBotMove(game.id);
    if (this.rollAfterReconnect?.id === game.id) this.rollAfterReconnect = null;
    this.emit({ type: 'game', game: updated });
    this.wakeBot(game.id);
    return updated;
  }

  /** A frame from the store (rolls from before a restart, or older than the ones kept in memory). */
  private storedFrame(id: string, seq: number): Buffer | undefined {
    try {
      return this.deps.store?.readFrame(`frames/${id}/${seq}.jpg`);
    } catch {
      return undefined;
    }
  }

  private keepFrame(id: string, seq: number, frame: Buffer): void {
    const frames = this.frames.get(id) ?? new Map<number, Buffer>();
    frames.set(seq, frame);
    for (const old of frames.keys()) if (old <= seq - FRAMES_KEPT) frames.delete(old);
    this.frames.set(id, frames);
  }

  /** `rollFault`: the status reports the failed roll of game `gameId` (typing its dice in settles it), not the tower's state. */
  private setTower(state: TowerState, message: string, gameId: string | null, rollFault = false): void {
    this.rollFaultFor = rollFault ? gameId : null;
    this.towerStatus = { kind: this.rollingTower.kind, state, message, gameId };
    this.emit({ type: 'tower', status: this.towerStatus });
  }

  /** Dice typed in for a game whose tower roll failed settle that roll: the scoreboard no longer shows its fault. */
  private afterManualRoll(id: string, game: TableGame): TableGame {
    if (this.rollFaultFor === id) this.setTower('ready', 'Tower ready', null);
    return game;
  }

  private emit(event: TableEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  // --- Audit: the no-roll check, corrections, export and import -------------------------------------

  /** The last frame the camera read (any game, valid or not): the tray as it was before the next throw. */
  private lastSeen: SeenFrame | null = null;

  /** The no-roll check: why this throw must be made again (the dice did not tumble), or null. */
  private noTumble(reading: DiceReading): string | null {
    const stuck = didNotTumble(this.lastSeen, reading);
    this.lastSeen = reading;
    return stuck ? NO_TUMBLE_PROBLEM : null;
  }

  /**
   * Corrects roll `seq` of a game to `values` (a die the camera misread). The
   * roll keeps its reading; a `game/correction` event records who, when and
   * why; the game is derived again by replay with the corrected values. When a
   * later move becomes illegal with the new values (a score that needs the old
   * dice), the correction is refused with that move named and nothing changes.
   */
  correct(id: string, seq: number, values: readonly number[], by: string, reason: string): TableGame {
    const game = this.get(id);
    if (game.ended) throw endedError(game);
    if (this.rollingFor === id) throw new TableError('tower/busy', 'The tower is rolling for this game; correct a roll once the dice are in.', 409);
    const roll = game.rolls[seq - 1];
    if (!roll) throw new TableError('table/roll_not_found', `Game '${id}' has no roll ${seq} (it has ${game.rolls.length}).`, 404);
    if (values.length !== roll.values.length) {
      throw new TableError('table/bad_correction', `Roll ${seq} had ${roll.values.length} dice; the correction gives ${values.length} values.`, 400);
    }
    const from = effectiveValues(roll, game.corrections);
    if (from.every((v, i) => v === values[i])) throw new TableError('table/bad_correction', `Roll ${seq} already has the values ${values.join(' ')}; nothing to correct.`, 400);
    const at = this.now();
    const correction: CorrectionRecord = { roll: seq, from: [...from], values: [...values], by, reason, at };
    const def = this.definition(game);
    const steps = [...stepsOf(game), { kind: 'correction', correction, at } as const];
    const replayed = replay(def, game.players, game.options, steps, game.createdAt);
    if (replayed.problem) {
      const refused = steps[replayed.problem.index];
      const what = refused?.kind === 'action' ? `the later move '${describeAction(refused.action)}'` : refused?.kind === 'roll' ? `roll ${refused.roll.seq}` : 'a later step';
      throw new TableError(
        'table/correction_conflicts',
        `Correcting roll ${seq} to ${values.join(' ')} would make ${what} illegal (${replayed.problem.message}); the correction is refused and nothing changed.`,
        409,
      );
    }
    this.record((store) => store.appendEvent({ gameId: game.id, type: 'game/correction', at, payload: { roll: seq, from: correction.from, values: correction.values, by, reason } }));
    return this.replaced(game, replayed, at);
  }

  /**
   * Takes back the last decision (`table-undo.ts` says which decisions and
   * when it is refused): recorded as a `game/undo` event naming them, so the
   * log keeps them; the game is derived again by replay without them. With
   * `throughBots` a bot's moves are taken back with the person's move before them.
   */
  undo(id: string, by: string, throughBots = true): { game: TableGame; undone: readonly UndoDecision[] } {
    const game = this.get(id);
    if (game.ended) throw endedError(game);
    if (this.rollingFor === id) throw new TableError('tower/busy', 'The tower is rolling for this game; undo once the dice are in.', 409);
    const def = this.definition(game);
    const plan = planUndo(def, game, stepsOf(game), throughBots);
    if ('refused' in plan) throw new TableError(plan.refused.code, plan.refused.message, 409);
    const at = this.now();
    const undo = { undone: plan.undone.map(({ seat, action }) => ({ seat, action: action as { type: string } & Record<string, unknown> })), by };
    const replayed = replay(def, game.players, game.options, [...stepsOf(game), { kind: 'undo', undo, at }], game.createdAt);
    if (replayed.problem) throw new TableError('table/undo_failed', `The undo cannot be replayed (${replayed.problem.message}); nothing changed.`, 409);
    this.record((store) => store.appendEvent({ gameId: game.id, type: 'game/undo', at, payload: undo }));
    return { game: this.replaced(game, replayed, at), undone: plan.undone };
  }

  /**
   * Ends a game without a result (abandoned, put away): a `game/ended` event;
   * the game stays on record and in the history, and nothing more is played in it.
   */
  end(id: string, by: string, reason: string): TableGame {
    const game = this.get(id);
    if (game.ended) throw endedError(game);
    if (this.rollingFor === id) throw new TableError('tower/busy', 'The tower is rolling for this game; end it once the dice are in.', 409);
    const result = this.definition(game).result(game.state);
    if (result) throw new TableError('table/game_over', 'This game is already over with a result; there is nothing to end.', 409);
    const at = this.now();
    this.record((store) => store.appendEvent({ gameId: game.id, type: 'game/ended', at, payload: { by, reason } }));
    const updated: TableGame = { ...game, ended: { by, reason, at }, version: game.version + 1, updatedAt: at };
    this.games.set(game.id, updated);
    this.cancelBotMove(game.id);
    this.emit({ type: 'game', game: updated });
    return updated;
  }

  /** Drops a bot move waiting for its delay in this game (one already moving checks the version itself). */
  private cancelBotMove(id: string): void {
    const pending = this.botTimers.get(id);
    if (pending && pending !== 'moving') {
      clearTimeout(pending.timer);
      this.botTimers.delete(id);
    }
  }

  /** Puts a re-derived game in place of the old one (one version up) and tells everyone. */
  private replaced(game: TableGame, replayed: { state: unknown; actions: ReadonlyArray<{ type: string }>; corrections: readonly CorrectionRecord[] }, at: number): TableGame {
    const updated: TableGame = { ...game, state: replayed.state, actions: [...replayed.actions], corrections: replayed.corrections, version: game.version + 1, updatedAt: at };
    this.games.set(game.id, updated);
    this.cancelBotMove(game.id);
    this.emit({ type: 'game', game: updated });
    this.wakeBot(game.id);
    return updated;
  }

  /** Games whose record the check at start could not vouch for (changed outside dice-tower); see `markUnverified`. */
  private readonly unverified = new Set<string>();

  /**
   * Marks games whose record was changed outside dice-tower (the record check
   * at start, run by the server): the API shows them as unverified and they
   * are never exported, since an export would chain the changed events afresh
   * and make them look sound.
   */
  markUnverified(ids: Iterable<string>): void {
    for (const id of ids) this.unverified.add(id);
  }

  isUnverified(id: string): boolean {
    return this.unverified.has(id);
  }

  /** The game's events as recorded, chained for export, with where the whole log ends. Needs the store (the record is what is exported). */
  exportGame(id: string): GameExport {
    const game = this.get(id);
    if (this.unverified.has(game.id)) {
      throw new TableError('record/unverified', `Game '${game.id}' is not exported: its record was changed outside dice-tower (see /api/health), and an export would chain the changed events afresh.`, 409);
    }
    const store = this.deps.store;
    const stored = store?.loadGame(game.id);
    if (!store || !stored) throw new TableError('table/no_record', 'This server keeps no record of its games (no data directory), so there is nothing to export.', 409);
    return buildExport(game.id, [stored.created, ...stored.steps], this.now(), store.head());
  }

  /**
   * Adds a game from an export (made by `exportGame`, here or on another
   * server): checks its hash chain, replays it under the rules (every step must
   * still be legal), records all its events in one transaction, and shows it.
   * It keeps its id; a game with that id already here is refused.
   */
  importGame(exp: GameExport): TableGame {
    const problem = exportProblem(exp);
    if (problem) throw new TableError('import/tampered', `The export does not hold together: ${problem}.`, 422);
    const [first, ...rest] = exp.events;
    if (first?.type !== 'game/created') throw new TableError('import/tampered', 'The export does not start with its game/created event.', 422);
    if (this.games.has(exp.gameId)) throw new TableError('import/duplicate_game', `A game with id '${exp.gameId}' is already here; it was imported before.`, 409);
    const { game: gameId, players, bots, botLevels, options } = first.payload;
    const def = this.findGame(gameId);
    if (!def) throw new TableError('import/unknown_game', `The export is a game of '${gameId}', which this server does not have.`, 422);
    const steps = rest.map((e) => {
      if (e.type === 'game/created') throw new TableError('import/tampered', `Event ${e.n} is a second game/created.`, 422);
      return replayStep(e);
    });
    let replayed: ReturnType<typeof replay>;
    try {
      replayed = replay(def, players, options, steps, first.at);
    } catch (err) {
      // The route's schema checks the events' shape; a rule that still trips over one is refused, not a crash.
      throw new TableError('import/bad_event', `The export cannot be replayed: ${errorText(err)}; nothing was imported.`, 422);
    }
    if (replayed.problem) {
      const n = replayed.problem.index < 0 ? 1 : replayed.problem.index + 2;
      throw new TableError('import/refused_by_rules', `Event ${n} of the export is refused by the rules of ${def.name} (${replayed.problem.message}); nothing was imported.`, 422);
    }
    const imported = { at: this.now(), head: exp.head };
    const events: NewEvent[] = [
      { gameId: exp.gameId, type: 'game/created', at: first.at, payload: { ...first.payload, imported } },
      // Frames are not part of an export: imported rolls have their readings but no pictures.
      ...rest.map((e) => (e.type === 'game/roll' ? { gameId: exp.gameId, type: e.type, at: e.at, payload: { ...e.payload, frame: null } } : { gameId: exp.gameId, type: e.type, at: e.at, payload: e.payload }) as NewEvent),
    ];
    this.record((store) => store.appendEvents(events));
    const game: TableGame = {
      id: exp.gameId, game: gameId, players: [...players], bots: [...bots], botLevels: levelsOf(bots, botLevels), options, state: replayed.state, actions: [...replayed.actions], rolls: replayed.rolls,
      corrections: replayed.corrections, version: replayedVersion(replayed), createdAt: first.at, updatedAt: replayed.updatedAt, ...(replayed.ended ? { ended: replayed.ended } : {}),
    };
    this.games.set(game.id, game);
    this.seatTokens.set(game.id, game.players.map(() => randomBytes(18).toString('base64url')));
    this.emit({ type: 'game', game });
    return game;
  }

  /** The server runs on record (the history groups games by them); none without a store. */
  sessions(): Array<{ id: number; startedAt: number; version: string }> {
    return this.deps.store?.sessions() ?? [];
  }
}

/** A stored (or exported) step as replay takes it. */
type StepEvent = { [T in Exclude<EventType, 'game/created'>]: { readonly type: T; readonly payload: PayloadByType[T]; readonly at: number } }[Exclude<EventType, 'game/created'>];

function replayStep(step: StepEvent): ReplayStep {
  switch (step.type) {
    case 'game/action':
      return { kind: 'action', action: step.payload.action, at: step.at };
    case 'game/roll':
      return { kind: 'roll', roll: step.payload.roll, at: step.at };
    case 'game/correction':
      return { kind: 'correction', correction: { ...step.payload, at: step.at }, at: step.at };
    case 'game/undo':
      return { kind: 'undo', undo: step.payload, at: step.at };
    case 'game/ended':
      return { kind: 'ended', ended: step.payload, at: step.at };
  }
}

/** The refusal of anything played in a game that was ended without a result. */
function endedError(game: TableGame): TableError {
  return new TableError('table/game_ended', `This game was ended by ${game.ended?.by ?? 'the operator'} without a result; nothing more can be played, corrected or undone in it.`, 409);
}

/** A game's steps from memory: its actions (rolls by their records) and its corrections. Times of actions are not kept: the game's. */
function stepsOf(game: TableGame): ReplayStep[] {
  let k = 0;
  const steps: ReplayStep[] = game.actions.map((action) => {
    if (action.type !== 'roll') return { kind: 'action', action, at: game.updatedAt };
    const roll = game.rolls[k++] as RollRecord;
    return { kind: 'roll', roll, at: roll.at };
  });
  return [...steps, ...game.corrections.map((correction) => ({ kind: 'correction', correction, at: correction.at }) as const)];
}

/** "score fullHouse", "hold 0,2": an action as the refusal names it. */
function describeAction(action: { type: string }): string {
  const args = Object.entries(action).filter(([k]) => k !== 'type').map(([, v]) => (Array.isArray(v) ? v.join(',') : String(v)));
  return [action.type, ...args].join(' ');
}

/** The result of a game, when it is over. */
export function gameResult(table: Table, game: TableGame): GameResult | null {
  return table.definition(game).result(game.state);
}
