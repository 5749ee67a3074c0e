// Profiling helper for the engine bench: replays the shallow stream on our engine only.
// Run: node_modules/.bin/node --cpu-prof --cpu-prof-dir=/tmp/prof bench/engine-profile.ts
import { CountingSink } from '../src-main/engine/counting-sink.ts';
import { OrderBook } from '../src-main/engine/order-book.ts';
import { Op, makeStream } from './lib/engine-stream.ts';

const s = makeStream({ seed: 42, mixed: 1_000_000 });
const runs = Number(process.argv[2] ?? 8);
for (let r = 0; r < runs; r++) {
  const book = new OrderBook({ bandPpm: 50_000, initialOrderCapacity: 1 << 16 }, new CountingSink());
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < s.length; i++) {
    const k = s.op[i];
    if (k === Op.Cancel) book.cancel(s.id[i]);
    else if (k === Op.Market) book.placeMarket(s.id[i], s.account[i], s.side[i], s.qty[i], s.price[i]);
    else book.placeLimit(s.id[i], s.account[i], s.side[i], s.price[i], s.qty[i], s.tif[i]);
  }
  const dt = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e3;
  console.log(
    `run ${r}: wall ${(s.length / dt / 1e3).toFixed(2)}M ops/s, cpu ${(s.length / cpu / 1e3).toFixed(2)}M ops/cpu-s, ${book.orderCount} resting`,
  );
}
