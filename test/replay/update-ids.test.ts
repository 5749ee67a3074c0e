// With L2 data a replay's book carries the recording's update ids (docs/replay.md "Update ids"):
// after each historical diff the book's id is the diff's u, the venue's own changes (a user's
// order) take the ids after it, and the native REST `id`, the `depth_update@` windows, the Binance
// dialect's `lastUpdateId` and its diff stream's U / u / pu show them. The recording's ids are
// read straight from the CSV files (harness.ts trxBooks), not through the importer.
import type { DatabaseSync } from 'node:sqlite';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import {
  type HistBook,
  importInto,
  replayDataOf,
  replayVenue,
  TRX_DEPTH_IMPORT,
  TRX_TRADES_IMPORT,
  trxBooks,
} from './harness.ts';
import { WsTestClient } from './ws-client.ts';

const UNIT = 100_000_000n;
describe('update ids of an L2 replay (venue)', () => {
  it("after every diff the book's id is the recording's u; a user's order takes the next id", async () => {
    const books = trxBooks();
    const byU = new Map(books.map((b) => [b.u, b]));
    const v = await replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
    try {
      const pair = v.exchange.pair('TRXUSDT')!;
      let checked = 0;
      for (let guard = 0; guard < 2_000 && v.market.time < books[0].time + 5_000; guard++) {
        v.market.step(20);
        const { lastUpdateId } = v.market.engine.depthState('TRXUSDT');
        if (lastUpdateId === -1) continue;
        expect(byU.has(lastUpdateId)).toBe(true);
        expect(pair.book.updateId).toBe(lastUpdateId);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
      // a user's resting order, which history never saw: its level change takes u + 1
      const acct = upsertAccount(
        v.exchange,
        { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10_000n * UNIT },
        0,
      ).id;
      const u = v.market.engine.depthState('TRXUSDT').lastUpdateId;
      const h = byU.get(u)!;
      const bestBid = Math.max(...[...h.bids.keys()].map(Number));
      const r = placeOrder(v.exchange, acct, {
        symbol: 'TRXUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        time_in_force: 1,
        price: (bestBid - 0.001).toFixed(5),
        qty: '100',
        leverage: 1,
      });
      expect(r.status).toBe(1);
      expect(pair.book.updateId).toBe(u + 1);
      // the next diff brings the id back to the recording's u
      const next = books[books.findIndex((b) => b.u === u) + 1];
      expect(next.U).toBeGreaterThan(u + 1);
      while (v.market.engine.depthState('TRXUSDT').lastUpdateId === u) v.market.step(10);
      expect(v.market.engine.depthState('TRXUSDT')).toEqual({ lastUpdateId: next.u, gaps: 0, idOverruns: 0 });
      expect(pair.book.updateId).toBe(next.u);
    } finally {
      v.close();
    }
  });
});

describe('update ids of an L2 + trades replay', () => {
  it("the prints' changes take the ids between two diffs; after each diff the id is its u again", async () => {
    const books = trxBooks();
    const idx = new Map(books.map((b, i) => [b.u, i]));
    const v = await replayVenue([TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
    try {
      const pair = v.exchange.pair('TRXUSDT')!;
      let between = 0;
      let prints = 0;
      v.exchange.events.on('trade', () => prints++);
      for (let guard = 0; guard < 5_000 && !v.market.finished; guard++) {
        v.market.step(5);
        const { lastUpdateId: u, idOverruns } = v.market.engine.depthState('TRXUSDT');
        expect(idOverruns).toBe(0);
        if (u === -1) continue;
        const i = idx.get(u)!;
        const id = pair.book.updateId;
        expect(id).toBeGreaterThanOrEqual(u);
        if (id > u) {
          between++;
          if (i + 1 < books.length) expect(id).toBeLessThan(books[i + 1].U);
        }
      }
      expect(prints).toBeGreaterThan(100);
      expect(between).toBeGreaterThan(10);
    } finally {
      v.close();
    }
  }, 60_000);
});

describe('update ids of an L2 replay (REST, /ws and the Binance dialect)', () => {
  let db: DatabaseSync;
  let svc: ServiceHandle;
  let books: HistBook[];
  let byU: Map<number, HistBook>;
  beforeAll(async () => {
    books = trxBooks();
    byU = new Map(books.map((b) => [b.u, b]));
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

  it('the REST ids and every window carry the recording ids, windows chained by pu', async () => {
    const c = new WsTestClient(svc.url);
    await c.open();
    expect((await c.send('SUBSCRIBE', ['depth_update@TRXUSDT'])).result).toBeNull();
    const bws = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/stream?streams=trxusdt@depth@100ms`);
    const bin: any[] = [];
    bws.on('message', (raw) => bin.push(JSON.parse(String(raw)).data));
    await new Promise((r) => bws.once('open', r));
    await new Promise((r) => setTimeout(r, 150));
    for (let i = 0; i < 12; i++) {
      const a = await c.send('REPLAY', { action: 'step', ms: 100 });
      expect(a.result).toBeDefined();
      // the Binance facade builds its diffs on its 100 ms (wall) tick: let one pass
      await new Promise((r) => setTimeout(r, 220));
      const native = (await (await fetch(`${svc.url}/fapi/v1/depth?symbol=TRXUSDT&with_id=true`)).json()) as any;
      const u = native.data.id;
      expect(byU.has(u), `REST id ${u}`).toBe(true);
      const binance = (await (await fetch(`${svc.url}/binance/fapi/v1/depth?symbol=TRXUSDT`)).json()) as any;
      expect(binance.lastUpdateId).toBe(u);
    }
    await c.send('REPLAY', { action: 'release' });
    await c.close();
    bws.close();
    // native windows: contiguous (U = previous u + 1), each ending at a recorded diff's u
    const windows = c.pushes.filter((p) => p.stream === 'depth_update@TRXUSDT').map((p) => p.data);
    expect(windows.length).toBeGreaterThan(8);
    for (let i = 0; i < windows.length; i++) {
      expect(byU.has(windows[i].u), `window u ${windows[i].u}`).toBe(true);
      if (i > 0) {
        expect(windows[i].pu).toBe(windows[i - 1].u);
        expect(windows[i].U).toBe(windows[i - 1].u + 1);
      }
    }
    // Binance diffs: chained by pu, u a recorded u, and a diff covering one recorded event has its U, u, pu
    expect(bin.length).toBeGreaterThan(8);
    let single = 0;
    for (let i = 0; i < bin.length; i++) {
      const h = byU.get(bin[i].u);
      expect(h, `diff u ${bin[i].u}`).toBeDefined();
      if (i > 0) expect(bin[i].pu).toBe(bin[i - 1].u);
      if (h!.pu === bin[i].pu) {
        expect(bin[i].U).toBe(h!.U);
        single++;
      }
    }
    expect(single).toBeGreaterThan(4);
  }, 30_000);
});
