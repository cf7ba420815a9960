/**
 * A viewer (no token, a wrong token) and a player (a seat's private token,
 * sent every way a token can be sent) try every operator action the app
 * registers: every route that is not a GET, plus the seat links and their QR
 * codes (a seat's own routes, which take its token, are not operator actions;
 * a player using one for another seat is refused too). Routes are found through `onRoute`, so actions added later are
 * covered too. Every attempt must be refused (401 or 403) and change nothing;
 * the same request with the operator's token must get past the check.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES } from '../../src/api/feed.js';
import { OPERATOR_TOKEN, buildFixture, type Fixture, type Route } from './app-fixture.js';

/** GET routes that are operator actions (they hand out the seats' tokens). */
const OPERATOR_GETS = ['/api/games/:id/seats', '/api/games/:id/seats/:seat/qr.svg', '/api/games/:id/export'];

let fx: Fixture;
let seatToken = '';
beforeAll(async () => {
  fx = await buildFixture();
  seatToken = fx.table.seatTokensOf(fx.games.secret)[0] ?? '';
  // The player has opened their private page (the seat is claimed) before trying anything else.
  expect((await fx.app.inject(`/api/games/${fx.games.secret}/seats/0?token=${seatToken}`)).statusCode).toBe(200);
});
afterAll(async () => {
  await fx.close();
});

/** A seat's own route: its authority is the seat's token, required in its query string. */
const isSeatRoute = (r: Route) => ((r.schema as { querystring?: { required?: string[] } } | undefined)?.querystring?.required ?? []).includes('token');

const operatorRoutes = () =>
  fx.routes.filter((r: Route) => !r.websocket && !isSeatRoute(r) && r.method !== 'HEAD' && r.method !== 'OPTIONS' && (r.method !== 'GET' || OPERATOR_GETS.includes(r.url)));

/** A request the operator may make on this route (a valid body where the route is known). */
function request(route: Route): { url: string; payload?: unknown } {
  const game = route.url.includes(':seat') ? fx.games.secret : fx.games.midTurn;
  const url = route.url.replace(':id', game).replace(':seat', '0').replace(':seq', '1');
  const bodies: Record<string, unknown> = {
    '/api/games': { game: 'dice-poker', players: ['Eve'] },
    '/api/games/:id/roll': {},
    '/api/games/:id/hold': { dice: [0, 1] },
    '/api/games/:id/release': { dice: [0] },
    '/api/games/:id/score': { category: 'chance' },
    '/api/games/:id/actions': { type: 'score', category: 'twoPairs' },
    // The same token again: the change is made (and authorised) without locking the next requests out.
    '/api/operator/token': { token: OPERATOR_TOKEN },
  };
  return route.method === 'GET' ? { url } : { url, payload: bodies[route.url] ?? {} };
}

/** Everyone who is not the operator, and how they send what they have. */
const impostors = () => [
  { who: 'a viewer with no token', headers: {}, query: '' },
  { who: 'a viewer with a wrong token', headers: { authorization: 'Bearer not-the-operator' }, query: '' },
  { who: 'a viewer with an empty token', headers: { authorization: 'Bearer ' }, query: '' },
  { who: 'a viewer with the token under another scheme', headers: { authorization: `Basic ${OPERATOR_TOKEN}` }, query: '' },
  { who: 'a viewer with a prefix of the token', headers: { authorization: `Bearer ${OPERATOR_TOKEN.slice(0, -1)}` }, query: '' },
  { who: 'a viewer with a wrong token in the query', headers: {}, query: 'operator=not-the-operator' },
  { who: 'a player with their seat token as Bearer', headers: { authorization: `Bearer ${seatToken}` }, query: '' },
  { who: 'a player with their seat token as ?operator=', headers: {}, query: `operator=${seatToken}` },
  { who: 'a player with their seat link (?seat=0&token=)', headers: {}, query: `seat=0&token=${seatToken}` },
  { who: 'a player with their seat token in a cookie', headers: { cookie: `token=${seatToken}; operator=${seatToken}` }, query: '' },
];

