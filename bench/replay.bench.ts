// Replay benchmark (not a test). Run: npm run bench:replay
// (BENCH_EVENTS=N changes the 1,000,000 historical trades; BENCH_SECONDS=N the wall-time bound;
// BENCH_FLOOR_EVENTS=N the prints the floor replays, default 300,000; BENCH_ROUNDS=N the rounds of
// section 1, default 5; BENCH_RUNS=N the timed runs of a measure in its process, default 2;
// BENCH_NO_SERVICE=1 skips its run through a whole service; BENCH_LOUD=1 adds the replay with the
// house orders' lifecycle recorded; BENCH_KEEP_LOGS=1 keeps the recorded logs; BENCH_NO_LOCKSTEP=1
// skips section 2; BENCH_NO_DEPTH=1 section 3; BENCH_FLOWS=real or walk runs section 1 on that flow
// only; BENCH_MEASURES=replay,floor,... runs only those measures of section 1, of raw, candles,
// floor, exchange, replay, loud, service: with node --cpu-prof each child writes its profile.)
//
// Section 1, no client: a trades-only replay (src-main/replay/) of BENCH_EVENTS trades on BTCUSDT's
// 0.1 tick and 0.001 step around 50,000, twice: real flow first (the TRXUSDT trade recording's
// moves, sizes, sides and times, see realFlow; BENCH_NO_REAL_FLOW=1 skips it), then a stress case,
// a generated random walk whose aggressor side is drawn anew each print (half the prints change
// side, against 15 % in the recording: each change moves the synthetic book's touch), a trade
// every 10 ms. Each through an in-memory venue: Exchange, matching engine, synthetic book, klines
// service (all 16 intervals), the store the replay venue uses for candles, no client attached.
// The trades come from an in-memory data port that gives them as the store's port does (blocks
// of integer columns, ReplayData.tradeBlocks). Reports historical events per second (target:
// 1,000,000 or more) and, as a same-run baseline, the raw matching engine (engine/order-book.ts)
// applying the same prints as IOC takers against the same resting maker sizes, without the
// exchange: the ratio is the cost of everything the venue adds (checks, records, candles, the
// mirror). Also, in each round, the same replay through a whole replay service (startService:
// every listener a served replay has, HTTP and /ws listening), no client connected.
// The floor, in the same run: what no replay implementation can go below while users and bots see
// the same book, update ids, tape and candles. The replay's engine commands are recorded (an
// untimed run over the first FLOOR_EVENTS prints: every place, replacement of an own level, cancel, trim and growth its mirror
// and synthetic book send, one to two a print, each an update id a client sees, and the prints
// booked without the engine on a level placed for them, housePrint) and applied to a raw engine
// with the candles (klines service, all 16 intervals) fed from its trades and those prints: no
// exchange, no mirror logic, no data parsing. The prints alone (the baseline's two engine commands a print)
// plus candles are printed too. Between the floor and the replay: the replay's exchange commands
// (recorded the same way, at the exchange: prices, funding, and the house desk's calls: house
// orders, prints, trims, growths) executed on a fresh venue of the same set-up, which is the
// replay without its own work (mirror, synthetic book, merge, data); the time of a print is then
// split into the engine and candles, the exchange's part and the replay's own part.
// Every engine reference records events as the venue's engine does in a replay with no client
// (quietSink: the replay's book and taker accounts report only trades and rejections, and no
// level changes are recorded since nobody listens for them; update ids still count).
// Each measure runs in a child process of its own (this script with --measure), once to warm up
// and once timed: a process that has run the other measures runs each 15 to 30 % slower (their
// code paths through the same functions leave less specialised compiled code), and a replay
// service runs only the replay's. The recorded logs go to the children in a temporary folder.
// The machine is shared: the measures run once a round, the rounds (BENCH_ROUNDS, default 5)
// interleaved, and each is summed up by its best round; the ratios are those of the bests.
// Each run is bounded by BENCH_SECONDS of wall time (default 60): it stops early and reports
// the events it applied.
// Also `--digest real|walk N [levels] [users]` (what users and clients observe, one SHA-256) and
// `--calls real|walk N` (the engine's, the house desk's and the mirror's calls a print makes).
// Section 2, lockstep over the WebSocket (the example bot stepping a replay service of the same
// generated trades): bench/lib/replay-lockstep.ts.
import { cancelOrder, placeOrder, upsertAccount } from '../test/helpers/exchange-commands.ts';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBook, RecordingSink } from '../src-main/engine/index.ts';
import { KlineService } from '../src-main/market/kline-service.ts';
import type { HistTrade, HistTradeBlock, ReplayData, ReplayDataset } from '../src-main/replay/ports.ts';
import type { ReplayMarket } from '../src-main/replay/replay-market.ts';
import { replaySymbolRow } from '../src-main/replay/specs.ts';
import { REPLAY_BOOK_ACCOUNT, REPLAY_TAKER_ACCOUNT } from '../src-main/replay/symbol-replay.ts';
import { MemoryCandleStore } from '../src-main/store/memory-candle-store.ts';
import { openDatabase } from '../src-main/store/database.ts';
import { SymbolsRepo } from '../src-main/store/symbols-repo.ts';
import type { Command } from '../src-main/trading/exchange.ts';
import type { HouseDesk } from '../src-main/trading/house-desk.ts';
import {
  LASOTA,
  memoryReplayVenue,
  replayVenue,
  trxBooks,
  TRX_TRADES,
  type MemoryReplayVenue,
} from '../test/replay/harness.ts';
import { startService } from '../src-main/service.ts';
import { lockstepSection } from './lib/replay-lockstep.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const START = Date.UTC(2024, 0, 1);
const SPACING_MS = 10;
const fmtN = (n: number): string => Math.round(n).toLocaleString('en-US');

interface GenTrades {
  priceTicks: Int32Array;
  lots: Int32Array;
  sell: Uint8Array;
  /** ms after START, non-decreasing. */
  times: Float64Array;
}

