// Reading one archive file: its SHA-256 (checked against a `.CHECKSUM` beside it, which is
// how the archive publishes them: "<hex>  <file name>"), then its lines, streamed from the zip
// (yauzl over node's zlib) or the plain CSV. Memory stays flat: one chunk at a time.
// yauzl checks a zip's structure and an entry's sizes, not its CRC-32: the entry's bytes are
// checked against it here as they stream, and a mismatch refuses the file at its end, before
// the import commits anything (a damaged stored zip otherwise read as good rows).

import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { crc32, createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { noDigest, parseChecksum } from '../../src-shared/archive-files.ts';

export class FileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileRefused';
  }
}

/** SHA-256 (hex) of a file's bytes. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * The file's SHA-256, after checking it against `<path>.CHECKSUM` when that exists. Throws
 * FileRefused on a mismatch or an unreadable checksum file.
 */
export async function verifiedHash(path: string): Promise<{ sha256: string; checked: boolean }> {
  const sha256 = await sha256File(path);
  const sumFile = `${path}.CHECKSUM`;
  if (!existsSync(sumFile)) return { sha256, checked: false };
  const want = parseChecksum(readFileSync(sumFile, 'utf8'));
  if (want === null) throw new FileRefused(noDigest(basename(sumFile)));
  if (want !== sha256) {
    throw new FileRefused(
      `${basename(path)} does not match ${basename(sumFile)} (SHA-256 ${sha256}, expected ${want}): the file is damaged or incomplete`,
    );
  }
  return { sha256, checked: true };
}

/** What a zip that cannot be read leaves, and the remedy. */
const BROKEN_ZIP = 'nothing of this file was imported: download it again';

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    );
  });
}

/** An AppleDouble entry of a zip made by macOS (its Finder's Compress): `__MACOSX/` or a `._` name. */
function isAppleDouble(name: string): boolean {
  return name.startsWith('__MACOSX/') || /(^|\/)\._[^/]*$/.test(name);
}

/** The zip, open, and its one CSV entry (the archive's zips hold exactly one); FileRefused otherwise. */
async function csvEntry(path: string): Promise<{ zip: yauzl.ZipFile; entry: yauzl.Entry }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (err) {
    // most often a download cut short (yauzl: 'Either not a zip file, or file is truncated.')
    const why = (err as Error).message.replace(/\.$/, '');
    throw new FileRefused(`${basename(path)} is not a readable zip file: ${why}; ${BROKEN_ZIP}`);
  }
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (!e.fileName.endsWith('/')) entries.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  }).catch((err: Error) => {
    throw new FileRefused(`${basename(path)}: damaged zip: ${err.message.replace(/\.$/, '')}; ${BROKEN_ZIP}`);
  });
  // macOS's Compress adds each file's resource fork (__MACOSX/._NAME.csv): not a CSV of rows
  const csv = entries.filter((e) => e.fileName.toLowerCase().endsWith('.csv') && !isAppleDouble(e.fileName));
  if (csv.length !== 1) {
    zip.close();
    throw new FileRefused(`${basename(path)} holds ${csv.length} CSV files; an archive zip holds exactly one`);
  }
  return { zip, entry: csv[0] };
}

/** The name of the zip's one CSV entry, as the zip records it (the archive's: the zip's own name, .csv). */
export async function zipEntryName(path: string): Promise<string> {
  const { zip, entry } = await csvEntry(path);
  zip.close();
  return entry.fileName;
}

/** The read stream of the zip's one CSV entry. */
async function zipEntryStream(path: string): Promise<Readable> {
  const { zip, entry } = await csvEntry(path);
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) {
        zip.close();
        reject(new FileRefused(`${basename(path)}: ${err.message}`));
        return;
      }
      stream.once('close', () => zip.close());
      resolve(crcChecked(stream, entry, basename(path)));
    });
  });
}

/** Hex of a CRC-32 as zip tools print it (8 digits). */
const crcHex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

/** The entry's bytes as they come, failing with FileRefused at the end when they do not have the entry's CRC-32. */
function crcChecked(stream: Readable, entry: yauzl.Entry, name: string): Readable {
  let crc = 0;
  const check = new Transform({
    transform(chunk: Buffer, _enc, done) {
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done) {
      if (crc >>> 0 === entry.crc32 >>> 0) done();
      else
        done(
          new FileRefused(
            `${name} is damaged: CRC-32 mismatch in ${entry.fileName} (its data has ${crcHex(crc)}, the zip records ${crcHex(entry.crc32)})`,
          ),
        );
    },
  });
  pipeline(stream, check, () => {}); // an error of either ends both; the reader sees it on `check`
  return check;
}

/**
 * Why a zip's CSV entry is damaged (its CRC-32, or inflating it, fails), or null when it reads
 * whole. Read in full; for saying why a zip's rows did not parse.
 */
export async function zipDamage(path: string): Promise<string | null> {
  try {
    const entry = await zipEntryStream(path);
    entry.resume();
    await finished(entry);
    return null;
  } catch (err) {
    return err instanceof FileRefused
      ? err.message
      : `${basename(path)} is damaged: its data does not inflate (${(err as Error).message})`;
  }
}

/** The UTF-8 byte order mark, EF BB BF, as latin1 decodes it. */
const UTF8_BOM = '\u00ef\u00bb\u00bf';

/** Whether the path names a zip (by its name; the archive names every zip .zip). */
export function isZip(path: string): boolean {
  return path.toLowerCase().endsWith('.zip');
}

/**
 * Whether the file opens with gzip's magic bytes, 1F 8B (a recorder's `ws_events.jsonl.gz`, a
 * `.csv.gz`): such a file's lines are read through gunzip, whatever its name.
 */
function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** A plain file's bytes, gunzipped when it is gzip (its errors, a cut-off or damaged file, are gunzip's). */
function plainStream(path: string): Readable {
  if (!isGzip(path)) return createReadStream(path);
  return pipeline(createReadStream(path), createGunzip(), () => {});
}

/**
 * The file's lines (zip, gzip or plain), without line breaks (\n or \r\n), a chunk's worth at a
 * time. `onBytes` sees the count of raw (uncompressed) bytes as they are read, for progress.
 */
export async function* readLines(
  path: string,
  onBytes?: (n: number) => void,
): AsyncGenerator<string[], void, undefined> {
  const stream = isZip(path) ? await zipEntryStream(path) : plainStream(path);
  let rest = '';
  let first = true;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      onBytes?.(buf.length);
      // The archive is ASCII; latin1 decodes any byte, so a stray byte is reported by the row check.
      let text = rest + buf.toString('latin1');
      // a UTF-8 byte order mark (a CSV saved by Excel) is no part of the first line
      if (first && text.length >= 3) {
        first = false;
        if (text.startsWith(UTF8_BOM)) text = text.slice(3);
      }
      const lines: string[] = [];
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        lines.push(text.slice(start, end));
        start = nl + 1;
      }
      rest = text.slice(start);
      if (lines.length > 0) yield lines;
    }
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR): the compressed data is not what deflate wrote
    if (/^Z_/.test(String((err as { code?: unknown }).code)))
      throw new FileRefused(`${basename(path)} is damaged: its data does not inflate (${(err as Error).message})`);
    throw new FileRefused(`${basename(path)}: reading failed: ${(err as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (rest.length > 0) yield [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
}
