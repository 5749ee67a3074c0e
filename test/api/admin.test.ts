// Admin routes (accounts, whitelist), the whitelist status route and the paper deposit.
import { openingLimit, placeOrder } from '../helpers/exchange-commands.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { ok } from '../../src-main/api/envelope.ts';
import { BotWhitelist } from '../../src-main/accounts/whitelist.ts';
import { openVenue, type LocalVenue as Venue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';
import { buildSignedQuery } from '../../src-shared/sign.ts';

const T0 = 1_700_000_000_000;
const U = 100_000_000n; // 1 USDT in account units
let clock = T0;
let app: FastifyInstance;
let venue: Venue;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  app = await buildApp({ venue, now: () => clock, rateLimit: false });
  app.get('/fapi/v1/test/bot', { config: { auth: 'bot' } }, async () => ok('bot ok'));
  app.get('/fapi/v1/test/whoami', { config: { auth: 'signed' } }, async (req) =>
    ok({ key: req.account!.apiKey, wallet: String(req.account!.walletBalance) }),
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
  venue.close();
});

beforeEach(() => {
  clock = T0;
});

async function send(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  extra: { ip?: string; key?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (extra.key) headers['x-api-key'] = extra.key;
  const r = await app.inject({
    method,
    url,
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    remoteAddress: extra.ip ?? '127.0.0.1',
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

const createAccount = (body: unknown, ip?: string) => send('POST', '/admin/v1/accounts', body, { ip });

async function deposit(key: string, secret: string, amount: unknown) {
  const body = JSON.stringify({ amount });
  return send('POST', '/fapi/v1/account/deposit?' + buildSignedQuery({ timestamp: clock }, secret, body), body, {
    key,
  });
}

describe('POST /admin/v1/accounts', () => {
  it('creates an account with generated credentials and the default balance', async () => {
    const r = await createAccount({});
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(Object.keys(d)).toEqual(['user_id', 'api_key', 'api_secret', 'balance', 'position_mode']);
    expect(d.position_mode).toBe('hedge'); // the native default
    expect(d.api_key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    expect(d.api_secret).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    expect(d.balance).toBe('10000.00000000');
    const a = venue.accounts.byKey(d.api_key)!;
    expect(d.user_id).toBe(a.id); // an integer, as in GET /fapi/v1/account
    expect(a.apiSecret).toBe(d.api_secret);
    expect(a.kind).toBe('user');
    expect(a.walletBalance).toBe(10_000n * U);
    // Each call without a key is a new account.
    const again = await createAccount({});
    expect(again.body.data.api_key).not.toBe(d.api_key);
    expect(again.body.data.user_id).not.toBe(d.user_id);
  });

  it('requires a body (as OpenAPI says): none is 1002, null is 1001, {} means every default', async () => {
    const count = () =>
      Number((venue.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number | bigint }).n);
    const before = count();
    const none = await app.inject({ method: 'POST', url: '/admin/v1/accounts' });
    expect(none.statusCode).toBe(400);
    expect(JSON.parse(none.body).code).toBe(Errors.MISSING_PARAMETER.code);
    const nul = await app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: { 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(nul.statusCode).toBe(400);
    expect(JSON.parse(nul.body).code).toBe(Errors.INVALID_PARAMETER.code);
    expect(count()).toBe(before);
    const r = await createAccount({});
    expect(r.status).toBe(200);
    expect(r.body.data.balance).toBe('10000.00000000');
  });

  it('creates with chosen credentials, then updates the same account', async () => {
    const r = await createAccount({ api_key: 'admin_key_01', api_secret: 'admin_secret_01', balance: '2500.5' });
    expect(r.body.data).toMatchObject({
      api_key: 'admin_key_01',
      api_secret: 'admin_secret_01',
      balance: '2500.50000000',
    });
    const id = r.body.data.user_id;

    const u = await createAccount({ api_key: 'admin_key_01', balance: '100' });
    expect(u.body.data).toEqual({
      user_id: id,
      api_key: 'admin_key_01',
      api_secret: 'admin_secret_01',
      balance: '100.00000000',
      position_mode: 'hedge',
    });
    const a = venue.accounts.byKey('admin_key_01')!;
    expect(a.walletBalance).toBe(100n * U);
    // The balance change is booked as a deposit (negative here), so accounting adds up.
    expect(a.totalDeposits).toBe(100n * U);

    // The exchange, once it holds the account live, sees a balance set by the admin route.
    expect(venue.exchange.summary(a.id).wallet_balance).toBe('100.00000000');
    await createAccount({ api_key: 'admin_key_01', balance: '300' });
    expect(venue.exchange.summary(a.id).wallet_balance).toBe('300.00000000');
    await createAccount({ api_key: 'admin_key_01', balance: '100' });

    // Without a balance the wallet is kept; a new secret replaces the old one.
    const s = await createAccount({ api_key: 'admin_key_01', api_secret: 'admin_secret_02' });
    expect(s.body.data).toEqual({
      user_id: id,
      api_key: 'admin_key_01',
      api_secret: 'admin_secret_02',
      balance: '100.00000000',
      position_mode: 'hedge',
    });
  });

  it('position_mode creates a one-way account, switches an idle one, and is refused (nothing applied) while something is open', async () => {
    const r = await createAccount({ api_key: 'admin_mode_01', position_mode: 'one_way' });
    expect(r.body.data.position_mode).toBe('one_way');
    const id = r.body.data.user_id;
    expect(venue.exchange.summary(id).position_mode).toBe('one_way');
    expect(venue.accounts.byId(id)!.positionMode).toBe('one_way');
    // the same mode again is no change; the other one switches an idle account
    expect((await createAccount({ api_key: 'admin_mode_01', position_mode: 'one_way' })).body.data.position_mode).toBe(
      'one_way',
    );
    expect((await createAccount({ api_key: 'admin_mode_01', position_mode: 'hedge' })).body.data.position_mode).toBe(
      'hedge',
    );
    // an open order: the switch is refused and the balance in the same body is not applied
    const bid = Math.round(venue.exchange.pair('BTCUSDT')!.markPrice * 0.98).toFixed(1);
    placeOrder(venue.exchange, id, openingLimit(1, bid, '0.010'));
    const refused = await createAccount({ api_key: 'admin_mode_01', position_mode: 'one_way', balance: '5' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(Errors.POSITION_MODE_CHANGE_REFUSED.code);
    expect(venue.exchange.summary(id).position_mode).toBe('hedge');
    expect(venue.exchange.summary(id).wallet_balance).toBe('10000.00000000');
    // anything else is refused by the schema
    const bad = await createAccount({ position_mode: 'ONE_WAY' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(Errors.INVALID_PARAMETER.code);
  });

  it('a rotated secret takes effect on signed routes at once', async () => {
    const whoami = (secret: string) =>
      send('GET', '/fapi/v1/test/whoami?' + buildSignedQuery({ timestamp: clock }, secret), undefined, {
        key: 'rotate_key_1',
      });
    await createAccount({ api_key: 'rotate_key_1', api_secret: 'rotate_secret_1' });
    expect((await whoami('rotate_secret_1')).body.data.key).toBe('rotate_key_1'); // now cached
    await createAccount({ api_key: 'rotate_key_1', api_secret: 'rotate_secret_2' });
    expect((await whoami('rotate_secret_1')).body.code).toBe(Errors.SIGNATURE_INVALID.code);
    expect((await whoami('rotate_secret_2')).body.code).toBe(0);
  });

  it.each([
    [{ api_key: 'short' }, 'api_key', /8 to 128 letters/],
    [{ api_key: 'has space in it' }, 'api_key', /8 to 128 letters/],
    [{ api_key: 'colon:inside:key' }, 'api_key', /8 to 128 letters/],
    [{ api_key: 'k'.repeat(129) }, 'api_key', /8 to 128 letters/],
    [{ api_key: 'good_key_123', api_secret: 'bad/secret' }, 'api_secret', /8 to 128 letters/],
    [{ api_secret: 'x:y:z:w:v' }, 'api_secret', /8 to 128 letters/],
    [{ balance: '-5' }, 'balance', /must be greater than 0$/],
    [{ balance: '0' }, 'balance', /must be greater than 0$/],
    [{ balance: 'abc' }, 'balance', /decimal/],
    [{ balance: '1.123456789' }, 'balance', /8 decimals/],
    [{ balance: '1:2' }, 'balance', /decimal/],
    [{ balance: '1000000000.00000001' }, 'balance', /at most 1000000000/],
  ])('refuses %j with 1001 naming %s', async (body, field, detail) => {
    const r = await createAccount(body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
    expect(r.body.message).toContain(`'${field}'`);
    expect(r.body.message).toMatch(detail);
  });

  it('refuses unknown fields (1003) and non-objects', async () => {
    expect((await createAccount({ api_key: 'abcdefgh1', foo: 1 })).body.code).toBe(Errors.UNKNOWN_PARAMETER.code);
    expect((await createAccount([1])).body.code).toBe(Errors.INVALID_PARAMETER.code);
    expect((await createAccount('{"api_key":')).body.code).toBe(Errors.INVALID_JSON.code);
  });

  it('answers loopback callers only (403 / 2102)', async () => {
    const before = venue.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
    const r = await createAccount({ api_key: 'remote_key_1' }, '192.168.1.50');
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(Errors.LOOPBACK_ONLY.code);
    expect(r.body.message).toContain('192.168.1.50');
    const after = venue.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
    expect(after.n).toBe(before.n);
    expect((await createAccount({ api_key: 'ipv6_key_01' }, '::1')).status).toBe(200);
  });
});

describe('whitelist', () => {
  it('lists the loopback defaults', async () => {
    const r = await send('GET', '/admin/v1/whitelist');
    expect(r.body).toEqual({ code: 0, message: 'success', data: { ips: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] } });
  });

  it('replaces the list, keeps loopback entries, stores it and applies it to bot routes', async () => {
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '10.1.2.3' })).status).toBe(403);
    const r = await send('PUT', '/admin/v1/whitelist', { ips: ['10.1.2.3', '2001:DB8:0:0::1', '10.1.2.3', '::1'] });
    expect(r.status).toBe(200);
    expect(r.body.data.ips).toEqual(['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '2001:db8::1']);
    expect(new BotWhitelist(venue.settings).list()).toEqual(r.body.data.ips);
    expect((await send('GET', '/admin/v1/whitelist')).body.data.ips).toEqual(r.body.data.ips);

    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '10.1.2.3' })).body.data).toBe('bot ok');
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '::ffff:10.1.2.3' })).body.data).toBe('bot ok');
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '2001:db8::1' })).body.data).toBe('bot ok');
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '10.1.2.4' })).status).toBe(403);

    const status = await send('GET', '/fapi/v1/bot/whitelist/status', undefined, { ip: '::ffff:10.1.2.3' });
    expect(status.body.data).toEqual({ ip: '::ffff:10.1.2.3', whitelisted: true });

    // An empty list still keeps loopback.
    const e = await send('PUT', '/admin/v1/whitelist', { ips: [] });
    expect(e.body.data.ips).toEqual(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '10.1.2.3' })).status).toBe(403);
    expect((await send('GET', '/fapi/v1/test/bot', undefined, { ip: '::1' })).status).toBe(200);
  });

  it.each(['10.0.0', '256.1.1.1', 'localhost', '10.0.0.0/8', 'fe80::1%eth0', ' 10.0.0.1', ''])(
    'refuses %j with 1001',
    async (ip) => {
      const r = await send('PUT', '/admin/v1/whitelist', { ips: ['10.9.9.9', ip] });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
      expect(r.body.message).toContain("'ips'");
      expect(r.body.message).toContain(JSON.stringify(ip));
      expect(new BotWhitelist(venue.settings).list()).not.toContain('10.9.9.9');
    },
  );

  it('refuses a body without ips, and non-loopback callers', async () => {
    expect((await send('PUT', '/admin/v1/whitelist', {})).body.code).toBe(Errors.MISSING_PARAMETER.code);
    const r = await send('PUT', '/admin/v1/whitelist', { ips: ['10.0.0.1'] }, { ip: '10.0.0.1' });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(Errors.LOOPBACK_ONLY.code);
    expect((await send('GET', '/admin/v1/whitelist', undefined, { ip: '10.0.0.1' })).body.code).toBe(
      Errors.LOOPBACK_ONLY.code,
    );
  });

  it('status route is public and tells the caller its IP', async () => {
    expect((await send('GET', '/fapi/v1/bot/whitelist/status')).body.data).toEqual({
      ip: '127.0.0.1',
      whitelisted: true,
    });
    expect((await send('GET', '/fapi/v1/bot/whitelist/status', undefined, { ip: '172.16.0.4' })).body.data).toEqual({
      ip: '172.16.0.4',
      whitelisted: false,
    });
  });
});