/** A seeded random walk: price in 0.1 ticks, 1..500 lots of 0.001, aggressor side. */
function generate(n: number): GenTrades {
  let s = 12345;
  const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const t: GenTrades = {
    priceTicks: new Int32Array(n),
    lots: new Int32Array(n),
    sell: new Uint8Array(n),
    times: new Float64Array(n),
  };
  let p = 500_000;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.15) p += 1;
    else if (r > 0.85) p -= 1;
    t.priceTicks[i] = p;
    t.lots[i] = 1 + Math.floor(rnd() * 500);
    t.sell[i] = rnd() < 0.5 ? 1 : 0;
    t.times[i] = i * SPACING_MS;
  }
  return t;
}

/**
 * Real flow: the prints of the TRXUSDT trade recording in test/fixtures (199 trades of
 * 2025-04-14, 18 s) as moves in ticks, sizes in steps, aggressor sides and times as recorded,
 * on BTCUSDT's ticks around 50,000 (price 0.25455 -> 50,000.0), repeated end to end (a second
 * between repeats) to `n` prints. Its structure is the market's: 54 % of the prints continue the
 * previous one (same time, side and price: one taker order sweeping several makers), 15 % change
 * the aggressor side, 22 % the price; the generated walk changes the side on half of them.
 */
function realFlow(n: number): GenTrades {
  const csv = readFileSync(
    fileURLToPath(
      new URL(
        '../test/fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota/trade_stream.csv',
        import.meta.url,
      ),
    ),
    'utf8',
  );
  const rows = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const t: GenTrades = {
    priceTicks: new Int32Array(n),
    lots: new Int32Array(n),
    sell: new Uint8Array(n),
    times: new Float64Array(n),
  };
  const first = Number(rows[0][4]);
  const span = Number(rows[rows.length - 1][4]) - first + 1000;
  for (let i = 0; i < n; i++) {
    const r = rows[i % rows.length];
    t.priceTicks[i] = 500_000 + Math.round(Number(r[7]) * 100_000) - 25_455;
    t.lots[i] = Math.max(1, Math.round(Number(r[8])));
    t.sell[i] = r[9] === '1' ? 1 : 0;
    t.times[i] = Math.floor(i / rows.length) * span + Number(r[4]) - first;
  }
  return t;
}

/**
 * The generated trades as the replay's data port: decimal strings (trades()) and, as the store's
 * port (replay/dataset-replay-data.ts) gives them, blocks of 8,192 rows of integer mantissas (tradeBlocks(),
 * which the replay reads when a port has it).
 */
function memoryData(g: GenTrades): ReplayData {
  const n = g.priceTicks.length;
  const tradeAt = (i: number): HistTrade => {
    const p = g.priceTicks[i];
    const q = g.lots[i];
    return {
      time: START + g.times[i],
      price: `${(p / 10) | 0}.${p % 10}`,
      qty: `${(q / 1000) | 0}.${String(q % 1000).padStart(3, '0')}`,
      buyerMaker: g.sell[i] === 1,
    };
  };
  const ds: ReplayDataset = {
    id: 1,
    market: 'um',
    symbol: 'BTCUSDT',
    kind: 'trades',
    interval: '',
    firstTime: START,
    lastTime: START + g.times[n - 1],
    specs: { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] },
    specsSource: 'catalogue',
  };
  return {
    datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
    depth: () => [],
    candles: () => [],
    funding: () => [],
    *tradeBlocks(_id, from): Iterable<HistTradeBlock> {
      const size = 8192;
      const time = new Float64Array(size);
      const price = new Float64Array(size);
      const qty = new Float64Array(size);
      const buyerMaker = new Uint8Array(size);
      for (let b = 0; b < n; b += size) {
        const count = Math.min(size, n - b);
        let start = 0;
        for (let k = 0; k < count; k++) {
          time[k] = START + g.times[b + k];
          if (time[k] < from) start = k + 1;
          price[k] = g.priceTicks[b + k];
          qty[k] = g.lots[b + k];
          buyerMaker[k] = g.sell[b + k];
        }
        if (start < count) yield { start, count, time, price, priceDp: 1, qty, qtyDp: 3, buyerMaker };
      }
    },
    // the last trade at or before a time: the price a pair is listed with at the replay's start
    // (catalogue.ts initialPrice; without it a whole service refused to start the replay)
    lastTrade(_id, at): HistTrade | null {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (START + g.times[mid] <= at) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? null : tradeAt(lo - 1);
    },
    *trades(_id, from): Iterable<HistTrade> {
      let i = 0;
      while (i < n && START + g.times[i] < from) i++;
      for (; i < n; i++) yield tradeAt(i);
    },
  };
}

/** An in-memory replay venue over the generated trades (no client, candles of all intervals). */
function openRig(g: GenTrades): MemoryReplayVenue {
  return memoryReplayVenue(memoryData(g), 'BTCUSDT', START, '50000.0');
}

/** Events per second of a trades-only replay through an in-memory venue. */
function replayRate(g: GenTrades, recordLifecycle = false): { events: number; ms: number; cpuMs: number } {
  const rig = openRig(g);
  const { market, exchange } = rig;
  // the A/B of the quiet sink: the replay's house accounts' order lifecycle recorded as any other's
  if (recordLifecycle) exchange.pair('BTCUSDT')!.sink.quiet = new Set();
  const until = market.status().until;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const chunk = 60_000; // one minute of history per seek
  while (!market.finished && performance.now() - t0 < SECONDS * 1000) market.seek(Math.min(until, market.time + chunk));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const events = market.status().events;
  if (process.env.BENCH_DEBUG)
    console.log('book orders', exchange.pair('BTCUSDT')!.book.orderCount, market.engine.mirror('BTCUSDT').stats);
  rig.close();
  // the process's CPU time of the timed part (a shared host's A/B reads events per CPU second)
  return { events, ms, cpuMs };
}

/**
 * The same replay through a whole replay service (startService: the venue with every listener a
 * served replay has: the WebSocket hub, recent trades, mark/index candles, open interest, the
 * session report; HTTP and /ws listening on loopback), no client connected: the product's path.
 */
