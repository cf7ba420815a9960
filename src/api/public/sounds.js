// Short sounds for the room (issue #46): a roll, a decision scored, a win.
// Synthesized with the Web Audio API (a few oscillator notes), so no audio
// files are shipped. The scoreboard has a toggle (kept in this browser); the
// overlay is muted unless its link says ?sound=on.
import { t } from './i18n.js';
import { cueFor } from './sound-cues.js';

/** Each cue as notes: [frequency Hz, start s, length s, wave]. */
const CUES = {
  roll: [
    [220, 0, 0.05, 'square'],
    [180, 0.06, 0.05, 'square'],
    [240, 0.12, 0.05, 'square'],
    [200, 0.18, 0.06, 'square'],
  ],
  score: [
    [660, 0, 0.09, 'triangle'],
    [990, 0.08, 0.14, 'triangle'],
  ],
  win: [
    [523, 0, 0.14, 'triangle'],
    [659, 0.13, 0.14, 'triangle'],
    [784, 0.26, 0.14, 'triangle'],
    [1047, 0.39, 0.4, 'triangle'],
  ],
};

const KEY = 'dice-tower-sound';
const TEXT = { label: t('sound.label'), title: t('sound.title') };

let audio = null;
/** What each game last looked like here: id → { rollCount, stepCount, version, over }. */
const last = new Map();

/** Sound is on in this browser (the scoreboard's toggle); `fallback` before it was ever set. */
export function soundOn(fallback = true) {
  const kept = localStorage.getItem(KEY);
  return kept === null ? fallback : kept === 'on';
}

/**
 * The audio context, made and resumed: Chrome starts a context suspended
 * unless a click made it, and keeps it so; the toggle's click calls this too,
 * so a first cue with no click (a TV scoreboard, a bot's roll) is not silent for good.
 */
function audioContext() {
  audio ??= new AudioContext();
  if (audio.state === 'suspended') void audio.resume();
  return audio;
}

/** The audio context's state ('none' before any), for the browser tests. */
export const audioState = () => audio?.state ?? 'none';

function play(name) {
  const notes = CUES[name];
  audioContext();
  const t0 = audio.currentTime + 0.01;
  for (const [freq, start, length, type] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    // A quick fade in and out: no clicks.
    gain.gain.setValueAtTime(0, t0 + start);
    gain.gain.linearRampToValueAtTime(0.18, t0 + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.001, t0 + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
  // For whoever checks the room heard it (the browser tests).
  document.body.dataset.lastSound = name;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds ?? 0) + 1);
}


/** Plays the cue `game`'s change calls for, when `enabled`. */
export function cueSounds(game, enabled) {
  const before = last.get(game.id);
  last.set(game.id, { rollCount: game.rollCount, stepCount: game.stepCount, version: game.version, over: Boolean(game.result) });
  const cue = cueFor(before, game);
  if (cue && enabled) play(cue);
}

/** The scoreboard's toggle: `button` flips the kept setting; its label stays, `aria-pressed` tells on or off. */
export function soundToggle(button) {
  const show = () => button.setAttribute('aria-pressed', String(soundOn()));
  button.title = TEXT.title;
  button.textContent = TEXT.label;
  button.hidden = false;
  button.addEventListener('click', () => {
    localStorage.setItem(KEY, soundOn() ? 'off' : 'on');
    // A click may start audio: the context made (or resumed) now plays later cues with no click.
    if (soundOn()) audioContext();
    show();
  });
  show();
}
