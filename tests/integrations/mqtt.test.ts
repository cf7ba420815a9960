/**
 * MQTT and Home Assistant against a real Mosquitto (Debian's `mosquitto`,
 * installed by `scripts/setup.sh --test`), started here on a free port with a
 * config of its own; the `mqtt` package is the subscriber. The app publishes
 * through it: every event, the last roll and the tower status retained, and
 * Home Assistant's discovery configs, which a subscriber that comes later
 * still gets (retained).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFixture, type AppFixture } from './app-fixture.js';
import { call, freePort, OPERATOR, until } from './helpers.js';

const MOSQUITTO = '/usr/sbin/mosquitto';
const dir = mkdtempSync(join(tmpdir(), 'dice-tower-mqtt-'));
let broker: ChildProcess | null = null;
let url = '';
let f: AppFixture | null = null;

/** Starts Mosquitto on `port` with a config of its own (no persistence); resolves once a client can connect. */
async function startBroker(port: number): Promise<ChildProcess> {
  const conf = join(dir, `mosquitto-${port}.conf`);
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const proc = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (c) => (log += String(c)));
  await until(`mosquitto on ${port} (${log})`, async () => {
    const probe = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 500 }).catch(() => null);
    await probe?.endAsync();
    return probe !== null;
  }, 10_000);
  return proc;
}

beforeAll(async () => {
  if (!existsSync(MOSQUITTO)) throw new Error(`${MOSQUITTO} is missing: install Debian's mosquitto (scripts/setup.sh --test does).`);
  const port = await freePort();
  broker = await startBroker(port);
  url = `mqtt://127.0.0.1:${port}`;
});

