// The setup page (operator only): the cameras and serial ports found, a live preview from the server's camera (its
// settings and the calibration drawn over it: setup-camera.js),
// the board's firmware, and test rolls the operator confirms or corrects, with this tower's accuracy tally.
import { h } from './dom.js';
import { drawOutlines } from './reading-overlay.js';
import { api, operatorToken as token } from './operator-page.js';
import { toast } from './toast.js';
import { startCameraSetup } from './setup-camera.js';
import { showPortChoices, showTower, startTowerSetup } from './setup-tower.js';

const $ = (id) => document.getElementById(id);
/** Frames a second of the preview: enough to aim the camera, little work for the server. */
const PREVIEW_MS = 300;
const NOT_A_DIE = 0;

// --- camera and tower ---------------------------------------------------------------

async function showDevices() {
  const d = await api('GET', '/api/setup/devices');
  $('camera-source').textContent = d.camera.source;
  $('cameras').replaceChildren(
    ...(d.cameras.length ? d.cameras.map((c) => h('li', { 'data-testid': 'camera-device' }, `${c.path}${c.name ? ` — ${c.name}` : ''} (--camera ${c.index})`)) : [h('li', {}, 'No video devices (/dev/video*) found.')]),
  );
  $('ports').replaceChildren(
    ...(d.portsProblem ? [h('li', {}, d.portsProblem)] : []),
    ...(d.ports.length
      ? d.ports.map((p) => h('li', { class: p.arduino ? 'arduino' : '', 'data-testid': 'serial-port' }, `${p.description}${p.arduino ? ` — looks like an ${p.arduino}` : ' — not an Arduino'}`))
      : d.portsProblem ? [] : [h('li', {}, 'No serial ports found: plug the tower in.')]),
  );
  $('flash-port').replaceChildren(
    h('option', { value: 'auto' }, 'the Arduino found by USB id'),
    ...d.ports.map((p) => h('option', { value: p.path }, `${p.path}${p.arduino ? ` (${p.arduino})` : ''}`)),
  );
  showPortChoices(d.ports);
  showTower(d.tower);
  if (d.camera.preview) startPreview();
  else $('preview-caption').textContent = 'This server has no camera to preview.';
  return d.tower;
}

let previews = 0;
/** Loads the next preview frame once the last one has come (never more than one request at a time). */
function startPreview() {
  const img = $('preview');
  const next = () => {
    previews++;
    img.src = `/api/setup/preview.jpg?operator=${encodeURIComponent(token())}&t=${previews}`;
  };
  img.addEventListener('load', () => {
    img.dataset.frames = String(previews);
    setTimeout(next, PREVIEW_MS);
  });
  img.addEventListener('error', () => {
    $('preview-caption').textContent = 'The camera gave no frame; trying again…';
    setTimeout(next, 2000);
  });
  next();
}

// --- flashing ------------------------------------------------------------------------

/** Shows the flash's lines as they come (polled), and its outcome. */
async function followFlash() {
  const status = await api('GET', '/api/setup/flash');
  const log = $('flash-log');
  log.hidden = status.state === 'idle';
  log.classList.toggle('failed', status.state === 'failed');
  log.dataset.state = status.state;
  log.textContent = [...status.lines, ...(status.error ? ['', status.error] : [])].join('\n');
  $('flash').disabled = status.state === 'running';
  if (status.state === 'running') setTimeout(followFlash, 500);
  else if (status.state === 'done') showDevices();
}

$('flash-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  if (!confirm('Flash the dice-tower firmware onto the board now?')) return;
  await api('POST', '/api/setup/flash', { port: $('flash-port').value });
  followFlash();
});

// --- test rolls -------------------------------------------------------------------------

let current = null; // { roll, truth }

function showRoll(roll) {
  const truth = roll.reading.dice.map((d) => d.value);
  current = { roll, truth };
  $('judge').hidden = false;
  $('test-frame').src = `${roll.frameUrl}?operator=${encodeURIComponent(token())}`;
  $('test-problems').textContent = roll.valid ? `Read in ${roll.attempts === 1 ? 'one throw' : `${roll.attempts} throws`}.` : `The camera was not sure: ${roll.problems.join('; ')}.`;
  renderJudge();
}

/** One row per die read: its value as read (outlined), and a button per value; one click puts a misread die right. */
function renderJudge() {
  const { roll, truth } = current;
  drawOutlines($('test-overlay'), roll.reading, [], truth);
  $('test-dice').replaceChildren(
    ...roll.reading.dice.map((d, i) =>
      h(
        'li',
        { 'data-testid': `test-die-${i}`, 'data-read': d.value ?? '', 'data-truth': truth[i] ?? '' },
        ...[1, 2, 3, 4, 5, 6, NOT_A_DIE].map((v) =>
          h(
            'button',
            {
              type: 'button',
              class: `button small${d.value === v ? ' read' : ''}${truth[i] === v ? ' chosen' : ''}`,
              'data-testid': `test-die-${i}-${v}`,
              title: v === NOT_A_DIE ? 'Not a die' : `It shows ${v}`,
              onclick: () => {
                truth[i] = v;
                renderJudge();
              },
            },
            v === NOT_A_DIE ? '✕' : String(v),
          ),
        ),
      ),
    ),
  );
  // A die the camera could not read needs the operator's value before the roll can be confirmed.
  $('confirm').disabled = truth.some((v) => v === null);
}

$('test-roll-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('test-roll').disabled = true;
  try {
    showRoll(await api('POST', '/api/setup/test-rolls', { count: Number($('test-count').value) }));
  } finally {
    $('test-roll').disabled = false;
  }
});

$('confirm').addEventListener('click', async () => {
  if (!current) return;
  const { tally } = await api('POST', `/api/setup/test-rolls/${current.roll.id}/verdict`, { values: current.truth });
  current = null;
  $('judge').hidden = true;
  showTally(tally);
});

$('reset-tally').addEventListener('click', async () => {
  if (!confirm('Start this tower\'s accuracy tally again?')) return;
  showTally(await api('POST', '/api/setup/accuracy/reset'));
});

const percent = (n, of) => (of > 0 ? `${Math.round((1000 * n) / of) / 10} %` : '—');

function showTally(t) {
  const item = (label, key, value) => [h('dt', {}, label), h('dd', { 'data-testid': `tally-${key}` }, value)];
  $('tally').replaceChildren(
    ...item('Test rolls', 'rolls', String(t.rolls)),
    ...item('Dice', 'dice', String(t.dice)),
    ...item('Read right', 'right', `${t.right} (${percent(t.right, t.dice)})`),
    ...item('Unreadable', 'unreadable', String(t.unreadable)),
    ...item('Wrong', 'wrong', String(t.wrong)),
    ...item('Re-rolls', 'rerolls', String(t.rerolls)),
  );
}

async function start() {
  if (!token()) {
    $('no-token').hidden = false;
    return;
  }
  const health = await (await fetch('/api/health')).json();
  if (health.accuracy) showTally(health.accuracy);
  startTowerSetup(await showDevices());
  await startCameraSetup();
}

start().catch((err) => toast(err.message));
