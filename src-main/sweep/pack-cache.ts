// How a worker gets a sweep's dataset pack (pack.ts) by its checksum: from its cache folder, else
// from the path the coordinator wrote it to (the same machine, or a shared folder), else fetched
// from the coordinator's pack server. A file read from the path or fetched is checked against the
// SHA-256 before use; a fetched one is kept in the cache under its checksum. Open packs are kept
// for the life of the process (a worker runs many jobs of one sweep).
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cachedPackPath, openPack, sha256File, type OpenPack, type PackRef } from './pack.ts';

export class PackCache {
  private readonly open = new Map<string, OpenPack>();
  private readonly cacheDir: string;

  constructor(cacheDir: string) {
    this.cacheDir = cacheDir;
  }

  async get(ref: PackRef): Promise<OpenPack> {
    const known = this.open.get(ref.sha256);
    if (known !== undefined) return known;
    const file = await this.locate(ref);
    const pack = openPack(file);
    this.open.set(ref.sha256, pack);
    return pack;
  }

  private async locate(ref: PackRef): Promise<string> {
    const cached = cachedPackPath(this.cacheDir, ref.sha256);
    if (existsSync(cached)) return cached;
    if (existsSync(ref.path) && (await sha256File(ref.path)) === ref.sha256) return ref.path;
    if (ref.url === undefined) {
      throw new Error(
        `the dataset pack ${ref.sha256.slice(0, 12)} is neither at ${ref.path} nor in ${this.cacheDir}, and no pack server was given`,
      );
    }
    const url = ref.url;
    // once more on a network error: a kept-alive socket the server just closed fails the first try
    const r = await fetch(url)
      .catch(() => fetch(url))
      .catch((err: unknown) => {
        throw new Error(`cannot fetch the dataset pack from ${url}: ${err instanceof Error ? err.message : err}`);
      });
    if (!r.ok) throw new Error(`cannot fetch the dataset pack from ${ref.url}: HTTP ${r.status}`);
    mkdirSync(this.cacheDir, { recursive: true });
    const part = `${cached}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await r.arrayBuffer()));
    const got = await sha256File(part);
    if (got !== ref.sha256) {
      rmSync(part, { force: true });
      throw new Error(`the dataset pack fetched from ${ref.url} has checksum ${got}, not ${ref.sha256}: refused`);
    }
    renameSync(part, cached);
    return cached;
  }

  /** Copies a pack into the cache (a coordinator seeding a shared cache). */
  static seed(cacheDir: string, ref: PackRef): void {
    mkdirSync(cacheDir, { recursive: true });
    copyFileSync(ref.path, cachedPackPath(cacheDir, ref.sha256));
  }

  close(): void {
    for (const p of this.open.values()) p.close();
    this.open.clear();
  }
}
