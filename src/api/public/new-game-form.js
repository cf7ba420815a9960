// The new-game form: the games the server offers (the catalog; those without rules greyed out), a name field per
// player with a bot seat and its level, the chosen game's options (defaults filled in, a changed one marked), the
// recent players' names; sent as POST /api/games with only the options changed from their defaults.
import { $, h } from './dom.js';
import { choiceText, t, tOr } from './i18n.js';
import { gameName, humanize } from './game-words.js';
import { offerRecentNames } from './recent-names.js';
import { toast } from './toast.js';

/** The games the server offers (GET /api/games/catalog); throws saying why when there is no list. */
export async function fetchCatalog() {
  const res = await fetch('/api/games/catalog');
  if (!res.ok) throw new Error(`the server answered ${res.status} ${res.statusText}`);
  const list = await res.json();
  if (!Array.isArray(list)) throw new Error('the catalog is not a list');
  return list;
}

/** The catalog entry chosen in the form. */
const chosenEntry = (catalog) => (catalog ?? []).find((g) => g.id === $('game-picker').value && g.available !== false) ?? null;

/**
 * Draws the form. `game`: the game shown (null: none yet). `view`: `creating` (the operator asked for a new game
 * while one is shown), `missingPin` (the pinned game id is not on the table; null when none is), `catalog` (null
 * until loaded), `catalogError`.
 */
export function renderSetup(game, view) {
  const { catalogError, creating, missingPin } = view;
  $('setup-title').textContent = t(creating ? 'scoreboard.newGame' : missingPin !== null ? 'scoreboard.gameNotFound' : 'scoreboard.noGameYet');
  $('setup-note').textContent =
    missingPin !== null
      ? t('scoreboard.noSuchGame', { id: missingPin })
      : catalogError || t(view.catalog === null ? 'scoreboard.loadingGames' : view.catalog.length === 0 ? 'scoreboard.noGames' : 'scoreboard.setupNote');
  $('cancel-setup').hidden = !(creating && game);

  const picker = $('game-picker');
  const catalog = view.catalog ?? [];
  const signature = catalog.map((g) => `${g.id}=${g.name}`).join('\n');
  if (picker.dataset.signature !== signature) {
    const keep = picker.value || game?.game || '';
    // Games whose rules are not available are listed, greyed out, so nobody wonders where they are.
    picker.replaceChildren(
      ...catalog.map((g) =>
        h('option', { value: g.id, disabled: g.available === false, title: g.reason ?? null }, g.available === false ? t('scoreboard.rulesUnavailable', { game: tOr(`reservedGames.${g.id}`, g.name) }) : gameName({ game: g.id, name: g.name })),
      ),
    );
    picker.dataset.signature = signature;
    if (catalog.some((g) => g.id === keep && g.available !== false)) picker.value = keep;
  }
  picker.disabled = catalog.length === 0;
  const entry = chosenEntry(catalog);
  if ($('setup').dataset.game !== (entry?.id ?? '')) fillGameForm(entry);
  for (const select of $('player-inputs').querySelectorAll('select[name=bot-level]')) select.hidden = !entry?.botLevels?.includes('strong');
  $('start-game').disabled = !entry;
}

/** Builds the player inputs and option inputs for the chosen game (on first show and when the game changes). */
function fillGameForm(entry) {
  $('setup').dataset.game = entry?.id ?? '';
  $('game-players').textContent = entry
    ? entry.minPlayers === entry.maxPlayers
      ? t('scoreboard.playerCount', { count: entry.minPlayers, dice: diceText(entry.dice) })
      : t('scoreboard.playerRange', { min: entry.minPlayers, max: entry.maxPlayers, dice: diceText(entry.dice) })
    : '';
  $('game-summary').textContent = entry ? tOr(`games.${entry.id}.rules`, entry.summary) : '';
  $('start-game').textContent = entry ? t('scoreboard.startGame', { game: gameName({ game: entry.id, name: entry.name }) }) : t('scoreboard.start');

  // Keep the names already typed; add or trim inputs to fit the game.
  const list = $('player-inputs');
  const names = [...list.querySelectorAll('input[name=player]')].map((i) => i.value);
  const want = entry ? Math.min(entry.maxPlayers, Math.max(entry.minPlayers, 2, names.filter(Boolean).length)) : 2;
  list.replaceChildren();
  for (let i = 0; i < want; i += 1) addPlayerInput(entry, names[i] ?? '');
  updateAddPlayer(entry);

  const options = entry?.options ?? [];
  $('options-note').textContent = options.length ? t('scoreboard.optionsNote') : '';
  $('game-options').hidden = options.length === 0;
  $('option-list').replaceChildren(...options.map((spec) => optionField(entry.id, spec)));
}

