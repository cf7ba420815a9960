/**
 * Records frame sequences for the settle detector (`fixtures/settle/<case>/`):
 * dice tumbling into the tray and coming to rest, dice that never stop (a
 * jam), and still dice whose last frames read differently (they must not be
 * trusted). `sequence.json` holds the frame period, the truth of the final
 * scene and what the detector must conclude. Seeded: reruns write the same files.
 *
 *   npx tsx scripts/record-settle.ts
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { SeededRandom } from '../src/hardware/index.js';
import { renderTray, throwDice, type SimDie, type TrayGeometry } from '../src/hardware/simulator/index.js';

/** Small frames keep the fixtures light; dice of 48 px read as well as 64 px ones. */
const TRAY: TrayGeometry = { width: 640, height: 480, dieSize: 48 };
const INTERVAL_MS = 200;

/** The dice `k` frames before they come to rest: further back along their path, turned, showing another face. */
function tumbling(rest: readonly SimDie[], k: number, rng: SeededRandom): SimDie[] {
  return rest.map((d, i) => ({
    ...d,
    x: Math.min(TRAY.width - 40, Math.max(40, d.x - k * (18 + 6 * i))),
    y: Math.min(TRAY.height - 40, Math.max(40, d.y - k * (10 - 7 * i))),
    angle: (d.angle + k * 23) % 90,
    value: rng.int(1, 6),
  }));
}

function record(name: string, frames: readonly (readonly SimDie[])[], meta: object): void {
  const dir = new URL(`../fixtures/settle/${name}/`, import.meta.url);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  frames.forEach((dice, i) => writeFileSync(new URL(`frame-${String(i).padStart(2, '0')}.jpg`, dir), renderTray(dice, TRAY, { noiseSeed: 9000 + i })));
  const last = frames.at(-1) ?? [];
  const json = { source: 'simulator', width: TRAY.width, height: TRAY.height, dieSize: TRAY.dieSize, intervalMs: INTERVAL_MS, frames: frames.length, ...meta, dice: last.map((d) => ({ value: d.value, colour: d.colour, x: Math.round(d.x * 10) / 10, y: Math.round(d.y * 10) / 10, size: d.size })) };
  writeFileSync(new URL('sequence.json', dir), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`${name}: ${frames.length} frames`);
}

// Tumbling for 5 frames, then still for 5.
{
  const rng = new SeededRandom(31);
  const rest = throwDice(rng, 3, ['red', 'white', 'blue'], TRAY);
  const frames = [5, 4, 3, 2, 1].map((k) => tumbling(rest, k, rng));
  for (let i = 0; i < 5; i++) frames.push(rest);
  record('rolls-then-still', frames, { expect: 'settled', note: 'three dice tumble for five frames, then lie still', stillFrom: 5 });
}
// A die rocking on a baffle edge: never still.
{
  const rng = new SeededRandom(32);
  const rest = throwDice(rng, 2, ['green', 'yellow'], TRAY);
  const frames = Array.from({ length: 12 }, (_, i) => [{ ...(rest[0] as SimDie), angle: (rest[0] as SimDie).angle + (i % 2 === 0 ? 12 : -12), x: (rest[0] as SimDie).x + (i % 2 === 0 ? 6 : -6) }, rest[1] as SimDie]);
  record('never-still', frames, { expect: 'jam', note: 'a green die rocks to and fro and never settles' });
}
// Still, but the last frames disagree: one frame shows the black die with another face (a glint, a die balanced on an edge).
{
  const rng = new SeededRandom(33);
  const rest = throwDice(rng, 3, ['black', 'purple', 'grey'], TRAY);
  const frames = [3, 2, 1].map((k) => tumbling(rest, k, rng));
  for (let i = 0; i < 5; i++) frames.push(rest);
  const first = rest[0] as SimDie;
  frames[6] = [{ ...first, value: first.value === 6 ? 5 : first.value + 1 }, ...rest.slice(1)];
  record('still-but-disagrees', frames, { expect: 'disagree', note: 'still from frame 3; frame 6 shows the black die with one more pip' });
}
