// A history tab's Export CSV: every record its filters select (not only the page shown), paged
// through the route at its largest page, as one CSV file of the API's records (lib/csv.ts: the
// record's fields in the API's order and codes, a UTC text beside each time). At most
// EXPORT_MAX records a file; past it the file holds the newest and the line under says so.
import { useState } from 'react';
import { csvText } from '../../lib/csv.ts';
import { errorText } from '../../lib/frame.ts';
import type { PagedState } from './paged-store.ts';

const EXPORT_MAX = 50_000;

/** What a tab exports: the file's name part, the record's fields in order, which of them are times (ms). */
export interface ExportSpec {
  name: string;
  fields: readonly string[];
  timeFields: readonly string[];
}

export function ExportCsv<T, F>({ st, spec }: { st: PagedState<T, F>; spec: ExportSpec }) {
  const [state, setState] = useState<{ busy: boolean; said: string | null; bad: boolean }>({
    busy: false,
    said: null,
    bad: false,
  });
  const run = async (): Promise<void> => {
    setState({ busy: true, said: null, bad: false });
    try {
      const { items, complete } = await st.actions.collect(EXPORT_MAX);
      const file = `perpdesk-${spec.name}-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.csv`;
      download(file, csvText(spec.fields, items as object[], spec.timeFields));
      const n = items.length.toLocaleString('en-US');
      setState({
        busy: false,
        bad: false,
        said: complete
          ? `${n} record${items.length === 1 ? '' : 's'} saved to ${file}`
          : `The newest ${n} records saved to ${file}; narrow the filters (pair, dates) for the rest`,
      });
    } catch (err) {
      setState({ busy: false, bad: true, said: `Export failed: ${errorText(err)}` });
    }
  };
  return (
    <>
      <button
        className="btn-small"
        disabled={state.busy}
        onClick={() => void run()}
        title="Every record the filters select, as a CSV file of the API's records"
      >
        {state.busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {state.said !== null && (
        <span className={state.bad ? 'error' : 'muted'} role="status" data-testid="export-status">
          {state.said}
        </span>
      )}
    </>
  );
}

/** Saves `text` as `file` (the browser's download; the desktop app asks where). */
function download(file: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
