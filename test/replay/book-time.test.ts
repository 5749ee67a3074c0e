// An L2 replay's book is timed as history timed it (docs/binance.md, book times; docs/replay.md
// "Update ids"): the Binance dialect's depth `T`, bookTicker `time` and the depthUpdate events' `T`
// are the transaction time (T) of the last recorded diff applied, kept while the clock moves on
// without one, not the replay's current time. The recording's diffs and their times are read
// straight from the CSV files (harness.ts trxBooks), not through the importer.
import type { DatabaseSync } from 'node:sqlite';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { type HistBook, importInto, replayDataOf, TRX_DEPTH_IMPORT, trxBooks } from './harness.ts';

describe("an L2 replay's book times (Binance dialect)", () => {
  let db: DatabaseSync;
  let svc: ServiceHandle;
  let books: HistBook[];
  beforeAll(async () => {
    books = trxBooks();
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, [TRX_DEPTH_IMPORT]);
    svc = await startService({
      dataDir: ':memory:',
      rateLimit: false,
      replay: { options: { symbols: ['TRXUSDT'], start: books[2].time - 50 }, data: replayDataOf(ds), lockstep: true },
    });
  });
  afterAll(async () => {
    await svc?.close();
    db?.close();
  });

  const step = async (ms: number): Promise<number> => {
    const r = (await (
      await fetch(`${svc.url}/api/v1/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'step', ms }),
      })
    ).json()) as { data: { time: number } };
    return r.data.time;
  };
  const get = async (p: string): Promise<any> => (await fetch(`${svc.url}${p}`)).json();

  it("depth T, bookTicker time and the diffs' T are the last recorded diff's T", async () => {
    const bws = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/stream?streams=trxusdt@depth@100ms`);
    const diffs: any[] = [];
    bws.on('message', (raw) => diffs.push(JSON.parse(String(raw)).data));
    await new Promise((r) => bws.once('open', r));
    await new Promise((r) => setTimeout(r, 150));
    let checked = 0;
    // 37 ms steps: the clock mostly stops between two diffs, where T must stay the last one's
    for (let i = 0; i < 60; i++) {
      const now = await step(37);
      const last = books.filter((b) => b.time <= now).at(-1)!;
      const depth = await get('/binance/fapi/v1/depth?symbol=TRXUSDT&limit=5');
      expect(depth.lastUpdateId).toBe(last.u);
      expect(depth.T, `depth T at ${now}, last diff u ${last.u} at ${last.time}`).toBe(last.time);
      expect(depth.E).toBe(now);
      const top = await get('/binance/fapi/v1/ticker/bookTicker?symbol=TRXUSDT');
      expect(top.time).toBe(last.time);
      if (last.time < now) checked++;
      // the Binance facade pushes its diffs on its 100 ms (wall) tick
      if (i % 6 === 5) await new Promise((r) => setTimeout(r, 220));
    }
    await new Promise((r) => setTimeout(r, 220));
    bws.close();
    expect(checked).toBeGreaterThan(40);
    // the steps met a good part of the recording's diffs
    expect(books.filter((b) => b.time > books[2].time - 50 && b.time <= books[2].time + 2000).length).toBeGreaterThan(
      15,
    );
    const byU = new Map(books.map((b) => [b.u, b]));
    expect(diffs.length).toBeGreaterThan(5);
    for (const d of diffs) expect(d.T, `diff u ${d.u}`).toBe(byU.get(d.u)!.time);
  }, 30_000);
});
