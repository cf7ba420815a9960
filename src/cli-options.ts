/** Option values of the command line, checked: a bad one throws a sentence naming the option and the range. */

import { isIP } from 'node:net';

/** A whole number from `min` to `max` given as option `name`. */
export function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${text}'`);
  return n;
}

/** `--exposure` and `--white-balance`, checked; null where not given (the driver's automatic setting). */
export function cameraSettings(values: { readonly exposure?: string; readonly 'white-balance'?: string }): { exposure: number | null; whiteBalance: number | null } {
  return {
    exposure: values.exposure === undefined ? null : integer('exposure', values.exposure, 1, 100_000),
    whiteBalance: values['white-balance'] === undefined ? null : integer('white-balance', values['white-balance'], 1000, 15_000),
  };
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `--trust-proxy`: the proxies' addresses, subnets (10.0.0.0/8) or
 * loopback/linklocal/uniquelocal, comma-separated, as Fastify's `trustProxy`
 * takes them; none given: undefined. Never "every proxy" nor a hop count
 * (Fastify 5 trusts no one for a count): X-Forwarded-For from anyone would let
 * a client choose the address its rate limits count against.
 */
export function trustProxy(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const items = text.split(',').map((item) => item.trim());
  for (const item of items) {
    const [address = '', bits, ...more] = item.split('/');
    const family = isIP(address);
    const subnetOk = bits === undefined || (/^[0-9]+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (PROXY_NAMES.includes(item) || (family !== 0 && subnetOk && more.length === 0)) continue;
    throw new Error(`trust-proxy: '${item}' is not an address, a subnet (10.0.0.0/8) or one of ${PROXY_NAMES.join(', ')}; give the addresses of the proxies in front of the server, comma-separated`);
  }
  return items.join(',');
}

/** `--mqtt`: a broker URL the mqtt library takes (mqtt, mqtts, ws, wss, tcp, ssl); none given: null. */
export function mqttUrl(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`mqtt: '${text}' is not a URL; give the broker as mqtt://host:1883`);
  }
  if (!['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:'].includes(url.protocol)) throw new Error(`mqtt: '${url.protocol}' is not a broker protocol; use mqtt://, mqtts://, ws:// or wss://`);
  return text;
}
