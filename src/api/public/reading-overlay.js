// The camera frame's annotations: each die's box as the camera read it, with
// its value, drawn as SVG over the <img> (client-side, from the reading).
// Shared by the scoreboard, the history screen and the overlay.

import { s } from './dom.js';

/** A die's box, `[x1, y1, x2, y2, …]` (frame pixels, as the API sends it), as its corners. */
export function corners(box) {
  const points = [];
  for (let i = 0; i + 1 < box.length; i += 2) points.push({ x: box[i], y: box[i + 1] });
  return points;
}

/**
 * Draws the outlines of `reading.dice` into `svg` (viewBox = frame pixels),
 * each die's label centred over its box. `values` (optional) are the values
 * the game uses, when a correction changed them: a corrected die shows
 * "read → corrected".
 */
export function drawOutlines(svg, reading, slots = [], values = null) {
  const width = reading?.width || 1280;
  const height = reading?.height || 720;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const font = Math.round(height * 0.075);
  const outlines = (reading?.dice ?? []).map((d, i) => {
    const box = corners(d.box);
    const points = box.map((p) => `${p.x},${p.y}`).join(' ');
    const top = Math.min(...box.map((p) => p.y));
    const bottom = Math.max(...box.map((p) => p.y));
    const centre = box.reduce((sum, p) => sum + p.x, 0) / box.length;
    // Label above the die, or below it when the die touches the top edge.
    const above = top - font * 0.3 > font;
    const y = above ? top - font * 0.3 : bottom + font * 1.05;
    const used = values?.[i];
    const corrected = used !== undefined && used !== null && used !== d.value;
    const label = d.value === null ? '?' : corrected ? `${d.value}→${used}` : String(d.value);
    return s(
      'g',
      { class: `outline${d.value === null ? ' unread' : ''}${corrected ? ' corrected' : ''}`, 'data-testid': 'die-outline', 'data-value': d.value ?? '', 'data-slot': slots[i] ?? '' },
      s('polygon', { points }),
      s('text', { x: centre.toFixed(1), y: y.toFixed(1), 'font-size': font }, label),
    );
  });
  svg.replaceChildren(...outlines);
  svg.dataset.count = String(outlines.length);
  return { width, height };
}
