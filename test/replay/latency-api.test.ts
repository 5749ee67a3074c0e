// A replay's latencies over the API (docs/replay.md "Latency"): the WebSocket market streams reach a
// lockstep client L_md ms of history late (each push's E, and its trades' T, are L_md behind the
// step that delivers it; the trades delivered are the same as without latency, less the last
// L_md of history), and a REST order sent at t is answered once applied at t + L_in, the replay
// moving itself there in lockstep, while settings and account admin leave the clock. The status shows both.
import { readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RestClient } from '../../src-shared/sdk/index.ts';
import { hmacSha256Hex } from '../../src-shared/sign.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { TRX_TRADES, trxReplayData } from './harness.ts';
import { WsTestClient } from './ws-client.ts';

const FIRST_TRADE = 1744588804438;
const STEP = 100;
const KEY = 'latencybot01';
const SECRET = 'latencysecret01';
let db: DatabaseSync;
let data: ReplayData;

beforeAll(async () => {
  ({ db, data } = await trxReplayData());
});
afterAll(() => db?.close());

async function replayService(orderLatency: number, dataLatency: number, responseLatency = 0): Promise<ServiceHandle> {
  return startService({
    dataDir: ':memory:',
    rateLimit: false,
    accounts: [{ apiKey: KEY, apiSecret: SECRET, balance: 10_000n * 100_000_000n }],
    replay: {
      options: { symbols: ['TRXUSDT'], start: FIRST_TRADE, orderLatency, dataLatency, responseLatency },
      data,
      lockstep: true,
    },
  });
}

/** Steps the replay `n` times by STEP over the WebSocket; per step its end time and the market pushes that came with it. */
async function stepped(
  svc: ServiceHandle,
  n: number,
): Promise<Array<{ time: number; pushes: Array<{ stream: string; data: any }> }>> {
  const c = new WsTestClient(svc.url);
  await c.open();
  expect((await c.send('SUBSCRIBE', ['trade@TRXUSDT', 'depth_update@TRXUSDT'])).result).toBeNull();
  const out: Array<{ time: number; pushes: Array<{ stream: string; data: any }> }> = [];
  try {
    for (let i = 0; i < n; i++) {
      c.pushes = [];
      const a = await c.send('REPLAY', { action: 'step', ms: STEP });
      out.push({ time: a.result.time, pushes: c.pushes });
    }
    await c.send('REPLAY', { action: 'release' });
  } finally {
    await c.close();
  }
  return out;
}

const tradeIds = (steps: Array<{ pushes: Array<{ stream: string; data: any }> }>): number[] =>
  steps.flatMap((s) =>
    s.pushes.filter((p) => p.stream === 'trade@TRXUSDT').flatMap((p) => p.data.map((t: any) => t.t)),
  );

/** A 100 TRX limit buy (GTC, one-way open) resting at `bid`. */
const buyAtBid = (rest: RestClient, bid: string) =>
  rest.placeOrder({
    symbol: 'TRXUSDT',
    type: 1,
    side: 1,
    position_side: 1,
    position_action: 1,
    price: bid,
    qty: '100',
    time_in_force: 1,
  });

describe('market-data latency over the WebSocket (lockstep)', () => {
  it('every market push comes L_md of history after it was built; the same trades arrive, later', async () => {
    const LMD = 300;
    const direct = await replayService(0, 0);
    const late = await replayService(0, LMD);
    try {
      expect(late.venue.replay!.status()).toMatchObject({ order_latency: 0, data_latency: LMD });
      const N = 60;
      const a = await stepped(direct, N);
      const b = await stepped(late, N);
      expect(a.map((s) => s.time)).toEqual(b.map((s) => s.time));
      // without latency: built and sent at the step's end
      for (const s of a) for (const p of s.pushes) expect(p.data.E ?? p.data[0].E).toBe(s.time);
      // with it: built L_md earlier (at the end of the step L_md / STEP before), and nothing before that
      let pushes = 0;
      for (const s of b) {
        for (const p of s.pushes) {
          const E = p.data.E ?? p.data[0].E;
          expect(E).toBe(s.time - LMD);
          if (p.stream === 'trade@TRXUSDT') for (const t of p.data) expect(t.T).toBeLessThanOrEqual(s.time - LMD);
          pushes++;
        }
      }
      expect(b.slice(0, LMD / STEP).every((s) => s.pushes.length === 0)).toBe(true);
      expect(pushes).toBeGreaterThan(10);
      // the same prints, less those of the last L_md of history (still on their way)
      const ids = tradeIds(a);
      const cut = a.length - LMD / STEP;
      expect(ids.length).toBeGreaterThan(5);
      expect(tradeIds(b)).toEqual(tradeIds(a.slice(0, cut)));
      // REST reads are the venue now: the book's update id is the same with and without the latency
      const depth = async (s: ServiceHandle) =>
        ((await (await fetch(`${s.url}/fapi/v1/depth?symbol=TRXUSDT&limit=5`)).json()) as any).data;
      expect(await depth(late)).toEqual(await depth(direct));
    } finally {
      await direct.close();
      await late.close();
    }
  }, 60_000);
});

