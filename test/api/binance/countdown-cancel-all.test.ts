// POST /fapi/v1/countdownCancelAll, Binance's auto-cancel ("dead man's switch"), over a real socket
// and the real clock (countdowns of a few hundred ms, waits bounded to seconds): when the account's
// countdown for a pair runs out, its open orders on that pair, and only those, are cancelled and the
// user stream reports each as an ordinary cancel; a new call replaces the countdown, 0 ends it;
// Binance's answer layout and refusals; ccxt's implicit method; a countdown outlives a stop of the
// service (stored with its data) and fires after the next start, at once when its deadline passed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Creds } from '../../helpers/signed.ts';
import { account, binanceusdm, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A resting limit buy far below the market (it never fills): its orderId. */
async function restingBuy(base: string, c: Creds, symbol: string, price: string, quantity: string): Promise<number> {
  const r = await signedCall(base, c, 'POST', '/fapi/v1/order', {
    symbol,
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity,
    price,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.orderId;
}

const openIds = async (base: string, c: Creds, symbol: string): Promise<number[]> =>
  ((await signedCall(base, c, 'GET', '/fapi/v1/openOrders', { symbol })).body as { orderId: number }[])
    .map((o) => o.orderId)
    .sort((a, b) => a - b);

const countdown = (base: string, c: Creds, symbol: string, countdownTime: number | string) =>
  signedCall(base, c, 'POST', '/fapi/v1/countdownCancelAll', { symbol, countdownTime });

/** Polls until `done` holds or `ms` passed; whether it held. */
async function within(ms: number, done: () => Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await done()) return true;
  return done();
}

describe('countdownCancelAll', () => {
  it("cancels the pair's open orders when the countdown runs out, announced on the user stream as cancels", async () => {
    const c = account(svc.venue, 'cdfire', 100_000, 'one_way');
    const btc = [
      await restingBuy(svc.base, c, 'BTCUSDT', '50000', '0.010'),
      await restingBuy(svc.base, c, 'BTCUSDT', '50001', '0.010'),
    ];
    const eth = await restingBuy(svc.base, c, 'ETHUSDT', '1000', '0.100');
    const lk = await fetch(`${svc.base}/binance/fapi/v1/listenKey`, {
      method: 'POST',
      headers: { 'x-mbx-apikey': c.apiKey },
    });
    const key = ((await lk.json()) as { listenKey: string }).listenKey;
    const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${key}`);
    const got: any[] = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));

    const r = await countdown(svc.base, c, 'btcusdt', 400);
    expect([r.status, r.body]).toEqual([200, { symbol: 'BTCUSDT', countdownTime: '400' }]);
    expect(await openIds(svc.base, c, 'BTCUSDT'), 'still open before the countdown ends').toEqual(btc);
    expect(await within(3_000, async () => (await openIds(svc.base, c, 'BTCUSDT')).length === 0)).toBe(true);
    // only that pair's orders
    expect(await openIds(svc.base, c, 'ETHUSDT')).toEqual([eth]);
    for (const id of btc) {
      const q = await signedCall(svc.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: id });
      expect(q.body.status).toBe('CANCELED');
    }
    const cancels = () =>
      got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.x === 'CANCELED').map((m) => [m.o.s, m.o.i, m.o.X]);
    expect(await within(2_000, async () => cancels().length === 2)).toBe(true);
    expect(cancels().sort()).toEqual(btc.map((id) => ['BTCUSDT', id, 'CANCELED']).sort());
    ws.close();
    // the countdown fired once and is gone: a new order on the pair stays open
    const later = await restingBuy(svc.base, c, 'BTCUSDT', '50002', '0.010');
    await sleep(700);
    expect(await openIds(svc.base, c, 'BTCUSDT')).toEqual([later]);
  });

  it('a new call replaces the countdown (a long one by a short one and back), 0 ends it', async () => {
    const c = account(svc.venue, 'cdreplace', 100_000, 'one_way');
    const a = await restingBuy(svc.base, c, 'BTCUSDT', '50000', '0.010');
    // a short countdown replaced by a long one, then ended: nothing is cancelled
    expect((await countdown(svc.base, c, 'BTCUSDT', 300)).status).toBe(200);
    expect((await countdown(svc.base, c, 'BTCUSDT', 600_000)).body).toEqual({
      symbol: 'BTCUSDT',
      countdownTime: '600000',
    });
    await sleep(700);
    expect(await openIds(svc.base, c, 'BTCUSDT')).toEqual([a]);
    expect((await countdown(svc.base, c, 'BTCUSDT', 0)).body).toEqual({ symbol: 'BTCUSDT', countdownTime: '0' });
    // 0 with no countdown running is accepted too, as Binance
    expect((await countdown(svc.base, c, 'BTCUSDT', 0)).status).toBe(200);
    // a long countdown replaced by a short one fires at the short one's end
    expect((await countdown(svc.base, c, 'BTCUSDT', 600_000)).status).toBe(200);
    expect((await countdown(svc.base, c, 'BTCUSDT', 300)).status).toBe(200);
    expect(await within(3_000, async () => (await openIds(svc.base, c, 'BTCUSDT')).length === 0)).toBe(true);
  });

  it("one account's countdown leaves another account's orders alone", async () => {
    const c = account(svc.venue, 'cdmine', 100_000, 'one_way');
    const d = account(svc.venue, 'cdother', 100_000, 'one_way');
    await restingBuy(svc.base, c, 'BTCUSDT', '50000', '0.010');
    const theirs = await restingBuy(svc.base, d, 'BTCUSDT', '50000', '0.010');
    expect((await countdown(svc.base, c, 'BTCUSDT', 200)).status).toBe(200);
    expect(await within(3_000, async () => (await openIds(svc.base, c, 'BTCUSDT')).length === 0)).toBe(true);
    expect(await openIds(svc.base, d, 'BTCUSDT')).toEqual([theirs]);
  });

  it("refusals in Binance's terms", async () => {
    const c = account(svc.venue, 'cdrefuse', 100_000, 'one_way');
    const call = (p: Record<string, string>) => signedCall(svc.base, c, 'POST', '/fapi/v1/countdownCancelAll', p);
    const cases: [Record<string, string>, number, string][] = [
      [{ countdownTime: '1000' }, -1102, "Mandatory parameter 'symbol'"],
      [{ symbol: 'BTCUSDT' }, -1102, "Mandatory parameter 'countdownTime'"],
      [{ symbol: 'BTCUSDT', countdownTime: '' }, -1102, "Mandatory parameter 'countdownTime'"],
      [{ symbol: 'BTCUSDT', countdownTime: 'abc' }, -1100, "Illegal characters found in parameter 'countdownTime'"],
      [{ symbol: 'BTCUSDT', countdownTime: '1.5' }, -1100, "Illegal characters found in parameter 'countdownTime'"],
      [{ symbol: 'BTCUSDT', countdownTime: '-1' }, -1130, "Data sent for parameter 'countdownTime' is not valid"],
      [{ symbol: 'NOPEUSDT', countdownTime: '1000' }, -1121, 'Invalid symbol.'],
    ];
    for (const [p, code, text] of cases) {
      const r = await call(p);
      expect([r.status, r.body.code], JSON.stringify([p, r.body])).toEqual([400, code]);
      expect(r.body.msg).toContain(text);
    }
    const get = await fetch(`${svc.base}/binance/fapi/v1/countdownCancelAll`);
    expect(get.status).toBe(404);
  });

  it("ccxt's implicit fapiPrivatePostCountdownCancelAll (binanceusdm has no cancelAllOrdersAfter)", async () => {
    const c = account(svc.venue, 'cdccxt', 100_000, 'one_way');
    const ex = binanceusdm(svc.base, c);
    expect(ex.has.cancelAllOrdersAfter).not.toBe(true);
    expect(await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'BTCUSDT', countdownTime: 120000 })).toEqual({
      symbol: 'BTCUSDT',
      countdownTime: '120000',
    });
    expect(await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'BTCUSDT', countdownTime: 0 })).toEqual({
      symbol: 'BTCUSDT',
      countdownTime: '0',
    });
  });

  it('a countdown armed before a stop fires after the start on the same data; a disarmed one and a later one do not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bn-countdown-'));
    try {
      let s = await startService(dir);
      const c = account(s.venue, 'cdrestart', 100_000, 'one_way');
      const d = account(s.venue, 'cddisarmed', 100_000, 'one_way');
      const btc = await restingBuy(s.base, c, 'BTCUSDT', '50000', '0.010');
      const eth = await restingBuy(s.base, c, 'ETHUSDT', '1000', '0.100');
      const kept = await restingBuy(s.base, d, 'BTCUSDT', '50000', '0.010');
      expect((await countdown(s.base, c, 'BTCUSDT', 2_500)).status).toBe(200);
      const deadline = Date.now() + 2_500;
      // a countdown far ahead: armed again after the start, it has not run out
      expect((await countdown(s.base, c, 'ETHUSDT', 600_000)).status).toBe(200);
      // armed, then ended with 0 before the stop: nothing to fire after the start
      expect((await countdown(s.base, d, 'BTCUSDT', 500)).status).toBe(200);
      expect((await countdown(s.base, d, 'BTCUSDT', 0)).status).toBe(200);
      await s.close();
      s = await startService(dir);
      try {
        expect(await within(10_000, async () => (await openIds(s.base, c, 'BTCUSDT')).length === 0)).toBe(true);
        // cancelled by the countdown, not by the start: not before its deadline
        expect(Date.now()).toBeGreaterThanOrEqual(deadline);
        const q = await signedCall(s.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: btc });
        expect(q.body.status).toBe('CANCELED');
        await sleep(300);
        expect(await openIds(s.base, c, 'ETHUSDT')).toEqual([eth]);
        expect(await openIds(s.base, d, 'BTCUSDT')).toEqual([kept]);
        // the one far ahead is armed: ended with 0 it stays ended across the next restart too
        expect((await countdown(s.base, c, 'ETHUSDT', 0)).status).toBe(200);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a deadline that passed while the service was stopped fires as soon as it starts again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bn-countdown-'));
    try {
      let s = await startService(dir);
      const c = account(s.venue, 'cddown', 100_000, 'one_way');
      await restingBuy(s.base, c, 'BTCUSDT', '50000', '0.010');
      const eth = await restingBuy(s.base, c, 'ETHUSDT', '1000', '0.100');
      expect((await countdown(s.base, c, 'BTCUSDT', 300)).status).toBe(200);
      await s.close();
      await sleep(600);
      s = await startService(dir);
      try {
        expect(await within(3_000, async () => (await openIds(s.base, c, 'BTCUSDT')).length === 0)).toBe(true);
        expect(await openIds(s.base, c, 'ETHUSDT')).toEqual([eth]);
        // fired once and gone: an order placed now stays open
        const later = await restingBuy(s.base, c, 'BTCUSDT', '50002', '0.010');
        await sleep(500);
        expect(await openIds(s.base, c, 'BTCUSDT')).toEqual([later]);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