describe('POST /fapi/v1/account/deposit', () => {
  const KEY = 'deposit_key_1';
  const SECRET = 'deposit_secret_1';

  beforeAll(async () => {
    await createAccount({ api_key: KEY, api_secret: SECRET, balance: '1000' });
  });

  it('adds to the wallet and to total deposits', async () => {
    const before = venue.accounts.byKey(KEY)!;
    const r = await deposit(KEY, SECRET, '250.12345678');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 0, message: 'success', data: { balance: '1250.12345678' } });
    const after = venue.accounts.byKey(KEY)!;
    expect(after.walletBalance - before.walletBalance).toBe(250_12345678n);
    expect(after.totalDeposits - before.totalDeposits).toBe(250_12345678n);
    const again = await deposit(KEY, SECRET, '0.00000002');
    expect(again.body.data.balance).toBe('1250.12345680');
    // The exchange's live wallet (what margin checks use) has it too.
    expect(venue.exchange.summary(after.id)).toMatchObject({
      wallet_balance: '1250.12345680',
      total_deposits: '1250.12345680',
    });
    // request.account (cached) follows the deposit.
    const who = await send('GET', '/fapi/v1/test/whoami?' + buildSignedQuery({ timestamp: clock }, SECRET), undefined, {
      key: KEY,
    });
    expect(who.body.data.wallet).toBe('125012345680');
  });

  it.each([
    ['-5', /greater than 0/],
    ['0', /greater than 0/],
    ['0.00000000', /greater than 0/],
    ['1.123456789', /at most 8 decimals/],
    ['1000000000.00000001', /at most 1000000000\.00000000 USDT per deposit/],
    ['99999999999999999999999', /per deposit/],
    ['abc', /positive decimal string/],
    ['1e5', /positive decimal string/],
    ['', /positive decimal string/],
    [' 5', /positive decimal string/],
  ])('refuses amount %j with 1001', async (amount, detail) => {
    const before = venue.accounts.byKey(KEY)!.walletBalance;
    const r = await deposit(KEY, SECRET, amount);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
    expect(r.body.message).toContain("'amount'");
    expect(r.body.message).toMatch(detail);
    expect(venue.accounts.byKey(KEY)!.walletBalance).toBe(before);
  });

  it('refuses a deposit that would take the wallet past the ceiling', async () => {
    await createAccount({ api_key: 'whale_key_01', api_secret: 'whale_secret_1', balance: '1000000000' });
    for (let i = 0; i < 9; i++)
      expect((await deposit('whale_key_01', 'whale_secret_1', '1000000000')).body.code).toBe(0);
    const r = await deposit('whale_key_01', 'whale_secret_1', '0.00000001');
    expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
    expect(r.body.message).toMatch(/may not exceed 10000000000/);
    expect(venue.accounts.byKey('whale_key_01')!.walletBalance).toBe(10_000_000_000n * U);
  });

  it('refuses missing or non-string amounts through the schema', async () => {
    const body = JSON.stringify({});
    const r = await send(
      'POST',
      '/fapi/v1/account/deposit?' + buildSignedQuery({ timestamp: clock }, SECRET, body),
      body,
      { key: KEY },
    );
    expect(r.body.code).toBe(Errors.MISSING_PARAMETER.code);
    expect((await deposit(KEY, SECRET, { n: 1 })).body.code).toBe(Errors.INVALID_PARAMETER.code);
  });

  it('is signed: no key 2001, bad signature 2004', async () => {
    const body = JSON.stringify({ amount: '5' });
    const url = '/fapi/v1/account/deposit?' + buildSignedQuery({ timestamp: clock }, SECRET, body);
    expect((await send('POST', url, body)).body.code).toBe(Errors.API_KEY_MISSING.code);
    expect((await send('POST', url, { amount: '6' }, { key: KEY })).body.code).toBe(Errors.SIGNATURE_INVALID.code);
  });
});

describe('OpenAPI', () => {
  it('documents the new routes with request and response schemas', async () => {
    const doc = JSON.parse((await app.inject({ url: '/openapi.json' })).body);
    const post = doc.paths['/admin/v1/accounts'].post;
    expect(post.requestBody).toBeDefined();
    expect(post.responses['200']).toBeDefined();
    expect(post.responses['403']).toBeDefined();
    expect(doc.paths['/admin/v1/whitelist'].get.responses['200']).toBeDefined();
    expect(doc.paths['/admin/v1/whitelist'].put.requestBody).toBeDefined();
    expect(doc.paths['/fapi/v1/bot/whitelist/status'].get.responses['200']).toBeDefined();
    const dep = doc.paths['/fapi/v1/account/deposit'].post;
    const names = dep.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['timestamp', 'recv_window', 'signature']));
    expect(dep.responses['401']).toBeDefined();
  });
});
