/**
 * The operator's token, shared by the REST routes and the live feed, and
 * changeable while the server runs (the old one stops working at once).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { TableError } from '../table.js';
import { KEY_PREFIX } from '../integrations/api-keys.js';

/** Shortest token the operator may choose: guessing it must stay out of reach of the rate limit. */
export const MIN_TOKEN_LENGTH = 16;

/** Why a token cannot be the operator's, or null: too short, or starting as an API key does (it would be taken for one and never tried as the operator's). */
export function operatorTokenProblem(token: string): string | null {
  if (token.length < MIN_TOKEN_LENGTH) return `An operator token needs at least ${MIN_TOKEN_LENGTH} characters.`;
  if (token.startsWith(KEY_PREFIX)) return `An operator token must not start with '${KEY_PREFIX}', which marks an API key (the server would take it for one).`;
  return null;
}

/** A new random operator token (never one that starts like an API key). */
export function randomOperatorToken(): string {
  for (;;) {
    const token = randomBytes(24).toString('base64url');
    if (operatorTokenProblem(token) === null) return token;
  }
}

export type TokenCheck = 'ok' | 'missing' | 'bad';

/**
 * The token a request came with (the operator's or an API key): `Authorization: Bearer`, else `?operator=` or `?key=`
 * (an <img> or an EventSource cannot send headers); '' for none.
 */
export function tokenOf(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const q = request.query as { operator?: unknown; key?: unknown } | undefined;
  const query = q?.operator ?? q?.key;
  return header.startsWith('Bearer ') ? header.slice(7) : typeof query === 'string' ? query : '';
}

export class OperatorAuth {
  private readonly listeners = new Set<() => void>();

  constructor(
    private token: string | undefined,
    /** Keeps a changed token (the data directory); throws a TableError when it cannot be changed here. Absent: in memory only. */
    private readonly persist?: (token: string) => void,
  ) {
    if (token?.startsWith(KEY_PREFIX)) throw new Error(operatorTokenProblem(token) as string);
  }

  /** Whether actions need a token at all (no token: an open API for tests or a single trusted screen). */
  get enabled(): boolean {
    return this.token !== undefined && this.token !== '';
  }

  check(given: string | undefined): TokenCheck {
    if (!this.enabled) return 'ok';
    if (!given) return 'missing';
    const a = Buffer.from(this.token as string);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b) ? 'ok' : 'bad';
  }

  /** Throws the 401/403 the REST routes send for a missing or wrong token. */
  require(given: string | undefined): void {
    const result = this.check(given);
    if (result === 'missing') throw new TableError('auth/missing_token', 'This is an operator action: send the operator token as "Authorization: Bearer <token>".', 401);
    if (result === 'bad') throw new TableError('auth/bad_token', 'That is not the operator token.', 403);
  }

  /** Sets a new token (the given one, or a random one); returns it. Everyone holding the old one loses operator rights. */
  change(next?: string): string {
    if (!this.enabled) throw new TableError('auth/no_token', 'This server runs without an operator token (open to all); there is no token to change.', 409);
    const token = next ?? randomOperatorToken();
    const problem = operatorTokenProblem(token);
    if (problem) throw new TableError('auth/weak_token', problem, 400);
    this.persist?.(token);
    this.token = token;
    for (const listener of this.listeners) listener();
    return token;
  }

  /** Called after every change (the feed drops operator rights of its sockets). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
