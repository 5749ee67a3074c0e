// How a worker gets a sweep's dataset pack (pack-cache.ts): from the coordinator's path when the
// file there has the checksum, else fetched from the pack server, checked, and kept in the cache;
// a fetched file with another checksum is refused and not kept.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, cachedPackPath, type PackRef } from '../../src-main/sweep/pack.ts';
import { PackCache } from '../../src-main/sweep/pack-cache.ts';
import { klinesDataDir } from './fixture.ts';

let ref: PackRef;
let server: Server;
let base: string;
let body: Buffer;

beforeAll(async () => {
  const dir = await klinesDataDir();
  ref = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'sweeps', 'p', 'data.db'));
  body = readFileSync(ref.path);
  server = createServer((req, res) => {
    if (req.url === '/good.db') res.end(body);
    else if (req.url === '/bad.db') res.end(Buffer.concat([body, Buffer.from('x')]));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('PackCache', () => {
  it('reads the pack at its path, or fetches it, checks it and keeps it', async () => {
    const here = new PackCache(mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-')));
    const local = await here.get(ref);
    expect(local.datasets.map((d) => [d.symbol, d.kind, d.interval, d.rows])).toEqual([
      ['BTCUSDT', 'klines', '15m', 672],
    ]);
    here.close();

    const cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
    const remote = new PackCache(cacheDir);
    const p = await remote.get({ ...ref, path: '/nowhere/data.db', url: `${base}/good.db` });
    expect(p.datasets).toHaveLength(1);
    expect(readFileSync(cachedPackPath(cacheDir, ref.sha256))).toEqual(body);
    remote.close();
  });

  it('refuses a fetched pack whose checksum differs, and a pack it cannot find', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
    const c = new PackCache(cacheDir);
    await expect(c.get({ ...ref, path: '/nowhere/data.db', url: `${base}/bad.db` })).rejects.toThrow(
      new RegExp(`has checksum [0-9a-f]{64}, not ${ref.sha256}: refused`),
    );
    expect(existsSync(cachedPackPath(cacheDir, ref.sha256))).toBe(false);
    await expect(c.get({ ...ref, path: '/nowhere/data.db', url: `${base}/missing.db` })).rejects.toThrow(/HTTP 404/);
    await expect(c.get({ ...ref, path: '/nowhere/data.db' })).rejects.toThrow(
      /neither at \/nowhere\/data.db nor in .*no pack server was given/,
    );
    rmSync(cacheDir, { recursive: true, force: true });
  });
});

describe('a sweep dataset pack', () => {
  it('is the same bytes (the same SHA-256) packed twice from the same data, so a worker caches it once', async () => {
    const dir = await klinesDataDir();
    const a = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'sweeps', 'a', 'data.db'));
    const b = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'sweeps', 'b', 'data.db'));
    expect(readFileSync(a.path).equals(readFileSync(b.path))).toBe(true);
    expect(b.sha256).toBe(a.sha256);
    // and a pack of other data has another id (PRAGMA application_id: bytes 68-71), not 0
    const other = await klinesDataDir();
    const db = new DatabaseSync(path.join(other, 'perpdesk.db'));
    db.exec("UPDATE dataset_files SET name = 'renamed.csv'");
    db.close();
    const c = await buildPack(other, ['BTCUSDT'], path.join(other, 'sweeps', 'c', 'data.db'));
    const id = (f: string) => readFileSync(f).readInt32BE(68);
    expect(id(a.path)).not.toBe(0);
    expect(id(c.path)).not.toBe(id(a.path));
  });
});
