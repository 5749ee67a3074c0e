// Regenerating an API key ends the WebSocket logins made with it, as it ends the key on REST:
// a connection logged in with the old key gets a last `user` push `logged_out` (code 2002),
// leaves the `user` stream and is logged out (SUBSCRIBE user is 2001 again); its market streams
// stay, and it hears nothing of the account afterwards. Logins with other keys are untouched.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { Errors } from '../../../src-shared/errors.ts';
import { hmacSha256Hex } from '../../../src-shared/sign.ts';
import { dataOf, makeAccount, orderBody, plain, signed, type Creds } from '../../helpers/signed.ts';
import { startWsService, type TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;
let venue: LocalVenue;
let app: FastifyInstance;

beforeAll(async () => {
  svc = await startWsService();
  ({ venue, app } = svc);
});

afterAll(() => svc.close());

async function loggedIn(who: Creds, streams: string[]): Promise<TestClient> {
  const c = await svc.open();
  const timestamp = Date.now();
  const signature = hmacSha256Hex(who.apiSecret, `api_key=${who.apiKey}&timestamp=${timestamp}`);
  const login = await c.request('LOGIN', { api_key: who.apiKey, timestamp, signature });
  expect(login.result).toEqual({ user_id: who.id });
  if (streams.length > 0) expect((await c.request('SUBSCRIBE', streams)).result).toBeNull();
  return c;
}

describe('POST /fapi/v1/account/apiKey/regenerate and /ws', () => {
  it('ends the logins made with the old key: a logged_out push, no user stream, no more account events', async () => {
    const alice = makeAccount(venue, 'wsregen_a');
    const bob = makeAccount(venue, 'wsregen_b');
    const subscribed = await loggedIn(alice, ['user', 'trade@BTCUSDT']);
    const quiet = await loggedIn(alice, []); // logged in, not on the user stream
    const other = await loggedIn(bob, ['user']);

    const fresh = dataOf(await signed(app, alice, 'POST', '/fapi/v1/account/apiKey/regenerate'));
    const aliceNew: Creds = { id: alice.id, apiKey: fresh.api_key, apiSecret: fresh.api_secret };

    const out = await subscribed.waitFor((m) => m.stream === 'user' && m.data.kind === 'logged_out');
    expect(out.data.data).toEqual({ code: Errors.API_KEY_UNKNOWN.code, message: expect.stringMatching(/regenerated/) });
    expect((await subscribed.request('LIST_SUBSCRIPTIONS')).result).toEqual(['trade@BTCUSDT']);
    for (const c of [subscribed, quiet]) {
      expect((await c.request('SUBSCRIBE', ['user'])).error.code).toBe(Errors.API_KEY_MISSING.code);
    }

    // An order with the new key: a session logged in with it hears of it, the old sessions do not.
    const renewed = await loggedIn(aliceNew, ['user']);
    const placed = dataOf(await signed(app, aliceNew, 'POST', '/fapi/v1/orders', { json: orderBody() }));
    await renewed.waitFor((m) => m.stream === 'user' && m.data.kind === 'order' && m.data.data.id === placed.order_id);
    await new Promise((r) => setTimeout(r, 100));
    const after = subscribed.messages.slice(subscribed.messages.indexOf(out) + 1);
    expect(after.filter((m) => m.stream === 'user')).toEqual([]);
    expect(quiet.pushes('user')).toEqual([]);

    // Bob's login is another key's: untouched.
    expect(other.pushes('user').filter((m) => m.data.kind === 'logged_out')).toEqual([]);
    expect((await other.request('LIST_SUBSCRIPTIONS')).result).toEqual(['user']);
  });
});

describe('POST /admin/v1/accounts with a new secret for an existing key and /ws', () => {
  it('ends the logins the old secret made: a logged_out push (2004), no more account events', async () => {
    const carol = makeAccount(venue, 'wsrotate_c');
    const subscribed = await loggedIn(carol, ['user', 'trade@BTCUSDT']);
    const sameSecret = await loggedIn(makeAccount(venue, 'wsrotate_d'), ['user']);

    // the same key with the secret it has changes nothing for its logins
    const kept = await plain(app, 'POST', '/admin/v1/accounts', {
      json: { api_key: carol.apiKey, api_secret: carol.apiSecret },
    });
    expect(dataOf(kept).api_secret).toBe(carol.apiSecret);
    const rotated = await plain(app, 'POST', '/admin/v1/accounts', {
      json: { api_key: carol.apiKey, api_secret: `${carol.apiSecret}x2` },
    });
    expect(dataOf(rotated).api_secret).toBe(`${carol.apiSecret}x2`);
    const carolNew: Creds = { ...carol, apiSecret: `${carol.apiSecret}x2` };

    const out = await subscribed.waitFor((m) => m.stream === 'user' && m.data.kind === 'logged_out');
    expect(out.data.data).toEqual({
      code: Errors.SIGNATURE_INVALID.code,
      message: expect.stringMatching(/new secret/),
    });
    expect(subscribed.pushes('user').filter((m) => m.data.kind === 'logged_out')).toHaveLength(1);
    expect((await subscribed.request('LIST_SUBSCRIPTIONS')).result).toEqual(['trade@BTCUSDT']);
    expect((await subscribed.request('SUBSCRIBE', ['user'])).error.code).toBe(Errors.API_KEY_MISSING.code);

    // an order signed with the new secret: a login made with it hears of it, the old one does not
    const renewed = await loggedIn(carolNew, ['user']);
    const placed = dataOf(await signed(app, carolNew, 'POST', '/fapi/v1/orders', { json: orderBody() }));
    await renewed.waitFor((m) => m.stream === 'user' && m.data.kind === 'order' && m.data.data.id === placed.order_id);
    expect((await subscribed.request('PING')).result).toBe('PONG');
    const after = subscribed.messages.slice(subscribed.messages.indexOf(out) + 1);
    expect(after.filter((m) => m.stream === 'user')).toEqual([]);
    expect(sameSecret.pushes('user').filter((m) => m.data.kind === 'logged_out')).toEqual([]);
  });
});
