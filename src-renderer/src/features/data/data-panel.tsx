// The Data dialog: what market data is stored (datasets with their span, rows, gaps and specs,
// the specs editable in place), importing Binance archive files picked from disk (uploaded one
// by one with a progress bar, a zip with the .CHECKSUM picked along with it, each answered with
// what the import did or why it refused the file; a picked file not uploaded is said too), and
// deleting a dataset after a confirmation (the focus on the confirmation, then on the next
// dataset's Delete). The same work as `npm run data` and /api/v1/datasets (docs/data.md).
import { useCallback, useEffect, useRef, useState } from 'react';
import { KINDS } from '../../../../src-shared/dataset-kinds.ts';
import { INTERVALS } from '../../../../src-shared/intervals.ts';
import { noDigest, parseChecksum } from '../../../../src-shared/archive-files.ts';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { Drawer } from '../../layout/drawer.tsx';
import { DatasetChart } from './dataset-chart.tsx';
import { SpecsCell } from './specs-cell.tsx';
import type { DataImportState, ResultLine } from './import-store.ts';
import {
  datasetSpan,
  focusAfterDelete,
  gapText,
  datasetTitle,
  planPick,
  refusedResult,
  resultLine,
  takesInterval,
  uploadType,
  uploadUrl,
  type DatasetView,
  type ImportResultView,
} from './data-view.ts';
import { GapCounts } from '../../../../src-shared/gap-note.ts';
import './data.css';

export function DataPanel() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'data');
  if (!open) return null;
  return (
    <Drawer title="Market data" testId="data-panel" wide onClose={() => s.workspace.getState().actions.close()}>
      <DataBody />
    </Drawer>
  );
}

/** A pick being imported: cancelled by the dialog's Cancel, with the upload under way to abort. */
interface PickRun {
  cancelled: boolean;
  xhr: XMLHttpRequest | null;
}

/** The upload was aborted by Cancel (the service, seeing its client hang up, keeps nothing of it). */
class Cancelled extends Error {}

