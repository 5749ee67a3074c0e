// The desktop's decisions against a real service on a real data folder: the credentials the
// window gets follow a key regeneration, and an urgent shutdown leaves the database committed
// before it returns and closes it only after the service's last request.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrapFor } from '../../src-main/desktop/bootstrap.ts';
import { ServiceSlot } from '../../src-main/desktop/service-slot.ts';
import { windowBaseUrl } from '../../src-main/desktop/window-url.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { hmacSha256Hex } from '../../src-shared/sign.ts';
import { signed } from '../helpers/signed.ts';

describe('desktop against a real service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desktop-'));
  const slot = new ServiceSlot<ServiceHandle>();
  afterAll(async () => {
    await slot.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the current key after a regeneration, commits the database synchronously on session end and closes it last', async () => {
    const service = await slot.start(() => startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false }));
    const base = windowBaseUrl(service.host, service.port);
    const ask = () =>
      bootstrapFor(
        { frameUrl: `${base}/`, fromOwnWindowMainFrame: true },
        {
          baseUrl: base,
          readCredentials: () => {
            const a = slot.current?.venue.accounts.firstOfKind('local');
            return a && { apiKey: a.apiKey, apiSecret: a.apiSecret };
          },
        },
      );
    const first = ask()!;
    expect(first.baseUrl).toBe(base);
    const who = { id: 0, apiKey: first.apiKey, apiSecret: first.apiSecret };
    const r = await signed(service.app, who, 'POST', '/fapi/v1/account/apiKey/regenerate');
    expect(r.status).toBe(200);
    const second = ask()!;
    expect(second.apiKey).toBe(r.body.data.api_key);
    expect(second.apiKey).not.toBe(first.apiKey);
    // the fresh pair signs; the captured-at-start pair would not
    expect((await signed(service.app, { id: 0, ...second }, 'GET', '/fapi/v1/account')).status).toBe(200);
    expect((await signed(service.app, who, 'GET', '/fapi/v1/account')).status).toBe(401);

    const done = slot.shutdownNow();
    expect(ask()).toBeNull(); // a page loading during shutdown gets no session
    expect(await done).toBe('closed');
    expect(service.venue.db.isOpen).toBe(false);
  });
});

interface Signer {
  apiKey: string;
  apiSecret: string;
}

const order = (id: string) =>
  JSON.stringify({
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price: '50000.0',
    qty: '0.010',
    client_order_id: id,
  });

/**
 * A signed order over real HTTP. With beforeEnd: the headers and a first part of the body now
 * (the request is taken in), beforeEnd, then the rest 200 ms later.
 */
function postOrder(
  port: number,
  a: Signer,
  body: string,
  opts: { agent: Agent | false; beforeEnd?: () => void },
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const q = `timestamp=${Date.now()}`;
    const req = request(
      `http://127.0.0.1:${port}/fapi/v1/orders?${q}&signature=${hmacSha256Hex(a.apiSecret, q + body)}`,
      {
        method: 'POST',
        agent: opts.agent,
        headers: {
          'X-API-KEY': a.apiKey,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    const { beforeEnd } = opts;
    if (beforeEnd === undefined) return req.end(body);
    req.write(body.slice(0, 10));
    setTimeout(() => {
      beforeEnd();
      req.end(body.slice(10));
    }, 200);
  });
}

describe('an urgent shutdown (the OS ends the session) with a request under way', () => {
  // shutdownNow used to close the database at once, while the app still served what it had taken
  // in (its close waits for requests under way and gives WebSockets a 1 s grace): an order whose
  // headers had arrived before the session ended and its body after was answered 500 / 5000, its
  // store closed under it. Now shutdownNow commits at once and the store closes last.
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desktop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves and commits that order; what was acknowledged before is committed when shutdownNow returns', async () => {
    const slot = new ServiceSlot<ServiceHandle>();
    const service = await slot.start(() => startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false }));
    const a = service.venue.accounts.firstOfKind('local')!;
    // agent false: one connection per request, closed after its answer (no keep-alive)
    const post = (body: string, beforeEnd?: () => void) =>
      postOrder(service.port, a, body, { agent: false, beforeEnd });
    const first = await post(order('before-shutdown'));
    expect(first.status).toBe(200);
    let done!: Promise<string>;
    const committed: string[] = [];
    const slow = await post(order('body-after-shutdown'), () => {
      done = slot.shutdownNow();
      // what was acknowledged is in the file now, read by another connection
      const other = new DatabaseSync(join(dir, 'perpdesk.db'), { readOnly: true });
      try {
        for (const r of other.prepare('SELECT client_order_id FROM orders').all())
          committed.push(String(r.client_order_id));
      } finally {
        other.close();
      }
    });
    expect(committed).toContain('before-shutdown');
    expect(slow.status, JSON.stringify(slow.body)).toBe(200);
    expect(slow.body.data.client_order_id).toBe('body-after-shutdown');
    expect(await done).toBe('closed');
    expect(service.venue.db.isOpen).toBe(false);
    // both acknowledged orders are there after a restart
    const again = new ServiceSlot<ServiceHandle>();
    const next = await again.start(() => startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false }));
    try {
      const b = next.venue.accounts.firstOfKind('local')!;
      const open = await signed(
        next.app,
        { id: 0, apiKey: b.apiKey, apiSecret: b.apiSecret },
        'GET',
        '/fapi/v1/openOrders',
      );
      expect(open.body.data.map((o: { client_order_id: string }) => o.client_order_id).sort()).toEqual([
        'before-shutdown',
        'body-after-shutdown',
      ]);
    } finally {
      await again.shutdown();
    }
  }, 60_000);
});

describe('a shutdown with a keep-alive request under way', () => {
  // Node's close leaves a keep-alive connection that was busy when the close began open until its
  // keep-alive timeout (72 s) after the answer, and the app's close waited for it: a quit with a
  // bot's request under way ran into the shutdown's 5 s bound ('timeout', exit 1). The connection
  // is now closed once its answer is out.
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desktop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the request and closes within the bound', async () => {
    const slot = new ServiceSlot<ServiceHandle>();
    const service = await slot.start(() => startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false }));
    const a = service.venue.accounts.firstOfKind('local')!;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // the connection is open and reused: a first order over it
      expect((await postOrder(service.port, a, order('keep-alive-1'), { agent })).status).toBe(200);
      let done!: Promise<string>;
      const slow = await postOrder(service.port, a, order('keep-alive-2'), {
        agent,
        beforeEnd: () => (done = slot.shutdown()),
      });
      expect(slow.status, JSON.stringify(slow.body)).toBe(200);
      expect(await done).toBe('closed');
      expect(service.venue.db.isOpen).toBe(false);
    } finally {
      agent.destroy();
    }
  }, 60_000);
});