function diceText(dice) {
  if (!dice) return '';
  const extra = [...(dice.colours ?? []), ...(dice.sizes ?? [])];
  const count = t('scoreboard.diceCount', { count: dice.count });
  return extra.length ? `${count} (${extra.map((look) => tOr(`common.diceLooks.${look}`, look)).join(', ')})` : count;
}

/** One option input built from its OptionSpec, default filled in; label and values in plain words (i18n/*.json). */
function optionField(game, spec) {
  const words = `games.${game}.options.${spec.name}`;
  const id = `option-${spec.name}`;
  const common = { id, name: spec.name, 'data-testid': id, 'data-type': spec.type };
  let input;
  if (spec.type === 'boolean') {
    input = h('input', { ...common, type: 'checkbox', checked: spec.default === true });
  } else if (spec.type === 'choice') {
    input = h('select', common, (spec.choices ?? []).map((c) => h('option', { value: c, selected: c === spec.default }, choiceText(words, c))));
  } else {
    input = h('input', {
      ...common,
      type: 'number',
      step: spec.type === 'integer' ? 1 : 'any',
      min: spec.min,
      max: spec.max,
      value: spec.default,
      inputmode: spec.type === 'integer' ? 'numeric' : 'decimal',
    });
  }
  input.addEventListener('input', () => markChanged(spec, input));
  input.addEventListener('change', () => markChanged(spec, input));
  const range = spec.type === 'integer' || spec.type === 'number' ? rangeText(spec) : '';
  return h(
    'div',
    { class: `option option-${spec.type}`, 'data-option': spec.name },
    h('label', { for: id, class: 'option-name' }, tOr(`${words}.label`, humanize(spec.name))),
    h('div', { class: 'option-input' }, input),
    // Every shipped game's descriptions are keyed (tests/i18n/texts.test.ts); the catalog's English is for a game added since.
    h('div', { class: 'option-desc' }, tOr(`${words}.description`, spec.description), range ? h('span', { class: 'option-range' }, ` ${range}`) : null),
  );
}

function rangeText(spec) {
  const min = spec.min !== undefined && spec.min !== null;
  const max = spec.max !== undefined && spec.max !== null;
  if (min && max) return spec.min === spec.max ? `(${spec.min})` : `(${spec.min}–${spec.max})`;
  if (min) return t('scoreboard.orMore', { min: spec.min });
  if (max) return t('scoreboard.upTo', { max: spec.max });
  return '';
}

/** The value of an option input, or undefined when it is not a usable value. */
function optionValue(spec, input) {
  if (spec.type === 'boolean') return input.checked;
  if (spec.type === 'choice') return input.value;
  if (input.value.trim() === '') return undefined;
  const n = Number(input.value);
  return Number.isFinite(n) ? n : undefined;
}

function markChanged(spec, input) {
  input.closest('.option')?.classList.toggle('changed', optionValue(spec, input) !== spec.default);
}

