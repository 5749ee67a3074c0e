// The load-generating side of bench/api.bench.ts, run in a forked child: autocannon with the
// run's requests built before it starts (signed each with a unique client_order_id, alternating
// sides) and a response check that counts envelope codes and order statuses. The client shares
// the machine's cores with the server, so its own work per request is kept the same for every
// route (an array read; see buildPool) and printed beside the server's.
//
// The request sequence comes from one counter per process, so across the 50 connections the
// two sides stay balanced to within the requests in flight (the book stays bounded).
// Latencies are taken from autocannon's 'response' event (float ms); its own histogram rounds
// to whole ms.
import { connect, type Socket } from 'node:net';
// @ts-expect-error autocannon 9 ships no type declarations (no @types/autocannon installed)
import autocannonUntyped from 'autocannon';
import { buildSignedQuery, hmacSha256Hex } from '../../src-shared/sign.ts';
import { quantileSorted } from './stats.ts';
import type { Timeline } from './tail.ts';

export type ClientJob = {
  url: string;
  connections: number;
  seconds: number;
  warmup: number;
  /**
   * An open loop at this total rate (req/s) instead of a closed loop as fast as possible: request i
   * is due at start + i / rate and timed from then (runPaced), whatever the connections are doing.
   */
  rate?: number;
  /**
   * Closed loop: req/s the measured run's pool of prebuilt requests is sized for (the bench passes
   * 1.5x the fastest signed or Binance run so far; POOL_RATE when absent).
   */
  poolRate?: number;
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
  /** The client's own CPU per response over the measured run, µs (the same work for every route: see buildPool). */
  clientCpuPerReq: number;
  /** Requests of the measured run built as they went (the pool ran out or went stale): client work the other routes' runs did not do. */
  builtLate: number;
  /** The open loop's requests: due (wall clock, ms) and latency (bench/lib/tail.ts). */
  timeline?: Timeline;
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
/** recv_window of the signed requests, ms: the largest the venue takes (they are signed before the run). */
const RECV_WINDOW = 60_000;
/** How long after signing a pooled request is still sent, ms (the window less a margin). */
const POOL_FRESH_MS = RECV_WINDOW - 10_000;
/**
 * Requests per second the measured run's pool is sized for when the job gives no `poolRate`:
 * more than any signed route answered on the hosts measured so far (34,000 on a 2-core host in
 * December 2026; a run past the pool signs the rest as it goes, taking CPU from the service). The
 * pool is bytes outside the JS heap (packedPool), so its size costs the client no collections.
 */
const POOL_RATE = 40_000;
/** Ticks of 0.1 to the price text ("960001" -> "96000.1"). */
const price = (ticks: number): string => `${Math.floor(ticks / 10)}.${ticks % 10}`;

const HEADERS = new Map<string, Record<string, string>>();

/** The headers of a kind's requests (one object per key and kind, shared by the pool). */
function headersOf(apiKey: string, kind: 'signed' | 'binance' | 'bot'): Record<string, string> {
  const id = `${kind} ${apiKey}`;
  let h = HEADERS.get(id);
  if (h === undefined) {
    h =
      kind === 'signed'
        ? { 'content-type': 'application/json', 'x-api-key': apiKey }
        : kind === 'binance'
          ? { 'content-type': 'application/x-www-form-urlencoded', 'x-mbx-apikey': apiKey }
          : { 'content-type': 'application/json' };
    HEADERS.set(id, h);
  }
  return h;
}

/** One request as autocannon sends it. */
interface Built {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Request i of the job's sequence (fresh `timestamp` now for the signed kinds). Called before
 * the run for the whole pool (see requestsFor), so the client does the same per-request work,
 * an array read, on every route.
 */
function buildRequest(job: Exclude<ClientJob, { kind: 'hello' }>, i: number, tag: string): Built {
  const k = i >> 1;
  const buy = (i & 1) === 0;
  const off = k & 3;
  if (job.kind === 'signed') {
    const { symbol, accounts, priceTicks } = job;
    const acct = accounts[buy ? 0 : 1];
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
    const q = buildSignedQuery({ timestamp: Date.now(), recv_window: RECV_WINDOW }, acct.apiSecret, body);
    return { path: `/fapi/v1/orders?${q}`, headers: headersOf(acct.apiKey, 'signed'), body };
  }
  if (job.kind === 'binance') {
    const { symbol, accounts, priceTicks } = job;
    const acct = accounts[buy ? 0 : 1];
    // what ccxt sends for createOrder(symbol, 'limit', side, qty, price, {positionSide}) on a hedge account
    const params =
      `symbol=${symbol}&side=${buy ? 'BUY' : 'SELL'}&type=LIMIT&quantity=${QTYS[k % 3]}` +
      `&price=${price(buy ? priceTicks + off : priceTicks - off)}&timeInForce=GTC&positionSide=${buy ? 'LONG' : 'SHORT'}` +
      `&newClientOrderId=x${tag}-${i}&newOrderRespType=RESULT&timestamp=${Date.now()}&recvWindow=${RECV_WINDOW}`;
    return {
      path: '/binance/fapi/v1/order',
      headers: headersOf(acct.apiKey, 'binance'),
      body: `${params}&signature=${hmacSha256Hex(acct.apiSecret, params)}`,
    };
  }
  const { symbol, askTicks, bidTicks } = job;
  return {
    path: '/fapi/v1/bot/orders',
    headers: headersOf('', 'bot'),
    body: JSON.stringify({
      symbol,
      side: buy ? 1 : 2,
      position_side: buy ? 1 : 2,
      position_action: 1,
      type: 1,
      price: price(buy ? askTicks + off : bidTicks - off),
      qty: QTYS[k % 3],
    }),
  };
}

/** The requests a run can send, built ahead (see requestsFor). */
interface Pool {
  /** Of the client_order_ids (unique per process and pool). */
  tag: string;
  built: Built[];
  /** The requests as bytes, for the open loop (rawPool; `built` is then empty). */
  raw: { bytes: Buffer; ends: Uint32Array; count: number } | null;
  /** The closed loop's signed requests as bytes (packedPool; `built` is then empty). */
  packed: Packed | null;
  /** Wall clock of the signatures' timestamps, ms. */
  at: number;
  /** Requests sent so far, and how many of them had to be built during the run. */
  sent: number;
  builtLate: number;
}

/**
 * The whole run's requests, built before it starts: the signed kinds each with a unique
 * client_order_id and signed once, ahead, with recv_window 60000 (so a request built up to a
 * minute before it is sent is still fresh); the bot orders (and the floor, which gets the same
 * bodies) repeat a sequence of 24. Past the pool, or once its signatures near their window's
 * end, requests are built as they go, and counted (`builtLate`).
 */
function buildPool(job: ClientJob, expected: number, tag: string): Pool {
  const at = Date.now();
  if (job.kind === 'signed' || job.kind === 'binance') return packedPool(job, expected, tag);
  const built: Built[] = [];
  if (job.kind === 'bot') for (let i = 0; i < 24; i++) built.push(buildRequest(job, i, tag));
  return { tag, built, raw: null, packed: null, at, sent: 0, builtLate: 0 };
}

/**
 * The closed loop's signed requests, each one's path and body side by side in one buffer outside
 * the JS heap (as the open loop's rawPool), turned back into strings as autocannon asks for them:
 * young garbage, collected in passing. Held as objects, the pool (1.5x the fastest signed run
 * so far: some 250,000 requests, about 200 MB) filled the client's old space, and the client then
 * spent 35-47 µs a request instead of 22, stalled 200 ms at times, and held the service to
 * 15,000-25,000 req/s in every round after the first (docs/benchmarks.md, "The rounds after the
 * first: the client's pool").
 */
interface Packed {
  bytes: Buffer;
  /** Request i's path is bytes[ends[2i-1] (0 for i = 0) .. ends[2i]), its body from there to ends[2i+1]. */
  ends: Uint32Array;
  count: number;
  /** The headers of the even (buy, account 0) and odd (sell, account 1) requests. */
  headers: [Record<string, string>, Record<string, string>];
}

function packedPool(job: Extract<ClientJob, { kind: 'signed' | 'binance' }>, expected: number, tag: string): Pool {
  const at = Date.now();
  const ends = new Uint32Array(expected * 2);
  let bytes = Buffer.allocUnsafeSlow(Math.max(1024, expected * 512));
  let end = 0;
  const put = (text: string): void => {
    const len = Buffer.byteLength(text, 'latin1');
    if (end + len > bytes.length) {
      const more = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, end + len));
      bytes.copy(more, 0, 0, end);
      bytes = more;
    }
    end += bytes.write(text, end, 'latin1');
  };
  for (let i = 0; i < expected; i++) {
    const b = buildRequest(job, i, tag);
    put(b.path);
    ends[2 * i] = end;
    put(b.body);
    ends[2 * i + 1] = end;
  }
  const headers: Packed['headers'] = [
    headersOf(job.accounts[0].apiKey, job.kind),
    headersOf(job.accounts[1].apiKey, job.kind),
  ];
  return { tag, built: [], raw: null, packed: { bytes, ends, count: expected, headers }, at, sent: 0, builtLate: 0 };
}

