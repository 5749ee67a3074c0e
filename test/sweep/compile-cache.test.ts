// A worker's processes and its bots share Node's compile cache in the worker's cache folder
// (src-main/sweep/compile-cache.ts): a local pool's worker hands it to its bot, the bot's run
// fills it, and a cache the user's environment already names (or turns off) is left alone.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCacheEnv } from '../../src-main/sweep/compile-cache.ts';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { LocalPool } from '../../src-main/sweep/pool.ts';
import { klinesDataDir, testJob } from './fixture.ts';

let ref: PackRef;
let cacheDir: string;
const KEYS = ['PERPDESK_SWEEP_CACHE', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE'] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  const dir = await klinesDataDir();
  ref = await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/cc/data.db`);
  cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cc-test-'));
  process.env.PERPDESK_SWEEP_CACHE = cacheDir;
  delete process.env.NODE_COMPILE_CACHE;
  delete process.env.NODE_DISABLE_COMPILE_CACHE;
});
// (the worker's other files run in this process after this one: vitest.config.ts, isolate)
afterAll(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const envJob: SweepJob = testJob({ id: 'swC:0', sweepId: 'swC', params: { mode: 'env' } });

describe("Node's compile cache", () => {
  it("is the cache folder's node-compile-cache unless the environment names one or turns it off", () => {
    expect(compileCacheEnv('/c', {})).toEqual({ NODE_COMPILE_CACHE: path.join('/c', 'node-compile-cache') });
    expect(compileCacheEnv('/c', { NODE_COMPILE_CACHE: '/mine' })).toEqual({});
    expect(compileCacheEnv('/c', { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({});
  });

  it("reaches a local pool's bot, whose run fills it", async () => {
    const results: JobResult[] = [];
    await new LocalPool(1).run([envJob], ref, { onResult: (_j, r) => results.push(r) });
    expect(results).toHaveLength(1);
    expect(results[0].status).toBe('ok');
    const want = path.join(cacheDir, 'node-compile-cache');
    expect(results[0].outputTail).toContain(`NODE_COMPILE_CACHE=${want}`);
    expect(existsSync(want)).toBe(true);
    // one folder per Node version, holding the compiled modules (the bot's and the SDK's among them)
    const versions = readdirSync(want);
    expect(versions.length).toBeGreaterThan(0);
    expect(readdirSync(path.join(want, versions[0])).length).toBeGreaterThan(5);
  }, 60_000);
});
