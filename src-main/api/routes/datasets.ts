// Imported market data: the catalogue of datasets, their candles and trades, import
// and delete. Listing and reading are public market data; import, delete and editing specs
// change the venue's files and answer loopback callers only (like the admin routes).
// Candles answer exactly like /fapi/v1/klines (bare array, newest first, errors HTTP 200 with
// {code, message}); everything else is an envelope route.
// Schemas are TypeBox values (schemas.ts): the handlers' request types are Static<> of them and
// the records they answer are typed by them (DatasetWire, ImportResultWire; trade rows are
// DatasetTradeWire, which the dataset service returns as they are), so no hand-kept type sits beside a schema.
import { createWriteStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Type, type Static } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';

import { DatasetError, type DatasetService, type ImportResult } from '../../data/dataset-service.ts';
import type { DatasetRecord } from '../../data/ports.ts';
import { expandPaths } from '../../data/expand-paths.ts';
import { isDataFile } from '../../../src-shared/archive-files.ts';

import type { ImportResultWire } from '../../../src-shared/types/datasets.ts';
import type { Venue } from '../../services/venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { noQuery, type ApiInstance } from '../schemas.ts';
import { attachedValidationError, undeclared } from '../strict-input.ts';
import { klinesValidationError, sentQuery } from './klines.ts';
import {
  DATASET_KLINES_DEFAULT_LIMIT,
  DATASET_KLINES_MAX_LIMIT,
  DATASET_TRADES_DEFAULT_LIMIT,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_NAME_BYTES,
  UPLOAD_TYPES,
  datasetSchema,
  deletedSchema,
  importAnswerSchema,
  tradeSchema,
  idParams,
  specsBody,
  klinesQuery,
  klinesAnswer,
  tradesQuery,
  importQuery,
  importJsonBody,
  importBody,
} from './dataset-schemas.ts';

function view(d: DatasetRecord, service: DatasetService): Static<typeof datasetSchema> {
  return {
    id: d.id,
    market: d.market,
    symbol: d.symbol,
    kind: d.kind,
    interval: d.interval,
    first_time: d.firstTime,
    last_time: d.lastTime,
    rows: d.rows,
    files: d.files,
    gaps: service.gaps(d.id).map((g) => ({ start_time: g.start, end_time: g.end, detail: g.detail })),
    specs: {
      tick_size: d.specs.tickSize,
      step_size: d.specs.stepSize,
      tiers: d.specs.tiers.map((t) => ({ cap: t.cap, max_leverage: t.maxLeverage, mmr: t.mmr })),
      source: d.specsSource,
    },
    first_snapshot_time: d.kind === 'depth' ? firstSnapshot(service, d) : null,
  };
}

/**
 * The first snapshot of each depth dataset, by the rows it held when read: the look-up walks a
 * diff stream recorded alone to its end (no snapshot to stop at), so it is made once per import,
 * not on every list of the Data page and the Replay dialog.
 */
const snapshotMemo = new WeakMap<DatasetService, Map<number, { rows: number; ms: number | null }>>();

/** ms of a depth dataset's first snapshot (stored in µs), null when it holds none. */
function firstSnapshot(service: DatasetService, d: DatasetRecord): number | null {
  let memo = snapshotMemo.get(service);
  if (memo === undefined) snapshotMemo.set(service, (memo = new Map()));
  const had = memo.get(d.id);
  if (had !== undefined && had.rows === d.rows) return had.ms;
  const us = service.store.firstSnapshotTime(d.id);
  const ms = us === null ? null : Math.floor(us / 1000);
  memo.set(d.id, { rows: d.rows, ms });
  return ms;
}

function resultView(r: ImportResult): ImportResultWire {
  return {
    file: r.file,
    ok: r.ok,
    status: r.status,
    dataset_id: r.datasetId,
    rows: r.rows,
    added: r.added,
    gaps: r.gaps,
    checksum: r.checksum,
    error: r.error,
    error_row: r.errorRow,
    warnings: [...r.warnings],
    skipped: r.skipped.map((x) => ({ ...x })),
  };
}

/** Text about an uploaded file without the temporary folder the service copied it into. */
function withoutFolder(text: string, dir: string): string {
  return text.split(`${dir}${sep}`).join('').split(dir).join('');
}

