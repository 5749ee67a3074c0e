// The chart panel: the interval bar (every interval of the spec), the OHLC / volume legend of
// the bar under the crosshair, and the chart itself, which ChartModel owns outside React.
// Price lines (price-lines.ts): the current pair's position entry, liquidation, take-profit and
// stop-loss, and its open orders. An order's line (one order alone at its price) can be dragged to a new
// price, which modifies the order (line-drag.ts, move-order.ts); so can the take-profit's and the
// stop-loss' lines, which move that trigger (move-trigger.ts). A double-click on an order's line
// opens its Modify dialog, on a trigger's the position's TP/SL dialog. The pair's waiting price
// alerts have lines too, dragged to move the alert, double-clicked to show the Alerts tab. A waiting
// stop (a conditional order) alone at its trigger is a dashed line there, dragged to a new trigger (the venue's
// modify in place, move-stop.ts; not a trailing stop's, whose trigger follows the price) and
// double-clicked to open its Modify dialog over the Stops tab. The "+"
// at the crosshair puts its price in the order form, the bell beside it sets an alert there
// (price-pick.ts). Over the candles, the trader's indicators (the Indicators dialog, key I), the
// account's fills (fill-layer.ts, chart-fills.ts) and the pair's drawings (the tools at the left
// edge, drawing-layer.ts). The price scale (linear or log) is switched in the chart's bottom-right
// corner (scale-switch.tsx).
import { useEffect, useMemo, useRef, useState } from 'react';
import { INTERVALS, type Interval } from '../../../../src-shared/intervals.ts';
import { fmt, fmtPct } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { moveOrder } from '../orders/move-order.ts';
import { moveTrigger, type TriggerKind } from '../positions/move-trigger.ts';
import { moveStop } from '../stops/move-stop.ts';
import { alertAt, moveAlertTo } from '../alerts/alert-actions.ts';
import type { Services } from '../../lib/services.ts';
import { ChartFeed, idleFeedState } from './chart-feed.ts';
import { ChartModel, type LegendBar } from './chart-model.ts';
import { hideChartInternals } from './chart-style.ts';
import { ChartVoice, chartKey, chartSummary } from './chart-keys.ts';
import { legendTime, legendVolume } from './legend-figures.ts';
import { DrawingTools } from './drawing-tools.tsx';
import { ScaleSwitch } from './scale-switch.tsx';
import { useChartFills } from './chart-fills.ts';
import { ALERT_LINE, ORDER_LINE, priceLines, STOP_LINE, type PriceLineSpec } from './price-lines.ts';
import type { Drawing, DrawingKind } from './drawings.ts';
import { PositionSide, Side, SymbolStatus } from '../../../../src-shared/enums.ts';
import { tabStop, tablistKeys } from '../../layout/tablist-keys.ts';
import './chart.css';

/** Shortcut keys 1-9 pick these intervals. */
export const HOTKEY_INTERVALS: readonly Interval[] = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1M', '1s'];

/** The price of the selected drawing when it is a horizontal line, on the pair's decimals; else null. */
function hlineAt(drawings: readonly Drawing[], id: string | null, pd: number): string | null {
  const d = drawings.find((x) => x.id === id);
  return d?.kind === 'hline' ? d.price.toFixed(pd) : null;
}

/** A trigger's line id, `tp:<symbol>:<side>` or `sl:<symbol>:<side>` as usePriceLines names them, read back. */
function triggerLine(id: string): { kind: TriggerKind; symbol: string; side: PositionSide } | null {
  const [kind, symbol, side] = id.split(':');
  return kind === 'tp' || kind === 'sl' ? { kind, symbol, side: Number(side) as PositionSide } : null;
}

/** A movable line dropped at `price`: its order or stop modified, its position's trigger or its alert moved. */
function moveLine(s: Services, id: string, price: string): Promise<void> {
  if (id.startsWith(ORDER_LINE)) return moveOrder(s, id.slice(ORDER_LINE.length), price);
  if (id.startsWith(STOP_LINE)) return moveStop(s, id.slice(STOP_LINE.length), price);
  if (id.startsWith(ALERT_LINE)) return moveAlertTo(s, id.slice(ALERT_LINE.length), price);
  const t = triggerLine(id);
  if (t === null) return Promise.reject(new Error(`not a movable line: ${id}`));
  return moveTrigger(s, t.kind, t, price);
}

