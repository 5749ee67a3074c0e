// `npm run data -- COMMAND ...`: market data from Binance's public archive into a data folder.
//
//   import PATH...   files (.zip or .csv) or folders of them, in the archive's own layout
//   list             the stored datasets
//   delete ID        removes one dataset
//
// The command opens the data folder itself (the folder lock, store/data-lock.ts, keeps a
// running venue and the command apart); exit code 0 when every file went in (or was already
// there), 1 when any was refused, 2 on bad usage (no command among it; --help alone is exit 0),
// 130 / 143 when a Ctrl-C / SIGTERM stopped an import (the file being read refused, leaving nothing).

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isInterval, nextOpenTime } from '../src-shared/intervals.ts';
import { skippedText, type SkippedStream } from '../src-shared/skipped-streams.ts';
import { holdFolder } from './data-folder-hold.ts';
import { closeDatabase, openDatabase } from './store/database.ts';
import { groupCommitOf } from './store/group-commit.ts';
import { DatasetsRepo } from './store/datasets-repo.ts';
import { defaultDataDir, makeDataDir, resolveFrom, userFolder } from './paths.ts';
import { DatasetService, type ImportResult } from './data/dataset-service.ts';
import type { DatasetRecord } from './data/ports.ts';
import { DEFAULT_BASE_URL, download, parseKinds, planDownload } from './data/download.ts';
import { resolveKey } from './data/archive-path.ts';
import { expandPaths } from './data/expand-paths.ts';
import { count } from './data/count-words.ts';
import { DATA_USAGE } from './data-cli-usage.ts';
import { parseDataCli, type DataCliOptions } from './data-cli-args.ts';
import { gapNote, GapCounts } from '../src-shared/gap-note.ts';

/** A dataset's line in `data list`, as stored here or as the service's `GET /api/v1/datasets` gives it. */
export function describeDataset(d: DatasetRecord): string {
  return datasetLine({
    ...d,
    specs: `specs ${d.specsSource} (tick ${d.specs.tickSize}, step ${d.specs.stepSize})`,
  });
}

/**
 * The line's span runs to the data's end as a replay takes it (docs/replay.md): a candle
 * dataset's last candle's close (the next open: three days of 1m candles end at the fourth day's
 * 00:00), an event dataset's last event.
 */
function datasetLine(d: {
  id: number;
  market: string;
  symbol: string;
  kind: string;
  interval: string | null;
  rows: number;
  firstTime: number | null;
  lastTime: number | null;
  files: number;
  specs: string;
}): string {
  const end = d.lastTime === null ? null : isInterval(d.interval) ? nextOpenTime(d.interval, d.lastTime) : d.lastTime;
  const span =
    d.firstTime === null || end === null
      ? 'empty'
      : `${new Date(d.firstTime).toISOString()} .. ${new Date(end).toISOString()}`;
  return `${d.id}\t${d.market} ${d.symbol} ${d.kind}${d.interval ? ' ' + d.interval : ''}\t${count(d.rows, 'row')}\t${span}\t${count(d.files, 'file')}\t${d.specs}`;
}

/** The signals that stop the command, and their numbers (it ends 128 + the number). */
const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;

/** An import's line; the dataset's gaps after it (and before: src-shared/gap-note.ts) said when the file's own count is not all. */
export function describeResult(r: ImportResult, datasetGaps?: number, gapsBefore?: number): string {
  if (!r.ok) return `refused   ${r.error}`;
  const what =
    r.key === null
      ? ''
      : ` -> dataset ${r.datasetId} (${r.key.market} ${r.key.symbol} ${r.key.kind}${r.key.interval ? ' ' + r.key.interval : ''})`;
  if (r.status === 'unchanged') return `unchanged ${r.file}${what}: already imported (${count(r.rows, 'row')})`;
  const all = gapNote(r.gaps, gapsBefore, datasetGaps);
  return `imported  ${r.file}${what}: ${count(r.rows, 'row')}, ${r.added} new, ${count(r.gaps, 'gap')}${all}, checksum ${r.checksum === 'verified' ? 'verified' : 'none beside the file'}`;
}

