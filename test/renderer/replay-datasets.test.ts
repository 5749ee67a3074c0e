// The Replay dialog's choice of the dataset a pair reads, and the chart interval a replay's screen
// opens on (docs/replay.md "Choosing the datasets", docs/trading-screen.md "Replay").
import { describe, expect, it } from 'vitest';
import type { DatasetView } from '../../src-renderer/src/features/data/data-view.ts';
import {
  automaticLabel,
  automaticPick,
  booklessNote,
  candidateLabel,
  mainCandidates,
  optionLabel,
  pickedCoverage,
  replayChartInterval,
} from '../../src-renderer/src/features/replay/replay-datasets.ts';
import {
  checkReplayForm,
  replayableSymbols,
  type ReplayForm,
} from '../../src-renderer/src/features/replay/replay-view.ts';

const T = (s: string): number => Date.parse(s);

function ds(over: Partial<DatasetView>): DatasetView {
  return {
    id: 1,
    market: 'um',
    symbol: 'BTCUSDT',
    kind: 'klines',
    interval: '1m',
    first_time: T('2025-01-06T00:00:00Z'),
    last_time: T('2025-01-12T23:59:00Z'),
    rows: 10_080,
    files: 7,
    gaps: [],
    specs: { tick_size: '0.1', step_size: '0.001', tiers: [], source: 'catalogue' },
    first_snapshot_time: null,
    ...over,
  };
}

// USD-M 1m and spot 15m candles of one week, a USD-M mark dataset, a monthly dataset, an empty one,
// 2021 spot 1h candles, and ETHUSDT's one dataset
const UM_1M = ds({ id: 1 });
const SPOT_15M = ds({ id: 2, market: 'spot', interval: '15m', last_time: T('2025-01-12T23:45:00Z'), rows: 672 });
const MARK = ds({ id: 3, kind: 'markPriceKlines' });
const MONTHLY = ds({
  id: 4,
  interval: '1M',
  first_time: T('2025-01-01T00:00:00Z'),
  last_time: T('2025-01-01T00:00:00Z'),
  rows: 1,
});
const EMPTY = ds({ id: 5, market: 'spot', interval: '1h', first_time: null, last_time: null, rows: 0 });
const OLD_1H = ds({
  id: 6,
  market: 'spot',
  interval: '1h',
  first_time: T('2021-05-16T00:00:00Z'),
  last_time: T('2021-05-18T23:00:00Z'),
  rows: 72,
});
const AGG = ds({
  id: 7,
  kind: 'aggTrades',
  interval: '',
  first_time: T('2025-01-06T00:00:00Z'),
  last_time: T('2025-01-06T23:59:59Z'),
});
const ETH = ds({ id: 8, symbol: 'ETHUSDT' });
const DATA = [UM_1M, SPOT_15M, MARK, MONTHLY, EMPTY, OLD_1H, AGG, ETH];

const form = (over: Partial<ReplayForm>): ReplayForm => ({
  symbols: ['BTCUSDT'],
  start: '2025-01-06 00:00',
  end: '',
  speed: '60',
  balance: '10000',
  queueModel: 'probabilistic',
  ...over,
});