async function serviceRate(g: GenTrades): Promise<{ events: number; ms: number }> {
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options: { symbols: ['BTCUSDT'], start: START }, data: memoryData(g) },
  });
  try {
    const market = svc.venue.market as ReplayMarket;
    const until = market.status().until;
    const t0 = performance.now();
    while (!market.finished && performance.now() - t0 < SECONDS * 1000)
      market.seek(Math.min(until, market.time + 60_000));
    return { events: market.status().events, ms: performance.now() - t0 };
  } finally {
    await svc.close();
  }
}

/** The engine commands a replay sends its pair's book, in order: 6 int32 a command. */
interface EngineLog {
  ops: Int32Array;
  n: number;
  /** Of the n ops, the engine's commands (the rest are prints booked without the engine: housePrint). */
  engineOps: number;
  prints: number;
  /** The engine accounts the commands name (ops hold their index). */
  accounts: number[];
}

const OP_LIMIT = 1;
const OP_CANCEL = 2;
const OP_TRIM = 3;
const OP_AMEND = 4;
/** A print booked without the engine (housePrint): its trade, which feeds the candles. */
const OP_PRINT = 5;
/** A GTC order that replaces its account's own level on the other side (engine replaceOwnLevel: a side change's new quote). */
const OP_REPLACE = 6;

/** Runs the replay of the first `prints` trades (untimed) recording every command its book receives. */
function recordCommands(g: GenTrades, prints: number): EngineLog {
  const rig = openRig(g);
  const { market, clock } = rig;
  const book = rig.exchange.pair('BTCUSDT')!.book;
  const log: EngineLog = { ops: new Int32Array(prints * 6 * 8), n: 0, engineOps: 0, prints: 0, accounts: [] };
  const accounts = log.accounts;
  const code = (a: number): number => {
    let i = accounts.indexOf(a);
    if (i < 0) i = accounts.push(a) - 1;
    return i;
  };
  const put = (
    kind: number,
    id: number,
    acct: number,
    side: number,
    price: number,
    qty: number,
    tif: number,
    stp = 0,
    // eslint-disable-next-line max-params -- the engine's own positional signature, recorded as it is called
  ): void => {
    if ((log.n + 1) * 6 > log.ops.length) {
      const bigger = new Int32Array(log.ops.length * 2);
      bigger.set(log.ops);
      log.ops = bigger;
    }
    const o = log.ops;
    const b = log.n++ * 6;
    o[b] = kind | (side << 4) | (tif << 8) | (stp << 12);
    o[b + 1] = id;
    o[b + 2] = price;
    o[b + 3] = qty;
    o[b + 4] = clock.now() - START;
    o[b + 5] = kind === OP_LIMIT || kind === OP_REPLACE ? code(acct) : 0;
    if (kind !== OP_PRINT) log.engineOps++;
  };
  // a house print's trade, after the engine commands it sent
  const desk = deskOf(rig);
  const print = desk.print.bind(desk);
  desk.print = (takerSide: number, price: number, lots: number, rest: number, expireOwn: boolean): number => {
    const r = print(takerSide, price, lots, rest, expireOwn);
    put(OP_PRINT, 0, 0, takerSide, price, lots, 0);
    return r;
  };
  const placeLimit = book.placeLimit.bind(book);
  const cancel = book.cancel.bind(book);
  const trimOrder = book.trimOrder.bind(book);
  const amend = book.amend.bind(book);
  const replaceOwnLevel = book.replaceOwnLevel.bind(book);
  const raw = book as unknown as Record<string, unknown>;
  raw.placeLimit = (
    id: number,
    acct: number,
    side: number,
    price: number,
    qty: number,
    tif: number,
    flags = 0,
    cap = -1,
    stp = 0,
    // eslint-disable-next-line max-params -- the engine's own positional signature, recorded as it is called
  ): void => {
    if (flags !== 0 || cap !== -1) throw new Error('the floor log knows limit orders without flags or caps only');
    put(OP_LIMIT, id, acct, side, price, qty, tif, stp);
    placeLimit(id, acct, side, price, qty, tif, flags, cap, stp);
  };
  raw.replaceOwnLevel = (id: number, acct: number, side: number, price: number, qty: number): boolean => {
    const done = replaceOwnLevel(id, acct, side, price, qty);
    if (done) put(OP_REPLACE, id, acct, side, price, qty, 1);
    return done;
  };
  raw.cancel = (id: number, acct = -1): void => {
    if (acct !== -1) throw new Error('the floor log knows cancels by id only');
    put(OP_CANCEL, id, 0, 0, 0, 0, 0);
    cancel(id);
  };
  raw.trimOrder = (id: number, cap: number): void => {
    put(OP_TRIM, id, 0, 0, 0, cap, 0);
    trimOrder(id, cap);
  };
  // eslint-disable-next-line max-params -- the engine's own positional signature, recorded as it is called
  raw.amend = (id: number, price: number, qty: number, acct = -1, maxFill = -1, requeue = false): void => {
    if (acct !== -1 || maxFill !== -1 || requeue) throw new Error('the floor log knows amendments by id only');
    put(OP_AMEND, id, 0, 0, price, qty, 0);
    amend(id, price, qty);
  };
  const stopAt = START + (prints < g.times.length ? g.times[prints] : g.times[g.times.length - 1] + 1);
  while (market.time < stopAt && !market.finished)
    market.seek(Math.min(market.status().until, stopAt, market.time + 60_000));
  log.prints = market.status().events;
  rig.close();
  return log;
}

/** The house desk the replay's mirror of BTCUSDT sends its house commands through. */
function deskOf(rig: MemoryReplayVenue): HouseDesk {
  return (rig.market.engine.mirror('BTCUSDT') as unknown as { desk: HouseDesk }).desk;
}

/** The house desk's calls (the mirror's house commands as numbers). */
const DESK_CALLS = ['place', 'take', 'takeFront', 'print', 'trim', 'grow'] as const;
type DeskCall = { desk: (typeof DESK_CALLS)[number]; args: Array<number | boolean> };

/**
 * The exchange commands a replay sends (prices, funding) and its house desk's calls (house
 * orders, prints, trims, growths), with the market time of each.
 */
interface ExchangeLog {
  cmds: Array<Command | DeskCall>;
  times: number[];
  prints: number;
}

