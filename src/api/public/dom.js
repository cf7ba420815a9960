// Small DOM helpers shared by the pages: elements built in one call (h, s), a page's element by id ($), the die's pips.

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

/** The page's element with this id; a missing one is a mistake in the page's HTML, named at once. */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from the page`);
  return el;
}