describe('the datasets a pair can be replayed from', () => {
  it('are its depth, trades and klines datasets with rows, richest first, then USD-M, the finest, the earliest', () => {
    expect(mainCandidates(DATA, 'BTCUSDT').map((d) => d.id)).toEqual([AGG.id, UM_1M.id, SPOT_15M.id, OLD_1H.id]);
    expect(mainCandidates(DATA, 'ETHUSDT').map((d) => d.id)).toEqual([ETH.id]);
  });

  it('are listed with market, kind, interval, span and id', () => {
    expect(candidateLabel(SPOT_15M)).toBe('Spot klines 15m · 2025-01-06 00:00 → 2025-01-13 00:00 · #2');
    expect(candidateLabel(AGG)).toBe('USD-M aggTrades · 2025-01-06 00:00 → 2025-01-06 23:59:59 · #7');
  });

  it("a chosen one is the pair's coverage and what it is made of; the form sends it", () => {
    const all = replayableSymbols(DATA);
    const btc = all.find((c) => c.symbol === 'BTCUSDT')!;
    // every dataset together: two pieces, and all kinds
    expect(btc.pieces).toHaveLength(2);
    expect(btc.sources).toEqual(['trades', 'klines']);
    const picked = pickedCoverage(all, DATA, { BTCUSDT: OLD_1H.id });
    expect(picked.find((c) => c.symbol === 'BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      first: T('2021-05-16T00:00:00Z'),
      end: T('2021-05-19T00:00:00Z'),
      sources: ['klines'],
      pieces: [{ first: T('2021-05-16T00:00:00Z'), end: T('2021-05-19T00:00:00Z') }],
    });
    // the chosen dataset's own holes (its gaps) are the pair's
    const holed = {
      ...OLD_1H,
      gaps: [
        { start_time: T('2021-05-17T05:00:00Z'), end_time: T('2021-05-17T07:00:00Z'), detail: '2 1h candles missing' },
      ],
    };
    expect(
      pickedCoverage(all, [...DATA.filter((d) => d.id !== OLD_1H.id), holed], { BTCUSDT: OLD_1H.id })[0].pieces,
    ).toEqual([
      { first: T('2021-05-16T00:00:00Z'), end: T('2021-05-17T05:00:00Z') },
      { first: T('2021-05-17T07:00:00Z'), end: T('2021-05-19T00:00:00Z') },
    ]);
    // a start in 2025 is outside the chosen data, and said so before anything is sent
    const c = checkReplayForm(form({ datasets: { BTCUSDT: OLD_1H.id } }), picked);
    expect(c.ok).toBe(false);
    if (!c.ok)
      expect(c.errors.start).toMatch(
        /^Start is outside the data: it must be from 2021-05-16 00:00 to before 2021-05-19 00:00/,
      );
    const ok = checkReplayForm(
      form({ datasets: { BTCUSDT: SPOT_15M.id } }),
      pickedCoverage(all, DATA, { BTCUSDT: SPOT_15M.id }),
    );
    expect(ok.ok && ok.request).toMatchObject({ datasets: [SPOT_15M.id], until: T('2025-01-13T00:00:00Z') });
    // no choice: no datasets sent; a choice of a pair no longer picked is not sent either
    const auto = checkReplayForm(form({}), all);
    expect(auto.ok && 'datasets' in auto.request).toBe(false);
    const other = checkReplayForm(form({ datasets: { ETHUSDT: ETH.id } }), all);
    expect(other.ok && 'datasets' in other.request).toBe(false);
  });

  it('a pick that is no candidate of the pair changes nothing', () => {
    const all = replayableSymbols(DATA);
    expect(pickedCoverage(all, DATA, { BTCUSDT: MARK.id })).toEqual(all);
    expect(pickedCoverage(all, DATA, { BTCUSDT: ETH.id })).toEqual(all);
  });
});

describe("the Automatic option names the dataset the venue's plan reads (src-shared/replay-pick.ts)", () => {
  it('the richest kind covering the span, then USD-M, then the finest; another span, another pick', () => {
    // aggTrades on the 6th: trades are richer than candles
    expect(automaticPick(DATA, 'BTCUSDT', T('2025-01-06T01:00:00Z'))?.id).toBe(AGG.id);
    // ... where they reach the start: before and after their day the candles there (not the trades,
    // which the venue refused to start before or after)
    expect(automaticPick(DATA, 'BTCUSDT', T('2021-05-16T00:00:00Z'))?.id).toBe(OLD_1H.id);
    expect(automaticPick(DATA, 'BTCUSDT', T('2025-01-08T00:00:00Z'))?.id).toBe(UM_1M.id);
    // after the trades: the USD-M 1m candles (covering), never the monthly or the empty one
    const klines = [UM_1M, SPOT_15M, MONTHLY, EMPTY, OLD_1H];
    expect(automaticPick(klines, 'BTCUSDT', T('2025-01-08T00:00:00Z'))?.id).toBe(UM_1M.id);
    // 2021: the one dataset covering it, spot 1h
    expect(automaticPick(klines, 'BTCUSDT', T('2021-05-16T00:00:00Z'), T('2021-05-17T00:00:00Z'))?.id).toBe(OLD_1H.id);
    expect(automaticLabel(automaticPick(klines, 'BTCUSDT', T('2025-01-08T00:00:00Z')))).toBe(
      `Automatic (${candidateLabel(UM_1M)})`,
    );
    expect(automaticPick([ETH], 'BTCUSDT', T('2025-01-08T00:00:00Z'))).toBeNull();
    expect(automaticLabel(null)).toBe("Automatic (the venue's pick: the richest data covering the span)");
  });
});

