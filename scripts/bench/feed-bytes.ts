/**
 * Where the lean feed's bytes go: the same game as `bench:fanout` (simulated
 * tower, real reader, Dice Poker, the bot deciding between rolls, same seeds),
 * with no sockets. Each change is diffed from the view before it as the feed
 * does for the public (src/api/feed.ts), and the bytes of each patch message
 * are split by the view's field its operations touch (the message's own
 * envelope apart): the top-level field, or with `--depth 2` the field below it
 * too (array indices shown as #). Prints bytes per roll per field, and what
 * the same messages would weigh compressed one by one as permessage-deflate
 * without context takeover would send them (the feed sends them uncompressed).
 *
 *   npx tsx scripts/bench/feed-bytes.ts [-- --rolls 60 --depth 1]
 */
import { deflateRawSync, constants as zlib } from 'node:zlib';
import { SeededRandom, createSimulator } from '../../src/hardware/index.js';
import { Table, type TableGame } from '../../src/table.js';
import { createDiceReader } from '../../src/vision/index.js';
import { gameView, type GameView } from '../../src/api/views.js';
import { patchMessage } from '../../src/api/feed.js';
import { diffViews, toWire, type Json } from '../../src/api/view-diff.js';
import { numberFlag, printFigures, printTable, round } from './lib.js';

const rolls = numberFlag('rolls', 60);
const depth = numberFlag('depth', 1);
/** The field an operation's path falls under, `depth` segments deep. */
const fieldOf = (path: string) => path.split('/').slice(1, depth + 1).map((s) => (/^(\d+|-)$/.test(s) ? '#' : s)).join('/') || '(root)';
const sim = createSimulator({ seed: 21, colours: ['red'] });
const table = new Table({ tower: sim.tower, camera: sim.camera, reader: createDiceReader(), botDelayMs: 0 });
const held = new Map<string, GameView>();
const byField = new Map<string, number>();
let total = 0;
let wholeViews = 0;
let deflated = 0;
/** A message's size compressed alone, as a permessage-deflate frame without context takeover (no 4-byte flush tail). */
const deflatedSize = (text: string) => deflateRawSync(Buffer.from(text), { finishFlush: zlib.Z_SYNC_FLUSH }).length - 4;
table.subscribe((event) => {
  if (event.type === 'game') measure(event.game);
});
function measure(game: TableGame) {
  const view = gameView(table, game);
  const before = held.get(game.id);
  held.set(game.id, view);
  if (!before) {
    const text = JSON.stringify({ type: 'game', v: 1, seq: 1, game: view });
    const bytes = Buffer.byteLength(text);
    deflated += deflatedSize(text);
    wholeViews += bytes;
    total += bytes;
    return;
  }
  const ops = diffViews(before as unknown as Json, view as unknown as Json);
  const text = patchMessage(game.id, 1, ops);
  const bytes = Buffer.byteLength(text);
  total += bytes;
  deflated += deflatedSize(text);
  let inOps = 0;
  for (const op of ops) {
    const b = Buffer.byteLength(JSON.stringify(toWire(op))) + 1;
    inOps += b;
    const field = fieldOf(op.path);
    byField.set(field, (byField.get(field) ?? 0) + b);
  }
  byField.set('(envelope)', (byField.get('(envelope)') ?? 0) + bytes - inOps);
}

const bot = new SeededRandom(3);
let game = table.create('dice-poker', ['Ann', 'Bob']);
for (let i = 0; i < rolls; i++) {
  if (table.definition(game).result(game.state)) game = table.create('dice-poker', ['Ann', 'Bob']);
  game = await table.roll(game.id);
  for (let choice = table.definition(game).bot(game.state, () => bot.next()); choice && !table.definition(game).result(game.state); choice = table.definition(game).bot(game.state, () => bot.next())) {
    game = table.act(game.id, choice);
  }
}
const rows = [...byField.entries()].sort((a, b) => b[1] - a[1]).map(([field, bytes]) => [field, round(bytes / rolls)] as [string, number]);
rows.push(['(whole views of new games)', round(wholeViews / rolls)]);
console.log(`Feed bytes per roll by view field, public audience, ${rolls} rolls`);
printTable(['field', 'bytes per roll'], [...rows, ['total', round(total / rolls)], ['total, each message deflated alone', round(deflated / rolls)]]);
printFigures('feed-bytes', { rolls, bytesPerRoll: round(total / rolls), deflatedBytesPerRoll: round(deflated / rolls), byField: Object.fromEntries(rows) });
