// The setup page's tower: a board connected on a chosen port and disconnected (kept for the next start), the board as
// it is now (firmware and version, how it is driven, its port, a note on the firmware), the tray's angles (set here,
// kept for the next start) and light, its sensor and the button heard live (polled), and a test tip of the tray.
import { t, tOr } from './i18n.js';
import { api, said } from './setup-words.js';
import { h } from './dom.js';

const $ = (id) => document.getElementById(id);
/** How often the tower's state is asked for: a press of the button shows within this. */
const POLL_MS = 1000;

/** The table's kinds of tower (hardware Tower.kind) by their key. */
const KINDS = { simulated: 'simulated', 'by hand': 'byHand', firmata: 'firmata' };

const TEXT = {
  // The tower as the table reports it, by its kind and state; a fault's detail is the server's (the tower's own words).
  status: (s) => {
    const kind = tOr(`setup.tower.kinds.${KINDS[s.kind] ?? s.kind}`, s.kind);
    return s.state === 'fault' ? t('setup.tower.fault', { kind, message: s.message }) : t(s.state === 'rolling' ? 'setup.tower.rolling' : 'setup.tower.ready', { kind });
  },
  firmware: (s) => `${s.firmware ? `${t('setup.tower.firmware', { firmware: s.firmware, version: s.version ?? '', mode: s.mode ?? '', path: s.path ?? '' })} ` : ''}${said(s.note)}`,
  tray: (s) => t('setup.tower.tray', { tip: s.tipAngle, rest: s.restAngle, light: s.light }),
  sensor: (inPlace) => t(inPlace === null ? 'setup.tower.sensorUnheard' : inPlace ? 'setup.tower.sensorIn' : 'setup.tower.sensorOut'),
  button: (at) => (at === null ? t('setup.tower.buttonNever') : t('setup.tower.buttonAt', { time: new Date(at).toLocaleTimeString() })),
};

let anglesShown = false;

export function showTower(s) {
  $('tower-status').textContent = TEXT.status(s);
  $('firmware').textContent = TEXT.firmware(s);
  $('connect-form').hidden = s.serial !== null;
  $('disconnect').hidden = s.serial === null;
  const board = s.tipAngle !== undefined;
  $('board-live').hidden = !board;
  anglesShown &&= board;
  if (!board) return;
  $('tray-angles').textContent = TEXT.tray(s);
  $('button-state').textContent = TEXT.button(s.lastButtonAt);
  $('button-state').dataset.at = s.lastButtonAt ?? '';
  $('tray-sensor').textContent = TEXT.sensor(s.trayInPlace);
  // The inputs take the board's angles when it is connected, not at every poll (the operator may be typing).
  if (!anglesShown) {
    $('tip-angle').value = s.tipAngle;
    $('rest-angle').value = s.restAngle;
    anglesShown = true;
  }
}

/** The ports to connect the board on: the Arduino found by USB id, or any port listed. */
export function showPortChoices(ports) {
  $('connect-port').replaceChildren(
    h('option', { value: 'auto' }, t('setup.tower.autoPort')),
    ...ports.map((p) => h('option', { value: p.path }, p.arduino ? t('setup.tower.portArduino', { path: p.path, arduino: p.arduino }) : p.path)),
  );
}

/** Wires connect, disconnect, the angles and the test tip, and keeps the tower's state on the page. */
export function startTowerSetup(tower) {
  showTower(tower);
  $('connect-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('connect').disabled = true;
    try {
      showTower(await api('POST', '/api/setup/tower/connect', { port: $('connect-port').value }));
    } catch {
      // The toast names why (no board on that port, the simulated camera): the operator picks another port.
    } finally {
      $('connect').disabled = false;
    }
  });
  $('disconnect').addEventListener('click', async () => showTower(await api('POST', '/api/setup/tower/disconnect')));
  $('test-tip').addEventListener('click', async () => {
    $('test-tip').disabled = true;
    $('tip-result').textContent = '';
    try {
      showTower(await api('POST', '/api/setup/tower/test-tip'));
      $('tip-result').textContent = t('setup.tower.tipped');
    } finally {
      $('test-tip').disabled = false;
    }
  });
  $('save-angles').addEventListener('click', async () => {
    showTower(await api('PUT', '/api/setup/tower/angles', { tipAngle: Number($('tip-angle').value), restAngle: Number($('rest-angle').value) }));
  });
  const poll = async () => {
    try {
      showTower(await api('GET', '/api/setup/tower'));
    } catch {
      // The server restarting, or a refusal the toast has shown: the next poll tries again.
    } finally {
      setTimeout(poll, POLL_MS);
    }
  };
  setTimeout(poll, POLL_MS);
}
