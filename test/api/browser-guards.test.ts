// The browser guards: a Host naming another site is refused while the service listens on
// loopback (DNS rebinding), and HTML answers may not be framed by other sites.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { hostName, isLoopbackHost, isThisMachineHost } from '../../src-main/api/browser-guards.ts';
import type { Venue } from '../../src-main/services/venue.ts';
import { openVenue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';

let venue: Venue;
let app: Awaited<ReturnType<typeof buildApp>>;
let open: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  app = await buildApp({ venue, rateLimit: false });
  open = await buildApp({ venue, rateLimit: false, loopbackHostsOnly: false });
});
afterAll(async () => {
  await app.close();
  await open.close();
  venue.close();
});

describe('Host header (DNS rebinding)', () => {
  it('names: the port goes, IPv6 brackets stay, case does not matter', () => {
    expect(hostName('127.0.0.1:8787')).toBe('127.0.0.1');
    expect(hostName('LocalHost:80')).toBe('localhost');
    expect(hostName('[::1]:8787')).toBe('[::1]');
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.0.0.1.evil.example:8787')).toBe(false);
    expect(isLoopbackHost('localhost.evil.example')).toBe(false);
  });

  it('loopback names pass, another site is 403 / 2103 and changes nothing', async () => {
    for (const host of ['127.0.0.1:8787', 'localhost:5173', '[::1]:8787']) {
      const r = await app.inject({ method: 'GET', url: '/fapi/v1/time', headers: { host } });
      expect(r.statusCode, host).toBe(200);
    }
    const before = venue.accounts.byKey('rebindkey01');
    const r = await app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: { host: 'evil.example:8787', 'content-type': 'application/json' },
      payload: JSON.stringify({ api_key: 'rebindkey01', api_secret: 'rebindsecret01' }),
    });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: Errors.HOST_NOT_ALLOWED.code, data: null });
    expect(r.json().message).toContain("'evil.example:8787'");
    expect(before).toBeUndefined();
    expect(venue.accounts.byKey('rebindkey01')).toBeUndefined();
  });

  it('the accepted Host values it remembers change no answer: more of them than it keeps, then refused ones', async () => {
    const status = async (host: string) =>
      (await app.inject({ method: 'GET', url: '/fapi/v1/time', headers: { host } })).statusCode;
    // 100 distinct loopback values (the guard keeps 64), each accepted twice
    for (let port = 1000; port < 1100; port++) expect([port, await status(`127.0.0.1:${port}`)]).toEqual([port, 200]);
    for (let port = 1000; port < 1100; port++) expect([port, await status(`127.0.0.1:${port}`)]).toEqual([port, 200]);
    // look-alikes of remembered values stay refused, also when asked twice
    for (const host of [
      '127.0.0.1:1000.evil.example',
      '127.0.0.1:10000',
      '127.0.0.1:99999',
      'evil.example:1000',
      '127.0.0.1:1000.evil.example',
    ]) {
      expect([host, await status(host)]).toEqual([host, host === '127.0.0.1:10000' ? 200 : 403]);
    }
  });

  it('a service bound beyond loopback on purpose accepts its LAN name', async () => {
    const r = await open.inject({ method: 'GET', url: '/fapi/v1/time', headers: { host: '192.168.1.20:8787' } });
    expect(r.statusCode).toBe(200);
    // from another machine, whatever name it knows the service by
    const lan = await open.inject({
      method: 'GET',
      url: '/fapi/v1/time',
      remoteAddress: '192.168.1.30',
      headers: { host: 'perpdesk-box.lan:8787' },
    });
    expect(lan.statusCode).toBe(200);
  });

  it('bound beyond loopback (--host 0.0.0.0), a caller on this machine naming another site is still refused', async () => {
    // a page of evil.example rebound to 127.0.0.1: before, it created accounts and whitelisted IPs
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const r = await open.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        remoteAddress,
        headers: { host: 'evil.example:8787', 'content-type': 'application/json' },
        payload: JSON.stringify({ api_key: 'rebindkey02', api_secret: 'rebindsecret02' }),
      });
      expect([remoteAddress, r.statusCode, r.json().code]).toEqual([remoteAddress, 403, Errors.HOST_NOT_ALLOWED.code]);
    }
    expect(venue.accounts.byKey('rebindkey02')).toBeUndefined();
    // this machine's own names and addresses pass
    for (const host of ['127.0.0.1:8787', 'localhost', '[::1]:8787', '192.168.1.20:8787', 'app.localhost:8787']) {
      const r = await open.inject({ method: 'GET', url: '/fapi/v1/time', headers: { host } });
      expect([host, r.statusCode]).toEqual([host, 200]);
    }
    expect(isThisMachineHost('build-box:8787', 'build-box.example.org')).toBe(true);
    expect(isThisMachineHost('build-box.example.org', 'build-box.example.org')).toBe(true);
    expect(isThisMachineHost('build-box.evil.example', 'build-box')).toBe(false);
  });
});

describe('framing', () => {
  it('HTML pages refuse to be framed; JSON answers carry no such header', async () => {
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(String(docs.headers['content-type'])).toMatch(/^text\/html/);
    expect(docs.headers['x-frame-options']).toBe('DENY');
    expect(docs.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    const json = await app.inject({ method: 'GET', url: '/fapi/v1/time' });
    expect(json.headers['x-frame-options']).toBeUndefined();
  });
});

/** Sends a raw WebSocket upgrade for `path` with `host`: the first line answered and whether the socket closed. */
async function rawUpgrade(port: number, path: string, host: string): Promise<{ head: string; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1', () => {
      sock.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let data = '';
    sock.on('data', (d) => {
      data += String(d);
      // upgraded: the connection stays open, the client ends it
      if (data.startsWith('HTTP/1.1 101 ')) sock.destroy();
    });
    // the server must end the connection itself otherwise; the client never does
    const timer = setTimeout(() => (sock.destroy(), resolve({ head: data.split('\r\n')[0], closed: false })), 3000);
    sock.on('close', () => (clearTimeout(timer), resolve({ head: data.split('\r\n')[0], closed: true })));
  });
}

describe('WebSocket upgrades', () => {
  it('a refused one gets its 403 and its socket closed, so the server can still shut down', async () => {
    const v = openVenue({ dataDir: ':memory:' });
    const server = await buildApp({ venue: v, rateLimit: false });
    await server.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.server.address() as { port: number }).port;
    const answer = await rawUpgrade(port, '/ws', 'evil.example');
    expect(answer.head).toBe('HTTP/1.1 403 Forbidden');
    expect(answer.closed).toBe(true);
    await server.close();
    v.close();
  });

  it('only a WebSocket endpoint upgrades: any other path answers over HTTP and closes the socket', async () => {
    const v = openVenue({ dataDir: ':memory:' });
    const server = await buildApp({ venue: v, rateLimit: false });
    await server.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.server.address() as { port: number }).port;
    expect(await rawUpgrade(port, '/fapi/v1/time', '127.0.0.1')).toEqual({ head: 'HTTP/1.1 200 OK', closed: true });
    expect(await rawUpgrade(port, '/no/such/path', '127.0.0.1')).toEqual({
      head: 'HTTP/1.1 404 Not Found',
      closed: true,
    });
    const ws = await rawUpgrade(port, '/ws', '127.0.0.1');
    expect(ws.head).toBe('HTTP/1.1 101 Switching Protocols');
    const binance = await rawUpgrade(port, '/binance/ws', '127.0.0.1');
    expect(binance.head).toBe('HTTP/1.1 101 Switching Protocols');
    await server.close();
    v.close();
  });
});
