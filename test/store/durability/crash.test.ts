// kill -9 during a stream of orders: after a restart on the same data folder every acknowledged
// order and fill is there, balances and positions agree with the fills, and the accounting
// identity holds to the last decimal. A real service process, real HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { all, kill9, plain, signed, startService, units, type Creds, type Service } from './service-process.ts';

const creds: Creds = { key: 'crashtestkey1', secret: 'crashtestsecret1' };
const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-crash-'));
const services: Service[] = [];

afterAll(async () => {
  for (const s of services) await kill9(s);
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<Service> {
  // a first start builds 12 pairs of history first: over a minute on a loaded host
  const s = await startService(
    ['--data-dir', dataDir, '--account', `${creds.key}:${creds.secret}:100000`, '--speed', '0.1'],
    { timeoutMs: 150_000 },
  );
  services.push(s);
  return s;
}

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
      const r = await plain(a.url, 'POST', '/fapi/v1/bot/orders', {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        price,
        qty: '50.000',
        need_cache: true,
      });
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
          const r = await signed(a.url, creds, 'POST', '/fapi/v1/orders', {}, body);
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
      const orders = await all(b.url, creds, '/fapi/v1/allOrders');
      const trades = await all(b.url, creds, '/fapi/v1/myTrades');
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
      const positions = (await signed(b.url, creds, 'GET', '/fapi/v1/position/list')).data as any[];
      for (const side of [1, 2]) {
        const p = positions.find((x) => x.position_side === side);
        const expected = net.get(side) ?? 0n;
        expect(p ? units(p.quantity.toFixed(3)) : 0n, `position side ${side}`).toBe(expected);
      }

      // accounting: deposits = wallet + fees - realized PnL (+ funding paid; none in this run)
      const acct = (await signed(b.url, creds, 'GET', '/fapi/v1/account')).data;
      const fees = trades.reduce((s, t) => s + units(t.fee), 0n);
      const realized = trades.reduce((s, t) => s + units(t.realized_pnl), 0n);
      const funding = positions.reduce((s, p) => s + BigInt(Math.round(p.total_funding_fee * 1e8)), 0n);
      expect(units(acct.total_deposits)).toBe(units(acct.wallet_balance) + fees - realized + funding);
    } finally {
      b.child.kill('SIGTERM');
    }
  }, 300_000);
});
