// The files an import names: .zip, .csv and .jsonl files as given, folders searched for them and for
// gzip'd .csv.gz and .jsonl.gz (read through gunzip, file-source.ts readLines) (sorted,
// so an archive tree imports day after day). .CHECKSUM files are found beside their zips later; one
// named beside its zip (`import DIR/*` names both) is that zip's checksum, not a file to import.
// A file named more than once (`import a.zip a.zip`, or a.zip and its folder) is read once, and a
// CSV unzipped beside its zip (X.csv beside X.zip, as Binance's archives hold it) is the zip's data:
// the zip is read (its checksum checked), the CSV left out. (Both were read: the trades' CSV went in,
// then its zip was refused as overlapping, exit 1 for complete data; klines counted the file twice.)
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  checksumAlone,
  checksumsBeside,
  checksumTarget,
  isChecksumFile,
  isDataFile,
} from '../../src-shared/archive-files.ts';

const LINK_NOWHERE =
  'cannot be read: a link to a file that does not exist (or a loop of links); nothing of this file was imported';

/**
 * Why a file named to an import (`path`, named `file`) has no rows to read, or null: a zip's
 * .CHECKSUM named alone (beside its zip it is left out), its zip in its folder or not (an
 * `upload`'s copy has no folder); a link in a searched folder whose target is gone, or that leads
 * round in circles.
 */
export function unreadable(path: string, file: string, upload: boolean): string | null {
  if (isChecksumFile(file)) return checksumAlone(file, upload || existsSync(checksumTarget(path)));
  return existsSync(path) ? null : LINK_NOWHERE;
}

/**
 * Files to import under the given paths: .zip, .csv and .jsonl (a recorder's JSON lines) files, and
 * .csv.gz and .jsonl.gz (a recorder's gzip'd ones),
 * folders searched, sorted; and the .CHECKSUM files named beside their zips, left out of `files`
 * (each is read as its zip's checksum). A .CHECKSUM named without its zip stays in `files`, for
 * the import to refuse. A file named again (the same path, or the same file by another path: a
 * link, `./a.zip`, its folder) is left out of `files` and listed in `repeats` with the path it was
 * first named by, so an import reads and counts it once.
 */
export function expandPaths(paths: readonly string[]): {
  files: string[];
  checksums: string[];
  repeats: { path: string; first: string }[];
  /** CSVs left out as the data of the zip beside them (X.csv beside X.zip). */
  unzipped: { path: string; zip: string }[];
} {
  const out: string[] = [];
  const repeats: { path: string; first: string }[] = [];
  const seen = new Map<string, string>();
  const add = (p: string): void => {
    let real = p;
    try {
      real = realpathSync(p);
    } catch {
      // (a path that cannot be resolved is kept as given, for the import to refuse)
    }
    const first = seen.get(real);
    if (first !== undefined) repeats.push({ path: p, first });
    else {
      seen.set(real, p);
      out.push(p);
    }
  };
  // the folders being searched (their real paths): a link inside one back to it is not searched again
  const searching = new Set<string>();
  const walk = (p: string): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      // a link in a searched folder that leads nowhere (its target gone) or round in circles: one
      // named as data is kept for the import to refuse, naming it; the folder's other files go in
      // (the whole import was refused: `ENOENT ... stat 'DIR/old.zip'`, `ELOOP ... DIR/a/up/a/up/...`)
      if (isDataFile(p)) add(p);
      return;
    }
    if (st.isDirectory()) {
      const real = realpathSync(p);
      if (searching.has(real)) return;
      searching.add(real);
      for (const name of readdirSync(p).sort()) walk(join(p, name));
      searching.delete(real);
    } else if (st.isFile() && isDataFile(p)) add(p);
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new Error(`${p}: no such file or folder`);
    }
    if (st.isDirectory()) walk(p);
    else if (st.isFile()) add(p);
    // a device, pipe or socket has no end to read to: /dev/zero was read for ever, the service's
    // memory growing by tens of MB a second, and every import after it waited behind it
    else throw new Error(`${p}: not a file or folder (a device, pipe or socket cannot be imported)`);
  }
  const beside = checksumsBeside(out);
  const zips = new Set(out.filter((p) => p.endsWith('.zip')));
  const unzipped: { path: string; zip: string }[] = [];
  const files = out.filter((p) => {
    if (beside.has(p)) return false;
    const zip = p.endsWith('.csv') ? `${p.slice(0, -'.csv'.length)}.zip` : null;
    if (zip === null || !zips.has(zip)) return true;
    unzipped.push({ path: p, zip });
    return false;
  });
  return { files, checksums: out.filter((p) => beside.has(p)), repeats, unzipped };
}
