// What the Binance user stream shows of an auto-deleveraging (trading/liquidation.ts,
// streams/user-events.ts): the bankrupt account's closes at the bankruptcy price fill its
// liquidation order, each deleveraged counterparty's close fills an ADL order of its own; both are
// Binance's LIQUIDATION orders with its special client order ids ("autoclose-<order id>" for the
// liquidated account, "adl_autoclose" for the deleveraged one), shown NEW, then each fill a
// CALCULATED execution (l, L, rp, fee 0) up to FILLED, followed by ACCOUNT_UPDATE (reason ORDER)
// with the new wallet and the closed (pa "0") or reduced position. Scenario and figures as
// test/trading/adl-end-to-end.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Creds } from '../../helpers/signed.ts';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { adlCast, gapBelowBankruptcy, type AdlCast } from './adl-cast.ts';
import { ORDER_UPDATE_ALIKE, ORDER_UPDATE_FIELDS } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-adl-stream-'));
let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
const sockets: WebSocket[] = [];
const got = new Map<number, any[]>();
let who: AdlCast;

async function stream(c: Creds): Promise<void> {
  const key = (await (
    await fetch(`${base}/binance/fapi/v1/listenKey`, { method: 'POST', headers: { 'x-mbx-apikey': c.apiKey } })
  ).json()) as { listenKey: string };
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/binance/ws/${key.listenKey}`);
  sockets.push(ws);
  got.set(c.id, []);
  ws.on('message', (d) => got.get(c.id)!.push(JSON.parse(String(d))));
  await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
}

/** The account's ORDER_TRADE_UPDATE / ACCOUNT_UPDATE events once `n` of them arrived. */
async function events(c: Creds, n: number): Promise<any[]> {
  const mine = () => got.get(c.id)!.filter((m) => m.e === 'ORDER_TRADE_UPDATE' || m.e === 'ACCOUNT_UPDATE');
  for (let i = 0; i < 250 && mine().length < n; i++) await new Promise((r) => setTimeout(r, 20));
  return mine();
}

beforeAll(async () => {
  const v0 = openVenue({ dataDir: dir, simulate: false });
  v0.settings.set('insurance_fund', String(50n * 100_000_000n)); // 50 USDT: too small for the close
  await v0.close();
  venue = openVenue({ dataDir: dir, simulate: false });
  venue.clock.pause();
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const ex = venue.exchange;
  who = adlCast(venue, 'adls');
  for (const c of [who.rich, who.thin, who.loser]) await stream(c);
  // no bid; the mark gaps below the loser's bankruptcy price 91,200: the fund (50) cannot lose 160
  gapBelowBankruptcy(venue);
  expect(ex.positions(who.loser.id)).toEqual([]);
});
afterAll(async () => {
  for (const ws of sockets) ws.close();
  await app?.close();
  await venue?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A CALCULATED execution of order `i` (quantity q) filling l, z in all; FILLED once z is q. */
const calculated = (
  c: string,
  S: string,
  fill: { i: number; q: string; l: string; z: string },
  rp: string,
  ps: string,
) => ({
  e: 'ORDER_TRADE_UPDATE',
  o: expect.objectContaining({
    s: 'BTCUSDT',
    c,
    S,
    o: 'LIQUIDATION',
    ot: 'LIQUIDATION',
    f: 'IOC',
    x: 'CALCULATED',
    X: fill.z === fill.q ? 'FILLED' : 'PARTIALLY_FILLED',
    ...fill,
    p: '91200.0',
    L: '91200.0',
    ap: '91200.00000000',
    n: '0.00000000',
    rp,
    ps,
    m: false,
  }),
});

describe('the Binance user stream of an ADL', () => {
  it('a deleveraged short: its adl_autoclose order NEW, CALCULATED FILLED at the bankruptcy price, then ACCOUNT_UPDATE with the position closed', async () => {
    const got = await events(who.thin, 3);
    const i = got[0].o.i;
    expect(i).toBeGreaterThan(0);
    expect(got[0].o).toMatchObject({ c: 'adl_autoclose', x: 'NEW', X: 'NEW', o: 'LIQUIDATION', p: '91200.0', i });
    expect(got.slice(1)).toEqual([
      expect.objectContaining(
        calculated('adl_autoclose', 'BUY', { i, q: '0.030', l: '0.030', z: '0.030' }, '144.00000000', 'SHORT'),
      ),
      expect.objectContaining({
        e: 'ACCOUNT_UPDATE',
        a: {
          m: 'ORDER',
          B: [{ a: 'USDT', wb: '443.42400000', cw: '443.42400000', bc: '0' }],
          // the symbol's BOTH entry first, empty, as Binance pushes a hedge account's changed symbol
          P: [
            expect.objectContaining({ s: 'BTCUSDT', pa: '0', mt: 'cross', ps: 'BOTH' }),
            expect.objectContaining({ s: 'BTCUSDT', pa: '0', mt: 'cross', ps: 'SHORT', cr: '144' }),
          ],
        },
      }),
    ]);
  });

  it('a partly deleveraged short keeps the rest: pa -0.010', async () => {
    const got = await events(who.rich, 3);
    const i = got[0].o.i;
    expect(got[0].o).toMatchObject({ c: 'adl_autoclose', x: 'NEW', q: '0.020' });
    expect(got.slice(1)).toEqual([
      expect.objectContaining(
        calculated('adl_autoclose', 'BUY', { i, q: '0.020', l: '0.020', z: '0.020' }, '96.00000000', 'SHORT'),
      ),
      expect.objectContaining({
        e: 'ACCOUNT_UPDATE',
        a: expect.objectContaining({
          m: 'ORDER',
          B: [{ a: 'USDT', wb: '10095.42400000', cw: '10095.42400000', bc: '0' }],
          P: [
            expect.objectContaining({ pa: '0', ps: 'BOTH' }),
            expect.objectContaining({ pa: '-0.010', ps: 'SHORT', ep: '96000' }),
          ],
        }),
      }),
    ]);
  });

  it('the liquidated long: its liquidation order NEW, then the two bankruptcy closes as its CALCULATED fills up to FILLED, then ACCOUNT_UPDATE', async () => {
    const got = await events(who.loser, 4);
    const [newIoc, first, second, update] = got;
    expect([newIoc.o.x, newIoc.o.X]).toEqual(['NEW', 'NEW']);
    // the IOC is Binance's liquidation order: autoclose-<order id>, type LIQUIDATION, limited to the
    // bankruptcy price; it found no bid, and the closes at that price fill it (no EXPIRED between)
    const i = newIoc.o.i;
    expect(newIoc.o).toMatchObject({
      c: `autoclose-${i}`,
      o: 'LIQUIDATION',
      ot: 'LIQUIDATION',
      S: 'SELL',
      p: '91200.0',
    });
    expect(first).toEqual(
      expect.objectContaining(
        calculated(`autoclose-${i}`, 'SELL', { i, q: '0.050', l: '0.030', z: '0.030' }, '-144.00000000', 'LONG'),
      ),
    );
    expect(second).toEqual(
      expect.objectContaining(
        calculated(`autoclose-${i}`, 'SELL', { i, q: '0.050', l: '0.020', z: '0.050' }, '-96.00000000', 'LONG'),
      ),
    );
    expect(second.o.t).toBeGreaterThan(first.o.t);
    // the order's events: Binance's fields in Binance's order, the shared ones alike
    for (const m of [newIoc, first, second]) {
      expect(Object.keys(m.o)).toEqual(ORDER_UPDATE_FIELDS);
      expect(m.o).toMatchObject({ ...ORDER_UPDATE_ALIKE, T: m.T, ps: 'LONG' });
    }
    expect(update).toEqual(
      expect.objectContaining({
        e: 'ACCOUNT_UPDATE',
        a: {
          m: 'ORDER',
          B: [{ a: 'USDT', wb: '9757.60000000', cw: '9757.60000000', bc: '0' }],
          P: [
            expect.objectContaining({ pa: '0', mt: 'isolated', ps: 'BOTH', cr: '0' }),
            expect.objectContaining({ pa: '0', mt: 'isolated', ps: 'LONG', cr: '-240' }),
          ],
        },
      }),
    );
  });
});
