// The session report of a replay: per account, what the session did to it, from the exchange's
// own account events and summaries (never a second ledger of its own). docs/replay.md "Session
// report" defines every figure and the sampling. Keeps true: the report is a function of the
// events and of market time only (never wall time), so the same commands on the same data give
// the same report to the byte however the clock moved; money in 1e-8 USDT units (bigint).
import Decimal from 'decimal.js';
import { parseFixed } from '../../src-shared/decimal.ts';
import type {
  AccountSummary,
  PositionRecord,
  ReplayAccountReport,
  ReplayFault,
  ReplayReport,
  TradeRecord,
} from '../../src-shared/types.ts';
import { formatMoney } from '../risk/money.ts';
import { HOUSE_ACCOUNT } from '../trading/core.ts';
import type { AccountEvent, EventBus } from '../trading/events.ts';

/** Most equity samples kept per account before the curve is thinned. */
const MAX_SAMPLES = 10_000;
/** Default grid of equity samples, market ms. */
const DEFAULT_SAMPLE_MS = 60_000;

export interface SessionReportDeps {
  events: Pick<EventBus, 'on'>;
  /** The account's balance summary (Exchange.summary). */
  summary(accountId: number): AccountSummary;
  /**
   * The account's equity and deposits in units (Exchange.equityUnits): given, the drawdown also
   * watches every mark move (the exchange's price events), not only the curve's samples.
   */
  equity?: (accountId: number) => { equity: bigint; deposits: bigint };
  /** Market time, ms. */
  now(): number;
  /** The replay's fault (ReplayMarket.fault): the report then says it is cut short. */
  fault?: () => ReplayFault | null;
  sampleMs?: number;
}

/** One account's part of the report, as the API answers it. */
type AccountReport = ReplayAccountReport;

/** The report as the API answers it (`GET /api/v1/replay/report`). */
type SessionReportData = ReplayReport;

/**
 * A fall of `fall` from `peak` is a larger share of its peak than `than`'s (exact, in units: the
 * cross products). A peak at or below 0 has no share.
 */
function steeper(fall: bigint, peak: bigint, than: { fall: bigint; peak: bigint }): boolean {
  if (peak <= 0n || fall <= 0n) return false;
  return than.peak <= 0n || fall * than.peak > than.fall * peak;
}

class Tally {
  fills = 0;
  volume = 0n;
  realized = 0n;
  fees = 0n;
  funding = 0n;
  liquidations = 0;
  peak: bigint;
  /** The largest fall from a running peak, in money. */
  maxDrawdown = 0n;
  /** The steepest fall (largest share of the peak it fell from) and that peak: max_drawdown_ratio's, maybe another fall. */
  steepest = { fall: 0n, peak: 0n };
  openSince: number | null = null;
  /** Market time of the account's last fill or funding. */
  lastEventTime: number | null = null;
  inMarketMs = 0;
  /** Market times, equities and net equities of the curve (parallel arrays). */
  times: number[] = [];
  equities: bigint[] = [];
  /** Equity less the USDT deposited since the account entered the report (net_pnl's basis). */
  nets: bigint[] = [];
  grid: number;
  lastGridTime: number;
  readonly fillLog: TradeRecord[] = [];

  readonly accountId: number;
  readonly startEquity: bigint;
  /** Deposits when the account entered the report (later ones are not PnL). */
  readonly startDeposits: bigint;

  constructor(o: { accountId: number; startEquity: bigint; startTime: number; grid: number; gridTime: number }) {
    this.accountId = o.accountId;
    this.startEquity = o.startEquity;
    this.startDeposits = o.startEquity;
    this.peak = o.startEquity;
    this.grid = o.grid;
    this.lastGridTime = o.gridTime;
    this.times.push(o.startTime);
    this.equities.push(o.startEquity);
    this.nets.push(o.startEquity);
  }

  /** Equity less the USDT deposited (withdrawn, set by a reset) since the account entered the report. */
  net(equity: bigint, deposits: bigint): bigint {
    return equity - (deposits - this.startDeposits);
  }

