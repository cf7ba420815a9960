// The setup page's camera settings and calibration: exposure and white balance sliders (what the driver refused shown
// beside them), and the calibration in steps — the empty tray's shot, its region and marks drawn over the live preview
// with corners to drag, then a shot of each colour's dice — with the warnings the calibration gives, in words.
import { h, s } from './dom.js';
import { t } from './i18n.js';
import { api, colourName, said } from './setup-words.js';

const $ = (id) => document.getElementById(id);

/** Every text this module shows, in one place (i18n/*.json, section setup.camera). */
const TEXT = {
  automatic: t('setup.camera.automatic'),
  exposure: (v) => t('setup.camera.exposure', { value: v }),
  whiteBalance: (v) => t('setup.camera.whiteBalance', { value: v }),
  saved: (c) =>
    t('setup.camera.saved', {
      source: c.source,
      exposure: c.exposure ?? { key: 'setup.camera.auto' },
      whiteBalance: c.whiteBalance === null ? { key: 'setup.camera.auto' } : { key: 'setup.camera.kelvin', params: { value: c.whiteBalance } },
    }),
  notSaved: t('setup.camera.notSaved'),
  allTaken: t('setup.camera.allTaken'),
  noCalibration: t('setup.camera.noCalibration'),
  calibrated: (c) =>
    t('setup.camera.calibrated', {
      tray: c.tray ? { key: 'setup.camera.trayAt', params: c.tray } : { key: 'setup.camera.trayFills' },
      marks: { key: 'setup.camera.marks', params: { count: c.marks.length } },
      edge: c.dieSize === null ? { key: 'setup.camera.edgeUnmeasured' } : { key: 'setup.camera.edge', params: { size: Math.round(c.dieSize * 10) / 10 } },
      colours: c.colours.length ? c.colours.map(colourName).join(', ') : { key: 'setup.camera.coloursNone' },
    }),
  diceStep: (colour) => t('setup.camera.diceStep', { colour: colourName(colour) }),
  diceShot: (colour) => t('setup.camera.diceShot', { colour: colourName(colour) }),
  needed: (colours) => (colours.length ? t('setup.camera.needed', { colours: colours.map(colourName).join(', ') }) : t('setup.camera.neededNone')),
  kept: (kept) => t('setup.camera.kept', { kept: kept.map(said).join('; ') }),
  dragHint: t('setup.camera.dragHint'),
};

// --- exposure and white balance --------------------------------------------------------------

/** One setting: a slider and an "automatic" box; a change is sent to the camera at once. */
function settingRow(key, label, value, range, onChange) {
  const auto = value === null;
  const slider = h('input', { type: 'range', min: range.min, max: range.max, step: range.step, value: value ?? range.start, disabled: auto, 'data-testid': `${key}-slider`, 'aria-label': label(value ?? range.start) });
  const shown = h('span', { 'data-testid': `${key}-value` }, label(value ?? range.start));
  const box = h('input', { type: 'checkbox', checked: auto, 'data-testid': `${key}-auto` });
  slider.addEventListener('input', () => (shown.textContent = label(slider.value)));
  slider.addEventListener('change', () => onChange(Number(slider.value)));
  box.addEventListener('change', () => onChange(box.checked ? null : Number(slider.value)));
  return h('div', { class: 'setting' }, shown, slider, h('label', {}, box, ` ${TEXT.automatic}`));
}

const RANGES = { exposure: { min: 1, max: 2000, step: 1, start: 150 }, whiteBalance: { min: 2000, max: 9000, step: 100, start: 4500 } };

const sentence = (text) => `${text[0].toUpperCase()}${text.slice(1)}.`;

