// The latency runs' tail attribution (bench/lib/tail.ts): what the servers' process records while
// a run is measured, and how the slowest 1 % is put down to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { attributeTail, tailLine, TailWatch, type Cause } from '../../bench/lib/tail.ts';
import { GroupCommit, groupCommitOf } from '../../src-main/store/group-commit.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('attributeTail', () => {
  it('puts each slow request down to the first cause overlapping it, and counts its bursts', () => {
    // 1,000 requests due 1 ms apart from t = 10,000, 1 ms each; ten of them slow (20 ms):
    // four in a burst at 100-103 (overlapping a held write lock and a scavenge: the lock comes
    // first), three at 500-502 (a scavenge only), three apart at 800, 850, 900 (nothing)
    const dues: number[] = [];
    const lats: number[] = [];
    for (let i = 0; i < 1000; i++) {
      dues.push(10_000 + i);
      lats.push([100, 101, 102, 103, 500, 501, 502, 800, 850, 900].includes(i) ? 20 : 1);
    }
    const intervals = new Map<Cause, Array<[number, number]>>([
      ['write lock', [[10_110, 10_115]]],
      ['commit > 2 ms', []],
      ['mark-compact', []],
      [
        'scavenge > 1 ms',
        [
          [10_105, 10_106],
          [10_515, 10_516],
        ],
      ],
      ['loop gap > 5 ms', []],
    ]);
    const r = attributeTail({ dues, lats }, intervals);
    expect(r.slow).toBe(10);
    expect(r.p99).toBe(20);
    expect(r.bursts).toBe(5);
    expect(r.largestBurst).toBe(4);
    const by = Object.fromEntries(r.causes.map((c) => [c.cause, c]));
    expect(by['write lock'].slow).toBe(4);
    expect(by['scavenge > 1 ms'].slow).toBe(3);
    expect(by.none.slow).toBe(3);
    // of all 1,000: the lock's 6 ms overlap requests due 10,109..10,115 (1 ms each) and the
    // four slow ones before them
    expect(by['write lock'].allShare).toBeCloseTo(11 / 1000, 6);
    expect(tailLine(r)).toContain('write lock 40 % (of all requests 1.1 %)');
    expect(tailLine(r)).toContain('none of these 30 %');
  });
});

describe('TailWatch', () => {
  it('records a loop gap, a slow commit and a held write lock, and gives the commit back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tail-'));
    dirs.push(dir);
    const file = join(dir, 'x.db');
    const db = new DatabaseSync(file);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 2000; CREATE TABLE t (a)');
    const other = new DatabaseSync(file);
    const group = groupCommitOf(db);
    const watch = new TailWatch(group);
    let taken = 0;
    let released = 0;
    try {
      await sleep(5);
      spin(30); // the event loop held: a gap of the 1 ms timer
      await sleep(5);
      // a commit that takes 10 ms (its deferred writer is slow)
      group.defer(() => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        spin(10);
      });
      group.commitNow();
      // another connection holds the write lock for 40 ms: the scheduled commit waits for it
      other.exec('BEGIN IMMEDIATE');
      taken = performance.timeOrigin + performance.now();
      group.defer(() => db.prepare('INSERT INTO t VALUES (2)').run());
      const durable = group.durable();
      await sleep(40);
      released = performance.timeOrigin + performance.now();
      other.exec('COMMIT');
      await durable;
      await sleep(5);
    } finally {
      const got = watch.stop();
      expect(group.commitNow).toBe(GroupCommit.prototype.commitNow);
      const span = (c: Cause): number[] => got.get(c)!.map(([a, b]) => b - a);
      expect(span('loop gap > 5 ms').some((ms) => ms >= 25)).toBe(true);
      expect(span('commit > 2 ms').some((ms) => ms >= 9)).toBe(true);
      // from the 1 ms timer's first sight of a retry (within the hold; it dates it a millisecond
      // back) to the commit (after the release), however late a loaded host lets that timer run
      const held = got.get('write lock')!.filter(([a, b]) => a >= taken - 2 && a < released && b >= released);
      expect(held, JSON.stringify({ taken, released, got: got.get('write lock') })).toHaveLength(1);
      other.close();
      db.close();
    }
  });
});