  /** A sample: the drawdown is measured on the net equity, so a deposit or a reset is no gain or loss. */
  add(time: number, equity: bigint, net: bigint): void {
    this.watch(net);
    const n = this.times.length;
    // an event committed after a later grid sample keeps the curve in time order
    if (n > 0 && time < this.times[n - 1]) time = this.times[n - 1];
    // several samples at one market time (a fill and the grid point): the last one stands
    if (n > 0 && this.times[n - 1] === time) {
      this.equities[n - 1] = equity;
      this.nets[n - 1] = net;
    } else {
      this.times.push(time);
      this.equities.push(equity);
      this.nets.push(net);
    }
    if (this.times.length > MAX_SAMPLES) this.thin();
  }

  /** The net equity at a moment that is no sample (a mark move): its peak and drawdown only. */
  watch(net: bigint): void {
    if (net > this.peak) this.peak = net;
    const dd = this.peak - net;
    if (dd > this.maxDrawdown) this.maxDrawdown = dd;
    if (steeper(dd, this.peak, this.steepest)) this.steepest = { fall: dd, peak: this.peak };
  }

  /** Keeps every other sample (the first and the last always), doubling the grid. */
  private thin(): void {
    const t: number[] = [];
    const e: bigint[] = [];
    const m: bigint[] = [];
    const last = this.times.length - 1;
    for (let i = 0; i <= last; i++) {
      if (i % 2 === 0 || i === last) {
        t.push(this.times[i]);
        e.push(this.equities[i]);
        m.push(this.nets[i]);
      }
    }
    this.times = t;
    this.equities = e;
    this.nets = m;
    this.grid *= 2;
  }
}

const money = (text: string): bigint => {
  const r = parseFixed(text, 8, { allowNegative: true, allowZero: true });
  return r.ok ? r.value : 0n;
};

export class SessionReport {
  private readonly deps: SessionReportDeps;
  private readonly tallies = new Map<number, Tally>();
  /** Deposits of accounts that exist but are not in the report yet, as they were when made. */
  private readonly baselines = new Map<number, bigint>();
  /** The grid of equity samples, market ms. */
  readonly sampleMs: number;
  readonly start: number;
  private off: Array<() => void>;

  constructor(deps: SessionReportDeps) {
    this.deps = deps;
    this.sampleMs = deps.sampleMs ?? DEFAULT_SAMPLE_MS;
    if (!(Number.isInteger(this.sampleMs) && this.sampleMs > 0))
      throw new RangeError('sampleMs must be a positive integer');
    this.start = deps.now();
    this.off = [deps.events.on('account', (e) => this.onEvent(e))];
    const equity = deps.equity;
    if (equity !== undefined) this.off.push(deps.events.on('price', () => this.onPrice(equity)));
  }

  /** Puts an account in the report now (its starting equity is its equity now). */
  track(accountId: number): void {
    this.tally(accountId);
  }

  /**
   * An account was just made (an --account, one made during the session): its starting equity is
   * what it holds now, even if its first command is a deposit or a reset. It enters the report
   * when it does something.
   */
  baseline(accountId: number): void {
    if (!this.tallies.has(accountId)) this.baselines.set(accountId, money(this.deps.summary(accountId).total_deposits));
  }

  /**
   * Market time moved to `time`: adds the grid samples due. Called by the venue after each
   * clock step of the replay (and by report()), so the curve follows the clock, not the wall.
   */
  sample(time: number): void {
    for (const t of this.tallies.values()) {
      if (time - t.lastGridTime < t.grid) continue;
      // the grid point the time reached (aligned to the session's start), so samples land on the
      // same market times however the clock was moved
      t.lastGridTime = this.start + Math.floor((time - this.start) / t.grid) * t.grid;
      this.addSample(t, time);
    }
  }

  /** Stops listening to the exchange (the venue is closing). */
  close(): void {
    for (const off of this.off.splice(0)) off();
  }

