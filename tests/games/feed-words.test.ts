/** The table feed: a game's recent steps as text keys and parameters, from its actions, put in English words as the page does. */
import { describe, expect, it } from 'vitest';
import { GAMES, isInvalid, type AnyGameDef } from '../../src/games/index.js';
import { feedProgress, tableFeed, type FeedEntry } from '../../src/games/feed-words.js';
import { translate } from '../../src/api/public/i18n-core.js';
import en from '../../src/api/public/i18n/en.json' with { type: 'json' };
import fi from '../../src/api/public/i18n/fi.json' with { type: 'json' };
import el from '../../src/api/public/i18n/el.json' with { type: 'json' };

const words = (e: FeedEntry) => translate(en, en, 'en', e.key, e.params);

const def = (id: keyof typeof GAMES) => GAMES[id] as AnyGameDef;
type Action = { type: string } & Record<string, unknown>;
const roll = (...values: number[]): Action => ({ type: 'roll', values });
const texts = (id: keyof typeof GAMES, players: string[], actions: Action[], secret = false, bots: number[] = []) =>
  tableFeed(def(id), { players, bots, options: {}, actions, rolls: actions.filter((a) => a.type === 'roll').map(() => ({ request: { secret } })) }, 20).map(words);

describe('table feed', () => {
  it('scorecard games: the row, its points and the dice; holds left out', () => {
    const feed = tableFeed(def('yatzy'), { players: ['Robo', 'Ben'], bots: [0], options: {}, actions: [roll(6, 6, 6, 5, 2), { type: 'hold', dice: [0, 1, 2] }, { type: 'score', category: 'chance' }] as Action[], rolls: [{ request: { secret: false } }] }, 8);
    expect(feed.map(words)).toEqual(['Robo threw 6 6 6 5 2', 'Robo scored 25 in Chance with 6 6 6 5 2']);
    expect(feed[1]).toMatchObject({ key: 'feed.scoredWith', params: { name: 'Robo', count: 25, row: { key: 'games.yatzy.rows.chance', params: {} }, dice: '6 6 6 5 2' } });
    // The row by its id, in each language's usual name; one point is singular where the language says so.
    expect(translate(fi, en, 'fi', feed[1]!.key, feed[1]!.params)).toBe('Robo: 25 pistettä riville Sattuma nopilla 6 6 6 5 2');
    expect(translate(fi, en, 'fi', 'feed.scored', { name: 'Robo', count: 1, row: { key: 'games.yatzy.rows.ones', params: {} } })).toBe('Robo: 1 piste riville Ykköset');
    expect(translate(el, en, 'el', 'feed.scored', { name: 'Robo', count: 1, row: 'x' })).toBe('Robo: 1 πόντος στο x');
    expect(feed[1]).toMatchObject({ seat: 0, bot: true, n: 3 });
  });

  it('Shut the Box: the boxes shut', () => {
    expect(texts('shut-the-box', ['Ann', 'Ben'], [roll(6, 3), { type: 'close', boxes: [3, 6] }])).toEqual(['Ann threw 6 3', 'Ann shut 3 and 6']);
  });

  it('Mexico: who stopped, and who lost a life', () => {
    const feed = texts('mexico', ['Ann', 'Ben'], [roll(6, 5), { type: 'stop' }, roll(3, 1), { type: 'stop' }]);
    expect(feed).toEqual(['Ann threw 6 5', 'Ann stopped', 'Ben threw 3 1', 'Ben stopped', 'Ben lost a life']);
  });

  it('Bluff: secret throws stay secret; bids and the challenge in words', () => {
    const actions = [roll(1, 2, 3, 4, 5, 5), roll(2, 2, 3, 3, 6, 5), { type: 'bid', position: 4, face: 5 }, { type: 'challenge' }];
    const feed = texts('bluff', ['Anna', 'Ben'], actions, true);
    expect(feed.slice(0, 3)).toEqual(['Anna threw in secret', 'Ben threw in secret', 'Anna bid 3 × 5']);
    expect(feed[3]).toBe("Ben doubted Anna's 3 × 5: there were 4"); // two 5s, one 5 and one star (6)
    expect(feed.slice(4).join(' ')).toMatch(/lost|gained/);
  });

  it('the games without a describer: each decision in words of its kind and parameters, never the developer\'s', () => {
    expect(texts('ten-thousand', ['Ann', 'Ben'], [roll(1, 5, 2, 3, 4, 6), { type: 'keep', dice: [0, 1] }])).toEqual(['Ann threw 1 5 2 3 4 6', 'Ann set aside 1 5']);
    expect(texts('ten-thousand', ['Ann', 'Ben'], [roll(1, 5, 2, 3, 4, 6), { type: 'keep', dice: [0] }, { type: 'bank' }]).slice(2)).toEqual(["Ann banked the turn's points"]);
    const fiWords = (e: FeedEntry) => translate(fi, en, 'fi', e.key, e.params);
    const feed = tableFeed(def('ten-thousand'), { players: ['Ann', 'Ben'], bots: [], options: {}, actions: [roll(1, 5, 2, 3, 4, 6), { type: 'keep', dice: [0, 1] }], rolls: [{ request: { secret: false } }] }, 8);
    expect(feed[1]).toMatchObject({ key: 'feed.moves.keep', params: { name: 'Ann', dice: '1 5' } });
    expect(fiWords(feed[1]!)).toBe('Ann otti sivuun 1 5');
  });

  it('every game played by its bots: every line has words of its own in every language (no "Ann: bank")', () => {
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const missing = new Set<string>();
    const seen = new Set<string>();
    for (const [id, d] of Object.entries(GAMES) as Array<[keyof typeof GAMES, AnyGameDef]>) {
      const players = Array.from({ length: Math.max(d.minPlayers, 2) }, (_, i) => `P${i}`);
      let state = d.setup(players, {});
      const actions: Action[] = [];
      const rolls: Array<{ request: { secret: boolean } }> = [];
      for (let i = 0; i < 300 && !d.result(state); i++) {
        const request = d.diceRequest(state);
        const action = (request && (d.legalActions(state).every((a: Action) => a.type === 'roll') || random() < 0.5)
          ? { type: 'roll', values: Array.from({ length: request.count }, () => 1 + Math.floor(random() * 6)), ...(request.dice ? { dice: request.dice } : {}) }
          : d.bot(state, random)) as Action | null;
        if (!action) break;
        const next = d.apply(state, action);
        if (isInvalid(next)) break;
        if (action.type === 'roll') rolls.push({ request: { secret: request?.secret === true } });
        actions.push(action);
        state = next;
      }
      for (const e of tableFeed(d, { players, bots: [], options: {}, actions, rolls }, 1000)) {
        if (e.key === 'feed.move') missing.add(`${id}: ${String(e.params.move)}`);
        for (const [lang, texts] of Object.entries({ en, fi, el })) if (/\b(feed|games)\.\w/.test(translate(texts, {}, lang, e.key, e.params))) missing.add(`${id}: ${e.key} in ${lang}`);
        seen.add(e.key);
      }
    }
    expect([...missing]).toEqual([]);
    // The bots reached the common words and a scorecard row (the check above saw them).
    expect([...seen]).toEqual(expect.arrayContaining(['feed.moves.bank', 'feed.moves.stand', 'feed.moves.stop', 'feed.moves.hold', 'feed.moves.accept', 'feed.scoredWith']));
  });

  it('goes on from where it got to, one step at a time, to the same words as from the start; starts again when the actions changed', () => {
    const actions = [roll(6, 5), { type: 'stop' }, roll(3, 1), { type: 'stop' }, roll(2, 1), { type: 'stop' }, roll(4, 4)];
    const game = (n: number) => ({ players: ['Ann', 'Ben'], bots: [], options: {}, actions: actions.slice(0, n), rolls: actions.slice(0, n).filter((a) => a.type === 'roll').map(() => ({ request: { secret: false } })) });
    let progress = null;
    for (let n = 0; n <= actions.length; n++) progress = feedProgress(def('mexico'), game(n), progress, 8);
    expect(progress?.entries).toEqual(tableFeed(def('mexico'), game(actions.length), 8));
    // Taken back (an undo): shorter actions start again.
    expect(feedProgress(def('mexico'), game(3), progress, 8)?.entries).toEqual(tableFeed(def('mexico'), game(3), 8));
  });
});
