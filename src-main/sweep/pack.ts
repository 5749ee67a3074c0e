// A sweep's dataset pack: the imported datasets of the sweep's symbols, copied out of the
// coordinator's data folder into one SQLite file once per sweep. Workers open it read-only (many
// processes at once), or, on another machine, fetch it by its SHA-256 and check it. The data
// folder itself is only read (a live service may be running on it), and a sweep resumed later
// replays the very data it started with.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DatasetService } from '../data/dataset-service.ts';
import { DatasetReplayData } from '../replay/dataset-replay-data.ts';
import type { DatasetRecord } from '../data/ports.ts';
import { closeDatabase, databaseFile, openDatabase } from '../store/database.ts';
import { DatasetsRepo } from '../store/datasets-repo.ts';
import type { JobData } from './run-job.ts';

export interface PackRef {
  /** Where the coordinator wrote it (a worker on the same machine, or on a shared folder, reads it there). */
  path: string;
  sha256: string;
  /** Where a worker without the file fetches it (the coordinator's pack server), if anywhere. */
  url?: string;
}

/** Tables keyed by dataset_id and file_id, copied after `datasets` and its files. */
const DATASET_TABLES = ['dataset_candles', 'dataset_trade_blocks', 'dataset_events', 'dataset_gaps'];

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (b) => h.update(b))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

/** The datasets of a data folder, read without taking the folder (a live service may hold it). */
export function listDatasets(dataDir: string): DatasetRecord[] {
  const file = databaseFile(dataDir);
  if (!existsSync(file))
    throw new RangeError(`no perpdesk database in ${dataDir} (import data first: npm run data -- import ...)`);
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return new DatasetsRepo(db).list();
  } finally {
    db.close();
  }
}

/** Copies the datasets of `symbols` from the data folder into a pack file at `out`; answers its checksum. */
export async function buildPack(dataDir: string, symbols: readonly string[], out: string): Promise<PackRef> {
  const source = databaseFile(dataDir);
  if (!existsSync(source))
    throw new RangeError(`no perpdesk database in ${dataDir} (import data first: npm run data -- import ...)`);
  const work = `${out}.building`;
  rmSync(work, { recursive: true, force: true });
  const db = openDatabase({ dataDir: work });
  try {
    db.prepare('ATTACH DATABASE ? AS src').run(source);
    const marks = symbols.map(() => '?').join(', ');
    db.exec('BEGIN');
    // the datasets holding a file an import finished (one whose first file is being imported
    // right now is not data yet)
    db.prepare(
      `INSERT INTO datasets SELECT * FROM src.datasets WHERE symbol IN (${marks})` +
        " AND id IN (SELECT dataset_id FROM src.dataset_files WHERE state = 'done')",
    ).run(...symbols);
    // the files an import finished only (a file being imported right now is not the data yet)
    db.exec(
      `INSERT INTO dataset_files SELECT * FROM src.dataset_files WHERE state = 'done' AND dataset_id IN (SELECT id FROM datasets)`,
    );
    for (const t of DATASET_TABLES) {
      db.exec(
        `INSERT INTO ${t} SELECT * FROM src.${t} WHERE dataset_id IN (SELECT id FROM datasets)` +
          ' AND (file_id IS NULL OR file_id IN (SELECT id FROM dataset_files))',
      );
    }
    db.exec('COMMIT');
    db.exec('DETACH DATABASE src');
    // one self-contained file (no WAL beside it): a read-only open needs nothing else
    db.exec('PRAGMA journal_mode = DELETE');
  } finally {
    closeDatabase(db);
  }
  stampPackId(databaseFile(work));
  mkdirSync(dirname(out), { recursive: true });
  renameSync(databaseFile(work), out);
  rmSync(work, { recursive: true, force: true });
  return { path: out, sha256: await sha256File(out) };
}

/**
 * Gives a pack the database id (PRAGMA application_id) of its data instead of openDatabase's random
 * one, so that the same datasets pack to the same bytes and the same SHA-256 in every sweep (a
 * worker's cache then holds a pack once, not once a sweep). The random id tells a database's WAL
 * from another's (database.ts checkDatabase); a pack has no WAL (journal_mode DELETE, opened
 * read-only), and its id is still its own: a hash of its datasets and their files (names,
 * checksums, rows, specs), so two packs of different data keep different ids.
 */
function stampPackId(file: string): void {
  const db = new DatabaseSync(file);
  try {
    const h = createHash('sha256');
    for (const t of ['datasets', 'dataset_files'])
      for (const row of db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()) h.update(`${t}:${JSON.stringify(row)}\n`);
    // 1 to 2^31 - 1, as openDatabase's (0 is no id)
    const id = (h.digest().readUInt32BE(0) % (2 ** 31 - 1)) + 1;
    db.exec(`PRAGMA application_id = ${id}`);
  } finally {
    db.close();
  }
}

export interface OpenPack {
  data: JobData;
  datasets: DatasetRecord[];
  close(): void;
}

/** A pack file opened read-only for replays. */
export function openPack(file: string): OpenPack {
  const db = new DatabaseSync(file, { readOnly: true });
  const service = new DatasetService(new DatasetsRepo(db));
  return { data: new DatasetReplayData(service.store), datasets: service.list(), close: () => db.close() };
}

/** Where a pack of this checksum lives in a worker's cache folder. */
export function cachedPackPath(cacheDir: string, sha256: string): string {
  return join(cacheDir, `${sha256}.db`);
}
