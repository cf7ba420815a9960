/**
 * Fuzzing every REST route the app registers (found through `onRoute`, so new
 * routes are covered without being listed) with generated malformed input:
 * broken bodies derived from each route's own JSON schema (a required field
 * missing, an unknown field, a value of a type that cannot be coerced, a
 * string too long, a number out of range, too many items or properties),
 * bodies that are not JSON, wrong content types, malformed path parameters
 * and query strings, and wrong methods. Every answer must be a 4xx (a GET
 * that happens to name something real may answer 200), never a 5xx; the
 * server must keep answering; and no game, seat, stored event or tower cycle
 * may change.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TOKEN, buildFixture, type Fixture, type Route } from './app-fixture.js';

/** Inputs generated over all REST routes (the WebSocket feed has its own file). */
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 9000);

type JsonSchema = {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: JsonSchema;
};

const typesOf = (s: JsonSchema | undefined) => [s?.type ?? []].flat();

/** A value the schema accepts (the base every mutation breaks in one place). */
function example(s: JsonSchema | undefined): unknown {
  const t = typesOf(s)[0];
  if (t === 'object') return Object.fromEntries((s?.required ?? []).map((k) => [k, example(s?.properties?.[k])]));
  if (t === 'array') return [example(s?.items)];
  if (t === 'integer' || t === 'number') return s?.minimum ?? 0;
  if (t === 'boolean') return true;
  if (t === 'null') return null;
  return 'x'.repeat(Math.max(1, s?.minLength ?? 1));
}

/** A value of a type Ajv cannot coerce into any of `s`'s types. */
function uncoercible(s: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const t = typesOf(s);
  if (t.includes('array')) return fc.oneof(fc.dictionary(fc.string(), fc.integer(), { maxKeys: 3 }), fc.string({ minLength: 1 }).filter((x) => x.trim() !== ''));
  if (t.includes('object')) return fc.oneof(fc.array(fc.integer(), { minLength: 1 }), fc.string({ minLength: 1 }), fc.integer());
  return fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1, maxKeys: 3 }), fc.array(fc.jsonValue(), { minLength: 2, maxLength: 4 }));
}

/** Breaks a schema-valid value in one place; every result is refused by the schema. */
function broken(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const t = typesOf(s);
  const options: fc.Arbitrary<unknown>[] = [uncoercible(s)];
  if (t.includes('object') && s) {
    const base = example(s) as Record<string, unknown>;
    for (const key of s.required ?? []) {
      options.push(fc.constant(Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))));
    }
    if (s.additionalProperties === false) {
      const known = new Set(Object.keys(s.properties ?? {}));
      options.push(fc.tuple(fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !known.has(k) && k !== '__proto__'), fc.jsonValue()).map(([k, v]) => ({ ...base, [k]: v })));
    }
    if (s.maxProperties !== undefined) {
      const extra = Object.fromEntries(Array.from({ length: s.maxProperties + 1 }, (_, i) => [`extra${i}`, i]));
      options.push(fc.constant({ ...base, ...extra }));
    }
    if (depth < 2) {
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        options.push(broken(sub, depth + 1).map((v) => ({ ...base, [key]: v })));
      }
    }
  }
  if (t.includes('string') && s) {
    if (s.maxLength !== undefined) options.push(fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 40 }).filter((x) => x.length > s.maxLength!));
    if ((s.minLength ?? 0) > 0) options.push(fc.constant(''));
  }
  if ((t.includes('integer') || t.includes('number')) && s) {
    if (s.minimum !== undefined) options.push(fc.integer({ min: -1e9, max: s.minimum - 1 }));
    if (s.maximum !== undefined) options.push(fc.integer({ min: s.maximum + 1, max: 1e9 }));
    // Blank strings: Ajv's coercion would read them as 0.
    options.push(fc.constantFrom(' ', '\t', '\n', '  '));
    if (t.includes('integer') && !t.includes('number')) options.push(fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((x) => (s.minimum ?? 0) + x));
  }
  if (t.includes('array') && s) {
    if (s.maxItems !== undefined) options.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => example(s.items))));
    if (depth < 2) options.push(broken(s.items, depth + 1).map((v) => [v]));
  }
  return fc.oneof(...options);
}

