/**
 * Records simulator frames of scenes a roll must not be accepted from
 * (`fixtures/scenes/`) and of Las Vegas throws with coloured and big dice
 * (`fixtures/las-vegas/`): `<case>.jpg` plus `<case>.json` with the truth and
 * what the reader must say. Seeded: running it again writes the same files.
 *
 *   npx tsx scripts/record-scenes.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { SeededRandom, type DieColour } from '../src/hardware/index.js';
import {
  cockedScene,
  DEFAULT_TRAY,
  LAS_VEGAS_COLOURS,
  lasVegasHopper,
  outsideScene,
  renderTray,
  stackedScene,
  throwDice,
  throwHopper,
  touchingScene,
  type SimDie,
} from '../src/hardware/simulator/index.js';
import type { ReadingIssueCode } from '../src/vision/index.js';

const rng = (seed: number) => new SeededRandom(seed);
const mixed: DieColour[] = ['red', 'white', 'blue', 'black', 'green', 'yellow'];

interface SceneCase {
  readonly dice: readonly SimDie[];
  /** How many dice the game asked for. */
  readonly expectedCount: number;
  /** The issue code the reading must give first. */
  readonly issue: ReadingIssueCode;
  readonly note: string;
}

const scenes: Record<string, SceneCase> = {
  'cocked-1': { dice: cockedScene(rng(11), 3, ['red', 'white', 'blue'], 30), expectedCount: 3, issue: 'cocked', note: 'red die tipped 30 degrees' },
  'cocked-2': { dice: cockedScene(rng(21), 5, mixed, 25), expectedCount: 5, issue: 'cocked', note: 'red die tipped 25 degrees among four flat dice' },
  'cocked-3': { dice: cockedScene(rng(31), 2, ['white', 'black'], 40), expectedCount: 2, issue: 'cocked', note: 'white die tipped 40 degrees' },
  'stacked-1': { dice: stackedScene(rng(12), 3, ['green', 'yellow', 'black']), expectedCount: 4, issue: 'stacked', note: 'a green die lying on a green die' },
  'stacked-2': { dice: stackedScene(rng(22), 4, ['blue', 'red', 'white', 'grey']), expectedCount: 5, issue: 'stacked', note: 'a blue die lying on a blue die' },
  'stacked-3': { dice: stackedScene(rng(32), 2, ['white', 'red']), expectedCount: 3, issue: 'stacked', note: 'a white die lying on a white die' },
  'touching-1': { dice: touchingScene(rng(13), 3, ['white', 'grey', 'red']), expectedCount: 3, issue: 'object', note: 'two white dice pressed flush together' },
  'touching-2': { dice: touchingScene(rng(23), 4, ['red', 'blue', 'green', 'white']), expectedCount: 4, issue: 'object', note: 'two red dice pressed flush together' },
  // (outsideScene clears the dice near the edge: the game asked for the dice left)
  'outside-1': { dice: outsideScene(rng(14), 3, ['blue', 'red', 'purple'], 0.5), expectedCount: 3, issue: 'outside', note: 'half a die beyond the left edge' },
  'outside-2': { dice: outsideScene(rng(24), 4, mixed, 0.2), expectedCount: 3, issue: 'outside', note: 'a fifth of a die beyond the left edge' },
  'missing-1': { dice: throwDice(rng(15), 4, mixed), expectedCount: 5, issue: 'too_few', note: 'four dice where five were thrown' },
  'extra-1': { dice: throwDice(rng(16), 4, mixed), expectedCount: 3, issue: 'too_many', note: 'four dice where three were thrown' },
  // Rendered with no pips at all (value 0): a face washed out by glare, worn or covered.
  'unreadable-1': { dice: throwDice(rng(17), 3, ['white', 'red', 'green']).map((d, i) => (i === 0 ? { ...d, value: 0 } : d)), expectedCount: 3, issue: 'unreadable', note: 'the white die shows no pips' },
  'empty-1': { dice: [], expectedCount: 3, issue: 'empty', note: 'no dice at all' },
};

const truth = (dice: readonly SimDie[]) =>
  dice.map((d) => ({
    value: d.value,
    colour: d.colour,
    sizeClass: d.sizeClass ?? 'normal',
    x: Math.round(d.x * 10) / 10,
    y: Math.round(d.y * 10) / 10,
    size: d.size,
    angle: Math.round(d.angle * 10) / 10,
    ...(d.tilt ? { tilt: d.tilt } : {}),
  }));

function write(dir: URL, name: string, dice: readonly SimDie[], noiseSeed: number, extra: object): void {
  writeFileSync(new URL(`${name}.jpg`, dir), renderTray(dice, DEFAULT_TRAY, { noiseSeed }));
  const json = { source: 'simulator', width: DEFAULT_TRAY.width, height: DEFAULT_TRAY.height, dieSize: DEFAULT_TRAY.dieSize, ...extra, dice: truth(dice) };
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`${name}: ${dice.length} dice`);
}

const sceneDir = new URL('../fixtures/scenes/', import.meta.url);
mkdirSync(sceneDir, { recursive: true });
let noise = 500;
for (const [name, c] of Object.entries(scenes)) write(sceneDir, name, c.dice, noise++, { note: c.note, expectedCount: c.expectedCount, valid: false, issue: c.issue });

// Las Vegas: one throw per player colour, then mixed throws; every frame reads valid.
const lvDir = new URL('../fixtures/las-vegas/', import.meta.url);
mkdirSync(lvDir, { recursive: true });
LAS_VEGAS_COLOURS.forEach((own, i) => {
  const r = rng(700 + i);
  const dice = throwHopper(r, lasVegasHopper(r, own));
  write(lvDir, `lv-${own}`, dice, 700 + i, { note: `a ${own} player's throw`, expectedCount: dice.length, valid: true });
});
// Secret colours / solo: one die of each colour; the largest throw: 8 own, the big die, 4 white.
const secret = throwHopper(rng(720), LAS_VEGAS_COLOURS.map((colour) => ({ colour, size: 'normal' as const })));
write(lvDir, 'lv-secret-colours', secret, 720, { note: 'one die of each of the eight colours', expectedCount: secret.length, valid: true });
const largest = throwHopper(rng(721), [
  ...Array.from({ length: 8 }, () => ({ colour: 'grey', size: 'normal' as const })),
  { colour: 'grey', size: 'big' as const },
  ...Array.from({ length: 4 }, () => ({ colour: 'white', size: 'normal' as const })),
]);
write(lvDir, 'lv-largest', largest, 721, { note: 'eight grey dice, the grey big die and four white neutral dice', expectedCount: largest.length, valid: true });
