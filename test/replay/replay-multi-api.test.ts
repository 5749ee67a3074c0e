// A two-pair replay over the API (docs/replay.md "Session"): the live service with SUSHIUSDT and
// AKROUSDT imported from the cryptofeed L2 recording (test/fixtures/binance/SOURCES.md) starts a
// replay of both; the replay venue's GET /fapi/v1/depth answers each pair's recorded book (read
// here straight from the JSON lines) at the same replay time; a pair recorded years apart is
// refused with 1001 naming both.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { FIXTURES, tempDir } from '../data/archive-fixtures.ts';
import { LASOTA } from './harness.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
const PAIRS = ['SUSHIUSDT', 'AKROUSDT'];

let live: ServiceHandle;
let dir: string;

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(base + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, text };
}

/** A pair's recorded book at time t (ms), from its snapshot and diffs, best 5 a side as [price, qty] numbers. */
function recordedTop(symbol: string, t: number): { bids: number[][]; asks: number[][] } {
  const snap = readFileSync(path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((o) => o.symbol === symbol);
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  for (const [p, q] of snap.bids) bids.set(Number(p), Number(q));
  for (const [p, q] of snap.asks) asks.set(Number(p), Number(q));
  let prev = snap.lastUpdateId as number;
  for (const line of readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n')) {
    const d = JSON.parse(line).data;
    if (d.e !== 'depthUpdate' || d.s !== symbol || d.u < prev || d.E > t) continue;
    if (!(d.pu === prev || (d.U <= prev && prev <= d.u))) throw new Error(`the ${symbol} recording breaks at ${d.u}`);
    for (const [m, rows] of [
      [bids, d.b],
      [asks, d.a],
    ] as const)
      for (const [p, q] of rows as string[][]) {
        if (Number(q) === 0) m.delete(Number(p));
        else m.set(Number(p), Number(q));
      }
    prev = d.u;
  }
  const top = (m: Map<number, number>, desc: boolean): number[][] =>
    [...m]
      .filter(([, q]) => q > 0)
      .sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0]))
      .slice(0, 5);
  return { bids: top(bids, true), asks: top(asks, false) };
}

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-multi-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  for (const [symbol, paths] of [
    ...PAIRS.map(
      (s) =>
        [s, [path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), path.join(CRYPTOFEED, 'ws_events.jsonl')]] as const,
    ),
    ['TRXUSDT', [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')]] as const,
  ]) {
    const r = await live.venue.datasets.importFiles([...paths], { market: 'um', symbol, kind: 'depth' });
    for (const x of r) if (!x.ok) throw new Error(`import failed: ${x.error}`);
  }
});

afterAll(async () => {
  await live?.replays?.closeAll();
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a replay of two pairs', () => {
  it("serves both pairs' recorded depth at the same replay time", async () => {
    const start = 1626992741265; // just after both REST snapshots (AKROUSDT 741242, SUSHIUSDT 741264)
    const started = await call(live.url, 'POST', '/api/v1/replays', { symbols: PAIRS, start, lockstep: true });
    expect(started.status, started.text).toBe(200);
    expect(started.body.data.status).toMatchObject({
      symbols: PAIRS,
      sources: { SUSHIUSDT: 'depth', AKROUSDT: 'depth' },
      time: start,
    });
    const base = started.body.data.url as string;
    const seen: Record<string, string[]> = { SUSHIUSDT: [], AKROUSDT: [] };
    for (const t of [start, start + 10_000, start + 20_000]) {
      if (t > start) {
        const r = await call(base, 'POST', '/api/v1/replay', { action: 'seek', time: t });
        expect(r.body.data.time, r.text).toBe(t);
      }
      for (const s of PAIRS) {
        const d = await call(base, 'GET', `/fapi/v1/depth?symbol=${s}&limit=5`);
        expect(d.status, d.text).toBe(200);
        const want = recordedTop(s, t);
        expect(
          d.body.data.bids.map(([p, q]: string[]) => [Number(p), Number(q)]),
          `${s} bids at ${t}`,
        ).toEqual(want.bids);
        expect(
          d.body.data.asks.map(([p, q]: string[]) => [Number(p), Number(q)]),
          `${s} asks at ${t}`,
        ).toEqual(want.asks);
        seen[s].push(JSON.stringify(d.body.data));
      }
    }
    // both books moved between the times read
    for (const s of PAIRS) expect(new Set(seen[s]).size, s).toBeGreaterThan(1);
    await call(live.url, 'DELETE', `/api/v1/replays/${started.body.data.id}`);
  });

  it("refuses a pair whose data does not overlap the others' (1001, both named)", async () => {
    const r = await call(live.url, 'POST', '/api/v1/replays', {
      symbols: ['SUSHIUSDT', 'TRXUSDT'],
      start: 1626992741265,
      until: 1744588823872,
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toMatch(/^Cannot replay: the data of SUSHIUSDT .* and TRXUSDT .* do not overlap in time$/);
    expect(live.replays!.size).toBe(0);
  });
});
