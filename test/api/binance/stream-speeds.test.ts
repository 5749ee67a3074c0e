// The facade's market streams at their update speeds (reference d.1, as Binance): over a bounded
// window of real time with the book changing every 20 ms, `@depth@100ms` pushes about every
// 100 ms, `@depth` every 250 ms and `@depth@500ms` every 500 ms, each event merging its interval's
// changes so that every stream's pu is the u of its previous event; `@markPrice@1s` every second
// and `@markPrice` every third. Counts have wide bounds (a loaded host delays timers, never
// hurries them); the upper ones are what a stream at the fastest speed would exceed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLimit, tradeAtMark } from '../../helpers/exchange-commands.ts';
import { TestClient } from '../ws/ws-test-client.ts';
import { account, startService, type Service } from './helpers.ts';

let svc: Service;
const url = () => `${svc.base.replace(/^http/, 'ws')}/binance`;

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc?.close());

const STREAMS = ['@depth@100ms', '@depth', '@depth@500ms', '@markPrice@1s', '@markPrice'].map((s) => `btcusdt${s}`);

describe('stream update speeds', () => {
  it('depth at 100 / 250 / 500 ms and mark price at 1 s / 3 s, each depth stream continuous', async () => {
    const mm = account(svc.venue, 'speedmm');
    const mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
    const c = await TestClient.open(`${url()}/stream?streams=${STREAMS.join('/')}`);
    let i = 0;
    const changing = setInterval(() => {
      const side = i % 2 === 0 ? 1 : 2;
      const price = (side === 1 ? mid - 100 - (i % 40) : mid + 100 + (i % 40)).toFixed(1);
      openLimit(svc.venue.exchange, mm.id, { side, price, qty: '0.002' });
      i++;
    }, 20);
    const from = c.messages.length;
    await new Promise((r) => setTimeout(r, 3_000));
    clearInterval(changing);
    const got = c.messages.slice(from);
    c.ws.close();
    const of = (name: string) => got.filter((m) => m.stream === name).map((m) => m.data);
    const count = Object.fromEntries(STREAMS.map((s) => [s, of(s).length]));
    // 30, 12, 6, 3 and 1 or 2 on an idle host
    expect(count['btcusdt@depth@100ms'], JSON.stringify(count)).toBeGreaterThanOrEqual(12);
    expect(count['btcusdt@depth'], JSON.stringify(count)).toBeGreaterThanOrEqual(5);
    expect(count['btcusdt@depth'], JSON.stringify(count)).toBeLessThanOrEqual(13);
    expect(count['btcusdt@depth@500ms'], JSON.stringify(count)).toBeGreaterThanOrEqual(2);
    expect(count['btcusdt@depth@500ms'], JSON.stringify(count)).toBeLessThanOrEqual(7);
    expect(count['btcusdt@markPrice@1s'], JSON.stringify(count)).toBeGreaterThanOrEqual(1);
    expect(count['btcusdt@markPrice@1s'], JSON.stringify(count)).toBeLessThanOrEqual(4);
    expect(count['btcusdt@markPrice'], JSON.stringify(count)).toBeLessThanOrEqual(2);
    expect(count['btcusdt@depth@100ms']).toBeGreaterThan(count['btcusdt@depth']);
    expect(count['btcusdt@depth']).toBeGreaterThan(count['btcusdt@depth@500ms']);
    // each stream's own chain: pu is the u of its previous event, U = pu + 1; a slower stream's
    // event spans the changes of several faster ones
    for (const s of ['btcusdt@depth@100ms', 'btcusdt@depth', 'btcusdt@depth@500ms']) {
      const ev = of(s);
      for (let k = 1; k < ev.length; k++) {
        expect(ev[k].pu, s).toBe(ev[k - 1].u);
        expect(ev[k].U, s).toBe(ev[k].pu + 1);
      }
    }
    const span = (s: string) => of(s).reduce((n, e) => n + (e.u - e.pu), 0) / of(s).length;
    expect(span('btcusdt@depth@500ms')).toBeGreaterThan(2 * span('btcusdt@depth@100ms'));
  });

  it("tickers at Binance USD-M's speeds: a pair's @ticker / @miniTicker every 2 s, the arrays every second with only the pairs that changed", async () => {
    const names = ['btcusdt@ticker', 'btcusdt@miniTicker', '!ticker@arr', '!miniTicker@arr'];
    const c = await TestClient.open(`${url()}/stream?streams=${names.join('/')}`);
    const trading = setInterval(() => tradeAtMark(svc.venue.exchange), 200);
    const from = c.messages.length;
    await new Promise((r) => setTimeout(r, 4_200));
    clearInterval(trading);
    const got = c.messages.slice(from);
    c.ws.close();
    const of = (name: string) => got.filter((m) => m.stream === name).map((m) => m.data);
    const count = Object.fromEntries(names.map((s) => [s, of(s).length]));
    // 2, 2, 4, 4 on an idle host; at 1 s the pair's streams would send 4 or 5
    for (const s of ['btcusdt@ticker', 'btcusdt@miniTicker']) {
      expect(count[s], JSON.stringify(count)).toBeGreaterThanOrEqual(1);
      expect(count[s], JSON.stringify(count)).toBeLessThanOrEqual(3);
    }
    for (const s of ['!ticker@arr', '!miniTicker@arr']) {
      expect(count[s], JSON.stringify(count)).toBeGreaterThanOrEqual(2);
      expect(count[s], JSON.stringify(count)).toBeLessThanOrEqual(5);
      // BTCUSDT trades all along, so it is in every event; a pair is in an event only when some
      // figure of its ticker differs from the one the stream sent last
      const events = of(s) as Record<string, unknown>[][];
      const last = new Map<string, string>();
      for (const ev of events) {
        expect(ev.map((t) => t.s)).toContain('BTCUSDT');
        for (const t of ev) {
          const key = JSON.stringify([t.c, t.o, t.h, t.l, t.v, t.q, t.n]);
          expect(last.get(t.s as string), `${s} ${String(t.s)} sent unchanged`).not.toBe(key);
          last.set(t.s as string, key);
        }
      }
    }
  });

  it('@depth@250ms is no Binance stream: refused', async () => {
    const c = await TestClient.open(`${url()}/ws`);
    expect(await c.request('SUBSCRIBE', ['btcusdt@depth@250ms'], 7)).toEqual({
      error: { code: 2, msg: 'Invalid request: unknown stream "btcusdt@depth@250ms"' },
      id: 7,
    });
    c.ws.close();
  });
});
