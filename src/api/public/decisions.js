// The shown game's decisions as buttons (the actions the dice, the scorecard and the special boards do not offer):
// one button per action, or, for many actions of one type (every possible bid), a drop-down and a send button.
import { $, h } from './dom.js';
import { t } from './i18n.js';
import { actionLabel, actionName, argsLabel } from './game-words.js';

/** A label with its die glyphs (⚀..⚅) in spans, drawn larger than the text around them. */
function withGlyphs(label) {
  return label.split(/([\u2680-\u2685])/u).filter(Boolean).map((part) => (/^[\u2680-\u2685]$/u.test(part) ? h('span', { class: 'glyph' }, part) : part));
}

/** Actions of one type beyond this many go into a drop-down instead of a row of buttons. */
const MAX_BUTTONS_PER_TYPE = 8;

/**
 * Draws `decisions` (game-view.js `decisionActions`). `ctx`: `busy` (the tower is rolling), `act(action)`,
 * `picks` (the option chosen in each drop-down, "game:type" → index, kept across redraws).
 */
export function renderDecisions(game, decisions, ctx) {
  const dice = game.board.dice ?? [];
  const groups = new Map();
  for (const a of decisions) {
    if (!groups.has(a.type)) groups.set(a.type, []);
    groups.get(a.type).push(a);
  }
  let index = 0;
  const button = (a, label) =>
    h(
      'button',
      {
        type: 'button',
        class: 'button decision',
        'data-testid': `action-${index++}`,
        'data-type': a.type,
        'data-action': JSON.stringify(a),
        disabled: ctx.busy,
        onclick: () => ctx.act(a),
      },
      label,
    );
  const children = [];
  for (const [type, list] of groups) {
    if (list.length <= MAX_BUTTONS_PER_TYPE) {
      for (const a of list) children.push(button(a, withGlyphs(actionLabel(a, dice))));
      continue;
    }
    // Many choices of one kind (every possible bid...): pick one from a list, then send it.
    const key = `${game.id}:${type}`;
    const select = h(
      'select',
      { class: 'decision-select', 'data-testid': `action-select-${type}`, 'aria-label': t('scoreboard.chooseAction', { action: actionName(type) }), disabled: ctx.busy },
      list.map((a, i) => h('option', { value: String(i) }, argsLabel(a, dice) || actionName(type))),
    );
    const previous = ctx.picks.get(key);
    if (previous !== undefined && Number(previous) < list.length) select.value = previous;
    select.addEventListener('change', () => ctx.picks.set(key, select.value));
    children.push(
      h(
        'div',
        { class: 'decision-group', 'data-testid': `action-group-${type}` },
        select,
        h(
          'button',
          {
            type: 'button',
            class: 'button decision',
            'data-testid': `action-send-${type}`,
            'data-type': type,
            disabled: ctx.busy,
            onclick: () => {
              const a = list[Number(select.value)];
              if (a) ctx.act(a);
            },
          },
          actionName(type),
        ),
      ),
    );
  }
  $('decisions').replaceChildren(...children);
  $('decisions').hidden = decisions.length === 0;
}