describe("market-data latency on the Binance facade's streams", () => {
  it('a trade event arrives once market time reaches its time + L_md, not before', async () => {
    const LMD = 2_000;
    const svc = await replayService(0, LMD);
    const ws = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/stream?streams=trxusdt@trade`);
    const got: Array<{ T: number; at: number }> = [];
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.data?.e === 'trade') got.push({ T: m.data.T, at: svc.venue.replay!.status().time });
    });
    try {
      await new Promise((r) => ws.once('open', r));
      const post = (body: unknown) =>
        fetch(`${svc.url}/api/v1/replay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const wall = () => new Promise((r) => setTimeout(r, 350));
      // 10 s of history, one second a step, each step given three of the facade's 100 ms ticks
      for (let i = 0; i < 10; i++) {
        await post({ action: 'step', ms: 1_000 });
        await wall();
      }
      await wall();
      expect(got.length).toBeGreaterThan(0);
      for (const g of got) expect(g.at).toBeGreaterThanOrEqual(g.T + LMD);
      // and what is due did arrive: the recorded trades up to now - L_md, every one
      const now = svc.venue.replay!.status().time;
      const due = readFileSync(TRX_TRADES, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => Number(l.split(',')[4])) // TransactionTime, the time the trade is imported with
        .filter((t) => t >= FIRST_TRADE && t <= now - LMD);
      expect(due.length).toBeGreaterThan(0);
      expect(got.map((g) => g.T)).toEqual(due);
    } finally {
      ws.close();
      await svc.close();
    }
  }, 60_000);
});

describe('order entry latency over REST (lockstep)', () => {
  it('the answer comes once the order was applied at t + L_in; the replay moved itself there', async () => {
    const LIN = 250;
    const svc = await replayService(LIN, 0);
    try {
      const rest = new RestClient({ baseUrl: svc.url, apiKey: KEY, apiSecret: SECRET, recvWindow: 60_000 });
      const t0 = svc.venue.replay!.status().time;
      const book = await rest.depth('TRXUSDT', 5);
      const bid = book.bids[0][0];
      const r = await buyAtBid(rest, bid);
      expect(svc.venue.replay!.status().time).toBe(t0 + LIN);
      const o = (await rest.openOrders('TRXUSDT')).find((x) => x.id === r.order_id)!;
      expect(o.created_at).toBe(t0 + LIN);
      // a cancel takes the same flight
      await rest.cancelAllOrders('TRXUSDT');
      expect(svc.venue.replay!.status().time).toBe(t0 + 2 * LIN);
      expect(await rest.openOrders('TRXUSDT')).toEqual([]);
      // the Binance facade's order route too: its updateTime is when the engine applied it
      const q = `symbol=TRXUSDT&side=BUY&type=LIMIT&quantity=100&price=${bid}&timeInForce=GTC&positionSide=LONG&timestamp=${Date.now()}&recvWindow=60000`;
      const res = await fetch(`${svc.url}/binance/fapi/v1/order?${q}&signature=${hmacSha256Hex(SECRET, q)}`, {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': KEY },
      });
      const body = (await res.json()) as { updateTime: number; status: string };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ status: 'NEW', updateTime: t0 + 3 * LIN });
      expect(svc.venue.replay!.status().time).toBe(t0 + 3 * LIN);
    } finally {
      await svc.close();
    }
  }, 60_000);
});