function requestsFor(
  job: ClientJob,
  pool: Pool,
  tally: (status: number, body: string) => void,
): AutocannonOptions['requests'] {
  if (job.kind === 'hello') return [{ method: 'GET', path: '/', onResponse: tally }];
  const tag = pool.tag;
  const cyclic = job.kind === 'bot';
  const built = pool.built;
  return [
    {
      setupRequest(req) {
        const i = pool.sent++;
        req.method = 'POST';
        const packed = pool.packed;
        if (packed !== null && i < packed.count && Date.now() - pool.at < POOL_FRESH_MS) {
          const { bytes, ends } = packed;
          const pathEnd = ends[2 * i];
          req.path = bytes.toString('latin1', i === 0 ? 0 : ends[2 * i - 1], pathEnd);
          req.headers = packed.headers[i & 1];
          req.body = bytes.toString('latin1', pathEnd, ends[2 * i + 1]);
          return req;
        }
        let b: Built;
        if (cyclic) b = built[i % built.length];
        else {
          pool.builtLate++;
          b = buildRequest(job, i, tag);
        }
        req.path = b.path;
        req.headers = b.headers;
        req.body = b.body;
        return req;
      },
      onResponse: tally,
    },
  ];
}

function run(
  job: ClientJob,
  o: { seconds: number; pool: Pool; onLatency: ((ms: number, due?: number) => void) | null; conns: PacedConn[] | null },
  tally: (status: number, body: string) => void,
): Promise<AutocannonResult> {
  if (job.rate !== undefined && o.conns !== null)
    return runPaced({ ...job, rate: job.rate }, { ...o, conns: o.conns }, tally);
  const { seconds, pool, onLatency } = o;
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: seconds,
        requests: requestsFor(job, pool, tally),
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    if (onLatency) inst.on('response', (_c, _s, _b, ms) => onLatency(ms));
  });
}

