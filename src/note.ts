/**
 * Words for a person that a page shows in its own language: a stable code the
 * page words from its texts (the setup page: i18n `setup.codes.<code>`, the
 * code's `/` a `.`) with `params`, and the English in `message`, which the page
 * shows when it has no words for the code.
 */
export interface Note {
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
}

export const note = (code: string, message: string, params: Readonly<Record<string, string | number>> = {}): Note => ({ code, message, params });

/** A note's JSON schema (the API's replies). */
export const NoteSchema = {
  type: 'object',
  required: ['code', 'message', 'params'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, params: { type: 'object', additionalProperties: { type: ['string', 'number'] } } },
} as const;
