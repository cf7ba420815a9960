// The new-game form offers the names of recent players (GET /api/players) on every player field.
const LIST_ID = 'recent-players';

function datalist() {
  let list = document.getElementById(LIST_ID);
  if (!list) {
    list = document.createElement('datalist');
    list.id = LIST_ID;
    list.dataset.testid = LIST_ID;
    document.body.append(list);
  }
  return list;
}

async function refresh() {
  try {
    const res = await fetch('/api/players');
    if (!res.ok) return;
    const players = await res.json();
    datalist().replaceChildren(...players.map((p) => Object.assign(document.createElement('option'), { value: p.name })));
  } catch {
    // No names offered; typing still works.
  }
}

/** Watches the player fields (the form rebuilds them) and points each at the list; fresh names each time the form opens. */
export function offerRecentNames() {
  const inputs = document.getElementById('player-inputs');
  const setup = document.getElementById('setup');
  if (!inputs || !setup) return;
  const link = () => {
    for (const input of inputs.querySelectorAll('input[name=player]')) input.setAttribute('list', LIST_ID);
  };
  new MutationObserver(link).observe(inputs, { childList: true, subtree: true });
  // A game may have finished since the form was last open.
  new MutationObserver(() => {
    if (!setup.hidden) void refresh();
  }).observe(setup, { attributes: true, attributeFilter: ['hidden'] });
  link();
  void refresh();
}