afterAll(async () => {
  await f?.close();
  broker?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

type Message = { topic: string; payload: string; retain: boolean };

async function subscriber(topics: string[], at: string = url) {
  const client = await mqtt.connectAsync(at, { reconnectPeriod: 0 });
  const got: Message[] = [];
  client.on('message', (topic, payload, packet) => got.push({ topic, payload: String(payload), retain: packet.retain }));
  await client.subscribeAsync(topics, { qos: 1 });
  return { client, got, last: (topic: string) => got.filter((m) => m.topic === topic).at(-1) };
}

describe('MQTT and Home Assistant on a real Mosquitto', () => {
  it('publishes events, the last roll and the status (retained) and the discovery configs', async () => {
    const live = await subscriber(['dice-tower/#', 'homeassistant/#']);
    f = await appFixture({ mqtt: { url, tower: 'test tower' } });
    const base = 'dice-tower/test_tower';
    await until('the tower online', () => live.last(`${base}/availability`)?.payload === 'online');
    const game = (await call(f.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
    const rolled = (await call(f.url, 'POST', `/api/games/${game}/roll`, OPERATOR)).body as { lastRoll: { values: number[] } };
    const values = rolled.lastRoll.values;
    await until('the roll on MQTT', () => live.last(`${base}/roll`) !== undefined);
    const roll = JSON.parse(live.last(`${base}/roll`)?.payload ?? '{}') as { values: number[]; sum: number; game: string; dice: unknown[] };
    expect(roll).toMatchObject({ values, sum: values.reduce((a, b) => a + b, 0), game });
    expect(roll.dice).toHaveLength(5);
    await until('the tower ready again', () => JSON.parse(live.last(`${base}/status`)?.payload ?? '{}').state === 'ready');
    // Every event on the events topic, in seq order.
    const head = f.integrations.stream.head();
    await until('every event', () => live.got.filter((m) => m.topic === `${base}/events`).length === head);
    const seqs = live.got.filter((m) => m.topic === `${base}/events`).map((m) => (JSON.parse(m.payload) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));

    // Home Assistant: a config for each sensor, pointing at the topics above.
    const node = 'dice_tower_test_tower';
    const config = (object: string) => JSON.parse(live.last(`homeassistant/sensor/${node}/${object}/config`)?.payload ?? 'null') as Record<string, unknown> | null;
    expect(config('last_roll')).toMatchObject({ name: 'Last roll', state_topic: `${base}/roll`, unique_id: `${node}_last_roll`, availability_topic: `${base}/availability`, device: { identifiers: [node] } });
    expect(config('last_sum')).toMatchObject({ name: 'Last sum', state_topic: `${base}/roll`, value_template: '{{ value_json.sum }}' });
    expect(config('tower_status')).toMatchObject({ name: 'Tower status', state_topic: `${base}/status`, value_template: '{{ value_json.state }}' });

    // A subscriber that comes later gets the retained state: discovery, last roll, status, availability.
    const late = await subscriber(['dice-tower/#', 'homeassistant/#']);
    await until('the retained messages', () => late.got.length >= 6);
    expect(late.got.every((m) => m.retain)).toBe(true);
    expect(JSON.parse(late.last(`${base}/roll`)?.payload ?? '{}')).toMatchObject({ values });
    expect(late.last(`homeassistant/sensor/${node}/last_sum/config`)).toBeDefined();
    expect(late.got.some((m) => m.topic === `${base}/events`)).toBe(false);

    // A correction of the last roll: published again, retained, with the corrected values.
    const fixed = values.map((v) => (v % 6) + 1);
    expect((await call(f.url, 'POST', `/api/games/${game}/rolls/1/correction`, OPERATOR, { values: fixed, reason: 'misread' })).status).toBe(200);
    await until('the corrected roll', () => JSON.parse(live.last(`${base}/roll`)?.payload ?? '{}').sum === fixed.reduce((a, b) => a + b, 0));
    expect(JSON.parse(live.last(`${base}/roll`)?.payload ?? '{}')).toMatchObject({ values: fixed, corrected: true, dice: fixed.map((value) => expect.objectContaining({ value })) });
    expect(live.last(`${base}/roll`)?.retain).toBe(false);
    const later = await subscriber([`${base}/roll`]);
    await until('the retained corrected roll', () => later.got.length > 0);
    expect(JSON.parse(later.got[0]?.payload ?? '{}')).toMatchObject({ values: fixed });
    await later.client.endAsync();

    // Shut down: offline, retained.
    await f.close();
    f = null;
    await until('offline', () => live.last(`${base}/availability`)?.payload === 'offline');
    await live.client.endAsync();
    await late.client.endAsync();
  }, 30_000);

  it('publishes an undo (game.undone) and a game ended without a result (game.abandoned) on the events topic, each once', async () => {
    const live = await subscriber(['dice-tower/undo_end/events']);
    const app = await appFixture({ mqtt: { url, tower: 'undo end' } });
    try {
      await until('the bridge connected', () => app.integrations.mqtt?.client.connected === true);
      const game = (await call(app.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
      expect((await call(app.url, 'POST', `/api/games/${game}/roll`, OPERATOR, { values: [2, 2, 3, 5, 6] })).status).toBe(200);
      expect((await call(app.url, 'POST', `/api/games/${game}/score`, OPERATOR, { category: 'chance' })).status).toBe(200);
      expect((await call(app.url, 'POST', `/api/games/${game}/undo`, OPERATOR, { by: 'Kim' })).status).toBe(200);
      expect((await call(app.url, 'POST', `/api/games/${game}/end`, OPERATOR, { reason: 'dinner' })).status).toBe(200);
      const mine = () => live.got.map((m) => JSON.parse(m.payload) as { type: string; game: string; data: Record<string, unknown> }).filter((e) => e.game === game);
      await until('game.abandoned on MQTT', () => mine().some((e) => e.type === 'game.abandoned'));
      expect(mine().map((e) => e.type)).toEqual(['game.created', 'roll.settled', 'game.action', 'game.undone', 'game.abandoned']);
      expect(mine()[3]).toMatchObject({ data: { undone: [{ seat: 0, action: { type: 'score', category: 'chance' } }], by: 'Kim' } });
      expect(mine()[4]).toMatchObject({ data: { by: 'operator', reason: 'dinner' } });
    } finally {
      await app.close();
      await live.client.endAsync();
    }
  }, 30_000);

  it('a broker that is down slows no roll, is told once, and holds few events; when it is back those and the retained state reach it', async () => {
    const port = await freePort();
    let down: ChildProcess | null = await startBroker(port);
    const brokerUrl = `mqtt://127.0.0.1:${port}`;
    const warnings: string[] = [];
    // One event message kept while the broker is away; tries again every 300 ms.
    const app = await appFixture({ mqtt: { url: brokerUrl, tower: 'away', offlineQueue: 1, reconnectMs: 300, warn: (m) => warnings.push(m) } });
    try {
      await until('the bridge connected', () => app.integrations.mqtt?.client.connected === true);
      const stopped = new Promise((resolve) => down?.once('exit', resolve));
      down.kill('SIGKILL');
      await stopped;
      down = null;
      await until('the bridge to see the broker gone', () => app.integrations.mqtt?.client.connected === false);
      const before = app.integrations.stream.head();
      const game = (await call(app.url, 'POST', '/api/games', OPERATOR, { game: 'dice-poker', players: ['Ann'] })).body.id as string;
      const started = Date.now();
      const rolled = (await call(app.url, 'POST', `/api/games/${game}/roll`, OPERATOR, { values: [6, 5, 4, 3, 3] })).body as { lastRoll: { values: number[] } };
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(rolled.lastRoll.values).toEqual([6, 5, 4, 3, 3]);
      const missed = app.integrations.stream.head();
      expect(missed - before).toBeGreaterThanOrEqual(2);
      // Several attempts fail meanwhile: the refusal is told once.
      await until('a few reconnection attempts', () => (app.integrations.mqtt?.client as unknown as { reconnecting: boolean }).reconnecting, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(warnings.filter((w) => /ECONNREFUSED/.test(w))).toHaveLength(1);
      // The broker back (empty: no persistence); a subscriber there before the bridge reconnects.
      down = await startBroker(port);
      const sub = await subscriber(['dice-tower/away/#'], brokerUrl);
      await until('the retained roll again', () => JSON.parse(sub.last('dice-tower/away/roll')?.payload ?? '{}').sum === 21, 15_000);
      const seqs = () => sub.got.filter((m) => m.topic === 'dice-tower/away/events').map((m) => (JSON.parse(m.payload) as { seq: number }).seq);
      await until('the event kept while it was down', () => seqs().includes(before + 1), 15_000);
      // The rest made while it was away were dropped (the stream has them), and said so.
      await until('the drop told', () => warnings.some((w) => /event messages made while it was away were dropped/.test(w)));
      expect(seqs().filter((q) => q > before + 1 && q <= missed)).toEqual([]);
      await sub.client.endAsync();
    } finally {
      await app.close();
      down?.kill('SIGTERM');
    }
  }, 40_000);
});
