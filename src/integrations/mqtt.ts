/**
 * MQTT and Home Assistant (`serve --mqtt URL`): the public events published to
 * a broker through the `mqtt` client library, under `dice-tower/<tower>/`:
 *
 *   events        every event's JSON envelope (QoS 1, not retained)
 *   roll          the last roll settled (retained; secret throws are left out)
 *   status        the tower's status (retained)
 *   availability  online / offline (retained; offline is the will, sent by the broker when the link dies)
 *
 * and Home Assistant's MQTT discovery (`homeassistant/sensor/<node>/<object>/config`,
 * retained) for "Last roll", "Last sum" and "Tower status", so they appear as
 * entities by themselves. Publishing never waits on the broker: while it is
 * away the client keeps at most `offlineQueue` event messages (the retained
 * state is published again on reconnect, whatever came meanwhile), a roll is
 * never slowed by it, and each distinct connection error is told once. A
 * correction of the last roll publishes it again with its corrected values.
 * For a gapless feed use the event stream (SSE): MQTT has no resume point.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { TowerStatus } from '../table.js';
import { errorText } from '../error-text.js';
import { envelope, PUBLIC, type StreamEvent } from './events.js';
import type { EventStream } from './event-stream.js';

export interface MqttOptions {
  /** mqtt://host:port (or mqtts://, ws://...), as the `mqtt` library takes it. */
  readonly url: string;
  /** The tower's name in the topics (letters, digits, - and _). */
  readonly tower: string;
  /** Home Assistant's discovery prefix (default homeassistant). */
  readonly discoveryPrefix?: string;
  readonly version: string;
  /** Event messages kept while the broker is away, at most (default MQTT_OFFLINE_QUEUE); later ones are dropped. */
  readonly offlineQueue?: number;
  /** Pause between reconnection attempts, ms (default 5 s). */
  readonly reconnectMs?: number;
  /** Where a connection error (each distinct one once until connected again) and dropped messages are told (default stderr). */
  readonly warn?: (message: string) => void;
}

/** Event messages the client keeps, by default, while the broker is away. */
export const MQTT_OFFLINE_QUEUE = 1000;

export const mqttTowerName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tower';

export class MqttBridge {
  readonly client: MqttClient;
  readonly base: string;
  private readonly node: string;
  private readonly unsubscribe: () => void;
  private lastRoll: Record<string, unknown> | null;
  private status: Record<string, unknown>;
  private readonly warn: (message: string) => void;
  /** Connection errors told since the last connect (each once). */
  private readonly told = new Set<string>();
  /** Event messages queued, and dropped, since the broker went away. */
  private queuedOffline = 0;
  private droppedOffline = 0;

  constructor(
    private readonly options: MqttOptions,
    stream: EventStream,
    tower: TowerStatus,
  ) {
    const name = mqttTowerName(options.tower);
    this.base = `dice-tower/${name}`;
    this.node = `dice_tower_${name.replace(/-/g, '_')}`;
    const last = stream.latest('roll.settled', true);
    this.lastRoll = last ? rollState(last) : null;
    // Corrected since (before this start): as corrected.
    const fix = last?.gameId ? stream.latestOf('roll.corrected', last.gameId) : null;
    if (this.lastRoll && fix && fix.seq > (last?.seq ?? 0) && fix.secretSeat === null && fix.publicData.roll === this.lastRoll.roll) this.lastRoll = corrected(this.lastRoll, fix.publicData.values as number[]);
    this.status = { state: tower.state, message: tower.message, kind: tower.kind, game: tower.gameId };
    this.client = mqtt.connect(options.url, {
      clientId: `${this.node}_${process.pid}`,
      reconnectPeriod: options.reconnectMs ?? 5_000,
      connectTimeout: 10_000,
      will: { topic: `${this.base}/availability`, payload: Buffer.from('offline'), retain: true, qos: 1 },
    });
    this.warn = options.warn ?? ((m: string) => process.stderr.write(`dice-tower: warning: ${m}\n`));
    // Every (re)connect states what is retained again: a broker restarted without persistence learns it anew.
    this.client.on('connect', () => {
      this.told.clear();
      if (this.droppedOffline > 0) this.warn(`MQTT: the broker ${options.url} is back; ${this.droppedOffline} event messages made while it was away were dropped (the event stream has them all).`);
      this.queuedOffline = 0;
      this.droppedOffline = 0;
      this.announce();
    });
    // The library reconnects by itself; each distinct error is told once until it connects again (it would throw on an
    // 'error' event nobody listens to).
    this.client.on('error', (err) => {
      const text = errorText(err);
      if (this.told.has(text)) return;
      this.told.add(text);
      this.warn(`MQTT: the broker ${options.url}: ${text}; trying again every ${Math.round((options.reconnectMs ?? 5_000) / 1000)} s (rolls go on).`);
    });
    this.unsubscribe = stream.subscribe((e) => this.publish(e));
  }

