// Small DOM helpers shared by the trust screens (history, overlay, the scoreboard's trust panels).

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** Pip positions of each face on a 100×100 die. */
export const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 28], [72, 28], [28, 50], [72, 50], [28, 72], [72, 72]],
};

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'object' ? c : String(c))));
  return el;
}

/** An HTML element: attributes (on* are listeners; null/false left out) and children (strings or nodes). */
export const h = (tag, attrs = {}, ...children) => build(document.createElement(tag), attrs, children);

/** The same for SVG. */
export const s = (tag, attrs = {}, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

/** A die face showing `value` (none: a blank face). */
export const dieFace = (value, className = '') =>
  s('svg', { viewBox: '0 0 100 100', class: className, 'data-value': value ?? '' }, s('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16 }), ...(PIPS[value] ?? []).map(([cx, cy]) => s('circle', { cx, cy, r: 9.5 })));
