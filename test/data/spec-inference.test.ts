// One rule infers a dataset's tick and step from its data (data/spec-inference.ts), and the
// catalogue and the replay both use it: a dataset imported without known specs shows in the
// catalogue the tick and step a replay of it is listed with (spot BTCUSDT 1m klines: 0.01 and
// 0.000001, where the catalogue used to show the stored decimals, 1e-8); an edit in the catalogue
// is what the replay then lists.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { inferTickStep, specsProblem } from '../../src-main/data/spec-inference.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { planSources } from '../../src-main/replay/plan.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, KLINES, LASOTA, replayDataOf, replayVenue, TRX_TRADES } from '../replay/harness.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const START = Date.UTC(2021, 4, 16);

describe('spec inference: one rule for the catalogue and the replay', () => {
  it('spot BTCUSDT klines: the catalogue shows what the replay lists, and an edit wins in both', async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    try {
      const ds = await importInto(db, [
        {
          paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')],
          opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
        },
      ]);
      const [d] = ds.list();
      expect(d.specsSource).toBe('inferred');
      expect([d.specs.tickSize, d.specs.stepSize]).toEqual(['0.01', '0.000001']);
      const [plan] = planSources(replayDataOf(ds), ['BTCUSDT'], START);
      expect([plan.specs.tickSize, plan.specs.stepSize]).toEqual([d.specs.tickSize, d.specs.stepSize]);
      ds.editSpecs(d.id, { ...d.specs, tickSize: '0.1' });
      const [edited] = planSources(replayDataOf(ds), ['BTCUSDT'], START);
      expect(edited.specs.tickSize).toBe('0.1');
    } finally {
      db.close();
    }
  });

  it('a depth recording and its trades, imported as spot (no known specs): each dataset by the rule, the replay over both', async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    try {
      const ds = await importInto(db, [
        {
          paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
          opts: { market: 'spot', symbol: 'TRXUSDT', kind: 'depth' },
        },
        { paths: [TRX_TRADES], opts: { market: 'spot', symbol: 'TRXUSDT', kind: 'trades' } },
      ]);
      const byKind = new Map(ds.list().map((d) => [d.kind, d]));
      // the recording's prices have 5 decimals ('0.25461'), its sizes none ('131.0')
      for (const kind of ['depth', 'trades'] as const) {
        const d = byKind.get(kind)!;
        expect(d.specsSource, kind).toBe('inferred');
        expect([d.specs.tickSize, d.specs.stepSize], kind).toEqual(['0.00001', '1']);
      }
      const [plan] = planSources(replayDataOf(ds), ['TRXUSDT'], 1744588804500);
      expect([plan.specs.tickSize, plan.specs.stepSize]).toEqual(['0.00001', '1']);
    } finally {
      db.close();
    }
  });
});

describe('a depth recording whose REST snapshot comes after more than 50 diffs', () => {
  // The cryptofeed CTKUSDT sample (SOURCES.md) with its snapshot moved after the 60th diff: the
  // diffs' prices have 3 decimals ('1.00600'), the snapshot's 5 (131 levels such as '0.50579').
  // Only the first 50 events were read, so the tick was 0.001 and a replay rounded those levels.
  const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
  const lines = (file: string): string[] => readFileSync(path.join(CRYPTOFEED, file), 'utf8').trim().split('\n');
  const diffLines = lines('ws_events.jsonl').filter((l) => l.includes('"stream":"ctkusdt@depth@100ms"'));
  const diffs = diffLines.map((l) => JSON.parse(l).data);
  const snap = lines('rest_depth_snapshots.jsonl')
    .map((l) => JSON.parse(l))
    .find((o) => o.symbol === 'CTKUSDT');
  // at the 61st diff's time, less 1 ms, its update id the one that diff starts at (its pu the 60th's u)
  const moved = { ...snap, T: diffs[60].T - 1, E: diffs[60].T - 1, lastUpdateId: diffs[60].U };
  const file = path.join(tempDir(), 'ws_events.jsonl');
  writeFileSync(file, [...diffLines.slice(0, 60), JSON.stringify(moved), ...diffLines.slice(60)].join('\n') + '\n');
  const decimals = (p: string): number => p.replace(/0+$/, '').split('.')[1]?.length ?? 0;

  it('the snapshot takes part in the inference: tick 0.00001, and the replayed book has its levels at their prices', async () => {
    expect(Math.max(...diffs.flatMap((d) => [...d.b, ...d.a].map(([p]: string[]) => decimals(p))))).toBe(3);
    const off = [...snap.bids, ...snap.asks].filter(([p]: string[]) => decimals(p) > 3);
    expect(off.length).toBe(131);
    expect([diffs[59].T < moved.T, moved.T < diffs[60].T]).toEqual([true, true]);
    const v = await replayVenue([{ paths: [file], opts: { market: 'um', symbol: 'CTKUSDT', kind: 'depth' } }], {
      symbols: ['CTKUSDT'],
      start: diffs[0].T,
    });
    try {
      const [d] = v.datasets.list();
      expect(d.specsSource).toBe('inferred');
      expect([d.specs.tickSize, d.specs.stepSize]).toEqual(['0.00001', '1']);
      const pair = v.exchange.pair('CTKUSDT')!;
      v.market.seek(moved.T);
      const book = pair.book.depth();
      const prices = (levels: [number, number][]): string[] => levels.map(([t]) => pair.math.formatPrice(t));
      expect(prices(book.bids)).toEqual(snap.bids.map(([p]: string[]) => p));
      expect(prices(book.asks)).toEqual(snap.asks.map(([p]: string[]) => p));
    } finally {
      v.close();
    }
  }, 60_000);

  it('the read stays bounded: it stops at that first snapshot, and reads no more than 10,000 events without one', () => {
    let pulled = 0;
    const events = (snapshotAt: number | null, total: number) =>
      function* () {
        for (let i = 0; i < total; i++) {
          pulled++;
          const snapshot = i === snapshotAt;
          yield { snapshot, bids: [[snapshot ? '1.00001' : '1.001', '1']] as [string, string][], asks: [] };
        }
      };
    const infer = (snapshotAt: number | null, total: number): string => {
      pulled = 0;
      const reader = { depth: events(snapshotAt, total), candles: () => [], trades: () => [] };
      return inferTickStep(reader, [{ id: 1, kind: 'depth', firstTime: 0 }]).tickSize;
    };
    expect([infer(60, 100_000), pulled]).toEqual(['0.00001', 61]);
    expect([infer(3, 100_000), pulled]).toEqual(['0.00001', 50]);
    expect([infer(null, 100_000), pulled]).toEqual(['0.001', 10_000]);
    // a first snapshot past the 10,000th event is not read
    expect([infer(10_000, 100_000), pulled]).toEqual(['0.001', 10_000]);
  });
});

