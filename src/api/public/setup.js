// The setup page (operator only): the cameras and serial ports found, a live preview from the server's camera (its
// settings and the calibration drawn over it: setup-camera.js),
// the board's firmware, and test rolls the operator confirms or corrects, with this tower's accuracy tally.
import { h } from './dom.js';
import { drawOutlines } from './reading-overlay.js';
import { operatorToken as token } from './operator-page.js';
import { toast } from './toast.js';
import { t } from './i18n.js';
import { api, said } from './setup-words.js';
import { startCameraSetup } from './setup-camera.js';
import { showPortChoices, showTower, startTowerSetup } from './setup-tower.js';

const $ = (id) => document.getElementById(id);
/** Frames a second of the preview: enough to aim the camera, little work for the server. */
const PREVIEW_MS = 300;
const NOT_A_DIE = 0;

/** Every text this module shows, in one place (i18n/*.json, sections setup.devices, setup.preview, setup.flash, setup.testRolls). */
const TEXT = {
  camera: (c) => (c.name ? t('setup.devices.cameraNamed', { path: c.path, name: c.name, index: c.index }) : t('setup.devices.camera', { path: c.path, index: c.index })),
  noCameras: () => t('setup.devices.noCameras'),
  // The port as serial-ports.ts describePort words it: its path, USB id and maker.
  port: (p) => {
    const port = `${p.path} (${p.usbId ? [p.usbId, p.manufacturer].filter(Boolean).join(' ') : t('setup.devices.noUsbId')})`;
    return p.arduino ? t('setup.devices.portArduino', { port, arduino: p.arduino }) : t('setup.devices.portOther', { port });
  },
  noPorts: () => t('setup.devices.noPorts'),
  autoPort: () => t('setup.tower.autoPort'),
  noPreview: () => t('setup.preview.none'),
  noFrame: () => t('setup.preview.noFrame'),
  flashConfirm: () => t('setup.flash.confirm'),
  read: (attempts) => t('setup.testRolls.readIn', { count: attempts }),
  // Each reason by its code (the reader's issues); a reader without codes gives its sentences.
  notSure: (roll) => t('setup.testRolls.notSure', { problems: roll.issues?.length ? roll.issues.map((code) => ({ key: `setup.issues.${code}` })) : roll.problems }),
  notADie: () => t('setup.testRolls.notADie'),
  shows: (value) => t('setup.testRolls.shows', { value }),
  resetConfirm: () => t('setup.testRolls.resetConfirm'),
  tally: (key) => t(`setup.testRolls.tally.${key}`),
};

// --- camera and tower ---------------------------------------------------------------

async function showDevices() {
  const d = await api('GET', '/api/setup/devices');
  $('camera-source').textContent = d.camera.source;
  $('cameras').replaceChildren(...(d.cameras.length ? d.cameras.map((c) => h('li', { 'data-testid': 'camera-device' }, TEXT.camera(c))) : [h('li', {}, TEXT.noCameras())]));
  $('ports').replaceChildren(
    ...(d.portsProblem ? [h('li', {}, said(d.portsProblem))] : []),
    ...(d.ports.length
      ? d.ports.map((p) => h('li', { class: p.arduino ? 'arduino' : '', 'data-testid': 'serial-port' }, TEXT.port(p)))
      : d.portsProblem ? [] : [h('li', {}, TEXT.noPorts())]),
  );
  $('flash-port').replaceChildren(
    h('option', { value: 'auto' }, TEXT.autoPort()),
    ...d.ports.map((p) => h('option', { value: p.path }, `${p.path}${p.arduino ? ` (${p.arduino})` : ''}`)),
  );
  showPortChoices(d.ports);
  showTower(d.tower);
  if (d.camera.preview) startPreview();
  else $('preview-caption').textContent = TEXT.noPreview();
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
    $('preview-caption').textContent = TEXT.noFrame();
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
  // The lines are the tools' own (make, avrdude); the outcome is worded by its code.
  log.textContent = [...status.lines, ...(status.error ? ['', said({ code: status.code ?? '', message: status.error })] : [])].join('\n');
  $('flash').disabled = status.state === 'running';
  if (status.state === 'running') setTimeout(followFlash, 500);
  else if (status.state === 'done') showDevices();
}

$('flash-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  if (!confirm(TEXT.flashConfirm())) return;
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
  $('test-problems').textContent = roll.valid ? TEXT.read(roll.attempts) : TEXT.notSure(roll);
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
              title: v === NOT_A_DIE ? TEXT.notADie() : TEXT.shows(v),
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
  if (!confirm(TEXT.resetConfirm())) return;
  showTally(await api('POST', '/api/setup/accuracy/reset'));
});

const percent = (n, of) => (of > 0 ? `${Math.round((1000 * n) / of) / 10} %` : '—');

function showTally(tally) {
  const item = (key, value) => [h('dt', {}, TEXT.tally(key)), h('dd', { 'data-testid': `tally-${key}` }, value)];
  $('tally').replaceChildren(
    ...item('rolls', String(tally.rolls)),
    ...item('dice', String(tally.dice)),
    ...item('right', `${tally.right} (${percent(tally.right, tally.dice)})`),
    ...item('unreadable', String(tally.unreadable)),
    ...item('wrong', String(tally.wrong)),
    ...item('rerolls', String(tally.rerolls)),
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

start().catch((err) => {
  if (!err.toasted) toast(String(err.message || err));
});
