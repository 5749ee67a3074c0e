// Liquidation orders a data folder kept from builds that named them liq-<order id> (schema 14 and
// before): the database brought up to date names them as every liquidation order is named now,
// autoclose-<order id>, so ccxt fetchMyLiquidations (GET /fapi/v1/forceOrders) lists them and the
// order answers show them as LIQUIDATION. The rows are written as those builds wrote them: a
// MARKET IOC reduce-only close, no price, its own id in its name. A user's order that merely has
// a name of that form keeps it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { MIGRATIONS } from '../../../src-main/store/migrations.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import type { Creds } from '../../helpers/signed.ts';
import { binanceusdm } from './helpers.ts';
import { signedCall } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
/** Market time of the old liquidations. */
const AT = 1_790_000_000_000;
const UNIT = 100_000_000n;
const who: Creds = { id: 1, apiKey: 'oldliq_key_0000', apiSecret: 'oldliq_secret_0000' };

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-old-liq-'));
let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;

/** An order row of `who` on BTCUSDT as schema 14 stores it (lots of 0.001, ticks of 0.1, 1e-8 USDT). */
function orderRow(db: DatabaseSync, o: { id: number; cid: string; type: 1 | 2; status: number; filled: number }) {
  const market = o.type === 2;
  db.prepare(
    `INSERT INTO orders (id, client_order_id, account_id, symbol, side, type, tif, price_ticks, qty_lots, filled_lots,
      filled_quote, status, leverage, margin_mode, position_side, position_action, reduce_only, frozen, total_fee,
      created_at, updated_at) VALUES (?, ?, 1, 'BTCUSDT', 2, ?, ?, ?, 100, ?, ?, ?, 20, 1, 1, 2, ?, 0, 0, ?, ?)`,
  ).run(
    o.id,
    o.cid,
    o.type,
    market ? 2 : 1, // the liquidation's IOC; a user's GTC limit
    market ? 0 : 915_600,
    o.filled,
    (BigInt(o.filled) * 91_560n * UNIT) / 1000n,
    o.status,
    market ? 1 : 0,
    AT,
    AT,
  );
}

beforeAll(async () => {
  const db = new DatabaseSync(join(dir, 'perpdesk.db'));
  db.exec('PRAGMA journal_mode = WAL');
  for (let v = 0; v < 14; v++) db.exec(MIGRATIONS[v]);
  db.exec('PRAGMA user_version = 14');
  db.prepare(
    `INSERT INTO accounts (id, api_key, api_secret, kind, wallet_balance, total_deposits, created_at, updated_at)
     VALUES (1, ?, ?, 'user', ?, ?, ?, ?)`,
  ).run(who.apiKey, who.apiSecret, 10_000n * UNIT, 10_000n * UNIT, AT - 60_000, AT);
  // two liquidations of that build: one filled in the book, one that found no bid (EXPIRED, 6)
  orderRow(db, { id: 501, cid: 'liq-501', type: 2, status: 3, filled: 100 });
  orderRow(db, { id: 504, cid: 'liq-504', type: 2, status: 6, filled: 0 });
  // a user's orders named so by hand: a limit with its own id, a market close with another id
  orderRow(db, { id: 502, cid: 'liq-502', type: 1, status: 4, filled: 0 });
  orderRow(db, { id: 503, cid: 'liq-7', type: 2, status: 3, filled: 100 });
  db.close();
  venue = openVenue({ dataDir: dir, simulate: false });
  venue.clock.pause();
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  await venue?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('liquidation orders stored as liq-<id> by an older build', () => {
  it('fetchMyLiquidations lists them, named autoclose-<id>, as the liquidation orders they are', async () => {
    const ex = binanceusdm(base, who);
    const window = { endTime: AT + 1000 };
    const liqs = await ex.fetchMyLiquidations(BTC, AT - 1000, undefined, window);
    expect(liqs.map((l: any) => [l.info.orderId, l.info.clientOrderId, l.info.status, l.info.executedQty])).toEqual([
      [501, 'autoclose-501', 'FILLED', '0.100'],
      [504, 'autoclose-504', 'EXPIRED', '0.000'],
    ]);
    expect(liqs[0]).toMatchObject({ symbol: BTC, contracts: 0.1, side: 'sell', timestamp: AT });
    // the whole list of forced closes (no autoCloseType) is those two, no ADL among them
    const all = await ex.fapiPrivateGetForceOrders({ startTime: AT - 1000, endTime: AT + 1000 });
    expect(all.map((o: any) => o.orderId)).toEqual([501, 504]);
    const adl = await ex.fapiPrivateGetForceOrders({ autoCloseType: 'ADL', startTime: AT - 1000, endTime: AT + 1000 });
    expect(adl).toEqual([]);
  });

  it('the order answers show them as LIQUIDATION; orders a user named liq-... keep their names', async () => {
    const order = async (orderId: number) =>
      (await signedCall(base, who, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body;
    expect(await order(501)).toMatchObject({ clientOrderId: 'autoclose-501', type: 'LIQUIDATION' });
    expect(await order(502)).toMatchObject({ clientOrderId: 'liq-502', type: 'LIMIT' });
    expect(await order(503)).toMatchObject({ clientOrderId: 'liq-7', type: 'MARKET' });
  });
});