/** Runs the replay of the first `prints` trades (untimed) recording every command its exchange and its house desk execute. */
function recordExchangeCommands(g: GenTrades, prints: number): ExchangeLog {
  const rig = openRig(g);
  const { market, clock } = rig;
  const log: ExchangeLog = { cmds: [], times: [], prints: 0 };
  const execute = rig.exchange.execute.bind(rig.exchange);
  (rig.exchange as unknown as { execute: (c: Command) => unknown }).execute = (c: Command): unknown => {
    log.cmds.push({ ...c });
    log.times.push(clock.now());
    return execute(c);
  };
  const desk = deskOf(rig);
  const calls = desk as unknown as Record<string, (...args: Array<number | boolean>) => number>;
  let depth = 0; // the desk's calls made inside another (takeFront's fallback to take) are part of it
  for (const name of DESK_CALLS) {
    const call = calls[name].bind(desk);
    calls[name] = (...args: Array<number | boolean>): number => {
      if (depth === 0) {
        log.cmds.push({ desk: name, args });
        log.times.push(clock.now());
      }
      depth++;
      try {
        return call(...args);
      } finally {
        depth--;
      }
    };
  }
  const stopAt = START + (prints < g.times.length ? g.times[prints] : g.times[g.times.length - 1] + 1);
  while (market.time < stopAt && !market.finished)
    market.seek(Math.min(market.status().until, stopAt, market.time + 60_000));
  log.prints = market.status().events;
  rig.close();
  return log;
}

/**
 * The recorded exchange commands executed on a fresh venue of the same set-up (its replay market
 * open, with its listeners, but never run; the clock set to each command's time): the replay
 * without its own work (mirror, synthetic book, merge, data), i.e. what the exchange, the engine
 * and the candles cost for these prints. Prints per second.
 */
function exchangeFloorRate(g: GenTrades, log: ExchangeLog): { events: number; ms: number } {
  const rig = openRig(g);
  const { exchange, clock } = rig;
  const { cmds, times } = log;
  const desk = deskOf(rig);
  const t0 = performance.now();
  for (let i = 0; i < cmds.length; i++) {
    const t = times[i];
    if (t > clock.now()) clock.advance(t - clock.now());
    const c = cmds[i];
    try {
      if ('desk' in c) deskCall(desk, c);
      else exchange.execute(c);
    } catch {
      // refused in the replay too (counted there as rejected)
    }
  }
  const ms = performance.now() - t0;
  rig.close();
  return { events: log.prints, ms };
}

/** A recorded call of the house desk, made again. */
function deskCall(desk: HouseDesk, c: DeskCall): void {
  const a = c.args as number[];
  if (c.desk === 'takeFront') desk.takeFront(a[0], a[1], a[2], a[3]);
  else if (c.desk === 'take') desk.take(a[0], a[1], a[2]);
  else if (c.desk === 'place') desk.place(a[0], a[1], a[2], c.args[3] as boolean);
  else if (c.desk === 'print') desk.print(a[0], a[1], a[2], a[3], c.args[4] as boolean);
  else if (c.desk === 'trim') desk.trim(a[0], a[1]);
  else desk.grow(a[0], a[1]);
}

/**
 * The engine's event sink as the venue sets it up for a replay: the replay's book and taker
 * accounts quiet (their orders' lifecycle is not recorded, only trades, levels and rejections).
 * Every engine reference uses it, so the references do what the venue's engine does.
 */
function quietSink(): RecordingSink {
  const sink = new RecordingSink();
  sink.quiet = new Set([REPLAY_BOOK_ACCOUNT, REPLAY_TAKER_ACCOUNT]);
  // as a venue's engines with nobody listening for level changes (no client): update ids still count
  sink.levels = false;
  return sink;
}

/** A raw engine and a klines service over an in-memory store: what the floor runs on. */
function floorRig(): { book: ReturnType<typeof createBook>; sink: RecordingSink; klines: KlineService; close(): void } {
  const db = openDatabase({ dataDir: ':memory:' });
  const symbols = new SymbolsRepo(db);
  symbols.insertMissing(
    [
      replaySymbolRow(
        'BTCUSDT',
        { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] },
        '50000.0',
        0,
      ),
    ],
    0,
  );
  const candles = new MemoryCandleStore(); // the replay venue's candle store
  const klines = new KlineService({ candles, symbols, clock: { now: () => START } }, { tickMs: 0 });
  const sink = quietSink();
  const book = createBook({ symbol: 'BTCUSDT', bandPpm: 0 }, sink);
  return { book, sink, klines, close: () => (klines.close(), db.close()) };
}

/** The recorded engine commands on a raw engine, with candles from its trades: prints per second. */
function floorRate(log: EngineLog): { events: number; ms: number } {
  const { book, sink, klines, close } = floorRig();
  const o = log.ops;
  const n = log.n;
  const acct = log.accounts;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const b = i * 6;
    const k = o[b] & 15;
    if (k === OP_LIMIT)
      book.placeLimit(
        o[b + 1],
        acct[o[b + 5]],
        (o[b] >> 4) & 15,
        o[b + 2],
        o[b + 3],
        (o[b] >> 8) & 15,
        0,
        -1,
        (o[b] >> 12) & 15,
      );
    else if (k === OP_REPLACE) {
      if (!book.replaceOwnLevel(o[b + 1], acct[o[b + 5]], (o[b] >> 4) & 15, o[b + 2], o[b + 3]))
        throw new Error('the floor log: a replacement of a level that does not apply');
    } else if (k === OP_CANCEL) book.cancel(o[b + 1]);
    else if (k === OP_AMEND) book.amend(o[b + 1], o[b + 2], o[b + 3]);
    else if (k === OP_PRINT) {
      klines.recordTrade('BTCUSDT', klineTrade(START + o[b + 4], o[b + 2], o[b + 3], (o[b] >> 4) & 15));
      continue;
    } else book.trimOrder(o[b + 1], o[b + 3]);
    const events = sink.take();
    for (let j = 0; j < events.length; j++) {
      const e = events[j];
      if (e.type === 'trade')
        klines.recordTrade('BTCUSDT', klineTrade(START + o[b + 4], e.priceTicks, e.qtyLots, e.takerSide));
    }
  }
  const ms = performance.now() - t0;
  close();
  return { events: log.prints, ms };
}

