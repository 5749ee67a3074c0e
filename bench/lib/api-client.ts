// The load-generating side of bench/api.bench.ts, run in a forked child: autocannon with a
// per-request builder (fresh signature, unique client_order_id, alternating sides) and a
// response check that counts envelope codes and order statuses.
//
// The request sequence comes from one counter per process, so across the 50 connections the
// two sides stay balanced to within the requests in flight (the book stays bounded).
// Latencies are taken from autocannon's 'response' event (float ms); its own histogram rounds
// to whole ms.
// @ts-expect-error autocannon 9 ships no type declarations (no @types/autocannon installed)
import autocannonUntyped from 'autocannon';
import { buildSignedQuery, hmacSha256Hex } from '../../src-shared/sign.ts';
import { quantileSorted } from './stats.ts';

export type ClientJob = {
  url: string;
  connections: number;
  seconds: number;
  warmup: number;
  /** Fixed total request rate (req/s) instead of as fast as possible: for A/B CPU comparisons. */
  rate?: number;
} & (
  | { kind: 'hello' }
  | { kind: 'signed'; symbol: string; accounts: Array<{ apiKey: string; apiSecret: string }>; priceTicks: number }
  /** The same orders through the Binance facade: POST /binance/fapi/v1/order, form body, Binance signing. */
  | { kind: 'binance'; symbol: string; accounts: Array<{ apiKey: string; apiSecret: string }>; priceTicks: number }
  | { kind: 'bot'; symbol: string; askTicks: number; bidTicks: number }
);

export interface ClientResult {
  /** Responses per second over the measured run. */
  rps: number;
  responses: number;
  /** Client-side latency, ms. */
  lat: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx answers whose envelope code is not 0 (or that are not an envelope). */
  envelopeErrors: number;
  firstErrors: string[];
  /** Order status -> count (placements only). */
  statuses: Record<string, number>;
  clientCpuPct: number;
}

