/**
 * How many three-player Busted games ever reach a position the coach has
 * solved (two players left, no part placement outside the prison), and how
 * many of those give the coach a decision to review (throw again or stop)?
 * Games played by the game's own bot with seeded dice (COACH.md, Busted).
 *
 *   npx tsx scripts/busted-endgame-share.ts [GAMES] [COUNTERS]   (default: 1000 games, 30 counters each)
 */
import { bustedCoach } from '../src/coach/busted.js';
import { findGame } from '../src/games/index.js';
import { BUSTED_DEFAULT_OPTIONS, type BustedState } from '../src/games/busted.js';
import { SeededRandom } from '../src/hardware/index.js';
import { playGame } from './bench/bot-games.js';

const [gamesText = '1000', countersText = String(BUSTED_DEFAULT_OPTIONS.countersPerPlayer)] = process.argv.slice(2);
const games = Number(gamesText);
const counters = Number(countersText);
if (!Number.isInteger(games) || games < 1) throw new Error(`GAMES must be a whole number of at least 1, got '${gamesText}'`);
if (!Number.isInteger(counters) || counters < 1) throw new Error(`COUNTERS must be a whole number of at least 1, got '${countersText}'`);

const def = findGame('busted');
if (!def) throw new Error('No Busted game module');
const options = { ...BUSTED_DEFAULT_OPTIONS, countersPerPlayer: counters };
const policy = bustedCoach.restore(options, bustedCoach.solve(options));
let reached = 0;
let decided = 0;
for (let seed = 1; seed <= games; seed++) {
  let inside = false;
  let decision = false;
  playGame(def, ['A', 'B', 'C'], new SeededRandom(seed), options, (state) => {
    const s = state as BustedState;
    if (!s.over && policy.outside(s) === null) {
      inside = true;
      if (policy.decisions(s).length > 1) decision = true;
    }
    return undefined;
  });
  if (inside) reached++;
  if (decision) decided++;
}
const share = (n: number) => `${n} (${((100 * n) / games).toFixed(1)} %)`;
console.log(`Busted, 3 players, ${counters} counters each, ${games} games (seeds 1-${games}): reached a solved position ${share(reached)}; with a decision to review ${share(decided)}`);
