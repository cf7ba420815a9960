// The scoreboard's trust panels: hardware status, invalid-roll reason, roll
// history strip, fairness panel, corrections by the operator, spoken rolls.
// Plain ES module; scoreboard.js calls renderTrust(game, ctx) on every render.

import { h } from './dom.js';
import { lang, t } from './i18n.js';

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
  return last?.reading ? t('trust.cameraOkRead', { ms: Math.round(last.reading.ms) }) : t('trust.state.ok');
}

function renderStatus(game, tower) {
  const el = $('hardware-status');
  const word = towerWord(tower);
  el.dataset.tower = word;
  const camera = cameraWord(tower, game);
  el.textContent = t('trust.status', { tower: t(`trust.state.${word}`), camera: camera === 'fault' ? t('trust.state.fault') : camera });
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
    h('div', { class: 'strip-title' }, t('trust.rolls')),
    ...rolls.map((r) =>
      h(
        'a',
        { class: `strip-roll${r.corrected ? ' corrected' : ''}`, href: `history.html?game=${encodeURIComponent(game.id)}&roll=${r.seq}`, 'data-testid': `strip-roll-${r.seq}`, title: t('trust.rollBy', { seq: r.seq, name: game.players[r.player] ?? '' }) },
        r.frameUrl ? h('img', { src: r.frameUrl, alt: t('trust.roll', { seq: r.seq }), loading: 'lazy' }) : h('div', { class: 'strip-typed' }, t('trust.typedIn')),
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
  if (stats.rolls === 0) return { cls: 'none', text: t('trust.noRollsYet') };
  if (!stats.enough) return { cls: 'pending', text: t('trust.needsMore', { count: stats.needed }) };
  if (stats.biased) return { cls: 'biased', text: t('trust.looksBiasedP', { p: pText(stats.pValue) }) };
  return { cls: 'fair', text: t('trust.looksFairP', { p: pText(stats.pValue), min: minRolls }) };
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
    h('th', {}, t('trust.typedIn')),
    h('td', { class: 'num' }, typed.rolls),
    h('td', { class: 'bars' }, ...typed.counts.map((c, i) => h('span', { class: 'bar', style: `--h:${(c / max).toFixed(3)}`, title: `${i + 1}: ${c}` }, h('b', {}, c), h('i', {}, i + 1)))),
    h('td', { class: 'num' }, '—'),
    h('td', { class: 'verdict' }, t('trust.notJudgedTyped')),
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
    ? h('span', { class: 'fair-warning', 'data-testid': 'fairness-warning' }, t('trust.looksBiased', { dice: biased }))
    : h('span', {}, report.overall.enough ? t('trust.diceLookFair', { count: report.overall.rolls }) : t('trust.notJudgedYet', { rolls: report.overall.rolls, min: report.minRolls }));
  panel.replaceChildren(
    h(
      'details',
      { open: wasOpen, 'data-testid': 'fairness-details' },
      h('summary', {}, h('strong', {}, t('trust.fairness')), headline, waiting ? h('span', { class: 'fair-waiting' }, t('trust.waiting', { count: waiting })) : null),
      h(
        'p',
        { class: 'fair-note', 'data-testid': 'fairness-note' },
        t('trust.method', { min: report.minRolls, alpha: report.alpha }),
        report.excludedSecret ? ` ${t('trust.secretLeftOut', { count: report.excludedSecret })}` : '',
      ),
      h(
        'table',
        { class: 'fair-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('trust.die')), h('th', {}, t('trust.rolls')), h('th', {}, t('trust.faces')), h('th', {}, 'χ²'), h('th', {}, t('trust.verdict')))),
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
  $('correct-title').textContent = t('trust.correctRoll', { seq: last.seq, name: game.players[game.recentRolls?.at(-1)?.player ?? 0] ?? '' });
  $('correct-read').textContent = last.read ? t('trust.readByCameraNow', { read: last.read.join(' '), now: last.values.join(' ') }) : t('trust.read', { values: last.values.join(' ') });
  $('correct-dice').replaceChildren(
    ...last.values.map((v, i) =>
      h('label', { class: 'correct-die' }, t('trust.dieNumber', { number: i + 1 }), h('select', { 'data-testid': `correct-die-${i}` }, ...[1, 2, 3, 4, 5, 6].map((f) => h('option', { value: f, selected: f === v }, f)))),
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
    else $('correct-error').textContent = t('trust.notCorrected');
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
    toggle.textContent = on ? t('trust.speakOn') : t('trust.speakOff');
  };
  toggle.addEventListener('click', () => {
    localStorage.setItem(SPEECH_KEY, localStorage.getItem(SPEECH_KEY) === 'on' ? 'off' : 'on');
    show();
  });
  show();
}

/** Speaks each new roll of the shown game once ("Ann rolled 3, 5 and 6"), in the page's language, when the toggle is on. */
function announce(game) {
  const last = game.lastRoll;
  const key = last ? `${game.id}:${last.seq}` : `${game.id}:none`;
  const first = spokenKey === null;
  if (key === spokenKey) return;
  spokenKey = key;
  if (first || !last || localStorage.getItem(SPEECH_KEY) !== 'on' || !('speechSynthesis' in window)) return;
  window.speechSynthesis.speak(spokenRoll(game.players[game.recentRolls?.at(-1)?.player ?? 0] ?? t('speech.someone'), last.values));
}

/** The utterance of a roll: the sentence in the page's language, spoken by a voice of that language. */
export function spokenRoll(name, values) {
  const utterance = new SpeechSynthesisUtterance(t('speech.rolled', { name, dice: values }));
  utterance.lang = lang;
  return utterance;
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
