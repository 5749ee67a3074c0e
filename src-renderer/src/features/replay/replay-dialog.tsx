// The Replay dialog of the live screen: pick the symbol(s) to replay from the stored datasets
// (each with its time coverage and what the replay is made of; for a pair with several datasets
// its main data can be read from, which of them: replay-datasets.ts), the span, the speed, the
// starting balance, the queue model and the order / response / market-data latencies; the fields are checked against the data before
// anything is sent (replay-view.ts), then POST /api/v1/replays starts the replay venue and the
// screen goes to its login link. The live market keeps running meanwhile; the replay's banner
// has the way back.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { Drawer, DrawerFooter } from '../../layout/drawer.tsx';
import type { DatasetView } from '../data/data-view.ts';
import {
  checkReplayForm,
  commonSpan,
  parseUtc,
  replayableSymbols,
  SPEED_PRESETS,
  startInHole,
  utcMinute,
  utcTime,
  type ReplayForm,
} from './replay-view.ts';
import {
  automaticLabel,
  automaticPick,
  booklessNote,
  mainCandidates,
  optionLabel,
  pickedCoverage,
} from './replay-datasets.ts';
import { RunningReplays } from './replay-running.tsx';
import './replay.css';

export function ReplayDialog() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'replay');
  if (!open) return null;
  return (
    <Drawer title="Replay" testId="replay-dialog" onClose={() => s.workspace.getState().actions.close()}>
      <ReplayBody />
    </Drawer>
  );
}

interface Started {
  login_url: string;
}

