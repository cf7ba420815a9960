// Which sound a change of a game calls for (issue #46): pure, so the tests run it on real table views.

/**
 * The cue a change of `game` calls for: a new roll, the end, or a decision
 * (a step that is not a roll); null for none, the first look, or a change
 * that is no move (a correction, an undo).
 */
export function cueFor(before, game) {
  if (!before || game.version <= before.version) return null;
  if (game.result && !before.over) return 'win';
  if (game.rollCount > before.rollCount) return 'roll';
  return !game.result && game.stepCount > before.stepCount ? 'score' : null;
}