function showCamera(c) {
  $('camera-settings').replaceChildren(
    ...(c.adjustable
      ? [
          settingRow('exposure', TEXT.exposure, c.exposure, RANGES.exposure, (exposure) => setCamera({ exposure, whiteBalance: c.whiteBalance })),
          settingRow('white-balance', TEXT.whiteBalance, c.whiteBalance, RANGES.whiteBalance, (whiteBalance) => setCamera({ exposure: c.exposure, whiteBalance })),
        ]
      : [h('p', { class: 'hint' }, c.note ? said(c.note) : '')]),
  );
  $('camera-refused').textContent = c.refused.length ? c.refused.map((n) => sentence(said(n))).join(' ') : c.adjustable && (c.exposure !== null || c.whiteBalance !== null) ? TEXT.allTaken : '';
  $('camera-refused').classList.toggle('warning', c.refused.length > 0);
  // With sliders shown, a note is about the saved choice (a camera.json that cannot be read).
  $('camera-saved').textContent = c.saved ? TEXT.saved(c.saved) : c.adjustable && c.note ? said(c.note) : TEXT.notSaved;
}

async function setCamera(settings) {
  showCamera(await api('PUT', '/api/setup/camera', settings));
}

// --- calibration ----------------------------------------------------------------------------

let calibration = null;

/** `p` turned `degrees` (clockwise as the frame is seen, y down) about `c`, as the reader turns a tray (validity.ts turnPoint). */
function turned(p, c, degrees) {
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return { x: c.x + (p.x - c.x) * cos - (p.y - c.y) * sin, y: c.y + (p.x - c.x) * sin + (p.y - c.y) * cos };
}
const centreOf = (t) => ({ x: t.x + t.width / 2, y: t.y + t.height / 2 });

/** The tray region's corners in the frame, clockwise from its top left: the box turned by the tray's turn about its centre. */
const cornersOf = (t) =>
  [
    { x: t.x, y: t.y },
    { x: t.x + t.width, y: t.y },
    { x: t.x + t.width, y: t.y + t.height },
    { x: t.x, y: t.y + t.height },
  ].map((p) => turned(p, centreOf(t), t.turn ?? 0));

/**
 * The region a dragged corner makes, its opposite corner staying put and the tray's turn kept: the pointer and that
 * corner are taken into the tray's own upright axes, the box between them found there and its centre turned back
 * (frame pixels, whole; a box reaching out of the frame is cut at its edge only when the tray is upright).
 */
function regionWithCorner(t, index, p, frame) {
  const turn = t.turn ?? 0;
  const origin = { x: 0, y: 0 };
  const [a, o] = [turned(p, origin, -turn), turned(cornersOf(t)[(index + 2) % 4], origin, -turn)];
  const [left, top, right, bottom] = [Math.min(a.x, o.x), Math.min(a.y, o.y), Math.max(a.x, o.x), Math.max(a.y, o.y)];
  if (turn === 0) {
    const [x, y] = [Math.max(0, Math.round(left)), Math.max(0, Math.round(top))];
    return { x, y, width: Math.min(frame.width, Math.round(right)) - x, height: Math.min(frame.height, Math.round(bottom)) - y };
  }
  const centre = turned({ x: (left + right) / 2, y: (top + bottom) / 2 }, origin, turn);
  const [width, height] = [Math.max(1, Math.round(right - left)), Math.max(1, Math.round(bottom - top))];
  return { x: Math.max(0, Math.round(centre.x - width / 2)), y: Math.max(0, Math.round(centre.y - height / 2)), width, height, turn };
}

/** Draws the calibration over the preview: the tray region (corners to drag), the marks and the rim corners. */
function drawCalibration() {
  const svg = $('calibration-overlay');
  const c = calibration;
  if (!c) {
    svg.replaceChildren();
    return;
  }
  svg.setAttribute('viewBox', `0 0 ${c.frame.width} ${c.frame.height}`);
  const handle = Math.round(c.frame.height * 0.025);
  const t = c.tray;
  svg.replaceChildren(
    ...c.marks.map((m) => s('rect', { ...m, class: 'mark', 'data-testid': 'tray-mark' })),
    ...c.corners.map((m) => s('rect', { ...m, class: 'rim-corner' })),
    ...(t
      ? [
          s('rect', {
            x: t.x, y: t.y, width: t.width, height: t.height, class: 'tray', 'data-testid': 'tray-region', 'data-region': `${t.x},${t.y},${t.width},${t.height}`,
            ...(t.turn ? { transform: `rotate(${t.turn} ${t.x + t.width / 2} ${t.y + t.height / 2})`, 'data-turn': String(t.turn) } : {}),
          }),
          ...cornersOf(t).map((p, i) => s('circle', { cx: p.x, cy: p.y, r: handle, class: 'corner', 'data-testid': `tray-corner-${i}`, onpointerdown: (e) => dragCorner(e, i) })),
        ]
      : []),
  );
}