  private put(topic: string, payload: unknown, retain: boolean): void {
    this.client.publish(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain }, () => undefined);
  }

  private announce(): void {
    const prefix = this.options.discoveryPrefix ?? 'homeassistant';
    const device = { identifiers: [this.node], name: `Dice tower ${this.options.tower}`, manufacturer: 'dice-tower', model: 'dice tower', sw_version: this.options.version };
    const common = { availability_topic: `${this.base}/availability`, device };
    const sensors: Array<[string, Record<string, unknown>]> = [
      ['last_roll', { name: 'Last roll', state_topic: `${this.base}/roll`, value_template: "{{ value_json['values'] | join(' ') }}", json_attributes_topic: `${this.base}/roll`, icon: 'mdi:dice-multiple' }],
      ['last_sum', { name: 'Last sum', state_topic: `${this.base}/roll`, value_template: '{{ value_json.sum }}', state_class: 'measurement', icon: 'mdi:sigma' }],
      ['tower_status', { name: 'Tower status', state_topic: `${this.base}/status`, value_template: '{{ value_json.state }}', json_attributes_topic: `${this.base}/status`, icon: 'mdi:tower-fire' }],
    ];
    for (const [object, config] of sensors) {
      this.put(`${prefix}/sensor/${this.node}/${object}/config`, { ...config, unique_id: `${this.node}_${object}`, object_id: `${this.node}_${object}`, ...common }, true);
    }
    this.put(`${this.base}/availability`, 'online', true);
    this.put(`${this.base}/status`, this.status, true);
    if (this.lastRoll) this.put(`${this.base}/roll`, this.lastRoll, true);
  }

  private publish(e: StreamEvent): void {
    // Away: the retained state is published again on reconnect; event messages are kept up to the cap.
    const online = this.client.connected;
    if (online || this.queuedOffline < (this.options.offlineQueue ?? MQTT_OFFLINE_QUEUE)) {
      if (!online) this.queuedOffline++;
      this.put(`${this.base}/events`, envelope(e, PUBLIC), false);
    } else {
      this.droppedOffline++;
    }
    if (e.type === 'roll.settled' && e.secretSeat === null) {
      this.lastRoll = rollState(e);
      if (online) this.put(`${this.base}/roll`, this.lastRoll, true);
    } else if (e.type === 'roll.corrected' && e.secretSeat === null && this.lastRoll && this.lastRoll.game === e.gameId && this.lastRoll.roll === e.publicData.roll) {
      this.lastRoll = corrected(this.lastRoll, e.publicData.values as number[]);
      if (online) this.put(`${this.base}/roll`, this.lastRoll, true);
    } else if (e.type === 'tower.status') {
      this.status = { ...e.publicData, game: e.gameId };
      if (online) this.put(`${this.base}/status`, this.status, true);
    }
  }

  /** Says offline (retained) and disconnects, sending what is queued first. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.client.connected) {
      await new Promise<void>((resolve) => this.client.publish(`${this.base}/availability`, 'offline', { qos: 1, retain: true }, () => resolve()));
    }
    // A broker that does not answer must not hold the shutdown: after 2 s the link is simply dropped.
    const timer = setTimeout(() => this.client.end(true), 2_000);
    await this.client.endAsync().finally(() => clearTimeout(timer));
  }
}

function rollState(e: StreamEvent): Record<string, unknown> {
  const d = e.publicData;
  return { seq: e.seq, at: e.at, game: e.gameId, roll: d.roll, player: d.player, values: d.values, sum: d.sum, dice: d.dice, valid: d.valid, frameUrl: d.frameUrl };
}

/** The last roll with the values a correction gave it (each die's value too, in the game's order). */
function corrected(roll: Record<string, unknown>, values: readonly number[]): Record<string, unknown> {
  const dice = Array.isArray(roll.dice) ? (roll.dice as Array<Record<string, unknown>>).map((d, i) => ({ ...d, value: values[i] ?? d.value })) : roll.dice;
  return { ...roll, values: [...values], sum: values.reduce((a, b) => a + b, 0), dice, corrected: true };
}