describe('operator actions refused to viewers and players', () => {
  it('finds every operator action the app has', () => {
    const urls = operatorRoutes().map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(expect.arrayContaining(['POST /api/games', 'POST /api/games/:id/roll', 'POST /api/games/:id/actions', 'POST /api/games/:id/seats/:seat/reissue', 'GET /api/games/:id/seats']));
  });

  it('refuses every operator action to every viewer and player, and nothing changes', async () => {
    const before = fx.fingerprint();
    const refused: string[] = [];
    for (const route of operatorRoutes()) {
      const { url, payload } = request(route);
      for (const who of impostors()) {
        const res = await fx.app.inject({
          method: route.method as 'POST',
          url: who.query ? `${url}${url.includes('?') ? '&' : '?'}${who.query}` : url,
          headers: who.headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect([401, 403], `${who.who}: ${route.method} ${route.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
        expect(res.json()).toMatchObject({ code: expect.stringMatching(/^auth\//) });
        refused.push(`${route.method} ${route.url}`);
      }
    }
    expect(refused.length).toBe(operatorRoutes().length * impostors().length);
    expect(fx.fingerprint()).toEqual(before);
    // Nobody claimed a seat or saw a link on the way.
    expect(fx.table.seatClaims(fx.games.secret)).toEqual([true, false, false]);
  }, 60_000);

  it('lets the operator make the same requests (the refusals were about who asked)', async () => {
    const routes = operatorRoutes().map((r) => ({ method: r.method, url: r.url }));
    await fx.close();
    // A fresh table for each: one of them may be the operator changing their own token.
    for (const route of routes) {
      fx = await buildFixture();
      seatToken = fx.table.seatTokensOf(fx.games.secret)[0] ?? '';
      const { url, payload } = request(fx.routes.find((r) => r.method === route.method && r.url === route.url) as Route);
      const res = await fx.app.inject({ method: route.method as 'POST', url, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(res.statusCode);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      await fx.close();
    }
    fx = await buildFixture();
    seatToken = fx.table.seatTokensOf(fx.games.secret)[0] ?? '';
  }, 120_000);

  it('gives a player nothing over the WebSocket feed either', async () => {
    await fx.app.listen({ port: 0, host: '127.0.0.1' });
    const before = fx.fingerprint();
    const ws = new WebSocket(`ws://127.0.0.1:${(fx.app.server.address() as { port: number }).port}/ws?token=${seatToken}`, { headers: { authorization: `Bearer ${seatToken}` } });
    const received: Array<{ type: string; games?: Array<{ id: string; state: unknown }> }> = [];
    ws.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    await expect.poll(() => received.length).toBe(1);
    // The snapshot is the public view: the player's secret dice are not in it.
    const secret = received[0]?.games?.find((g) => g.id === fx.games.secret);
    expect(JSON.stringify(secret?.state)).toEqual(JSON.stringify(fx.table.definition(fx.table.get(fx.games.secret)).playerView(fx.table.get(fx.games.secret).state, null)));
    // Every operator message the feed knows, and ones it does not, sent by a player with their seat token.
    const attempts = [
      { type: 'auth', token: seatToken }, // as the operator: refused
      { type: 'auth', token: seatToken, game: fx.games.secret, seat: 0 }, // as their own seat: fine, and no more
      ...Object.entries(CLIENT_MESSAGES)
        .filter(([, m]) => m.access === 'operator')
        .flatMap(([type]) => [fx.games.midTurn, fx.games.fresh, fx.games.secret].map((game) => ({ type, game }))),
      { type: 'action', game: fx.games.midTurn, action: { type: 'score', category: 'chance' } },
    ];
    for (const attempt of attempts) ws.send(JSON.stringify(attempt));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const replies = received.slice(1);
    expect(replies.filter((m) => m.type === 'rolled')).toEqual([]);
    expect(replies.filter((m) => m.type === 'auth')).toEqual([expect.objectContaining({ role: 'seat', seat: 0 })]);
    expect(replies.filter((m) => m.type === 'error').length).toBeGreaterThanOrEqual(attempts.length - 1);
    expect(fx.fingerprint()).toEqual(before);
    ws.close();
  });
});

describe("a seat's own routes", () => {
  it('refuse a player acting for another seat, or for their own seat with a wrong token', async () => {
    const seatRoutes = fx.routes.filter((r) => r.method === 'POST' && ((r.schema as { querystring?: { required?: string[] } } | undefined)?.querystring?.required ?? []).includes('token'));
    const before = fx.fingerprint();
    for (const route of seatRoutes) {
      for (const [seat, token] of [[1, seatToken], [2, seatToken], [0, 'not-the-token'], [0, OPERATOR_TOKEN]] as const) {
        const url = route.url.replace(':id', fx.games.secret).replace(':seat', String(seat));
        const res = await fx.app.inject({ method: 'POST', url: `${url}?token=${encodeURIComponent(token)}`, payload: { type: 'challenge' } });
        expect(res.statusCode, `${route.url} as seat ${seat}`).toBe(403);
      }
    }
    expect(fx.fingerprint()).toEqual(before);
  });
});
