// Die faces drawn in SVG: the plain face the small views use (overlay, phones, the Las Vegas board) and the
// scoreboard's own, whose parts scoreboard.css styles (body, pips, a blank face, a value beyond six as its number).
import { PIPS, s } from './dom.js';

/** A die face showing `value` (none: a blank face). */
export const dieFace = (value, className = '') =>
  s('svg', { viewBox: '0 0 100 100', class: className, 'data-value': value ?? '' }, s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16 }), ...(PIPS[value] ?? []).map(([cx, cy]) => s('circle', { cx, cy, r: 9.5 })));

/** A scoreboard die showing `value`; null (not thrown, or hidden in a cup) draws a blank face. */
export function scoreboardDieFace(value) {
  const pips = PIPS[value];
  const known = value !== null && value !== undefined;
  return s(
    'svg',
    { viewBox: '0 0 100 100', class: 'die-face', 'aria-hidden': 'true' },
    s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 17, class: known ? 'die-body' : 'die-body empty' }),
    pips ? pips.map(([cx, cy]) => s('circle', { cx, cy, r: 9.5, class: 'pip' })) : known ? s('text', { x: 50, y: 53, class: 'die-number' }, String(value)) : null,
  );
}