interface Input {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Buffer;
  readonly what: string;
}

let fx: Fixture;
beforeAll(async () => {
  fx = await buildFixture();
});
afterAll(async () => {
  await fx.close();
});

/** Strings a path parameter should never accept, or that name nothing. */
const junkSegment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
  fc.string({ minLength: 65, maxLength: 300 }),
  fc.constantFrom('..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '%', '%zz', '-1', '1e9', 'NaN', 'null', 'undefined', '__proto__', 'constructor', ' ', '%20', "'; DROP TABLE events;--"),
).map((s) => (/^%[0-9a-zA-Z]{0,2}$|\.\.|%00|%2e/.test(s) ? s : encodeURIComponent(s)));

function inputs(routes: readonly Route[]): fc.Arbitrary<Input> {
  const ids = [fx.games.fresh, fx.games.midTurn, fx.games.secret];
  const auth = fc.constantFrom<Record<string, string>>(
    { authorization: `Bearer ${OPERATOR_TOKEN}` },
    { authorization: `Bearer ${OPERATOR_TOKEN}` },
    { authorization: `Bearer ${OPERATOR_TOKEN}` },
    {},
    { authorization: 'Bearer nope' },
    { authorization: `Basic ${OPERATOR_TOKEN}` },
  );
  const perRoute = routes
    .filter((r) => !r.websocket && r.method !== 'OPTIONS')
    // A POST with no path parameter and no body schema takes no input at all (a body is ignored): nothing malformed
    // can be sent to it, and the filter below would drop every request generated for it, forever.
    .filter((r) => r.method === 'GET' || r.method === 'HEAD' || (r.schema as { body?: unknown } | undefined)?.body !== undefined || r.url.includes(':'))
    .map((route) => {
      const schema = (route.schema ?? {}) as { body?: JsonSchema; params?: JsonSchema; querystring?: JsonSchema };
      const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      // Path: each parameter real (an existing id, a seat or roll that exists) or junk, and at least one junk when the rest could be valid.
      const realParam = (name: string) => (name === 'id' ? fc.constantFrom(...ids) : fc.constantFrom('0', '1'));
      const paramsArb = fc
        .tuple(...paramNames.map((n) => fc.tuple(fc.boolean(), realParam(n), junkSegment)))
        .map((choices) => choices.map(([useReal, real, junk]) => (useReal ? real : junk)));
      const mutating = route.method !== 'GET' && route.method !== 'HEAD';
      const path = (values: string[]) =>
        route.url.replace(/:(\w+)/g, () => values.shift() ?? 'x').replace('*', '');
      const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; headers: Record<string, string>; what: string }> = fc.oneof(
        // Broken JSON bodies, derived from the route's own schema (or any JSON when it has none).
        (schema.body ? broken(schema.body) : fc.jsonValue()).map((v) => ({ payload: JSON.stringify(v) ?? 'null', headers: { 'content-type': 'application/json' }, what: 'schema-broken body' })),
        // Not JSON at all.
        fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('{', '{"game":', '[1,2', '{"a":1}}', '\u0000', 'nul', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'))
          .filter((s) => { try { JSON.parse(s); return s.includes('proto'); } catch { return true; } })
          .map((s) => ({ payload: s, headers: { 'content-type': 'application/json' }, what: 'malformed JSON' })),
        // Bytes under another content type.
        fc.tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'image/jpeg', 'application/json; charset=utf-7'), fc.uint8Array({ minLength: 1, maxLength: 200 }))
          .map(([type, bytes]) => ({ payload: Buffer.from(bytes), headers: { 'content-type': type }, what: `body as ${type}` })),
      );
      // Query strings: schema-broken where there is a schema, junk everywhere.
      const queryArb = fc.oneof(
        fc.constant(''),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 120 }), { maxKeys: 4 }).map((q) => new URLSearchParams(q).toString()),
        ...(schema.querystring ? [broken(schema.querystring).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)).map((v) => new URLSearchParams(Object.entries(v as object).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)])).toString())] : []),
      );
      return fc
        .record({ params: paramsArb, body: bodyArb, query: queryArb, auth, wrongMethod: fc.integer({ min: 0, max: 19 }) })
        .filter(({ params }) => {
          // A route that takes no body, with every parameter real, is a valid request whatever body comes along (it is ignored): skip it.
          if (!mutating || schema.body !== undefined) return true;
          return !params.every((p, i) => (paramNames[i] === 'id' ? ids.includes(p) : p === '0' || p === '1'));
        })
        .map(({ params, body, query, auth: headers, wrongMethod }): Input => {
          const method = wrongMethod === 0 ? (route.method === 'GET' ? 'DELETE' : 'PUT') : route.method;
          const url = path([...params]) + (query ? `?${query}` : '');
          const withBody = mutating || wrongMethod === 0;
          return { method, url, headers: { ...headers, ...(withBody ? body.headers : {}) }, ...(withBody ? { payload: body.payload } : {}), what: `${method} ${route.url}: ${withBody ? body.what : 'path/query'}` };
        });
    });
  return fc.oneof(...perRoute);
}

