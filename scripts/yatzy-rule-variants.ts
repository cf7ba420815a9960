/**
 * Which Yatzy rule details give Larsson & Sjöberg's 248.63? Solves Yatzy
 * (default options) with one scoring detail changed that no option of the
 * game expresses, and prints each optimum (COACH.md, "Which rules give
 * 248.63?"). About 25 s a variant on one core.
 *
 *   npx tsx scripts/yatzy-rule-variants.ts [VARIANT ...]   (default: all)
 */
import { yatzyModel, yatzyPoints } from '../src/coach/yatzy.js';
import { solveScorecard } from '../src/coach/scorecard-solver.js';
import { faceCounts, sumOf } from '../src/games/yatzy-family-common.js';
import { YATZY_DEFAULT_OPTIONS, yatzyScore, type YatzyCategory, type YatzyOptions } from '../src/games/yatzy.js';

type Score = (dice: readonly number[], row: YatzyCategory) => number;

/** The face shown most often and how often (the higher face on a tie). */
function mostAlike(dice: readonly number[]): { face: number; n: number } {
  const counts = faceCounts(dice);
  let best = { face: 0, n: 0 };
  for (let f = 1; f <= 6; f++) if ((counts[f] ?? 0) >= best.n) best = { face: f, n: counts[f] ?? 0 };
  return best;
}

/** Two Pairs also takes four alike (4 × the face); with `five`, five alike too. */
const twoPairsFour =
  (five: boolean): Score =>
  (dice, row) => {
    const { face, n } = mostAlike(dice);
    return row === 'twoPairs' && (n === 4 || (five && n === 5)) ? 4 * face : yatzyScore(dice, row);
  };
/** Full House also takes five alike (their sum). */
const fullHouseFive: Score = (dice, row) => (row === 'fullHouse' && mostAlike(dice).n === 5 ? sumOf(dice) : yatzyScore(dice, row));
const both =
  (five: boolean): Score =>
  (dice, row) =>
    row === 'twoPairs' ? twoPairsFour(five)(dice, row) : fullHouseFive(dice, row);

const VARIANTS: Record<string, { readonly rule: string; readonly score: Score; readonly options?: Partial<YatzyOptions> }> = {
  defaults: { rule: 'the game as it is', score: yatzyScore },
  twoPairsFour: { rule: 'Two Pairs also takes four alike (4 × the face)', score: twoPairsFour(false) },
  twoPairsFourFive: { rule: 'Two Pairs also takes four or five alike (4 × the face)', score: twoPairsFour(true) },
  fullHouseFive: { rule: 'Full House also takes five alike', score: fullHouseFive },
  both: { rule: 'both: Two Pairs takes four alike, Full House five alike', score: both(false) },
  bothFive: { rule: 'both, and Two Pairs also takes five alike', score: both(true) },
  fullHouse25: { rule: "Full House scores Yahtzee's fixed 25", score: (d, r) => (r === 'fullHouse' && yatzyScore(d, r) > 0 ? 25 : yatzyScore(d, r)) },
  yatzyPlusSum: { rule: 'Yatzy scores 50 plus the dice', score: (d, r) => (r === 'yatzy' && yatzyScore(d, r) > 0 ? 50 + sumOf(d) : yatzyScore(d, r)) },
  bonus35: { rule: 'upper bonus 35 (Yahtzee) at 63', score: yatzyScore, options: { upperBonus: 35 } },
  bonusAbove63: { rule: 'upper bonus 50 only above 63', score: yatzyScore, options: { upperBonusThreshold: 64 } },
  bonusAt62: { rule: 'upper bonus 50 at 62', score: yatzyScore, options: { upperBonusThreshold: 62 } },
};

const names = process.argv.slice(2);
for (const name of names.length > 0 ? names : Object.keys(VARIANTS)) {
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`No variant '${name}'; the variants are ${Object.keys(VARIANTS).join(', ')}.`);
  const model = yatzyModel({ ...YATZY_DEFAULT_OPTIONS, ...variant.options });
  const solved = solveScorecard({ ...model, points: yatzyPoints(variant.score) });
  const optimum = (solved.values[0] as number) + model.emptyTotal;
  console.log(JSON.stringify({ variant: name, rule: variant.rule, optimum: Math.round(optimum * 1e6) / 1e6, seconds: Math.round(solved.seconds * 10) / 10 }));
}