/** A movable line double-clicked: an order's or a stop's opens its Modify dialog, a trigger's its position's TP/SL dialog, an alert's the Alerts tab. */
function openLine(s: Services, id: string): void {
  const ws = s.workspace.getState().actions;
  if (id.startsWith(ALERT_LINE)) {
    ws.setTab('alerts');
    return;
  }
  if (id.startsWith(STOP_LINE)) {
    const stop = s.stopOrders.getState().stops.find((c) => c.id === id.slice(STOP_LINE.length));
    if (stop !== undefined) ws.openStopAmend(stop);
    return;
  }
  if (id.startsWith(ORDER_LINE)) {
    const order = s.orders.getState().orders.find((o) => o.id === id.slice(ORDER_LINE.length));
    if (order !== undefined) ws.openAmend(order);
    return;
  }
  const t = triggerLine(id);
  const p = t && s.positions.getState().positions.find((x) => x.symbol === t.symbol && x.position_side === t.side);
  if (p) ws.openTpSl(p);
}

export function ChartPanel() {
  const s = useServices();
  const { symbol, entry, pd, qd } = useSymbolView();
  const interval = useSel(s.workspace, (w) => w.interval);
  const box = useRef<HTMLDivElement>(null);
  const [parts, setParts] = useState<{ model: ChartModel; feed: ChartFeed } | null>(null);
  const [legend, setLegend] = useState<LegendBar | null>(null);
  // the market's year (a replay's is its own): a candle of another year has it in the legend
  const year = useSel(s.clock, (c) => new Date(c.marketAt || Date.now()).getUTCFullYear());
  const [tool, setTool] = useState<DrawingKind | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    let feed: ChartFeed | null = null;
    const model = new ChartModel(box.current!, {
      onLegend: setLegend,
      onNeedOlder: () => void feed?.loadOlder(),
      onTrimmed: () => feed?.trimmed(),
      onLineMoved: (id, price) => moveLine(s, id, price),
      onLineOpened: (id) => openLine(s, id),
      onPricePick: (price, target) =>
        target === 'alert'
          ? alertAt(s, s.workspace.getState().symbol, price)
          : s.orderForm.getState().actions.pickPrice(price),
      drawings: {
        add: (d) => void s.drawings.getState().actions.add({ ...d, symbol: s.workspace.getState().symbol }),
        change: (d) => s.drawings.getState().actions.update(d),
        remove: (id) => s.drawings.getState().actions.remove(id),
        mode: setTool,
        select: setSelected,
      },
    });
    hideChartInternals(box.current!);
    feed = new ChartFeed(s.api, s.ws, model);
    setParts({ model, feed });
    return () => {
      feed?.dispose();
      model.dispose();
    };
  }, [s]);

  useEffect(() => {
    if (!parts || !entry) return;
    parts.model.configure(pd, Number(entry.futures.price_step), interval === '1s');
    parts.feed.show(symbol, interval);
  }, [parts, symbol, interval, pd, entry]);

  const lines = usePriceLines(symbol, qd);
  useEffect(() => parts?.model.setPriceLines(lines), [parts, lines]);
  const slots = useSel(s.indicators, (x) => x.slots);
  useEffect(() => parts?.model.setIndicators(slots), [parts, slots]);
  const scale = useSel(s.indicators, (x) => x.scale);
  useEffect(() => parts?.model.setScale(scale), [parts, scale]);
  const studies = slots.filter((x) => x.on).length;
  const allDrawings = useSel(s.drawings, (x) => x.drawings);
  const drawings = useMemo(() => allDrawings.filter((d) => d.symbol === symbol), [allDrawings, symbol]);
  useEffect(() => parts?.model.setDrawings(drawings), [parts, drawings]);
  useEffect(() => parts?.model.setDrawMode(tool), [parts, tool]);
  // another pair: no tool armed
  useEffect(() => setTool(null), [symbol]);

  const feedState = useSel(parts?.feed.state ?? idleFeedState, (x) => x);
  const showFills = useSel(s.indicators, (x) => x.fills);
  const fills = useChartFills(symbol, feedState.symbol === symbol ? feedState.oldest : 0, showFills);
  const [, setMarksDrawn] = useState(0);
  useEffect(() => {
    parts?.model.setFills(fills, (q) => fmt(q, qd));
    // the legend reads the marks just drawn
    setMarksDrawn((n) => n + 1);
  }, [parts, fills, qd]);
  // what a screen reader hears of the chart: the candle at its right edge, its description as it
  // stands; said again after a key, and when a new candle opens at most every 30 s (ChartVoice)
  const [summary, setSummary] = useState('');
  const [said, setSaid] = useState('');
  const [voice] = useState(() => new ChartVoice());
  const summarize = (asked: boolean): void => {
    if (!parts) return;
    requestAnimationFrame(() => {
      const text = chartSummary(parts.model.chart, parts.model.candles, { symbol, interval, pd });
      setSummary(text);
      if (voice.say(text, `${symbol} ${interval}`, performance.now(), asked)) setSaid(text);
    });
  };
  const newest = legend?.latest ? legend.time : 0;
  useEffect(() => summarize(false), [parts, symbol, interval, pd, newest, feedState.candles]);
  const onChartKey = (e: React.KeyboardEvent): void => {
    if (e.ctrlKey || e.metaKey || e.altKey || !parts) return;
    if (!chartKey(parts.model.chart, e.key, e.shiftKey)) return;
    // the chart's, not the screen's (the replay's − / + speed)
    e.preventDefault();
    summarize(true);
  };
  const change = legend && legend.open > 0 ? (legend.close - legend.open) / legend.open : NaN;
  const cls = legend ? (legend.close >= legend.open ? 'up' : 'down') : '';
  // the account's fills in the bar under the pointer: what a mark without room for its text holds
  // too (not the newest bar's without a pointer: the legend keeps to its two lines)
  const legendFills = legend && !legend.latest && parts ? parts.model.fills.at(legend.time) : [];

  return (
    <div className="chart-panel">
      <div className="chart-toolbar">
        <div className="chart-intervals" role="tablist" aria-label="Chart interval" onKeyDown={tablistKeys}>
          {INTERVALS.map((iv) => {
            const key = HOTKEY_INTERVALS.indexOf(iv);
            return (
              <button
                key={iv}
                role="tab"
                aria-selected={iv === interval}
                tabIndex={tabStop(iv === interval)}
                className={iv === interval ? 'iv active' : 'iv'}
                data-testid={`interval-${iv}`}
                title={key >= 0 ? `${iv} (key ${key + 1})` : iv}
                onClick={() => s.workspace.getState().actions.setInterval(iv)}
              >
                {iv}
              </button>
            );
          })}
        </div>
        <span className="chart-status">
          {feedState.loadingOlder && 'loading history…'}
          {feedState.status === 'loading' && 'loading…'}
          {feedState.status === 'error' && <span className="down">{feedState.error}</span>}
        </span>
        <button
          type="button"
          className="chart-studies"
          data-testid="indicators-button"
          title="Indicators (key I)"
          aria-haspopup="dialog"
          aria-label={studies > 0 ? `Indicators, ${studies} on` : 'Indicators'}
          onClick={() => s.workspace.getState().actions.open('indicators')}
        >
          <i aria-hidden="true">ƒx</i> <span className="studies-label">Indicators</span>
          {studies > 0 && <b>{studies}</b>}
        </button>
      </div>
      <div className="chart-legend" data-testid="chart-legend">
        <span className="legend-sym">
          {symbol} · {interval}
        </span>
        {legend && (
          <>
            <span className="legend-time">{legendTime(legend.time, interval, year)}</span>
            <span>
              O <b className={cls}>{fmt(legend.open, pd)}</b>
            </span>
            <span>
              H <b className={cls}>{fmt(legend.high, pd)}</b>
            </span>
            <span>
              L <b className={cls}>{fmt(legend.low, pd)}</b>
            </span>
            <span>
              C <b className={cls}>{fmt(legend.close, pd)}</b>
            </span>
            <span>
              <b className={cls}>{fmtPct(change, 2, true)}</b>
            </span>
            <span>
              V <b>{legendVolume(legend.volume, qd)}</b>
            </span>
            {legendFills.map((m) => (
              <span key={m.side} data-testid="chart-legend-fill">
                {m.side === Side.BUY ? 'Bought' : 'Sold'}{' '}
                <b className={m.side === Side.BUY ? 'up' : 'down'}>{fmt(m.qty, qd)}</b> @ <b>{fmt(m.avg, pd)}</b>
              </span>
            ))}
            {legend.indicators.length > 0 && (
              <span className="legend-studies" data-testid="chart-legend-indicators">
                {legend.indicators.map((r) => (
                  <span key={r.id} data-indicator={r.id}>
                    {r.label}{' '}
                    {r.values.map((v, i) => (
                      <b key={i} style={{ color: r.colors[i] }}>
                        {Number.isFinite(v) ? fmt(v, r.priced ? pd : 2) : '—'}{' '}
                      </b>
                    ))}
                  </span>
                ))}
              </span>
            )}
          </>
        )}
      </div>
      {feedState.status === 'ready' && feedState.candles === 0 && (
        <div className="chart-empty" data-testid="chart-empty">
          <b>No trades on {symbol} yet</b>
          {entry && entry.general.status !== SymbolStatus.TRADING && (
            <span>
              {entry.general.status === SymbolStatus.PAUSED
                ? 'Trading on this pair is paused.'
                : 'This pair is delisted.'}
            </span>
          )}
        </div>
      )}
      {feedState.status === 'error' && feedState.candles === 0 && feedState.symbol === symbol && (
        <div className="chart-empty" data-testid="chart-unloaded" role="status">
          <b>
            {symbol} {interval} candles not loaded
          </b>
          <span>
            {feedState.unreachable
              ? 'The service cannot be reached: reconnecting… They load when it answers again.'
              : feedState.error}
          </span>
        </div>
      )}
      <div className="chart-body">
        <DrawingTools
          symbol={symbol}
          tool={tool}
          setTool={setTool}
          count={drawings.length}
          selected={selected}
          alertPrice={hlineAt(drawings, selected, pd)}
          onAlert={(price) => alertAt(s, symbol, price)}
          onRemove={(id) => s.drawings.getState().actions.remove(id)}
          onClear={() => s.drawings.getState().actions.clear(symbol)}
        />
        <div
          className="chart-box"
          ref={box}
          tabIndex={0}
          role="application"
          aria-label={`${symbol} ${interval} candlestick chart`}
          aria-describedby="chart-now chart-keys"
          onKeyDown={onChartKey}
          onFocus={() => summarize(false)}
          data-testid="chart"
          data-symbol={feedState.symbol ?? ''}
          data-interval={feedState.interval ?? ''}
          data-status={feedState.status ?? 'idle'}
          data-candles={feedState.candles ?? 0}
          data-oldest={feedState.oldest}
          data-lines={lines.map((l) => l.id).join(' ')}
        />
        <span id="chart-now" hidden data-testid="chart-now">
          {summary}
        </span>
        <div id="chart-summary" className="sr-only" role="status" data-testid="chart-summary">
          {said}
        </div>
        <span id="chart-keys" hidden>
          ← and → scroll in time, + and - zoom, Home goes to the first candle, End to the latest.
        </span>
        <ScaleSwitch mode={scale} onChange={(m) => s.indicators.getState().actions.setScale(m)} />
      </div>
    </div>
  );
}

function usePriceLines(symbol: string, qd: number): PriceLineSpec[] {
  const s = useServices();
  const positions = useSel(s.positions, (x) => x.positions);
  const tpsl = useSel(s.positions, (x) => x.tpsl);
  const orders = useSel(s.orders, (x) => x.orders);
  const alerts = useSel(s.alerts, (x) => x.alerts);
  const stops = useSel(s.stopOrders, (x) => x.stops);
  const hedge = useSel(s.account, (x) => x.summary?.position_mode !== 'one_way');
  return useMemo(
    () => priceLines({ symbol, qd, hedge, positions, tpsl, orders, alerts, stops }),
    [positions, tpsl, orders, alerts, stops, symbol, qd, hedge],
  );
}
