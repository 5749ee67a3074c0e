// Replay benchmark (not a test). Run: npm run bench:replay
// (BENCH_EVENTS=N changes the 1,000,000 historical trades; BENCH_SECONDS=N the wall-time bound.)
//
// Section 1, no client: a trades-only replay (market/replay/) of BENCH_EVENTS generated trades
// (a random walk around 50,000 on BTCUSDT's 0.1 tick and 0.001 step, a trade every 10 ms) through
// an in-memory venue: Exchange, matching engine, synthetic book, klines service (all 16 intervals),
// no client attached. Reports historical events per second (target: 1,000,000 or more) and, as a
// same-run baseline, the raw matching engine (engine/order-book.ts) applying the same prints as
// IOC takers against the same resting maker sizes, without the exchange: the ratio is the cost of
// everything the venue adds (checks, records, candles, the mirror).
// Each section is bounded by BENCH_SECONDS of wall time (default 60): it stops early and reports
// the events it applied.
// Section 2, lockstep over the WebSocket (the example bot stepping a replay service of the same
// generated trades): bench/lib/replay-lockstep.ts.
import { wireRecords } from '../src-main/api/records.ts';
import { VirtualClock } from '../src-main/core/clock.ts';
import { createBook, RecordingSink } from '../src-main/engine/index.ts';
import { KlineService } from '../src-main/market/kline-service.ts';
import type { HistTrade, ReplayData, ReplayDataset } from '../src-main/market/replay/ports.ts';
import { openReplayMarket, replaySymbolRow } from '../src-main/market/replay/replay-market.ts';
import { AccountsRepo } from '../src-main/store/accounts-repo.ts';
import { CandlesRepo } from '../src-main/store/candles-repo.ts';
import { openDatabase } from '../src-main/store/database.ts';
import { SettingsRepo } from '../src-main/store/settings-repo.ts';
import { SymbolsRepo } from '../src-main/store/symbols-repo.ts';
import { TradingRepo } from '../src-main/store/trading-repo.ts';
import { Exchange } from '../src-main/trading/exchange.ts';
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
}

/** A seeded random walk: price in 0.1 ticks, 1..500 lots of 0.001, aggressor side. */
function generate(n: number): GenTrades {
  let s = 12345;
  const rnd = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const t: GenTrades = { priceTicks: new Int32Array(n), lots: new Int32Array(n), sell: new Uint8Array(n) };
  let p = 500_000;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.15) p += 1;
    else if (r > 0.85) p -= 1;
    t.priceTicks[i] = p;
    t.lots[i] = 1 + Math.floor(rnd() * 500);
    t.sell[i] = rnd() < 0.5 ? 1 : 0;
  }
  return t;
}

/** The generated trades as the replay's data port (decimal strings as the datasets give them). */
function memoryData(g: GenTrades): ReplayData {
  const n = g.priceTicks.length;
  const ds: ReplayDataset = {
    id: 1, market: 'um', symbol: 'BTCUSDT', kind: 'trades', interval: '', firstTime: START, lastTime: START + (n - 1) * SPACING_MS,
    specs: { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] }, specsSource: 'catalogue',
  };
  return {
    datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
    depth: () => [],
    candles: () => [],
    funding: () => [],
    *trades(_id, from): Iterable<HistTrade> {
      for (let i = Math.max(0, Math.ceil((from - START) / SPACING_MS)); i < n; i++) {
        const p = g.priceTicks[i];
        const q = g.lots[i];
        yield { time: START + i * SPACING_MS, price: `${(p / 10) | 0}.${p % 10}`, qty: `${(q / 1000) | 0}.${String(q % 1000).padStart(3, '0')}`, buyerMaker: g.sell[i] === 1 };
      }
    },
  };
}

/** Events per second of a trades-only replay through an in-memory venue. */
function replayRate(g: GenTrades): { events: number; ms: number } {
  const db = openDatabase({ dataDir: ':memory:' });
  const data = memoryData(g);
  const symbols = new SymbolsRepo(db);
  symbols.insertMissing([replaySymbolRow('BTCUSDT', data.datasets('BTCUSDT')[0].specs, '50000.0', 0)], 0);
  const clock = new VirtualClock({ start: START, wall: () => 0 });
  const trading = new TradingRepo(db);
  const exchange = new Exchange({ symbols, accounts: new AccountsRepo(db), settings: new SettingsRepo(db), repo: trading, clock, records: wireRecords });
  const candles = new CandlesRepo(db);
  const { market, klines } = openReplayMarket({
    kind: 'replay', exchange, clock, candles, symbols, data, replay: { symbols: ['BTCUSDT'], start: START },
    openKlines: () => new KlineService({ candles, symbols, clock, exchange }, { tickMs: 0 }),
  });
  const until = market.status().until;
  const t0 = performance.now();
  const chunk = 60_000; // one minute of history per seek
  while (!market.finished && performance.now() - t0 < SECONDS * 1000) market.seek(Math.min(until, market.time + chunk));
  const ms = performance.now() - t0;
  const events = market.status().events;
  if (process.env.BENCH_DEBUG) console.log("book orders", exchange.pair("BTCUSDT")!.book.orderCount, market.engine.mirror("BTCUSDT").stats, market.engine.mirror("BTCUSDT").hist.map((h) => h.size));
  market.dispose();
  klines.close();
  trading.group.commitNow();
  db.close();
  return { events, ms };
}

/** The same prints as IOC takers on the raw engine, against a maker topped up to the print's size at its price. */
function engineRate(g: GenTrades): { events: number; ms: number } {
  const sink = new RecordingSink();
  const book = createBook({ symbol: 'BTCUSDT', bandPpm: 0 }, sink);
  const MAKER = 2 ** 40 + 11;
  const TAKER = 2 ** 40 + 12;
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

function noClient(): void {
  console.log(`replay, no client: ${fmtN(EVENTS)} generated trades (trades-only replay, synthetic book), bound ${SECONDS} s a run`);
  const g = generate(EVENTS);
  const base = engineRate(g);
  const baseRate = (base.events / base.ms) * 1000;
  console.log(`  baseline, raw engine (maker + IOC taker per print, no exchange): ${fmtN(base.events)} prints in ${base.ms.toFixed(0)} ms = ${fmtN(baseRate)} /s`);
  const r = replayRate(g);
  const rate = (r.events / r.ms) * 1000;
  console.log(`  replay through the venue (exchange, mirror, candles):       ${fmtN(r.events)} events in ${r.ms.toFixed(0)} ms = ${fmtN(rate)} /s`);
  console.log(`  ratio replay / raw engine: ${(rate / baseRate).toFixed(3)}   target 1,000,000 events/s: ${rate >= 1_000_000 ? 'met' : 'NOT met'}`);
}

noClient();
// 300,000 prints (50 minutes of history at a print every 10 ms) are more than a bounded run steps through
await lockstepSection(memoryData(generate(Math.min(EVENTS, 300_000))), 'BTCUSDT', START, SECONDS);
