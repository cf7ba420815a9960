/**
 * Tokens never reach the log: an <img> or a link cannot send a header, so the
 * operator's token rides in `?operator=` (the seat QR code) and a seat's in
 * `?token=`, and Fastify's request log (level info) prints the whole URL.
 * The request serializer here prints it with those values hidden.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters that carry a secret. */
export const SECRET_QUERY_PARAMS: readonly string[] = ['operator', 'token', 'key'];
export const REDACTED = '[redacted]';

/** `url` with the value of every secret query parameter replaced (a key that cannot be decoded counts as secret). */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    let name: string | null;
    try {
      name = decodeURIComponent(key.replace(/\+/g, ' '));
    } catch {
      name = null;
    }
    return name === null || SECRET_QUERY_PARAMS.includes(name) ? `${key}=${REDACTED}` : pair;
  });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/** Fastify's own request serializer, with the URL redacted. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version']?.toString(),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Logger options with the redacting request serializer; no logger stays none. */
export function withRedactedRequests(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: loggedRequest } };
}
