// A replay's latencies at its end (docs/replay.md "Latency"): what is due after `until` comes at
// `until`. A finished replay's market time stays at `until`, so the latency gates of both hubs
// (api/ws/latency-gate.ts) must release there what an order sent after the end produced, and the
// last L_md of history's market events, on the native /ws and on the Binance facade's streams.
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
const KEY = 'latencyend01';
const SECRET = 'latencyendsecret01';
let db: DatabaseSync;
let data: ReplayData;

beforeAll(async () => {
  ({ db, data } = await trxReplayData());
});
afterAll(() => db?.close());

function replayService(o: { orderLatency?: number; dataLatency?: number; responseLatency?: number }) {
  return startService({
    dataDir: ':memory:',
    rateLimit: false,
    accounts: [{ apiKey: KEY, apiSecret: SECRET, balance: 10_000n * 100_000_000n }],
    replay: {
      options: {
        symbols: ['TRXUSDT'],
        start: FIRST_TRADE,
        orderLatency: o.orderLatency ?? 0,
        dataLatency: o.dataLatency ?? 0,
        responseLatency: o.responseLatency ?? 0,
      },
      data,
      lockstep: true,
    },
  });
}

const control = (svc: ServiceHandle, body: unknown) =>
  fetch(`${svc.url}/api/v1/replay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Resolves once `ok()` holds (checked every 20 ms); rejects with `what` after 5 s of wall time. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never came: ${what}`);
}

async function binanceOrder(svc: ServiceHandle, params: string): Promise<any> {
  const q = `${params}&timestamp=${Date.now()}&recvWindow=60000`;
  const res = await fetch(`${svc.url}/binance/fapi/v1/order?${q}&signature=${hmacSha256Hex(SECRET, q)}`, {
    method: 'POST',
    headers: { 'X-MBX-APIKEY': KEY },
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The recorded trades' times from FIRST_TRADE on (TransactionTime, the time they are imported with). */
const recordedTrades = (): number[] =>
  readFileSync(TRX_TRADES, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[4]))
    .filter((t) => t >= FIRST_TRADE);

describe('response latency on a finished replay', () => {
  it('an order sent after the end reaches the Binance user stream and the native user stream at the end', async () => {
    const svc = await replayService({ orderLatency: 50, responseLatency: 20 });
    const { listenKey } = (await (
      await fetch(`${svc.url}/binance/fapi/v1/listenKey`, { method: 'POST', headers: { 'X-MBX-APIKEY': KEY } })
    ).json()) as { listenKey: string };
    const bn = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/ws/${listenKey}`);
    const bnGot: any[] = [];
    bn.on('message', (raw) => bnGot.push(JSON.parse(String(raw))));
    const native = new WsTestClient(svc.url);
    try {
      await new Promise((r) => bn.once('open', r));
      await native.open();
      const ts = Date.now();
      const login = await native.send('LOGIN', {
        api_key: KEY,
        timestamp: ts,
        signature: hmacSha256Hex(SECRET, `api_key=${KEY}&timestamp=${ts}`),
      });
      expect(login.result).toMatchObject({ user_id: expect.any(Number) });
      expect((await native.send('SUBSCRIBE', ['user'])).result).toBeNull();
      const end = svc.venue.replay!.status().until;
      expect((await control(svc, { action: 'seek', time: end })).status).toBe(200);
      expect(svc.venue.replay!.status()).toMatchObject({ finished: true, time: end });

      const rest = new RestClient({ baseUrl: svc.url, apiKey: KEY, apiSecret: SECRET, recvWindow: 60_000 });
      const bid = Number((await rest.depth('TRXUSDT', 5)).bids[0][0]) - 0.001;
      const resting = await binanceOrder(
        svc,
        `symbol=TRXUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=100&price=${bid.toFixed(5)}&positionSide=LONG`,
      );
      expect(resting).toMatchObject({ status: 'NEW', updateTime: end });
      const taken = await binanceOrder(svc, 'symbol=TRXUSDT&side=BUY&type=MARKET&quantity=100&positionSide=LONG');
      expect(svc.venue.replay!.status().time).toBe(end);

      const updates = () => bnGot.filter((m) => m.e === 'ORDER_TRADE_UPDATE');
      await until(
        () => updates().some((m) => m.o.i === resting.orderId && m.o.x === 'NEW'),
        'NEW of the resting order',
      );
      await until(
        () => updates().some((m) => m.o.i === taken.orderId && m.o.x === 'TRADE'),
        'TRADE of the market order',
      );
      await until(() => bnGot.some((m) => m.e === 'ACCOUNT_UPDATE'), 'ACCOUNT_UPDATE');
      for (const m of bnGot) expect(m.E).toBe(end);
      // the native user stream: the resting order, and the market order's fill
      const user = () => native.pushes.filter((p) => p.stream === 'user');
      await until(() => user().some((p) => p.data.kind === 'fill'), 'the native fill push');
      expect(user().some((p) => p.data.kind === 'order' && p.data.data.id === String(resting.orderId))).toBe(true);
    } finally {
      bn.close();
      await native.close();
      await svc.close();
    }
  }, 60_000);
});

describe('market-data latency at the end of the history', () => {
  it('the trades of the last L_md come at the end, on the Binance @trade stream and the native trade stream', async () => {
    const LMD = 2_000;
    const svc = await replayService({ dataLatency: LMD });
    const bn = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/ws/trxusdt@trade`);
    const bnTrades: number[] = [];
    bn.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.e === 'trade') bnTrades.push(m.T);
    });
    const native = new WsTestClient(svc.url);
    try {
      await new Promise((r) => bn.once('open', r));
      await native.open();
      expect((await native.send('SUBSCRIBE', ['trade@TRXUSDT'])).result).toBeNull();
      const end = svc.venue.replay!.status().until;
      // to the end a second at a time; the native client's step answers come after what its step released
      for (let t = svc.venue.replay!.status().time; t < end; t = svc.venue.replay!.status().time) {
        const a = await native.send('REPLAY', { action: 'step', ms: 1_000 });
        expect(a.error).toBeUndefined();
      }
      expect(svc.venue.replay!.status().finished).toBe(true);
      const due = recordedTrades();
      // the recording's last trades are less than L_md before its end: they are the ones that must come at the end
      expect(due.filter((t) => t > end - LMD).length).toBeGreaterThan(0);
      const nativeTrades = () =>
        native.pushes.filter((p) => p.stream === 'trade@TRXUSDT').flatMap((p) => p.data.map((x: any) => x.T));
      await until(() => nativeTrades().length >= due.length, `all ${due.length} trades on the native stream`);
      expect(nativeTrades()).toEqual(due);
      await until(() => bnTrades.length >= due.length, `all ${due.length} trades on @trade`);
      expect(bnTrades).toEqual(due);
      await native.send('REPLAY', { action: 'release' });
    } finally {
      bn.close();
      await native.close();
      await svc.close();
    }
  }, 60_000);
});
