// Where a sweep worker keeps what outlives a job: its cache folder (dataset packs, pack-cache.ts)
// and in it Node's compile cache (NODE_COMPILE_CACHE), which the worker processes and their bots
// share. A job starts a Node bot afresh, and without the cache each start strips its TypeScript and
// compiles it and the SDK again (about 0.3 s of CPU a job); with it, a bot's second and later runs
// read them back. Entries are keyed by the source's checksum and Node's version, so a changed bot
// or another Node is compiled anew. A NODE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE already in
// the environment is the user's choice and left as it is.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A worker's cache folder when none is given (--cache-dir, PERPDESK_SWEEP_CACHE). */
export function defaultCacheDir(): string {
  return process.env.PERPDESK_SWEEP_CACHE ?? join(tmpdir(), 'perpdesk-sweep-cache');
}

/** The environment to add to a worker process or a bot: NODE_COMPILE_CACHE in the cache folder, unless set. */
export function compileCacheEnv(cacheDir: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return {};
  return { NODE_COMPILE_CACHE: join(cacheDir, 'node-compile-cache') };
}
