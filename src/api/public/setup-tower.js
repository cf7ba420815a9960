// The setup page's tower: the board as it is now (firmware and version, how it is driven, its port, a note on the
// firmware), the tray's angles (set here, kept for the next start) and light, its sensor and the button heard live (polled),
// and a test tip of the tray.
import { api } from './operator-page.js';

const $ = (id) => document.getElementById(id);
/** How often the tower's state is asked for: a press of the button shows within this. */
const POLL_MS = 1000;

/** Every text this module shows, in one place (for the translations to come). */
const TEXT = {
  status: (t) => `${t.kind}: ${t.message}`,
  firmware: (t) => `${t.firmware ? `Firmware ${t.firmware}${t.version ? ` ${t.version}` : ''}${t.mode ? ` (${t.mode})` : ''}${t.path ? ` on ${t.path}` : ''}. ` : ''}${t.note}`,
  tray: (t) => `Tray: tips to ${t.tipAngle}°, rests at ${t.restAngle}°; light ${t.light} of 255.`,
  sensor: (inPlace) => (inPlace === null ? 'Tray sensor: not heard yet.' : inPlace ? 'Tray sensor: the tray is in its seat.' : 'Tray sensor: the tray is out of its seat.'),
  button: (at) => (at === null ? 'Button: not pressed since the start.' : `Button: last pressed at ${new Date(at).toLocaleTimeString()}.`),
  tipped: 'The tray tipped and came back.',
};

export function showTower(t) {
  $('tower-status').textContent = TEXT.status(t);
  $('firmware').textContent = TEXT.firmware(t);
  const board = t.tipAngle !== undefined;
  $('board-live').hidden = !board;
  if (!board) return;
  $('tray-angles').textContent = TEXT.tray(t);
  $('button-state').textContent = TEXT.button(t.lastButtonAt);
  $('button-state').dataset.at = t.lastButtonAt ?? '';
  $('tray-sensor').textContent = TEXT.sensor(t.trayInPlace);
}

/** Keeps the tower's state on the page while a board is driven, and wires the test tip. */
export function startTowerSetup(tower) {
  showTower(tower);
  if (tower.tipAngle === undefined) return;
  $('test-tip').addEventListener('click', async () => {
    $('test-tip').disabled = true;
    $('tip-result').textContent = '';
    try {
      showTower(await api('POST', '/api/setup/tower/test-tip'));
      $('tip-result').textContent = TEXT.tipped;
    } finally {
      $('test-tip').disabled = false;
    }
  });
  $('tip-angle').value = tower.tipAngle;
  $('rest-angle').value = tower.restAngle;
  $('save-angles').addEventListener('click', async () => {
    showTower(await api('PUT', '/api/setup/tower/angles', { tipAngle: Number($('tip-angle').value), restAngle: Number($('rest-angle').value) }));
  });
  const poll = async () => {
    try {
      showTower(await api('GET', '/api/setup/tower'));
    } finally {
      setTimeout(poll, POLL_MS);
    }
  };
  setTimeout(poll, POLL_MS);
}