/** The lines said after a file's: the options that overrode its path, the streams it skipped. */
function notes(r: ImportResult): string[] {
  const skipped = r.ok ? skippedText(r.skipped) : '';
  return [
    ...r.warnings.map((w) => `warning   ${r.file}: ${w}`),
    ...(skipped === '' ? [] : [`skipped   ${r.file}: ${skipped}`]),
  ];
}

export async function runDataCli(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let opts: DataCliOptions;
  try {
    opts = parseDataCli(argv);
  } catch (e) {
    // the whole usage when no command was given; else the one line and where the usage is
    const bare = argv.every((a, i) => a.startsWith('--') || argv[i - 1]?.startsWith('--'));
    err(
      `perpdesk data: ${(e as Error).message}` +
        (bare ? `\n\n${DATA_USAGE}` : '\n(npm run data -- --help lists the commands and options)'),
    );
    return 2;
  }
  if (opts.command === 'help') {
    out(DATA_USAGE);
    return 0;
  }
  // `npm run` starts scripts in the package folder; paths are the user's, relative to where they ran it.
  const cwd = userFolder();
  let files: string[] = [];
  if (opts.command === 'import') {
    let checksums: string[];
    let repeats: { path: string; first: string }[];
    let unzipped: { path: string; zip: string }[];
    try {
      ({ files, checksums, repeats, unzipped } = expandPaths(opts.paths.map((p) => resolveFrom(cwd, p))));
    } catch (e) {
      err(`perpdesk data: ${(e as Error).message}`);
      return 2;
    }
    if (files.length === 0) {
      err('perpdesk data: no .zip, .csv or .jsonl files (nor .csv.gz, .jsonl.gz) under the given paths');
      return 2;
    }
    if (checksums.length > 0)
      out(
        `skipped   ${count(checksums.length, '.CHECKSUM file')} named beside their zips (each is read as its zip's checksum, not imported)`,
      );
    for (const r of repeats)
      out(
        r.path === r.first
          ? `same      ${r.path}: named more than once; read once`
          : `same      ${r.path}: the same file as ${r.first}, named before; read once`,
      );
    for (const u of unzipped) out(`same      ${u.path}: the data of ${u.zip} beside it (unzipped); the zip is read`);
  }
  const dataDir = resolveFrom(cwd, opts.dataDir ?? defaultDataDir());
  // a folder this user cannot create (under a file, a read-only place, /proc): one line, before any work
  try {
    makeDataDir(dataDir);
  } catch (e) {
    err(cannotUse(dataDir, e));
    return 2;
  }
  let downloadFailed = 0;
  if (opts.command === 'download') {
    const dir = resolveFrom(cwd, opts.out ?? join(dataDir, 'downloads'));
    let plan;
    try {
      plan = planDownload({
        symbol: opts.symbol!,
        market: opts.market!,
        kinds: parseKinds(opts.kinds!),
        from: opts.from!,
        to: opts.to!,
        // a month some of whose days an earlier run fetched goes day by day (its monthly file
        // would overlap their trades)
        has: (path) => existsSync(join(dir, path)),
      });
    } catch (e) {
      err(`perpdesk data: ${(e as Error).message}`);
      return 2;
    }
    try {
      makeDataDir(dir); // before any fetch, and not by a recursive mkdir (under /proc it never returns)
    } catch (e) {
      err(cannotUse(dir, e, 'the download folder', opts.out === undefined ? null : '--out'));
      return 2;
    }
    out(`Fetching ${count(plan.length, 'file')} from ${opts.baseUrl ?? DEFAULT_BASE_URL} into ${dir}`);
    // Ctrl-C (SIGINT) or SIGTERM while fetching ends the command at once, as before, but says so
    // and what the next run does (it ended without a word); 128 + the signal's number
    let filesDone = 0;
    const onSignal = (sig: NodeJS.Signals): void => {
      out(
        `stopped   the download: interrupted (${sig}) with ${filesDone} of ${count(plan.length, 'file')} done; nothing was imported. ` +
          'Run the same command again: it keeps the zips it has and continues the others from their .part files',
      );
      process.exit(128 + SIGNALS[sig as keyof typeof SIGNALS]);
    };
    for (const s of Object.keys(SIGNALS)) process.once(s, onSignal);
    let results;
    try {
      results = await download(plan, {
        baseUrl: opts.baseUrl,
        dir,
        concurrency: opts.concurrency,
        idleTimeoutMs: opts.idleTimeout === undefined ? undefined : opts.idleTimeout * 1000,
        onProgress: (p) =>
          err(
            `  ${(filesDone = p.filesDone)}/${count(p.filesTotal, 'file')}, ${(p.bytes / 1e6).toFixed(1)} MB, ${(p.rate / 1e6).toFixed(2)} MB/s, ${p.idleSeconds !== null ? `nothing has come for ${p.idleSeconds} s` : `ETA ${p.etaSeconds === null ? '?' : `${Math.ceil(p.etaSeconds)} s`}`}`,
          ),
      });
    } catch (e) {
      err(`perpdesk data: ${(e as Error).message}`);
      return 1;
    } finally {
      for (const s of Object.keys(SIGNALS)) process.off(s, onSignal);
    }
    for (const r of results) {
      if (r.status === 'downloaded') out(`fetched   ${r.file} (${count(r.bytes, 'byte')}, checksum verified)`);
      else if (r.status === 'present') out(`had       ${r.file} (checksum verified, not fetched again)`);
      else if (r.status === 'missing') out(`missing   ${r.error}`);
      else if (r.status === 'unpublished') out(`not yet   ${r.error}`);
      else out(`failed    ${r.error}`);
    }
    downloadFailed = results.filter((r) => r.status === 'missing' || r.status === 'failed').length;
    const notYet = results.filter((r) => r.status === 'unpublished').length;
    const had = results.filter((r) => r.status === 'downloaded' || r.status === 'present');
    out(
      `${had.length} of ${count(results.length, 'file')} in ${dir}${downloadFailed > 0 ? `; ${downloadFailed} not had` : ''}${notYet > 0 ? `; ${notYet} not published yet` : ''}.`,
    );
    if (opts.noImport || had.length === 0) return downloadFailed > 0 ? 1 : 0;
    files = had.map((r) => r.path);
    opts = { ...opts, command: 'import' };
  }
  // Ctrl-C (SIGINT) or SIGTERM while waiting for the perpdesk holding the folder ends the command,
  // saying so (it ended without a word), 128 + the signal's number: nothing was done yet
  const onWaitSignal = (sig: NodeJS.Signals): void => {
    const none = opts.command === 'delete' ? 'deleted' : opts.command === 'list' ? 'listed' : 'imported';
    out(
      `stopped   waiting for the data folder: interrupted (${sig}); nothing was ${none}. Run the same command ` +
        'again once the perpdesk holding it has opened its API or ended',
    );
    process.exit(128 + SIGNALS[sig as keyof typeof SIGNALS]);
  };
  for (const s of Object.keys(SIGNALS)) process.once(s, onWaitSignal);
  let held;
  try {
    held = await holdFolder(dataDir, out);
  } finally {
    for (const s of Object.keys(SIGNALS)) process.off(s, onWaitSignal);
  }
  if (held.kind === 'unusable') {
    // a folder this user cannot write (a file): said in one line, as the sweep CLI does
    err(cannotUse(dataDir, held.error));
    return 2;
  }
  if (held.kind === 'replay') {
    err(
      `perpdesk data: the data folder ${dataDir} is held by a replay (npm run serve -- --replay, process ${held.pid}, ` +
        `at ${held.url}), which reads its datasets but does not import, list or delete them: stop it (Ctrl-C) and ` +
        'run the command again, or use another folder (--data-dir)',
    );
    return 1;
  }
  if (held.kind === 'busy') {
    err(`perpdesk data: ${held.error.message}`);
    return 1;
  }
  if (held.kind === 'service') {
    // A venue holds the folder: the work goes through its API (the same service code).
    const code = await runThroughService(held.url, opts, files, out, err);
    return downloadFailed > 0 ? 1 : code;
  }
  const lock = held.lock;
  const db = openDatabase({ dataDir });
  try {
    const service = new DatasetService(new DatasetsRepo(db));
    switch (opts.command) {
      case 'list': {
        const all = service.list();
        if (all.length === 0) out(`No datasets in ${dataDir}.`);
        for (const d of all) {
          out(describeDataset(d));
          for (const g of service.gaps(d.id))
            out(`\tgap ${new Date(g.start).toISOString()} .. ${new Date(g.end).toISOString()}: ${g.detail}`);
        }
        return 0;
      }
      case 'delete':
        try {
          service.delete(Number(opts.paths[0]));
        } catch (e) {
          err(`perpdesk data: ${(e as Error).message}`);
          return 1;
        }
        out(`Deleted dataset ${opts.paths[0]}.`);
        return 0;
      default: {
        // Ctrl-C (SIGINT) or SIGTERM: the file being staged is refused, leaving nothing (as a
        // bad row would), no other is taken, and the command ends 128 + the signal's number;
        // a second one ends it at once (the next start on the folder removes what was staged)
        const stop = new AbortController();
        const signals = SIGNALS;
        const onSignal = (sig: NodeJS.Signals): void => {
          for (const s of Object.keys(signals)) process.off(s, onSignal);
          stop.abort(sig);
        };
        for (const s of Object.keys(signals)) process.once(s, onSignal);
        let failed = 0;
        let imported = 0;
        const gapCounts = new GapCounts(service.list().map((d) => [d.id, service.gaps(d.id).length]));
        try {
          for (const f of files) {
            if (stop.signal.aborted) break;
            const i = imported + failed + 1;
            const [r] = await service.importFiles([f], {
              symbol: opts.symbol,
              market: opts.market,
              kind: opts.kind,
              interval: opts.interval,
              signal: stop.signal,
              onProgress: (p) =>
                err(
                  `  [${i}/${files.length}] ${p.file}: ${count(p.rows, 'row')}, ${(p.bytes / 1e6).toFixed(1)} MB read`,
                ),
            });
            if (!r.ok && stop.signal.aborted) {
              out(`stopped   ${r.error}`);
              break;
            }
            if (r.ok) imported++;
            else failed++;
            const after = r.datasetId === null ? undefined : service.gaps(r.datasetId).length;
            out(describeResult(r, after, gapCounts.swap(r.datasetId, after)));
            for (const line of notes(r)) out(line);
          }
        } finally {
          for (const s of Object.keys(signals)) process.off(s, onSignal);
        }
        const left = files.length - imported - failed;
        const sig = stop.signal.aborted ? (stop.signal.reason as keyof typeof signals) : null;
        out(
          `${imported} of ${count(files.length, 'file')} in ${dataDir}${failed > 0 ? `; ${failed} refused` : ''}` +
            `${sig === null ? '' : `; interrupted (${sig})${left > 0 ? `: ${left} not imported` : ''}`}.`,
        );
        if (sig !== null) return 128 + signals[sig];
        return failed > 0 || downloadFailed > 0 ? 1 : 0;
      }
    }
  } finally {
    groupCommitOf(db).commitNow();
    closeDatabase(db);
    lock.release();
  }
}

