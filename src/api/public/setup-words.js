// The setup page's words for what the server says: a note or a refusal ({ code, message, params }, src/note.ts) in
// the page's language, by its code (i18n setup.codes, the code's '/' a '.'), else in the server's English.
import { tOr } from './i18n.js';
import { api as request } from './operator-page.js';

/** A note or refusal of the server in the page's language; the dice colours it names are named in that language too. */
export const said = (note) => tOr(`setup.codes.${note.code.replace('/', '.')}`, note.message, colourParams(note.params ?? {}));

/** The parameters naming dice colours (a note's `colour`, `colours`, `first`, `second`) in words. */
function colourParams(params) {
  const named = { ...params };
  for (const name of ['colour', 'first', 'second']) if (typeof named[name] === 'string') named[name] = colourName(named[name]);
  if (Array.isArray(named.colours)) named.colours = named.colours.map((c) => (typeof c === 'string' ? colourName(c) : c));
  return named;
}

/** A JSON request as the operator, its refusal toasted in the page's language (operator-page.js's api). */
export const api = (method, path, body) => request(method, path, body, said);

/** A colour of dice in words (the palette's name when it has none). */
export const colourName = (colour) => tOr(`common.diceLooks.${colour}`, colour);
