/**
 * Words for a person that a page shows in its own language: a stable code the
 * page words from its texts (the setup page: i18n `setup.codes.<code>`, the
 * code's `/` a `.`) with `params`, and the English in `message`, which the page
 * shows when it has no words for the code.
 */
export interface Note {
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, NoteParam>>;
}

/** A word the page has a text for (`{key}`: "setup.sides.left"), a value as it is, or a list of them ("left and top"). */
type NoteWord = string | number | { readonly key: string };
export type NoteParam = NoteWord | readonly NoteWord[];

export const note = (code: string, message: string, params: Readonly<Record<string, NoteParam>> = {}): Note => ({ code, message, params });

const word = { anyOf: [{ type: ['string', 'number'] }, { type: 'object', required: ['key'], properties: { key: { type: 'string' } } }] } as const;

/** A note's JSON schema (the API's replies). */
export const NoteSchema = {
  type: 'object',
  required: ['code', 'message', 'params'],
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    params: { type: 'object', additionalProperties: { anyOf: [...word.anyOf, { type: 'array', items: word }] } },
  },
} as const;