/** The API's view of an import result, back in the service's shape (for describeResult). */
function fromView(v: Record<string, unknown>, key: ImportResult['key']): ImportResult {
  return {
    file: String(v.file),
    ok: v.ok === true,
    status: v.status as ImportResult['status'],
    datasetId: (v.dataset_id as number | null) ?? null,
    key,
    rows: Number(v.rows),
    added: Number(v.added),
    gaps: Number(v.gaps),
    checksum: v.checksum === 'verified' ? 'verified' : 'none',
    sha256: null,
    error: (v.error as string | null) ?? null,
    errorRow: (v.error_row as number | null) ?? null,
    warnings: (v.warnings as string[] | undefined) ?? [],
    skipped: (v.skipped as SkippedStream[] | undefined) ?? [],
  };
}

/** Why the file's dataset cannot be told from its path and the options, in the CLI's words; null when it can. */
function keyRefusal(
  file: string,
  o: { symbol?: string; market?: string; kind?: string; interval?: string },
): string | null {
  try {
    resolveKey(resolve(file), { symbol: o.symbol, market: o.market, kind: o.kind, interval: o.interval, via: 'cli' });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

async function call(url: string, init?: RequestInit): Promise<{ code: number; message: string; data: any }> {
  const r = await fetch(url, init);
  const body = (await r.json()) as { code: number; message: string; data: any };
  return body;
}

/** Runs the command through the venue that holds the data folder, one request per file. */
async function runThroughService(
  base: string,
  opts: DataCliOptions,
  files: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  out(`A perpdesk service is running on this data folder (${base}); the work goes through it.`);
  try {
    if (opts.command === 'list') {
      const r = await call(`${base}/api/v1/datasets`);
      if (r.code !== 0) throw new Error(r.message);
      if (r.data.length === 0) out('No datasets.');
      for (const d of r.data) {
        out(
          datasetLine({
            ...d,
            firstTime: d.first_time,
            lastTime: d.last_time,
            specs: `specs ${d.specs.source} (tick ${d.specs.tick_size}, step ${d.specs.step_size})`,
          }),
        );
        for (const g of d.gaps)
          out(`\tgap ${new Date(g.start_time).toISOString()} .. ${new Date(g.end_time).toISOString()}: ${g.detail}`);
      }
      return 0;
    }
    if (opts.command === 'delete') {
      const r = await call(`${base}/api/v1/datasets/${opts.paths[0]}`, { method: 'DELETE' });
      if (r.code !== 0) {
        err(`perpdesk data: ${r.message}`);
        return 1;
      }
      out(`Deleted dataset ${opts.paths[0]}.`);
      return 0;
    }
    let failed = 0;
    const datasets = new Map<number, ImportResult['key']>();
    const listed = await call(`${base}/api/v1/datasets`);
    const gapCounts = new GapCounts(listed.code === 0 ? listed.data.map((d: any) => [d.id, d.gaps.length]) : null);
    for (const f of files) {
      const r = await call(`${base}/api/v1/datasets/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          paths: [resolve(f)],
          symbol: opts.symbol,
          market: opts.market,
          kind: opts.kind,
          interval: opts.interval,
        }),
      });
      if (r.code !== 0) {
        failed++;
        out(`refused   ${f}: ${r.message}`);
        continue;
      }
      const v = r.data.results[0] as Record<string, unknown>;
      const id = v.dataset_id as number | null;
      // the dataset as it is after the file (its key, and its gaps: the file's line says a gap it left between files)
      const d = id === null ? null : await call(`${base}/api/v1/datasets/${id}`);
      if (id !== null && d?.code === 0)
        datasets.set(id, {
          market: d.data.market,
          symbol: d.data.symbol,
          kind: d.data.kind,
          interval: d.data.interval,
        });
      let res = fromView(v, id === null ? null : (datasets.get(id) ?? null));
      // refused before it had a dataset (what it is not said by its name, or said wrong): the reason
      // as this command's options are written (--symbol), not as the route's fields ('symbol')
      if (res.status === 'refused' && id === null)
        res = {
          ...res,
          error:
            keyRefusal(f, opts) ??
            res.error?.replace(/give '(\w+)' with the request$/, 'give --$1 to import it as either') ??
            null,
        };
      if (!res.ok) failed++;
      const after = d?.code === 0 ? (d.data.gaps as unknown[]).length : undefined;
      out(describeResult(res, after, gapCounts.swap(id, after)));
      for (const line of notes(res)) out(line);
    }
    out(
      `${files.length - failed} of ${count(files.length, 'file')} through ${base}${failed > 0 ? `; ${failed} refused` : ''}.`,
    );
    return failed > 0 ? 1 : 0;
  } catch (e) {
    err(`perpdesk data: the service at ${base} did not answer: ${(e as Error).message}`);
    return 1;
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  runDataCli(
    process.argv.slice(2),
    (l) => console.log(l),
    (l) => console.error(l),
  ).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error('perpdesk data: failed:', e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}

/** The one line for a data folder this user cannot create or write. */
function cannotUse(dir: string, e: unknown, what = 'the data folder', option: string | null = '--data-dir'): string {
  const named = `${what} ${dir}${option === null ? '' : ` (${option})`}`;
  return `perpdesk data: cannot use ${named}: ${(e as Error).message}; it must be a folder you can write`;
}
