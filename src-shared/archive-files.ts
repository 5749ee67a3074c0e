// Which of the files an import is given are data and which are a file's `.CHECKSUM` (the archive
// publishes one beside each zip: "<hex>  <file name>"), and the digest a `.CHECKSUM` states. One
// rule for the data CLI's paths (src-main/data/expand-paths.ts), the service that reads them and
// the Data dialog's picked files: a `.CHECKSUM` named along with its file is that file's checksum,
// one named without it is no data and is refused.

/**
 * Whether the name is of a file an import reads: a zip, a CSV or a recorder's JSON lines, the last
 * two also gzip'd (a recorder's `ws_events.jsonl.gz`, a `.csv.gz` day file), read through gunzip.
 */
export const isDataFile = (name: string): boolean => /\.(zip|csv|jsonl|csv\.gz|jsonl\.gz)$/i.test(name);

/** Whether the name is of an archive checksum file (`X.zip.CHECKSUM`), which is no data. */
export const isChecksumFile = (name: string): boolean => /\.checksum$/i.test(name);

/** The file a `.CHECKSUM` is the checksum of (`X.zip` of `X.zip.CHECKSUM`). */
export const checksumTarget = (name: string): string => name.slice(0, -'.CHECKSUM'.length);

/** The `.CHECKSUM` files among `names` whose data file is named too: each is read as that file's checksum. */
export function checksumsBeside(names: readonly string[]): Set<string> {
  const data = new Set(names.filter(isDataFile));
  return new Set(names.filter((n) => isChecksumFile(n) && data.has(checksumTarget(n))));
}

/**
 * Why a `.CHECKSUM` named without its file is refused (it has no rows to read); `zipBeside` false
 * when its zip is not in its folder either (a download that failed for the zip left it alone).
 */
export function checksumAlone(name: string, zipBeside = true): string {
  const zip = checksumTarget(name);
  return zipBeside
    ? `a .CHECKSUM file is not data; give its zip (${zip})`
    : `a .CHECKSUM file is not data, and its zip (${zip}) is not beside it: download it again ` +
        '(npm run data -- download, the same command: a download that failed for the zip left its .CHECKSUM alone)';
}

/** The hex digest a `.CHECKSUM` file states, or null when it holds none. */
export function parseChecksum(text: string): string | null {
  const m = /^\s*([0-9a-fA-F]{64})\b/.exec(text);
  return m === null ? null : m[1].toLowerCase();
}

/** Why a file is refused whose `.CHECKSUM` (named `sumName`) states no digest. */
export function noDigest(sumName: string): string {
  return `${sumName} holds no SHA-256 digest`;
}