describe('the chart interval of a replay', () => {
  const status = (interval: string, source: 'klines' | 'trades' = 'klines') => ({
    sources: { BTCUSDT: source },
    datasets: {
      BTCUSDT: [
        { role: source, id: 2, market: 'spot' as const, kind: source, interval },
        { role: 'mark' as const, id: 3, market: 'um' as const, kind: 'markPriceKlines', interval: '4h' },
      ],
    },
  });

  it("opens on the candles' interval when the chart's is finer", () => {
    expect(replayChartInterval(status('15m'), 'BTCUSDT', '1m')).toBe('15m');
    expect(replayChartInterval(status('1h'), 'BTCUSDT', '5m')).toBe('1h');
  });

  it('keeps the chart interval otherwise', () => {
    expect(replayChartInterval(status('1m'), 'BTCUSDT', '1m')).toBeNull();
    expect(replayChartInterval(status('15m'), 'BTCUSDT', '1h')).toBeNull();
    expect(replayChartInterval(status('15m'), 'BTCUSDT', '15m')).toBeNull();
    // a trades replay builds every interval from its prints (the mark's 4h candles are no source)
    expect(replayChartInterval(status('', 'trades'), 'BTCUSDT', '1m')).toBeNull();
    expect(replayChartInterval(status('15m'), 'ETHUSDT', '1m')).toBeNull();
  });
});

describe('a depth dataset without a book snapshot (the spot TRXUSDT recording of 2025-03-04)', () => {
  // the fixtures' two recordings as `GET /api/v1/datasets` lists them: the spot one a diff stream
  // alone, the USD-M one with its REST snapshot at its first event
  const TRX = { symbol: 'TRXUSDT', interval: '', specs: { ...UM_1M.specs, source: 'inferred' as const } };
  const SPOT_DEPTH = ds({
    ...TRX,
    id: 4,
    market: 'spot',
    kind: 'depth',
    first_time: T('2025-03-04T00:00:00.562Z'),
    last_time: T('2025-03-04T00:00:02.162Z'),
    rows: 12,
  });
  const SPOT_TRADES = ds({
    ...TRX,
    id: 5,
    market: 'spot',
    kind: 'trades',
    first_time: T('2025-03-04T00:00:01.271Z'),
    last_time: T('2025-03-04T00:00:11.750Z'),
    rows: 25,
  });
  const UM_DEPTH = ds({
    ...TRX,
    id: 6,
    kind: 'depth',
    first_time: T('2025-04-14T00:00:00.061Z'),
    last_time: T('2025-04-14T00:00:23.871Z'),
    first_snapshot_time: T('2025-04-14T00:00:00.061Z'),
    rows: 156,
  });
  const all = [SPOT_DEPTH, SPOT_TRADES, UM_DEPTH];
  const start = T('2025-03-04T00:00:00Z');

  it('Automatic names it as refused, and a note says why and what to choose instead', () => {
    const auto = automaticPick(all, 'TRXUSDT', start);
    expect(auto?.id).toBe(4);
    expect(automaticLabel(auto)).toBe(
      'Automatic (Spot depth · 2025-03-04 00:00:00.562 → 2025-03-04 00:00:02.162 · #4 · no book snapshot, refused)',
    );
    expect(booklessNote(all, 'TRXUSDT', {}, start)).toBe(
      'Automatic reads TRXUSDT from Spot depth #4, which holds no order book snapshot up to 2025-03-04 00:00:02.162: ' +
        'its diffs alone cannot build the book, so the venue refuses it. Choose Spot trades · ' +
        '2025-03-04 00:00:01.271 → 2025-03-04 00:00:11.750 · #5 in TRXUSDT data instead.',
    );
    // chosen by hand: said too; the trades chosen: nothing to say
    expect(booklessNote(all, 'TRXUSDT', { TRXUSDT: 4 }, start)).toMatch(/^TRXUSDT is set to Spot depth #4, which/);
    expect(booklessNote(all, 'TRXUSDT', { TRXUSDT: 5 }, start)).toBeNull();
    expect(optionLabel(SPOT_DEPTH)).toMatch(/#4 · no book snapshot, refused$/);
    expect(optionLabel(SPOT_TRADES)).toBe(candidateLabel(SPOT_TRADES));
  });

  it('a recording with its snapshot is offered as it was; one whose snapshot comes after the span is refused', () => {
    const at = T('2025-04-14T00:00:00Z');
    expect(automaticPick(all, 'TRXUSDT', at)?.id).toBe(6);
    expect(booklessNote(all, 'TRXUSDT', {}, at)).toBeNull();
    expect(optionLabel(UM_DEPTH)).toBe(candidateLabel(UM_DEPTH));
    // the venue checks a snapshot at or before the end of the span played
    const late = { ...UM_DEPTH, first_snapshot_time: T('2025-04-14T00:00:10Z') };
    expect(booklessNote([late], 'TRXUSDT', {}, at, T('2025-04-14T00:00:05Z'))).toMatch(
      /^Automatic reads TRXUSDT from USD-M depth #6, which holds no order book snapshot up to 2025-04-14 00:00:05: .* Import a REST snapshot/,
    );
    expect(booklessNote([late], 'TRXUSDT', {}, at)).toBeNull();
  });
});
