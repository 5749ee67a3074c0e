// The files an import names: .zip, .csv and .jsonl files as given, folders searched for them (sorted,
// so an archive tree imports day after day). .CHECKSUM files are found beside their zips later.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Files to import under the given paths: .zip, .csv and .jsonl (a recorder's JSON lines) files, folders searched, sorted. */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (/\.(zip|csv|jsonl)$/i.test(p)) out.push(p);
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
  return out;
}
