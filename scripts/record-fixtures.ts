/**
 * Records simulator frames as vision fixtures: `fixtures/vision/<case>.jpg`
 * plus `<case>.json` with the expected reading (the simulator's truth).
 * The vision tests read these files, so a change to the renderer does not
 * silently change what the reader is tested on.
 *
 *   npx tsx scripts/record-fixtures.ts [count=12]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DIE_COLOURS, SeededRandom } from '../src/hardware/index.js';
import { DEFAULT_TRAY, renderTray, throwDice } from '../src/hardware/simulator/index.js';

const count = Number(process.argv[2] ?? 12);
const dir = new URL('../fixtures/vision/', import.meta.url);
mkdirSync(dir, { recursive: true });

for (let i = 1; i <= count; i++) {
  const seed = 1000 + i;
  const rng = new SeededRandom(seed);
  // Every colour appears across the set; dice per frame from 1 up to 9.
  const n = 1 + ((i - 1) % 9);
  const colours = Array.from({ length: n }, (_, k) => DIE_COLOURS[(i + k) % DIE_COLOURS.length] ?? 'white');
  const dice = throwDice(rng, n, colours);
  const name = `sim-${String(i).padStart(3, '0')}`;
  writeFileSync(new URL(`${name}.jpg`, dir), renderTray(dice, DEFAULT_TRAY, { noiseSeed: seed }));
  const expected = {
    source: 'simulator',
    seed,
    width: DEFAULT_TRAY.width,
    height: DEFAULT_TRAY.height,
    valid: true,
    dice: dice.map((d) => ({ value: d.value, colour: d.colour, x: Math.round(d.x * 10) / 10, y: Math.round(d.y * 10) / 10, size: d.size, angle: Math.round(d.angle * 10) / 10 })),
  };
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`${name}: ${n} dice`);
}
