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
 * entities by themselves. Publishing never waits on the broker: the client
 * queues while it reconnects, and a roll is never slowed by it. For a gapless
 * feed use the event stream (SSE): MQTT has no resume point.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { TowerStatus } from '../table.js';
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
}

export const mqttTowerName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tower';

export class MqttBridge {
  readonly client: MqttClient;
  readonly base: string;
  private readonly node: string;
  private readonly unsubscribe: () => void;
  private lastRoll: Record<string, unknown> | null;
  private status: Record<string, unknown>;

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
    this.status = { state: tower.state, message: tower.message, kind: tower.kind, game: tower.gameId };
    this.client = mqtt.connect(options.url, {
      clientId: `${this.node}_${process.pid}`,
      reconnectPeriod: 5_000,
      connectTimeout: 10_000,
      will: { topic: `${this.base}/availability`, payload: Buffer.from('offline'), retain: true, qos: 1 },
    });
    // Every (re)connect states what is retained again: a broker restarted without persistence learns it anew.
    this.client.on('connect', () => this.announce());
    // Errors are reported by reconnecting; the library would throw on an 'error' event nobody listens to.
    this.client.on('error', () => undefined);
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
    this.put(`${this.base}/events`, envelope(e, PUBLIC), false);
    if (e.type === 'roll.settled' && e.secretSeat === null) {
      this.lastRoll = rollState(e);
      this.put(`${this.base}/roll`, this.lastRoll, true);
    } else if (e.type === 'tower.status') {
      this.status = { ...e.publicData, game: e.gameId };
      this.put(`${this.base}/status`, this.status, true);
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