/** One reused trade record for the klines (recordTrade reads it during the call): no object per trade. */
const klineRec = { time: 0, priceTicks: 0, qtyLots: 0, takerSide: 1 };
function klineTrade(time: number, priceTicks: number, qtyLots: number, takerSide: number): typeof klineRec {
  klineRec.time = time;
  klineRec.priceTicks = priceTicks;
  klineRec.qtyLots = qtyLots;
  klineRec.takerSide = takerSide;
  return klineRec;
}

/** The baseline's prints (maker + IOC taker) with candles from their trades. */
function printsWithCandlesRate(g: GenTrades): { events: number; ms: number } {
  const { book, sink, klines, close } = floorRig();
  const MAKER = REPLAY_BOOK_ACCOUNT;
  const TAKER = REPLAY_TAKER_ACCOUNT;
  let id = 1;
  const n = g.priceTicks.length;
  const t0 = performance.now();
  let i = 0;
  for (; i < n; i++) {
    if ((i & 4095) === 0 && performance.now() - t0 > SECONDS * 1000) break;
    const takerSide = g.sell[i] === 1 ? 2 : 1;
    book.placeLimit(id++, MAKER, takerSide === 1 ? 2 : 1, g.priceTicks[i], g.lots[i], 1, 0, -1);
    book.placeLimit(id++, TAKER, takerSide, g.priceTicks[i], g.lots[i], 2, 0, -1);
    const events = sink.take();
    for (let j = 0; j < events.length; j++) {
      const e = events[j];
      if (e.type === 'trade')
        klines.recordTrade('BTCUSDT', klineTrade(START + g.times[i], e.priceTicks, e.qtyLots, e.takerSide));
    }
  }
  const ms = performance.now() - t0;
  close();
  return { events: i, ms };
}

/** The same prints as IOC takers on the raw engine, against a maker topped up to the print's size at its price. */
function engineRate(g: GenTrades): { events: number; ms: number } {
  const sink = quietSink();
  const book = createBook({ symbol: 'BTCUSDT', bandPpm: 0 }, sink);
  const MAKER = REPLAY_BOOK_ACCOUNT;
  const TAKER = REPLAY_TAKER_ACCOUNT;
  let id = 1;
  const n = g.priceTicks.length;
  const t0 = performance.now();
  let i = 0;
  for (; i < n; i++) {
    if ((i & 4095) === 0 && performance.now() - t0 > SECONDS * 1000) break;
    const p = g.priceTicks[i];
    const q = g.lots[i];
    const takerSide = g.sell[i] === 1 ? 2 : 1;
    const restSide = takerSide === 1 ? 2 : 1;
    // the resting side shows the print's size at its price (as the replay's mirror makes sure)
    book.placeLimit(id++, MAKER, restSide, p, q, 1, 0, -1);
    book.placeLimit(id++, TAKER, takerSide, p, q, 2, 0, -1);
    sink.take();
  }
  return { events: i, ms: performance.now() - t0 };
}

const FLOOR_EVENTS = Math.min(EVENTS, Number(process.env.BENCH_FLOOR_EVENTS ?? 300_000));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Timed runs of a measure in its child process (after one to warm up), the best kept. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
/** BENCH_LOUD=1: each round also replays with the house orders' lifecycle recorded (the quiet sink's A/B). */
const LOUD = process.env.BENCH_LOUD === '1';

const rateOf = (r: { events: number; ms: number }): number => (r.events / r.ms) * 1000;

type Flow = 'real' | 'walk';
type Measure = 'raw' | 'candles' | 'floor' | 'exchange' | 'replay' | 'loud' | 'service';

/** The prints of a flow (deterministic: the same in every process). */
function flowTrades(flow: Flow): GenTrades {
  return flow === 'real' ? realFlow(EVENTS) : generate(EVENTS);
}

/** Where a child finds the recorded logs of a flow. */
function logPaths(dir: string, flow: Flow): { ops: string; meta: string; ex: string } {
  return {
    ops: path.join(dir, `${flow}-engine.bin`),
    meta: path.join(dir, `${flow}-engine.json`),
    ex: path.join(dir, `${flow}-exchange.json`),
  };
}

function writeLogs(dir: string, flow: Flow, log: EngineLog, exLog: ExchangeLog): void {
  const p = logPaths(dir, flow);
  writeFileSync(p.ops, new Uint8Array(log.ops.buffer, 0, log.n * 6 * 4));
  writeFileSync(
    p.meta,
    JSON.stringify({ n: log.n, engineOps: log.engineOps, prints: log.prints, accounts: log.accounts }),
  );
  writeFileSync(p.ex, JSON.stringify(exLog));
}

function readEngineLog(dir: string, flow: Flow): EngineLog {
  const p = logPaths(dir, flow);
  const meta = JSON.parse(readFileSync(p.meta, 'utf8')) as Omit<EngineLog, 'ops'>;
  const bytes = readFileSync(p.ops);
  const ops = new Int32Array(meta.n * 6);
  new Uint8Array(ops.buffer).set(bytes);
  return { ...meta, ops };
}

/**
 * One measure, in a child process of its own: the measure once to warm up (the compiler tiers the
 * code up, as in a replay that has run for a second), then RUNS times timed, the best kept. Its
 * own process, because a process that ran the other measures (other code paths through the same
 * functions) runs each of them 15 to 30 % slower than a process that runs only that one, as a
 * replay service does.
 */
async function measureHere(measure: Measure, flow: Flow, dir: string): Promise<{ events: number; ms: number }> {
  const g = flowTrades(flow);
  const run = async (): Promise<{ events: number; ms: number }> => {
    switch (measure) {
      case 'raw':
        return engineRate(g);
      case 'candles':
        return printsWithCandlesRate(g);
      case 'floor':
        return floorRate(readEngineLog(dir, flow));
      case 'exchange':
        return exchangeFloorRate(g, JSON.parse(readFileSync(logPaths(dir, flow).ex, 'utf8')) as ExchangeLog);
      case 'replay':
        return replayRate(g);
      case 'loud':
        return replayRate(g, true);
      case 'service':
        return serviceRate(g);
    }
  };
  await run();
  let best = await run();
  for (let k = 1; k < RUNS; k++) {
    const r = await run();
    if (rateOf(r) > rateOf(best)) best = r;
  }
  return best;
}

