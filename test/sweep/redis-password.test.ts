// A --queue URL with a password (redis://default:PASSWORD@HOST:PORT, docs/sweeps.md, Two machines):
// the lines and refusals that show the URL show it as redis://default:***@HOST:PORT. Before, every
// queue worker's first line (`taking jobs from redis://default:hunter2@...`, a Deployment's log),
// the coordinator's `redis at ...: ...; retrying` and the refusal of an unreachable Redis carried it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachRedis, shownUrl } from '../../src-main/sweep/redis-url.ts';
import { runCli, startCli } from './cli-helpers.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe('a --queue URL with a password', () => {
  it('is shown with *** for its password, and as given without one', () => {
    expect(shownUrl('redis://default:hunter2@10.0.0.5:6379/2')).toBe('redis://default:***@10.0.0.5:6379/2');
    expect(shownUrl('rediss://:p%40ss@redis.example:6380')).toBe('rediss://:***@redis.example:6380');
    expect(shownUrl('redis://10.0.0.5:6379')).toBe('redis://10.0.0.5:6379');
    expect(shownUrl('not a url')).toBe('not a url');
  });

  it('is refused without its password when Redis cannot be reached, by the sweep and sweep:worker', async () => {
    const port = await freePort();
    const url = `redis://default:hunter2@127.0.0.1:${port}`;
    await expect(reachRedis(url)).rejects.toThrow(
      `cannot reach Redis at redis://default:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-pw-'));
    const [sweep, worker] = await Promise.all([
      runCli(['--data-dir', dir, '--bot', 'node x.ts', '--replay', 'BTCUSDT@2025-01-06..2025-01-06', '--queue', url]),
      runCli(['worker', '--queue', url, '--concurrency', '1']),
    ]);
    for (const r of [sweep, worker]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('redis://default:***@127.0.0.1');
      expect(r.stderr + r.stdout).not.toContain('hunter2');
    }
  }, 60_000);

  describe.skipIf(!HAS_REDIS)('against a Redis', () => {
    let redis: ChildProcess;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    });
    afterAll(() => stop(redis));

    it("is not in a worker's first line", async () => {
      // a Redis without requirepass takes any password of the default user
      const w = startCli(['worker', '--queue', `redis://default:hunter2@127.0.0.1:${port}`, '--concurrency', '1']);
      try {
        await until('the worker takes jobs', () => w.stdout().includes('taking jobs'));
        expect(w.stdout()).toMatch(
          new RegExp(`perpdesk sweep worker \\d+: taking jobs from redis://default:\\*\\*\\*@127\\.0\\.0\\.1:${port} `),
        );
        expect(w.stdout()).not.toContain('hunter2');
      } finally {
        await stop(w.child);
      }
    }, 90_000);
  });
});