interface RequestData {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface AutocannonResult {
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface AutocannonInstance {
  on(ev: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  requests?: Array<{
    method?: string;
    path?: string;
    setupRequest?: (req: RequestData, ctx: unknown) => RequestData;
    onResponse?: (status: number, body: string) => void;
  }>;
}

const autocannon = autocannonUntyped as (
  opts: AutocannonOptions,
  cb: (err: Error | null, r: AutocannonResult) => void,
) => AutocannonInstance;

const QTYS = ['0.002', '0.003', '0.005'];
const BINANCE_STATUS: Record<string, string> = {
  NEW: '1',
  PARTIALLY_FILLED: '2',
  FILLED: '3',
  CANCELED: '4',
  REJECTED: '5',
  EXPIRED: '6',
};
/** Ticks of 0.1 to the price text ("960001" -> "96000.1"). */
const price = (ticks: number): string => `${Math.floor(ticks / 10)}.${ticks % 10}`;

function requestsFor(job: ClientJob, tally: (status: number, body: string) => void): AutocannonOptions['requests'] {
  if (job.kind === 'hello') return [{ method: 'GET', path: '/', onResponse: tally }];
  let n = 0;
  const tag = process.pid.toString(36);
  if (job.kind === 'signed') {
    const { symbol, accounts, priceTicks } = job;
    return [
      {
        setupRequest(req) {
          const i = n++;
          const k = i >> 1;
          const buy = (i & 1) === 0;
          const acct = accounts[buy ? 0 : 1];
          const off = k & 3;
          const body = JSON.stringify({
            symbol,
            side: buy ? 1 : 2,
            position_side: buy ? 1 : 2,
            position_action: 1,
            type: 1,
            price: price(buy ? priceTicks + off : priceTicks - off),
            qty: QTYS[k % 3],
            time_in_force: 1,
            client_order_id: `b${tag}-${i}`,
          });
          const q = buildSignedQuery({ timestamp: Date.now(), recv_window: 5000 }, acct.apiSecret, body);
          req.method = 'POST';
          req.path = `/fapi/v1/orders?${q}`;
          req.headers = { 'content-type': 'application/json', 'x-api-key': acct.apiKey };
          req.body = body;
          return req;
        },
        onResponse: tally,
      },
    ];
  }
  if (job.kind === 'binance') {
    const { symbol, accounts, priceTicks } = job;
    return [
      {
        setupRequest(req) {
          const i = n++;
          const k = i >> 1;
          const buy = (i & 1) === 0;
          const acct = accounts[buy ? 0 : 1];
          const off = k & 3;
          // what ccxt sends for createOrder(symbol, 'limit', side, qty, price, {positionSide}) on a hedge account
          const params =
            `symbol=${symbol}&side=${buy ? 'BUY' : 'SELL'}&type=LIMIT&quantity=${QTYS[k % 3]}` +
            `&price=${price(buy ? priceTicks + off : priceTicks - off)}&timeInForce=GTC&positionSide=${buy ? 'LONG' : 'SHORT'}` +
            `&newClientOrderId=x${tag}-${i}&newOrderRespType=RESULT&timestamp=${Date.now()}&recvWindow=5000`;
          req.method = 'POST';
          req.path = '/binance/fapi/v1/order';
          req.headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-mbx-apikey': acct.apiKey };
          req.body = `${params}&signature=${hmacSha256Hex(acct.apiSecret, params)}`;
          return req;
        },
        onResponse: tally,
      },
    ];
  }
  const { symbol, askTicks, bidTicks } = job;
  return [
    {
      setupRequest(req) {
        const i = n++;
        const k = i >> 1;
        const buy = (i & 1) === 0;
        const off = k & 3;
        req.method = 'POST';
        req.path = '/fapi/v1/bot/orders';
        req.headers = { 'content-type': 'application/json' };
        req.body = JSON.stringify({
          symbol,
          side: buy ? 1 : 2,
          position_side: buy ? 1 : 2,
          position_action: 1,
          type: 1,
          price: price(buy ? askTicks + off : bidTicks - off),
          qty: QTYS[k % 3],
        });
        return req;
      },
      onResponse: tally,
    },
  ];
}

function run(
  job: ClientJob,
  seconds: number,
  onLatency: ((ms: number) => void) | null,
  tally: (status: number, body: string) => void,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: seconds,
        overallRate: job.rate,
        requests: requestsFor(job, tally),
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    if (onLatency) inst.on('response', (_c, _s, _b, ms) => onLatency(ms));
  });
}

/** Warm-up, then the measured run (`onMeasuring` fires as it starts). */
export async function runClient(job: ClientJob, onMeasuring: () => void): Promise<ClientResult> {
  const ignore = (): void => {};
  if (job.warmup > 0) await run(job, job.warmup, null, ignore);

  let lat = new Float64Array(1 << 18);
  let count = 0;
  const onLatency = (ms: number): void => {
    if (count === lat.length) {
      const next = new Float64Array(lat.length * 2);
      next.set(lat);
      lat = next;
    }
    lat[count++] = ms;
  };
  let envelopeErrors = 0;
  const firstErrors: string[] = [];
  const statuses: Record<string, number> = {};
  const placement = job.kind !== 'hello';
  const tally = (status: number, body: string): void => {
    if (status < 200 || status > 299) {
      if (firstErrors.length < 3) firstErrors.push(`${status} ${body.slice(0, 200)}`);
      return;
    }
    if (!placement) return;
    if (job.kind === 'binance') {
      // {"orderId":1,"symbol":"BTCUSDT","status":"NEW",...}; an error is {"code":-NNNN,"msg":...}
      const m = /^\{"orderId":\d+,"symbol":"[A-Z0-9]+","status":"([A-Z_]+)"/.exec(body);
      if (m === null) {
        envelopeErrors++;
        if (firstErrors.length < 3) firstErrors.push(`${status} ${body.slice(0, 200)}`);
        return;
      }
      const st = BINANCE_STATUS[m[1]] ?? '?';
      statuses[st] = (statuses[st] ?? 0) + 1;
      return;
    }
    // {"code":0,"message":"success","data":{"order_id":"1","client_order_id":"x","status":3,...}}
    if (!body.startsWith('{"code":0,')) {
      envelopeErrors++;
      if (firstErrors.length < 3) firstErrors.push(`${status} ${body.slice(0, 200)}`);
      return;
    }
    const at = body.indexOf('"status":');
    const st = at < 0 ? '?' : body.charAt(at + 9);
    statuses[st] = (statuses[st] ?? 0) + 1;
  };

  onMeasuring();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run(job, job.seconds, onLatency, tally);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sorted = lat.slice(0, count).sort();
  return {
    rps: count / job.seconds,
    responses: count,
    lat: {
      p50: quantileSorted(sorted, 0.5),
      p90: quantileSorted(sorted, 0.9),
      p99: quantileSorted(sorted, 0.99),
      max: sorted[count - 1] ?? NaN,
    },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    envelopeErrors,
    firstErrors,
    statuses,
    clientCpuPct: (cpu.user + cpu.system) / 10 / wall,
  };
}