/** A request as HTTP/1.1 text (the open loop writes it to its socket as is). */
function requestText(job: ClientJob, host: string, b: Built): string {
  let head = `${job.kind === 'hello' ? 'GET' : 'POST'} ${b.path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const k in b.headers) head += `${k}: ${b.headers[k]}\r\n`;
  return `${head}content-length: ${Buffer.byteLength(b.body)}\r\n\r\n${b.body}`;
}

/**
 * The open loop's requests, built ahead as bytes in one buffer outside the JS heap: each request
 * is built, written into the buffer and dropped, so nothing of it outlives the young generation.
 * Held as objects (the closed loop's pool: some 45,000 requests, 30-40 MB), the pool kept the
 * client's old space large, and V8, having seen its allocation sites' objects live, went on
 * allocating the warm-up's requests built as they went straight into old space (pretenuring):
 * the client then stopped 8-20 ms for its own collections in the measured run, and requests due
 * meanwhile were sent late and counted that wait as the route's latency (docs/benchmarks-log.md,
 * "ninth pass").
 */
function rawPool(job: Exclude<ClientJob, { kind: 'hello' }>, expected: number, tag: string): Pool {
  const url = new URL(job.url);
  const host = `${url.hostname}:${url.port}`;
  const at = Date.now();
  const ends = new Uint32Array(expected);
  let bytes = Buffer.allocUnsafeSlow(Math.max(1024, expected * 768));
  let end = 0;
  for (let i = 0; i < expected; i++) {
    const text = requestText(job, host, buildRequest(job, i, tag));
    const len = Buffer.byteLength(text);
    if (end + len > bytes.length) {
      const more = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, end + len));
      bytes.copy(more, 0, 0, end);
      bytes = more;
    }
    end += bytes.write(text, end);
    ends[i] = end;
  }
  return { tag, built: [], raw: { bytes, ends, count: expected }, packed: null, at, sent: 0, builtLate: 0 };
}

/**
 * An open loop for latency runs: request i is due at start + i / rate and is timed from that
 * moment, so a request that waits for a free connection (all `connections` busy) or behind a late
 * timer counts its wait (no coordinated omission). Raw keep-alive sockets, one request in flight
 * each, requests written as prebuilt text and answers read by their content-length: a client
 * cheap enough not to be what is measured (node:http's client cost several times the server's
 * floor per request here). autocannon's own overallRate is not used: each of its connections
 * sends its second's quota back to back as the second starts, then pauses, so its "rate" is a
 * burst a second, queued like a saturated run.
 */
/** A keep-alive connection of the open loop; a run sets what its answers and errors do. */
interface PacedConn {
  sock: Socket;
  due: number;
  buf: Buffer;
  onData: ((c: PacedConn, chunk: Buffer) => void) | null;
  onError: ((err: Error) => void) | null;
}

/** Opens the open loop's connections (kept over its warm-up and measured runs, as a bot keeps them). */
function openPaced(job: ClientJob): Promise<PacedConn[]> {
  const url = new URL(job.url);
  return Promise.all(
    Array.from(
      { length: job.connections },
      () =>
        new Promise<PacedConn>((resolve, reject) => {
          const sock = connect(Number(url.port), url.hostname);
          sock.setNoDelay(true);
          const c: PacedConn = { sock, due: 0, buf: Buffer.alloc(0), onData: null, onError: reject };
          sock.on('data', (chunk: Buffer) => c.onData?.(c, chunk));
          sock.on('error', (err) => c.onError?.(err));
          sock.once('connect', () => resolve(c));
        }),
    ),
  );
}

function runPaced(
  job: ClientJob & { rate: number },
  o: { seconds: number; pool: Pool; onLatency: ((ms: number, due?: number) => void) | null; conns: PacedConn[] },
  tally: (status: number, body: string) => void,
): Promise<AutocannonResult> {
  const { seconds, pool, onLatency, conns } = o;
  const url = new URL(job.url);
  const host = `${url.hostname}:${url.port}`;
  const total = Math.max(1, Math.floor(seconds * job.rate));
  const interval = 1000 / job.rate;
  const tag = pool.tag;
  const out: AutocannonResult = { non2xx: 0, errors: 0, timeouts: 0 };
  const text = (): string | Buffer => {
    if (job.kind === 'hello') return requestText(job, host, { path: '/', headers: {}, body: '' });
    const i = pool.sent++;
    if (job.kind === 'bot') return requestText(job, host, pool.built[i % pool.built.length]);
    const raw = pool.raw;
    if (raw !== null && i < raw.count && Date.now() - pool.at < POOL_FRESH_MS)
      return raw.bytes.subarray(i === 0 ? 0 : raw.ends[i - 1], raw.ends[i]);
    pool.builtLate++;
    return requestText(job, host, buildRequest(job, i, tag));
  };
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const waiting: number[] = [];
    const idle: PacedConn[] = [];
    const finish = (): void => {
      if (++done < total) return;
      for (const c of conns) c.onData = c.onError = null;
      resolve(out);
    };
    const start = (c: PacedConn, due: number): void => {
      c.due = due;
      c.sock.write(text());
    };
    const dispatch = (due: number): void => {
      const c = idle.pop();
      if (c === undefined) waiting.push(due);
      else start(c, due);
    };
    const onData = (c: PacedConn, chunk: Buffer): void => {
      c.buf = c.buf.length === 0 ? chunk : Buffer.concat([c.buf, chunk]);
      const end = c.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = c.buf.toString('latin1', 0, end);
      const m = /\r\ncontent-length: *(\d+)/i.exec(head);
      const len = m === null ? 0 : Number(m[1]);
      if (c.buf.length < end + 4 + len) return;
      const status = Number(head.slice(9, 12));
      const body = c.buf.toString('utf8', end + 4, end + 4 + len);
      c.buf = c.buf.subarray(end + 4 + len);
      onLatency?.(performance.now() - c.due, c.due);
      if (status < 200 || status > 299) out.non2xx++;
      tally(status, body);
      const next = waiting.shift();
      if (next === undefined) idle.push(c);
      else start(c, next);
      finish();
    };
    const t0 = performance.now();
    const tick = (): void => {
      const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
      while (sent < due) dispatch(t0 + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
    };
    for (const c of conns) {
      c.buf = Buffer.alloc(0);
      c.onData = onData;
      c.onError = (err) => {
        out.errors++;
        reject(err);
      };
      idle.push(c);
    }
    tick();
  });
}

/** Warm-up, then the measured run (`onMeasuring` fires as it starts). */
export async function runClient(job: ClientJob, onMeasuring: () => void): Promise<ClientResult> {
  const ignore = (): void => {};
  // The pool of prebuilt (signed) requests covers the measured run alone, built before the
  // warm-up (its garbage is collected there). The closed loop's warm-up builds its own requests
  // as it sends them (another tag: no client_order_id repeats), which only slows what is not
  // measured; the open loop's warm-up has a pool of its own too (see rawPool).
  const tag = process.pid.toString(36);
  const paced = job.rate !== undefined && job.kind !== 'bot' && job.kind !== 'hello';
  const size = (seconds: number): number => Math.ceil((job.rate ?? job.poolRate ?? POOL_RATE) * seconds * 1.05);
  const pool = paced ? rawPool(job, size(job.seconds), tag) : buildPool(job, size(job.seconds), tag);
  const warmPool: Pool =
    job.kind === 'bot'
      ? pool
      : paced && job.warmup > 0
        ? rawPool(job, size(job.warmup), `${tag}w`)
        : { tag: `${tag}w`, built: [], raw: null, packed: null, at: Date.now(), sent: 0, builtLate: 0 };
  // The open loop's connections are the warm-up's too, so the measured run starts on warm ones,
  // as a bot's orders go over connections it keeps. (With 50 fresh connections opened at its
  // start, the service's loop stalled ~10 ms there and the first 30 ms of signed answers took
  // 10-17 ms: 150-230 of the run's slowest 1 %, the bench's churn rather than the route.)
  // autocannon's runs open their own.
  const conns = job.rate === undefined ? null : await openPaced(job);
  if (job.warmup > 0) await run(job, { seconds: job.warmup, pool: warmPool, onLatency: null, conns }, ignore);
  const late0 = pool.builtLate;

  let lat = new Float64Array(1 << 18);
  // the open loop's due times too (this process's performance.now()), for the tail's causes
  let dues = job.rate !== undefined ? new Float64Array(1 << 18) : null;
  let count = 0;
  const onLatency = (ms: number, due = 0): void => {
    if (count === lat.length) {
      const next = new Float64Array(lat.length * 2);
      next.set(lat);
      lat = next;
      if (dues !== null) {
        const d = new Float64Array(dues.length * 2);
        d.set(dues);
        dues = d;
      }
    }
    if (dues !== null) dues[count] = due;
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
  const r = await run(job, { seconds: job.seconds, pool, onLatency, conns }, tally);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (conns !== null) for (const c of conns) c.sock.destroy();
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
    clientCpuPerReq: (cpu.user + cpu.system) / Math.max(1, count),
    builtLate: pool.builtLate - late0,
    timeline:
      dues === null
        ? undefined
        : {
            dues: Array.from(dues.subarray(0, count), (d) => performance.timeOrigin + d),
            lats: Array.from(lat.subarray(0, count)),
          },
  };
}
