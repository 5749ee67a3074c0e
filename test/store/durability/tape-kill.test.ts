// The simulated market's public tape, trade ids and book update ids across a SIGTERM and a
// kill -9 of a real service process on one data folder: a clean stop keeps the whole tape and the
// ids go on from the last one; a kill keeps the tape up to the last market checkpoint (once a
// second), and no trade id or update id seen before the kill is handed out again or gone below.
// The market restarts where its last written second left it: no hole of seconds without trades.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kill9, plain, startService, type Service } from './service-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-tape-kill-'));
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await kill9(s);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Trade {
  id: string;
  price: string;
  qty: string;
  time: number;
}

async function start(): Promise<Service> {
  const s = await startService(['--data-dir', dataDir, '--seed', '5'], { timeoutMs: 180_000 });
  services.push(s);
  return s;
}

async function tape(s: Service): Promise<Trade[]> {
  const r = await plain(s.url, 'GET', '/fapi/v1/trades?symbol=BTCUSDT&limit=1000');
  return (r.data as Trade[]).map((t) => ({ id: t.id, price: t.price, qty: t.qty, time: t.time }));
}

async function bookId(s: Service): Promise<number> {
  const r = await plain(s.url, 'GET', '/fapi/v1/depth?symbol=BTCUSDT&with_id=true&limit=5');
  return Number(r.data.id);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tape once it holds more than `n` trades (the market's pace varies with the host's load), at most 60 s on. */
async function tapeOver(s: Service, n: number): Promise<Trade[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const t = await tape(s);
    if (t.length > n || Date.now() > until) return t;
    await sleep(250);
  }
}

function stop(s: Service): Promise<void> {
  return new Promise((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
  });
}

/** The largest step between consecutive trade ids of a tape (newest first). */
function largestStep(t: Trade[]): number {
  let most = 0;
  for (let i = 1; i < t.length; i++) most = Math.max(most, Number(t[i - 1].id) - Number(t[i].id));
  return most;
}

describe('the public tape across a stop and a kill -9', () => {
  it('keeps the tape and continues trade and update ids', { timeout: 600_000 }, async () => {
    let s = await start();
    const before = await tapeOver(s, 20);
    const idBefore = await bookId(s);
    expect(before.length).toBeGreaterThan(20);
    await stop(s);

    // a clean stop: every trade seen is still on the tape, and the ids go on without a jump (trade
    // ids are the venue's, so one pair's rise by the other pairs' trades in between: a few)
    s = await start();
    let after = await tapeOver(s, before.length);
    const byId = new Map(after.map((t) => [t.id, t]));
    for (const t of before) expect(byId.get(t.id)).toEqual(t);
    expect(after.length).toBeGreaterThan(before.length);
    expect(largestStep(after)).toBeLessThan(1_000);
    expect(await bookId(s)).toBeGreaterThan(idBefore);

    // a kill -9 a few seconds later
    await tapeOver(s, after.length + 10);
    await sleep(5_000);
    const seenTape = await tape(s);
    const idBeforeKill = await bookId(s);
    await kill9(s);
    s = await start();
    const newestSeen = Number(seenTape[0].id);
    await tapeOver(s, 0); // the market has started again
    await sleep(3_000); // and run a few seconds
    after = await tape(s);
    const survived = after.filter((t) => Number(t.id) <= newestSeen);
    const fresh = after.filter((t) => Number(t.id) > newestSeen);
    // what survived is what was seen, trade for trade, up to the last checkpoint before the kill
    const seen = new Map(seenTape.map((t) => [t.id, t]));
    for (const t of survived) expect(t).toEqual(seen.get(t.id));
    // the checkpoint is once a second: every trade seen 2.5 s (of market time, at speed 1) or more
    // before the newest one seen was written, with room for a loaded host
    const old = seenTape.filter((t) => t.time <= seenTape[0].time - 2_500);
    expect(old.length).toBeGreaterThan(10);
    for (const t of old) expect(survived.map((x) => x.id)).toContain(t.id);
    // the trades since have ids above every id seen (a gap of at most a trade id block, never a
    // repeat), times not before the kept ones, and the book's id is above every id seen
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length + survived.length).toBe(after.length);
    expect(largestStep(after)).toBeLessThan(20_000);
    expect(fresh.at(-1)!.time).toBeGreaterThanOrEqual(survived[0].time);
    expect(await bookId(s)).toBeGreaterThan(idBeforeKill);
    // the market went on from the last second written: no hole of seconds without trades around
    // the restart (the clock stood still while the service started, so no span was skipped); at
    // BTCUSDT's few trades a second one quiet second happens, three in a row hardly ever
    const seconds = (await plain(s.url, 'GET', '/fapi/v1/klines?symbol=BTCUSDT&interval=1s&limit=15')) as unknown[][];
    const closed = seconds.slice(1).filter((k) => (k[0] as number) >= survived[0].time - 2_000);
    expect(closed.length).toBeGreaterThan(2);
    let quiet = 0;
    for (const k of closed) {
      quiet = (k[8] as number) > 0 ? 0 : quiet + 1;
      expect(quiet, `1s candles without trades up to ${k[0]}`).toBeLessThan(3);
    }
    await stop(s);
  });
});