  /** The report at market time now. */
  report(): SessionReportData {
    const time = this.deps.now();
    this.sample(time);
    const elapsed = Math.max(0, time - this.start);
    const accounts: AccountReport[] = [];
    const ids = [...this.tallies.keys()].sort((a, b) => a - b);
    for (const id of ids) {
      const t = this.tallies.get(id)!;
      const s = this.deps.summary(id);
      const equity = money(s.margin_balance);
      const net = t.net(equity, money(s.total_deposits));
      const inMarket = t.inMarketMs + (t.openSince === null ? 0 : Math.max(0, time - t.openSince));
      const curve: Array<[number, string]> = t.times.map((x, i) => [x, formatMoney(t.equities[i])]);
      const netCurve: Array<[number, string]> = t.times.map((x, i) => [x, formatMoney(t.nets[i])]);
      if (curve[curve.length - 1][0] !== time) {
        curve.push([time, formatMoney(equity)]);
        netCurve.push([time, formatMoney(net)]);
      }
      // the figure now counts too (it may be below every sample taken)
      const peak = net > t.peak ? net : t.peak;
      const maxDd = peak - net > t.maxDrawdown ? peak - net : t.maxDrawdown;
      const steepest = steeper(peak - net, peak, t.steepest) ? { fall: peak - net, peak } : t.steepest;
      accounts.push({
        user_id: id,
        starting_equity: formatMoney(t.startEquity),
        wallet_balance: s.wallet_balance,
        equity: formatMoney(equity),
        fills: t.fills,
        volume: formatMoney(t.volume),
        realized_pnl: formatMoney(t.realized),
        unrealized_pnl: s.unrealized_pnl,
        fees: formatMoney(t.fees),
        funding: formatMoney(t.funding),
        net_pnl: formatMoney(net - t.startEquity),
        max_drawdown: formatMoney(maxDd),
        max_drawdown_ratio: steepest.peak > 0n ? ratio(steepest.fall, steepest.peak) : 0,
        liquidations: t.liquidations,
        time_in_market_ms: inMarket,
        time_in_market_ratio: elapsed > 0 ? ratio(BigInt(Math.min(inMarket, elapsed)), BigInt(elapsed)) : 0,
        equity_curve: curve,
        net_equity_curve: netCurve,
      });
    }
    const fault = this.deps.fault?.() ?? null;
    return { start: this.start, time, complete: fault === null, stopped_at: fault?.time ?? null, accounts };
  }

  /** The fills of the session, per account, oldest first. */
  fills(): Array<{ user_id: number; fill: TradeRecord }> {
    const out: Array<{ user_id: number; fill: TradeRecord }> = [];
    for (const id of [...this.tallies.keys()].sort((a, b) => a - b))
      for (const f of this.tallies.get(id)!.fillLog) out.push({ user_id: id, fill: f });
    return out;
  }

  /** Samples the account's equity and net equity at market time `time`. */
  private addSample(t: Tally, time: number): void {
    const s = this.deps.summary(t.accountId);
    const equity = money(s.margin_balance);
    t.add(time, equity, t.net(equity, money(s.total_deposits)));
  }

  /**
   * A mark (or index) moved: every account's net equity now counts in its drawdown, so a dip
   * between two samples of the curve is not missed (an account without a position is unchanged).
   */
  private onPrice(equity: NonNullable<SessionReportDeps['equity']>): void {
    for (const t of this.tallies.values()) {
      const e = equity(t.accountId);
      t.watch(t.net(e.equity, e.deposits));
    }
  }

  private tally(accountId: number, time?: number): Tally {
    let t = this.tallies.get(accountId);
    if (t === undefined) {
      const now = this.deps.now();
      // the account's equity before its first command: what it was made with (its first events
      // may already carry a fill and its fee, or a deposit)
      const made = this.baselines.get(accountId);
      this.baselines.delete(accountId);
      t = new Tally({
        accountId,
        startEquity: made ?? money(this.deps.summary(accountId).total_deposits),
        startTime: time ?? now,
        grid: this.sampleMs,
        gridTime: this.start + Math.floor((now - this.start) / this.sampleMs) * this.sampleMs,
      });
      this.tallies.set(accountId, t);
    }
    return t;
  }