describe('every REST route under malformed input', () => {
  it('finds the routes through onRoute, including every operator action', () => {
    const paths = fx.routes.map((r) => `${r.method} ${r.url}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /api/games', 'POST /api/games/:id/roll', 'POST /api/games/:id/actions', 'GET /api/games/:id', 'GET /ws']));
  });

  it(`answers ${INPUTS} generated malformed requests with 4xx, keeps serving, and changes nothing`, async () => {
    const before = fx.fingerprint();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(inputs(fx.routes), async (input) => {
        const res = await fx.app.inject({ method: input.method as 'GET', url: input.url, headers: input.headers, ...(input.payload !== undefined ? { payload: input.payload } : {}) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) throw new Error(`${input.what} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
        const mutating = input.method !== 'GET' && input.method !== 'HEAD';
        if (mutating && res.statusCode < 400) throw new Error(`${input.what} was accepted (${res.statusCode}): ${input.url} ${String(input.payload).slice(0, 200)}`);
        // Errors keep their documented shape.
        if (res.statusCode >= 400 && input.method !== 'HEAD' && String(res.headers['content-type']).includes('json')) {
          expect(res.json()).toMatchObject({ statusCode: res.statusCode, code: expect.any(String), message: expect.any(String) });
        }
      }),
      { numRuns: INPUTS, seed: 20261130, endOnFailure: true },
    );
    expect(fx.fingerprint()).toEqual(before);
    expect((await fx.app.inject('/api/health')).statusCode).toBe(200);
    // The inputs reached past authentication and validation: refusals of several kinds were seen.
    for (const status of [400, 401, 403, 404]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  }, 120_000);
});

describe('what the fuzzer found (kept as plain cases)', () => {
  const asOperator = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };
  it.each([
    ['{"dice":[null]}', 'null'],
    ['{"dice":[false]}', 'false'],
    ['{"dice":["\\n"]}', 'a blank string'],
    ['{"dice":["0"]}', 'a number in a string'],
  ])('refuses %s in a JSON body instead of reading %s as die 0', async (payload) => {
    const before = fx.fingerprint();
    const res = await fx.app.inject({ method: 'POST', url: `/api/games/${fx.games.midTurn}/hold`, headers: asOperator, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'api/bad_request', message: expect.stringMatching(/body\/dice\/0 must be integer/) });
    expect(fx.fingerprint()).toEqual(before);
  });

  it('refuses a seat number that is blank or padded in the path instead of reading it as seat 0', async () => {
    const before = fx.fingerprint();
    for (const seat of ['%20', '%09', '%201', '0x1']) {
      const res = await fx.app.inject({ method: 'POST', url: `/api/games/${fx.games.secret}/seats/${seat}/reissue`, headers: { authorization: asOperator.authorization } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/params\/seat must be a whole number/);
    }
    expect(fx.fingerprint()).toEqual(before);
  });

  it('answers a route that does not exist in the error shape of every refusal', async () => {
    const res = await fx.app.inject({ method: 'DELETE', url: '/api/games' });
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'api/not_found', error: 'Not Found', message: expect.stringContaining('DELETE /api/games') });
  });
});
