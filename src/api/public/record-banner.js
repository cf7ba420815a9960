// The red banner every page shows when the record check at start found the record changed outside
// dice-tower (/api/health's `record`). One module, loaded by each page: the pages stay as they were.
// Once it has asked, <html data-record-checked> says what it found: 'ok' (no banner), 'bad' (the banner is
// shown) or 'unknown' (no answer from the server), so a test waits for that instead of for time to pass.

import { t } from './i18n.js';

/** The banner's text for a failed record check, or null when the record holds (or says nothing). */
export function bannerText(record) {
  if (!record || record.ok) return null;
  const changed = typeof record.firstBad === 'number' ? t('record.changedAt', { event: record.firstBad }) : t('record.changed');
  return `${changed} ${record.message}`;
}

const checked = (result) => {
  document.documentElement.dataset.recordChecked = result;
};

async function showRecordBanner() {
  let health;
  try {
    const res = await fetch('/api/health', { cache: 'no-store' });
    if (!res.ok) return checked('unknown');
    health = await res.json();
  } catch {
    return checked('unknown'); // No server, no news: the page shows its own connection state.
  }
  const text = bannerText(health?.record);
  if (!text) return checked('ok');
  const banner = document.createElement('div');
  banner.id = 'record-banner';
  banner.setAttribute('role', 'alert');
  banner.textContent = text;
  Object.assign(banner.style, {
    position: 'sticky', top: '0', zIndex: '1000', padding: '0.6em 1em', background: '#b00020', color: '#fff', font: 'bold 1rem/1.4 system-ui, sans-serif', textAlign: 'center',
  });
  document.body.prepend(banner);
  checked('bad');
}

showRecordBanner();