/** Frame pixels under a pointer event, from the overlay's size on screen. */
function framePoint(e) {
  const box = $('calibration-overlay').getBoundingClientRect();
  return { x: ((e.clientX - box.left) / box.width) * calibration.frame.width, y: ((e.clientY - box.top) / box.height) * calibration.frame.height };
}

/** Drags one corner: the region follows the pointer, and is sent when the corner is let go. */
function dragCorner(e, index) {
  e.preventDefault();
  const start = calibration.tray;
  let region = start;
  const move = (ev) => {
    region = regionWithCorner(start, index, framePoint(ev), calibration.frame);
    calibration = { ...calibration, tray: region };
    drawCalibration();
  };
  const up = async () => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    try {
      showCalibration(await api('PUT', '/api/setup/calibration/tray', region));
    } catch {
      calibration = { ...calibration, tray: start };
      drawCalibration();
    }
  };
  // On the window: the overlay lets the pointer through to the preview, and the corner is drawn again as it moves.
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

function showCalibration(reply) {
  calibration = reply.calibration;
  drawCalibration();
  $('calibration-summary').textContent = calibration ? TEXT.calibrated(calibration) : TEXT.noCalibration;
  $('calibration-warnings').replaceChildren(...reply.warnings.map((w) => h('li', { 'data-testid': 'calibration-warning', 'data-code': w.code }, said(w))), ...(reply.kept.length ? [h('li', { class: 'kept' }, TEXT.kept(reply.kept))] : []));
  $('drag-hint').hidden = !calibration?.tray;
  $('dice-step').hidden = !calibration;
  $('colours-needed').textContent = TEXT.needed(reply.coloursNeeded);
  const colour = $('dice-colour');
  if (colour.options.length === 0) {
    const first = [...reply.coloursNeeded, ...ALL_COLOURS.filter((c) => !reply.coloursNeeded.includes(c))];
    colour.replaceChildren(...first.map((c) => h('option', { value: c }, colourName(c))));
  }
  // The next colour the games need and the camera does not know yet.
  const next = reply.coloursNeeded.find((c) => !calibration?.colours.includes(c));
  if (next) colour.value = next;
  showDiceStep();
}

const ALL_COLOURS = ['white', 'ivory', 'red', 'green', 'blue', 'yellow', 'black', 'purple', 'grey'];

function showDiceStep() {
  const colour = $('dice-colour').value;
  $('dice-instruction').textContent = TEXT.diceStep(colour);
  $('dice-shot').textContent = TEXT.diceShot(colour);
}

/** Wires the camera panel's settings and calibration; loads what the server has. */
export async function startCameraSetup() {
  $('drag-hint').textContent = TEXT.dragHint;
  $('dice-colour').addEventListener('change', showDiceStep);
  $('empty-shot').addEventListener('click', async () => {
    $('empty-shot').disabled = true;
    try {
      showCalibration(await api('POST', '/api/setup/calibration/empty-tray'));
    } finally {
      $('empty-shot').disabled = false;
    }
  });
  $('dice-shot').addEventListener('click', async () => {
    $('dice-shot').disabled = true;
    try {
      showCalibration(await api('POST', '/api/setup/calibration/dice', { colour: $('dice-colour').value }));
    } finally {
      $('dice-shot').disabled = false;
    }
  });
  showCamera(await api('GET', '/api/setup/camera'));
  showCalibration(await api('GET', '/api/setup/calibration'));
}