function ReplayBody() {
  const s = useServices();
  const base = s.api.baseUrl;
  const [datasets, setDatasets] = useState<DatasetView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [form, setForm] = useState<ReplayForm>({
    symbols: [],
    start: '',
    end: '',
    speed: '60',
    balance: '10000',
    queueModel: 'probabilistic',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof ReplayForm, string>>>({});
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  // Start replay is disabled while the request runs, which drops the keyboard focus to the page's
  // body: a refusal gives it back to the button (the alert beside it says why), unless the user
  // has moved it elsewhere meanwhile
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (sendError !== null && !sending && lost) startRef.current?.focus();
  }, [sendError, sending]);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const r = await fetch(`${base}/api/v1/datasets`);
        const body = (await r.json()) as { code: number; message: string; data: DatasetView[] };
        if (body.code !== 0) throw new Error(body.message);
        if (live) setDatasets(body.data);
      } catch (e) {
        if (live) setLoadError(`Could not list the datasets: ${errorText(e)}`);
      }
    })();
    return () => {
      live = false;
    };
  }, [base]);

  const all = useMemo(() => replayableSymbols(datasets ?? []), [datasets]);
  // a pair's coverage follows the dataset chosen for it
  const cov = useMemo(() => pickedCoverage(all, datasets ?? [], form.datasets ?? {}), [all, datasets, form.datasets]);
  const span = commonSpan(cov, form.symbols);
  const typedStart = parseUtc(form.start);
  const hole = typedStart === null ? null : startInHole(cov, form.symbols, typedStart);
  // nothing to start until the datasets are listed and one of them can be replayed
  const noData = datasets === null || cov.length === 0;

  const toggle = (symbol: string): void => {
    setForm((f) => {
      const symbols = f.symbols.includes(symbol) ? f.symbols.filter((x) => x !== symbol) : [...f.symbols, symbol];
      // a first pick starts the form at the beginning of its data
      const sp = commonSpan(cov, symbols);
      return { ...f, symbols, start: f.start === '' && sp ? utcMinute(sp.first) : f.start };
    });
    setErrors((e) => ({ ...e, symbols: undefined, start: undefined }));
  };
  const pick = (symbol: string, id: string): void => {
    setForm((f) => {
      const { [symbol]: _was, ...rest } = f.datasets ?? {};
      const picks = id === '' ? rest : { ...rest, [symbol]: Number(id) };
      // a start the chosen data does not cover moves to the beginning of the data
      const sp = commonSpan(pickedCoverage(all, datasets ?? [], picks), f.symbols);
      const at = parseUtc(f.start);
      const inside = sp !== null && at !== null && at >= sp.first && at < sp.end;
      return { ...f, datasets: picks, start: sp !== null && !inside ? utcMinute(sp.first) : f.start };
    });
    setErrors((e) => ({ ...e, start: undefined, end: undefined }));
  };
  const field = (k: keyof ReplayForm) => (e: { target: { value: string } }) => {
    const v = e.target.value;
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((x) => ({ ...x, [k]: undefined }));
  };

  const submit = async (): Promise<void> => {
    const c = checkReplayForm(form, cov);
    if (!c.ok) {
      setErrors(c.errors);
      // the first error into view: Start replay (in the drawer's footer) is pressed with the form
      // scrolled anywhere
      requestAnimationFrame(() => formRef.current?.querySelector('.field-error')?.scrollIntoView({ block: 'nearest' }));
      return;
    }
    setErrors({});
    setSendError(null);
    setSending(true);
    try {
      const r = await s.api.call<Started>('POST', '/api/v1/replays', { body: c.request, timeoutMs: 0 });
      window.location.assign(r.login_url);
    } catch (e) {
      setSendError(`The replay did not start: ${errorText(e)}`);
      setSending(false);
    }
  };

  return (
    <form
      className="replay-dialog"
      id={formId}
      ref={formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="muted small">
        Plays stored market history through a venue of its own: its own accounts, orders and records, apart from the
        live market, which keeps running. Your orders fill as the history trades through their prices. Times are UTC.
      </p>
      <RunningReplays />
      <fieldset>
        <legend>Symbols</legend>
        {loadError && (
          <p className="down small" role="alert">
            {loadError}
          </p>
        )}
        {datasets === null && !loadError ? (
          <p className="muted small">Loading…</p>
        ) : cov.length === 0 ? (
          <p className="muted small" data-testid="replay-no-data">
            No replayable data yet: import klines, trades or depth files in the Data dialog first.{' '}
            <button type="button" className="btn-small" onClick={() => s.workspace.getState().actions.open('data')}>
              Open Data
            </button>
          </p>
        ) : (
          <table className="grid dense replay-symbols" data-testid="replay-symbols">
            <thead>
              <tr>
                {/* the checkboxes' column, named for a screen reader (it read nothing there), out of sight */}
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <th>Symbol</th>
                <th>Coverage (UTC)</th>
                <th>Made of</th>
              </tr>
            </thead>
            <tbody>
              {cov.map((c) => (
                <tr key={c.symbol}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Replay ${c.symbol}`}
                      checked={form.symbols.includes(c.symbol)}
                      onChange={() => toggle(c.symbol)}
                    />
                  </td>
                  <td className="sym">{c.symbol}</td>
                  <td>
                    {/* one line a piece: a hole in the data shows as a second line */}
                    {c.pieces.map((p) => (
                      <span key={p.first} className="piece">
                        <span className="when">{utcTime(p.first)}</span> →{' '}
                        <span className="when">{utcTime(p.end)}</span>
                      </span>
                    ))}
                  </td>
                  <td className="muted">{c.sources.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <FieldError text={errors.symbols} />
        <DataPicks
          symbols={form.symbols}
          datasets={datasets ?? []}
          picks={form.datasets ?? {}}
          onPick={pick}
          start={typedStart ?? span?.first ?? null}
          until={parseUtc(form.end) ?? undefined}
        />
      </fieldset>
      <div className="replay-fields">
        <label className="rf">
          <span>Start (UTC)</span>
          <input
            aria-label="Start"
            placeholder="2021-05-16 00:00"
            value={form.start}
            onChange={field('start')}
            aria-invalid={!!errors.start}
          />
        </label>
        <FieldError text={errors.start} />
        <label className="rf">
          <span>End (UTC)</span>
          <input
            aria-label="End"
            placeholder={span ? `end of data (${utcTime(span.end)})` : 'end of data'}
            value={form.end}
            onChange={field('end')}
            aria-invalid={!!errors.end}
          />
        </label>
        <FieldError text={errors.end} />
        <label className="rf">
          <span>Speed</span>
          <input
            aria-label="Speed"
            list="replay-speeds"
            value={form.speed}
            onChange={field('speed')}
            aria-invalid={!!errors.speed}
          />
          <span className="unit">x</span>
        </label>
        <datalist id="replay-speeds">
          {SPEED_PRESETS.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <FieldError text={errors.speed} />
        <label className="rf">
          <span>Starting balance</span>
          <input
            aria-label="Starting balance"
            value={form.balance}
            onChange={field('balance')}
            aria-invalid={!!errors.balance}
          />
          <span className="unit">USDT</span>
        </label>
        <FieldError text={errors.balance} />
        <label className="rf">
          <span>Order latency</span>
          <input
            aria-label="Order latency"
            placeholder="0"
            value={form.orderLatency ?? ''}
            onChange={field('orderLatency')}
            aria-invalid={!!errors.orderLatency}
          />
          <span className="unit">ms</span>
        </label>
        <FieldError text={errors.orderLatency} />
        <label className="rf">
          <span>Response latency</span>
          <input
            aria-label="Response latency"
            placeholder="0"
            value={form.responseLatency ?? ''}
            onChange={field('responseLatency')}
            aria-invalid={!!errors.responseLatency}
          />
          <span className="unit">ms</span>
        </label>
        <FieldError text={errors.responseLatency} />
        <label className="rf">
          <span>Market-data latency</span>
          <input
            aria-label="Market-data latency"
            placeholder="0"
            value={form.dataLatency ?? ''}
            onChange={field('dataLatency')}
            aria-invalid={!!errors.dataLatency}
          />
          <span className="unit">ms</span>
        </label>
        <FieldError text={errors.dataLatency} />
        <label className="rf">
          <span>Queue model</span>
          <select
            aria-label="Queue model"
            value={form.queueModel}
            onChange={(e) => setForm((f) => ({ ...f, queueModel: e.target.value as ReplayForm['queueModel'] }))}
          >
            <option value="probabilistic">Probabilistic (cancels split ahead / behind you)</option>
            <option value="pessimistic">Pessimistic (only trades move you up)</option>
          </select>
        </label>
      </div>
      {span && (
        <p className="muted small" data-testid="replay-span">
          Common data: {utcTime(span.first)} → {utcTime(span.end)} UTC
        </p>
      )}
      {hole && (
        <p className="warn-text small" role="status" data-testid="replay-hole">
          {hole.symbol} has no data from {utcTime(hole.from)} to {utcTime(hole.to)} UTC: a start there waits in the
          hole, at the last price before it, until {utcTime(hole.to)}.
        </p>
      )}
      {/* in the drawer's footer, in view however far the form is scrolled */}
      <DrawerFooter>
        {sendError && (
          <p className="oe-error" role="alert">
            {sendError}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={() => s.workspace.getState().actions.close()}>
            Cancel
          </button>
          <button
            type="submit"
            ref={startRef}
            form={formId}
            className="primary"
            disabled={sending || noData}
            title={noData ? 'Nothing to replay: no stored data covers a symbol yet' : undefined}
          >
            {sending ? 'Starting…' : 'Start replay'}
          </button>
        </div>
      </DrawerFooter>
    </form>
  );
}

/**
 * For each picked pair with more than one dataset its main data can be read from, a select of
 * them: Automatic (the venue's pick, docs/replay.md) or one of them, sent as `datasets`; and for
 * a pair whose data would be a depth dataset without a book snapshot (refused on Start), why, and
 * what to choose instead.
 */
function DataPicks(props: {
  symbols: readonly string[];
  datasets: readonly DatasetView[];
  picks: Readonly<Record<string, number>>;
  onPick: (symbol: string, id: string) => void;
  /** The span typed (start: the data's first when none), for the Automatic option's pick. */
  start: number | null;
  until: number | undefined;
}) {
  const { start, until } = props;
  // a pair's data the venue refuses (a depth dataset without a book snapshot), said with its select
  const notes = props.symbols
    .map((symbol) => ({
      symbol,
      note: start === null ? null : booklessNote(props.datasets, symbol, props.picks, start, until),
    }))
    .filter((n) => n.note !== null);
  const rows = props.symbols
    .map((symbol) => ({ symbol, candidates: mainCandidates(props.datasets, symbol) }))
    .filter((r) => r.candidates.length > 1);
  if (rows.length === 0 && notes.length === 0) return null;
  const auto = (symbol: string) => (start === null ? null : automaticPick(props.datasets, symbol, start, until));
  return (
    <div className="replay-fields replay-picks" data-testid="replay-datasets">
      {rows.map(({ symbol, candidates }) => (
        <label key={symbol} className="rf">
          <span>{symbol} data</span>
          <select
            aria-label={`Data of ${symbol}`}
            aria-describedby={notes.some((n) => n.symbol === symbol) ? `replay-bookless-${symbol}` : undefined}
            // the option chosen whole on hover (the select cuts it to the drawer's width)
            title={chosenLabel(candidates, props.picks[symbol], auto(symbol), until)}
            value={props.picks[symbol] === undefined ? '' : String(props.picks[symbol])}
            onChange={(e) => props.onPick(symbol, e.target.value)}
          >
            <option value="">{automaticLabel(auto(symbol), until)}</option>
            {candidates.map((d) => (
              <option key={d.id} value={String(d.id)}>
                {optionLabel(d, until)}
              </option>
            ))}
          </select>
        </label>
      ))}
      {notes.map(({ symbol, note }) => (
        <p
          key={`note-${symbol}`}
          id={`replay-bookless-${symbol}`}
          className="warn-text small"
          role="status"
          data-testid={`replay-bookless-${symbol}`}
        >
          {note}
        </p>
      ))}
    </div>
  );
}

/** The chosen candidate's label, or Automatic. */
function chosenLabel(
  candidates: readonly DatasetView[],
  id: number | undefined,
  auto: DatasetView | null,
  until: number | undefined,
): string {
  const d = candidates.find((x) => x.id === id);
  return d === undefined ? automaticLabel(auto, until) : optionLabel(d, until);
}

function FieldError({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="down small field-error" role="alert">
      {text}
    </p>
  );
}
