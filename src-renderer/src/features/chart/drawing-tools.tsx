// The drawing tools down the chart's left edge (drawing-layer.ts does the drawing): Trend line and
// Horizontal line arm a tool (pressed again, or Esc: disarmed), and the bin removes the pair's
// drawings after asking (or, with one selected, that one, as Delete does). With a horizontal line
// selected, a bell sets a price alert at its price (the Alerts tab lists it). The column is one Tab
// stop (a toolbar): ↑ / ↓ (Home / End) move along it.
import { useState, type KeyboardEvent } from 'react';
import { ConfirmBar } from '../../layout/confirm-bar.tsx';
import type { DrawingKind } from './drawings.ts';

const TOOLS: ReadonlyArray<{ kind: DrawingKind; label: string; title: string; path: string }> = [
  {
    kind: 'trend',
    label: 'Trend line',
    title: 'Trend line: press at its start, then at its end (Esc: cancel)',
    path: 'M3 13 L13 3 M2 14 m-1.5 0 a1.5 1.5 0 1 0 3 0 a1.5 1.5 0 1 0 -3 0 M14 2 m-1.5 0 a1.5 1.5 0 1 0 3 0 a1.5 1.5 0 1 0 -3 0',
  },
  {
    kind: 'hline',
    label: 'Horizontal line',
    title: 'Horizontal line: press at its price (Esc: cancel)',
    path: 'M1 8 H15',
  },
];
const BIN = 'M3 4 H13 M6 4 V2.5 H10 V4 M4.5 4 L5.3 14 H10.7 L11.5 4';
const BELL = 'M8 2 a4 4 0 0 1 4 4 v3.5 l1.3 2 H2.7 l1.3 -2 V6 a4 4 0 0 1 4 -4 M6.5 13.5 a1.5 1.5 0 0 0 3 0';

/** ↑ / ↓ / Home / End along the toolbar's buttons that take the focus (a disabled bin does not). */
function toolbarKeys(e: KeyboardEvent<HTMLDivElement>): void {
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: buttons.length - 1 }[e.key];
  if (to === undefined || i < 0) return;
  e.preventDefault();
  buttons[(to + buttons.length) % buttons.length]?.focus();
}

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}

export function DrawingTools(props: {
  symbol: string;
  tool: DrawingKind | null;
  setTool: (kind: DrawingKind | null) => void;
  /** The pair's drawings. */
  count: number;
  /** The selected drawing, which the bin removes alone. */
  selected: string | null;
  /** The selected horizontal line's price (the pair's decimals), or null: the bell sets an alert there. */
  alertPrice: string | null;
  onAlert: (price: string) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <div
        className="draw-tools"
        role="toolbar"
        aria-label="Drawing tools"
        aria-orientation="vertical"
        onKeyDown={toolbarKeys}
      >
        {TOOLS.map((t, i) => (
          <button
            key={t.kind}
            type="button"
            // the Tab stop: the armed tool, else the first
            tabIndex={(props.tool === null ? i === 0 : props.tool === t.kind) ? 0 : -1}
            aria-label={t.label}
            aria-pressed={props.tool === t.kind}
            title={t.title}
            data-testid={`draw-${t.kind}`}
            onClick={() => props.setTool(props.tool === t.kind ? null : t.kind)}
          >
            <Icon d={t.path} />
          </button>
        ))}
        <button
          type="button"
          aria-label={
            props.selected !== null ? 'Remove the selected drawing' : `Remove the drawings on ${props.symbol}`
          }
          title={
            props.selected !== null ? 'Remove the selected drawing (Delete)' : `Remove the drawings on ${props.symbol}`
          }
          data-testid="draw-remove"
          tabIndex={-1}
          disabled={props.count === 0}
          onClick={() => (props.selected !== null ? props.onRemove(props.selected) : setAsking(true))}
        >
          <Icon d={BIN} />
          {props.count > 0 && <b>{props.count}</b>}
        </button>
        {props.alertPrice !== null && (
          <button
            type="button"
            aria-label={`Alert at ${props.alertPrice}`}
            title={`Set a price alert at this line, ${props.alertPrice}`}
            data-testid="draw-alert"
            tabIndex={-1}
            onClick={() => props.alertPrice !== null && props.onAlert(props.alertPrice)}
          >
            <Icon d={BELL} />
          </button>
        )}
      </div>
      {asking && props.count > 0 && (
        <div className="draw-confirm">
          <ConfirmBar
            text={`Remove ${props.count === 1 ? 'the drawing' : `all ${props.count} drawings`} on ${props.symbol}?`}
            action="Remove"
            dismiss="Keep"
            testId="draw-confirm"
            onConfirm={() => {
              setAsking(false);
              props.onClear();
            }}
            onCancel={() => setAsking(false)}
          />
        </div>
      )}
    </>
  );
}
