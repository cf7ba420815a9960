// The scoreboard's trust panels: hardware status, invalid-roll reason, roll
// history strip, fairness panel, corrections by the operator, spoken rolls.
// Plain ES module; scoreboard.js calls renderTrust(game, ctx) on every render.

import { h } from './dom.js';

const $ = (id) => document.getElementById(id);

// --- tower and camera status ----------------------------------------------------------------------

/** What people call the tower's state: connected, busy, jam, disconnected, fault. */
export function towerWord(tower) {
  if (!tower) return 'unknown';
  if (tower.state === 'ready') return 'connected';
  if (tower.state === 'rolling') return 'busy';
  if (/disconnect/i.test(tower.message)) return 'disconnected';
  if (/jam|stuck|did not return/i.test(tower.message)) return 'jam';
  return 'fault';
}

/** The camera's state, as far as the table tells it: a fault names the camera, else the last frame it read. */
function cameraWord(tower, game) {
  if (tower?.state === 'fault' && /camera|frame|capture/i.test(tower.message)) return 'fault';
  const last = game?.lastRoll;
  return last?.reading ? `ok · last frame read in ${Math.round(last.reading.ms)} ms` : 'ok';
}

function renderStatus(game, tower) {
  const el = $('hardware-status');
  const word = towerWord(tower);
  el.dataset.tower = word;
  el.textContent = `Tower: ${word} · Camera: ${cameraWord(tower, game)}`;
  // An invalid roll says why, while the tower throws again (and when it gives up).
  const problem = $('roll-problem');
  const again = tower && /— rolling again$/.test(tower.message);
  const gaveUp = tower?.state === 'fault' && tower.gameId === game?.id && /No valid reading/.test(tower.message);
  problem.hidden = !(again || gaveUp);
  problem.textContent = again || gaveUp ? tower.message : '';
}

// --- roll history strip -----------------------------------------------------------------------------

function renderStrip(game) {
  const strip = $('roll-strip');
  const rolls = game.recentRolls ?? [];
  const signature = `${game.id}:${rolls.map((r) => `${r.seq}${r.corrected ? 'c' : ''}`).join(',')}`;
  strip.hidden = rolls.length === 0;
  if (strip.dataset.signature === signature) return;
  strip.dataset.signature = signature;
  strip.replaceChildren(
    h('div', { class: 'strip-title' }, 'Rolls'),
    ...rolls.map((r) =>
      h(
        'a',
        { class: `strip-roll${r.corrected ? ' corrected' : ''}`, href: `history.html?game=${encodeURIComponent(game.id)}&roll=${r.seq}`, 'data-testid': `strip-roll-${r.seq}`, title: `Roll ${r.seq} by ${game.players[r.player] ?? ''}` },
        r.frameUrl ? h('img', { src: r.frameUrl, alt: `Roll ${r.seq}`, loading: 'lazy' }) : h('div', { class: 'strip-typed' }, 'typed in'),
        h('span', { class: 'strip-values' }, `${r.seq}: ${r.values.join(' ')}${r.corrected ? ' ✎' : ''}`),
      ),
    ),
  );
  // The newest roll in view: scroll the strip itself only (scrollIntoView would scroll the whole column too).
  strip.scrollLeft = strip.scrollWidth;
}

// --- fairness panel ------------------------------------------------------------------------------------

let fairnessKey = '';
let fairnessTimer = 0;

/** Asks for the fairness report when the rolls changed (at most every second). */
function renderFairness(game) {
  const key = `${game.id}:${game.rollCount}:${game.version}`;
  if (key === fairnessKey) return;
  fairnessKey = key;
  clearTimeout(fairnessTimer);
  fairnessTimer = setTimeout(async () => {
    try {
      const res = await fetch('/api/fairness');
      if (res.ok) drawFairness(await res.json());
    } catch {
      // The feed shows the connection problem; the panel keeps its last report.
    }
  }, 300);
}

const pText = (p) => (p === null ? '—' : p < 0.0001 ? p.toExponential(1) : p.toFixed(4));