/** Runs one measure in a child process (this script with --measure) and returns its result. */
function measureInChild(measure: Measure, flow: Flow, dir: string): { events: number; ms: number } {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--measure', measure, flow, dir],
    { encoding: 'utf8', env: process.env, maxBuffer: 1 << 24 },
  );
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{'))
    throw new Error(`the ${measure} measure of ${flow} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(last) as { events: number; ms: number };
}

/** BENCH_MEASURES: the measures of section 1 to run (default all); the others print 0. */
const MEASURES = process.env.BENCH_MEASURES?.split(',');
/** measureInChild, or nothing (no events) for a measure BENCH_MEASURES leaves out. */
function measure(m: Measure, flow: Flow, dir: string): { events: number; ms: number } {
  return MEASURES === undefined || MEASURES.includes(m) ? measureInChild(m, flow, dir) : { events: 0, ms: 1 };
}

async function noClient(what: string, flow: Flow): Promise<void> {
  const g = flowTrades(flow);
  console.log(
    `replay, no client: ${fmtN(g.priceTicks.length)} ${what} (trades-only replay, synthetic ` +
      `book), ${ROUNDS} rounds, bound ${SECONDS} s a run, each measure in a process of its own`,
  );
  const log = recordCommands(g, FLOOR_EVENTS);
  const exLog = recordExchangeCommands(g, FLOOR_EVENTS);
  const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-bench-replay-'));
  writeLogs(dir, flow, log, exLog);
  console.log(
    `  the replay sends its engine ${(log.engineOps / log.prints).toFixed(2)} commands a print (recorded over ${fmtN(log.prints)} prints; ` +
      `${(((log.n - log.engineOps) / log.prints) * 100).toFixed(0)} % of the prints booked without the engine, on a level placed for them); ` +
      'the floor applies them to a raw engine with candles, no exchange',
  );
  // the machine is shared: every measure runs once a round, the rounds interleaved, and each is
  // summed up by its best round (the one least disturbed)
  const best = { raw: 0, candles: 0, floor: 0, exchange: 0, replay: 0, loud: 0, service: 0 };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const raw = rateOf(measure('raw', flow, dir));
      const candles = rateOf(measure('candles', flow, dir));
      const floor = rateOf(measure('floor', flow, dir));
      const exchange = rateOf(measure('exchange', flow, dir));
      const r = measure('replay', flow, dir);
      const replay = rateOf(r);
      const loud = LOUD ? rateOf(measure('loud', flow, dir)) : 0;
      const service = process.env.BENCH_NO_SERVICE ? 0 : rateOf(measure('service', flow, dir));
      console.log(
        `  round ${round}: raw engine ${fmtN(raw)} /s, prints + candles ${fmtN(candles)} /s, ` +
          `floor ${fmtN(floor)} /s, its commands through the exchange ${fmtN(exchange)} /s, ` +
          `replay ${fmtN(replay)} /s (${fmtN(r.events)} events in ${r.ms.toFixed(0)} ms); replay ` +
          `/ raw ${(replay / raw).toFixed(3)}, replay / floor ${(replay / floor).toFixed(3)}; ` +
          `${LOUD ? `with the house orders' lifecycle recorded ${fmtN(loud)} /s; ` : ''}through the whole service ${fmtN(service)} /s`,
      );
      best.service = Math.max(best.service, service);
      best.loud = Math.max(best.loud, loud);
      best.raw = Math.max(best.raw, raw);
      best.candles = Math.max(best.candles, candles);
      best.floor = Math.max(best.floor, floor);
      best.exchange = Math.max(best.exchange, exchange);
      best.replay = Math.max(best.replay, replay);
    }
  } finally {
    if (!process.env.BENCH_KEEP_LOGS) rmSync(dir, { recursive: true, force: true });
    else console.log(`  logs kept in ${dir}`);
  }
  console.log(
    `  baseline, raw engine (maker + IOC taker per print, no exchange): ${fmtN(best.raw)} prints/s (best round)`,
  );
  console.log(`  the same prints + candles (16 intervals), no exchange:         ${fmtN(best.candles)} prints/s`);
  console.log(`  floor: the replay's own engine commands + candles, no exchange:  ${fmtN(best.floor)} prints/s`);
  console.log(
    `  the replay's exchange commands on a fresh venue (no mirror, data): ${fmtN(best.exchange)} ` +
      `prints/s (${exLog.cmds.length} commands over ${fmtN(exLog.prints)} prints)`,
  );
  console.log(`  replay through the venue (exchange, mirror, candles):           ${fmtN(best.replay)} events/s`);
  if (LOUD)
    console.log(
      `  the same with the house orders' lifecycle recorded (no quiet sink): ` +
        `${fmtN(best.loud)} events/s (quiet / recorded ${(best.replay / best.loud).toFixed(3)})`,
    );
  console.log(
    `  the same through the whole replay service, no client connected:     ` +
      `${fmtN(best.service)} events/s (service / venue ${(best.service / best.replay).toFixed(3)})`,
  );
  // time a print, split: the engine and candles (floor), the exchange's part (its commands minus
  // the floor), the replay's own part (mirror, synthetic book, merge, data: the rest)
  const us = (rate: number): number => 1e6 / rate;
  console.log(
    `  a print: ${us(best.replay).toFixed(2)} us = engine + candles ${us(best.floor).toFixed(2)} ` +
      `+ exchange ${(us(best.exchange) - us(best.floor)).toFixed(2)} ` +
      `+ the replay's own work ${(us(best.replay) - us(best.exchange)).toFixed(2)} (mirror, synthetic book, merge, data)`,
  );
  console.log(
    `  ratio replay / raw engine: ${(best.replay / best.raw).toFixed(3)}   replay / floor: ` +
      `${(best.replay / best.floor).toFixed(3)}   floor / raw engine: ${(best.floor / best.raw).toFixed(3)}`,
  );
  console.log(
    `  target 1,000,000 events/s: ${best.replay >= 1_000_000 ? 'met' : 'NOT met'} (floor ${fmtN(best.floor)} /s, reached ${fmtN(best.replay)} /s)`,
  );
}

/**
 * Section 3, a bot on a depth replay: the TRXUSDT recording (test/fixtures: ~2,000 levels) stepped
 * 10 ms at a time, once alone and once with a user order placed and cancelled every step (each a
 * change of the book; those that trade take house liquidity). Reports µs a step both ways, the
 * mirror's resyncs and the time in them, and as the same-run reference what a resync that walks
 * every historical level costs (a read of each level, as the mirror did before it noted the levels
 * traded at).
 */
async function depthBot(): Promise<void> {
  const files = {
    paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
    opts: { market: 'um' as const, symbol: 'TRXUSDT', kind: 'depth' as const },
  };
  const trades = {
    paths: [TRX_TRADES],
    opts: { market: 'um' as const, symbol: 'TRXUSDT', kind: 'trades' as const },
  };
  console.log(
    'replay, a bot on the TRXUSDT depth recording: 10 ms steps, alone and with an order placed and cancelled every step (one in ten marketable)',
  );
  const res: Record<string, { us: number; resyncs: number; resyncMs: number; walkUs: number }> = {};
  for (const bot of [false, true, false, true]) {
    const v = await replayVenue([files, trades], { symbols: ['TRXUSDT'], start: trxBooks()[0].time });
    const pair = v.exchange.pair('TRXUSDT')!;
    const mirror = v.market.engine.mirror('TRXUSDT');
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * 100_000_000n },
      0,
    ).id;
    const restore = mirror.restoreIfTouched.bind(mirror);
    let resyncMs = 0;
    mirror.restoreIfTouched = (): void => {
      const t = performance.now();
      restore();
      resyncMs += performance.now() - t;
    };
    let steps = 0;
    const t0 = performance.now();
    while (!v.market.finished) {
      if (bot && pair.book.bestBid() > 10) {
        const away = steps % 10 === 0 ? -2 : 5; // every tenth a buy two ticks through the best ask
        const price = steps % 10 === 0 ? pair.book.bestAsk() + 2 : pair.book.bestBid() - away;
        const r = placeOrder(v.exchange, acct, {
          symbol: 'TRXUSDT',
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          time_in_force: steps % 10 === 0 ? 2 : 1,
          price: pair.math.formatPrice(price),
          qty: '100',
          leverage: 1,
        });
        if (r.status === 1 || r.status === 2)
          cancelOrder(v.exchange, acct, { symbol: 'TRXUSDT', orderId: Number(r.order_id) });
      }
      v.market.step(10);
      steps++;
    }
    const us = ((performance.now() - t0) / steps) * 1000;
    // the reference: one walk of every historical level (a level read each), timed over 50 walks
    const t1 = performance.now();
    let n = 0;
    for (let k = 0; k < 50; k++)
      for (let s = 0; s < 2; s++)
        for (const p of mirror.hist[s].keys()) n += mirror.houseLots((s + 1) as 1 | 2, p) > 0 ? 1 : 0;
    const walkUs = ((performance.now() - t1) / 50) * 1000;
    const key = bot ? 'bot' : 'alone';
    if (!res[key] || us < res[key].us) res[key] = { us, resyncs: mirror.stats.resyncs, resyncMs, walkUs };
    v.close();
    void n;
  }
  const a = res.alone;
  const b = res.bot;
  console.log(`  alone: ${a.us.toFixed(1)} us a step; with the bot: ${b.us.toFixed(1)} us a step (best of 2 each)`);
  console.log(
    `  with the bot: ${b.resyncs} resyncs, ${b.resyncMs.toFixed(1)} ms in them (${((b.resyncMs / Math.max(1, b.resyncs)) * 1000).toFixed(0)} us each); ` +
      `a walk of every level (the resync before): ${b.walkUs.toFixed(0)} us; resync ` +
      `/ walk ${(b.resyncMs / Math.max(1, b.resyncs) / (b.walkUs / 1000)).toFixed(3)}`,
  );
}