  private onEvent(e: AccountEvent): void {
    if (e.accountId === 0 || e.accountId >= HOUSE_ACCOUNT) return;
    const t = this.tally(e.accountId, e.time);
    // Events arrive once their command is committed (trading/turn-writer.ts): the figures are
    // read then, at the market time the event names (a fill's, a settlement's).
    switch (e.kind) {
      case 'fill': {
        const f = e.data as TradeRecord;
        t.fills++;
        t.volume += money(f.quote_qty);
        t.realized += money(f.realized_pnl);
        t.fees += money(f.fee);
        t.fillLog.push(f);
        t.lastEventTime = f.created_at;
        this.addSample(t, f.created_at);
        break;
      }
      case 'funding': {
        const d = e.data as { amount: string; time: number };
        t.funding += money(d.amount);
        t.lastEventTime = d.time;
        this.addSample(t, d.time);
        break;
      }
      case 'liquidation': {
        // its clearance fee is a fee the account paid, beside its fills' (no fill carries it)
        const d = e.data as { liquidation_fee?: string };
        t.liquidations++;
        t.fees += money(d.liquidation_fee ?? '0');
        this.addSample(t, this.deps.now());
        break;
      }
      case 'position': {
        // a position opens or closes by a fill, whose time came just before in the same command
        const now = t.lastEventTime ?? this.deps.now();
        const open = (e.data as PositionRecord[]).some((p) => p.quantity !== 0);
        if (open && t.openSince === null) t.openSince = now;
        else if (!open && t.openSince !== null) {
          t.inMarketMs += now - t.openSince;
          t.openSince = null;
        }
        break;
      }
      default:
        // order and balance events: the account is in the report (its starting equity taken above)
        break;
    }
  }
}

/** decimal.js at the ratio's 10 significant digits: its division rounds the exact quotient once. */
const Ratio = Decimal.clone({ precision: 10, rounding: Decimal.ROUND_HALF_UP });

/**
 * a / b of two money amounts (1e-8 USDT units) at 10 significant digits, rounded half up (a
 * drawdown of 1e-9 of its peak is not 0, as cutting at 8 decimals made it).
 */
function ratio(a: bigint, b: bigint): number {
  return new Ratio(a.toString()).div(b.toString()).toNumber();
}

// ---------------------------------------------------------------- CSV

const csvCell = (v: string | number | boolean): string => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvRow = (cells: Array<string | number | boolean>): string => cells.map(csvCell).join(',') + '\n';

export const REPORT_TABLES = ['summary', 'equity', 'fills'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

const SUMMARY_COLUMNS = [
  'user_id',
  'starting_equity',
  'wallet_balance',
  'equity',
  'fills',
  'volume',
  'realized_pnl',
  'unrealized_pnl',
  'fees',
  'funding',
  'net_pnl',
  'max_drawdown',
  'max_drawdown_ratio',
  'liquidations',
  'time_in_market_ms',
  'time_in_market_ratio',
] as const satisfies readonly (keyof AccountReport)[];

const FILL_COLUMNS = [
  'id',
  'order_id',
  'symbol',
  'side',
  'position_side',
  'price',
  'qty',
  'quote_qty',
  'fee',
  'fee_asset',
  'role',
  'is_close',
  'realized_pnl',
  'created_at',
] as const satisfies readonly (keyof TradeRecord)[];

/**
 * One table of the report as CSV (RFC 4180, LF line ends, a header row). The summary's rows end
 * with the session's `complete` and `stopped_at` (empty while complete).
 */
export function reportCsv(
  report: SessionReportData,
  fills: Array<{ user_id: number; fill: TradeRecord }>,
  table: ReportTable,
): string {
  if (table === 'summary') {
    // the session's own two figures close each row: a table of a cut-short session says so
    let out = csvRow([...SUMMARY_COLUMNS, 'complete', 'stopped_at']);
    const session = [report.complete, report.stopped_at ?? ''];
    for (const a of report.accounts)
      out += csvRow([...SUMMARY_COLUMNS.map((c) => a[c] as string | number), ...session]);
    return out;
  }
  if (table === 'equity') {
    let out = csvRow(['user_id', 'time', 'equity', 'net_equity']);
    for (const a of report.accounts)
      a.equity_curve.forEach(([t, e], i) => (out += csvRow([a.user_id, t, e, a.net_equity_curve[i][1]])));
    return out;
  }
  let out = csvRow(['user_id', ...FILL_COLUMNS]);
  for (const { user_id, fill } of fills) out += csvRow([user_id, ...FILL_COLUMNS.map((c) => fill[c])]);
  return out;
}
