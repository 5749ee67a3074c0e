// The start check's read of every b-tree's root page (src-main/store/btree-roots.ts) never refuses a
// sound database: leaf and interior roots of tables, indexes and a WITHOUT ROWID table, empty
// tables, rows deleted; and it finds a root page overwritten, naming it.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { damagedRoot, type BtreeRoot } from '../../src-main/store/btree-roots.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function sound(): { file: string; roots: BtreeRoot[] } {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-roots-'));
  dirs.push(dir);
  const file = join(dir, 'x.db');
  const db = new DatabaseSync(file);
  db.exec(`
    PRAGMA journal_mode = WAL;
    CREATE TABLE empty (a INTEGER);
    CREATE TABLE big (id INTEGER PRIMARY KEY, t INTEGER, s TEXT);
    CREATE INDEX big_t ON big(t);
    CREATE TABLE keyed (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID;
    CREATE TABLE small (a TEXT UNIQUE);
  `);
  db.exec('BEGIN');
  const big = db.prepare('INSERT INTO big (t, s) VALUES (?, ?)');
  const keyed = db.prepare('INSERT INTO keyed VALUES (?, ?)');
  for (let i = 0; i < 50_000; i++) {
    big.run(i * 7, `row ${i}`);
    keyed.run(`key ${i}`, Buffer.alloc(i % 200, i));
  }
  db.exec("INSERT INTO small VALUES ('one'), ('two')");
  db.exec('COMMIT');
  db.exec('DELETE FROM big WHERE id % 3 = 0; DELETE FROM keyed WHERE length(v) > 150');
  const roots = db
    .prepare("SELECT type, name, rootpage FROM sqlite_master WHERE rootpage > 0 AND type IN ('table', 'index')")
    .all() as unknown as BtreeRoot[];
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { file, roots };
}

const geometry = (file: string) => ({ pageSize: 4096, usable: 4096, pages: statSync(file).size / 4096 });

describe('the root pages of a database', () => {
  it('of a sound one pass, leaf and interior, rowid and WITHOUT ROWID, empty and deleted from', () => {
    const { file, roots } = sound();
    expect(roots.map((r) => r.name).sort()).toEqual([
      'big',
      'big_t',
      'empty',
      'keyed',
      'small',
      'sqlite_autoindex_small_1',
    ]);
    // interior roots among them: a rowid table's (5), an index's and the WITHOUT ROWID table's (2)
    const fd = openSync(file, 'r');
    const kind = (name: string) => {
      const b = Buffer.alloc(1);
      readSync(fd, b, 0, 1, (roots.find((r) => r.name === name)!.rootpage - 1) * 4096);
      return b[0];
    };
    expect([kind('big'), kind('big_t'), kind('keyed'), kind('empty')]).toEqual([5, 2, 2, 13]);
    closeSync(fd);
    expect(damagedRoot(file, roots, geometry(file))).toBeNull();
  });

  it('one overwritten is named', () => {
    const { file, roots } = sound();
    const big = roots.find((r) => r.name === 'big_t')!;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, (big.rootpage - 1) * 4096);
    closeSync(fd);
    expect(damagedRoot(file, roots, geometry(file))).toBe(
      `the root page ${big.rootpage} of the index big_t is damaged (page type 65 is not a b-tree page's)`,
    );
  });
});
