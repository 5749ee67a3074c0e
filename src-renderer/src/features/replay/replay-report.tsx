// The session report of a replay (a bottom tab on a replay venue): per account the fills,
// realized and unrealized PnL, fees, funding, max drawdown and time in market, the equity curve
// (a lightweight-charts line, owned outside React by a small class) and the CSV / JSON
// downloads of GET /api/v1/replay/report. Refreshed every 2 s while the tab is open, since the
// figures move with the replay.
import { useEffect, useRef, useState } from 'react';
import {
  ColorType,
  createChart,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { fmtPct, fmtSigned, fmtUsd } from '../../lib/format.ts';
import { poll } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { CHART_COLORS, chartFontSize, hideChartInternals } from '../chart/chart-style.ts';
import { equitySeries, fmtDuration, reportUrl, type ReplayReportView } from './replay-view.ts';

/** Least px between two curve points: 10,000 (the report's thinning bound) fit in 100 px. */
const MIN_POINT_SPACING = 0.01;

class EquityChart {
  private readonly chart: IChartApi;
  private readonly series: ISeriesApi<'Line'>;
  private readonly raw: ISeriesApi<'Line'>;
  private points = 0;

  constructor(container: HTMLElement) {
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: CHART_COLORS.background },
        textColor: CHART_COLORS.text,
        fontSize: chartFontSize(),
        attributionLogo: false,
      },
      grid: { vertLines: { color: CHART_COLORS.grid }, horzLines: { color: CHART_COLORS.grid } },
      // the whole session fits: the default least spacing (0.5 px a point) fits ~1,500 points in
      // the tab, so a 3-day replay (4,320 grid points) showed its last day only, flat after the
      // trades, and the drawdown out of view (a curve is thinned past 10,000 points)
      timeScale: {
        timeVisible: true,
        // a mark between two minutes reads its seconds: a session of seconds (an L2 recording of
        // 24 s) had every time label read "00:00"; marks on whole minutes, hours and days read
        // as before
        secondsVisible: true,
        borderColor: CHART_COLORS.border,
        minBarSpacing: MIN_POINT_SPACING,
        // the session's edges are the chart's: no scrolling past them, and with them fixed the
        // chart moves the first and last time labels inside (centred on the first point, the
        // start day's label lost its left half)
        fixLeftEdge: true,
        fixRightEdge: true,
      },
      rightPriceScale: { borderColor: CHART_COLORS.border },
    });
    hideChartInternals(container);
    // the equity with its cash moves, faint and dashed under the net line (only when cash moved)
    this.raw = this.chart.addSeries(LineSeries, {
      color: CHART_COLORS.text,
      lineWidth: 1,
      lineStyle: 2,
      priceLineVisible: false,
      lastValueVisible: false,
    });
    this.series = this.chart.addSeries(LineSeries, { color: '#a78bfa', lineWidth: 2, priceLineVisible: false });
  }

  /** Draws the report's curves; answers the net points drawn and whether the raw equity shows. */
  setData(report: ReplayReportView): { points: number; raw: boolean } {
    const { net, equity } = equitySeries(report);
    this.series.setData(net.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    this.raw.setData((equity ?? []).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    if (net.length !== this.points) this.chart.timeScale().fitContent();
    this.points = net.length;
    return { points: net.length, raw: equity !== null };
  }

  /** How many of the points the time scale shows (all of them once fitted). */
  shown(): number {
    const r = this.chart.timeScale().getVisibleLogicalRange();
    if (r === null) return 0;
    return Math.max(0, Math.min(this.points - 1, Math.floor(r.to)) - Math.max(0, Math.ceil(r.from)) + 1);
  }

  dispose(): void {
    this.chart.remove();
  }
}

export function ReplayReport() {
  const s = useServices();
  const report = useSel(s.replay, (r) => r.report);
  const error = useSel(s.replay, (r) => r.reportError);
  // the JSON download named as the service names the CSV (replay-<pairs>-<table>.csv), not 'report'
  const pairs = useSel(s.replay, (r) => r.status?.symbols.join('-') ?? '');
  // the screen's own account (known from its positions or orders); a replay with bots holds several
  const fromPositions = useSel(s.positions, (x) => x.positions[0]?.user_id);
  const fromOrders = useSel(s.orders, (x) => x.orders[0]?.user_id);
  const me = fromPositions ?? (fromOrders !== undefined ? Number(fromOrders) : NaN);
  const [picked, setPicked] = useState<number | null>(null);
  useEffect(() => poll(() => s.replay.getState().actions.loadReport(), 2000), [s]);
  const mine = report?.find((r) => r.user_id === (picked ?? me)) ?? report?.[0] ?? null;
  const base = s.api.baseUrl;
  return (
    <div className="replay-report" data-testid="replay-report">
      <div className="rr-figures">
        {error && (
          <p className="down small" role="alert">
            {error}
          </p>
        )}
        {mine === null ? (
          !error && <p className="muted small">Loading…</p>
        ) : (
          <dl className="rr-grid">
            {report && report.length > 1 && (
              <div className="rr-fig rr-account">
                <dt>Account</dt>
                <dd>
                  <select
                    aria-label="Report account"
                    value={mine.user_id}
                    onChange={(e) => setPicked(Number(e.target.value))}
                  >
                    {report.map((r) => (
                      <option key={r.user_id} value={r.user_id}>
                        #{r.user_id}
                      </option>
                    ))}
                  </select>
                </dd>
              </div>
            )}
            <Fig label="Net PnL" id="net" value={fmtSigned(mine.net_pnl, 2)} tone={Number(mine.net_pnl)} />
            <Fig label="Equity" id="equity" value={fmtUsd(mine.equity)} />
            <Fig label="Fills" id="fills" value={String(mine.fills)} />
            <Fig label="Volume" id="volume" value={fmtUsd(mine.volume)} />
            <Fig
              label="Realized PnL"
              id="realized"
              value={fmtSigned(mine.realized_pnl, 2)}
              tone={Number(mine.realized_pnl)}
            />
            <Fig
              label="Unrealized PnL"
              id="unrealized"
              value={fmtSigned(mine.unrealized_pnl, 2)}
              tone={Number(mine.unrealized_pnl)}
            />
            <Fig label="Fees" id="fees" value={fmtUsd(mine.fees)} />
            <Fig label="Funding" id="funding" value={fmtSigned(mine.funding, 2)} tone={Number(mine.funding)} />
            <Fig
              label="Max drawdown"
              id="drawdown"
              value={`${fmtUsd(mine.max_drawdown)} (${fmtPct(mine.max_drawdown_ratio)})`}
            />
            <Fig
              label="Time in market"
              id="time-in-market"
              value={`${fmtDuration(mine.time_in_market_ms)} (${fmtPct(mine.time_in_market_ratio, 0)})`}
            />
            {mine.liquidations > 0 && (
              <Fig label="Liquidations" id="liquidations" value={String(mine.liquidations)} tone={-1} />
            )}
          </dl>
        )}
        <div className="rr-links">
          <a href={reportUrl(base, 'csv')} download data-testid="replay-report-csv">
            Download CSV
          </a>
          <a
            href={reportUrl(base, 'json')}
            download={pairs === '' ? 'replay-report.json' : `replay-${pairs}-report.json`}
            data-testid="replay-report-json"
          >
            Download JSON
          </a>
        </div>
      </div>
      <EquityCurve report={mine} />
    </div>
  );
}

function Fig({ label, id, value, tone }: { label: string; id: string; value: string; tone?: number }) {
  const cls = tone === undefined || !Number.isFinite(tone) || tone === 0 ? '' : tone > 0 ? 'up' : 'down';
  return (
    <div className="rr-fig">
      <dt>{label}</dt>
      <dd data-testid={`report-${id}`} className={cls}>
        {value}
      </dd>
    </div>
  );
}

function EquityCurve({ report }: { report: ReplayReportView | null }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EquityChart | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const [cash, setCash] = useState(false);
  useEffect(() => {
    if (!box.current) return;
    const c = new EquityChart(box.current);
    chart.current = c;
    return () => {
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    if (!chart.current || !report) return;
    const { points, raw } = chart.current.setData(report);
    wrap.current?.setAttribute('data-points', String(points));
    setCash(raw);
    // read once the chart has laid the fitted range out
    const c = chart.current;
    const frame = requestAnimationFrame(() => wrap.current?.setAttribute('data-shown', String(c.shown())));
    return () => cancelAnimationFrame(frame);
  }, [report]);
  return (
    <div className="rr-equity" ref={wrap} data-testid="replay-equity" data-points="" data-shown="">
      <div
        className="rr-equity-title muted small"
        title="Equity less the USDT deposited, withdrawn or set by a reset since the account entered the report: the curve max drawdown is measured on"
      >
        {cash ? 'Net equity (USDT), cash moves left out; dashed: equity' : 'Equity (USDT)'}
      </div>
      <div className="rr-equity-canvas" ref={box} />
    </div>
  );
}