describe('settings and account admin are not delayed (lockstep)', () => {
  it('an account made over the admin API, leverage, margin type and position mode leave the clock; an order still flies', async () => {
    const LIN = 250;
    const LOUT = 100;
    const svc = await replayService(LIN, 0, LOUT);
    const binance = async (route: string, params: string, key: string, secret: string) => {
      const q = `${params}&timestamp=${Date.now()}&recvWindow=60000`;
      const res = await fetch(`${svc.url}/binance${route}?${q}&signature=${hmacSha256Hex(secret, q)}`, {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': key },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    try {
      const t0 = svc.venue.replay!.status().time;
      const made = await fetch(`${svc.url}/admin/v1/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          api_key: 'settingsbot01',
          api_secret: 'settingssecret01',
          balance: '5000',
          position_mode: 'one_way',
        }),
      });
      expect(made.status, await made.clone().text()).toBe(200);
      expect(svc.venue.replay!.status().time).toBe(t0);
      const rest = new RestClient({
        baseUrl: svc.url,
        apiKey: 'settingsbot01',
        apiSecret: 'settingssecret01',
        recvWindow: 60_000,
      });
      expect((await rest.setLeverage('TRXUSDT', 5)).leverage).toBe(5);
      await rest.setMarginMode('TRXUSDT', 1);
      await rest.setPositionMode('hedge');
      await binance('/fapi/v1/leverage', 'symbol=TRXUSDT&leverage=7', 'settingsbot01', 'settingssecret01');
      await binance('/fapi/v1/marginType', 'symbol=TRXUSDT&marginType=CROSSED', 'settingsbot01', 'settingssecret01');
      await binance('/fapi/v1/positionSide/dual', 'dualSidePosition=false', 'settingsbot01', 'settingssecret01');
      expect(svc.venue.replay!.status().time).toBe(t0);
      expect(await rest.leverage('TRXUSDT')).toMatchObject({ leverage: 7 });
      // an order takes its flight and its answer's
      const bid = (await rest.depth('TRXUSDT', 5)).bids[0][0];
      await buyAtBid(rest, bid);
      expect(svc.venue.replay!.status().time).toBe(t0 + LIN + LOUT);
    } finally {
      await svc.close();
    }
  }, 60_000);
});

describe("order entry latency on the Binance facade's batch and modify routes (lockstep)", () => {
  it('each batch order, each batch cancel and a modify takes its own flight, one after the other', async () => {
    const LIN = 200;
    const svc = await replayService(LIN, 0);
    const signed = async (method: string, route: string, params: string): Promise<{ status: number; body: any }> => {
      const q = `${params}&timestamp=${Date.now()}&recvWindow=60000`;
      const res = await fetch(`${svc.url}/binance${route}?${q}&signature=${hmacSha256Hex(SECRET, q)}`, {
        method,
        headers: { 'X-MBX-APIKEY': KEY },
      });
      return { status: res.status, body: await res.json() };
    };
    try {
      const rest = new RestClient({ baseUrl: svc.url, apiKey: KEY, apiSecret: SECRET, recvWindow: 60_000 });
      const t0 = svc.venue.replay!.status().time;
      const bid = Number((await rest.depth('TRXUSDT', 5)).bids[0][0]);
      const prices = [bid - 0.001, bid - 0.002].map((p) => p.toFixed(5));
      const batch = JSON.stringify(
        prices.map((price) => ({
          symbol: 'TRXUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '100',
          price,
          timeInForce: 'GTC',
          positionSide: 'LONG',
        })),
      );
      const placed = await signed('POST', '/fapi/v1/batchOrders', `batchOrders=${encodeURIComponent(batch)}`);
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      // two orders, two flights: the second was applied L_in after the first
      expect(placed.body.map((o: any) => o.updateTime)).toEqual([t0 + LIN, t0 + 2 * LIN]);
      expect(svc.venue.replay!.status().time).toBe(t0 + 2 * LIN);

      const modified = await signed(
        'PUT',
        '/fapi/v1/order',
        `symbol=TRXUSDT&orderId=${placed.body[0].orderId}&side=BUY&quantity=150&price=${prices[0]}`,
      );
      expect(modified.status, JSON.stringify(modified.body)).toBe(200);
      expect(modified.body).toMatchObject({ origQty: '150', updateTime: t0 + 3 * LIN });
      expect(svc.venue.replay!.status().time).toBe(t0 + 3 * LIN);

      const ids = JSON.stringify(placed.body.map((o: any) => o.orderId));
      const cancelled = await signed(
        'DELETE',
        '/fapi/v1/batchOrders',
        `symbol=TRXUSDT&orderIdList=${encodeURIComponent(ids)}`,
      );
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body.map((o: any) => o.status)).toEqual(['CANCELED', 'CANCELED']);
      expect(svc.venue.replay!.status().time).toBe(t0 + 5 * LIN);
      expect(await rest.openOrders('TRXUSDT')).toEqual([]);
    } finally {
      await svc.close();
    }
  }, 60_000);
});

describe('response latency (lockstep)', () => {
  it('the REST answer comes at t + L_in + L_out; a fill from history reaches the user stream L_out after it', async () => {
    const LIN = 100;
    const LOUT = 300;
    const svc = await replayService(LIN, 0, LOUT);
    const c = new WsTestClient(svc.url);
    try {
      await c.open();
      const rest = new RestClient({ baseUrl: svc.url, apiKey: KEY, apiSecret: SECRET, recvWindow: 60_000 });
      const ts = Date.now();
      const login = await c.send('LOGIN', {
        api_key: KEY,
        timestamp: ts,
        signature: hmacSha256Hex(SECRET, `api_key=${KEY}&timestamp=${ts}`),
      });
      expect(login.result).toMatchObject({ user_id: expect.any(Number) });
      expect((await c.send('SUBSCRIBE', ['user'])).result).toBeNull();
      const t0 = svc.venue.replay!.status().time;
      const bid = (await rest.depth('TRXUSDT', 5)).bids[0][0];
      const r = await buyAtBid(rest, bid);
      expect(svc.venue.replay!.status().time).toBe(t0 + LIN + LOUT);
      expect((await rest.openOrders('TRXUSDT')).find((x) => x.id === r.order_id)!.created_at).toBe(t0 + LIN);
      // step until history fills the bid; each step's answer comes after the user pushes it released
      let prev = svc.venue.replay!.status().time;
      let fill: { time: number; released: number; prev: number } | null = null;
      for (let i = 0; i < 300 && fill === null; i++) {
        c.pushes = [];
        const a = await c.send('REPLAY', { action: 'step', ms: 100 });
        const f = c.pushes.find((p) => p.stream === 'user' && p.data.kind === 'fill');
        if (f) fill = { time: f.data.data.created_at, released: a.result.time, prev };
        prev = a.result.time;
      }
      expect(fill).not.toBeNull();
      // released at the first step that reached the fill's time + L_out
      expect(fill!.released).toBeGreaterThanOrEqual(fill!.time + LOUT);
      expect(fill!.prev).toBeLessThan(fill!.time + LOUT);
      await c.send('REPLAY', { action: 'release' });
    } finally {
      await c.close();
      await svc.close();
    }
  }, 60_000);
});

describe("response latency on the Binance facade's user stream", () => {
  it('a history fill of a resting order reaches the user stream no earlier than L_out after it', async () => {
    const LOUT = 400;
    const svc = await replayService(0, 0, LOUT);
    const { listenKey } = (await (
      await fetch(`${svc.url}/binance/fapi/v1/listenKey`, { method: 'POST', headers: { 'X-MBX-APIKEY': KEY } })
    ).json()) as { listenKey: string };
    const ws = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/ws/${listenKey}`);
    const got: Array<{ x: string; at: number }> = [];
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.e === 'ORDER_TRADE_UPDATE') got.push({ x: m.o.x, at: svc.venue.replay!.status().time });
    });
    try {
      await new Promise((r) => ws.once('open', r));
      const rest = new RestClient({ baseUrl: svc.url, apiKey: KEY, apiSecret: SECRET, recvWindow: 60_000 });
      const t0 = svc.venue.replay!.status().time;
      const bid = (await rest.depth('TRXUSDT', 5)).bids[0][0];
      await buyAtBid(rest, bid);
      // the answer came at t0 + L_out (the replay moved itself there); the NEW event is due then too
      expect(svc.venue.replay!.status().time).toBe(t0 + LOUT);
      const post = (body: unknown) =>
        fetch(`${svc.url}/api/v1/replay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      for (let i = 0; i < 100 && !got.some((g) => g.x === 'TRADE'); i++) {
        await post({ action: 'step', ms: 100 });
        await new Promise((r) => setTimeout(r, 120));
      }
      const trade = got.find((g) => g.x === 'TRADE');
      expect(trade).toBeDefined();
      // the first fill (newest first: the last item)
      const fills = (await rest.myTrades({ symbol: 'TRXUSDT' })).items;
      expect(fills.length).toBeGreaterThan(0);
      expect(trade!.at).toBeGreaterThanOrEqual(fills[fills.length - 1].created_at + LOUT);
      expect(got[0]).toMatchObject({ x: 'NEW' });
      expect(got[0].at).toBeGreaterThanOrEqual(t0 + LOUT);
    } finally {
      ws.close();
      await svc.close();
    }
  }, 60_000);
});
