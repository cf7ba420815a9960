// The camera frame of the shown game's last roll, with the read dice outlined over it and a caption (which roll,
// typed in or read and how fast, the tower's attempts, a correction); a roll of an earlier turn is drawn faded.
import { $ } from './dom.js';
import { t } from './i18n.js';
import { drawOutlines } from './reading-overlay.js';
import { isOver } from './game-view.js';

/** " · read 3 4 6, corrected by Kim: the six is a five" — the original reading stays visible. */
function correctionText(roll) {
  const last = roll.corrections?.[roll.corrections.length - 1];
  return last ? ` · ${t('scoreboard.corrected', { read: roll.read.join(' '), by: last.by, reason: last.reason })}` : '';
}

export function renderCamera(game) {
  const b = game.board;
  const last = game.lastRoll;
  const camera = $('camera');
  camera.hidden = isOver(game);
  const key = last ? `${game.id}:${last.seq}` : `${game.id}:none`;
  const caption = $('camera-caption');
  // The dice of the last roll are gone from the table: it belongs to an earlier turn.
  const previousTurn = Boolean(last) && (b.dice ?? []).every((v) => v === null);
  caption.textContent = !last
    ? ''
    : `${previousTurn ? `${t('scoreboard.previousTurn')} · ` : ''}${t('scoreboard.rollOf', { seq: last.seq, dice: last.values.join(' ') })}` +
      (last.source === 'manual' ? ` · ${t('scoreboard.typedIn')}` : last.reading ? ` · ${t('scoreboard.readIn', { ms: Math.round(last.reading.ms) })}${last.attempts > 1 ? ` · ${t('scoreboard.towerAttempts', { count: last.attempts })}` : ''}` : '') +
      correctionText(last);
  camera.classList.toggle('stale', previousTurn);
  // A correction changes the labels, not the picture: redraw the outlines only. What is drawn is kept on the element.
  const outlinesKey = `${key}:${last?.corrections?.length ?? 0}`;
  if (key === camera.dataset.frameKey) {
    if (outlinesKey !== camera.dataset.outlinesKey && last?.reading) drawOutlines($('camera-overlay'), last.reading, last.slots, last.readingValues);
    camera.dataset.outlinesKey = outlinesKey;
    return;
  }
  camera.dataset.frameKey = key;
  camera.dataset.outlinesKey = outlinesKey;

  const frame = $('frame');
  const img = $('camera-frame');
  const overlay = $('camera-overlay');
  const noFrame = $('no-frame');
  // The last roll is the last of the recent ones, which carries its frame's URL.
  const frameUrl = last ? game.recentRolls.find((r) => r.seq === last.seq)?.frameUrl : null;
  if (!last || !frameUrl) {
    frame.hidden = true;
    img.removeAttribute('src');
    img.dataset.seq = '';
    overlay.replaceChildren();
    overlay.dataset.seq = '';
    noFrame.hidden = false;
    noFrame.textContent = t(!last ? 'scoreboard.noRollYet' : 'scoreboard.noFrame');
    return;
  }
  const reading = last.reading;
  const width = reading?.width || 1280;
  const height = reading?.height || 720;
  noFrame.hidden = true;
  frame.hidden = false;
  frame.style.setProperty('--ar', `${width} / ${height}`);
  frame.style.setProperty('--ar-num', String(width / height));
  img.dataset.loaded = 'false';
  img.dataset.seq = String(last.seq);
  img.onload = () => (img.dataset.loaded = 'true');
  img.onerror = () => (img.dataset.loaded = 'error');
  img.src = frameUrl;

  overlay.dataset.seq = String(last.seq);
  drawOutlines(overlay, reading, last.slots, last.readingValues);
}