function verdict(stats, minRolls) {
  if (stats.rolls === 0) return { cls: 'none', text: 'no rolls yet' };
  if (!stats.enough) return { cls: 'pending', text: `needs ${stats.needed} more roll${stats.needed === 1 ? '' : 's'} before judging` };
  if (stats.biased) return { cls: 'biased', text: `⚠ looks biased (p = ${pText(stats.pValue)})` };
  return { cls: 'fair', text: `looks fair (p = ${pText(stats.pValue)}, ${minRolls}+ rolls)` };
}

function statsRow(stats, minRolls, testid) {
  const max = Math.max(1, ...stats.counts);
  const v = verdict(stats, minRolls);
  return h(
    'tr',
    { class: `fair-row ${v.cls}`, 'data-testid': testid, 'data-verdict': v.cls },
    h('th', {}, stats.key),
    h('td', { class: 'num' }, stats.rolls),
    h(
      'td',
      { class: 'bars' },
      ...stats.counts.map((c, i) => h('span', { class: 'bar', style: `--h:${(c / max).toFixed(3)}`, title: `${i + 1}: ${c}` }, h('b', {}, c), h('i', {}, i + 1))),
    ),
    h('td', { class: 'num' }, stats.rolls ? stats.chiSquare.toFixed(2) : '—'),
    h('td', { class: 'verdict' }, v.text),
  );
}

/** Dice typed in by hand: their counts, apart and never judged (a typed value says nothing about a die). */
function typedInRow(typed) {
  const max = Math.max(1, ...typed.counts);
  return h(
    'tr',
    { class: 'fair-row typed', 'data-testid': 'fairness-typed-in', 'data-verdict': 'not judged' },
    h('th', {}, 'typed in'),
    h('td', { class: 'num' }, typed.rolls),
    h('td', { class: 'bars' }, ...typed.counts.map((c, i) => h('span', { class: 'bar', style: `--h:${(c / max).toFixed(3)}`, title: `${i + 1}: ${c}` }, h('b', {}, c), h('i', {}, i + 1)))),
    h('td', { class: 'num' }, '—'),
    h('td', { class: 'verdict' }, 'not judged: typed by hand, not read from a die'),
  );
}

