// The tower's status line in the top bar: connecting, ready, rolling (how many dice), or the fault as reported.
import { $ } from './dom.js';
import { t } from './i18n.js';

/** `tower`: the last status from the feed, null while the feed is down; `everConnected`: the feed was up once. */
export function renderTower(tower, everConnected) {
  const el = $('tower-status');
  const st = tower ? tower.state : 'unknown';
  el.dataset.state = st;
  // The status's message is the API's English: ready and a plain roll are worded here; a retry's or a fault's
  // details (from the reader and the hardware) stay as they come.
  const rollingDice = /^Rolling (\d+) dice?$/.exec(tower?.message ?? '');
  let text;
  if (!tower) text = t(everConnected ? 'scoreboard.towerNoConnection' : 'scoreboard.towerConnecting');
  else if (st === 'ready') text = t('scoreboard.towerReady');
  else if (st === 'rolling') text = rollingDice ? t('scoreboard.towerRollingDice', { count: Number(rollingDice[1]) }) : `${tower.message || t('scoreboard.rolling')}…`;
  else text = /fault/i.test(tower.message) ? tower.message : t('scoreboard.towerFault', { message: tower.message });
  el.querySelector('.tower-text').textContent = text;
  el.title = text;
}
