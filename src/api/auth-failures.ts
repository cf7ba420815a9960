/**
 * Failed authentications per client address, for the REST routes and the
 * live feed alike: each failure is answered after a growing delay, and an
 * address that failed too often in a window is answered 429 for the rest of
 * it, even with the right token (or a guess that hit would show).
 *
 * Not @fastify/rate-limit's `createRateLimit`: its check is asynchronous and
 * reads the wall clock, while a failure here is counted synchronously (parallel
 * tries see it at once) and the tests move an injected clock. A wrong token's
 * answer still comes after the delay; the feed holds that socket's later
 * messages until it is sent (feed.ts), so an `auth` then a `roll` never swap. Its `normalizeIP` is used, so addresses are grouped as its limits do
 * (IPv6 by /64) and follow Fastify's `trustProxy` through `request.ip`.
 */
import { normalizeIP } from '@fastify/rate-limit';
import { setTimeout as sleep } from 'node:timers/promises';
import { TableError } from '../table.js';

export interface AuthFailureLimits {
  /** Failures an address may have in a window; the next try is answered 429. */
  readonly max: number;
  readonly windowMs: number;
  /** The n-th failure in a window is answered after n × this, ms (at most maxDelayMs): a typo costs little, a guessing loop a lot. */
  readonly delayStepMs: number;
  readonly maxDelayMs: number;
  /** Clock and waiting, injectable for tests. */
  readonly now: () => number;
  readonly wait: (ms: number) => Promise<void>;
}

export const DEFAULT_AUTH_FAILURE_LIMITS: AuthFailureLimits = {
  max: 10,
  windowMs: 60_000,
  delayStepMs: 250,
  maxDelayMs: 5_000,
  now: Date.now,
  wait: async (ms) => {
    await sleep(ms);
  },
};

/** The counter's key: the address as @fastify/rate-limit groups it (a socket already gone may have none). */
const keyOf = (address: string | undefined): string => (address ? normalizeIP(address) : 'unknown');

/** Addresses remembered at most; beyond it expired ones are dropped, then the oldest (a flood of addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

export class AuthFailures {
  readonly limits: AuthFailureLimits;
  private readonly byAddress = new Map<string, { count: number; since: number }>();

  constructor(limits: Partial<AuthFailureLimits> = {}) {
    this.limits = { ...DEFAULT_AUTH_FAILURE_LIMITS, ...limits };
  }

  /** Seconds until `address` may try a token again; 0: it may try now. */
  retryAfter(address: string): number {
    const entry = this.live(keyOf(address));
    if (!entry || entry.count < this.limits.max) return 0;
    return Math.max(1, Math.ceil((entry.since + this.limits.windowMs - this.limits.now()) / 1000));
  }

  /** Counts a failure of `address` now; returns how long to wait before answering it, ms. */
  fail(address: string): number {
    const key = keyOf(address);
    const entry = this.live(key) ?? { count: 0, since: this.limits.now() };
    entry.count++;
    this.byAddress.delete(key);
    this.byAddress.set(key, entry);
    if (this.byAddress.size > MAX_ADDRESSES) this.prune();
    return Math.min(entry.count * this.limits.delayStepMs, this.limits.maxDelayMs);
  }

  /**
   * One REST try: refused at once when the address is over the limit (the
   * token is then not even looked at); else `isRight` is asked, and a wrong
   * token is counted at once (parallel tries see it) and answered after the
   * delay. Returns the seconds to refuse this try for (429, Retry-After); 0:
   * the caller answers as usual (its own check refuses a wrong token).
   */
  async attempt(address: string, isRight: () => boolean): Promise<number> {
    const retryAfter = this.retryAfter(address);
    if (retryAfter > 0) return retryAfter;
    if (!isRight()) await this.limits.wait(this.fail(address));
    return 0;
  }

  private live(key: string): { count: number; since: number } | undefined {
    const entry = this.byAddress.get(key);
    if (entry && entry.since + this.limits.windowMs <= this.limits.now()) {
      this.byAddress.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(): void {
    const now = this.limits.now();
    for (const [key, entry] of this.byAddress) if (entry.since + this.limits.windowMs <= now) this.byAddress.delete(key);
    for (const key of this.byAddress.keys()) {
      if (this.byAddress.size <= MAX_ADDRESSES) break;
      this.byAddress.delete(key);
    }
  }
}

/** The 429 for an address over the limit; the caller sets Retry-After (REST) or sends `retryAfter` (feed). */
export function tooManyFailures(limits: AuthFailureLimits, retryAfter: number): TableError {
  return new TableError(
    'auth/too_many_failures',
    `Too many wrong tokens from this address (${limits.max} in ${limits.windowMs / 1000} s); no token is checked from it for ${retryAfter} s.`,
    429,
  );
}
