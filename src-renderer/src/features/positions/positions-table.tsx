// Open positions with live PnL and ROE (at the latest mark price), margin ratio, liquidation
// price, an isolated position's margin (adjustable: margin-dialog.tsx), TP/SL (editable), a
// close at a limit price (limit-close.tsx), and close / close-all at market. Long or short comes from
// positionDirection() (a one-way short is side 2, never read from the mode alone). Close all
// asks first, naming how many positions it closes; confirmed, the focus goes to the Positions tab.
import { useRef, useState, type RefObject } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtPct, fmtSigned } from '../../lib/format.ts';
import { refusalText } from '../../lib/frame.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { RecordTable, selectedTab, type Column } from '../../layout/record-table.tsx';
import { ConfirmBar } from '../../layout/confirm-bar.tsx';
import { accountOneWay, closePosition } from './close-position.ts';
import { positionDirection } from './position-direction.ts';
import { liveMargin, livePnl, positionKey, roe, type PositionsState } from './positions-store.ts';
import { MarginDialog } from './margin-dialog.tsx';
import { TpSlDialog } from './tpsl-dialog.tsx';
import { LimitClose } from './limit-close.tsx';
import { MarginMode } from '../../../../src-shared/enums.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import './positions.css';

/** A position with what its row shows: live mark, PnL and ROE, direction, decimals, TP / SL. */
type PositionRow = ReturnType<typeof positionDirection> & {
  p: PositionRecord;
  k: string;
  mark: number | undefined;
  pnl: number;
  roe: number;
  pd: number;
  qd: number;
  tpsl: PositionsState['tpsl'][string] | undefined;
};

