/**
 * The feed's broadcasts are framed once (feed.ts `textFrame`) and the same
 * bytes written to every socket: `ws`'s own reader must take each frame as
 * one text message, whatever its length (the three length forms of RFC 6455).
 */
import { describe, expect, it } from 'vitest';
import type { Writable } from 'node:stream';
import * as ws from 'ws';

/** ws's frame reader, which a viewer's `ws` client reads the feed with (exported by ws, not declared by @types/ws). */
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean; maxPayload: number }) => Writable };
import { textFrame } from '../../src/api/feed.js';

/** The messages `ws`'s reader (a client's: frames from a server are not masked) makes of `bytes`, fed in two pieces cut at `cut`. */
function received(bytes: Buffer, cut: number): Promise<Array<{ text: string; binary: boolean }>> {
  const messages: Array<{ text: string; binary: boolean }> = [];
  const receiver = new Receiver({ isServer: false, maxPayload: 0 });
  receiver.on('message', (data: Buffer, isBinary: boolean) => messages.push({ text: data.toString(), binary: isBinary }));
  return new Promise((resolve, reject) => {
    receiver.on('error', reject);
    receiver.write(bytes.subarray(0, cut));
    receiver.end(bytes.subarray(cut), () => resolve(messages));
  });
}

describe('a broadcast frame', () => {
  for (const length of [0, 1, 125, 126, 127, 65_535, 65_536, 200_000]) {
    it(`of ${length} bytes is one text message of those bytes to ws`, async () => {
      const payload = Buffer.from(`{"type":"patch","v":1,"pad":"${'x'.repeat(length)}`.slice(0, length));
      expect(payload.length).toBe(length);
      const frame = textFrame(payload);
      // Two of them back to back, cut in the middle of the first's header or payload: two messages, each whole.
      const two = Buffer.concat([frame, frame]);
      for (const cut of [1, Math.min(3, two.length), Math.floor(frame.length / 2) + 1, frame.length]) {
        expect(await received(two, cut)).toEqual([
          { text: payload.toString(), binary: false },
          { text: payload.toString(), binary: false },
        ]);
      }
    });
  }
});