/**
 * What users and clients observe of a replay of the first `prints` trades of a flow, as one
 * SHA-256 (`--digest real|walk N [levels] [users]`, the old and new trees compared before a change
 * of the house path is kept): every trade event (id, price, size, side, time), with `levels` every
 * level change with its update id (a 'level' listener, as a connected client adds), with `users` a
 * user's orders in the queue (their answers, the user's summary and positions), the final book
 * with its update id, the candles of five intervals, the mirror's counts and the events applied.
 */
function digest(flow: Flow, prints: number, levels: boolean, users: boolean): Record<string, unknown> {
  const g = flowTrades(flow);
  const rig = openRig(g);
  const { market, exchange } = rig;
  const h = createHash('sha256');
  let trades = 0;
  let levelEvents = 0;
  const offTrade = exchange.events.on('trade', (e) => {
    trades++;
    h.update(`t${e.tradeId},${e.priceTicks},${e.qtyLots},${e.takerSide},${e.time}\n`);
  });
  const offLevel = levels
    ? exchange.events.on('level', (e) => {
        levelEvents++;
        h.update(`l${e.updateId},${e.side},${e.priceTicks},${e.totalLots}\n`);
      })
    : (): void => undefined;
  const stopAt = START + (prints < g.times.length ? g.times[prints] : g.times[g.times.length - 1] + 1);
  const book = exchange.pair('BTCUSDT')!.book;
  const pair = exchange.pair('BTCUSDT')!;
  // with `users`: a user's order in the queue at the touch every second of history (one in five
  // marketable, the open ones cancelled every tenth second), so prints meet users' orders
  const acct = users
    ? upsertAccount(exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10n ** 16n }, 0).id
    : 0;
  const open: number[] = [];
  let step = 0;
  while (market.time < stopAt && !market.finished) {
    market.seek(Math.min(market.status().until, stopAt, market.time + (users ? 1000 : 60_000)));
    if (!users || book.bestBid() <= 10 || book.bestAsk() <= 10) continue;
    step++;
    const side = step % 2 === 0 ? 1 : 2;
    const take = step % 5 === 0;
    const price = side === 1 ? (take ? book.bestAsk() : book.bestBid()) : take ? book.bestBid() : book.bestAsk();
    try {
      const r = placeOrder(exchange, acct, {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        time_in_force: take ? 2 : 1,
        price: pair.math.formatPrice(price),
        qty: pair.math.formatQty(1 + (step % 7) * 40),
        leverage: 20,
      });
      h.update(`u${r.order_id},${r.status}\n`);
      if (r.status === 1 || r.status === 2) open.push(Number(r.order_id));
    } catch (err) {
      h.update(`u! ${(err as Error).message}\n`);
    }
    if (step % 10 === 0)
      for (const id of open.splice(0)) {
        try {
          cancelOrder(exchange, acct, { symbol: 'BTCUSDT', orderId: id });
        } catch (err) {
          h.update(`c! ${(err as Error).message}\n`);
        }
      }
  }
  if (users) h.update(`user ${JSON.stringify(exchange.summary(acct))} ${JSON.stringify(exchange.positions(acct))}\n`);
  const depth = book.depth();
  h.update(`book ${depth.updateId} ${JSON.stringify(depth.bids)} ${JSON.stringify(depth.asks)}\n`);
  for (const iv of ['1s', '1m', '5m', '1h', '1d'] as const)
    h.update(`${iv} ${JSON.stringify(rig.klines.klines('BTCUSDT', iv, { limit: 1500 }))}\n`);
  const stats = market.engine.mirror('BTCUSDT').stats;
  const events = market.status().events;
  h.update(`stats ${JSON.stringify(stats)} events ${events} orders ${book.orderCount}\n`);
  offTrade();
  offLevel();
  rig.close();
  return {
    flow,
    prints,
    levels,
    users,
    sha256: h.digest('hex'),
    trades,
    levelEvents,
    events,
    updateId: depth.updateId,
    stats,
  };
}

