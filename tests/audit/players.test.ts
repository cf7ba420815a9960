/** Players across games, tallied from the games themselves. */
import { describe, expect, it } from 'vitest';
import { playerDetail, playerList, type PlayedGame } from '../../src/audit/players.js';

const game = (id: string, over: Partial<PlayedGame> = {}): PlayedGame => ({
  id, game: 'yatzy', name: 'Yatzy', lowScoreWins: false, players: ['Ann', 'Ben'], bots: [], createdAt: Number(id), updatedAt: Number(id), result: null, ended: false, ...over,
});

describe('players', () => {
  const games = [
    game('1', { result: { winners: [0], scores: [250, 180] } }),
    game('2', { players: [' ann ', 'Ben'], result: { winners: [1], scores: [210, 230] } }),
    game('3', { game: 'shut-the-box', name: 'Shut the Box', lowScoreWins: true, players: ['Ben', 'Ann', 'Robo'], bots: [2], result: { winners: [1], scores: [12, 3, 20] } }),
    game('4', { game: 'shut-the-box', name: 'Shut the Box', lowScoreWins: true, players: ['Ann', 'Cy'], result: { winners: [1], scores: [9, 5] } }),
    game('5', { players: ['Ann', 'Cy'], ended: true }),
    game('6', { players: ['Dee', 'Ann'] }),
  ];

  it('lists every person who sat at a game, the last to play first; bots are not players', () => {
    const list = playerList(games);
    expect(list.map((p) => p.name)).toEqual(['Ann', 'Dee', 'Cy', 'Ben']);
    expect(list[0]).toEqual({ name: 'Ann', games: 6, finished: 4, wins: 2, lastPlayedAt: 6 });
  });

  it('gives one player games, wins and best scores per game (the lowest where the lowest wins)', () => {
    const ann = playerDetail(games, ' ANN')!;
    expect(ann.byGame).toEqual([
      { game: 'yatzy', name: 'Yatzy', played: 4, finished: 2, wins: 1, best: 250, lowWins: false },
      { game: 'shut-the-box', name: 'Shut the Box', played: 2, finished: 2, wins: 1, best: 3, lowWins: true },
    ]);
    expect(ann.recent.map((r) => [r.id, r.state, r.won])).toEqual([['6', 'playing', false], ['5', 'ended', false], ['4', 'over', false], ['3', 'over', true], ['2', 'over', false], ['1', 'over', true]]);
    expect(playerDetail(games, 'Robo')).toBeNull();
  });
});
