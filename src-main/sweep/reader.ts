// The service's view of the sweeps of its data folder (api/routes/sweeps.ts SweepResults): the
// store is opened when its file exists (the first sweep creates it, maybe while the service
// runs) and read as the sweep CLI writes it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SweepJobWire, SweepResults } from '../api/routes/sweeps.ts';
import { jobView, sweepCsv, sweepView } from './results-view.ts';
import { SqliteSweepStore, SWEEPS_FILE } from './sqlite-store.ts';

export function sweepResults(dataDir: string): SweepResults & { close(): void } {
  let store: SqliteSweepStore | null = null;
  const open = (): SqliteSweepStore | null => {
    if (store === null && dataDir !== ':memory:' && existsSync(join(dataDir, SWEEPS_FILE)))
      store = new SqliteSweepStore(dataDir);
    return store;
  };
  return {
    list: () => open()?.list() ?? [],
    get: (id) => {
      const s = open();
      return s === null ? undefined : sweepView(s, id);
    },
    csv: (id) => {
      const s = open();
      return s === null || s.summary(id) === undefined ? undefined : sweepCsv(s, id);
    },
    job: (id, index): SweepJobWire | undefined => {
      const j = open()?.job(id, index);
      if (j === undefined) return undefined;
      // the row the sweep's view lists, and the job's own detail: its output's end and equity curve
      return { ...jobView(j), output_tail: j.result?.outputTail ?? [], equity: j.result?.equity ?? [] };
    },
    close: () => store?.close(),
  };
}
