// A history tab's Export CSV: every record its filters select (not only the page shown), paged
// through the route at its largest page, as one CSV file of the API's records (lib/csv.ts: the
// record's fields in the API's order and codes, a UTC text beside each time). At most
// EXPORT_MAX records a file; past it the file holds the newest and the line under says so. The
// desktop asks where to save it (lib/save-file.ts): a cancelled dialog is said as not saved
// (before, the line said "saved to FILE" whatever the user chose).
import { useState } from 'react';
import { csvText } from '../../lib/csv.ts';
import { errorText } from '../../lib/frame.ts';
import { saveTextFile } from '../../lib/save-file.ts';
import type { PagedState } from './paged-store.ts';

const EXPORT_MAX = 50_000;

/** What a tab exports: the file's name part, the record's fields in order, which of them are times (ms). */
export interface ExportSpec {
  name: string;
  fields: readonly string[];
  timeFields: readonly string[];
}

/** What the line under the button says once an export has run. */
export interface ExportOutcome {
  said: string;
  bad: boolean;
}

/** Collects the records, saves them (`save`: where they went, or null on a cancel) and says what happened. */
export async function exportRecords(
  collect: (max: number) => Promise<{ items: readonly unknown[]; complete: boolean }>,
  spec: ExportSpec,
  save: (file: string, text: string) => Promise<string | null>,
  now: Date = new Date(),
): Promise<ExportOutcome> {
  try {
    const { items, complete } = await collect(EXPORT_MAX);
    const file = `perpdesk-${spec.name}-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.csv`;
    const where = await save(file, csvText(spec.fields, items as object[], spec.timeFields));
    if (where === null) return { said: 'Not saved: the save was cancelled', bad: false };
    const n = items.length.toLocaleString('en-US');
    return {
      bad: false,
      said: complete
        ? `${n} record${items.length === 1 ? '' : 's'} saved to ${where}`
        : `The newest ${n} records saved to ${where}; narrow the filters (pair, dates) for the rest`,
    };
  } catch (err) {
    return { bad: true, said: `Export failed: ${errorText(err)}` };
  }
}

const saveCsv = (file: string, text: string): Promise<string | null> =>
  saveTextFile(file, text, 'text/csv;charset=utf-8');

export function ExportCsv<T, F>({ st, spec }: { st: PagedState<T, F>; spec: ExportSpec }) {
  const [state, setState] = useState<{ busy: boolean; said: string | null; bad: boolean }>({
    busy: false,
    said: null,
    bad: false,
  });
  const run = async (): Promise<void> => {
    setState({ busy: true, said: null, bad: false });
    const out = await exportRecords((max) => st.actions.collect(max), spec, saveCsv);
    setState({ busy: false, ...out });
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