export function drawFairness(report) {
  const panel = $('fairness');
  panel.hidden = false;
  const biased = [report.overall, ...report.dice].filter((d) => d.biased).map((d) => d.key);
  const waiting = report.dice.filter((d) => !d.enough).length;
  panel.dataset.biased = String(biased.length > 0);
  // One line always in view on the big screen; the table opens below it (and stays open across updates).
  const wasOpen = panel.querySelector('details')?.open ?? false;
  const headline = biased.length
    ? h('span', { class: 'fair-warning', 'data-testid': 'fairness-warning' }, `⚠ looks biased: ${biased.join(', ')}`)
    : h('span', {}, report.overall.enough ? `the dice look fair (${report.overall.rolls} rolls)` : `not judged yet: ${report.overall.rolls} of ${report.minRolls} rolls`);
  panel.replaceChildren(
    h(
      'details',
      { open: wasOpen, 'data-testid': 'fairness-details' },
      h('summary', {}, h('strong', {}, 'Fairness: '), headline, waiting ? h('span', { class: 'fair-waiting' }, ` · ${waiting} die colour${waiting === 1 ? '' : 's'} still collecting rolls`) : null),
      h(
        'p',
        { class: 'fair-note', 'data-testid': 'fairness-note' },
        `Chi-square test of each die's faces against a fair die (df 5). A die is judged only after ${report.minRolls} rolls (10 expected per face); it is called biased when p < ${report.alpha}. By colour as the camera read it; all games. Dice typed in by hand are counted apart and never judged.`,
        report.excludedSecret ? ` ${report.excludedSecret} secret dice of running games are left out.` : '',
      ),
      h(
        'table',
        { class: 'fair-table' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Die'), h('th', {}, 'Rolls'), h('th', {}, 'Faces 1-6'), h('th', {}, 'χ²'), h('th', {}, 'Verdict'))),
        h(
          'tbody',
          {},
          statsRow(report.overall, report.minRolls, 'fairness-overall'),
          ...report.dice.map((d) => statsRow(d, report.minRolls, `fairness-die-${d.key}`)),
          report.typedIn?.rolls ? typedInRow(report.typedIn) : null,
        ),
      ),
    ),
  );
}

// --- corrections ----------------------------------------------------------------------------------------

let correcting = null;

function renderCorrection(game, ctx) {
  const last = game.lastRoll;
  const button = $('correct-button');
  // Only the operator corrects (the server checks the token too); a roll must be on record.
  button.hidden = !ctx.operator || !last;
  button.onclick = () => openCorrection(game, ctx);
}

function openCorrection(game, ctx) {
  const last = game.lastRoll;
  if (!last) return;
  correcting = { game: game.id, seq: last.seq };
  const dialog = $('correct-dialog');
  $('correct-title').textContent = `Correct roll ${last.seq} (${game.players[game.recentRolls?.at(-1)?.player ?? 0] ?? ''})`;
  $('correct-read').textContent = last.read ? `Read by the camera: ${last.read.join(' ')} · now ${last.values.join(' ')}` : `Read: ${last.values.join(' ')}`;
  $('correct-dice').replaceChildren(
    ...last.values.map((v, i) =>
      h('label', { class: 'correct-die' }, `Die ${i + 1}`, h('select', { 'data-testid': `correct-die-${i}` }, ...[1, 2, 3, 4, 5, 6].map((f) => h('option', { value: f, selected: f === v }, f)))),
    ),
  );
  $('correct-reason').value = '';
  $('correct-error').textContent = '';
  $('correct-form').onsubmit = async (e) => {
    e.preventDefault();
    const values = [...$('correct-dice').querySelectorAll('select')].map((s) => Number(s.value));
    const by = $('correct-by').value.trim() || 'operator';
    const reply = await ctx.api(`/api/games/${encodeURIComponent(correcting.game)}/rolls/${correcting.seq}/correction`, { values, reason: $('correct-reason').value.trim(), by });
    if (reply) dialog.close();
    else $('correct-error').textContent = 'Not corrected: see the message.';
  };
  $('correct-cancel').onclick = () => dialog.close();
  dialog.showModal();
}

// --- spoken rolls ------------------------------------------------------------------------------------------

const SPEECH_KEY = 'dice-tower-speak';
let spokenKey = null;

function setupSpeech() {
  const toggle = $('speech-toggle');
  if (toggle.dataset.ready) return;
  toggle.dataset.ready = 'true';
  const available = 'speechSynthesis' in window;
  toggle.hidden = !available;
  const show = () => {
    const on = localStorage.getItem(SPEECH_KEY) === 'on';
    toggle.setAttribute('aria-pressed', String(on));
    toggle.textContent = on ? 'Speak: on' : 'Speak: off';
  };
  toggle.addEventListener('click', () => {
    localStorage.setItem(SPEECH_KEY, localStorage.getItem(SPEECH_KEY) === 'on' ? 'off' : 'on');
    show();
  });
  show();
}

/** Speaks each new roll of the shown game once ("Ann rolled 3, 5 and 6"), when the toggle is on. */
function announce(game) {
  const last = game.lastRoll;
  const key = last ? `${game.id}:${last.seq}` : `${game.id}:none`;
  const first = spokenKey === null;
  if (key === spokenKey) return;
  spokenKey = key;
  if (first || !last || localStorage.getItem(SPEECH_KEY) !== 'on' || !('speechSynthesis' in window)) return;
  const who = game.players[game.recentRolls?.at(-1)?.player ?? 0] ?? 'Roll';
  const values = last.values.map(String);
  const list = values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values.at(-1)}` : values[0];
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(`${who} rolled ${list}`));
}

export function renderTrust(game, ctx) {
  setupSpeech();
  renderStatus(game, ctx.tower);
  if (!game) return;
  renderStrip(game);
  renderFairness(game);
  renderCorrection(game, ctx);
  announce(game);
}
