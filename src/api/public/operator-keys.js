// The operator's keys on the scoreboard: R rolls, 1-9 hold or release a die, as their buttons do (not while typing;
// Z, undo, is game-controls.js's).
import { $ } from './dom.js';

/** Listens once. `ctx`: `shownGame()`, `roll(game)`. */
export function wireOperatorKeys(ctx) {
  document.addEventListener('keydown', (e) => {
    const target = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    const game = ctx.shownGame();
    if (!game || $('game').hidden) return;
    if (e.key === 'r' || e.key === 'R') {
      if (!$('roll-button').disabled) ctx.roll(game);
    } else if (/^[1-9]$/.test(e.key)) {
      const die = document.querySelector(`[data-testid="die-${Number(e.key) - 1}"]`);
      if (die && !die.disabled) die.click();
    }
  });
}
