// The roll area: the dice on the table (held, rolling, landed; a click holds or releases one), the roll button
// with the hint under it, and the values typed in by hand when the tower cannot be used.
import { $, h } from './dom.js';
import { t, tOr } from './i18n.js';
import { scoreboardDieFace } from './die-faces.js';
import { landingRoll, setLanding } from './dice-motion.js';
import { isBluffing } from './bluff-ui.js';
import { canToggle, holdActions, isLasVegas, isOver } from './game-view.js';
import { toast } from './toast.js';

/** The dice of the shown game. `ctx`: `busy` (the tower is rolling), `act(action)` (hold or release a die). */
export function renderDice(game, ctx) {
  const { busy } = ctx;
  const b = game.board;
  const over = isOver(game);
  $('dice-area').hidden = over;
  if (over) return;
  const dice = isLasVegas(game) ? [] : (b.dice ?? []);
  const rollingSlots = new Set(game.request?.slots ?? []);
  const landing = landingRoll(game);
  const landed = new Set(landing !== null ? (game.lastRoll?.slots ?? []) : []);
  setLanding($('dice'), landing);
  $('dice').dataset.count = String(dice.length);
  $('dice-area').style.setProperty('--n', String(Math.max(dice.length, 1)));
  // Nothing to see yet (not thrown, or every die in a cup): small blank faces leave room for the rest.
  const allBlank = dice.every((v) => v === null);
  $('dice-area').style.setProperty('--die-min', allBlank ? '2.4rem' : dice.length > 8 ? '2.6rem' : '3.6rem');
  $('dice-area').style.setProperty('--die-max', allBlank && dice.length > 6 ? '3rem' : '5.6rem');
  $('dice').classList.toggle('all-blank', allBlank);
  $('dice').classList.toggle('no-holds', !b.held?.some(Boolean) && holdActions(game).length === 0);
  const faces = dice.map((value, i) => {
    const held = Boolean(b.held?.[i]);
    const clickable = !busy && canToggle(game, i);
    const label = t(value === null ? 'scoreboard.dieHidden' : held ? 'scoreboard.dieHeld' : 'scoreboard.die', { number: i + 1, value });
    return h(
      'button',
      {
        type: 'button',
        class: `die${held ? ' held' : ''}${value === null ? ' blank' : ''}${busy && rollingSlots.has(i) ? ' rolling' : ''}${landed.has(i) && value !== null ? ' landed' : ''}${clickable ? ' clickable' : ''}`,
        'data-testid': `die-${i}`,
        'data-value': value ?? '',
        'data-held': held ? 'true' : 'false',
        'aria-pressed': held ? 'true' : 'false',
        'aria-label': label,
        title: clickable ? t(held ? 'scoreboard.clickRelease' : 'scoreboard.clickHold') : label,
        disabled: !clickable,
        onclick: () => {
          const type = held ? 'release' : 'hold';
          if (holdActions(game).some((a) => a.type === type && a.dice?.includes(i))) ctx.act({ type, dice: [i] });
        },
      },
      scoreboardDieFace(value),
      h('span', { class: 'held-tag' }, held ? t('scoreboard.held') : ''),
    );
  });
  $('dice').replaceChildren(...faces);
  // A bluffing game's cups are counts (bluff-table.js), never rows of blank dice.
  $('dice').hidden = dice.length === 0 || isBluffing(game);
}

/** The roll button, the hint saying what to do next (`decisions`: the ones drawn as buttons) and the typed-in values. */
export function renderRollControls(game, decisions, busy) {
  const b = game.board;
  const req = game.request;
  const button = $('roll-button');
  button.hidden = !req && !busy;
  button.disabled = !req || busy;
  button.textContent = busy ? t('scoreboard.rolling') : req ? t('scoreboard.rollDice', { count: req.count }) : t('scoreboard.roll');

  const choices = b.kind === 'scorecard' ? (b.choices ?? []).length : 0;
  const holds = holdActions(game).length > 0;
  const name = b.current !== null && b.current !== undefined ? b.players[b.current]?.name : null;
  const roller = b.players[req?.player]?.name;
  let hint = '';
  if (busy) hint = t('common.towerRolling');
  else if (req && holds && choices) hint = t('scoreboard.hintHoldOrScore');
  else if (req && holds) hint = t('scoreboard.hintHold');
  else if (req && decisions.length) hint = t('scoreboard.hintRollOrChoose');
  else if (req) hint = roller ? t(req.secret ? 'scoreboard.hintSecretRollFor' : 'scoreboard.hintNextRollFor', { name: roller }) : t(req.secret ? 'scoreboard.hintSecretRoll' : 'scoreboard.hintNextRoll');
  else if (choices && holds) hint = t('scoreboard.hintReleaseOrScore');
  else if (choices) hint = t('scoreboard.hintScore');
  else if (decisions.length) hint = name ? t('scoreboard.hintChooseFor', { name }) : t('scoreboard.hintChoose');
  $('roll-hint').textContent = hint;

  const manual = $('manual');
  // A secret throw is never typed in front of the room.
  manual.hidden = !req || req.secret === true;
  const input = $('manual-values');
  const placeholder = req ? t('scoreboard.valuesPlaceholder', { count: req.count, example: '351624351624'.slice(0, Math.min(req.count, 12)) }) : '';
  if (input.placeholder !== placeholder) input.placeholder = placeholder;
  const dieName = (d) => t(d.size === 'big' ? 'scoreboard.bigDie' : 'scoreboard.dieLook', { colour: tOr(`common.diceLooks.${d.colour}`, d.colour) });
  const order = req?.dice ? req.dice.map(dieName).join(', ') : '';
  input.title = !req ? '' : req.dice ? t('scoreboard.inThisOrder', { dice: order }) : t('scoreboard.fillsDice', { dice: req.slots.map((x) => x + 1).join(', ') });
  $('manual-colours').textContent = req?.dice ? t('scoreboard.diceInOrder', { dice: order }) : '';
}

/** Typed values as dice ("35162", "3 5 1 6 2", "3,5,1"), or null when any is not 1 to 6. */
function typedValues(text) {
  const parts = /[\s,;]/.test(text) ? text.split(/[\s,;]+/).filter(Boolean) : [...text];
  const values = parts.map(Number);
  return values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1 || v > 6) ? null : values;
}

/**
 * The roll button and the typed-in values' form, wired once. `ctx`: `shownGame()`, `roll(game, values?)`
 * (the tower's throw, or the values typed in; resolves to the reply, null when refused).
 */
export function wireRollControls(ctx) {
  $('roll-button').addEventListener('click', () => {
    const game = ctx.shownGame();
    if (game) ctx.roll(game);
  });

  $('manual-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const game = ctx.shownGame();
    if (!game) return;
    const values = typedValues($('manual-values').value.trim());
    if (!values) {
      toast(t('scoreboard.typeDigits'));
      return;
    }
    const done = await ctx.roll(game, values);
    if (done) {
      $('manual-values').value = '';
      $('manual').open = false;
    }
  });
}
