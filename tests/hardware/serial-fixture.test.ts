/**
 * The driver fed the firmware's recorded replies (`fixtures/serial/`, made by
 * record-serial-fixture.ts from the real .hex) one byte at a time and split at
 * every point: each message is handled exactly once, wherever the serial port
 * cuts the stream.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FirmataTower, type TowerTransport } from '../../src/hardware/firmata-tower.js';
import { FIXTURE_PATH } from './fixture-path.js';

interface Step {
  readonly label: string;
  readonly hostSent: string;
  readonly boardSent: string;
}
const { steps } = JSON.parse(readFileSync(FIXTURE_PATH, 'utf8')) as { steps: Step[] };
const byLabel = (prefix: string) => steps.find((s) => s.label.startsWith(prefix))!;

/** A port that answers each host message with the recorded reply, cut into chunks by `split`. */
class ReplayPort extends EventEmitter implements TowerTransport {
  isOpen = false;
  readonly path = '/dev/ttyREPLAY';
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly split: (bytes: Buffer) => Buffer[]) {
    super();
  }

  open(callback?: (error: Error | null) => void): void {
    setImmediate(() => {
      this.isOpen = true;
      this.emit('open');
      callback?.(null);
      this.deliver(byLabel('power-on').boardSent);
    });
  }

  write(data: Buffer, callback?: (error?: Error | null) => void): boolean {
    const step = steps.find((s) => s.hostSent === data.toString('hex') && s.boardSent);
    if (step && !step.label.startsWith('ROLL')) this.deliver(step.boardSent);
    setImmediate(() => callback?.(null));
    return true;
  }

  close(callback?: (error?: Error | null) => void): void {
    this.isOpen = false;
    setImmediate(() => {
      this.emit('close');
      callback?.(null);
    });
  }

  /** Sends bytes as the board would, chunk by chunk, each in its own turn of the event loop. */
  deliver(hex: string, split = this.split): void {
    for (const chunk of split(Buffer.from(hex, 'hex'))) {
      this.queue = this.queue.then(() => new Promise<void>((resolve) => setImmediate(() => {
        if (this.isOpen) this.emit('data', chunk);
        resolve();
      })));
    }
  }
}

const byteByByte = (bytes: Buffer) => [...bytes].map((b) => Buffer.from([b]));
const whole = (bytes: Buffer) => [bytes];

const towers: FirmataTower[] = [];
afterEach(async () => {
  for (const t of towers.splice(0)) await t.close();
});

async function connectReplay(split: (bytes: Buffer) => Buffer[]): Promise<{ tower: FirmataTower; port: ReplayPort }> {
  const port = new ReplayPort(split);
  const tower = new FirmataTower({
    openTransport: () => port,
    tipAngle: 150, restAngle: 30, holdMs: 150, returnTimeoutMs: 300, answerMarginMs: 500,
    heartbeatMs: 1000, readyTimeoutMs: 2000, reconnect: false,
  });
  towers.push(tower);
  await tower.connect();
  return { tower, port };
}

describe('the recorded firmware session', () => {
  it('connects, rolls and reports the button with every reply arriving one byte at a time', async () => {
    const { tower, port } = await connectReplay(byteByByte);
    expect(tower.mode).toBe('tower-sysex');
    expect(tower.firmware).toBe('DiceTower');
    const presses: number[] = [];
    tower.on('button', (e) => presses.push(e.at));
    const roll = tower.roll(2);
    port.deliver(byLabel('ROLL').boardSent);
    await roll;
    port.deliver(byLabel('button').boardSent);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(presses).toHaveLength(1);
  });

  it('handles the status, cycle-done and button reports once each, split at every point', async () => {
    const stream = Buffer.from(byLabel('QUERY_STATUS').boardSent + byLabel('ROLL').boardSent + byLabel('button').boardSent, 'hex');
    for (let cut = 1; cut < stream.length; cut++) {
      const { tower, port } = await connectReplay(whole);
      let done = 0;
      let presses = 0;
      tower.on('button', () => presses++);
      const roll = tower.roll(1).then(() => done++);
      port.deliver(stream.toString('hex'), (bytes) => [bytes.subarray(0, cut), bytes.subarray(cut)]);
      await roll;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect([done, presses], `cut at ${cut}`).toEqual([1, 1]);
      await tower.close();
    }
  });
});