export function PositionsTable() {
  const s = useServices();
  const down = useSel(s.connection, (c) => marketDown(c.state));
  const positions = useSel(s.positions, (x) => x.positions);
  const tpsl = useSel(s.positions, (x) => x.tpsl);
  const tickers = useSel(s.tickers, (x) => x.tickers);
  const decimals = useDecimals();
  const bySymbol = useSel(s.symbols, (x) => x.bySymbol);
  // a position larger than the pair's max_qty is closed by several orders (close-position.ts);
  // the account's mode read first when its summary has not come yet (a one-way short closed as a
  // hedge one, position_side 2, was refused 3012 in that moment after the screen opened)
  const closeIt = async (p: PositionRecord) =>
    closePosition(s.api, p, decimals(p.symbol).qd, await accountOneWay(s.account), bySymbol[p.symbol]?.futures.max_qty);
  const editing = useSel(s.workspace, (w) => (w.overlay === 'tpsl' ? w.tpslOf : null));
  const [adjusting, setAdjusting] = useState<PositionRecord | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const closeAllButton = useRef<HTMLButtonElement>(null);
  // where a dialog's focus goes back when its row's ✎ or ± is gone (the position closed while it
  // was open): the Positions tab, as for a row's Close (record-table.tsx), not the page
  const tabOpener: RefObject<HTMLElement | null> = {
    get current() {
      return selectedTab(closeAllButton.current);
    },
  };

  // the dialog is an overlay: the global shortcuts stay inert while it is open
  const editTpSl = (p: PositionRecord): void => s.workspace.getState().actions.openTpSl(p);
  const adjustMargin = (p: PositionRecord): void => {
    setAdjusting(p);
    s.workspace.getState().actions.open('margin');
  };
  const overlay = useSel(s.workspace, (w) => w.overlay);

  const fail = (what: string, e: unknown): void => {
    s.toasts.getState().actions.push({ kind: 'error', title: what, body: refusalText(e) });
  };
  const close = async (p: PositionRecord): Promise<void> => {
    const k = positionKey(p.symbol, p.position_side);
    setBusy(k);
    try {
      await closeIt(p);
      await s.positions.getState().actions.refresh();
    } catch (e) {
      fail(`Close ${p.symbol} refused`, e);
    } finally {
      setBusy(null);
    }
  };
  const closeAll = async (): Promise<void> => {
    setConfirmAll(false);
    setBusy('all');
    for (const p of positions) {
      try {
        await closeIt(p);
      } catch (e) {
        fail(`Close ${p.symbol} refused`, e);
      }
    }
    await s.positions.getState().actions.refresh().catch(dropServiceFailure);
    setBusy(null);
  };

  const n = positions.length;
  const anyIsolated = positions.some((p) => p.margin_mode === MarginMode.ISOLATED);
  const rows: PositionRow[] = positions.map((p) => {
    const mark = tickers[p.symbol]?.mark;
    const pnl = livePnl(p, mark);
    const k = positionKey(p.symbol, p.position_side);
    return { p, k, mark, pnl, roe: roe(p, pnl), ...positionDirection(p), ...decimals(p.symbol), tpsl: tpsl[k] };
  });
  // Paired figures share a column, one above the other (the second smaller), so that every
  // column, TP/SL and its edit button included, fits the bottom panel of a 1280 px window and
  // of the 1024 px narrow layout without scrolling sideways.
  const columns: Column<PositionRow>[] = [
    {
      head: 'Symbol',
      cell: ({ p, long }) => (
        <>
          <span className={`side-bar ${long ? 'long' : 'short'}`} />
          <span className="pos-stack">
            <span className="sym">{p.symbol}</span>{' '}
            <span className="pos-sub">
              <span className={`tag ${long ? 'up' : 'down'}`}>{long ? 'Long' : 'Short'}</span>{' '}
              <span className="tag">
                {p.margin_mode === MarginMode.ISOLATED ? 'Isolated' : 'Cross'} {p.leverage}x
              </span>
            </span>
          </span>
        </>
      ),
    },
    {
      head: 'Size',
      headClass: 'num',
      cls: ({ long }) => `num ${long ? 'up' : 'down'}`,
      attrs: () => ({ 'data-testid': 'position-size' }),
      cell: ({ size, qd }) => fmt(size, qd),
    },
    {
      head: <Pair top="Entry" sub="Break-even" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ p, pd }) => <Pair top={fmt(p.entry_price, pd)} sub={fmt(p.break_even_price, pd)} />,
    },
    {
      head: <Pair top="Mark" sub="Liq. price" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ p, mark, pd }) => (
        <Pair
          top={fmt(mark ?? p.mark_price, pd)}
          sub={p.liquidation_price > 0 ? fmt(p.liquidation_price, pd) : '—'}
          subClass="warn"
        />
      ),
    },
    {
      // with an isolated position listed the figures stand left of its adjust button, cross ones
      // and the heading too (over the figures, not the button)
      head: anyIsolated ? (
        <span className="pos-tpsl">
          <Pair top="Margin" sub="Margin ratio" />
          <ButtonRoom glyph="±" />
        </span>
      ) : (
        <Pair top="Margin" sub="Margin ratio" />
      ),
      headClass: 'num',
      cls: 'num',
      cell: ({ p, name, mark }) =>
        anyIsolated ? (
          <span className="pos-tpsl">
            <Pair top={fmt(liveMargin(p, mark), 2)} sub={fmtPct(p.margin_ratio, 2)} />
            {p.margin_mode === MarginMode.ISOLATED ? (
              <button
                className="btn-small ghost"
                onClick={() => adjustMargin(p)}
                aria-label={`Adjust margin ${p.symbol} ${name}`}
                title="Add or remove margin"
              >
                ±
              </button>
            ) : (
              <ButtonRoom glyph="±" />
            )}
          </span>
        ) : (
          <Pair top={fmt(liveMargin(p, mark), 2)} sub={fmtPct(p.margin_ratio, 2)} />
        ),
    },
    {
      head: <Pair top="PnL" sub="(ROE)" />,
      headClass: 'num',
      cls: ({ pnl }) => `num ${pnl > 0 ? 'up' : pnl < 0 ? 'down' : ''}`,
      attrs: ({ pnl }) => ({ 'data-testid': 'position-pnl', 'data-pnl': pnl }),
      cell: ({ pnl, roe }) => <Pair top={fmtSigned(pnl, 2)} sub={`(${fmtPct(roe, 2, true)})`} subClass="" />,
    },
    {
      // the heading stands over the prices, left of the edit button
      head: (
        <span className="pos-tpsl">
          <Pair top="TP" sub="SL" />
          <ButtonRoom glyph="✎" />
        </span>
      ),
      headClass: 'num',
      cls: 'num',
      cell: ({ p, pd, name, tpsl: t }) => (
        <span className="pos-tpsl">
          <span className="pos-stack">
            <span className="up">{t?.takeProfit ? fmt(t.takeProfit, pd) : '—'}</span>
            <span className="sr-only"> / </span>
            <span className="down">{t?.stopLoss ? fmt(t.stopLoss, pd) : '—'}</span>
          </span>
          <button className="btn-small ghost" onClick={() => editTpSl(p)} aria-label={`TP/SL ${p.symbol} ${name}`}>
            ✎
          </button>
        </span>
      ),
    },
    {
      head: (
        <button
          ref={closeAllButton}
          className="btn-small"
          disabled={positions.length === 0 || busy !== null}
          aria-expanded={confirmAll}
          onClick={() => setConfirmAll(true)}
        >
          {busy === 'all' ? '…' : 'Close all…'}
        </button>
      ),
      headClass: 'num actions',
      cls: 'num actions',
      cell: ({ p, k, name, pd, qd }) => (
        <span className="pos-close">
          <LimitClose p={p} name={name} pd={pd} qd={qd} disabled={busy !== null} />
          <button
            className="btn-small"
            disabled={busy !== null}
            onClick={() => void close(p)}
            aria-label={`Close ${p.symbol} ${name}`}
          >
            {busy === k ? '…' : 'Close'}
          </button>
        </span>
      ),
    },
  ];
  return (
    <>
      {confirmAll && n > 0 && (
        <ConfirmBar
          testId="close-all-confirm"
          text={`Close ${n} position${n === 1 ? '' : 's'} at market?`}
          action={`Close ${n} position${n === 1 ? '' : 's'}`}
          dismiss={`Keep ${n === 1 ? 'it' : 'them'}`}
          busy={busy !== null}
          onConfirm={() => {
            // the bar goes with the choice: the focus to the tab, not to the page
            selectedTab(closeAllButton.current)?.focus();
            void closeAll();
          }}
          onCancel={() => {
            setConfirmAll(false);
            closeAllButton.current?.focus();
          }}
        />
      )}
      {down && positions.length > 0 && (
        <p className="stale-note" data-testid="positions-stale">
          Mark prices and PnL as of the last update: the connection to the service is down.
        </p>
      )}
      <RecordTable
        testId="positions-table"
        className={down ? 'grid dense positions stale' : 'grid dense positions'}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.k}
        rowAttrs={(r) => ({
          'data-testid': `position-row-${r.p.symbol}-${r.p.position_side}`,
          'data-direction': r.name,
        })}
        empty={<p className="empty">No open positions.</p>}
      />
      {adjusting && overlay === 'margin' && (
        <MarginDialog
          position={adjusting}
          opener={tabOpener}
          onClose={() => {
            setAdjusting(null);
            s.workspace.getState().actions.close();
          }}
        />
      )}
      {editing && (
        <TpSlDialog position={editing} opener={tabOpener} onClose={() => s.workspace.getState().actions.close()} />
      )}
    </>
  );
}

/** Two figures of one column, the second below the first and smaller (muted unless `subClass`). */
function Pair({ top, sub, subClass = 'muted' }: { top: string; sub: string; subClass?: string }) {
  return (
    <span className="pos-stack">
      <span>{top}</span> <span className={`pos-sub ${subClass}`}>{sub}</span>
    </span>
  );
}

/** The room of a row's small button (± or ✎) where there is none: the figures beside it line up. */
function ButtonRoom({ glyph }: { glyph: string }) {
  return (
    <span className="btn-small ghost pos-gap" aria-hidden="true">
      {glyph}
    </span>
  );
}