/** An uploaded file's result, named as the client named it. */
function uploadedView(r: ImportResultWire, dir: string, name: string): ImportResultWire {
  // the service checked the upload against a .CHECKSUM file the route wrote from the `checksum`
  // parameter: the client knows the parameter, not that file
  const said = (e: string): string =>
    withoutFolder(e, dir).replace(`does not match ${name}.CHECKSUM`, "does not match the 'checksum' parameter");
  return { ...r, file: withoutFolder(r.file, dir), error: r.error === null ? null : said(r.error) };
}

/** Service errors in the envelope registry. */
function envelopeError(err: unknown): unknown {
  if (!(err instanceof DatasetError)) return err;
  const def = { not_found: Errors.DATASET_NOT_FOUND, in_use: Errors.DATASET_IN_USE, invalid: Errors.INVALID_PARAMETER };
  return new ApiError(def[err.kind], err.message);
}

export default async function datasetRoutes(
  app: ApiInstance,
  opts: { venue: Venue; datasets?: DatasetService },
): Promise<void> {
  const service = (): DatasetService => opts.datasets ?? opts.venue.datasets;

  // A replay venue keeps no market data: it reads the live venue's data folder when it starts, and
  // its own store is an empty one in memory. Its dataset routes listed nothing and took imports that
  // nothing read and that went with the replay; they answer 1108 instead, naming where the data is.
  const replay = opts.venue.replay;
  if (replay !== null) {
    app.addHook('onRequest', async () => {
      const live = replay.status().live_url;
      throw new ApiError(
        Errors.NOT_A_REPLAY,
        'Market data is listed, imported, edited and deleted on the live venue ' +
          (live === null ? "of the replay's data folder (npm run data)" : `(${live})`) +
          ', not on a replay, which reads its datasets when it starts',
      );
    });
  }

  // Uploaded files arrive as the raw body stream, read by the handler (this plugin's scope only).
  app.addContentTypeParser(UPLOAD_TYPES, { bodyLimit: MAX_UPLOAD_BYTES }, (_req, payload, done) => done(null, payload));

  app.get(
    '/api/v1/datasets',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Stored datasets',
        description:
          'Every imported dataset: one (market, symbol, kind, interval) series with its time span, row count, gaps and contract specs.',
        querystring: noQuery,
        response: { 200: envelopeSchema(Type.Array(datasetSchema)), ...standardErrors() },
      },
    },
    async () => {
      const s = service();
      return ok(s.list().map((d) => view(d, s)));
    },
  );

  app.get(
    '/api/v1/datasets/:id',
    {
      schema: {
        tags: ['datasets'],
        summary: 'One dataset',
        params: idParams,
        querystring: noQuery,
        response: { 200: envelopeSchema(datasetSchema), ...standardErrors() },
      },
    },
    async (req) => {
      const s = service();
      try {
        return ok(view(s.get(req.params.id), s));
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.delete(
    '/api/v1/datasets/:id',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['datasets'],
        summary: 'Delete a dataset (loopback only)',
        description:
          'Removes the dataset with every candle, trade, event, file record and gap of it. 400 / 1011 while a running replay reads its pair (close the replay first); 403 / 2102 to callers not on this machine.',
        params: idParams,
        querystring: noQuery,
        response: {
          200: envelopeSchema(deletedSchema),
          ...standardErrors(403),
        },
      },
    },
    async (req) => {
      try {
        service().delete(req.params.id);
      } catch (err) {
        throw envelopeError(err);
      }
      return ok({ id: req.params.id });
    },
  );

  app.put(
    '/api/v1/datasets/:id/specs',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['datasets'],
        summary: 'Edit the contract specs of a dataset (loopback only)',
        description: "Sets tick and step size (the tiers are kept); the record's specs.source becomes 'edited'.",
        params: idParams,
        querystring: noQuery,
        body: specsBody,
        response: { 200: envelopeSchema(datasetSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const s = service();
      if (!/[1-9]/.test(req.body.tick_size) || !/[1-9]/.test(req.body.step_size)) {
        throw new ApiError(Errors.INVALID_PARAMETER, 'tick_size and step_size must be greater than 0');
      }
      try {
        const d = s.get(req.params.id);
        return ok(
          view(s.editSpecs(d.id, { ...d.specs, tickSize: req.body.tick_size, stepSize: req.body.step_size }), s),
        );
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.get(
    '/api/v1/datasets/:id/klines',
    {
      config: { errorStyle: 'klines' },
      attachValidation: true,
      schema: {
        tags: ['datasets'],
        summary: 'Candles of a candle dataset',
        description:
          'The same rows in the same order as /fapi/v1/klines (newest first; every candle closed, so element 11 is true). ' +
          "At the dataset's own interval the stored candles are answered as imported (Binance's strings verbatim); at a " +
          'coarser interval that its candles tile they are aggregated from them, equal to what Binance publishes. A period ' +
          'with no stored candle (an outage, a missing day) is absent: gaps are never filled. Modes and errors as ' +
          "/fapi/v1/klines: limit (default 500, 1..1500) or start_time + end_time (where the range, cut to the dataset's " +
          'span, covers at most 1500 periods of the interval, else 6000); errors ' +
          'are HTTP 200 with {code, message}: 6000 invalid parameter (also a dataset that holds no candles or an interval ' +
          'that cannot be built from it), 6001 invalid interval, 6002 unknown dataset, 6003 time-range rule, 6004 limit, ' +
          '6007 URL longer than 8192 characters.',
        params: idParams,
        querystring: klinesQuery,
        response: { 200: klinesAnswer },
      },
    },
    async (req) => {
      const invalid = attachedValidationError(req);
      if (invalid)
        throw klinesValidationError(invalid, sentQuery(req.url), DATASET_KLINES_MAX_LIMIT, undeclared(invalid, req));
      const q = req.query;
      const hasStart = q.start_time !== undefined;
      if (hasStart !== (q.end_time !== undefined))
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'start_time and end_time must be given together');
      if (hasStart && q.limit !== undefined)
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'limit cannot be combined with start_time and end_time');
      let rows;
      try {
        rows = service().klines(
          req.params.id,
          q.interval,
          hasStart
            ? { startTime: q.start_time, endTime: q.end_time, limit: DATASET_KLINES_MAX_LIMIT, refuseWider: true }
            : { limit: q.limit ?? DATASET_KLINES_DEFAULT_LIMIT },
        );
      } catch (err) {
        if (err instanceof DatasetError) {
          throw new ApiError(
            err.kind === 'not_found' ? Errors.KLINES_SYMBOL_NOT_FOUND : Errors.KLINES_INVALID_PARAMETER,
            err.message,
          );
        }
        throw err;
      }
      if (rows.length > DATASET_KLINES_MAX_LIMIT) {
        throw new ApiError(
          Errors.KLINES_INVALID_PARAMETER,
          `The range holds more than ${DATASET_KLINES_MAX_LIMIT} ${q.interval} candles; narrow it`,
        );
      }
      const out = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[rows.length - 1 - i];
        out[i] = [r[0], r[6], r[1], r[2], r[3], r[4], r[5], r[7], r[8], r[9], r[10], true];
      }
      return out;
    },
  );

  app.get(
    '/api/v1/datasets/:id/trades',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Trades of a trade dataset (aggTrades or trades), in time order',
        description:
          'Up to `limit` trades from `start_time` on (ms, default the first), ascending by time and id. Page on by asking ' +
          'again from the last time seen (trades sharing that ms come again: skip ids already seen).',
        params: idParams,
        querystring: tradesQuery,
        response: { 200: envelopeSchema(Type.Array(tradeSchema)), ...standardErrors() },
      },
    },
    async (req) => {
      try {
        return ok(
          service().trades(req.params.id, {
            startTime: req.query.start_time,
            limit: req.query.limit ?? DATASET_TRADES_DEFAULT_LIMIT,
          }),
        );
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.post(
    '/api/v1/datasets/import',
    {
      config: { auth: 'loopback' },
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        tags: ['datasets'],
        summary: 'Import archive files (loopback only)',
        description:
          'Either a JSON body naming files or folders on this machine ({"paths": [...]}, what `npm run data -- import` ' +
          'sends), or one uploaded file as the raw body (Content-Type application/zip, application/octet-stream, ' +
          'text/csv or application/gzip) with its archive file name in `name` (e.g. BTCUSDT-1m-2025-01-06.zip; a ' +
          '.csv.gz or .jsonl.gz is read through gunzip) and optionally its SHA-256 ' +
          'in `checksum`. Symbol, market, kind and interval come from the names and folders, or from the parameters. ' +
          'Answers when every file is done, one result per file: a refused file (bad checksum, bad row: the row is ' +
          'named) imported nothing. Imports run one at a time. 403 / 2102 to callers not on this machine.',
        querystring: importQuery,
        body: importBody,
        response: {
          200: envelopeSchema(importAnswerSchema),
          ...standardErrors(403),
        },
      },
    },
    async (req, reply) => {
      const s = service();
      const body = req.body;
      if (typeof (body as Readable | undefined)?.pipe === 'function') {
        const q = req.query;
        if (q.name === undefined)
          throw new ApiError(Errors.MISSING_PARAMETER, "An uploaded file needs its archive file name in 'name'");
        const name = basename(q.name.replace(/\\/g, '/'));
        // (the CLI's and the Data dialog's rule: a .csv.gz or .jsonl.gz is read through gunzip)
        if (!isDataFile(name))
          throw new ApiError(
            Errors.INVALID_PARAMETER,
            "'name' must end in .zip, .csv or .jsonl, or .csv.gz or .jsonl.gz for a gzip'd one",
          );
        // (no file name holds a NUL: writing the copy threw, answered 5000 Internal error)
        if (name.includes('\0'))
          throw new ApiError(
            Errors.INVALID_PARAMETER,
            "Invalid query parameter 'name': must not hold a NUL character (%00), which no file name can hold",
          );
        // the copy is written under this name (and its .CHECKSUM beside it): 200 characters of
        // another script than Latin can be more bytes than a file name may hold (255), which the
        // file system refused with ENAMETOOLONG, answered 5000
        const bytes = Buffer.byteLength(name, 'utf8');
        if (bytes > MAX_UPLOAD_NAME_BYTES)
          throw new ApiError(
            Errors.INVALID_PARAMETER,
            `Invalid query parameter 'name': must be at most ${MAX_UPLOAD_NAME_BYTES} bytes in UTF-8, ` +
              `what a file name can hold on disk (got ${bytes}); rename the file`,
          );
        // a client that hangs up before its answer (the Data dialog's Cancel, a closed tab, an aborted
        // SDK call) stops its upload: the file is refused, nothing of it kept (it was imported whole,
        // for no one; one cut off mid-body was logged as an 'unhandled error')
        const hungUp = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) hungUp.abort('the client hung up');
        });
        const dir = s.uploadFolder();
        try {
          const file = join(dir, name);
          try {
            await pipeline(body as Readable, createWriteStream(file));
          } catch (err) {
            if (!hungUp.signal.aborted && !req.raw.aborted) throw err;
            throw new ApiError(
              Errors.BAD_REQUEST,
              `${name}: the upload was cut off (the client hung up); nothing was imported`,
            );
          }
          if (q.checksum !== undefined) {
            await writeFile(`${file}.CHECKSUM`, `${q.checksum.toLowerCase()}  ${name}\n`);
          }
          const results = await s.importFiles([file], {
            symbol: q.symbol,
            market: q.market,
            kind: q.kind,
            interval: q.interval,
            via: 'api',
            signal: hungUp.signal,
          });
          // the client named the file, not the service's temporary copy of it
          return ok({ results: results.map((r) => uploadedView(resultView(r), dir, name)) });
        } catch (err) {
          if (err instanceof Error) err.message = withoutFolder(err.message, dir);
          throw err;
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      const b = body as Static<typeof importJsonBody> | undefined;
      if (b === undefined || b === null)
        throw new ApiError(Errors.MISSING_PARAMETER, 'Missing request body: send {"paths": [...]} or an uploaded file');
      let files: string[];
      try {
        files = expandPaths(b.paths).files; // (a .CHECKSUM named beside its zip is read with it)
      } catch (err) {
        // expandPaths words a missing path itself; a system error (EACCES ...) is named by its code only
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === undefined ? (err as Error).message : `a path cannot be read (${code})`;
        throw new ApiError(Errors.INVALID_PARAMETER, `Invalid body parameter 'paths': ${why}`);
      }
      const results = await s.importFiles(files, {
        symbol: b.symbol,
        market: b.market,
        kind: b.kind,
        interval: b.interval,
        via: 'api',
      });
      return ok({ results: results.map(resultView) });
    },
  );
}
