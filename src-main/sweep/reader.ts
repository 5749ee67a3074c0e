// The service's view of the sweeps of its data folder (api/routes/sweeps.ts SweepResults): the
// store is opened when its file exists (the first sweep creates it, maybe while the service
// runs) and read as the sweep CLI writes it.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SweepJobWire, SweepResults } from '../api/routes/sweeps.ts';
import { defaultDataDir } from '../paths.ts';
import { firstSweepCommands, sweepCommands } from './cli-lines.ts';
import type { SweepSummary } from './ports.ts';
import { jobView, sweepCsv, sweepView } from './results-view.ts';
import { SqliteSweepStore, SWEEPS_FILE } from './sqlite-store.ts';

export function sweepResults(dataDir: string): SweepResults & { close(): void } {
  let store: SqliteSweepStore | null = null;
  // the commands the page copies run from the repository as printed: `--data-dir` unless the folder is the CLI's default
  const cliDir =
    dataDir === ':memory:' || resolve(dataDir) === resolve(defaultDataDir()) ? undefined : resolve(dataDir);
  const commands = (s: SqliteSweepStore, w: SweepSummary) => {
    const spec = s.spec(w.id);
    return sweepCommands(w, cliDir, spec?.runner ?? 'local', spec?.build);
  };
  const open = (): SqliteSweepStore | null => {
    if (store === null && dataDir !== ':memory:' && existsSync(join(dataDir, SWEEPS_FILE)))
      store = new SqliteSweepStore(dataDir);
    return store;
  };
  return {
    list: () => {
      const s = open();
      return s === null ? [] : s.list().map((w) => ({ ...w, commands: commands(s, w) }));
    },
    get: (id) => {
      const s = open();
      const v = s === null ? undefined : sweepView(s, id);
      return s === null || v === undefined ? undefined : { ...v, commands: commands(s, v) };
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
    example: () => ({
      data_dir: dataDir === ':memory:' ? null : resolve(dataDir),
      ...firstSweepCommands(cliDir),
    }),
    close: () => store?.close(),
  };
}
