/**
 * Fuzzing the WebSocket feed with generated malformed messages: text that is
 * not JSON, JSON of every shape, objects whose `type` is each message type
 * the feed takes or sends (from feed.ts, so new ones are covered) with junk
 * beside it, binary frames, and messages over the size cap. Every message
 * gets a reply, or the feed closes that socket (too many bad messages, too
 * many messages, over the cap) and the fuzzer opens another; the server keeps
 * serving every other client, and no game changes (the fuzzer is a viewer: it
 * never has the operator's token). With the REST fuzzing, 10 000 inputs.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from '../../src/api/feed.js';
import { OPERATOR_TOKEN, buildFixture, type Fixture } from './app-fixture.js';

const MESSAGES = Number(process.env.FUZZ_WS_MESSAGES ?? 1000);
/** The cap set in app.ts (`maxPayload`). */
const MAX_PAYLOAD = 4096;

let fx: Fixture;
let url = '';
const realGame = (name: unknown) => (name === 'fresh' || name === 'midTurn' || name === 'secret' ? fx.games[name] : name);
beforeAll(async () => {
  fx = await buildFixture();
  await fx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(fx.app.server.address() as { port: number }).port}/ws`;
});
afterAll(async () => {
  await fx.close();
});

/** A feed client that collects what it is sent. */
async function connect(): Promise<{ ws: WebSocket; received: Array<{ type: string }>; closed: Promise<number> }> {
  const ws = new WebSocket(url);
  const received: Array<{ type: string }> = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as { type: string }));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await expect.poll(() => received.length).toBeGreaterThan(0); // the snapshot
  return { ws, received, closed };
}

const TYPES = [...Object.keys(CLIENT_MESSAGES), ...SERVER_MESSAGES, 'action', 'create', 'score', 'hold', 'reissue', 'operator', '__proto__', 'constructor'];

const message: fc.Arbitrary<{ data: string | Buffer; what: string }> = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => ({ data: s, what: 'text' })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => ({ data: s, what: 'unicode text' })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => ({ data: JSON.stringify(v) ?? 'null', what: 'JSON' })),
  fc
    .record({
      type: fc.oneof(fc.constantFrom(...TYPES), fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
      v: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 1 })),
      token: fc.oneof(fc.constant(OPERATOR_TOKEN.slice(0, 10)), fc.string({ maxLength: 220 })),
      game: fc.oneof(fc.uuid(), fc.string({ maxLength: 70 }), fc.constantFrom('fresh', 'midTurn', 'secret')),
      seat: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.jsonValue({ maxDepth: 1 })),
      games: fc.oneof(fc.constant('all'), fc.array(fc.string({ maxLength: 70 }), { maxLength: 60 }), fc.jsonValue({ maxDepth: 1 })),
      ref: fc.jsonValue({ maxDepth: 1 }),
      rest: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    }, { requiredKeys: ['type'] })
    // Real game ids where the generator named one, so messages about existing games are tried too.
    .map(({ rest, game, ...fields }) => ({ ...fields, ...(game === undefined ? {} : { game: realGame(game) }), rest }))
    .map(({ rest, ...fields }) => ({ data: JSON.stringify({ ...rest, ...fields }), what: 'typed message' })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => ({ data: Buffer.from(b), what: 'binary' })),
  fc.constantFrom('{', '{"type":', '[', '"', '\u0000', '{"type":"game","game":{"id":"x"}}{').map((s) => ({ data: s, what: 'broken JSON' })),
);

describe('the WebSocket feed under malformed messages', () => {
  it(`answers ${MESSAGES} generated messages or closes abusive sockets, keeps every client served, and changes nothing`, async () => {
    const before = fx.fingerprint();
    const watcher = await connect(); // a scoreboard that sends nothing: it must stay served throughout
    let client = await connect();
    let sent = 0;
    let reconnects = 0;
    await fc.assert(
      fc.asyncProperty(message, async ({ data }) => {
        if (client.ws.readyState !== WebSocket.OPEN) {
          client = await connect();
          reconnects++;
        }
        const replies = client.received.length;
        let closed = false;
        void client.closed.then((code) => {
          closed = true;
          expect([1008, 1009]).toContain(code); // too many bad messages or messages; over the cap
        });
        client.ws.send(data);
        sent++;
        // A reply (error, pong, auth, subscribed...), or the feed closes this socket.
        await expect.poll(() => closed || client.received.length > replies, { timeout: 5000, interval: 2 }).toBe(true);
        for (const reply of client.received.slice(replies)) expect((SERVER_MESSAGES as readonly string[]).includes(reply.type), JSON.stringify(reply)).toBe(true);
      }),
      { numRuns: MESSAGES, seed: 20261130, endOnFailure: true },
    );
    if (client.ws.readyState !== WebSocket.OPEN) client = await connect();
    // Over the cap: the socket is closed with "message too big", the server carries on.
    const oversized = client.closed;
    client.ws.send('x'.repeat(MAX_PAYLOAD + 1));
    expect(await oversized).toBe(1009);
    client = await connect();
    client.ws.send(Buffer.alloc(MAX_PAYLOAD * 4, 7));
    expect(await client.closed).toBe(1009);

    expect(sent).toBe(MESSAGES);
    expect(reconnects).toBeGreaterThan(0); // the feed does close abusive sockets
    expect(fx.fingerprint()).toEqual(before);
    // The quiet scoreboard still gets changes, and the REST API still answers.
    const received = watcher.received.length;
    await fx.table.roll(fx.games.fresh, [1, 2, 3, 4, 5]);
    await expect.poll(() => watcher.received.slice(received).some((m) => m.type === 'patch' || m.type === 'game')).toBe(true);
    expect((await fx.app.inject('/api/health')).statusCode).toBe(200);
    watcher.ws.close();
  }, 120_000);
});
