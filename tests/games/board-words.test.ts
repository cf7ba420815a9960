/**
 * The boards' words in every language (#46): each game's board sends, beside its English, its status as a text key
 * (`say`), its columns, panels and items by id and its worded values as text keys; the page words them from
 * i18n/*.json (board-words.js). Every game is played by its bots, and every key its boards use must have words in
 * each language, with every {parameter} filled, and in English the same words as the server's.
 */
import { describe, expect, it } from 'vitest';
import { GAMES, isInvalid, type AnyGameDef, type Board, type BoardText } from '../../src/games/index.js';
import { lookup, translate } from '../../src/api/public/i18n-core.js';
import en from '../../src/api/public/i18n/en.json' with { type: 'json' };
import fi from '../../src/api/public/i18n/fi.json' with { type: 'json' };
import cs from '../../src/api/public/i18n/cs.json' with { type: 'json' };
import el from '../../src/api/public/i18n/el.json' with { type: 'json' };

const LANGS = { en, fi, cs, el } as const;
type Action = { type: string } & Record<string, unknown>;

/** Games whose options change the board's words: played with them too (`seats`: how many players, where the options say). */
const VARIANTS: Partial<Record<keyof typeof GAMES, Array<Record<string, unknown>>>> = {
  'aces-in-the-pot': [{ potsToWin: 2 }],
  'drop-dead': [{ endTie: 'rollOff' }],
  'las-vegas': [{ mode: 'solo', seats: 1 }, { mode: 'secretColours' }, { chaserDice: true, bonusCards: true, actionCards: true }],
  sevens: [{ targetScore: 150 }],
  'shut-the-box': [{ closeRule: 'anyCombination', endTie: 'noWinner' }],
  'ten-thousand': [{ breakRule: true }],
  bouncer: [{ endTie: 'noWinner' }],
};

/** Every public board of a game played by its bots (seeded), from the set-up to its end. */
function boardsOf(def: AnyGameDef, { seats, ...options }: Record<string, unknown>, seed: number): Board[] {
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const players = Array.from({ length: typeof seats === 'number' ? seats : Math.max(def.minPlayers, Math.min(3, def.maxPlayers)) }, (_, i) => `P${i}`);
  let state = def.setup(players, options);
  const boards = [def.board(def.playerView(state, null))];
  for (let i = 0; i < 2000 && !def.result(state); i++) {
    const request = def.diceRequest(state);
    const roll = request ? { type: 'roll', values: Array.from({ length: request.count }, () => 1 + Math.floor(random() * 6)), ...(request.dice ? { dice: request.dice } : {}) } : null;
    // A bot with nothing to decide leaves the throw to the table.
    const action = (roll && (def.legalActions(state).every((a: Action) => a.type === 'roll') || random() < 0.5) ? roll : (def.bot(state, random) ?? roll)) as Action | null;
    if (!action) break;
    const next = def.apply(state, action);
    if (isInvalid(next)) break;
    state = next;
    boards.push(def.board(def.playerView(state, null)));
  }
  return boards;
}

/** The key of a column, panel or item: the game's own words, else the shared ones (as board-words.js looks them up). */
const labelKey = (game: string, kind: string, id: string): string | null =>
  [`games.${game}.${kind}.${id}`, `board.${kind}.${id}`].find((key) => lookup(en, key) !== undefined) ?? null;

describe('board words', () => {
  it('every game played by its bots: every status, column, panel, item and worded value has words in every language, the English the server\'s', () => {
    const problems = new Set<string>();
    const seen = new Set<string>();
    for (const [id, def] of Object.entries(GAMES) as Array<[keyof typeof GAMES, AnyGameDef]>) {
      for (const options of [{}, ...(VARIANTS[id] ?? [])]) {
        for (const seed of [7, 11, 23]) {
          for (const board of boardsOf(def, options, seed)) {
            // One check for each text: a key with words, every parameter filled in, in English the server's words.
            const check = (what: string, key: string | null, params: BoardText['params'], english: string | null) => {
              if (key === null) return void problems.add(`${id}: ${what} has no key`);
              seen.add(key);
              for (const [lang, texts] of Object.entries(LANGS)) {
                const node = lookup(texts, key);
                if (typeof node !== 'string' && typeof (node as { other?: unknown } | undefined)?.other !== 'string') problems.add(`${id}: ${key} has no words in ${lang}`);
                else if (/\{\w+\}|\b(games|board|bluff)\.\w/.test(translate(texts, {}, lang, key, params))) problems.add(`${id}: ${key} leaves a parameter or key unworded in ${lang}`);
              }
              const words = translate(en, en, 'en', key, params);
              if (english !== null && words !== english) problems.add(`${id}: ${key} says "${words}" in English, the server "${english}"`);
            };
            check('status', board.say.key, board.say.params, board.status);
            if (board.kind === 'table') for (const c of board.columns) check(`column ${c.id}`, labelKey(id, 'columns', c.id), {}, c.label);
            for (const panel of board.panels) {
              check(`panel ${panel.id}`, labelKey(id, 'panels', panel.id), panel.params ?? {}, panel.label);
              for (const item of panel.items) {
                check(`item ${item.id} of ${panel.id}`, labelKey(id, 'items', item.id), item.params ?? {}, item.label);
                if (item.valueSay && item.value !== null && item.value !== undefined) check(`value of ${item.id}`, item.valueSay.key, item.valueSay.params, String(item.value));
              }
            }
          }
        }
      }
    }
    expect([...problems].sort()).toEqual([]);
    // The bots reached the ends of games, a shared status and a game's own, worded values.
    expect([...seen]).toEqual(expect.arrayContaining(['board.status.gameOver', 'board.status.gameOverWins', 'games.shut-the-box.status.close', 'games.bluff.status.raiseOrChallenge', 'bluff.bidFaces', 'board.values.of']));
  });
});
