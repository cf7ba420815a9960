// The board's words in the page's language (#46). A game's board carries its English (for the API and the
// history) and beside it what a page needs to word it: the status as a text key (`board.say`), columns, panels
// and items by id with the variable parts as parameters, and values that are words (a bid, "yes") as text keys.
// A game's own words (`games.<game>.<kind>.<id>`) come before the shared ones (`board.<kind>.<id>`); where
// neither has words (a game the texts do not know yet), the server's English is shown.
import { tOr } from './i18n.js';

/** `kind` (columns, panels, items) `id` of `game` in words, else `english`. */
const worded = (game, kind, id, english, params = {}) => tOr(`games.${game.game}.${kind}.${id}`, null, params) ?? tOr(`board.${kind}.${id}`, english, params);

/** The board's status line ("Ann: close 6+3 or 9"). */
export const statusLine = (game, board) => (board.say ? tOr(board.say.key, board.status, board.say.params) : String(board.status ?? ''));

/** A table board's column heading. */
export const columnLabel = (game, column) => worded(game, 'columns', column.id, column.label);

/** A panel's heading ("Last hand (round 3)"). */
export const panelLabel = (game, panel) => worded(game, 'panels', panel.id, panel.label, panel.params);

/** A panel item's label ("Last turn (Ann)"). */
export const itemLabel = (game, item) => (item.id ? worded(game, 'items', item.id, item.label, item.params) : item.label);

/** A panel item's value: its words where it is words (a bid, "3 of 13"), else the value itself (a name, a number, null). */
export const itemValue = (game, item) => (item.valueSay && item.value !== null && item.value !== undefined ? tOr(item.valueSay.key, String(item.value), item.valueSay.params) : item.value);