/**
 * The calls a print makes over the first `prints` trades of a flow (`--calls real|walk N`): the
 * engine's commands and reads on the pair's book, the house desk's calls and the mirror's
 * `LevelMap` operations, each wrapped to count, the replay otherwise as the bench runs it.
 * Deterministic (the same on any host, unlike a time): the before and after of a change of the
 * house path. A desk call made inside another (takeFront's fallback to take) counts too.
 */
function callCounts(flow: Flow, prints: number): Record<string, unknown> {
  const g = flowTrades(flow);
  const rig = openRig(g);
  const { market, exchange } = rig;
  const counts: Record<string, number> = {};
  const wrap = (target: object, prefix: string, names: readonly string[]): void => {
    const t = target as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const fn = t[name];
      if (typeof fn !== 'function') continue;
      const key = `${prefix}.${name}`;
      counts[key] = 0;
      t[name] = function (this: unknown, ...args: unknown[]): unknown {
        counts[key]++;
        return fn.apply(this, args);
      };
    }
  };
  const book = exchange.pair('BTCUSDT')!.book;
  wrap(book, 'engine', [
    'placeLimit',
    'replaceOwnLevel',
    'trimOrder',
    'amend',
    'cancel',
    'levelQueue',
    'replacesOwnLevel',
    'bestBid',
    'bestAsk',
    'fokFillable',
    'headRemaining',
    'isLastInLevel',
    'orderAccount',
    'orderRemaining',
    'orderPriceTicks',
    'orderFilledLots',
  ]);
  wrap(deskOf(rig), 'desk', DESK_CALLS);
  const mirror = market.engine.mirror('BTCUSDT');
  for (const m of mirror.hist) wrap(m, 'levels', ['get', 'has', 'set', 'delete']);
  const stopAt = START + (prints < g.times.length ? g.times[prints] : g.times[g.times.length - 1] + 1);
  while (market.time < stopAt && !market.finished)
    market.seek(Math.min(market.status().until, stopAt, market.time + 60_000));
  const events = market.status().events;
  rig.close();
  const perPrint: Record<string, number> = {};
  let engineCommands = 0;
  let engineReads = 0;
  for (const [k, n] of Object.entries(counts)) {
    perPrint[k] = Math.round((n / events) * 1000) / 1000;
    if (/^engine\.(placeLimit|replaceOwnLevel|trimOrder|amend|cancel)$/.test(k)) engineCommands += n;
    else if (k.startsWith('engine.')) engineReads += n;
  }
  return {
    flow,
    events,
    engineCommands: Math.round((engineCommands / events) * 1000) / 1000,
    engineReads: Math.round((engineReads / events) * 1000) / 1000,
    perPrint,
  };
}

if (process.argv[2] === '--calls') {
  const [flow, n] = process.argv.slice(3);
  console.log(JSON.stringify(callCounts(flow as Flow, Number(n)), null, 1));
  process.exit(0);
}
if (process.argv[2] === '--digest') {
  const [flow, n, ...opts] = process.argv.slice(3);
  console.log(JSON.stringify(digest(flow as Flow, Number(n), opts.includes('levels'), opts.includes('users'))));
  process.exit(0);
}
if (process.argv[2] === '--measure') {
  // a child of noClient(): one measure, its result as the last line
  console.log(JSON.stringify(await measureHere(process.argv[3] as Measure, process.argv[4] as Flow, process.argv[5])));
  process.exit(0);
}
const FLOWS = process.env.BENCH_FLOWS?.split(',') ?? ['real', 'walk'];
if (!process.env.BENCH_NO_REAL_FLOW && FLOWS.includes('real'))
  await noClient('trades of real flow (the TRXUSDT recording repeated)', 'real');
if (FLOWS.includes('walk')) await noClient('generated trades, stress: the side drawn anew each print', 'walk');
// 300,000 prints (50 minutes of history at a print every 10 ms) are more than a bounded run steps through
if (!process.env.BENCH_NO_DEPTH) await depthBot();
if (!process.env.BENCH_NO_LOCKSTEP)
  await lockstepSection(memoryData(generate(Math.min(EVENTS, 300_000))), 'BTCUSDT', START, SECONDS);