describe('bookTicker and bookDepth datasets: specs read from their rows, always ones the venue can list', () => {
  const infer = async (name: string, csv: string): Promise<[string, string]> => {
    const db = openDatabase({ dataDir: ':memory:' });
    try {
      const file = path.join(tempDir(), name);
      writeFileSync(file, csv);
      const ds = new DatasetService(new DatasetsRepo(db));
      const [r] = await ds.importFiles([file], { market: 'cm' });
      expect(r.error).toBeNull();
      const d = ds.get(r.datasetId!);
      expect(d.specsSource).toBe('inferred');
      expect(specsProblem(d.specs.tickSize, d.specs.stepSize)).toBeNull();
      return [d.specs.tickSize, d.specs.stepSize];
    } finally {
      db.close();
    }
  };
  const TICKER = 'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time\n';

  it('bookTicker prices like 0.2540 give tick 0.0001, its sizes the step (it showed 0.00000001 for both)', async () => {
    const csv = `${TICKER}1,0.2540,131.0,0.2541,20,1736121600000,1736121600001\n2,0.2539,5,0.2542,7,1736121601000,1736121601001\n`;
    expect(await infer('TRXUSD_PERP-bookTicker-2025-01-06.csv', csv)).toEqual(['0.0001', '1']);
  });

  it('bookTicker decimals past 8 together: the step gives way', async () => {
    const csv = `${TICKER}1,0.254012,0.12345,0.254013,1,1736121600000,1736121600001\n`;
    expect(await infer('TRXUSD_PERP-bookTicker-2025-01-07.csv', csv)).toEqual(['0.000001', '0.01']);
  });

  it('bookDepth has no prices: its step from depth, its tick the finest left within 8 decimals', async () => {
    const csv = 'timestamp,percentage,depth,notional\n2025-01-06 00:00:08,-5.00,3925.207,106268219.9399\n';
    expect(await infer('BTCUSD_PERP-bookDepth-2025-01-06.csv', csv)).toEqual(['0.00001', '0.001']);
  });

  it('read beside a dataset with prices, bookDepth gives its step only: the prices keep their tick', () => {
    const reader = {
      candles: () => [
        { open: '0.2540', high: '0.2541', low: '0.2539', close: '0.2540', volume: '12', takerBuyVolume: '3' },
      ],
      trades: () => [],
      depth: () => [],
      eventData: () => ['-5.00,3925.2,106268219.9399'],
    };
    const datasets = [
      { id: 1, kind: 'klines', firstTime: 0 },
      { id: 2, kind: 'bookDepth', firstTime: 0 },
    ];
    // bookDepth alone would give tick 0.0000001 (the finest its 0.1 step leaves)
    expect(inferTickStep(reader, datasets)).toEqual({ tickSize: '0.0001', stepSize: '0.1' });
    expect(inferTickStep(reader, [datasets[1]])).toEqual({ tickSize: '0.0000001', stepSize: '0.1' });
  });
});

describe('specs the venue cannot count: refused by the specs edit, as by a replay', () => {
  it('a tick or step with more digits than a safe integer is refused naming it, the specs unchanged', async () => {
    // (PUT /api/v1/datasets/{id}/specs took tick_size "1" and 29 zeros, and a replay of the pair
    // then answered 1001 `Cannot replay: step has too many digits`, naming no field)
    const db = openDatabase({ dataDir: ':memory:' });
    try {
      const file = path.join(tempDir(), 'BTCUSDT-1m-2021-05-16.csv');
      writeFileSync(file, readFileSync(path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')));
      const ds = new DatasetService(new DatasetsRepo(db));
      const [r] = await ds.importFiles([file], { market: 'um' });
      const before = ds.get(r.datasetId!).specs;
      const big = '1' + '0'.repeat(29);
      expect(() => ds.editSpecs(r.datasetId!, { ...before, tickSize: big, stepSize: '0.001' })).toThrow(
        `tick_size ${big} has too many digits: a tick or step is counted exactly only up to 9007199254740991 ` +
          'units of its last decimal (trailing decimal zeros left out)',
      );
      expect(() => ds.editSpecs(r.datasetId!, { ...before, tickSize: '0.1', stepSize: '9007199254740992' })).toThrow(
        'step_size 9007199254740992 has too many digits',
      );
      expect(ds.get(r.datasetId!).specs).toEqual(before);
      // the largest it counts, and trailing decimal zeros not counted
      expect(specsProblem('9007199254740991', '1')).toBeNull();
      expect(specsProblem('0.10', '1.000')).toBeNull();
    } finally {
      db.close();
    }
  });
});
