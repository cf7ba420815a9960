/**
 * Fuzzing the WebSocket feed with generated malformed messages: text that is
 * not JSON, JSON of every shape, objects whose `type` is each message type
 * the feed knows (and ones it might learn: auth, subscribe...) with junk
 * beside it, binary frames, and messages over the size cap. Every message
 * gets a reply: an error naming the problem, or the answer to a well-formed
 * message of the feed (pong, auth, subscribed); a client that keeps sending
 * junk is closed with 1008 (abuse, `MAX_STRIKES` in src/api/feed.ts) and the
 * fuzzer connects again; over the cap the socket is closed with 1009. The
 * server keeps serving every other client, and no game changes. With the
 * REST fuzzing this makes 10 000 inputs.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TOKEN, buildFixture, type Fixture } from './app-fixture.js';

const MESSAGES = Number(process.env.FUZZ_WS_MESSAGES ?? 1000);
/** The cap set in app.ts (`maxPayload`). */
const MAX_PAYLOAD = 4096;

let fx: Fixture;
let url = '';
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

const TYPES = ['snapshot', 'game', 'tower', 'notice', 'error', 'auth', 'hello', 'subscribe', 'unsubscribe', 'ping', 'roll', 'act', 'action', 'create', 'score', 'hold', 'reissue', 'operator', '__proto__', 'constructor'];

const message: fc.Arbitrary<{ data: string | Buffer; what: string }> = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => ({ data: s, what: 'text' })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => ({ data: s, what: 'unicode text' })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => ({ data: JSON.stringify(v) ?? 'null', what: 'JSON' })),
  fc
    .record({
      type: fc.oneof(fc.constantFrom(...TYPES), fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
      v: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 1 })),
      token: fc.oneof(fc.constant(OPERATOR_TOKEN.slice(0, 10)), fc.string({ maxLength: 120 })),
      gameId: fc.oneof(fc.uuid(), fc.string({ maxLength: 70 })),
      rest: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    }, { requiredKeys: ['type'] })
    .map(({ rest, ...fields }) => ({ data: JSON.stringify({ ...rest, ...fields }), what: 'typed message' })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => ({ data: Buffer.from(b), what: 'binary' })),
  fc.constantFrom('{', '{"type":', '[', '"', '\u0000', '{"type":"game","game":{"id":"x"}}{').map((s) => ({ data: s, what: 'broken JSON' })),
);

describe('the WebSocket feed under malformed messages', () => {
  it(`answers ${MESSAGES} generated messages with errors, keeps every client served, and changes nothing`, async () => {
    const before = fx.fingerprint();
    const watcher = await connect(); // a scoreboard that sends nothing: it must stay served throughout
    let client = await connect();
    let sent = 0;
    let abuseCloses = 0;
    await fc.assert(
      fc.asyncProperty(message, async ({ data }) => {
        if (client.ws.readyState !== WebSocket.OPEN) {
          // Closed for abuse (too many bad messages): the server says so with 1008; connect again.
          expect(await client.closed).toBe(1008);
          abuseCloses++;
          client = await connect();
        }
        const replies = client.received.length;
        client.ws.send(data);
        sent++;
        await expect.poll(() => client.received.length, { timeout: 5000, interval: 2 }).toBe(replies + 1);
        const reply = client.received.at(-1) as { type: string; message?: string };
        expect(['error', 'pong', 'auth', 'subscribed']).toContain(reply.type);
        if (reply.type === 'error') expect(reply.message).toEqual(expect.any(String));
      }),
      { numRuns: MESSAGES, seed: 20261130, endOnFailure: true },
    );
    expect(abuseCloses).toBeGreaterThan(0);
    if (client.ws.readyState !== WebSocket.OPEN) {
      await client.closed;
      client = await connect();
    }
    // Over the cap: the socket is closed with "message too big", the server carries on.
    const oversized = client.closed;
    client.ws.send('x'.repeat(MAX_PAYLOAD + 1));
    expect(await oversized).toBe(1009);
    client = await connect();
    client.ws.send(Buffer.alloc(MAX_PAYLOAD * 4, 7));
    expect(await client.closed).toBe(1009);

    expect(sent).toBe(MESSAGES);
    expect(fx.fingerprint()).toEqual(before);
    // The quiet scoreboard still gets changes, and the REST API still answers.
    const received = watcher.received.length;
    await fx.table.roll(fx.games.fresh, [1, 2, 3, 4, 5]);
    await expect.poll(() => watcher.received.length).toBe(received + 1);
    expect(watcher.received.at(-1)).toMatchObject({ type: 'game' });
    expect((await fx.app.inject('/api/health')).statusCode).toBe(200);
    watcher.ws.close();
  }, 120_000);
});