/** One more player: name, bot seat and, where the game offers a strong bot (`entry`, the chosen game), its level. */
function addPlayerInput(entry, value = '') {
  const list = $('player-inputs');
  const n = list.children.length + 1;
  list.append(
    h(
      'li',
      {},
      h('input', { name: 'player', maxlength: 40, value, placeholder: t('scoreboard.playerN', { number: n }), 'aria-label': t('scoreboard.playerN', { number: n }), 'data-testid': `player-name-${n - 1}` }),
      // A bot seat is played by the game's own bot (through the tower), to fill an empty chair.
      h('label', { class: 'bot-seat', title: t('scoreboard.botTitle') }, h('input', { type: 'checkbox', name: 'bot', 'data-testid': `player-bot-${n - 1}` }), ` ${t('feed.bot')}`),
      // Games the coach has solved offer a strong bot: the optimal policy.
      h(
        'select',
        { name: 'bot-level', class: 'bot-level', 'aria-label': t('scoreboard.botLevelOf', { number: n }), 'data-testid': `player-bot-level-${n - 1}`, hidden: !entry?.botLevels?.includes('strong') },
        h('option', { value: 'simple' }, t('scoreboard.simpleBot')),
        h('option', { value: 'strong' }, t('scoreboard.strongBot')),
      ),
    ),
  );
}

function updateAddPlayer(entry) {
  $('add-player').hidden = !entry || $('player-inputs').children.length >= entry.maxPlayers;
}

/** The game, players, bots and changed options the form asks for, or null after a toast saying what is missing. */
function requestedGame(entry) {
  if (!entry) {
    toast(t('scoreboard.chooseGameFirst'));
    return null;
  }
  const strongOffered = entry.botLevels?.includes('strong') === true;
  const seats = [...$('player-inputs').querySelectorAll('li')]
    .map((li) => ({
      name: li.querySelector('input[name=player]')?.value.trim() ?? '',
      bot: li.querySelector('input[name=bot]')?.checked === true,
      level: strongOffered ? (li.querySelector('select[name=bot-level]')?.value ?? 'simple') : 'simple',
    }))
    .filter((seat) => seat.name);
  const players = seats.map((seat) => seat.name);
  const bots = seats.flatMap((seat, i) => (!seat.bot ? [] : seat.level === 'strong' ? [{ seat: i, level: 'strong' }] : [i]));
  if (players.length < entry.minPlayers) {
    toast(t('scoreboard.needsPlayers', { count: entry.minPlayers, game: gameName({ game: entry.id, name: entry.name }) }));
    return null;
  }
  // Only the options changed from their defaults go to the server.
  const options = {};
  for (const spec of entry.options ?? []) {
    const input = document.getElementById(`option-${spec.name}`);
    if (!input) continue;
    const value = optionValue(spec, input);
    if (value === undefined) {
      toast(t('scoreboard.needsNumber', { option: tOr(`games.${entry.id}.options.${spec.name}.label`, humanize(spec.name)) }));
      input.focus();
      return null;
    }
    if (value !== spec.default) options[spec.name] = value;
  }
  const body = { game: entry.id, players };
  if (Object.keys(options).length > 0) body.options = options;
  if (bots.length > 0) body.bots = bots;
  return body;
}

/**
 * The form's buttons, wired once. `ctx`: `catalog()` (the catalog as loaded, null before), `redraw()`,
 * `open()` / `cancel()` (the operator asks for the form while a game is shown, or puts it away),
 * `create(body)` (POST /api/games: the new game, or null when refused), `created(game)` (it is on the table).
 */
export function wireNewGameForm(ctx) {
  $('game-picker').addEventListener('change', () => ctx.redraw());
  $('add-player').addEventListener('click', () => {
    const entry = chosenEntry(ctx.catalog());
    addPlayerInput(entry);
    updateAddPlayer(entry);
    const inputs = $('player-inputs').querySelectorAll('input[name=player]');
    inputs[inputs.length - 1]?.focus();
  });
  $('cancel-setup').addEventListener('click', () => ctx.cancel());
  $('new-game-button').addEventListener('click', () => {
    ctx.open();
    $('player-inputs').querySelector('input')?.focus();
  });
  $('new-game-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = requestedGame(chosenEntry(ctx.catalog()));
    if (!body) return;
    const created = await ctx.create(body);
    if (!created) return;
    for (const input of $('player-inputs').querySelectorAll('input[name=player]')) input.value = '';
    for (const input of $('player-inputs').querySelectorAll('input[name=bot]')) input.checked = false;
    $('setup').dataset.game = '';
    ctx.created(created);
  });
  offerRecentNames();
}
