// The files an import names: .zip, .csv and .jsonl files as given, folders searched for them (sorted,
// so an archive tree imports day after day). .CHECKSUM files are found beside their zips later; one
// named beside its zip (`import DIR/*` names both) is that zip's checksum, not a file to import.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checksumsBeside, isDataFile } from '../../src-shared/archive-files.ts';

/**
 * Files to import under the given paths: .zip, .csv and .jsonl (a recorder's JSON lines) files,
 * folders searched, sorted; and the .CHECKSUM files named beside their zips, left out of `files`
 * (each is read as its zip's checksum). A .CHECKSUM named without its zip stays in `files`, for
 * the import to refuse.
 */
export function expandPaths(paths: readonly string[]): { files: string[]; checksums: string[] } {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (isDataFile(p)) out.push(p);
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new Error(`${p}: no such file or folder`);
    }
    if (st.isDirectory()) walk(p);
    else out.push(p);
  }
  const beside = checksumsBeside(out);
  return { files: out.filter((p) => !beside.has(p)), checksums: out.filter((p) => beside.has(p)) };
}
