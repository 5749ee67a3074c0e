// kill -9 during a stream of orders: after a restart on the same data folder every acknowledged
// order and fill is there, balances and positions agree with the fills, and the accounting
// identity holds to the last decimal. A real service process, real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFixed } from '../../../src-shared/decimal.ts';
import { buildSignedQuery } from '../../../src-shared/sign.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const KEY = 'crashtestkey1';
const SECRET = 'crashtestsecret1';
const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-crash-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      join(root, 'src-main/headless.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--account',
      `${KEY}:${SECRET}:100000`,
      '--speed',
      '0.1',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
  return { url, child };
}

async function signed(
  url: string,
  method: string,
  path: string,
  params: Record<string, string | number> = {},
  body?: object,
): Promise<any> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const qs = buildSignedQuery({ ...params, timestamp: Date.now(), recv_window: 60_000 }, SECRET, raw);
  const res = await fetch(`${url}${path}?${qs}`, {
    method,
    headers: { 'X-API-KEY': KEY, ...(raw ? { 'content-type': 'application/json' } : {}) },
    body: raw,
  });
  return res.json();
}

async function all(url: string, path: string, params: Record<string, string | number> = {}): Promise<any[]> {
  const items: any[] = [];
  let cursor = '';
  for (let i = 0; i < 1000; i++) {
    const r = await signed(url, 'GET', path, { ...params, limit: 500, ...(cursor ? { cursor } : {}) });
    expect(r.code, JSON.stringify(r)).toBe(0);
    items.push(...r.data.items);
    if (!r.data.has_more) return items;
    cursor = r.data.next_cursor;
  }
  throw new Error('too many pages');
}

const units = (s: string): bigint => {
  const r = parseFixed(s.replace(/^-/, ''), 8, { allowZero: true });
  if (!r.ok) throw new Error(`bad amount ${s}`);
  return s.startsWith('-') ? -r.value : r.value;
};

describe('crash safety', () => {
  it('kill -9 mid-stream loses no acknowledged order, fill, balance or position', async () => {
    const a = await start();
    // house liquidity on both sides (bot route: loopback is whitelisted)
    for (const [side, price] of [
      [2, '96050.0'],
      [2, '96100.0'],
      [1, '95950.0'],
      [1, '95900.0'],
    ] as const) {
      const r = (await (
        await fetch(`${a.url}/fapi/v1/bot/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            symbol: 'BTCUSDT',
            side,
            position_side: side,
            position_action: 1,
            type: 1,
            price,
            qty: '50.000',
            need_cache: true,
          }),
        })
      ).json()) as any;
      expect(r.code).toBe(0);
    }

    const acked = new Map<string, { status: number; filled: string }>();
    let sent = 0;
    let stop = false;
    const bodies = [
      { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.003' },
      { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 1, price: '90000.0', qty: '0.002' },
      { symbol: 'BTCUSDT', side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.001' },
      { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.002' },
    ];
    const worker = async () => {
      while (!stop) {
        const body = bodies[sent++ % bodies.length];
        try {
          const r = await signed(a.url, 'POST', '/fapi/v1/orders', {}, body);
          if (r.code === 0) acked.set(r.data.order_id, { status: r.data.status, filled: r.data.filled_qty });
        } catch {
          return; // the process died under us
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    // let a good number be acknowledged, then kill in the middle of the stream
    for (let i = 0; i < 600 && acked.size < 120; i++) await new Promise((r) => setTimeout(r, 25));
    a.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(acked.size).toBeGreaterThanOrEqual(40);

    const b = await start();
    try {
      const orders = await all(b.url, '/fapi/v1/allOrders');
      const trades = await all(b.url, '/fapi/v1/myTrades');
      const byId = new Map(orders.map((o) => [o.id, o]));
      for (const [id, ack] of acked) {
        const o = byId.get(id);
        expect(o, `acknowledged order ${id} is stored`).toBeDefined();
        expect(units(o.filled_qty) >= units(ack.filled)).toBe(true);
        if (ack.status >= 3) expect(o.status).toBe(ack.status);
      }
      // fills add up per order
      const filled = new Map<string, bigint>();
      for (const t of trades) filled.set(t.order_id, (filled.get(t.order_id) ?? 0n) + units(t.qty));
      for (const o of orders) expect(filled.get(o.id) ?? 0n, `fills of order ${o.id}`).toBe(units(o.filled_qty));

      // positions equal the net of the fills
      const net = new Map<number, bigint>();
      for (const t of trades) {
        const sign = t.is_close ? -1n : 1n;
        net.set(t.position_side, (net.get(t.position_side) ?? 0n) + sign * units(t.qty));
      }
      const positions = (await signed(b.url, 'GET', '/fapi/v1/position/list')).data as any[];
      for (const side of [1, 2]) {
        const p = positions.find((x) => x.position_side === side);
        const expected = net.get(side) ?? 0n;
        expect(p ? units(p.quantity.toFixed(3)) : 0n, `position side ${side}`).toBe(expected);
      }

      // accounting: deposits = wallet + fees - realized PnL (+ funding paid; none in this run)
      const acct = (await signed(b.url, 'GET', '/fapi/v1/account')).data;
      const fees = trades.reduce((s, t) => s + units(t.fee), 0n);
      const realized = trades.reduce((s, t) => s + units(t.realized_pnl), 0n);
      const funding = positions.reduce((s, p) => s + BigInt(Math.round(p.total_funding_fee * 1e8)), 0n);
      expect(units(acct.total_deposits)).toBe(units(acct.wallet_balance) + fees - realized + funding);
    } finally {
      b.child.kill('SIGTERM');
    }
  }, 120_000);
});