function DataBody() {
  const s = useServices();
  const base = s.api.baseUrl;
  const [list, setList] = useState<DatasetView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [market, setMarket] = useState('um');
  // for files whose names do not say them; empty: the file name says it
  const [symbol, setSymbol] = useState('');
  const [kind, setKind] = useState('');
  const [candleInterval, setCandleInterval] = useState('');
  // the pick under way and its results outlive the dialog (import-store.ts)
  const upload = useSel(s.dataImport, (d) => d.upload);
  const results = useSel(s.dataImport, (d) => d.results);
  const cancel = useSel(s.dataImport, (d) => d.cancel);
  const setUpload = (u: DataImportState['upload']): void => s.dataImport.setState({ upload: u });
  const addResult = (line: ResultLine): void => s.dataImport.setState((d) => ({ results: [...d.results, line] }));
  const [confirm, setConfirm] = useState<number | null>(null);
  const [charted, setCharted] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  // the focus after a delete's confirmation goes away: a dataset's Delete, or (none left) the picker
  const [focusTo, setFocusTo] = useState<{ id: number | null } | null>(null);
  const deleteButtons = useRef(new Map<number, HTMLButtonElement>());
  const confirmButton = useRef<HTMLButtonElement>(null);
  // the picker is disabled while a pick is imported and its Cancel goes with it: the focus on
  // either fell to the page's body when the pick ended (done or cancelled); it goes back to the
  // picker, unless the user has moved it elsewhere meanwhile
  const wasBusy = useRef(upload !== null);
  useEffect(() => {
    const ended = wasBusy.current && upload === null;
    wasBusy.current = upload !== null;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (ended && lost) picker.current?.focus();
  }, [upload]);

  const load = useCallback(async (): Promise<DatasetView[] | null> => {
    try {
      const r = await fetch(`${base}/api/v1/datasets`);
      const body = (await r.json()) as { code: number; message: string; data: DatasetView[] };
      if (body.code !== 0) throw new Error(body.message);
      setList(body.data);
      setError(null);
      return body.data;
    } catch (e) {
      setError(`Could not list the datasets: ${errorText(e)}`);
      return null;
    }
  }, [base]);

  // read again when a pick's import ends, the dialog having been closed and opened again meanwhile too
  const busy = upload !== null;
  useEffect(() => void load(), [load, busy]);

  // the confirmation replaces the Delete that had the focus: it takes it (else it falls to the page)
  useEffect(() => {
    if (confirm !== null) confirmButton.current?.focus();
  }, [confirm]);
  useEffect(() => {
    if (focusTo === null) return;
    (focusTo.id === null ? picker.current : deleteButtons.current.get(focusTo.id))?.focus();
    setFocusTo(null);
  }, [focusTo]);

  const send = (file: File, checksum: string | undefined, run: PickRun): Promise<ImportResultView> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', uploadUrl(base, file.name, { market, symbol, kind, interval: candleInterval, checksum }));
      xhr.setRequestHeader('content-type', uploadType(file.name));
      xhr.upload.onprogress = (e) => setUpload({ file: file.name, sent: e.loaded, total: e.total || file.size });
      xhr.onerror = () => reject(new Error('the upload failed (connection lost?)'));
      xhr.onabort = () => reject(new Cancelled());
      run.xhr = xhr;
      xhr.onload = () => {
        try {
          const body = JSON.parse(xhr.responseText) as {
            code: number;
            message: string;
            data: { results: ImportResultView[] };
          };
          if (body.code !== 0) reject(new Error(body.message));
          else resolve(body.data.results[0]);
        } catch {
          // not JSON, or not the import answer's shape: all there is to say is the HTTP status
          reject(new Error(`HTTP ${xhr.status}`));
        }
      };
      xhr.send(file);
    });

  /** The gaps a dataset has now (said beside a file's own), or undefined when it cannot be read. */
  const gapsOf = async (id: number): Promise<number | undefined> => {
    try {
      const r = await fetch(`${base}/api/v1/datasets/${id}`);
      const body = (await r.json()) as { code: number; data: DatasetView };
      return body.code === 0 ? body.data.gaps.length : undefined;
    } catch {
      return undefined;
    }
  };

  /** One picked file through the import: its .CHECKSUM's digest read first (one stating none refuses it). */
  const importOne = async (f: File, sum: File | null, run: PickRun, gapCounts: GapCounts): Promise<ResultLine> => {
    setUpload({ file: f.name, sent: 0, total: f.size });
    let r: ImportResultView;
    try {
      const digest = sum === null ? undefined : parseChecksum(await sum.text());
      r = digest === null ? refusedResult(f.name, noDigest(sum!.name)) : await send(f, digest, run);
    } catch (e) {
      if (e instanceof Cancelled)
        return { text: `${f.name}: cancelled — nothing of this file was imported`, ok: false };
      r = refusedResult(f.name, errorText(e));
    }
    const id = r.dataset_id;
    const gaps = r.status === 'imported' && id !== null ? await gapsOf(id) : undefined;
    return { text: resultLine(r, gaps, gapCounts.swap(id, gaps)), ok: r.ok };
  };

  const importFiles = async (files: FileList | null): Promise<void> => {
    if (!files || files.length === 0 || s.dataImport.getState().upload !== null) return;
    const { uploads, notUploaded } = planPick([...files]);
    s.dataImport.setState({ results: notUploaded.map((text) => ({ text, ok: false })) });
    const run: PickRun = { cancelled: false, xhr: null };
    // each dataset's gaps before the next file, from the list shown, read now when it is not yet
    // (a file's line tells an earlier file's gap from its own)
    const shown = list ?? (await load());
    const gapCounts = new GapCounts(shown === null ? null : shown.map((d) => [d.id, d.gaps.length]));
    s.dataImport.setState({
      cancel: () => {
        run.cancelled = true;
        run.xhr?.abort();
      },
    });
    for (const u of uploads) {
      if (run.cancelled) addResult({ text: `${u.file.name}: not uploaded — the import was cancelled`, ok: false });
      else addResult(await importOne(u.file, u.checksum, run, gapCounts));
    }
    s.dataImport.setState({ upload: null, cancel: null });
    if (picker.current) picker.current.value = '';
  };

  const remove = async (id: number): Promise<void> => {
    const before = (list ?? []).map((d) => d.id);
    setConfirm(null);
    if (charted === id) setCharted(null);
    let refused: string | null = null;
    try {
      const r = await fetch(`${base}/api/v1/datasets/${id}`, { method: 'DELETE' });
      const body = (await r.json()) as { code: number; message: string };
      if (body.code !== 0) throw new Error(body.message);
      s.toasts.getState().actions.push({ kind: 'success', title: `Dataset ${id} deleted` });
    } catch (e) {
      refused = `Could not delete dataset ${id}: ${errorText(e)}`;
    }
    const after = await load();
    // said after the list is read again, whose success clears the panel's error
    if (refused !== null) setError(refused);
    setFocusTo({
      id: focusAfterDelete(
        before,
        id,
        (after ?? list ?? []).map((d) => d.id),
      ),
    });
  };

  const keep = (id: number): void => {
    setConfirm(null);
    setFocusTo({ id });
  };

  return (
    <div className="data-panel">
      <section>
        <h3>Import files</h3>
        <p className="muted small">
          Files as Binance publishes them at data.binance.vision (zipped or not): klines, mark / index / premium-index
          klines, funding rates, aggTrades, trades, bookTicker, bookDepth; and a recorder's L2 depth and trade stream
          CSVs, or its JSON lines (<code>.jsonl</code>: kind depth reads their depthUpdate events and depth snapshots,
          kind aggTrades their aggTrade events, kind bookTicker their bookTicker events, kind trades their trade events,
          kind klines their closed kline events), gzip'd too (<code>.csv.gz</code>, <code>.jsonl.gz</code>). The file
          name says the symbol and kind; pick the market here, and fill in the symbol, kind or interval for files named
          otherwise (a recording's <code>trade_stream.csv</code> or <code>ws_events.jsonl</code>, a renamed CSV). A
          zip's checksum, the rows and the time order are checked; a file with a bad row imports nothing.
        </p>
        <div className="row">
          <label className="field">
            <span className="field-label">Market</span>
            <select aria-label="Market of the files" value={market} onChange={(e) => setMarket(e.target.value)}>
              <option value="um">USD-M futures</option>
              <option value="cm">COIN-M futures</option>
              <option value="spot">Spot</option>
            </select>
          </label>
          <label className="field data-symbol">
            <span className="field-label">Symbol</span>
            <input
              aria-label="Symbol of the files"
              placeholder="from the name"
              value={symbol}
              spellCheck={false}
              onChange={(e) => setSymbol(e.target.value.toUpperCase())}
            />
          </label>
          <ChoiceField label="Kind" value={kind} choices={KINDS} empty="from the name" onChange={setKind} />
          <ChoiceField
            label="Interval"
            value={takesInterval(kind) ? candleInterval : ''}
            choices={INTERVALS}
            empty={takesInterval(kind) ? 'from the name' : 'none'}
            disabled={!takesInterval(kind)}
            onChange={setCandleInterval}
          />
          <input
            ref={picker}
            type="file"
            multiple
            accept=".zip,.csv,.jsonl,.gz"
            aria-label="Archive files to import"
            data-testid="data-file-picker"
            disabled={upload !== null}
            onChange={(e) => void importFiles(e.target.files)}
          />
        </div>
        {upload && (
          <div data-testid="data-upload-progress">
            <span className="small">
              {upload.file}:{' '}
              {upload.sent < upload.total
                ? `uploading ${Math.round((100 * upload.sent) / Math.max(1, upload.total))}%`
                : 'importing…'}
            </span>
            <progress max={upload.total} value={upload.sent} />
            <button type="button" disabled={cancel === null} onClick={() => cancel?.()}>
              Cancel
            </button>
          </div>
        )}
        {results.length > 0 && (
          <ul className="small" data-testid="data-import-results">
            {results.map((r, i) => (
              <li key={i} className={r.ok ? '' : 'down'}>
                {r.text}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3>Stored</h3>
        {error && (
          <p className="down small" role="alert">
            {error}
          </p>
        )}
        {list === null ? (
          <p className="muted small">Loading…</p>
        ) : list.length === 0 ? (
          <p className="muted small">No market data imported yet.</p>
        ) : (
          <table className="data-table" data-testid="data-datasets">
            <thead>
              <tr>
                <th>Dataset</th>
                <th>Span</th>
                <th>Rows</th>
                <th>Gaps</th>
                <th>Specs</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.id} data-testid={`dataset-${d.id}`}>
                  <td>
                    <span className="muted" title="The dataset's id, as the CLI and the API name it">
                      #{d.id}
                    </span>{' '}
                    {datasetTitle(d)}
                  </td>
                  <td>{datasetSpan(d)}</td>
                  <td>{d.rows.toLocaleString('en-US')}</td>
                  <td>
                    {d.gaps.length === 0 ? (
                      'none'
                    ) : (
                      // a disclosure, so the keyboard reaches the gaps as the mouse does (a tooltip did not)
                      <details className="data-gaps" data-testid={`dataset-gaps-${d.id}`}>
                        <summary>{d.gaps.length}</summary>
                        <ul>
                          {d.gaps.map((g) => (
                            <li key={g.start_time}>{gapText(g)}</li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                  <SpecsCell
                    dataset={d}
                    baseUrl={base}
                    onSaved={(saved) => setList((prev) => prev?.map((x) => (x.id === saved.id ? saved : x)) ?? null)}
                  />
                  <td>
                    {d.interval !== '' && (
                      <>
                        <button
                          aria-label={`Chart dataset ${d.id}`}
                          aria-pressed={charted === d.id}
                          onClick={() => setCharted(charted === d.id ? null : d.id)}
                        >
                          Chart
                        </button>{' '}
                      </>
                    )}
                    {confirm === d.id ? (
                      <>
                        <button ref={confirmButton} className="danger" onClick={() => void remove(d.id)}>
                          Delete {d.rows.toLocaleString('en-US')} rows
                        </button>{' '}
                        <button onClick={() => keep(d.id)}>Keep</button>
                      </>
                    ) : (
                      <button
                        ref={(b) => {
                          if (b) deleteButtons.current.set(d.id, b);
                          else deleteButtons.current.delete(d.id);
                        }}
                        aria-label={`Delete dataset ${d.id}`}
                        onClick={() => setConfirm(d.id)}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list?.find((d) => d.id === charted) && (
          <DatasetChart key={charted} dataset={list.find((d) => d.id === charted)!} baseUrl={base} />
        )}
      </section>
    </div>
  );
}

/**
 * One of the import's "of the files" fields: a labelled choice of `choices`, each shown as it is
 * sent, and an empty one first worded `empty` (what leaving it empty means).
 */
function ChoiceField(p: {
  label: string;
  value: string;
  choices: readonly string[];
  empty: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">{p.label}</span>
      <select
        aria-label={`${p.label} of the files`}
        value={p.value}
        disabled={p.disabled}
        onChange={(e) => p.onChange(e.target.value)}
      >
        <option value="">{p.empty}</option>
        {p.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
